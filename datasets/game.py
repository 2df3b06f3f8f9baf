"""A whole recorded game, rendered frame by frame: end-to-end test data for ``skullcam replay``.

The game itself comes from ``skullcam.rules.simulate.random_game`` (real hands dealt from a
shuffled deck, bids, legal plays by ``legal_plays``, each trick's next leader by
``resolve_trick``). Rendering uses one fixed camera, table and lighting per game. Each trick is
built card by card, the leader first and then clockwise: a hand carrying the card slides in from
the player's side of the table, lets go in front of the player's seat and withdraws; sometimes
the hand comes back and nudges the card. The Tigress is laid crosswise when declared an escape
and like any other card when declared a pirate (docs/architecture.md). After the last card a few
still frames follow, then a hand sweeps the trick towards its winner and off the table.

Seats follow the default layout of interfaces.md: players evenly spaced around the image
centre, player 0 at the bottom centre, then clockwise (bottom -> left -> top -> right).

Stress games (``GameConfig.habits``, ``pace``, ``first_round``): table habits that a tidy table
never shows but a real one does, each a chance per trick (the winner leads before the old trick
is swept, a trick pushed aside, a card taken back, a last card swapped, a hand hovering), faster
pacing presets, and rendering only the last rounds of a game. With none of them a seed renders
the same frames as before they existed: their dice are apart from the rendering's.

Outputs: ``frames/frame_000000.jpg ...`` and/or ``game.mp4``; ``game.json`` (the true
``skullcam-game/1`` record); ``truth.json`` (per trick: each play's player, card, the frame at
which it settled, and the completion and cleared frames); ``frames.jsonl`` (per frame: every
card on the table with its player, state and corners); ``meta.json``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from skullcam.datasets import props
from skullcam.datasets.deck import load_deck, read_manifest
from skullcam.datasets.scenes import (
    CARD_H_MM,
    Camera,
    Lighting,
    Placement,
    PreparedDeck,
    SceneConfig,
    compose,
    prepare,
    random_look,
    render_table,
    seat_angle,
)
from skullcam.errors import UserError
from skullcam.frames import WORKING_SIZE
from skullcam.rules.record import GameRecord

PLAYER_NAMES = ("Ana", "Ben", "Cai", "Dag", "Eve", "Fay", "Gus", "Hal")
TRUTH_FORMAT = "skullcam-synth-truth/1"


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
    # The timings of the reviewer's stress games: a table that plays without waiting, and one
    # that snatches each trick away 0.2 s after its last card lands.
    "brisk": Pace(slide_s=0.45, withdraw_s=0.3, pause_s=(0.2, 0.6), still_s=0.8, sweep_s=0.6),
    "quick": Pace(slide_s=0.35, withdraw_s=0.25, pause_s=(0.0, 0.3), still_s=0.2, sweep_s=0.4),
}
"""Pacing presets (``--pace``); normal is ``GameConfig``'s own timing."""


@dataclass
class Actor:
    """A card on (or coming onto) the table in one frame."""

    placement: Placement
    player: int
    state: str  # "moving", "landed" (hand still near), "settled", "sweeping"


@dataclass
class Frame:
    actors: list[Actor]
    hands: list[tuple[int, tuple[float, float], tuple[float, float]]]  # player, start mm, end mm
    trick: tuple[int, int] | None  # (round index, trick index) shown, None between tricks


@dataclass
class TrickTruth:
    round: int
    trick: int
    leader: int
    plays: list[dict[str, Any]] = field(default_factory=list)
    complete_frame: int = -1
    cleared_frame: int = -1
    """The first frame with none of the trick's cards on the table."""
    winner: int | None = None
    next_leader: int = -1
    mode: str | None = None
    """How the trick left the table when not swept at once: "lead-early" or "push-aside"."""
    retracts: list[dict[str, Any]] = field(default_factory=list)
    """Wrong cards laid and taken back in this trick (take-back, swap-last)."""
    hovers: list[dict[str, Any]] = field(default_factory=list)
    """Hands that hovered over one of its cards."""

    def to_json(self, habits: bool) -> dict[str, object]:
        """The trick in truth.json; what the habits did only in a game with habits, so a game
        without them keeps the truth.json it always had."""
        out: dict[str, object] = {
            "round": self.round,
            "trick": self.trick,
            "leader": self.leader,
            "plays": self.plays,
            "complete_frame": self.complete_frame,
            "cleared_frame": self.cleared_frame,
            "winner": self.winner,
            "next_leader": self.next_leader,
        }
        if habits:
            out.update(mode=self.mode, retracts=self.retracts, hovers=self.hovers)
        return out


