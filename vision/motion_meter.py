"""How much the picture moves from one frame to the next: a restless table holds a trick back
(:attr:`~skullcam.vision.trick_events.TrickConfig.motion_threshold`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class MotionMeter:
    """Mean absolute difference between consecutive small grey frames: is anything moving?

    Cheap (an 80 x 60 copy) and independent of the recognizer, so a hand hovering over the table
    holds a trick back even when it hides no card.
    """

    size: tuple[int, int] = (80, 60)
    _last: Any = field(default=None, repr=False)

    def __call__(self, image: Any) -> float:
        import cv2

        small = cv2.resize(np.asarray(image), self.size, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        grey = grey.astype(np.int16)
        last, self._last = self._last, grey
        if last is None or getattr(last, "shape", None) != grey.shape:
            return 0.0
        return float(np.mean(np.abs(grey - last)))
