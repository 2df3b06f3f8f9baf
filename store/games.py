"""Games: starting one, finding the one in progress, finishing it; and remembered names.

The active game is simply the newest unfinished one: the camera records into it and the TV
shows it, so finishing a game (by hand, by its last trick, by fewer rounds) is what moves
them on.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from skullcam.errors import UserError
from skullcam.rules.names import name_key, visible_name

from . import checks
from .audit import write_audit
from .database import Database
from .events import emit
from .refusals import not_found, refusal
from .rows import Game, dump_json, game_from_row, select_rows


def insert_game(
    conn: sqlite3.Connection, names: list[str], first_dealer: int, settings: dict[str, Any]
) -> int:
    """A new game row from checked input (a new game or an imported record); returns its id.

    Its names are remembered for the setup page in the same transaction.
    """
    now = time.time()
    cur = conn.execute(
        "INSERT INTO games (created_at, players, first_dealer, settings) VALUES (?,?,?,?)",
        (now, dump_json(names), first_dealer, dump_json(settings)),
    )
    game_id = int(cur.lastrowid or 0)
    for name in names:
        conn.execute(
            "INSERT INTO player_names (name, last_used) VALUES (?, ?) "
            "ON CONFLICT(name) DO UPDATE SET last_used = excluded.last_used",
            (name, now),
        )
    emit(conn, game_id, "game_created", {"players": names})
    return game_id


#: When each game last took the table: set up (but an imported record kept finished), or
#: reopened (its rounds raised, a tie-break due). Read through the events' kind index.
_TOOK_THE_TABLE = """
SELECT game_id, MAX(id) AS at FROM events
WHERE kind = 'reopened' OR (kind = 'game_created' AND game_id NOT IN (
    SELECT game_id FROM events WHERE kind = 'imported' AND json_extract(payload, '$.active') = 0))
GROUP BY game_id
"""


DEMO_MARK = "DEMO"
"""A file in a game's image folder (``<data>/games/<id>/``) saying the demo made the game
(``skullcam run`` with no camera: ``device/demo_game.py`` writes it)."""

#: Games (but one) in the order they took the table, the last first.
_BY_TABLE = (
    f"SELECT g.* FROM games g JOIN ({_TOOK_THE_TABLE}) took ON took.game_id = g.id"
    " WHERE g.id != ? ORDER BY took.at DESC LIMIT ?"
)


def table_game_row(conn: sqlite3.Connection, other_than: int = 0) -> sqlite3.Row | None:
    """The game (but ``other_than``) that took the table last: set up last, or reopened
    since (an older game whose rounds were raised is the one to play on)."""
    row: sqlite3.Row | None = conn.execute(_BY_TABLE, (other_than, 1)).fetchone()
    return row


def took_the_table(conn: sqlite3.Connection, game_id: int) -> bool:
    """Whether the game ever took the table (an imported record kept finished never did)."""
    sql = f"SELECT 1 FROM ({_TOOK_THE_TABLE}) WHERE game_id = ?"
    return conn.execute(sql, (game_id,)).fetchone() is not None


def announce_replaced(
    conn: sqlite3.Connection, before: sqlite3.Row | None, by_demo: bool = False
) -> None:
    """Inside a write that may have given the table to another game (a game set up, a record
    imported as the game in progress, an older game reopened): tell the game that held it
    ``before`` the write, with a ``replaced`` event on that game naming the one at the table
    now. A phone left on the old game's pages follows that game's events only, and kept
    taking bids for it as if it were still being played.

    A game still being played has it on its history too (``by_demo``: the demo's game took
    the table, named so there, as the demo's games are deleted later and "Game 7" would name
    none). A game already over has not: its end is on its history, and every game set up
    after it added "no longer being played" to it, which a referee reads as the game cut
    short."""
    after = table_game_row(conn)
    if before is None or after is None or before["id"] == after["id"]:
        return
    emit(conn, int(before["id"]), "replaced", {"by": int(after["id"])})
    if before["status"] == "finished":
        return
    by: dict[str, object] = {"by": int(after["id"])}
    if by_demo:
        by["demo"] = True
    write_audit(conn, int(before["id"]), None, "replaced", None, by, "")


#: Why a game finished or reopened by itself (an audit entry of kind 'status', its ``after``
#: ``{"status", "why"}``): its last trick recorded, a trick entered by hand taken back, its
#: rounds due changed (the ``rounds`` setting), or a tie-break round become due.
STATUS_WHYS = ("last_trick", "removed", "rounds", "tie_break")


def audit_status(conn: sqlite3.Connection, game_id: int, status: str, why: str) -> None:
    """Audit a status change nobody asked for (a finish or resume by hand has its own
    entry): the game's history said nothing of when it ended, or why it came back."""
    if why not in STATUS_WHYS:
        raise ValueError(f"why must be one of {', '.join(STATUS_WHYS)}, not {why!r}")
    was = "active" if status == "finished" else "finished"
    write_audit(conn, game_id, None, "status", {"status": was}, {"status": status, "why": why}, "")


