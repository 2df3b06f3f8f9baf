"""OpenCV's image reading for tests: a picture that does not read fails the test there.

``cv2.imread`` and ``cv2.imdecode`` return None for a file or bytes they cannot read (typed
``ndarray | None``), which would otherwise surface later as a ``None`` with no ``shape``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def imread(path: Path | str, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """``cv2.imread(str(path), flags)``, asserted to have read."""
    image = cv2.imread(str(path), flags)
    assert image is not None, f"OpenCV cannot read {path}"
    return image


def imdecode(data: bytes, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """``cv2.imdecode`` of encoded bytes (a JPEG, a PNG), asserted to have decoded."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    assert image is not None, f"OpenCV cannot decode these {len(data)} bytes"
    return image
