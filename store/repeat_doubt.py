"""The doubt "green-9 already played this round", and when a move settles it.

The camera raises it on a trick holding a card an earlier trick of its round holds. Most
often it missed a round's last trick and filed the next round's first in its place: a new
deal, whose cards the old round had played too. Once the missed trick is entered by hand the
trick moves into its own round, where the card may not have been played before it: the doubt
is then dropped, and the phones stop asking the table to confirm a trick nothing is wrong
with (the score, which checks every round's cards itself, stops on a real repeat anyway).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from skullcam.rules import face_of
from skullcam.rules.table import ALREADY_PLAYED

from .lead_doubt import drop_doubts
from .rows import Trick


def settle(conn: sqlite3.Connection, trick: Trick, round_tricks: Sequence[Trick]) -> list[str]:
    """Drop ``trick``'s "already played" doubts whose card no earlier trick of its round holds
    now (``round_tricks``: its round's tricks as recorded now). Returns the doubts dropped (a
    removal of the entry that moved it puts them back)."""
    earlier = played_before(trick, round_tricks)
    stale = [
        flag
        for flag in trick.flags
        if (match := ALREADY_PLAYED.fullmatch(flag)) and face_of(match["card"]) not in earlier
    ]
    return drop_doubts(conn, trick, stale) if stale else []


def played_before(trick: Trick, round_tricks: Sequence[Trick]) -> set[str]:
    """The faces the tricks before ``trick`` in its round hold (``round_tricks``: the round's
    tricks as recorded now): a card of ``trick`` among them was already played."""
    return {
        face_of(str(play["card"]))
        for other in round_tricks
        if other.trick < trick.trick
        for play in other.plays
    }