def played_out(conn: sqlite3.Connection, game: Game, rounds: int) -> bool:
    """Whether every trick of rounds 1..``rounds`` is recorded."""
    n = len(game.players)
    counts = dict(
        conn.execute(
            "SELECT round, COUNT(*) FROM tricks WHERE game_id = ? GROUP BY round", (game.id,)
        ).fetchall()
    )
    return all(
        counts.get(r, 0) >= checks.cards_dealt(r, n, game.settings) for r in range(1, rounds + 1)
    )


def other_game_in_progress(conn: sqlite3.Connection, game_id: int) -> int | None:
    """The game being played at the table when it is another than ``game_id`` (it took the
    table after this one and is not finished), else None: the table is this game's or free."""
    table = table_game_row(conn)
    if table is None or table["id"] == game_id or table["status"] != "active":
        return None
    return int(table["id"])


def restatus(conn: sqlite3.Connection, game: Game, old_rounds: int, rounds: int) -> None:
    """Finish or reopen a game whose number of rounds changed: the ``rounds`` setting, or a
    tie-break round now due or no longer (the ``tie`` setting, or anything that ties or
    unties the lead: a setting, a bid, a corrected card, a pirate's choice). A game finished
    by hand mid-round stays finished. So does an older game fixed late while another game is
    being played: its scores recompute, but reopening it would take the table, and the
    camera, from tonight's game (a bid fixed on last game's page made a tie-break due); once
    that game is over, the table resumes this one to play the tie-break (``resume_game``)."""
    if played_out(conn, game, rounds):
        mark_finished(conn, game.id, "rounds")
    elif (
        game.status == "finished"
        and played_out(conn, game, old_rounds)
        and other_game_in_progress(conn, game.id) is None
    ):
        set_rounds = checks.full_settings(game.settings)["rounds"]
        reopen(conn, game, rounds, "tie_break" if rounds > set_rounds else "rounds")


def reopen(conn: sqlite3.Connection, game: Game, rounds: int, why: str | None = None) -> None:
    """Make a finished game the one being played again (``rounds`` as it has now); a game
    that took the table meanwhile is told it was replaced. Audited as a status change
    ``why`` it reopened by itself (None: the caller audits it, as "Resume game" does)."""
    table = table_game_row(conn)
    conn.execute("UPDATE games SET status = 'active', finished_at = NULL WHERE id = ?", (game.id,))
    emit(conn, game.id, "reopened", {"rounds": rounds})
    if why is not None:
        audit_status(conn, game.id, "active", why)
    announce_replaced(conn, table)


