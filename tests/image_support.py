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


def grey_empty_table() -> np.ndarray:
    """A dark grey cloth with grey noise and no card, 640 x 480 BGR: the scene generator draws
    such a table now and then (one of the 1,000 scenes of ``--seed 4242``)."""
    rng = np.random.default_rng(5)
    shade = 55 + rng.normal(0, 4, (480, 640)) + np.linspace(0, 20, 640)[None, :]
    return cv2.cvtColor(np.clip(shade, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
