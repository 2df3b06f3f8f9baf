import sys

from skullcam.cli import main

sys.exit(main())
