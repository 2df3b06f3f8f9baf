"""One recognized card in one frame: the value every later stage (tracker, recorder, web) reads.

Kept free of numpy-only types in its public fields' meaning so it serialises to the
``skullcam detect --json`` format without surprises.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Detection:
    """A card found in a frame.

    ``corners`` are the card's four corners in input-image pixels, ordered top-left, top-right,
    bottom-right, bottom-left of the upright face when the classifier knows which way is up
    (otherwise the order follows the oriented box). ``angle`` is the direction of the card's
    long axis in radians, in ``[0, pi)``: what the Tigress convention and seat assignment use.
    """

    card: str
    confidence: float
    box: tuple[float, float, float, float]
    corners: np.ndarray = field(repr=False, compare=False)
    angle: float = 0.0
    detector_confidence: float = 1.0

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)

    def to_json(self) -> dict[str, object]:
        """The ``skullcam detect --json`` card object (extra fields are allowed by the spec)."""
        return {
            "card": self.card,
            "confidence": round(float(self.confidence), 4),
            "box": [round(float(v), 1) for v in self.box],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "angle": round(float(self.angle), 4),
        }

    @classmethod
    def from_corners(
        cls, card: str, confidence: float, corners: np.ndarray, detector_confidence: float = 1.0
    ) -> Detection:
        """Build a detection from four corners (TL, TR, BR, BL); box and angle follow from them."""
        pts = np.asarray(corners, dtype=np.float32).reshape(4, 2)
        x1, y1 = pts.min(axis=0)
        x2, y2 = pts.max(axis=0)
        # Long axis: from the midpoint of the top edge to the midpoint of the bottom edge.
        top = (pts[0] + pts[1]) / 2.0
        bottom = (pts[2] + pts[3]) / 2.0
        dx, dy = bottom - top
        angle = math.atan2(float(dy), float(dx)) % math.pi
        return cls(
            card=card,
            confidence=float(confidence),
            box=(float(x1), float(y1), float(x2), float(y2)),
            corners=pts,
            angle=angle,
            detector_confidence=float(detector_confidence),
        )
