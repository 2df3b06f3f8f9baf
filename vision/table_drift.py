"""Following the table centre as the camera drifts, so seats stay right after a bump.

A seat is named by a card's direction from the table centre (:mod:`skullcam.vision.seats`).
The calibrated centre is fixed in the picture, but the camera is not: a camera knocked by
36 pixels turns the direction of a card 95-140 pixels from the centre by 17-20 degrees, and at
8 players a seat is only +-22.5 degrees wide. A long 8-player game replayed after such a
bump had every trick right by arrival order, but 10 of 36 flagged "the cards' seats do not
name every player once", and with a frozen camera on top the seats ordered the unseen cards
wrongly and the scores went wrong.

Every complete trick has one card in front of each player, so the mean of its cards is where
the table centre lies now (the same estimate calibration makes from one card per seat). The
live centre is the median of the last few complete tricks' centres, so one card tossed far
out moves it little, and a bump is followed within two tricks.

A camera turned about its axis turns every direction in the picture alike, and a turn of 15
degrees at 8 players puts cards past their seat's edge wherever the centre lies. Each
complete trick also says how far its cards' directions, seen from its own centre, are turned
from their players' calibrated seats (their mean); the live turn is the median of the last
few, like the centre. A turn is only measured within half a seat's width of the live one:
beyond that it cannot be told from every card having moved one seat on, so a turn is
followed when it comes by less than that at a time (a knock, a slow creep), not when the
camera is set down half a seat round over an empty table (with cards on it, the move is
measured on them: :mod:`skullcam.vision.picture_move` and :meth:`TableDrift.follow`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from skullcam.vision.picture_move import PictureMove
from skullcam.vision.seats import TAU, SeatLayout, angle_of, centroid, turn_between

RECENT_TRICKS = 3
"""Complete tricks whose centres vote on the live centre (the calibration votes for those not
yet seen)."""

MOVED_NOTICE_PX = 25.0
"""The live centre this far from the calibrated one (in working-size pixels) is worth saying:
seats follow it, but a fresh calibration reads them from the table again."""

TURNED_NOTICE_DEGREES = 8.0
"""The live seat directions this far from the calibrated ones are worth saying, as a moved
centre is (a trick's cards scatter a few degrees about their seats; a 4-degree knock is not
news)."""

SQUARE_DEGREES = 15.0
"""The least a card may lie off its seat's direction in a trick explained by a turn
(:func:`square_limit`)."""

TURN_STEP = math.radians(0.5)
"""The resolution a trick's own turn is searched at (:func:`fitted_turn`)."""


