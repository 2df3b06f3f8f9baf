"""Rosie's choice of who leads, read from who led the trick after hers.

At the table the player who won with Rosie names the next leader, and that player leads: the
next trick's first card *is* her choice, as the camera's referee reads it (``device/game.py``).
The store asked the phones and left the choice unmade until they answered, so meanwhile the
score judged the next trick by the rules' leader without her (the trick's winner) and the TV
warned "trick 2: Bo led, but by the rules Ana leads it", which no rule says.

So while her question is open, the choice is the next trick's leader,
recorded with the trick and followed when a correction changes who led it or makes Rosie win
the trick before it. The question stays open for the table to confirm, or to change the
choice where the camera read the lead wrong; once answered, the table's choice stands.
"""

from __future__ import annotations

import sqlite3

from skullcam.errors import UserError

from . import lead_doubt
from .abilities import ask_winners_choice, choice_kind, record_ability
from .prompts import open_questions
from .rows import Game, Trick, select_rows, trick_from_row, trick_row


def _read_choice(conn: sqlite3.Connection, game: Game, round_number: int, rosie_trick: int) -> None:
    """Record the round's trick ``rosie_trick + 1``'s leader as Rosie's choice on
    ``rosie_trick``, where she wins it with a choice to give, both tricks are recorded
    (the next one whole: a short trick's first card seen may not be its lead), and her
    question is open: the table has not answered it (nor dismissed it)."""
    rosie_row = trick_row(conn, game.id, round_number, rosie_trick)
    next_row = trick_row(conn, game.id, round_number, rosie_trick + 1)
    if rosie_row is None or next_row is None:
        return
    following = trick_from_row(next_row)
    if len(following.plays) < len(game.players):
        return
    try:
        if choice_kind(game, trick_from_row(rosie_row)) != "rosie":
            return
    except UserError:  # no pirate with a choice won it (abilities off, her round's last)
        return
    if not open_questions(conn, game.id, round_number, rosie_trick, "rosie"):
        return  # the table answered (its choice stands), or dismissed the question
    leader = int(following.plays[0]["player"])
    note = f"read from the lead: {game.players[leader]} led trick {rosie_trick + 2}"
    record_ability(conn, game, round_number, rosie_trick, "rosie", leader, note)
    rows = select_rows(conn, "tricks", "trick", game_id=game.id, round=round_number)
    round_tricks = [trick_from_row(row) for row in rows]
    lead_doubt.settle(conn, game, following, round_tricks)


def follow_rosies_lead(
    conn: sqlite3.Connection, game: Game, round_number: int, trick_index: int
) -> None:
    """After the round's trick ``trick_index`` was recorded or changed: Rosie's choice on the
    trick before it read from who led it, and on it (a correction may have made Rosie win it)
    from who led the trick after it, each while her question is open."""
    if trick_index > 0:
        _read_choice(conn, game, round_number, trick_index - 1)
    _read_choice(conn, game, round_number, trick_index)


def ask_and_follow(conn: sqlite3.Connection, game: Game, trick: Trick) -> None:
    """The choices a trick just recorded in its place gives or settles, in the transaction
    that records it: its winning pirate's asked (:func:`ask_winners_choice`), and Rosie's
    read from who led, hers or the one before it (:func:`follow_rosies_lead`)."""
    ask_winners_choice(conn, game, trick)
    follow_rosies_lead(conn, game, trick.round, trick.trick)
