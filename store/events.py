"""The event log: every change the store makes, in order, for the web's live pages.

Each write transaction appends its events with :func:`emit` before it commits, so an event is
never told for a change that was rolled back. Ids are strictly increasing and never reused
(``AUTOINCREMENT``), which is what lets a reconnecting page resume with ``Last-Event-ID``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping
from typing import Any

from skullcam.errors import UserError

from .database import Database, newest_event_id
from .rows import Event, dump_json, event_from_row, load_json

#: Event kinds written to the ``events`` table (the web relays them as SSE ``event:`` names).
EVENT_KINDS = (
    "game_created",
    "game_finished",
    "bids",
    "live",
    "trick",
    "correction",
    "settings",
    "prompt",
    "prompt_answered",
    "imported",
    "reopened",
    "replaced",
    "camera",
)


CAMERA_MISSING = "camera_missing"
"""The ``meta`` key present while the table's game goes unrecorded for want of a camera; its
value is why (one of :data:`CAMERA_WHYS`; ``'1'``, written before there were reasons, is
``no_camera``)."""
CAMERA_WHYS = ("no_camera", "camera_failed", "frames_ended")
"""Why nothing records the table's game: ``skullcam run`` found no camera at all (the demo
stepped aside for it), its live camera fails (it is tried again), or the recording played as
the camera ran out of frames with the game still in progress."""


CAMERA_NOTICE = "camera_notice"
"""The ``meta`` key present while a working camera sees badly: a JSON object, ``why`` one of
:data:`CAMERA_NOTICES`, with the cards' ``sharpness`` for a blurred picture, and for ``slow``
the ``source`` read too slowly (``camera``, ``demo``, ``recording``) and the ``speed`` of a
recording played faster than this machine reads it."""
CAMERA_NOTICES = ("frozen", "dark", "blurred", "moved", "slow")
"""What is wrong with a working camera's picture (``device/picture_watch.py``): it has stopped
changing, it is all but black (a covered lens, the light off), its cards are too soft to read
reliably, or the tricks lie away from the seat calibration (the camera or the table moved:
seats follow them, calibrate again later); or too few of its frames are read a second to follow
every trick (``device/run_tally.py``)."""


def _why(value: object) -> str:
    return value if isinstance(value, str) and value in CAMERA_WHYS else "no_camera"


def _notice(value: object) -> dict[str, Any] | None:
    """A stored notice, or None where the row is damaged: the TV then says nothing, as it
    did before there were notices."""
    try:
        notice = load_json(str(value))
    except UserError:
        return None
    if not isinstance(notice, dict) or notice.get("why") not in CAMERA_NOTICES:
        return None
    return notice


def emit(
    conn: sqlite3.Connection, game_id: int | None, kind: str, payload: Mapping[str, Any]
) -> int:
    """Append an event inside the caller's write transaction; returns its id."""
    cur = conn.execute(
        "INSERT INTO events (game_id, kind, payload, at) VALUES (?, ?, ?, ?)",
        (game_id, kind, dump_json(dict(payload)), time.time()),
    )
    return int(cur.lastrowid or 0)


_TABLE_MADE = """CASE WHEN NOT json_valid(payload) THEN 0
    WHEN kind = 'settings' THEN 1
    WHEN kind = 'trick' THEN coalesce(json_extract(payload, '$.by_hand'), 0)
    WHEN kind = 'correction' THEN
        json_type(payload, '$.removed') IS NOT NULL
        OR json_type(payload, '$.moved_back') IS NOT NULL
        OR json_extract(payload, '$.choice.kind') = 'rosie'
        OR (json_type(payload, '$.changes') IS NOT NULL AND json_type(payload, '$.camera') IS NULL)
    WHEN kind = 'prompt_answered' THEN
        json_extract(payload, '$.kind') = 'rosie' AND json_type(payload, '$.answer') != 'null'
    ELSE 0 END"""
"""An event (SQL, one row of ``events``) by which the table changed what a camera following
the game reads of it (:meth:`EventsMixin.table_changes_since`): 1, else 0. Rosie's choice
names who leads next; Rascal's and Harry's change no one's turn."""

_TABLE_CHANGES = f"SELECT MAX(id), MAX({_TABLE_MADE}) FROM events WHERE game_id = ? AND id > ?"