def _ease(t: float) -> float:
    return 1 - (1 - t) ** 2


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


class Timeline:
    """Builds the list of frames of a game from its record."""

    def __init__(self, config: GameConfig, camera: Camera, rng: np.random.Generator) -> None:
        self.cfg = config
        self.camera = camera
        self.rng = rng
        self.frames: list[Frame] = []
        # half the image's shorter side in mm: how far out a seat's edge of the image is
        self.radius = (
            CARD_H_MM * float(rng.uniform(1.15, 1.3)) * (1 + 0.04 * max(0, config.players - 5))
        )
        self.offscreen = max(config.width, config.height) / camera.px_per_mm * 0.75 + CARD_H_MM
        self.leftover: list[Actor] = []
        """Cards of the previous trick still on the table (lead-early, push-aside): under every
        frame until :meth:`clear_leftover` takes them away."""

    def seat_dir(self, player: int) -> tuple[float, float]:
        a = seat_angle(player, self.cfg.players)
        return (math.cos(a), math.sin(a))

    def arm_from(self, player: int) -> tuple[float, float]:
        """Where ``player``'s arm enters: his shoulder, beyond his edge of the image."""
        d = self.seat_dir(player)
        return (d[0] * (self.offscreen + 300), d[1] * (self.offscreen + 300))

    def reach_in(
        self,
        on_table: list[Actor],
        player: int,
        target: tuple[float, float],
        trick: tuple[int, int],
    ) -> tuple[float, float]:
        """``player``'s hand comes in over the table to ``target`` in 0.4 s (to gather a trick,
        push it aside or take it away); returns where the arm enters."""
        arm_from = self.arm_from(player)
        n = self.cfg.frames(0.4)
        for k in range(1, n + 1):
            tip = _lerp(arm_from, target, _ease(k / n))
            self._emit(on_table, [(player, arm_from, tip)], trick)
        return arm_from

    def _emit(self, actors: list[Actor], hands: list, trick: tuple[int, int] | None) -> int:
        self.frames.append(
            Frame(
                [Actor(a.placement, a.player, a.state) for a in [*self.leftover, *actors]],
                list(hands),
                trick,
            )
        )
        return len(self.frames) - 1

    def idle(self, seconds: float, actors: list[Actor], trick: tuple[int, int] | None) -> None:
        for _ in range(self.cfg.frames(seconds)):
            self._emit(actors, [], trick)

    def play(
        self, actors: list[Actor], face: str, player: int, crosswise: bool, trick: tuple[int, int]
    ) -> tuple[int, int]:
        """Animate one play; returns the frames at which the card first rested with no hand
        over it, and at which it settled (later, when the hand came back to nudge it)."""
        rng, cfg = self.rng, self.cfg
        final = _seat_pose(face, player, cfg.players, rng, self.radius, crosswise)
        d = self.seat_dir(player)
        start = (final.center[0] + d[0] * self.offscreen, final.center[1] + d[1] * self.offscreen)
        arm_from = (start[0] + d[0] * 300, start[1] + d[1] * 300)
        grip = CARD_H_MM * 0.3  # fingertips over the near end of the card

        def fingertips(center: tuple[float, float]) -> tuple[float, float]:
            return (center[0] + d[0] * grip, center[1] + d[1] * grip)

        moving = Actor(
            _moved(final, start, final.heading + float(rng.normal(0, 0.3))), player, "moving"
        )
        n = cfg.frames(cfg.slide_s)
        for k in range(1, n + 1):
            t = _ease(k / n)
            c = _lerp(start, final.center, t)
            heading = moving.placement.heading + (final.heading - moving.placement.heading) * t
            pl = _moved(final, c, heading)
            self._emit(
                [*actors, Actor(pl, player, "moving")], [(player, arm_from, fingertips(c))], trick
            )
        landed = Actor(final, player, "landed")
        n = cfg.frames(cfg.withdraw_s)
        for k in range(1, n + 1):
            tip = _lerp(fingertips(final.center), arm_from, _ease(k / n))
            hands = [(player, arm_from, tip)] if k < n else []
            self._emit([*actors, landed], hands, trick)
        rested = len(self.frames) - 1
        if rng.random() < cfg.p_nudge:
            self.idle(0.2, [*actors, landed], trick)
            n = cfg.frames(0.3)
            for k in range(1, n + 1):  # hand comes back
                self._emit(
                    [*actors, landed],
                    [(player, arm_from, _lerp(arm_from, fingertips(final.center), _ease(k / n)))],
                    trick,
                )
            shift = rng.normal(0, 8, 2)
            turn = float(rng.normal(0, math.radians(6)))
            nudged = _moved(
                final,
                (final.center[0] + float(shift[0]), final.center[1] + float(shift[1])),
                final.heading + turn,
            )
            n = cfg.frames(0.25)
            for k in range(1, n + 1):
                c = _lerp(final.center, nudged.center, k / n)
                pl = _moved(final, c, final.heading + turn * k / n)
                self._emit(
                    [*actors, Actor(pl, player, "landed")],
                    [(player, arm_from, fingertips(c))],
                    trick,
                )
            final = nudged
            landed = Actor(final, player, "landed")
            n = cfg.frames(cfg.withdraw_s)
            for k in range(1, n + 1):
                tip = _lerp(fingertips(final.center), arm_from, _ease(k / n))
                self._emit([*actors, landed], [(player, arm_from, tip)] if k < n else [], trick)
        settled = Actor(final, player, "settled")
        actors.append(settled)
        # the last emitted frame already shows the card at rest with no hand: that is "settled"
        last = self.frames[-1]
        last.actors[-1] = Actor(final, player, "settled")
        return rested, len(self.frames) - 1

    def sweep(self, actors: list[Actor], towards: int, trick: tuple[int, int]) -> int:
        """A hand gathers the trick and pulls it off the table; returns the first empty frame."""
        cfg = self.cfg
        d = self.seat_dir(towards)
        arm_from = self.reach_in(actors, towards, (0.0, 0.0), trick)
        n = cfg.frames(cfg.sweep_s)
        start = [a.placement for a in actors]
        for k in range(1, n + 1):
            t = _ease(k / n)
            moved = []
            for a, pl in zip(actors, start, strict=True):
                gather = _lerp(pl.center, (0.0, 0.0), min(1.0, 2 * t))
                out = max(0.0, 2 * t - 1) * (self.offscreen + self.radius)
                c = (gather[0] + d[0] * out, gather[1] + d[1] * out)
                moved.append(Actor(_moved(pl, c, pl.heading), a.player, "sweeping"))
            tip = (
                d[0] * max(0.0, 2 * t - 1) * (self.offscreen + self.radius),
                d[1] * max(0.0, 2 * t - 1) * (self.offscreen + self.radius),
            )
            self._emit(moved, [(towards, arm_from, tip)], trick)
        return self._emit([], [], None)

    def take_back(self, actors: list[Actor], player: int, trick: tuple[int, int]) -> int:
        """``player``'s hand comes back for his card (the last of ``actors``) and slides it off
        the table the way it came; returns the first frame without it."""
        cfg = self.cfg
        card = actors.pop()
        d = self.seat_dir(player)
        grip = CARD_H_MM * 0.3
        c0 = card.placement.center
        tip0 = (c0[0] + d[0] * grip, c0[1] + d[1] * grip)
        arm_from = (c0[0] + d[0] * (self.offscreen + 300), c0[1] + d[1] * (self.offscreen + 300))
        n = cfg.frames(0.3)
        for k in range(1, n + 1):
            self._emit(
                [*actors, card], [(player, arm_from, _lerp(arm_from, tip0, _ease(k / n)))], trick
            )
        end = (c0[0] + d[0] * self.offscreen, c0[1] + d[1] * self.offscreen)
        n = cfg.frames(cfg.slide_s)
        for k in range(1, n + 1):
            c = _lerp(c0, end, _ease(k / n))
            moving = Actor(_moved(card.placement, c, card.placement.heading), player, "moving")
            tip = (c[0] + d[0] * grip, c[1] + d[1] * grip)
            self._emit([*actors, moving], [(player, arm_from, tip)], trick)
        return self._emit(actors, [], trick)

    def push_aside(self, actors: list[Actor], towards: int, trick: tuple[int, int]) -> None:
        """A hand gathers the trick into a pile and pushes it, face up, to the edge of
        ``towards``' side, where it stays (:attr:`leftover`) until :meth:`clear_leftover`."""
        assert not self.leftover, "the previous trick is still on the table"
        cfg = self.cfg
        d = self.seat_dir(towards)
        arm_from = self.reach_in(actors, towards, (0.0, 0.0), trick)
        start = [a.placement for a in actors]
        edge = self.radius * 1.75
        pile = list(actors)
        n = cfg.frames(cfg.sweep_s)
        for k in range(1, n + 1):
            t = _ease(k / n)
            out = max(0.0, 2 * t - 1) * edge
            pile = []
            for j, (a, pl) in enumerate(zip(actors, start, strict=True)):
                gather = _lerp(pl.center, (j * 4.0, j * 3.0), min(1.0, 2 * t))
                c = (gather[0] + d[0] * out, gather[1] + d[1] * out)
                pile.append(Actor(_moved(pl, c, pl.heading), a.player, "sweeping"))
            self._emit(pile, [(towards, arm_from, (d[0] * out, d[1] * out))], trick)
        pile = [Actor(a.placement, a.player, "settled") for a in pile]  # at rest as the hand goes
        tip0 = (d[0] * edge, d[1] * edge)
        n = cfg.frames(0.4)
        for k in range(1, n + 1):
            hands = [(towards, arm_from, _lerp(tip0, arm_from, _ease(k / n)))] if k < n else []
            self._emit(pile, hands, trick)
        self.leftover = pile

    def clear_leftover(self, towards: int, actors: list[Actor], trick: tuple[int, int]) -> int:
        """A hand from ``towards``' side takes the previous trick's cards off the table, around
        the trick being played (``actors``, which stay); returns the first frame without them."""
        cfg = self.cfg
        d = self.seat_dir(towards)
        old, self.leftover = self.leftover, []
        centre = (
            sum(o.placement.center[0] for o in old) / len(old),
            sum(o.placement.center[1] for o in old) / len(old),
        )
        arm_from = self.reach_in([*old, *actors], towards, centre, trick)
        reach = self.offscreen + self.radius
        n = cfg.frames(cfg.sweep_s)
        for k in range(1, n + 1):
            out = _ease(k / n) * reach
            moved = [
                Actor(
                    _moved(
                        o.placement,
                        (o.placement.center[0] + d[0] * out, o.placement.center[1] + d[1] * out),
                        o.placement.heading,
                    ),
                    o.player,
                    "sweeping",
                )
                for o in old
            ]
            tip = (centre[0] + d[0] * out, centre[1] + d[1] * out)
            self._emit([*moved, *actors], [(towards, arm_from, tip)], trick)
        return self._emit(actors, [], trick)

    def hover(self, start: int, frames: int, hand: int, over: int) -> int:
        """``hand``'s hand reaches over ``over``'s card and hovers there, wavering a little,
        from frame ``start`` for ``frames`` frames, drawn over frames already built (the cards
        do not move for it); returns how many frames it is in, fewer at the game's end."""
        fps = self.cfg.fps
        arm_from = self.arm_from(hand)
        a = seat_angle(over, self.cfg.players)
        aim = (self.radius * math.cos(a) * 0.9, self.radius * math.sin(a) * 0.9)
        ramp = max(1, int(0.3 * fps))  # reach in and out, 0.3 s each
        end = min(len(self.frames), start + frames)
        for i in range(start, end):
            k = i - start
            reach = _lerp(arm_from, aim, _ease(min(1.0, (k + 1) / ramp, (frames - k) / ramp)))
            tip = (reach[0] + 3 * math.sin(k * 0.7), reach[1] + 3 * math.cos(k * 0.5))
            self.frames[i].hands.append((hand, arm_from, tip))
        return end - start


