"""Reading images with errors that say which file and what to do."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from skullcam.errors import UserError


def read_image(path: Path) -> np.ndarray:
    """A BGR uint8 image, or a UserError naming the file (missing, unreadable or corrupt)."""
    if not path.is_file():
        raise UserError(f"image {path} does not exist")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise UserError(f"{path} is not a readable image (corrupt, empty or unknown format)")
    return image
