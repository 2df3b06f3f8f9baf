"""Cut each detected card out of the frame and warp it upright for the face classifier.

The detector's oriented box says where the card is but not which short edge is its top, so
crops are warped with the long side vertical and the classifier is trained on both 0 and 180
degree turns. Warping from the full-resolution frame (not the detector's small input) keeps
the corner numbers legible.
"""

from __future__ import annotations

import cv2
import numpy as np

CARD_ASPECT = 87 / 56
"""A card's long side over its short one (1.55): the 56 x 87 mm of ``datasets/deck.py``'s
``SIZE_MM``, written out so that the recognizer's start-up does not import the deck generator
(18 ms here; ``vision/enroll.py`` imports it inside the function that needs it for the same
reason). A test keeps the two in step."""

# Crop size fed to the classifier: width x height, about the card's proportions.
CROP_W, CROP_H = 64, 96


def order_long_side_vertical(corners: np.ndarray) -> np.ndarray:
    """Reorder four corners so edge 0->1 is a short edge and 1->2 a long one.

    Of the two equivalent orders (the card turned 180 degrees) the one whose first corner is
    nearer the image top-left is taken, so equal inputs give equal crops.
    """
    pts = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    alt = np.roll(pts, -2, axis=0)
    if alt[0].sum() < pts[0].sum():
        pts = alt
    return pts


def rectify(
    frame: np.ndarray, corners: np.ndarray, size: tuple[int, int] = (CROP_W, CROP_H)
) -> np.ndarray:
    """Perspective-warp the quadrilateral ``corners`` (TL, TR, BR, BL) to an upright crop."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32).reshape(4, 2), dst)
    return cv2.warpPerspective(
        frame, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


# The classifier sees a little table around each card: a detector box a few pixels off then
# still shows both corner marks instead of cutting one away.
CROP_MARGIN = 0.08


def card_crop(frame: np.ndarray, quad: np.ndarray, margin: float = CROP_MARGIN) -> np.ndarray:
    """The classifier's view of one card: long side vertical, ``margin`` of context around."""
    pts = order_long_side_vertical(quad)
    centre = pts.mean(axis=0)
    return rectify(frame, centre + (pts - centre) * (1 + 2 * margin))


# Corner-mark patches for the corner reader: the top-left of a crop (its card's corner mark and
# some slack for a box a few pixels off), at the crop's own resolution. The classifier's strided
# first layer halves the crop, so a corner number ~10 px tall reaches it at ~5 px; read here
# at full size, "12" and "13" stay apart.
PATCH_W, PATCH_H = 26, 36


def corner_patches(crop: np.ndarray) -> np.ndarray:
    """(2, PATCH_H, PATCH_W, 3): a crop's top-left corner and its bottom-right one turned 180
    degrees. A card's two marks are 180-degree twins, so both patches look alike upright."""
    return np.stack([crop[:PATCH_H, :PATCH_W], crop[-PATCH_H:, -PATCH_W:][::-1, ::-1]])


def crops_to_batch(crops: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops -> float32 NCHW RGB batch in [0, 1] for the classifier."""
    if not crops:
        return np.zeros((0, 3, CROP_H, CROP_W), np.float32)
    batch = np.stack(crops)[:, :, :, ::-1].transpose(0, 3, 1, 2)
    return np.ascontiguousarray(batch, dtype=np.float32) / 255.0