def _moved(pl: Placement, center: tuple[float, float], heading: float) -> Placement:
    return Placement(
        face=pl.face,
        center=center,
        heading=heading,
        role=pl.role,
        seat=pl.seat,
        order=pl.order,
        crosswise=pl.crosswise,
        bend=pl.bend,
        bend_axis=pl.bend_axis,
        glare=pl.glare,
    )


def _seat_pose(
    face: str, player: int, n: int, rng: np.random.Generator, radius: float, crosswise: bool
) -> Placement:
    a = seat_angle(player, n) + float(rng.normal(0, 0.05))
    r = radius * float(rng.uniform(0.92, 1.08))
    heading = a + math.pi + math.radians(float(rng.uniform(-15, 15)))
    if crosswise:
        heading += math.pi / 2 * (1 if rng.random() < 0.5 else -1) + math.radians(
            float(rng.uniform(-10, 10))
        )
    look = random_look(rng, 0.2)
    return Placement(
        face=face,
        center=(r * math.cos(a), r * math.sin(a)),
        heading=heading,
        seat=player,
        crosswise=crosswise,
        bend=look["bend"],
        bend_axis=look["bend_axis"],
        glare=look["glare"],
    )


def simulate(config: GameConfig, seed: int) -> GameRecord:
    """The legal game record of this seed (rules.simulate.random_game)."""
    from skullcam.rules import Settings
    from skullcam.rules.simulate import random_game

    settings = Settings(
        loot=config.expansion, kraken_and_white_whale=config.expansion, rounds=config.rounds
    )
    rng = random.Random(seed)
    first_dealer = rng.randrange(config.players)
    return random_game(
        rng,
        PLAYER_NAMES[: config.players],
        settings,
        first_dealer=first_dealer,
        rounds=config.rounds,
    )


