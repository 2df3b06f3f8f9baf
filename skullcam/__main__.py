"""``python -m skullcam``. Guarded: worker processes started by spawn or a fork server import
this module again, and must not run the command line a second time."""

import sys

from skullcam.cli import main

if __name__ == "__main__":
    sys.exit(main())
