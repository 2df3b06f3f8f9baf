"""Rosie's choice of who leads, read from who led the trick after hers.

At the table the player who won with Rosie names the next leader, and that player leads: the
next trick's first card *is* her choice, as the camera's referee reads it (``device/referee.py``).
The store asked the phones and left the choice unmade until they answered, so meanwhile the
score judged the next trick by the rules' leader without her (the trick's winner) and the TV
warned "trick 2: Bo led, but by the rules Ana leads it", which no rule says.

So while her question is open, the choice is the next trick's leader,
recorded with the trick and followed when a correction changes who led it or makes Rosie win
the trick before it. The question stays open for the table to confirm, or to change the
choice where the camera read the lead wrong; once answered, the table's choice stands.

Only the trick at the place right after hers is read. With that place free (the camera's
trick there refused, or a trick entered there taken back) nothing is read, and a choice read
before goes: read from a trick that has moved off, or from the trick after the free place,
it named the leader of a trick nobody knows yet. Her question stays open.
"""

from __future__ import annotations

import sqlite3

from skullcam.errors import UserError

from . import lead_doubt, trick_moves, verdicts
from .abilities import (
    ABILITY_PIRATE,
    ask_winners_choice,
    audit_dropped_choice,
    choice_kind,
    record_ability,
)
from .prompts import open_questions
from .rows import Game, Trick, select_rows, trick_from_row, trick_row


def _read_choice(conn: sqlite3.Connection, game: Game, round_number: int, rosie_trick: int) -> None:
    """Record the round's trick ``rosie_trick + 1``'s leader as Rosie's choice on
    ``rosie_trick``, where she wins it with a choice to give, both tricks are recorded
    (the next one whole: a short trick's first card seen may not be its lead), and her
    question is open: the table has not answered it (nor dismissed it). With the place
    after hers free, a choice read before goes (:func:`_forget_read_choice`)."""
    rosie_row = trick_row(conn, game.id, round_number, rosie_trick)
    if rosie_row is None:
        return
    rosie = trick_from_row(rosie_row)
    try:
        if choice_kind(game, rosie) != "rosie":
            return
    except UserError:  # no pirate with a choice won it (abilities off, her round's last)
        return
    if not open_questions(conn, game.id, round_number, rosie_trick, "rosie"):
        return  # the table answered (its choice stands), or dismissed the question
    next_row = trick_row(conn, game.id, round_number, rosie_trick + 1)
    if next_row is None:
        _forget_read_choice(conn, game, rosie)
        return
    following = trick_from_row(next_row)
    if len(following.plays) < len(game.players):
        return
    leader = int(following.plays[0]["player"])
    note = f"read from the lead: {game.players[leader]} led trick {rosie_trick + 2}"
    record_ability(conn, game, round_number, rosie_trick, "rosie", leader, note)
    rows = select_rows(conn, "tricks", "trick", game_id=game.id, round=round_number)
    round_tricks = [trick_from_row(row) for row in rows]
    lead_doubt.settle(conn, game, following, round_tricks)


def _forget_read_choice(conn: sqlite3.Connection, game: Game, rosie: Trick) -> None:
    """Drop the choice read for Rosie's trick ``rosie`` (her question is open) while the
    place after it is free: it was read from a trick no longer there, or from the one after
    the free place, whose leader the missed trick's winner chose, not Rosie. Kept in her
    trick's history, marked read (:func:`~.abilities.audit_dropped_choice`)."""
    place = (rosie.round, rosie.trick)
    pirate = ABILITY_PIRATE["rosie"]
    winner = verdicts.winner_player(rosie.plays, rosie.resolution)
    why = f"round {rosie.round} trick {rosie.trick + 2} is not recorded: {pirate}'s choice is"
    why += " read from who leads it"
    for dropped in trick_moves.drop_abilities(conn, game, place, pirate):
        audit_dropped_choice(conn, game.id, rosie.id, dropped, winner, why)


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