class HabitDice:
    """Whether each habit happens, and its details, from one random stream per habit apart
    from the rendering's. A game without habits draws nothing from them, so a seed renders the
    frames it always did; and each habit throws on the same tricks (those where the record lets
    it happen) whichever other habits are on."""

    def __init__(self, habits: Habits, seed: int) -> None:
        self.habits = habits
        self.streams = {
            name: np.random.default_rng(np.random.SeedSequence([seed, 2, i]))
            for i, name in enumerate(HABITS)
        }

    def fires(self, name: str) -> bool:
        """One throw for a trick where habit ``name`` can happen; none while its chance is 0."""
        chance = self.habits.chance(name)
        return chance > 0 and float(self.streams[name].random()) < chance

    def pick(self, name: str, options: list[Any]) -> Any:
        return options[int(self.streams[name].integers(len(options)))]

    def uniform(self, name: str, span: tuple[float, float]) -> float:
        return float(self.streams[name].uniform(*span))

    def leaving(self) -> str | None:
        """How a finished trick that is not its round's last leaves the table: "lead-early",
        "push-aside" or None (swept at once). Both habits throw every time; when both come up
        the lead comes early."""
        early = self.fires("lead-early")
        aside = self.fires("push-aside")
        return "lead-early" if early else "push-aside" if aside else None


