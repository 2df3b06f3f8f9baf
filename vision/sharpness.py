"""How sharp a card looks: one measure for an enrollment photo and for the table camera.

Edge steepness, not Laplacian variance: measured on the robustness games' cards (shipped
recognizer, 150-170 cards a setting), the Laplacian's spread within one setting overlapped the
next blur step (clean 0.67-1.39, sigma 1.5 0.03-0.10), where edge steepness kept each step
apart (clean 0.28-0.37, sigma 1.5 0.10-0.12, sigma 2 0.08-0.10, sigma 2.5 0.07-0.08).
"""

from __future__ import annotations

import cv2
import numpy as np

from skullcam.vision.crops import order_long_side_vertical, rectify

FACE_SIZE = (128, 192)
"""Width and height a face is measured at, so a card's size in the picture does not count:
what blurs the corner numbers is blur relative to the card."""


def sharpness(face: np.ndarray) -> float:
    """Steepness of the face's strongest edges at 128 x 192: ~1 when sharp, ~0.1 when smeared.

    The 99.5th percentile of the gradient divided by the face's contrast range, so a dim or
    low-contrast photo is not called blurred; a blur of sigma s pixels scales it by ~1/s.
    """
    grey = cv2.cvtColor(
        cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY
    ).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8
    grad = np.sqrt(gx**2 + gy**2)
    lo, hi = np.percentile(grey, (2, 98))
    return float(np.percentile(grad, 99.5) / max(hi - lo, 10.0))


def card_sharpness(frame: np.ndarray, corners: np.ndarray) -> float:
    """:func:`sharpness` of the card whose four corners (frame pixels) are ``corners``."""
    return sharpness(rectify(frame, order_long_side_vertical(corners)))
