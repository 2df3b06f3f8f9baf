"""What the trick state machine works with and reports: its phases and tuning, the cards and
tricks it saw, and the events it emits (:class:`~skullcam.vision.trick_state.TrickStateMachine`).

Plain data, no tracking: the referee, the store and the tests read these without the machine.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from skullcam.rules import DECK

RECENT_KEPT = 8
"""How many of the latest unconfirmed glimpses, unsettled cards and blind stretches the trick
state keeps: a trick's worth and more (a table seats at most 8 players), so a swept trick's
missing card, or the frame gap its cards were laid after, is still there to be asked about."""

COPIES = {face: n for face, n in Counter(card.face for card in DECK).items() if n > 1}
"""Faces with more than one physical card (escape 5, loot 2; every other face is unique),
counted from the rules' deck so the two can never disagree."""


class Phase(enum.Enum):
    COLLECTING = "collecting"
    """Cards of the current trick are being played."""
    CLEARING = "clearing"
    """The trick is complete; waiting for its cards to leave the table."""


@dataclass(frozen=True)
class TrickConfig:
    """Tuning of trick completion; times in seconds."""

    still_s: float = 0.2
    """Every card of the trick unmoved for this long before the trick completes."""
    visible_s: float = 1.0
    """A card counts as in view when seen this recently (hands hide cards, detectors miss); one
    seen longer ago holds its trick back unless it is only covered
    (:meth:`~skullcam.vision.trick_state.TrickStateMachine._hidden_in_place`)."""
    motion_threshold: float = 6.0
    """Mean absolute frame difference (0-255, on a small grey copy) that means 'moving'."""
    max_wait_s: float = 1.5
    """After the last card settled, complete even if the scene still moves."""
    tigress_doubt_degrees: float = 10.0
    """A Tigress within this many degrees of the 45-degree line is flagged for a person."""
    low_confidence: float = 0.5
    """A card named with less confidence than this is flagged for a person."""
    swap_gap_s: float = 0.5
    """A card of the completed trick gone this long, and more than one frame gap, before a
    new card showed up in its seat was swapped (a misread of a card still there follows it at
    once: on the next frame, however far apart frames come)."""
    moved_within_s: float = 1.0
    """A unique card of the trick being cleared that shows up elsewhere within this long of
    vanishing was moved (a pile pushed aside); later, it may be the next round's deal."""
    sweep_window_s: float = 3.0
    """Cards of an unfinished trick that vanish within this long of each other were swept
    together (a card missed); farther apart, each was taken back on its own (take-backs at a
    table come 5 s and more apart; a card hidden under a hand for a while before the sweep
    must still count)."""
    already_down_s: float = 0.3
    """Cards first seen within this long of the first frame lay on the table before the
    camera watched (a restart, or a trick entered by hand taken up mid-trick): their arrival
    says nothing of the order they were played in (a detector's first miss decides it). So
    for cards first seen this soon after a gap in the frames (:attr:`blind_gap_s`)."""
    blind_gap_s: float = 1.0
    """Frames this far apart (a camera that stalled, frames dropped by a busy machine) hid the
    cards played between them: two or more first seen just after the gap go clockwise on from
    the card before them, because the order the detector first confirmed them in says
    nothing of the order they were played in, and would flag a trick played as the rules say
    "play order and seats disagree" (with 2-3 s gaps, two tricks of ten)."""


@dataclass(frozen=True)
class PlayedCard:
    """One card of a trick, as seen."""

    track_id: int
    card: str
    """Card id for the rules: the face, or ``tigress:pirate`` / ``tigress:escape``."""
    face: str
    confidence: float
    seat: int
    arrival: float
    settled_at: float
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    angle: float
    alternatives: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "face": self.face,
            "confidence": round(self.confidence, 4),
            "seat": self.seat,
            "arrival": round(self.arrival, 3),
            "box": [round(v, 1) for v in self.box],
            "angle": round(self.angle, 4),
        }


@dataclass(frozen=True)
class TrickObservation:
    """A completed trick as the camera saw it: plays in play order, with their players."""

    plays: tuple[PlayedCard, ...]
    players: tuple[int, ...]
    leader: int
    arrival_seats: tuple[int, ...]
    """Seats in arrival order (what the play order says, for the flag and the audit)."""
    flags: tuple[str, ...]
    taken_back: tuple[str, ...]
    last_settled_at: float
    completed_at: float
    swept: bool = False
    """Swept off the table before completing (fewer cards than players were seen)."""
    seat_centre: tuple[float, float] | None = None
    """The table centre the seats were read from (the live one, or this trick's own: see
    :meth:`~skullcam.vision.trick_seating.TrickSeating.seating`), for a person checking a seat
    on the image."""
    seat_turn: float = 0.0
    """How far (degrees, clockwise) the seat directions were turned from the calibrated ones
    (a turned camera: see :mod:`skullcam.vision.table_drift`)."""

    def to_json(self) -> dict[str, object]:
        return {
            "swept": self.swept,
            "plays": [
                {"player": p, **c.to_json()} for p, c in zip(self.players, self.plays, strict=True)
            ],
            "leader": self.leader,
            "arrival_seats": list(self.arrival_seats),
            "flags": list(self.flags),
            "taken_back": list(self.taken_back),
            "last_settled_at": round(self.last_settled_at, 3),
            "completed_at": round(self.completed_at, 3),
            **self.seats_json(),
        }

    def seats_json(self) -> dict[str, object]:
        """What the seats were read from, for JSON: ``seat_centre``, and ``seat_turn`` where
        the seats were turned."""
        out: dict[str, object] = {}
        if self.seat_centre:
            out["seat_centre"] = rounded_point(self.seat_centre)
        if round(self.seat_turn, 1):
            out["seat_turn"] = round(self.seat_turn, 1)
        return out


def rounded_point(point: Sequence[float]) -> list[float]:
    """A point for JSON: tenths of a pixel say all a person checking a seat needs."""
    return [round(float(v), 1) for v in point]


@dataclass(frozen=True)
class CardPlayed:
    track_id: int
    face: str
    seat: int
    index: int


@dataclass(frozen=True)
class CardTakenBack:
    track_id: int
    face: str


@dataclass(frozen=True)
class TrickCompleted:
    trick: TrickObservation


@dataclass(frozen=True)
class TableCleared:
    pass


@dataclass(frozen=True)
class TrickAmended:
    """A player swapped a card of the trick just completed, before it was picked up: the
    trick as it now lies (``index``: the play replaced, ``before``: its old card)."""

    trick: TrickObservation
    index: int
    before: str


Event = CardPlayed | CardTakenBack | TrickCompleted | TableCleared | TrickAmended


def swap_flag(who: str, before: str, after: str) -> str:
    """The flag on a trick whose card was swapped after it completed: the trick is recorded as
    it lies at the pickup, and the table is asked whether that is how it was played."""
    return f"{who}'s {before} was swapped for {after} after the trick completed"
