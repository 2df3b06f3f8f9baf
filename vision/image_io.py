"""Reading images with errors that say which file and what to do."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from skullcam.errors import UserError

MAX_PIXELS = 100_000_000
"""The largest image opened: a 50-megapixel phone photo fits twice over. A PNG of a few MB
can declare 20,000 x 20,000 pixels and take over a gigabyte once decoded, more than a Pi has
to spare (an upload on the enrollment page did that)."""


def declared_size(data: bytes | np.ndarray) -> tuple[int, int] | None:
    """(width, height) from a PNG's or JPEG's header, without decoding it; None for other
    formats or a header too short to say (OpenCV's own limit then applies)."""
    head = bytes(data[:65536])
    if head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) >= 24:
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 <= len(head) and head[i] == 0xFF:
        marker, length = head[i + 1], int.from_bytes(head[i + 2 : i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a frame header
            height = int.from_bytes(head[i + 5 : i + 7], "big")
            return int.from_bytes(head[i + 7 : i + 9], "big"), height
        i += 2 + length
    return None


def decode_image(data: bytes | np.ndarray, name: str) -> np.ndarray | None:
    """``data`` decoded to BGR, None when it is no image OpenCV reads, and a UserError naming
    ``name`` when it is larger than ``MAX_PIXELS``."""
    size = declared_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise UserError(
            f"{name} is {size[0]} x {size[1]} pixels, too large to open (over "
            f"{MAX_PIXELS // 1_000_000} megapixels): use a smaller image"
        )
    buffer = np.frombuffer(data, np.uint8) if isinstance(data, bytes) else data
    try:
        return cv2.imdecode(buffer, cv2.IMREAD_COLOR) if buffer.size else None
    except cv2.error:  # a size over OpenCV's own limit, in a format read above
        return None


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
    image = decode_image(np.fromfile(str(path), dtype=np.uint8), str(path))
    if image is None:
        raise UserError(
            f"{path} is not a readable image (corrupt, empty or unknown format): "
            "give a JPEG or PNG photo"
        )
    return image


GREY_TOLERANCE = 3
"""Channel differences up to this are a grey picture's rounding (JPEG, scaling), not colour:
a colour photo of a table has pixels far beyond it (its noise alone), a picture converted to
greyscale has none."""


def has_colour(image: np.ndarray, step: int = 1) -> bool:
    """Whether some pixel of ``image`` (every ``step``-th row and column) has colour: a
    single-channel picture or three identical channels has none."""
    if image.ndim < 3 or image.shape[2] < 3:
        return False
    sample = image[::step, ::step, :3]
    spread = sample.max(axis=2).astype(np.int32) - sample.min(axis=2)
    return bool((spread > GREY_TOLERANCE).any())


def no_colour_error(name: str) -> UserError:
    """The refusal of a picture of cards with no colour: the suits differ by colour alone
    (green, yellow, purple, black 7), so grey cards read as confident wrong faces."""
    return UserError(
        f"{name} has no colour: card suits are told apart by colour; use a colour photo or camera"
    )


def read_colour_image(path: Path) -> np.ndarray:
    """:func:`read_image`, refusing a greyscale picture (:func:`no_colour_error`): for a file
    that must show a card, such as an enrollment photo of one face."""
    image = read_image(path)
    if not has_colour(image):
        raise no_colour_error(str(path))
    return image
