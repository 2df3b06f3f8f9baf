"""The doubt "Ana led, but the game expected Cai to lead", and when it is settled.

The camera raises it on a trick led by another player than the rules expected; most often it
missed the trick before and filed this one a place early. Once that trick is entered by hand
(the tricks move on one place), or Rosie's choice of who leads is made, the trick may be led
exactly as the rules say: the doubt is then dropped, and the phones stop asking about it,
instead of asking the table to confirm a trick nothing is wrong with.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from skullcam.rules.table import LED_UNEXPECTEDLY, led_unexpectedly

from . import checks
from .abilities import stored_abilities
from .prompts import close_prompt, open_questions
from .round_so_far import round_so_far
from .rows import Game, Trick, dump_json


def free_before(round_tricks: Sequence[Trick], place: int) -> bool:
    """Whether the place before ``place`` holds no trick (``round_tricks``: the round's tricks
    as recorded now): a trick taken back from the middle of a round leaves a gap."""
    return place > 0 and all(t.trick != place - 1 for t in round_tricks)


def rules_leader(
    conn: sqlite3.Connection,
    game: Game,
    round_number: int,
    round_tricks: Sequence[Trick],
    place: int,
) -> int | None:
    """Who leads the round's trick ``place`` by the rules and the choices made
    (``round_tricks``: the round's tricks as recorded now, in order); None while that is not
    known: a trick without a winner, Rosie's choice not made, or no trick recorded at the
    place before (a gap). The gap's trick was won by whoever led this one; the trick before
    the gap was guessed instead, and its winner named as the leader expected."""
    if free_before(round_tricks, place):
        return None
    n = len(game.players)
    on = bool(checks.full_settings(game.settings)["pirate_abilities"])
    dealer = (game.first_dealer + round_number - 1) % n
    abilities = stored_abilities(conn, game.id, round_number)
    before = [t for t in round_tricks if t.trick < place]
    return round_so_far(game, dealer, before, abilities, on).leader


def _leaders(
    conn: sqlite3.Connection, game: Game, trick: Trick, round_tricks: Sequence[Trick]
) -> tuple[int | None, int]:
    """Who the rules say leads ``trick`` at its place (``round_tricks``: its round's tricks
    as recorded now; None while unknown), and who led it (a trick has a card)."""
    leader = rules_leader(conn, game, trick.round, round_tricks, trick.trick)
    return leader, int(trick.plays[0]["player"])


def led_otherwise(
    conn: sqlite3.Connection, game: Game, trick: Trick, round_tricks: Sequence[Trick]
) -> bool:
    """Whether ``trick`` was led by another player than the rules' leader at its place
    (``round_tricks``: its round's tricks as recorded now); False while that is unknown."""
    return doubt_here(conn, game, trick, round_tricks) is not None


def doubt_here(
    conn: sqlite3.Connection, game: Game, trick: Trick, round_tricks: Sequence[Trick]
) -> str | None:
    """The lead doubt ``trick``'s place gives it, naming who led and who the rules expected
    (``round_tricks``: its round's tricks as recorded now); None where the rules' leader led
    it or is not known, or the trick has no card."""
    if not trick.plays:
        return None
    leader, led = _leaders(conn, game, trick, round_tricks)
    if leader is None or leader == led:
        return None
    return led_unexpectedly(game.players[led], game.players[leader])


def settle(
    conn: sqlite3.Connection, game: Game, trick: Trick, round_tricks: Sequence[Trick]
) -> list[str]:
    """Drop ``trick``'s lead doubt where the rules' leader now is the player who led it
    (``round_tricks``: its round's tricks as recorded now); with no doubt left, close the
    phones' question about it. Returns the doubts dropped (a removal puts them back).

    Where the rules now expect yet another player (Rosie's choice changed from Cai to Ben),
    the doubt stays, naming the player expected now: "expected Cai" had gone stale."""
    doubts = [f for f in trick.flags if LED_UNEXPECTEDLY.fullmatch(f)]
    if not doubts or not trick.plays:
        return []
    leader, led = _leaders(conn, game, trick, round_tricks)
    if leader is None:
        return []
    if leader != led:
        now = led_unexpectedly(game.players[led], game.players[leader])
        flags = [now if f in doubts else f for f in trick.flags]
        flags = [f for k, f in enumerate(flags) if f not in flags[:k]]
        if flags != trick.flags:
            conn.execute("UPDATE tricks SET flags = ? WHERE id = ?", (dump_json(flags), trick.id))
        return []
    return drop_doubts(conn, trick, doubts)


def drop_doubts(conn: sqlite3.Connection, trick: Trick, doubts: Sequence[str]) -> list[str]:
    """Take ``doubts`` (settled ones) off ``trick``; with no doubt left, close the phones'
    question about it: nothing is left for the table to confirm. Returns the doubts."""
    flags = [f for f in trick.flags if f not in doubts]
    conn.execute("UPDATE tricks SET flags = ? WHERE id = ?", (dump_json(flags), trick.id))
    if not flags:
        for prompt in open_questions(conn, trick.game_id, trick.round, trick.trick, "flagged"):
            close_prompt(conn, prompt, "dismissed", None)
    return list(doubts)