@dataclass
class _Led:
    """The next trick's lead, laid before the finished trick was swept (lead-early)."""

    actor: Actor
    play: dict[str, Any]


@dataclass
class _Aside:
    """A finished trick lying pushed aside; its truth learns when the pile goes."""

    truth: TrickTruth
    towards: int


class _TablePlay:
    """Plays a record's tricks onto a :class:`Timeline`, with the habits the dice call for."""

    def __init__(self, tl: Timeline, record: Any, dice: HabitDice) -> None:
        self.tl = tl
        self.record = record
        self.dice = dice

    def round(self, r: int) -> list[TrickTruth]:
        truths: list[TrickTruth] = []
        led: _Led | None = None
        aside: _Aside | None = None
        for t in range(len(self.record.rounds[r].tricks)):
            truth, led, aside = self.trick(r, t, led, aside)
            truths.append(truth)
        return truths

    def trick(
        self, r: int, t: int, led: _Led | None, aside: _Aside | None
    ) -> tuple[TrickTruth, _Led | None, _Aside | None]:
        """One trick from its first card to leaving the table; returns its truth, and the next
        trick's lead or the pile pushed aside if it left that way."""
        from skullcam.rules import resolve_trick

        tl, cfg = self.tl, self.tl.cfg
        key = (r, t)
        plays = self.record.rounds[r].tricks[t].plays
        truth = TrickTruth(round=r, trick=t, leader=plays[0].player)
        actors: list[Actor] = []
        if led is not None:
            actors.append(led.actor)
            truth.plays.append(led.play)
        wrong = self._wrong_cards(r, t, first=len(actors))
        for k in range(len(actors), len(plays)):
            if k:
                tl.idle(float(tl.rng.uniform(*cfg.pause_s)), actors, key)
            if k in wrong:
                truth.retracts.append(self._lay_wrong(actors, k, plays[k].player, wrong[k], key))
            truth.plays.append(self._lay(actors, k, plays[k].player, str(plays[k].card), key))
            if aside is not None and k + 1 >= ASIDE_UNTIL_CARDS:
                aside.truth.cleared_frame = tl.clear_leftover(aside.towards, actors, key)
                aside = None
        assert aside is None, "a pile pushed aside outlived the next trick"
        truth.complete_frame = truth.plays[-1]["settled_frame"]
        tl.idle(cfg.still_s, actors, key)
        result = resolve_trick([p.card for p in plays], self.record.settings)
        truth.winner = None if result.winner is None else plays[result.winner].player
        truth.next_leader = plays[result.next_leader].player
        towards = truth.winner if truth.winner is not None else truth.next_leader
        if t < len(self.record.rounds[r].tricks) - 1:
            truth.mode = self.dice.leaving()
        if truth.mode == "lead-early":
            led, truth.cleared_frame = self._lead_early(r, t + 1, actors, towards)
            return truth, led, None
        if truth.mode == "push-aside":
            tl.push_aside(actors, towards, key)
            return truth, None, _Aside(truth, towards)
        truth.cleared_frame = tl.sweep(actors, towards, key)
        return truth, None, None

    def _lay(
        self, actors: list[Actor], k: int, player: int, card: str, key: tuple[int, int]
    ) -> dict[str, Any]:
        """Play card ``k`` of the trick; returns its truth."""
        crosswise = card == "tigress:escape"
        rested, settled = self.tl.play(actors, card.split(":")[0], player, crosswise, key)
        actors[-1].placement.order = k
        return {
            "player": player,
            "card": card,
            "rested_frame": rested,
            "settled_frame": settled,
            "crosswise": crosswise,
        }

    def _wrong_cards(self, r: int, t: int, first: int) -> dict[int, tuple[str, str]]:
        """Which cards of the trick a player first lays wrong: play index -> (habit, the wrong
        card, one of his later cards this round). ``first``: cards already on the table (an
        early lead), which can no longer be laid wrong. Whether a habit throws depends on the
        record alone, so turning another habit on does not shift its dice."""
        rnd = self.record.rounds[r]
        plays = rnd.tricks[t].plays

        def later(k: int) -> list[str]:
            """The cards player ``k`` could mistake for his: his later ones this round, of
            another face (a second escape for an escape would change nothing on the table)."""
            face = str(plays[k].card).split(":")[0]
            return [
                str(p.card)
                for trick in rnd.tricks[t + 1 :]
                for p in trick.plays
                if p.player == plays[k].player and str(p.card).split(":")[0] != face
            ]

        wrong: dict[int, tuple[str, str]] = {}
        last = len(plays) - 1
        takers = [k for k in range(last) if later(k)]
        if takers and self.dice.fires("take-back"):
            k = self.dice.pick("take-back", takers)
            card = self.dice.pick("take-back", later(k))
            if k >= first:
                wrong[k] = ("take-back", card)
        if later(last) and self.dice.fires("swap-last"):
            wrong[last] = ("swap-last", self.dice.pick("swap-last", later(last)))
        return wrong

    def _lay_wrong(
        self,
        actors: list[Actor],
        k: int,
        player: int,
        wrong: tuple[str, str],
        key: tuple[int, int],
    ) -> dict[str, Any]:
        """``player`` lays the wrong card, leaves it a while and takes it back."""
        habit, card = wrong
        laid = self._lay(actors, k, player, card, key)
        self.tl.idle(self.dice.uniform(habit, TAKE_BACK_S), actors, key)
        taken = self.tl.take_back(actors, player, key)
        self.tl.idle(0.3, actors, key)
        return {
            "habit": habit,
            "k": k,
            "player": player,
            "wrong": card,
            "laid_frame": laid["rested_frame"],
            "taken_frame": taken,
        }

    def _lead_early(self, r: int, t: int, finished: list[Actor], towards: int) -> tuple[_Led, int]:
        """Trick ``t``'s leader lays his card beside the finished trick, which is then swept
        to ``towards``; returns the lead and the first frame without the finished trick."""
        play = self.record.rounds[r].tricks[t].plays[0]
        key = (r, t)
        self.tl.leftover = finished
        actors: list[Actor] = []
        lead = self._lay(actors, 0, play.player, str(play.card), key)
        self.tl.idle(0.3, actors, key)
        cleared = self.tl.clear_leftover(towards, actors, key)
        return _Led(actors[0], lead), cleared

    def add_hovers(self, truths: list[TrickTruth]) -> None:
        """Hands hovering over played cards, drawn into the finished frames (the cards and
        the players' own hands stay as they were): in each trick with at least 5 frames from
        its first card settling to its last, from a random moment in them, over a card on the
        table then, by a player whose card it is not."""
        n = self.tl.cfg.players
        for truth in truths:
            lo = truth.plays[0]["settled_frame"] + 1
            hi = truth.complete_frame
            if hi - lo < 5 or not self.dice.fires("hover"):
                continue
            start = int(self.dice.streams["hover"].integers(lo, hi - 1))
            on_table = [p for p in truth.plays if p["settled_frame"] < start]
            over = int(self.dice.pick("hover", on_table)["player"])
            hand = self.dice.pick("hover", [p for p in range(n) if p != over])
            frames = round(self.dice.uniform("hover", HOVER_S) * self.tl.cfg.fps)
            shown = self.tl.hover(start, frames, hand, over)
            truth.hovers.append({"hand": hand, "over": over, "from_frame": start, "frames": shown})


