"""The camera's working resolution, in one place for every package.

The Pi camera is configured for it (``device/sources.py``), the scene and game generators
render at it (``datasets``), the seat layout's default centre is its middle
(``vision/seats.py``), and the recognizer's input is letterboxed from it. Sizes here are
(width, height); the recognizer's ``detector_input`` is (height, width), as ONNX wants it.
"""

from __future__ import annotations

WORKING_SIZE: tuple[int, int] = (640, 480)
"""Width and height in pixels of the frames everything is made for."""