class EventsMixin(Database):
    """Reading the log and waiting for it to grow (the web's server-sent-event stream)."""

    def set_camera_missing(self, missing: bool, why: str = "no_camera") -> None:
        """Say whether the table's game goes unrecorded for want of a camera, and ``why``
        (:data:`CAMERA_WHYS`): ``skullcam run`` found none while a game set up on the web page
        was in progress, its camera fails, or a recording's frames ran out; so the TV can say
        so: without it the scoreboard looked watched while nothing was recorded. An event
        (``camera``) tells the pages at once, only when it changes: a camera tried again every
        few seconds must not make every page fetch the state again each time."""
        if missing and why not in CAMERA_WHYS:
            raise ValueError(f"why must be one of {', '.join(CAMERA_WHYS)}, not {why!r}")
        now = why if missing else None
        with self._write(durable=False) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (CAMERA_MISSING,)).fetchone()
            if (None if row is None else _why(row[0])) == now:
                return
            if missing:
                conn.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (CAMERA_MISSING, why)
                )
                emit(conn, None, "camera", {"missing": True, "why": why})
            else:
                conn.execute("DELETE FROM meta WHERE key = ?", (CAMERA_MISSING,))
                emit(conn, None, "camera", {"missing": False})

    def set_camera_notice(self, notice: Mapping[str, Any] | None) -> None:
        """Say what is wrong with the picture of the camera recording the table, or that
        nothing is (None), for the TV: ``{"why": "frozen"}`` or ``{"why": "blurred",
        "sharpness": 0.08}``. A ``camera`` event tells the pages, only when it changes."""
        if notice is not None and notice.get("why") not in CAMERA_NOTICES:
            raise ValueError(f"a camera notice's why must be one of {', '.join(CAMERA_NOTICES)}")
        with self._write(durable=False) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (CAMERA_NOTICE,)).fetchone()
            before = None if row is None else _notice(row[0])
            now = None if notice is None else dict(notice)
            if before == now:
                return
            if now is None:
                conn.execute("DELETE FROM meta WHERE key = ?", (CAMERA_NOTICE,))
            else:
                conn.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                    (CAMERA_NOTICE, dump_json(now)),
                )
            emit(conn, None, "camera", {"notice": now})

    def camera_notice(self) -> dict[str, Any] | None:
        """What is wrong with the recording camera's picture (see :meth:`set_camera_notice`)."""
        sql = "SELECT value FROM meta WHERE key = ?"
        row = self._conn().execute(sql, (CAMERA_NOTICE,)).fetchone()
        return None if row is None else _notice(row[0])

    def camera_missing(self) -> bool:
        """Whether the last ``skullcam run`` on this folder said it has no camera to record
        the table's game with (see :meth:`set_camera_missing`)."""
        return self.camera_missing_why() is not None

    def camera_missing_why(self) -> str | None:
        """Why nothing records the table's game (:data:`CAMERA_WHYS`), or None while
        something does (see :meth:`set_camera_missing`)."""
        sql = "SELECT value FROM meta WHERE key = ?"
        row = self._conn().execute(sql, (CAMERA_MISSING,)).fetchone()
        return None if row is None else _why(row[0])

    def last_event_id(self) -> int:
        """The newest event id (0 when none): a page's starting point for the SSE stream."""
        return newest_event_id(self._conn())

    def next_event_id(self, after_id: int) -> int | None:
        """The id of the first event after ``after_id`` (None when none), read without its
        payload: the way past an event too damaged to decode."""
        row = (
            self._conn().execute("SELECT MIN(id) FROM events WHERE id > ?", (after_id,)).fetchone()
        )
        return None if row is None or row[0] is None else int(row[0])

    def events_since(
        self, after_id: int, game_id: int | None = None, limit: int = 200
    ) -> list[Event]:
        """Events with id > ``after_id``, oldest first (a game's, plus game-less ones)."""
        if game_id is None:
            sql = "SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?"
            args: tuple[Any, ...] = (after_id, limit)
        else:
            sql = (
                "SELECT * FROM events WHERE id > ? AND (game_id = ? OR game_id IS NULL) "
                "ORDER BY id LIMIT ?"
            )
            args = (after_id, game_id, limit)
        return [event_from_row(r) for r in self._conn().execute(sql, args).fetchall()]

    def reopened_since(self, game_id: int, after_id: int) -> bool:
        """Whether the game was reopened (resumed, or its rounds raised) after event
        ``after_id``: a camera that saw it end records into it again."""
        row = (
            self._conn()
            .execute(
                "SELECT 1 FROM events WHERE id > ? AND game_id = ? AND kind = 'reopened' LIMIT 1",
                (after_id, game_id),
            )
            .fetchone()
        )
        return row is not None

    def table_changes_since(self, game_id: int, after_id: int) -> tuple[bool, int]:
        """Whether the table changed the game's tricks after event ``after_id`` (a trick
        entered or inserted by hand, a card or player corrected, a trick taken back or moved
        back, Rosie's choice made or changed, a house rule changed), and the newest of the
        game's events read (the next ask's ``after_id``). A camera following the game asks: its
        referee then no longer says who leads the next trick, or where it goes. The camera's
        own writes (its tricks, the swaps it saw, its reading kept with an entry, the
        questions it asks) and a trick confirmed as recorded are not changes. One statement:
        an event committed meanwhile is in both answers or in neither."""
        row = self._conn().execute(_TABLE_CHANGES, (game_id, after_id)).fetchone()
        return bool(row[1]), int(row[0] or after_id)

    def events_start_over(self, newest: int) -> None:
        """The events table now ends at ``newest``, below an id seen before (the database was
        restored or replaced under a running server): waits count from there, where a wait
        for an id past ``newest`` returned at once, always, for the old database's newest."""
        with self._shared.changed:
            self._shared.last_event_id = newest
            self._shared.changed.notify_all()

    def wait_for_event(self, after_id: int, timeout: float) -> bool:
        """Block until an event newer than ``after_id`` may exist, or ``timeout`` seconds.

        Writes from this process wake waiters at once; writes from another process (a
        separate recorder) are noticed by re-reading the newest id when the wait times out,
        so callers should pass a short timeout (the web uses 0.25 s).
        """
        with self._shared.changed:
            if self._shared.last_event_id > after_id:
                return True
            self._shared.changed.wait(timeout)
            if self._shared.last_event_id > after_id:
                return True
        newest = self.last_event_id()
        if newest > after_id:
            with self._shared.changed:
                self._shared.last_event_id = max(self._shared.last_event_id, newest)
            return True
        return False