def mark_finished(conn: sqlite3.Connection, game_id: int, why: str | None = None) -> bool:
    """Finish a game (once: a finished game keeps its first finishing time and event);
    whether it was unfinished until now. Audited as a status change ``why`` it finished by
    itself (None: the caller audits it, as "Finish game" and an import do).

    The live trick goes with it, so the TV does not show cards of a game that is over.
    """
    cur = conn.execute(
        "UPDATE games SET status = 'finished', finished_at = ? "
        "WHERE id = ? AND status != 'finished'",
        (time.time(), game_id),
    )
    if cur.rowcount:
        conn.execute("DELETE FROM live WHERE game_id = ?", (game_id,))
        emit(conn, game_id, "game_finished", {})
        if why is not None:
            audit_status(conn, game_id, "finished", why)
    return bool(cur.rowcount)


class GamesMixin(Database):
    """The games table, as the setup page, the TV and the recorder use it."""

    def create_game(
        self,
        players: Sequence[str],
        first_dealer: int = 0,
        settings: Mapping[str, Any] | None = None,
        before_commit: Callable[[int], None] | None = None,
    ) -> int:
        """Start a game: 2..8 distinct non-empty names in seating order (clockwise).

        ``before_commit`` gets the new id inside the write: whatever it marks on disk is there
        before the game is (the demo's mark: a kill in between left a game that passed for a
        table's), and an error in it leaves no game."""
        names = checks.check_players(players)
        checks.check_first_dealer(first_dealer, len(names))
        if isinstance(settings, Mapping):
            # A null setting is its default, as it is in a settings change.
            settings = checks.merged_settings({}, settings)
        clean = checks.check_settings(settings or {})
        with self._write() as conn:
            table = table_game_row(conn)
            game_id = insert_game(conn, names, first_dealer, clean)
            if before_commit is not None:
                before_commit(game_id)
            announce_replaced(conn, table, by_demo=self.demo_marked(game_id))
            return game_id

    def demo_marked(self, game_id: int) -> bool:
        """Whether the game's image folder holds :data:`DEMO_MARK` (see ``is_demo_game``)."""
        return (self.data_dir / "games" / str(int(game_id)) / DEMO_MARK).is_file()

    def game(self, game_id: int) -> Game:
        """The game, or UserError naming the id when there is none."""
        row = self._conn().execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise not_found("no_game", game=game_id)
        return game_from_row(row)

    def games(self, status: str | None = None) -> list[Game]:
        """All games, newest first; ``status`` 'active' or 'finished' filters."""
        rows = select_rows(self._conn(), "games", "id DESC", status=status)
        return [game_from_row(r) for r in rows]

    def rounds_due(self, game_id: int) -> int:
        """How many rounds the game has now: the ``rounds`` setting here; the scores' mixin
        (``scores.py``) adds the tie-break rounds it scores as due."""
        return int(checks.full_settings(self.game(game_id).settings)["rounds"])

    @contextmanager
    def settling_rounds(self, conn: sqlite3.Connection, game_id: int) -> Iterator[None]:
        """Around a write that may tie or untie the lead (a bid, a corrected card, a pirate's
        choice, a setting): finish or reopen the game as the rounds due now say. Inside the
        write's transaction. The bids of a tie-break round no longer due stay stored (the
        record leaves them out while it is not due: ``scores.py``)."""
        before = self.rounds_due(game_id)
        yield
        after = self.rounds_due(game_id)
        if after != before:
            restatus(conn, self.game(game_id), before, after)

    def table_game(self) -> Game | None:
        """The game set up last at the table, finished or not: the TV shows it (its final
        scores once it is over). An imported record that did not become the game in progress
        never took the table."""
        row = table_game_row(self._conn())
        return game_from_row(row) if row else None

    def table_games(self, limit: int = 50) -> list[Game]:
        """The games that took the table, the last to take it first (at most ``limit``):
        set up there, or reopened; never a record imported as finished."""
        rows = self._conn().execute(_BY_TABLE, (0, limit)).fetchall()
        return [game_from_row(r) for r in rows]

    def active_game(self) -> Game | None:
        """The game in progress, which the camera records into: the table's game while it is
        unfinished. An older game left unfinished when a newer one was set up stays set aside:
        when tonight's game ends nothing is in progress until the next is set up, because
        otherwise the camera would record the next game into the abandoned one."""
        game = self.table_game()
        return game if game is not None and game.status == "active" else None

    def replaced_by(self, game_id: int) -> int | None:
        """The game that has taken the table from this one (set up after it, or an older game
        reopened since), or None: this is the table's game, or it never took the table (an
        imported record kept finished). The store still takes a late correction of a replaced
        game (a bid, a card), as it does of a finished one, and does not reopen it for that
        while another game is played (``restatus``); the pages say it is not the table's game
        any more, and the bids page locks its bids until asked."""
        conn = self._conn()
        self.game(game_id)
        table = table_game_row(conn)
        if table is None or table["id"] == game_id or not took_the_table(conn, game_id):
            return None
        return int(table["id"])

    def finish_game(self, game_id: int) -> None:
        """Mark a game finished by hand (done by itself when its last trick is recorded);
        audited, since the camera stops recording into it."""
        self.game(game_id)
        with self._write() as conn:
            if mark_finished(conn, game_id):
                write_audit(
                    conn, game_id, None, "finish", {"status": "active"}, {"status": "finished"}, ""
                )

    def resume_game(self, game_id: int) -> None:
        """Give a finished game with rounds left back to the table: a tap on "Finish game"
        by mistake, or a tie-break that became due while another game was played (a late
        fix on last game's page). The game is in progress again and the camera records into
        it. Refused while another game is being played at the table, and for a played-out
        game (it would finish again at once: raise its rounds)."""
        with self._write() as conn:
            refused = self._resume_refusal(conn, game_id)
            if refused is not None:
                raise refused
            reopen(conn, self.game(game_id), self.rounds_due(game_id))
            write_audit(
                conn, game_id, None, "resume", {"status": "finished"}, {"status": "active"}, ""
            )

    def resumable(self, game_id: int) -> bool:
        """Whether :meth:`resume_game` would give the game back (the Settings page offers it
        only then: a game that simply finished is not one to resume)."""
        return self._resume_refusal(self._conn(), game_id) is None

    def _resume_refusal(self, conn: sqlite3.Connection, game_id: int) -> UserError | None:
        """Why the game cannot be resumed, or None. Only a game being played takes the table
        from it: the table's latest game once it is over leaves the table free (a replaced
        game's tie-break due could never be played: "only the table's latest game can be
        resumed")."""
        game = self.game(game_id)
        if game.status != "finished":
            return refusal("resume_not_finished", game=game_id)
        if played_out(conn, game, self.rounds_due(game_id)):
            return refusal("resume_played_out", game=game_id)
        playing = other_game_in_progress(conn, game_id)
        if playing is not None:
            return refusal("resume_other_in_progress", game=game_id, playing=playing)
        return None

    def delete_game(self, game_id: int) -> None:
        """Remove a game with everything recorded of it, images too. Only for the demo's
        own finished games: a demo left looping on a TV would otherwise fill the disk with a
        new game a minute. The rows go in one transaction (its events too, about 40 a demo
        game, which no page asks for once the game is gone); the images after, so a crash
        between the two leaves only unreferenced files."""
        self.game(game_id)
        with self._write() as conn:
            conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
            conn.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
        shutil.rmtree(self.data_dir / "games" / str(int(game_id)), ignore_errors=True)

    def remembered_names(self, limit: int = 30) -> list[str]:
        """Player names used before, most recent first (the setup page offers them), as the
        table reads them: a name remembered by an older skullcam with a character that draws
        nothing ("Ana" + U+FE0F) is offered as "Ana", once."""
        sql = "SELECT name FROM player_names ORDER BY last_used DESC LIMIT ?"
        rows = self._conn().execute(sql, (limit,)).fetchall()
        offered: dict[str, str] = {}
        for row in rows:
            name = visible_name(row["name"])
            if name:
                offered.setdefault(name_key(name), name)
        return list(offered.values())
