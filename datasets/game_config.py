"""What a generated game is asked to be: its size, its pace and the table habits it shows.

Kept apart from the rendering (``game_video.py``) and the choreography (``game_table.py``,
``game_timeline.py``) because ``skullcam synth game``'s options, tests and meta.json read it
without any of them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass

from skullcam.errors import UserError
from skullcam.frames import WORKING_SIZE

HABITS = ("lead-early", "push-aside", "take-back", "swap-last", "hover")
"""The table habits ``--habit NAME=P`` knows, in the order their dice are cast."""

ASIDE_UNTIL_CARDS = 2
"""A trick pushed aside is taken away once this many cards of the next trick lie on the table:
long enough that the tracker sees old and new cards together, as at a real table."""

TAKE_BACK_S = (1.0, 2.5)
"""How long a wrong card lies before its player takes it back: long enough to settle and be
seen as played."""

HOVER_S = (1.0, 3.5)
"""How long a hand hovers over a played card."""


@dataclass(frozen=True)
class Habits:
    """Table habits that stress the trick tracker, each the chance (0..1) that it happens on a
    trick where it can. All 0, the default, is the tidy table the tracker was first measured on:
    a seed then renders exactly the frames it rendered before habits existed."""

    lead_early: float = 0.0
    """The winner leads the next trick before the finished one is swept; the old cards are
    swept after the lead card lands (not on a round's last trick)."""
    push_aside: float = 0.0
    """The finished trick is gathered and pushed face up to the winner's edge, and taken away
    only after ``ASIDE_UNTIL_CARDS`` cards of the next trick (not on a round's last trick)."""
    take_back: float = 0.0
    """A player lays one of his later cards of the round by mistake, leaves it
    ``TAKE_BACK_S``, takes it back and plays the right one (any card of a trick but its last)."""
    swap_last: float = 0.0
    """The same for a trick's last card: the wrong card completes the trick and is swapped
    after completion, before the sweep."""
    hover: float = 0.0
    """Another player's hand hovers over a played card for ``HOVER_S`` during the trick."""

    @classmethod
    def parse(cls, items: Iterable[str]) -> Habits:
        """Habits from ``NAME=P`` texts (``--habit``); a later one for the same name wins."""
        chances: dict[str, float] = {}
        for item in items:
            name, sep, text = item.partition("=")
            name = name.strip()
            if not sep or name not in HABITS:
                raise UserError(
                    f"--habit {item!r}: expected NAME=P with NAME one of {', '.join(HABITS)}"
                )
            try:
                chance = float(text)
            except ValueError:
                chance = math.nan
            if not 0.0 <= chance <= 1.0:  # nan fails too
                raise UserError(f"--habit {item!r}: P must be a number from 0 to 1, got {text!r}")
            chances[name.replace("-", "_")] = chance
        return cls(**chances)

    def chance(self, name: str) -> float:
        """The chance of the habit ``name`` (a name of ``HABITS``)."""
        return float(getattr(self, name.replace("-", "_")))

    def to_json(self) -> dict[str, float]:
        """Every habit's chance by its ``--habit`` name (meta.json)."""
        return {name: self.chance(name) for name in HABITS}

    def active(self) -> bool:
        return any(self.chance(name) > 0 for name in HABITS)

    def check(self) -> None:
        for name in HABITS:
            if not 0.0 <= self.chance(name) <= 1.0:
                raise UserError(f"--habit {name}: P must be 0..1, got {self.chance(name)}")


@dataclass(frozen=True)
class GameConfig:
    """A game to render: who plays, how long, how fast, and the pacing of the hands (seconds)."""

    players: int = 3
    rounds: int = 10
    fps: float = 10.0
    expansion: bool = False
    width: int = WORKING_SIZE[0]
    height: int = WORKING_SIZE[1]
    card_length_px: tuple[float, float] = (85.0, 105.0)
    slide_s: float = 0.6  # hand brings a card in
    withdraw_s: float = 0.4  # hand leaves
    pause_s: tuple[float, float] = (0.3, 0.9)  # between two plays
    p_nudge: float = 0.3
    still_s: float = 1.2  # complete trick on the table before the sweep
    sweep_s: float = 0.7
    between_rounds_s: float = 1.0
    noise_sigma: float = 1.5
    jpeg_quality: int = 90
    first_round: int = 1
    """The first round rendered (1-based): the rounds before it are played in the record only,
    so a stress test reaches the long rounds without rendering the short ones."""
    habits: Habits = Habits()

    def check(self) -> None:
        if not 2 <= self.players <= 8:
            raise UserError(f"--players must be 2..8, got {self.players}")
        if not 1 <= self.rounds <= 10:
            raise UserError(f"--rounds must be 1..10, got {self.rounds}")
        if not 1.0 <= self.fps <= 60.0:
            raise UserError(f"--fps must be between 1 and 60, got {self.fps}")
        if not 1 <= self.first_round <= self.rounds:
            raise UserError(
                f"--first-round must be 1..{self.rounds} (--rounds), got {self.first_round}"
            )
        self.habits.check()

    def frames(self, seconds: float) -> int:
        return max(1, round(seconds * self.fps))

    def with_pace(self, name: str) -> GameConfig:
        """This game at the pacing preset ``name`` (``PACES``)."""
        if name not in PACES:
            raise UserError(f"--pace must be one of {', '.join(PACES)}, got {name!r}")
        return dataclasses.replace(self, **dataclasses.asdict(PACES[name]))

    @property
    def pace(self) -> str:
        """The name of the preset this game's pacing is, or "custom" (meta.json)."""
        mine = Pace.of(self)
        return next((name for name, pace in PACES.items() if pace == mine), "custom")


@dataclass(frozen=True)
class Pace:
    """How fast the hands move (seconds): the ``GameConfig`` fields a pacing preset sets."""

    slide_s: float
    withdraw_s: float
    pause_s: tuple[float, float]
    still_s: float
    sweep_s: float

    @classmethod
    def of(cls, config: GameConfig) -> Pace:
        return cls(**{f.name: getattr(config, f.name) for f in dataclasses.fields(cls)})


PACES: dict[str, Pace] = {
    "normal": Pace.of(GameConfig()),
    # Stress timings: a table that plays without waiting, and one that snatches each trick
    # away 0.2 s after its last card lands.
    "brisk": Pace(slide_s=0.45, withdraw_s=0.3, pause_s=(0.2, 0.6), still_s=0.8, sweep_s=0.6),
    "quick": Pace(slide_s=0.35, withdraw_s=0.25, pause_s=(0.0, 0.3), still_s=0.2, sweep_s=0.4),
}
"""Pacing presets (``--pace``); normal is ``GameConfig``'s own timing."""
