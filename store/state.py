"""Everything a page needs, in one read: where the game stands now.

Pages (and the recorder, which must expect the right leader) ask for this after every event,
so it is derived from the rows each time rather than kept, like the score: a correction or a
settings change is then reflected everywhere at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skullcam.rules import first_leader

from . import checks, verdicts
from .abilities import AbilitiesMixin
from .events import EventsMixin
from .prompts import PromptsMixin
from .rows import Game, Trick
from .scores import ScoresMixin


@dataclass
class _RoundSoFar:
    """The current round's recorded tricks as pages show them, who won how many, and who
    leads next."""

    leader: int | None
    won: list[int]
    tricks: list[dict[str, Any]] = field(default_factory=list)


def _current_round(game: Game, by_round: Mapping[int, Sequence[Trick]], total: int) -> int:
    """The first round not yet played out (the last round once all are)."""
    n = len(game.players)
    for r in range(1, total + 1):
        if len(by_round.get(r, [])) < checks.cards_dealt(r, n):
            return r
    return total


def _round_so_far(
    game: Game,
    dealer: int,
    round_tricks: Sequence[Trick],
    abilities: Sequence[Mapping[str, Any]],
    abilities_on: bool,
) -> _RoundSoFar:
    """Replay the round's tricks under the current settings: each winner leads the next."""
    n = len(game.players)
    so_far = _RoundSoFar(leader=first_leader(dealer, n), won=[0] * n)
    for t in round_tricks:
        res = verdicts.resolve(t.plays, game.settings, game.players)
        winner = verdicts.winner_player(t.plays, res)
        if winner is not None:
            so_far.won[winner] += 1
        nxt = res.get("next_leader")
        so_far.leader = t.plays[nxt]["player"] if isinstance(nxt, int) else so_far.leader
        # Rosie's choice leads only while abilities count and Rosie really won that trick
        # (scoring ignores it otherwise, and the camera must expect the right leader).
        if abilities_on and res.get("winning_card") == "pirate-rosie":
            for a in abilities:
                if a["trick"] == t.trick and a["pirate"] == "pirate-rosie":
                    so_far.leader = int(a["choice"])
        so_far.tricks.append(
            {
                "trick": t.trick,
                "plays": t.plays,
                "winner": winner,
                "flags": t.flags,
                "corrected": t.corrected,
                "explanation": res.get("explanation"),
                "bonus": res.get("bonus"),
            }
        )
    return so_far


class StateMixin(ScoresMixin, PromptsMixin, AbilitiesMixin, EventsMixin):
    """The one read behind the TV, the phones and the recorder's next trick."""

    def state(self, game_id: int) -> dict[str, Any]:
        """Everything a page needs in one read: the game, the current round (bids, tricks,
        dealer, leader), the live trick, open prompts, scores and the last event id."""
        last_event = self.last_event_id()
        game = self.game(game_id)
        n = len(game.players)
        settings = checks.full_settings(game.settings)
        total = int(settings["rounds"])
        by_round: dict[int, list[Trick]] = {}
        for t in self.tricks(game_id):
            by_round.setdefault(t.round, []).append(t)
        current = _current_round(game, by_round, total)
        cards = checks.cards_dealt(current, n)
        dealer = (game.first_dealer + current - 1) % n
        round_tricks = by_round.get(current, [])
        abilities = self.abilities(game_id, current)
        so_far = _round_so_far(
            game, dealer, round_tricks, abilities, bool(settings["pirate_abilities"])
        )
        finished = game.status == "finished" or len(round_tricks) >= cards
        score = self.score(game_id)
        score.pop("record", None)
        return {
            "game": game.to_json(),
            "settings": settings,
            "round": current,
            "rounds": total,
            "cards": cards,
            "dealer": dealer,
            "leader": None if finished else so_far.leader,
            "next_trick": len(round_tricks),
            "bids": self.bids(game_id, current),
            "cannonball": self.cannonball(game_id, current),
            "tricks": so_far.tricks,
            "tricks_won": so_far.won,
            "live": self.live(game_id),
            "prompts": [p.to_json() for p in self.prompts(game_id)],
            "score": score,
            "finished": game.status == "finished",
            "last_event_id": last_event,
        }
