"""The frames of a generated game as movements: cards slid in by a hand, landing, settling, swept,
taken back or pushed aside; each frame's cards and hands, and each trick's truth.

``Timeline`` knows how a card moves, not which card is played when: ``game_table.py`` decides
that from the record and the habits' dice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from skullcam.datasets.game_config import GameConfig
from skullcam.datasets.scenes import (
    CARD_H_MM,
    Camera,
    Placement,
    random_look,
    seat_angle,
)


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
