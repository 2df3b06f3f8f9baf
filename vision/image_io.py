"""Reading images with errors that say which file and what to do."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np

from skullcam import MAX_IMAGE_PIXELS
from skullcam.errors import UserError

logger = logging.getLogger(__name__)

MAX_PIXELS = MAX_IMAGE_PIXELS
"""The largest image opened: a 50-megapixel phone photo fits twice over. A PNG of a few MB
can declare 20,000 x 20,000 pixels and take over a gigabyte once decoded, more than a Pi has
to spare (an upload on the enrollment page did that)."""


def declared_size(data: bytes | np.ndarray) -> tuple[int, int] | None:
    """(width, height) from a PNG's or JPEG's header, without decoding it; None for other
    formats or a header too short to say (OpenCV's own limit then applies). A JPEG's markers
    are walked to its frame header wherever it lies: a phone's EXIF and preview can put it
    past the first 64 kB."""
    view = (
        memoryview(data) if isinstance(data, bytes) else np.ascontiguousarray(data, np.uint8).data
    )
    if bytes(view[:8]) == b"\x89PNG\r\n\x1a\n" and len(view) >= 24:
        return int.from_bytes(view[16:20], "big"), int.from_bytes(view[20:24], "big")
    if bytes(view[:2]) != b"\xff\xd8":
        return None
    i = 2
    while i + 9 <= len(view) and view[i] == 0xFF:
        marker, length = view[i + 1], int.from_bytes(view[i + 2 : i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a frame header
            height = int.from_bytes(view[i + 5 : i + 7], "big")
            return int.from_bytes(view[i + 7 : i + 9], "big"), height
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
    except cv2.error as err:  # OpenCV's own limit (``skullcam.MAX_IMAGE_PIXELS``), any format
        if "MAX_IMAGE_PIXELS" in str(err):
            raise UserError(
                f"{name} is too large to open (over {MAX_PIXELS // 1_000_000} megapixels):"
                " use a smaller image"
            ) from None
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


MIN_FRAME_SIDE = 32
MAX_FRAME_RATIO = 10
"""Frames outside these are refused: a sliver has no card in it, and letterboxing a 2 x 3000
image to the detector's input would shrink its short side to no pixels at all."""


GREY_CHECK_STRIDE = 16
"""Every 16th row and column (1/256 of the pixels) is enough to see colour in a camera frame
and costs next to nothing beside the networks."""


def looks_grey(frame: np.ndarray) -> bool:
    """Whether a frame is a picture with no colour, logged as a warning when it is. A camera in
    greyscale mode (some start in it, an infrared one always is) makes cards read as confident
    wrong faces, since suits differ by colour; files are refused for it (``read_picture``)
    but a live frame is not, which would stop a game over a camera setting. A frame without a
    picture (black, the lens covered) is not judged."""
    sample = frame[::GREY_CHECK_STRIDE, ::GREY_CHECK_STRIDE]
    if has_colour(sample) or int(sample.max()) - int(sample.min()) < 32:
        return False
    logger.warning(
        "the camera's picture has no colour: card suits are told apart by colour, so cards "
        "will be misread; set the camera to colour"
    )
    return True


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """Accept grey, BGR or BGRA uint8 frames; anything else is a clear error, not a crash."""
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        raise UserError("frame is not an image array (expected H x W x 3 uint8 BGR)")
    height, width = frame.shape[:2]
    if min(height, width) < MIN_FRAME_SIDE or max(height, width) > MAX_FRAME_RATIO * min(
        height, width
    ):
        raise UserError(
            f"the image is {width}x{height} pixels, too small or too thin to show cards "
            f"(at least {MIN_FRAME_SIDE} pixels each way, at most {MAX_FRAME_RATIO}:1); "
            "give a photo of the table"
        )
    import cv2

    frame = as_uint8(frame)
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.shape[2] == 1:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] != 3:
        raise UserError(f"frame has {frame.shape[2]} channels; expected 1, 3 or 4")
    return frame


def as_uint8(frame: np.ndarray) -> np.ndarray:
    """8-bit pixels from the formats a camera or an image library gives: 16-bit (a PNG read
    unchanged, a raw sensor) scaled down, floats in [0, 1] or [0, 255] scaled or cast.
    Clipping a 16-bit frame to 255, as before, turned it white and found no cards, silently."""
    if frame.dtype == np.uint8:
        return frame
    if frame.dtype == np.uint16:
        return (frame >> 8).astype(np.uint8)
    if np.issubdtype(frame.dtype, np.floating):
        if not np.isfinite(frame).all():
            raise UserError("the image has NaN or infinite pixel values; give a photo of the table")
        low, high = float(frame.min()), float(frame.max())
        if low < 0 or high > 255:
            raise UserError(
                f"the image's float pixels run from {low:g} to {high:g}; expected 0..1 or 0..255"
            )
        return np.rint(frame * (255.0 if high <= 1.0 else 1.0)).astype(np.uint8)
    if np.issubdtype(frame.dtype, np.integer) and frame.min() >= 0 and frame.max() <= 255:
        return frame.astype(np.uint8)
    raise UserError(
        f"the image's pixels are {frame.dtype} values the camera formats do not give; "
        "expected 8-bit (or 16-bit) BGR"
    )
