"""skullcam: a camera-assisted referee and live scoreboard for Skull King.

The design card's top-level folders are subpackages of this one import name
(``rules/`` is ``skullcam.rules``, ``vision/`` is ``skullcam.vision``...), so an installed
skullcam works from any directory while the repository keeps its flat layout.
"""

__version__ = "0.1.0"

import os as _os

MAX_IMAGE_PIXELS = 100_000_000
"""The largest image skullcam decodes (see ``vision/image_io.py``). Also OpenCV's own limit,
set before anything imports cv2: only PNG and JPEG headers are read before decoding, and a
10 kB WebP (or TIFF) declaring 12,000 x 12,000 pixels took an enrollment upload to 1.7 GB."""
_os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_IMAGE_PIXELS))
