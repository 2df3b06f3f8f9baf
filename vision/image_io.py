"""Reading images with errors that say which file and what to do."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from skullcam.errors import UserError


def check_image_file(path: Path) -> None:
    """A UserError unless ``path`` is a file: checked before a model loads, so a typo costs
    no wait, and a folder is called a folder rather than missing."""
    if path.is_dir():
        raise UserError(f"{path} is a folder, not an image; give an image file (.jpg, .png)")
    if not path.is_file():
        raise UserError(f"image {path} does not exist")


def read_image(path: Path) -> np.ndarray:
    """A BGR uint8 image, or a UserError naming the file (missing, unreadable or corrupt)."""
    check_image_file(path)
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise UserError(f"{path} is not a readable image (corrupt, empty or unknown format)")
    return image
