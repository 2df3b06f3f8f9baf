"""Following the table centre as the camera drifts, so seats stay right after a bump.

A seat is named by a card's direction from the table centre (:mod:`skullcam.vision.seats`).
The calibrated centre is fixed in the picture, but the camera is not: a camera knocked by
36 pixels turns the direction of a card 95-140 pixels from the centre by 17-20 degrees, and at
8 players a seat is only +-22.5 degrees wide. A review (session 45) replayed a long 8-player
game after such a bump: every trick right by arrival order, but 10 of 36 flagged "the cards'
seats do not name every player once", and with a frozen camera on top the seats ordered the
unseen cards wrongly and the scores went wrong.

Every complete trick has one card in front of each player, so the mean of its cards is where
the table centre lies now (the same estimate calibration makes from one card per seat). The
live centre is the median of the last few complete tricks' centres, so one card tossed far
out moves it little, and a bump is followed within two tricks. Seat directions are kept: a
bump mostly shifts the picture, and a turn of a few degrees is well inside a seat.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from skullcam.vision.seats import SeatLayout, centroid

RECENT_TRICKS = 3
"""Complete tricks whose centres vote on the live centre (the calibration votes for those not
yet seen)."""

MOVED_NOTICE_PX = 25.0
"""The live centre this far from the calibrated one (in working-size pixels) is worth saying:
seats follow it, but a fresh calibration reads them from the table again."""


class TableDrift:
    """The calibrated seat layout, with its centre moved to where recent tricks were laid."""

    def __init__(self, calibrated: SeatLayout, recent: int = RECENT_TRICKS) -> None:
        self.calibrated = calibrated
        self.recent = recent
        self._centres: list[tuple[float, float]] = []
        self.layout = calibrated
        """The layout seats are read with now."""

    def add_trick(self, centres: Sequence[Sequence[float]]) -> None:
        """A complete trick's card centres (one card per player) was seen."""
        if len(centres) != self.calibrated.n_players:
            return  # a short trick's mean leans towards the cards that were seen
        self._centres = [*self._centres[-(self.recent - 1) :], centroid(centres)]
        votes = [self.calibrated.centre] * (self.recent - len(self._centres)) + self._centres
        live = np.median(np.asarray(votes, dtype=float), axis=0)
        self.layout = dataclasses.replace(self.calibrated, centre=(float(live[0]), float(live[1])))

    @property
    def moved_px(self) -> float:
        """How far the live centre is from the calibrated one."""
        (x0, y0), (x1, y1) = self.calibrated.centre, self.layout.centre
        return math.hypot(x1 - x0, y1 - y0)