def build_timeline(
    record: Any,
    config: GameConfig,
    camera: Camera,
    rng: np.random.Generator,
    seed: int = 0,
) -> tuple[Timeline, list[TrickTruth]]:
    """Every frame of the game, from round ``config.first_round``, and the per-trick truth.
    ``seed`` casts the habits' dice (a game without habits never throws them)."""
    tl = Timeline(config, camera, rng)
    table = _TablePlay(tl, record, HabitDice(config.habits, seed))
    truths: list[TrickTruth] = []
    tl.idle(config.between_rounds_s, [], None)
    for r in range(config.first_round - 1, len(record.rounds)):
        truths.extend(table.round(r))
        tl.idle(config.between_rounds_s, [], None)
    table.add_hovers(truths)
    return tl, truths


def render_frames(
    deck: PreparedDeck,
    tl: Timeline,
    config: GameConfig,
    background: np.ndarray,
    light: Lighting,
    seed: int,
    sink: Callable[[int, np.ndarray, list[dict[str, object]]], None],
    progress: bool = True,
) -> None:
    """Render every frame of ``tl`` and pass (index, image, per-frame truth) to ``sink``."""
    cam = tl.camera
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(tl.frames), unit="frame", desc="frames")
    player_seed = np.random.SeedSequence([seed, 77]).generate_state(8)
    for i, frame in enumerate(tl.frames):
        frng = np.random.default_rng(np.random.SeedSequence([seed, 1, i]))
        occluders = []
        for player, start, end in frame.hands:
            s_px = tuple(cam.project(np.array([start]))[0])
            e_px = tuple(cam.project(np.array([end]))[0])

            def draw(img: np.ndarray, m: np.ndarray, s=s_px, e=e_px, p=player) -> None:
                props.draw_arm(
                    img, m, s, e, cam.px_per_mm, np.random.default_rng(int(player_seed[p]))
                )

            occluders.append(draw)
        image, cards = compose(
            deck,
            cam,
            background,
            [a.placement for a in frame.actors],
            tuple(occluders),
            min_visible=0.5,
        )
        out = image.astype(np.float32) * light.field
        out += frng.standard_normal(out.shape[:2], dtype=np.float32)[..., None] * config.noise_sigma
        image = np.clip(out, 0, 255).astype(np.uint8)
        truth = [
            {
                "player": a.player,
                "face": c.face,
                "state": a.state,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in c.corners],
                "visible_fraction": round(c.visible_fraction, 4),
            }
            for a, c in zip(frame.actors, cards, strict=True)
        ]
        sink(i, image, truth)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()


