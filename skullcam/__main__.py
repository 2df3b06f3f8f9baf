"""``python -m skullcam`` and the ``skullcam`` console command (pyproject's
``[project.scripts]``). Guarded: worker processes started by spawn or a fork server import
this module again, and must not run the command line a second time."""

import signal
import sys

from skullcam import stop_as_interrupt


def main() -> int:
    """The command line, with a Ctrl-C (or a SIGTERM) while it starts said as one line and
    exit 130.

    ``skullcam.cli.main`` says an interrupted command so once its command runs; before that,
    for the first ~0.1-0.6 s, the import of the CLI and its command modules (and argparse) was
    running, and Ctrl-C there printed a KeyboardInterrupt traceback and exited -2. This module
    imports nothing heavy, so the window left is the interpreter's own start.
    """
    signal.signal(signal.SIGTERM, stop_as_interrupt)
    try:
        from skullcam.cli import main as cli_main

        return cli_main()
    except KeyboardInterrupt:
        print("skullcam: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
