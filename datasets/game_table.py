"""A game record played onto a :class:`~skullcam.datasets.game_timeline.Timeline` trick by trick,
with the table habits (lead early, push aside, take back, swap the last card, hover) where their
dice call for them.

The dice are separate random streams from the rendering's, so a game without habits renders
the frames it always did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from skullcam.datasets.game_config import (
    ASIDE_UNTIL_CARDS,
    HABITS,
    HOVER_S,
    TAKE_BACK_S,
    GameConfig,
    Habits,
)
from skullcam.datasets.game_timeline import Actor, Timeline, TrickTruth
from skullcam.datasets.scenes import Camera
from skullcam.rules import face_of


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
        rested, settled = self.tl.play(actors, face_of(card), player, crosswise, key)
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
            face = face_of(str(plays[k].card))
            return [
                str(p.card)
                for trick in rnd.tricks[t + 1 :]
                for p in trick.plays
                if p.player == plays[k].player and face_of(str(p.card)) != face
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