class TableDrift:
    """The calibrated seat layout, with its centre moved to where recent tricks were laid and
    its directions turned as they were turned."""

    def __init__(self, calibrated: SeatLayout, recent: int = RECENT_TRICKS) -> None:
        self.calibrated = calibrated
        self.recent = recent
        self._centres: list[tuple[float, float]] = []
        self._turns: list[float] = []
        self.turn = 0.0
        """How far (radians, clockwise) the live seat directions are turned from the calibrated
        ones."""
        self.layout = calibrated
        """The layout seats are read with now."""

    def add_trick(
        self, centres: Sequence[Sequence[float]], players: Sequence[int] | None = None
    ) -> None:
        """A complete trick's card centres (one card per player) was seen, played by
        ``players`` (one per card, when known)."""
        n = self.calibrated.n_players
        if len(centres) != n:
            return  # a short trick's mean leans towards the cards that were seen
        centre = centroid(centres)
        self._centres = self._recent(self._centres, centre)
        turn = None if players is None else self._turn_of(centres, centre, players)
        if turn is not None:
            self._turns = self._recent(self._turns, turn)
        self._relayout()

    def follow(self, move: PictureMove) -> None:
        """The camera moved by ``move``, measured on the cards it moved at once: the live
        layout moves with it now, and the recent tricks' votes with it, as if laid since."""
        self._centres = [move.apply(self.layout.centre)] * self.recent
        self._turns = [self.turn + move.turn] * self.recent
        self._relayout()

    def _relayout(self) -> None:
        """The live turn and layout from the recent votes."""
        live = self._median(self._centres, self.calibrated.centre)
        self.turn = float(self._median([(t,) for t in self._turns], (0.0,))[0])
        moved = dataclasses.replace(self.calibrated, centre=(float(live[0]), float(live[1])))
        self.layout = moved.turned(self.turn)

    def _recent(self, votes: list, vote: object) -> list:
        return [*votes[-(self.recent - 1) :], vote]

    def _median(self, votes: Sequence[Sequence[float]], calibrated: Sequence[float]) -> np.ndarray:
        """The median of the recent votes, the calibration voting for tricks not yet seen."""
        padded = [tuple(calibrated)] * (self.recent - len(votes)) + [tuple(v) for v in votes]
        return np.median(np.asarray(padded, dtype=float), axis=0)

    def _turn_of(
        self, centres: Sequence[Sequence[float]], centre: Sequence[float], players: Sequence[int]
    ) -> float | None:
        """How far the trick's cards, seen from its own centre, are turned from their players'
        calibrated seats: their circular mean, counted on from the live turn (so the votes'
        median is of near values, even for a camera turned round past half a circle). None
        when one card is off by half a seat from the rest (its player is in doubt), or the
        whole trick by half a seat from the live turn (every player read one seat round, say
        after a wrong leader): such a trick says nothing sure."""
        if sorted(players) != list(range(self.calibrated.n_players)):
            return None
        offsets = [
            turn_between(angle_of(c, centre), self.calibrated.angles[p])
            for c, p in zip(centres, players, strict=True)
        ]
        mean = math.atan2(sum(map(math.sin, offsets)), sum(map(math.cos, offsets)))
        half = self.calibrated.half_gap
        if abs(turn_between(mean, self.turn)) >= half:
            return None
        if any(abs(turn_between(o, mean)) >= half for o in offsets):
            return None
        return self.turn + turn_between(mean, self.turn)  # unwrapped: the votes' median holds

    @property
    def moved_px(self) -> float:
        """How far the live centre is from the calibrated one."""
        (x0, y0), (x1, y1) = self.calibrated.centre, self.layout.centre
        return math.hypot(x1 - x0, y1 - y0)

    @property
    def turned_degrees(self) -> float:
        """How far the live seat directions are turned from the calibrated ones (clockwise)."""
        return math.degrees(self.turn)

    @property
    def moved(self) -> bool:
        """Whether the tricks lie far enough from the calibration to say so."""
        return self.moved_px >= MOVED_NOTICE_PX or abs(self.turned_degrees) >= TURNED_NOTICE_DEGREES


def fitted_turn(layout: SeatLayout, points: Sequence[Sequence[float]]) -> float | None:
    """The turn (radians, within half the narrowest seat gap) that puts ``points`` most squarely
    in front of ``layout``'s seats (least squared offset from the nearest seat), whoever's
    cards they are: a trick laid just after the camera turned, before the live turn has
    followed. Of equally good turns, the smallest.

    None when even that turn leaves a card more than :func:`square_limit` off its seat's
    direction: a camera's turn turns every card alike, so it does not explain cards that
    scatter about it (two cards laid in one seat, one seat left empty)."""
    reach = layout.half_gap
    turns = np.arange(-reach, reach + 1e-9, TURN_STEP)
    directions = np.array([angle_of(p, layout.centre) for p in points])
    seats = np.asarray(layout.angles)
    offsets = directions[None, :, None] - turns[:, None, None] - seats[None, None, :]
    nearest = np.abs((offsets + math.pi) % TAU - math.pi).min(axis=2)
    best = int(np.argmin((nearest**2).sum(axis=1) + 1e-9 * np.abs(turns)))
    return float(turns[best]) if nearest[best].max() <= square_limit(layout) else None


def square_limit(layout: SeatLayout) -> float:
    """How far (radians) a card may lie from its seat's direction once a turn is accounted
    for: half a seat's half-width, or 15 degrees where seats are wider than that would allow.
    In long rendered games of 6 and 8 players every card of every trick lay within 10.7
    degrees of its seat's direction, seen from its trick's centre and turned as fitted."""
    return max(layout.half_gap / 2.0, math.radians(SQUARE_DEGREES))
