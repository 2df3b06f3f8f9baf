"""The audit trail: every correction, settings change and dropped ability, before and after.

A dispute at the table is settled by what was recorded and who changed it, so nothing that
changes the record goes without an entry, written in the same transaction as the change.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from typing import Any

from .database import Database
from .rows import Correction, Trick, correction_from_row, dump_json, select_rows

#: The entries that change a trick's cards or seats: each can be taken back by changing the
#: card or the seat again to what the camera saw (an added card cannot).
PLAY_CHANGES = ("card", "player", "tigress")


def write_audit(
    conn: sqlite3.Connection,
    game_id: int,
    trick_id: int | None,
    kind: str,
    before: Any,
    after: Any,
    note: str,
) -> None:
    """Add an entry inside the caller's write transaction (a long note is cut, not refused:
    the change it explains has been checked already)."""
    conn.execute(
        "INSERT INTO corrections (game_id, trick_id, kind, before, after, note, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            game_id,
            trick_id,
            kind,
            dump_json(before),
            dump_json(after),
            str(note)[:500],
            time.time(),
        ),
    )


def taken_back(tricks: Iterable[Trick], trail: Iterable[Correction]) -> set[int]:
    """The ids of ``tricks`` corrected and put back as recorded: their cards and seats are
    the camera's again (not :attr:`~.rows.Trick.corrected`), while ``trail`` (the game's
    audit trail) holds a change of them. The tricks page marks them so: its ✎ went with the
    last correction taken back, and the list said the trick was never touched while its
    replay page listed every change."""
    changed = {c.trick_id for c in trail if c.kind in PLAY_CHANGES}
    return {t.id for t in tricks if t.id in changed and not t.corrected}


class AuditMixin(Database):
    """Reading the trail (the replay page and ``GET /api/game/<id>/audit``)."""

    def audit(self, game_id: int, trick_id: int | None = None) -> list[Correction]:
        """The audit trail (oldest first): a trick's when ``trick_id`` is given, else the game's."""
        rows = select_rows(self._conn(), "corrections", "id", game_id=game_id, trick_id=trick_id)
        return [correction_from_row(r) for r in rows]