def game_camera(config: GameConfig, rng: np.random.Generator) -> Camera:
    """A fixed camera for a whole game: nearly top-down and centred, so the default seat layout
    (player 0 at the bottom centre of the image) holds."""
    return Camera.look_at(
        config.width,
        config.height,
        height_mm=float(rng.uniform(750, 950)),
        tilt_deg=float(rng.uniform(0, 10)),
        azimuth_deg=float(rng.uniform(60, 120)),  # leaning towards player 0's side
        card_length_px=float(rng.uniform(*config.card_length_px)),
        roll_deg=float(rng.normal(0, 1.5)),
    )


def write_game(
    deck_dir: Path,
    out: Path,
    config: GameConfig,
    seed: int = 0,
    video: bool = False,
    frames: bool = True,
    progress: bool = True,
) -> str:
    """Simulate, render and write one game; returns a one-line summary."""
    config.check()
    deck = prepare(load_deck(Path(deck_dir)))
    has_manifest = (Path(deck_dir) / "manifest.json").is_file()
    deck_name = read_manifest(Path(deck_dir)).get("name") if has_manifest else Path(deck_dir).name
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        if frames:
            (out / "frames").mkdir(exist_ok=True)
            for old in (out / "frames").glob("frame_*.jpg"):
                old.unlink()
    except OSError as err:
        raise UserError(f"cannot write to {out}: {err.strerror}; pick a writable --out") from None
    record = simulate(config, seed)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0]))
    camera = game_camera(config, rng)
    scfg = SceneConfig(width=config.width, height=config.height, p_cast_shadow=0.3)
    background = render_table(camera, rng)
    light = Lighting.random(rng, config.width, config.height, scfg)
    tl, truths = build_timeline(record, config, camera, rng, seed)

    writer = None
    if video:
        fourcc = cv2.VideoWriter.fourcc(*"mp4v")
        writer = cv2.VideoWriter(
            str(out / "game.mp4"), fourcc, config.fps, (config.width, config.height)
        )
        if not writer.isOpened():
            raise UserError("OpenCV cannot write mp4 here; drop --video and use the frames")
    per_frame = (out / "frames.jsonl").open("w")

    def sink(i: int, image: np.ndarray, truth: list[dict[str, object]]) -> None:
        if frames:
            cv2.imwrite(
                str(out / "frames" / f"frame_{i:06d}.jpg"),
                image,
                [cv2.IMWRITE_JPEG_QUALITY, config.jpeg_quality],
            )
        if writer is not None:
            writer.write(image)
        trick = tl.frames[i].trick
        per_frame.write(
            json.dumps(
                {"frame": i, "trick": None if trick is None else list(trick), "cards": truth},
                separators=(",", ":"),
            )
            + "\n"
        )

    try:
        render_frames(deck, tl, config, background, light, seed, sink, progress)
    finally:
        per_frame.close()
        if writer is not None:
            writer.release()

    (out / "game.json").write_text(json.dumps(record.to_dict(), indent=2) + "\n")
    truth_doc = {
        "format": TRUTH_FORMAT,
        "fps": config.fps,
        "frames": len(tl.frames),
        "tricks": [t.to_json(config.habits.active()) for t in truths],
    }
    (out / "truth.json").write_text(json.dumps(truth_doc, indent=1) + "\n")
    meta = {
        "players": list(record.players),
        "n_players": config.players,
        "rounds": config.rounds,
        "fps": config.fps,
        "frames": len(tl.frames),
        "width": config.width,
        "height": config.height,
        "seat_layout": "default",
        "seat_angles_deg": [
            round(math.degrees(seat_angle(p, config.players)) % 360, 2)
            for p in range(config.players)
        ],
        "camera": {
            "height_mm": round(camera.height_mm, 1),
            "tilt_deg": round(camera.tilt_deg, 2),
            "px_per_mm": round(camera.px_per_mm, 4),
        },
        "deck": deck_name,
        "seed": seed,
        "video": "game.mp4" if video else None,
        "frames_dir": "frames" if frames else None,
        # game.json holds every round; the frames show these (1-based, inclusive)
        "first_round": config.first_round,
        "last_round": config.rounds,
        "pace": config.pace,
        "pacing": dataclasses.asdict(Pace.of(config)),
        "habits": config.habits.to_json(),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    rounds = f"{config.rounds} rounds"
    if config.first_round > 1:
        rounds = f"rounds {config.first_round}-{config.rounds} of {config.rounds}"
    return (
        f"wrote a {config.players}-player game ({rounds}, {len(truths)} tricks, "
        f"{len(tl.frames)} frames at {config.fps:g} fps) to {out}"
    )
