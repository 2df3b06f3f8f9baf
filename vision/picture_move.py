"""A camera knocked or turned between two frames, measured from the cards it moved at once.

The tracker continues a card only within 0.75 of its diagonal (a nudge), and the seats follow
a moved camera from the tricks laid since (:mod:`skullcam.vision.table_drift`) only while a
turn comes less than half a seat at a time: 22.5 degrees at 8 players, beyond which a trick
turned one way reads as well as every card laid one seat round the other. A camera turned 30
degrees at once turns a card 110 px from the centre 57 px away; a long 8-player game replayed
so read 17 of its 36 tricks, every player one seat round from the turn on, and only 3 flagged.

But a knock moves every card on the table at once, and rigidly, which nothing at the table
does: a player moves one card, a sweep bunches them up. So where three or more cards lying
apart moved at once, all as one turn, shift (and scale, for a camera raised or lowered) of
the picture takes them, that move is the camera's: the tracks are moved with it, and the live
seats turned and shifted by it, whatever its size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MIN_CARDS = 3
"""Cards that must move together: two could be two players' hands at once."""

MOVED_DIAGONALS = 0.1
"""The median card moved at least this far (in card diagonals; detection jitter is 0.01-0.02,
and the tracker's own rules follow smaller moves)."""

RIGID_DIAGONALS = 0.06
"""Every card lies within this of where the move puts it: the cards moved as one picture."""

SPREAD_DIAGONALS = 1.2
"""Two of the cards lie at least this far apart: a pile slid by a hand moves rigidly too, cards
laid round a table cannot (three cards laid in a row at 8 players span 1.4)."""

SCALES = (0.7, 1.4)
"""The scale a camera raised or lowered gives the picture at most, either way."""


@dataclass(frozen=True)
class PictureMove:
    """The picture's move as ``z -> a z + b`` on points written ``x + iy`` (image pixels):
    ``a`` is the scale times the turn (clockwise on the image for a positive angle, as seat
    directions count), ``b`` the shift."""

    a: complex
    b: complex

    def apply(self, point: Sequence[float] | np.ndarray) -> tuple[float, float]:
        z = self.a * complex(float(point[0]), float(point[1])) + self.b
        return (z.real, z.imag)

    @property
    def turn(self) -> float:
        """The turn, radians, positive clockwise on the image."""
        return float(np.angle(self.a))

    @property
    def scale(self) -> float:
        return float(abs(self.a))


Points = Sequence[Sequence[float] | np.ndarray]


def measure_move(before: Points, after: Points, diagonal: float) -> PictureMove | None:
    """The move of the picture that took the cards' centres ``before`` to ``after`` (the same
    cards, in order), when they all moved with it (:data:`MIN_CARDS` and the rest); else
    None. ``diagonal``: a card's diagonal in pixels, the unit of the thresholds."""
    if len(before) < MIN_CARDS or len(before) != len(after):
        return None
    p = np.array([complex(float(x), float(y)) for x, y in before])
    q = np.array([complex(float(x), float(y)) for x, y in after])
    spread = float(np.abs(p[:, None] - p[None, :]).max())
    if spread < SPREAD_DIAGONALS * diagonal:
        return None
    if float(np.median(np.abs(q - p))) < MOVED_DIAGONALS * diagonal:
        return None
    centred = p - p.mean()
    a = complex(np.vdot(centred, q - q.mean()) / np.vdot(centred, centred))
    b = complex(q.mean() - a * p.mean())
    if not SCALES[0] <= abs(a) <= SCALES[1]:
        return None
    if float(np.abs(a * p + b - q).max()) > RIGID_DIAGONALS * diagonal:
        return None
    return PictureMove(a, b)
