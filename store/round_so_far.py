"""A round replayed from its recorded tricks: who won how many, and who leads next.

The state pages read (who leads the trick on the table) and a card entered by hand into a
trick the camera saw short (where it goes in the order) both ask this.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skullcam.rules import first_leader

from . import checks, verdicts
from .rows import Game, Place, Trick


@dataclass
class RoundSoFar:
    """The current round's recorded tricks as pages show them, who won how many, and who
    leads next."""

    leader: int | None
    won: list[int]
    tricks: list[dict[str, Any]] = field(default_factory=list)


def round_so_far(
    game: Game,
    dealer: int,
    round_tricks: Sequence[Trick],
    abilities: Sequence[Mapping[str, Any]],
    abilities_on: bool,
) -> RoundSoFar:
    """Replay the round's tricks under the current settings: each winner leads the next.

    The leader is None where it is not known yet: after a trick with no winner (a card
    missed, or one read twice), or while Rosie's choice of who leads waits for an answer.
    A guess would show the TV the wrong leader and put a card added by hand in the wrong
    place."""
    n = len(game.players)
    so_far = RoundSoFar(leader=first_leader(dealer, n), won=[0] * n)
    for t in round_tricks:
        res = verdicts.resolve(t.plays, game.settings, game.players)
        winner = verdicts.winner_player(t.plays, res)
        if winner is not None:
            so_far.won[winner] += 1
        nxt = res.get("next_leader")
        so_far.leader = t.plays[nxt]["player"] if isinstance(nxt, int) else None
        # Rosie's choice leads only while abilities count and Rosie really won that trick
        # (scoring ignores it otherwise, and the camera must expect the right leader).
        if abilities_on and res.get("winning_card") == "pirate-rosie":
            chosen = [
                int(a["choice"])
                for a in abilities
                if a["trick"] == t.trick and a["pirate"] == "pirate-rosie"
            ]
            last = is_rounds_last_trick(game, t.round, t.trick)
            so_far.leader = chosen[0] if chosen else (so_far.leader if last else None)
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


def is_rounds_last_trick(game: Game, round_number: int, trick_index: int) -> bool:
    """Whether the trick is its round's last, where Rosie gives no choice: the next round is
    led by the dealer's neighbour. Every way a choice is asked, answered or followed checks
    it, so a correction that makes Rosie win a round's last trick asks nothing."""
    dealt = checks.cards_dealt(round_number, len(game.players), game.settings)
    return trick_index + 1 >= dealt


def first_free_place(taken: Collection[int], dealt: int) -> int | None:
    """The round's first place with no trick recorded (``taken``: the places that hold one;
    a trick taken back, or refused while the camera wrote the next one, leaves a gap), or
    None once every place has one."""
    return next((k for k in range(dealt) if k not in taken), None)


def first_free(game: Game, by_round: Mapping[int, Sequence[Trick]], total: int) -> Place | None:
    """The game's first place with no trick recorded, as (round, trick index), over its
    ``total`` rounds (``by_round``: the recorded tricks of each round): the trick the
    hand-entry form fills. Before the table's next trick where a trick taken back left a gap
    in an earlier round; None once every place has a trick."""
    n = len(game.players)
    for r in range(1, total + 1):
        taken = {t.trick for t in by_round.get(r, [])}
        free = first_free_place(taken, checks.cards_dealt(r, n, game.settings))
        if free is not None:
            return r, free
    return None


def place_in_play(game: Game, recorded: Sequence[Trick], total: int) -> Place:
    """The round being played and the trick the table plays next in it: the place after the
    last recorded trick, as the camera's referee reads the store
    (``device/recorder.referee_from_store``), whatever places before it are free. Counting
    the tricks instead put the TV and the bids page back in a round with a gap, while the
    table and the camera were a round further on. Once the last round is played out it is
    that round, with the trick past its end (so no one leads)."""
    if not recorded:
        return 1, 0
    last_round, last_trick = max((t.round, t.trick) for t in recorded)
    if last_round > total:  # a tie-break no longer due once a bid was put right
        return total, checks.cards_dealt(total, len(game.players), game.settings)
    dealt = checks.cards_dealt(last_round, len(game.players), game.settings)
    if last_trick + 1 < dealt or last_round == total:
        return last_round, last_trick + 1
    return last_round + 1, 0
