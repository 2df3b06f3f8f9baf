"""SQLite game store shared by the live recorder and the web app.

Why SQLite in WAL mode: the recorder thread writes a trick while several web threads read the
scoreboard; WAL lets readers proceed during a write, and every write here is one transaction so
a crash loses at most the trick in progress. Each thread gets its own connection (sqlite3
connections must not be shared across threads); writes in this process are serialised by one
lock per database file so they never fight over SQLite's write lock.

Scores are never stored. :meth:`GameStore.score` builds the ``skullcam-game/1`` record from the
rows and hands it to :func:`skullcam.rules.score_game`, so a settings change or a correction
recomputes every round at once.

Every change appends a row to ``events`` (strictly increasing ids, never reused); the web's
server-sent-event stream tails that table and a reconnecting page resumes with ``Last-Event-ID``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from skullcam.errors import NotFoundError, UserError, echo, whole_number
from skullcam.rules import (
    GameRecord,
    GameRecordError,
    RulesError,
    TrickResult,
    first_leader,
    parse_card,
    resolve_trick,
    score_game,
)
from skullcam.rules.explain import Phrase, phrases_to_json, render

from . import checks
from .schema import ensure_schema

logger = logging.getLogger(__name__)

GAME_FORMAT = "skullcam-game/1"

#: Prompt kinds the pipeline (or the web) may raise, and the answers each accepts.
PROMPT_KINDS = ("tigress", "rosie", "rascal_bet", "harry", "flagged")
_ABILITY_PIRATE = {"rosie": "pirate-rosie", "rascal_bet": "pirate-rascal", "harry": "pirate-harry"}
_ABILITY_KIND = {pirate: kind for kind, pirate in _ABILITY_PIRATE.items()}

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
)


#: How long a write waits for another connection's transaction before giving up.
BUSY_TIMEOUT_MS = 10_000
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6


def is_busy(err: BaseException) -> bool:
    """The database is held by another connection: wait and retry, nothing is wrong with it."""
    if not isinstance(err, sqlite3.OperationalError):
        return False
    code = getattr(err, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    return "locked" in str(err) or "busy" in str(err)


def database_error(path: Path, err: sqlite3.Error) -> UserError:
    """What went wrong with the game database ``path`` and what to do; the file is left as is.

    A lock or a read-only folder is not damage: advice to restore a backup there would make a
    table give up a healthy game.
    """
    text = str(err).lower()
    if is_busy(err):
        return UserError(
            f"the game database {path} is in use by another program ({err}): close it (another "
            "skullcam on the same --data folder, or a sqlite3 shell) and try again; nothing "
            "was lost"
        )
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return UserError(
            f"the game database {path} cannot be opened for writing ({err}): make "
            f"{path.parent} writable, or pass another --data; nothing was lost"
        )
    return UserError(
        f"the game database {path} cannot be read ({err}). Restore a backup of it, or "
        "move it aside to start a fresh one; the trick images under "
        f"{path.parent / 'games'} are kept"
    )


@dataclass(frozen=True)
class Game:
    """A game's fixed facts: players in seating order (clockwise), first dealer, settings."""

    id: int
    players: list[str]
    first_dealer: int
    settings: dict[str, Any]
    status: str
    created_at: float
    finished_at: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "settings": dict(self.settings),
            "status": self.status,
            "created_at": self.created_at,
            "finished_at": self.finished_at,
        }


@dataclass(frozen=True)
class Trick:
    """A recorded trick. ``plays`` is the current version, ``original_plays`` the camera's."""

    id: int
    game_id: int
    round: int
    trick: int
    plays: list[dict[str, Any]]
    original_plays: list[dict[str, Any]]
    completion_image: str | None
    annotated_image: str | None
    detections: Any
    resolution: Any
    model_version: str | None
    flags: list[str]
    recorded_at: float

    @property
    def corrected(self) -> bool:
        return _strip(self.plays) != _strip(self.original_plays)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Correction:
    """One audit-trail entry: what changed, from what, to what, and when."""

    id: int
    game_id: int
    trick_id: int | None
    kind: str
    before: Any
    after: Any
    note: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Prompt:
    """A question for the table; ``payload`` carries what the pages need to ask it."""

    id: int
    game_id: int
    kind: str
    round: int
    trick: int | None
    player: int | None
    payload: dict[str, Any]
    status: str
    answer: Any
    created_at: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Event:
    """One row of the ``events`` table; ``id`` is the SSE event id."""

    id: int
    game_id: int | None
    kind: str
    payload: dict[str, Any]
    at: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Shared:
    """Per-database-file state shared by every GameStore on that file in this process."""

    write_lock: threading.Lock = field(default_factory=threading.Lock)
    changed: threading.Condition = field(default_factory=threading.Condition)
    last_event_id: int = 0


_SHARED: dict[str, _Shared] = {}
_SHARED_LOCK = threading.Lock()


def _shared_for(path: Path) -> _Shared:
    key = str(path.resolve())
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = _Shared()
        return _SHARED[key]


def _strip(plays: Sequence[Mapping[str, Any]]) -> list[tuple[int, str]]:
    return [(int(p["player"]), str(p["card"])) for p in plays]


def _loads(text: str) -> Any:
    """A JSON column of a row; a damaged one is a clear error, not a traceback mid-game."""
    try:
        return json.loads(text)
    except (TypeError, ValueError) as err:
        raise UserError(
            f"a record in the game database (skullcam.db) is damaged: {err}. Restore a backup "
            "of skullcam.db, or move it aside to start a fresh one"
        ) from err


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class GameStore:
    """All persistent state of a data folder: ``<data>/skullcam.db`` and ``<data>/games/<id>/``.

    Safe to share one instance between threads: each thread lazily opens its own connection.
    """

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UserError(
                f"cannot create data folder {self.data_dir}: {err.strerror}; pick another --data"
            ) from err
        self.path = self.data_dir / "skullcam.db"
        self._local = threading.local()
        self._shared = _shared_for(self.path)
        self._connections: list[sqlite3.Connection] = []
        self._score_cache: dict[int, tuple[str, dict[str, Any]]] = {}
        self._score_lock = threading.Lock()
        self._connections_lock = threading.Lock()
        with self._shared.write_lock:
            conn = self._conn()
            try:
                with conn:
                    ensure_schema(conn)
            except sqlite3.DatabaseError as err:
                raise self._damaged(err) from err
        self._shared.last_event_id = max(self._shared.last_event_id, self.last_event_id())

    # ----------------------------------------------------------------------------- plumbing
    def _damaged(self, err: sqlite3.Error) -> UserError:
        return database_error(self.path, err)

    @contextmanager
    def waiting_at_most(self, seconds: float) -> Iterator[None]:
        """This thread's writes give up after ``seconds`` (not the usual 10 s) while another
        program holds the database: the camera loop must not stop watching the table while it
        waits, so it tries again later instead (``device.recorder``)."""
        conn = self._conn()
        conn.execute(f"PRAGMA busy_timeout={max(0, round(seconds * 1000))}")
        try:
            yield
        finally:
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(
                    self.path, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
                )
            except sqlite3.Error as err:
                raise self._damaged(err) from err
            conn.row_factory = sqlite3.Row
            conn.isolation_level = None  # explicit BEGIN/COMMIT below
            try:
                conn.execute("PRAGMA journal_mode=WAL")
            except sqlite3.DatabaseError as err:  # the first statement that reads the file
                conn.close()
                raise self._damaged(err) from err
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._local.conn = conn
            with self._connections_lock:
                self._connections.append(conn)
        return conn

    @contextmanager
    def _write(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction: all or nothing, serialised with this process's other writers.

        ``durable`` (every write but the live view's) syncs the log to disk at commit: in WAL
        mode SQLite's NORMAL sync keeps the file whole through a power cut but may lose the
        last commits, and a recorded trick or a bid is not to be lost. The live trick, redrawn
        at every card, is the one write a power cut may drop.
        """
        conn = self._conn()
        with self._shared.write_lock:
            conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            newest = conn.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0]
        with self._shared.changed:
            if newest > self._shared.last_event_id:
                self._shared.last_event_id = newest
            self._shared.changed.notify_all()

    def _emit(
        self, conn: sqlite3.Connection, game_id: int | None, kind: str, payload: Mapping[str, Any]
    ) -> int:
        cur = conn.execute(
            "INSERT INTO events (game_id, kind, payload, at) VALUES (?, ?, ?, ?)",
            (game_id, kind, _dumps(dict(payload)), time.time()),
        )
        return int(cur.lastrowid or 0)

    def close(self) -> None:
        """Close every connection this store opened (call once, at shutdown)."""
        with self._connections_lock:
            for conn in self._connections:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            self._connections.clear()
        self._local = threading.local()

    def game_dir(self, game_id: int) -> Path:
        """``<data>/games/<id>/``, created on demand: where a game's trick images live."""
        path = self.data_dir / "games" / str(int(game_id))
        path.mkdir(parents=True, exist_ok=True)
        return path

    def image_path(self, stored: str | None) -> Path | None:
        """The absolute path of an image path stored on a trick (stored relative to data)."""
        if not stored:
            return None
        path = Path(stored)
        return path if path.is_absolute() else self.data_dir / path

    def _relative(self, path: str | Path | None) -> str | None:
        if path is None:
            return None
        p = Path(path)
        try:
            return p.resolve().relative_to(self.data_dir.resolve()).as_posix()
        except ValueError:
            return str(p)

    # -------------------------------------------------------------------------------- games
    def create_game(
        self,
        players: Sequence[str],
        first_dealer: int = 0,
        settings: Mapping[str, Any] | None = None,
    ) -> int:
        """Start a game: 2..8 distinct non-empty names in seating order (clockwise)."""
        names = checks.check_players(players)
        checks.check_first_dealer(first_dealer, len(names))
        clean = checks.check_settings(settings or {})
        with self._write() as conn:
            return self._insert_game(conn, names, first_dealer, clean)

    def _insert_game(
        self,
        conn: sqlite3.Connection,
        names: list[str],
        first_dealer: int,
        settings: dict[str, Any],
    ) -> int:
        now = time.time()
        cur = conn.execute(
            "INSERT INTO games (created_at, players, first_dealer, settings) VALUES (?,?,?,?)",
            (now, _dumps(names), first_dealer, _dumps(settings)),
        )
        game_id = int(cur.lastrowid or 0)
        for name in names:
            conn.execute(
                "INSERT INTO player_names (name, last_used) VALUES (?, ?) "
                "ON CONFLICT(name) DO UPDATE SET last_used = excluded.last_used",
                (name, now),
            )
        self._emit(conn, game_id, "game_created", {"players": names})
        return game_id

    def game(self, game_id: int) -> Game:
        """The game, or UserError naming the id when there is none."""
        row = self._conn().execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no game {game_id}; see the games list")
        return _game(row)

    def games(self, status: str | None = None) -> list[Game]:
        """All games, newest first; ``status`` 'active' or 'finished' filters."""
        if status is None:
            rows = self._conn().execute("SELECT * FROM games ORDER BY id DESC").fetchall()
        else:
            rows = (
                self._conn()
                .execute("SELECT * FROM games WHERE status = ? ORDER BY id DESC", (status,))
                .fetchall()
            )
        return [_game(r) for r in rows]

    def active_game(self) -> Game | None:
        """The newest unfinished game: the one the camera records into and the TV shows."""
        row = (
            self._conn()
            .execute("SELECT * FROM games WHERE status = 'active' ORDER BY id DESC LIMIT 1")
            .fetchone()
        )
        return _game(row) if row else None

    def finish_game(self, game_id: int) -> None:
        """Mark a game finished (done automatically when its last trick is recorded)."""
        self.game(game_id)
        with self._write() as conn:
            self._finish(conn, game_id)

    def _finish(self, conn: sqlite3.Connection, game_id: int) -> None:
        cur = conn.execute(
            "UPDATE games SET status = 'finished', finished_at = ? "
            "WHERE id = ? AND status != 'finished'",
            (time.time(), game_id),
        )
        if cur.rowcount:
            conn.execute("DELETE FROM live WHERE game_id = ?", (game_id,))
            self._emit(conn, game_id, "game_finished", {})

    def remembered_names(self, limit: int = 30) -> list[str]:
        """Player names used before, most recent first (the setup page offers them)."""
        rows = (
            self._conn()
            .execute("SELECT name FROM player_names ORDER BY last_used DESC LIMIT ?", (limit,))
            .fetchall()
        )
        return [r["name"] for r in rows]

    # --------------------------------------------------------------------------------- bids
    def set_bids(
        self,
        game_id: int,
        round_number: int,
        bids: Sequence[int | None],
        cannonball: Sequence[bool] | None = None,
    ) -> None:
        """Set a round's bids at once (``None`` = not bid yet); each 0..cards dealt.

        A bid already made cannot be cleared once the round has recorded tricks (see
        :meth:`_keep_bids`).
        """
        with self._write() as conn:
            game = self.game(game_id)
            n = len(game.players)
            self._check_round(game, round_number)
            if isinstance(bids, (str, bytes)) or not isinstance(bids, Sequence):
                raise UserError(f"bids must be a list, one per player ({n})")
            if len(bids) != n:
                raise UserError(f"round {round_number} needs {n} bids, got {len(bids)}")
            cards = checks.cards_dealt(round_number, n)
            clean: list[int | None] = []
            for i, bid in enumerate(bids):
                clean.append(
                    None
                    if bid is None
                    else checks.check_bid(bid, cards, game.players[i], round_number)
                )
            balls = None
            if cannonball is not None:
                if (
                    isinstance(cannonball, (str, bytes))
                    or not isinstance(cannonball, Sequence)
                    or len(cannonball) != n
                    or not all(isinstance(b, bool) for b in cannonball)
                ):
                    raise UserError(f"cannonball needs one true/false per player ({n})")
                if any(cannonball):
                    _check_cannonball_counts(game)
                balls = list(cannonball)
            row = self._round_row(conn, game_id, round_number)
            if row is not None:
                self._keep_bids(conn, game, round_number, _loads(row["bids"]), clean)
            if balls is None and row is not None and row["cannonball"]:
                balls = _loads(row["cannonball"])
            self._put_round(conn, game_id, round_number, clean, balls)
            self._emit(conn, game_id, "bids", {"round": round_number, "bids": clean})

    def set_bid(
        self,
        game_id: int,
        round_number: int,
        player: int,
        bid: int | None,
        cannonball: bool | None = None,
    ) -> None:
        """Set one player's bid (a phone per player); other players' bids are kept."""
        with self._write() as conn:
            game = self.game(game_id)
            n = len(game.players)
            self._check_round(game, round_number)
            checks.check_player(player, n)
            cards = checks.cards_dealt(round_number, n)
            value = (
                None
                if bid is None
                else checks.check_bid(bid, cards, game.players[player], round_number)
            )
            row = self._round_row(conn, game_id, round_number)
            old = _loads(row["bids"]) if row else [None] * n
            balls = _loads(row["cannonball"]) if row and row["cannonball"] else None
            bids = list(old)
            bids[player] = value
            self._keep_bids(conn, game, round_number, old, bids)
            if cannonball is not None:
                if cannonball:
                    _check_cannonball_counts(game)
                balls = balls or [False] * n
                balls[player] = bool(cannonball)
            self._put_round(conn, game_id, round_number, bids, balls)
            self._emit(
                conn,
                game_id,
                "bids",
                {"round": round_number, "bids": bids, "player": player},
            )

    def _keep_bids(
        self,
        conn: sqlite3.Connection,
        game: Game,
        round_number: int,
        old: Sequence[int | None],
        new: Sequence[int | None],
    ) -> None:
        """Refuse clearing a bid in a round with recorded tricks.

        The record format has no "not bid yet", so a cleared bid would drop that round and
        every later one from the score and the exports (on a phone, tapping the lit bid
        button clears it). Changing the bid is the correction a table means.
        """
        pairs = enumerate(zip(old, new, strict=True))
        cleared = [i for i, (was, now) in pairs if was is not None and now is None]
        if not cleared:
            return
        played = conn.execute(
            "SELECT COUNT(*) FROM tricks WHERE game_id = ? AND round = ?",
            (game.id, round_number),
        ).fetchone()[0]
        if played:
            what = (
                f"{game.players[cleared[0]]}'s bid instead of clearing it"
                if len(cleared) == 1
                else f"the bids of {', '.join(game.players[i] for i in cleared)} instead of "
                "clearing them"
            )
            raise UserError(f"round {round_number} has recorded tricks; change {what}")

    def bids(self, game_id: int, round_number: int) -> list[int | None]:
        """A round's bids, ``None`` for a player who has not bid; a round the game does not
        have is an error, not a row of ``None`` that reads like a round nobody bid in yet."""
        game = self.game(game_id)
        self._check_round(game, round_number)
        row = self._round_row(self._conn(), game_id, round_number)
        return _loads(row["bids"]) if row else [None] * len(game.players)

    def cannonball(self, game_id: int, round_number: int) -> list[bool] | None:
        """A Rascal-scoring round's cannonball calls, ``None`` before any (round checked as
        in :meth:`bids`)."""
        self._check_round(self.game(game_id), round_number)
        row = self._round_row(self._conn(), game_id, round_number)
        return _loads(row["cannonball"]) if row and row["cannonball"] else None

    def _round_row(
        self, conn: sqlite3.Connection, game_id: int, round_number: int
    ) -> sqlite3.Row | None:
        row: sqlite3.Row | None = conn.execute(
            "SELECT * FROM rounds WHERE game_id = ? AND round = ?", (game_id, round_number)
        ).fetchone()
        return row

    def _put_round(
        self,
        conn: sqlite3.Connection,
        game_id: int,
        round_number: int,
        bids: list[int | None],
        cannonball: list[bool] | None,
    ) -> None:
        conn.execute(
            "INSERT INTO rounds (game_id, round, bids, cannonball) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(game_id, round) DO UPDATE SET bids = excluded.bids, "
            "cannonball = excluded.cannonball",
            (
                game_id,
                round_number,
                _dumps(bids),
                None if cannonball is None else _dumps(cannonball),
            ),
        )

    def _check_round(self, game: Game, round_number: int) -> None:
        rounds = int(checks.full_settings(game.settings)["rounds"])
        if not checks.whole_in(round_number, 1, rounds):
            raise UserError(f"round must be 1..{rounds}, got {echo(round_number)}")

    # ------------------------------------------------------------------------------- tricks
    def record_trick(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plays: Sequence[Mapping[str, Any]],
        *,
        completion_image: str | Path | None = None,
        annotated_image: str | Path | None = None,
        detections: Any = None,
        resolution: Mapping[str, Any] | None = None,
        model_version: str | None = None,
        flags: Sequence[str] = (),
    ) -> int:
        """Record a completed trick in one transaction and clear the live trick.

        ``plays`` are in play order: ``[{"player": 1, "card": "green-5", "confidence": 0.97}]``.
        ``resolution`` is the pipeline's ``TrickResult.to_json()`` (with ``explanation``); when
        omitted the store resolves the trick itself. Recording the last trick of the last
        round finishes the game. Returns the trick's id.
        """
        with self._write() as conn:
            # Read inside the write: a settings change committed a moment ago (fewer rounds)
            # is the one this trick is checked against.
            game = self.game(game_id)
            self._check_round(game, round_number)
            n = len(game.players)
            cards = checks.cards_dealt(round_number, n)
            if not checks.whole_in(trick_index, 0, cards - 1):
                raise UserError(
                    f"round {round_number} has tricks 0..{cards - 1}, got trick {echo(trick_index)}"
                )
            clean = checks.check_plays(plays, n)
            if resolution is None:
                resolution = _resolve(clean, game.settings, game.players)
            try:
                cur = conn.execute(
                    "INSERT INTO tricks (game_id, round, trick, plays, original_plays, "
                    "completion_image, annotated_image, detections, resolution, model_version, "
                    "flags, recorded_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        game_id,
                        round_number,
                        trick_index,
                        _dumps(clean),
                        _dumps(clean),
                        self._relative(completion_image),
                        self._relative(annotated_image),
                        _dumps(detections),
                        _dumps(dict(resolution)),
                        model_version,
                        _dumps(list(flags)),
                        time.time(),
                    ),
                )
            except sqlite3.IntegrityError as err:
                raise UserError(
                    f"round {round_number} trick {trick_index} is already recorded in game "
                    f"{game_id}; correct it on its replay page instead"
                ) from err
            trick_id = int(cur.lastrowid or 0)
            conn.execute("DELETE FROM live WHERE game_id = ?", (game_id,))
            winner = _winner_player(clean, resolution)
            self._emit(
                conn,
                game_id,
                "trick",
                {
                    "round": round_number,
                    "trick": trick_index,
                    "trick_id": trick_id,
                    "winner": winner,
                    "bonus": resolution.get("bonus"),
                    "explanation": resolution.get("explanation"),
                    "flags": list(flags),
                },
            )
            total_rounds = int(checks.full_settings(game.settings)["rounds"])
            if round_number == total_rounds and trick_index == cards - 1:
                done = conn.execute(
                    "SELECT COUNT(*) FROM tricks WHERE game_id = ? AND round = ?",
                    (game_id, round_number),
                ).fetchone()[0]
                if done == cards:
                    self._finish(conn, game_id)
        return trick_id

    def trick(self, game_id: int, round_number: int, trick_index: int) -> Trick:
        """A recorded trick, or UserError naming what is missing."""
        row = (
            self._conn()
            .execute(
                "SELECT * FROM tricks WHERE game_id = ? AND round = ? AND trick = ?",
                (game_id, round_number, trick_index),
            )
            .fetchone()
        )
        if row is None:
            raise NotFoundError(
                f"game {game_id} has no recorded trick {trick_index} in round {round_number}"
            )
        return _trick(row)

    def tricks(self, game_id: int, round_number: int | None = None) -> list[Trick]:
        """Recorded tricks in order (one round's when ``round_number`` is given)."""
        sql = "SELECT * FROM tricks WHERE game_id = ?"
        args: tuple[Any, ...] = (game_id,)
        if round_number is not None:
            sql += " AND round = ?"
            args += (round_number,)
        rows = self._conn().execute(sql + " ORDER BY round, trick", args).fetchall()
        return [_trick(r) for r in rows]

    # --------------------------------------------------------------------------------- live
    def set_live(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plays: Sequence[Mapping[str, Any]],
        winner: int | None = None,
        leader: int | None = None,
    ) -> None:
        """Publish the trick on the table now (cards recognised so far, current winner).

        Not a recorded trick: it is replaced on every call and cleared by :meth:`record_trick`.
        ``winner`` and ``leader`` are player numbers.
        """
        game = self.game(game_id)
        n = len(game.players)
        clean = checks.check_plays(plays, n, partial=True)
        payload = {
            "round": round_number,
            "trick": trick_index,
            "plays": clean,
            "winner": winner,
            "leader": leader,
        }
        with self._write(durable=False) as conn:
            conn.execute(
                "INSERT INTO live (game_id, payload, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT(game_id) DO UPDATE SET payload = excluded.payload, "
                "updated_at = excluded.updated_at",
                (game_id, _dumps(payload), time.time()),
            )
            self._emit(conn, game_id, "live", payload)

    def live(self, game_id: int) -> dict[str, Any] | None:
        """The trick on the table as last published, or None."""
        sql = "SELECT payload FROM live WHERE game_id = ?"
        row = self._conn().execute(sql, (game_id,)).fetchone()
        return _loads(row["payload"]) if row else None

    # -------------------------------------------------------------------------- corrections
    def correct_play(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        play_index: int,
        *,
        card: str | None = None,
        player: int | None = None,
        note: str = "",
    ) -> Trick:
        """Change one play's card and/or player; re-resolves the trick, keeps the original.

        A player change swaps seats with whichever play had that player, so the trick still
        has one card per player. Unknown cards and players raise UserError. The trick is
        read and changed in one write transaction, so two pages correcting the same trick at
        once both land (one after the other) instead of the later undoing the earlier.
        """
        note = checks.check_note(note)
        with self._write() as conn:
            plan = self._plan_correction(
                game_id, round_number, trick_index, play_index, card=card, player=player
            )
            if plan is not None:
                self._apply_correction(conn, plan, note)
        return self.trick(game_id, round_number, trick_index)

    def _plan_correction(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        play_index: int,
        *,
        card: str | None = None,
        player: int | None = None,
    ) -> dict[str, Any] | None:
        """Validate a correction (reads only); None when it changes nothing.

        Call it inside :meth:`_write`: what it reads must be what the correction replaces.
        """
        game = self.game(game_id)
        old = self.trick(game_id, round_number, trick_index)
        n = len(game.players)
        last = len(old.plays) - 1
        if isinstance(play_index, bool) or not isinstance(play_index, int):
            raise UserError(f"play must be a number 0..{last}, got {echo(play_index)}")
        if not 0 <= play_index <= last:
            raise UserError(f"play must be 0..{last}, got {echo(play_index)}")
        plays = [dict(p) for p in old.plays]
        changes: list[tuple[str, Any, Any]] = []
        if card is not None:
            new_card = checks.parse_card_id(card)
            if new_card == "tigress":
                # An undeclared Tigress cannot be judged: the score would stop at this trick.
                raise UserError(
                    "say how the Tigress was played: choose tigress:pirate or tigress:escape"
                )
            was = str(plays[play_index]["card"])
            if new_card != was:
                both_tigress = new_card.startswith("tigress") and was.startswith("tigress")
                changes.append(("tigress" if both_tigress else "card", was, new_card))
                plays[play_index]["card"] = new_card
                plays[play_index]["confidence"] = None
        if player is not None:
            checks.check_player(player, n)
            current = plays[play_index]["player"]
            if player != current:
                for other in plays:
                    if other["player"] == player:
                        other["player"] = current
                plays[play_index]["player"] = player
                changes.append(("player", current, player))
        if not changes:
            return None
        clean = checks.check_plays(plays, n)
        return {
            "game_id": game_id,
            "round": round_number,
            "trick": trick_index,
            "trick_id": old.id,
            "play": play_index,
            "plays": clean,
            "resolution": _resolve(clean, game.settings, game.players),
            "winning_before": _resolve(old.plays, game.settings).get("winning_card"),
            "changes": changes,
        }

    def _apply_correction(self, conn: sqlite3.Connection, plan: dict[str, Any], note: str) -> None:
        conn.execute(
            "UPDATE tricks SET plays = ?, resolution = ? WHERE id = ?",
            (_dumps(plan["plays"]), _dumps(plan["resolution"]), plan["trick_id"]),
        )
        for kind, before, after in plan["changes"]:
            self._audit(
                conn,
                plan["game_id"],
                plan["trick_id"],
                kind,
                {"play": plan["play"], "value": before},
                {"play": plan["play"], "value": after},
                note,
            )
        dropped = self._reconcile_abilities(conn, plan)
        payload: dict[str, Any] = {
            "round": plan["round"],
            "trick": plan["trick"],
            "trick_id": plan["trick_id"],
            "play": plan["play"],
            "changes": [{"kind": k, "before": b, "after": a} for k, b, a in plan["changes"]],
        }
        if dropped:
            payload["abilities_dropped"] = dropped
        self._emit(conn, plan["game_id"], "correction", payload)

    def _reconcile_abilities(
        self, conn: sqlite3.Connection, plan: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """Make a corrected trick's pirate abilities follow its new winner; returns those dropped.

        A choice recorded for a pirate that no longer wins the trick (Rosie's next leader, say)
        would make the whole game unscoreable, with no way left to remove it; so it is dropped
        (kept in the audit trail), an open question about it is closed, and when the
        correction made a pirate with an ability the winner (setting on), the table is asked.
        Runs whatever the setting, since abilities stay stored while it is off.
        """
        game = self.game(plan["game_id"])
        r, t = plan["round"], plan["trick"]
        winning = plan["resolution"].get("winning_card")
        row = self._round_row(conn, game.id, r)
        abilities: list[dict[str, Any]] = _loads(row["abilities"]) if row else []
        dropped = [a for a in abilities if a["trick"] == t and a["pirate"] != winning]
        if dropped:
            kept = [a for a in abilities if a not in dropped]
            conn.execute(
                "UPDATE rounds SET abilities = ? WHERE game_id = ? AND round = ?",
                (_dumps(kept), game.id, r),
            )
            for a in dropped:
                self._audit(
                    conn,
                    game.id,
                    plan["trick_id"],
                    "ability",
                    a,
                    None,
                    f"{a['pirate']} no longer wins round {r} trick {t}: "
                    "its ability no longer counts",
                )
        asked: set[str] = set()
        for prow in conn.execute(
            "SELECT * FROM prompts WHERE game_id = ? AND round = ? AND trick = ? "
            "AND status = 'open'",
            (game.id, r, t),
        ).fetchall():
            prompt = _prompt(prow)
            if prompt.kind not in _ABILITY_PIRATE:
                continue
            if _ABILITY_PIRATE[prompt.kind] == winning:
                asked.add(prompt.kind)
                continue
            self._close_prompt(conn, prompt, "dismissed", None)
        kind = _ABILITY_KIND.get(str(winning))
        recorded = any(a["trick"] == t and a["pirate"] == winning for a in abilities)
        on = bool(checks.full_settings(game.settings)["pirate_abilities"])
        changed = winning != plan["winning_before"]  # a question declined is not re-asked
        if kind is not None and on and changed and not recorded and kind not in asked:
            winner = _winner_player(plan["plays"], plan["resolution"])
            self._insert_prompt(conn, game.id, kind, r, t, winner, {})
        return dropped

    def _plan_tigress(
        self, game_id: int, round_number: int, trick_index: int, as_: Any
    ) -> dict[str, Any] | None:
        if as_ is None:
            raise UserError("say how the Tigress was played: 'pirate' or 'escape'")
        if as_ not in ("pirate", "escape"):
            raise UserError(f"the Tigress is played as 'pirate' or 'escape', not {echo(as_)}")
        old = self.trick(game_id, round_number, trick_index)
        for i, play in enumerate(old.plays):
            if str(play["card"]).startswith("tigress"):
                return self._plan_correction(
                    game_id, round_number, trick_index, i, card=f"tigress:{as_}"
                )
        raise UserError(
            f"round {round_number} trick {trick_index} has no Tigress; correct the card instead"
        )

    def redeclare_tigress(
        self, game_id: int, round_number: int, trick_index: int, as_: str, note: str = ""
    ) -> Trick:
        """Re-declare the trick's Tigress as ``'pirate'`` or ``'escape'`` (audited)."""
        note = checks.check_note(note)
        with self._write() as conn:
            plan = self._plan_tigress(game_id, round_number, trick_index, as_)
            if plan is not None:
                self._apply_correction(conn, plan, note)
        return self.trick(game_id, round_number, trick_index)

    def confirm_trick(
        self, game_id: int, round_number: int, trick_index: int, note: str = ""
    ) -> None:
        """The table confirms a flagged trick as recorded: clears its flags (audited)."""
        note = checks.check_note(note)
        with self._write() as conn:
            self._confirm(conn, self.trick(game_id, round_number, trick_index), note)

    def _confirm(self, conn: sqlite3.Connection, old: Trick, note: str) -> None:
        conn.execute("UPDATE tricks SET flags = '[]' WHERE id = ?", (old.id,))
        self._audit(conn, old.game_id, old.id, "confirm", old.flags, [], note)
        self._emit(
            conn,
            old.game_id,
            "correction",
            {"round": old.round, "trick": old.trick, "trick_id": old.id, "confirmed": True},
        )

    def audit(self, game_id: int, trick_id: int | None = None) -> list[Correction]:
        """The audit trail (oldest first): a trick's when ``trick_id`` is given, else the game's."""
        if trick_id is None:
            rows = (
                self._conn()
                .execute("SELECT * FROM corrections WHERE game_id = ? ORDER BY id", (game_id,))
                .fetchall()
            )
        else:
            rows = (
                self._conn()
                .execute(
                    "SELECT * FROM corrections WHERE game_id = ? AND trick_id = ? ORDER BY id",
                    (game_id, trick_id),
                )
                .fetchall()
            )
        return [
            Correction(
                id=r["id"],
                game_id=r["game_id"],
                trick_id=r["trick_id"],
                kind=r["kind"],
                before=_loads(r["before"]),
                after=_loads(r["after"]),
                note=r["note"],
                at=r["at"],
            )
            for r in rows
        ]

    def _audit(
        self,
        conn: sqlite3.Connection,
        game_id: int,
        trick_id: int | None,
        kind: str,
        before: Any,
        after: Any,
        note: str,
    ) -> None:
        conn.execute(
            "INSERT INTO corrections (game_id, trick_id, kind, before, after, note, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, trick_id, kind, _dumps(before), _dumps(after), str(note)[:500], time.time()),
        )

    # ----------------------------------------------------------------------------- settings
    def update_settings(self, game_id: int, changes: Mapping[str, Any], note: str = "") -> dict:
        """Change house rules mid-game; scores recompute from the record. Returns the settings.

        A key set to ``None`` goes back to its default. The settings are read and written in
        one transaction, so two pages changing different keys at once both keep their change.

        Changing the number of rounds re-decides whether the game is over: cut to the rounds
        already played, it finishes; raised on a game that ended by playing its last round,
        it is active again (the camera can record the added rounds). A game the table ended
        early, with rounds unplayed, stays finished.
        """
        note = checks.check_note(note)
        if not isinstance(changes, Mapping):
            raise UserError(
                "settings must be a JSON object of the keys in docs/rules-engine.md (Settings)"
            )
        with self._write() as conn:
            game = self.game(game_id)
            merged = dict(game.settings)
            for key, value in changes.items():
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
            clean = checks.check_settings(merged)
            rounds = int(checks.full_settings(clean)["rounds"])
            played = conn.execute(
                "SELECT COALESCE(MAX(round), 0) FROM tricks WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            if rounds < played:
                raise UserError(
                    f"this game already has tricks in round {played}; "
                    f"rounds cannot be set to {rounds}"
                )
            if clean == game.settings:
                return clean
            conn.execute("UPDATE games SET settings = ? WHERE id = ?", (_dumps(clean), game_id))
            self._audit(conn, game_id, None, "settings", game.settings, clean, note)
            self._emit(conn, game_id, "settings", {"settings": clean})
            old_rounds = int(checks.full_settings(game.settings)["rounds"])
            if rounds != old_rounds:
                self._restatus(conn, game, old_rounds, rounds)
        return clean

    def _played_out(self, conn: sqlite3.Connection, game: Game, rounds: int) -> bool:
        """Whether every trick of rounds 1..``rounds`` is recorded."""
        n = len(game.players)
        counts = dict(
            conn.execute(
                "SELECT round, COUNT(*) FROM tricks WHERE game_id = ? GROUP BY round", (game.id,)
            ).fetchall()
        )
        return all(counts.get(r, 0) >= checks.cards_dealt(r, n) for r in range(1, rounds + 1))

    def _restatus(self, conn: sqlite3.Connection, game: Game, old_rounds: int, rounds: int) -> None:
        """Finish or reopen a game whose number of rounds changed (see update_settings)."""
        if self._played_out(conn, game, rounds):
            self._finish(conn, game.id)
        elif game.status == "finished" and self._played_out(conn, game, old_rounds):
            conn.execute(
                "UPDATE games SET status = 'active', finished_at = NULL WHERE id = ?", (game.id,)
            )

    # ------------------------------------------------------------------------------ prompts
    def create_prompt(
        self,
        game_id: int,
        kind: str,
        round_number: int,
        trick_index: int | None = None,
        player: int | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> int:
        """Ask the table something; pages show it until answered. Returns the prompt id.

        Kinds: ``tigress`` (answer 'pirate'/'escape'), ``rosie`` (answer: next leader, a player
        number), ``rascal_bet`` (0, 10 or 20), ``harry`` (-1, 0 or +1), ``flagged`` ('confirm'
        or 'correct'). ``player`` is whom it concerns (the pirate's or Tigress's player).
        """
        if kind not in PROMPT_KINDS:
            raise UserError(f"unknown prompt kind {echo(kind)}; one of {', '.join(PROMPT_KINDS)}")
        game = self.game(game_id)
        if player is not None:
            checks.check_player(player, len(game.players))
        data = dict(payload or {})
        with self._write() as conn:
            return self._insert_prompt(conn, game_id, kind, round_number, trick_index, player, data)

    def _insert_prompt(
        self,
        conn: sqlite3.Connection,
        game_id: int,
        kind: str,
        round_number: int,
        trick_index: int | None,
        player: int | None,
        payload: dict[str, Any],
    ) -> int:
        cur = conn.execute(
            "INSERT INTO prompts (game_id, kind, round, trick, player, payload, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, kind, round_number, trick_index, player, _dumps(payload), time.time()),
        )
        prompt_id = int(cur.lastrowid or 0)
        self._emit(
            conn,
            game_id,
            "prompt",
            {
                "prompt_id": prompt_id,
                "kind": kind,
                "round": round_number,
                "trick": trick_index,
                "player": player,
            },
        )
        return prompt_id

    def prompt(self, prompt_id: int) -> Prompt:
        row = self._conn().execute("SELECT * FROM prompts WHERE id = ?", (prompt_id,)).fetchone()
        if row is None:
            raise UserError(f"no prompt {prompt_id}; it may have been answered on another page")
        return _prompt(row)

    def prompts(self, game_id: int, status: str | None = "open") -> list[Prompt]:
        """A game's prompts (open ones by default), oldest first."""
        if status is None:
            rows = (
                self._conn()
                .execute("SELECT * FROM prompts WHERE game_id = ? ORDER BY id", (game_id,))
                .fetchall()
            )
        else:
            rows = (
                self._conn()
                .execute(
                    "SELECT * FROM prompts WHERE game_id = ? AND status = ? ORDER BY id",
                    (game_id, status),
                )
                .fetchall()
            )
        return [_prompt(r) for r in rows]

    def answer_prompt(self, prompt_id: int, answer: Any) -> Prompt:
        """Answer a prompt and apply it: re-declare the Tigress, record a pirate ability's
        choice in the round's ``abilities``, or confirm a flagged trick.

        Read, checked and applied in one write transaction, like a correction."""
        with self._write() as conn:
            prompt = self.prompt(prompt_id)
            if prompt.status != "open":
                raise UserError(f"prompt {prompt_id} was already {prompt.status}")
            game = self.game(prompt.game_id)
            n = len(game.players)
            kind = prompt.kind
            value: Any
            if kind == "tigress":
                if answer not in ("pirate", "escape"):
                    raise UserError("answer the Tigress with 'pirate' or 'escape'")
                value = answer
            elif kind == "rosie":
                value = whole_number(answer, "Rosie's next leader")
                checks.check_player(value, n)
            elif kind == "rascal_bet":
                value = whole_number(answer, "Rascal's bet")
                if value not in (0, 10, 20):
                    raise UserError(f"Rascal's bet is 0, 10 or 20, not {echo(value)}")
            elif kind == "harry":
                value = whole_number(answer, "Harry's bid change")
                if value not in (-1, 0, 1):
                    raise UserError(f"Harry changes the bid by -1, 0 or +1, not {echo(value)}")
            else:  # flagged
                if answer not in ("confirm", "correct"):
                    raise UserError("answer a flagged trick with 'confirm' or 'correct'")
                value = answer
            if kind in _ABILITY_PIRATE and prompt.trick is not None:
                self._check_ability_applies(game, prompt)
            if kind == "tigress" and prompt.trick is not None:
                plan = self._plan_tigress(game.id, prompt.round, prompt.trick, value)
                if plan is not None:
                    self._apply_correction(conn, plan, f"prompt {prompt_id}")
            if kind == "flagged" and value == "confirm" and prompt.trick is not None:
                confirm = self.trick(game.id, prompt.round, prompt.trick)
                self._confirm(conn, confirm, f"prompt {prompt_id}")
            self._close_prompt(conn, prompt, "answered", value)
            if kind in _ABILITY_PIRATE and prompt.trick is not None:
                self._set_ability(conn, game, prompt.round, prompt.trick, kind, value)
        return self.prompt(prompt_id)

    def _check_ability_applies(self, game: Game, prompt: Prompt) -> None:
        """Refuse an ability choice for a recorded trick its pirate does not win (any more):
        recorded, it would make the whole game unscoreable."""
        assert prompt.trick is not None
        row = (
            self._conn()
            .execute(
                "SELECT plays FROM tricks WHERE game_id = ? AND round = ? AND trick = ?",
                (game.id, prompt.round, prompt.trick),
            )
            .fetchone()
        )
        if row is None:
            return
        pirate = _ABILITY_PIRATE[prompt.kind]
        winning = _resolve(_loads(row["plays"]), game.settings).get("winning_card")
        if winning != pirate:
            raise UserError(
                f"round {prompt.round} trick {prompt.trick} is not won by {pirate} as "
                "recorded now, so its ability does not apply; dismiss this question "
                "(or correct the trick first)"
            )

    def dismiss_prompt(self, prompt_id: int) -> None:
        """Close an open prompt without applying anything (asked by mistake).

        An answered prompt has been applied (a Tigress re-declared, an ability recorded):
        dismissing it would hide that, so it is refused; correct the trick instead."""
        with self._write() as conn:
            prompt = self.prompt(prompt_id)
            if prompt.status != "open":
                raise UserError(
                    f"prompt {prompt_id} was already {prompt.status}; there is nothing to "
                    "dismiss (to change what it did, correct the trick)"
                )
            self._close_prompt(conn, prompt, "dismissed", None)

    def _close_prompt(
        self, conn: sqlite3.Connection, prompt: Prompt, status: str, answer: Any
    ) -> None:
        cur = conn.execute(
            "UPDATE prompts SET status = ?, answer = ?, answered_at = ? "
            "WHERE id = ? AND status = 'open'",
            (status, None if answer is None else _dumps(answer), time.time(), prompt.id),
        )
        if not cur.rowcount:
            raise UserError(f"prompt {prompt.id} was closed on another page meanwhile")
        self._emit(
            conn,
            prompt.game_id,
            "prompt_answered",
            {"prompt_id": prompt.id, "kind": prompt.kind, "answer": answer, "round": prompt.round},
        )

    def _set_ability(
        self,
        conn: sqlite3.Connection,
        game: Game,
        round_number: int,
        trick_index: int,
        kind: str,
        choice: int,
    ) -> None:
        row = self._round_row(conn, game.id, round_number)
        if row is None:
            self._put_round(conn, game.id, round_number, [None] * len(game.players), None)
            abilities: list[dict[str, Any]] = []
        else:
            abilities = _loads(row["abilities"])
        pirate = _ABILITY_PIRATE[kind]
        abilities = [
            a for a in abilities if not (a["trick"] == trick_index and a["pirate"] == pirate)
        ]
        abilities.append({"trick": trick_index, "pirate": pirate, "choice": choice})
        abilities.sort(key=lambda a: (a["trick"], a["pirate"]))
        conn.execute(
            "UPDATE rounds SET abilities = ? WHERE game_id = ? AND round = ?",
            (_dumps(abilities), game.id, round_number),
        )

    def abilities(self, game_id: int, round_number: int) -> list[dict[str, Any]]:
        row = self._round_row(self._conn(), game_id, round_number)
        return _loads(row["abilities"]) if row else []

    # ------------------------------------------------------------------------ record/score
    def export_record(self, game_id: int) -> dict[str, Any]:
        """The game as a ``skullcam-game/1`` record (interfaces.md).

        Rounds are exported from round 1 while every player has bid; a round whose bids are
        incomplete (the round being bid or played) is left out with everything after it,
        because the record format has no "not bid yet". When that would leave out recorded
        play (a finished round, or tricks of a later round) the export is refused with what
        to enter, instead of quietly dropping those rounds. Confidences, images and flags
        stay in the store.
        """
        record, problem = self._record(game_id)
        if problem is not None:
            raise UserError(f"cannot export game {game_id}: {render(problem)}")
        return record

    def _record(self, game_id: int) -> tuple[dict[str, Any], tuple[Phrase, ...] | None]:
        """The exportable record, and why recorded rounds are missing from it (or None), as
        phrases (``rules.explain``) for a page to say in its reader's language."""
        game = self.game(game_id)
        n = len(game.players)
        conn = self._conn()
        rows = {
            r["round"]: r
            for r in conn.execute("SELECT * FROM rounds WHERE game_id = ?", (game_id,)).fetchall()
        }
        tricks: dict[int, list[Trick]] = {}
        for t in self.tricks(game_id):
            tricks.setdefault(t.round, []).append(t)
        rounds_out: list[dict[str, Any]] = []
        full = checks.full_settings(game.settings)
        total = int(full["rounds"])
        abilities_on = bool(full["pirate_abilities"])
        problem: tuple[Phrase, ...] | None = None
        for r in range(1, total + 1):
            # After an unfinished round, bids entered ahead for the rounds after it (the demo
            # enters them all at the start) are not yet part of the record, which may end with
            # one unfinished round only. Tricks recorded after it still go in, so that the
            # rules engine names the gap.
            in_play = rounds_out and len(tricks.get(r - 1, [])) < checks.cards_dealt(r - 1, n)
            if in_play and not any(tricks.get(later) for later in range(r, total + 1)):
                break
            row = rows.get(r)
            bids = _loads(row["bids"]) if row is not None else [None] * n
            if row is None or any(b is None for b in bids):
                problem = _missing_bids_problem(game, r, bids, tricks)
                break
            entry: dict[str, Any] = {
                "bids": bids,
                "tricks": [
                    {"plays": [{"player": p["player"], "card": p["card"]} for p in t.plays]}
                    for t in tricks.get(r, [])
                ],
            }
            if row["cannonball"]:
                entry["cannonball"] = _loads(row["cannonball"])
            abilities = _loads(row["abilities"])
            if abilities and abilities_on:
                # Kept in the store when the setting is turned off, so turning it back on
                # restores them; the record only carries them while they count.
                entry["abilities"] = abilities
            rounds_out.append(entry)
        record = {
            "format": GAME_FORMAT,
            "players": list(game.players),
            "settings": dict(game.settings),
            "first_dealer": game.first_dealer,
            "rounds": rounds_out,
        }
        return record, problem

    def import_record(self, record: Any) -> int:
        """Store a ``skullcam-game/1`` record as a new game (validated by the rules engine).

        Card ids are stored canonical (``GREEN-5`` becomes ``green-5``), as the camera and
        corrections store them. An unfinished record becomes the game in progress only when
        no other game is: importing an old record to settle a dispute must not move the TV
        and the camera off tonight's game, so it is then kept as finished (the audit trail
        says so). All of it is one transaction: no half-imported game.
        """
        if not isinstance(record, dict):
            raise UserError("a game record is a JSON object with format 'skullcam-game/1'")
        if record.get("format") != GAME_FORMAT:
            raise UserError(
                f"not a skullcam game record (format {echo(record.get('format'))}, "
                f"expected {GAME_FORMAT!r})"
            )
        try:
            GameRecord.from_dict(record, as_played=True)
        except (RulesError, TypeError, KeyError, ValueError) as err:
            raise UserError(f"invalid game record: {err}") from err
        players = checks.check_players(record["players"])
        first_dealer = record.get("first_dealer", 0)
        checks.check_first_dealer(first_dealer, len(players))
        settings = checks.check_settings(dict(record.get("settings") or {}))
        n = len(players)
        total = int(checks.full_settings(settings)["rounds"])
        rounds = list(record.get("rounds") or [])
        if len(rounds) > total:
            # A tie-break round (tie=extra_round) is valid in a record, but the store keeps
            # rounds 1..rounds only: refused rather than imported with that round dropped.
            raise UserError(
                f"this record has {len(rounds)} rounds but its settings play {total}; the "
                "scoreboard cannot store a tie-break round: import it without that round"
            )
        stored: list[tuple[dict[str, Any], list[list[dict[str, Any]]]]] = []
        complete = len(rounds) == total
        for r, rnd in enumerate(rounds, start=1):
            tricks = []
            for t, trick in enumerate(rnd.get("tricks") or []):
                try:
                    tricks.append(checks.check_plays(trick["plays"], n))
                except UserError as err:
                    where = f"round {r}, trick {t + 1}"
                    raise UserError(f"invalid game record: {where}: {err}") from err
            if len(tricks) < checks.cards_dealt(r, n):
                complete = False
            stored.append((rnd, tricks))
        with self._write() as conn:
            game_id = self._insert_game(conn, players, first_dealer, settings)
            now = time.time()
            for r, (rnd, tricks) in enumerate(stored, start=1):
                self._put_round(conn, game_id, r, list(rnd["bids"]), rnd.get("cannonball"))
                abilities = [
                    {"trick": a["trick"], "pirate": a["pirate"], "choice": a["choice"]}
                    for a in rnd.get("abilities") or []
                ]
                if abilities:
                    conn.execute(
                        "UPDATE rounds SET abilities = ? WHERE game_id = ? AND round = ?",
                        (_dumps(abilities), game_id, r),
                    )
                for t, plays in enumerate(tricks):
                    conn.execute(
                        "INSERT INTO tricks (game_id, round, trick, plays, original_plays, "
                        "resolution, recorded_at) VALUES (?,?,?,?,?,?,?)",
                        (
                            game_id,
                            r,
                            t,
                            _dumps(plays),
                            _dumps(plays),
                            _dumps(_resolve(plays, settings, players)),
                            now,
                        ),
                    )
            in_progress = conn.execute(
                "SELECT id FROM games WHERE status = 'active' AND id != ? ORDER BY id DESC",
                (game_id,),
            ).fetchone()
            if complete:
                self._finish(conn, game_id)
            elif in_progress is not None:
                self._finish(conn, game_id)
                self._audit(
                    conn,
                    game_id,
                    None,
                    "import",
                    None,
                    {"status": "finished"},
                    f"imported unfinished while game {in_progress['id']} was in progress; "
                    "kept as finished so that game stays on the TV and the camera",
                )
            self._emit(
                conn,
                game_id,
                "imported",
                {"rounds": len(rounds), "active": not complete and in_progress is None},
            )
        return game_id

    def score(self, game_id: int) -> dict[str, Any]:
        """Scores computed now by ``skullcam.rules.score_game`` from :meth:`export_record`.

        Returns ``{"ok": True, "score": <GameScore.to_json()>}``, or ``{"ok": False, "error":
        msg}`` when the recorded game breaks the rules (e.g. a misread card played twice) or
        recorded rounds cannot be scored yet (a missing bid), so pages can show what to
        correct instead of failing or showing totals that leave rounds out.
        """
        record, problem = self._record(game_id)
        if problem is not None:
            return {
                "ok": False,
                "error": render(problem),
                "error_phrases": phrases_to_json(problem),
                "record": record,
            }
        # Scoring a whole game takes tens of ms and every open page asks after every event;
        # the record fully determines the score, so the last result per game is reused
        # while the record is unchanged.
        key = json.dumps(record, sort_keys=True, separators=(",", ":"))
        with self._score_lock:
            cached = self._score_cache.get(game_id)
        if cached is not None and cached[0] == key:
            return {**cached[1], "record": record}
        try:
            # The table's play stands: a corrected winner earlier in a round must not make
            # the tricks already played after it unscoreable (they are warned about instead).
            game = GameRecord.from_dict(record, as_played=True)
            result = score_game(game, as_played=True).to_json()
            out: dict[str, Any] = {"ok": True, "score": result}
        except (RulesError, TypeError, KeyError, ValueError) as err:
            out = {"ok": False, "error": str(err)}
            if isinstance(err, GameRecordError) and err.phrases:
                # The same reason as phrases, for a page to say in its reader's language.
                out["error_phrases"] = phrases_to_json(err.phrases)
        with self._score_lock:
            self._score_cache[game_id] = (key, out)
            while len(self._score_cache) > 16:
                self._score_cache.pop(next(iter(self._score_cache)))
        return {**out, "record": record}

    def state(self, game_id: int) -> dict[str, Any]:
        """Everything a page needs in one read: the game, the current round (bids, tricks,
        dealer, leader), the live trick, open prompts, scores and the last event id."""
        last_event = self.last_event_id()
        game = self.game(game_id)
        n = len(game.players)
        settings = checks.full_settings(game.settings)
        total = int(settings["rounds"])
        all_tricks = self.tricks(game_id)
        by_round: dict[int, list[Trick]] = {}
        for t in all_tricks:
            by_round.setdefault(t.round, []).append(t)
        current = total
        for r in range(1, total + 1):
            if len(by_round.get(r, [])) < checks.cards_dealt(r, n):
                current = r
                break
        cards = checks.cards_dealt(current, n)
        dealer = (game.first_dealer + current - 1) % n
        round_tricks = by_round.get(current, [])
        abilities = self.abilities(game_id, current)
        # Rosie's choice leads only while abilities count and Rosie really won that trick
        # (scoring ignores it otherwise, and the camera must expect the right leader).
        abilities_on = bool(settings["pirate_abilities"])
        leader: int | None = first_leader(dealer, n)
        won = [0] * n
        trick_list = []
        for t in round_tricks:
            res = _resolve(t.plays, game.settings, game.players)
            winner = _winner_player(t.plays, res)
            if winner is not None:
                won[winner] += 1
            nxt = res.get("next_leader")
            leader = t.plays[nxt]["player"] if isinstance(nxt, int) else leader
            if abilities_on and res.get("winning_card") == "pirate-rosie":
                for a in abilities:
                    if a["trick"] == t.trick and a["pirate"] == "pirate-rosie":
                        leader = int(a["choice"])
            trick_list.append(
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
            "leader": None if finished else leader,
            "next_trick": len(round_tricks),
            "bids": self.bids(game_id, current),
            "cannonball": self.cannonball(game_id, current),
            "tricks": trick_list,
            "tricks_won": won,
            "live": self.live(game_id),
            "prompts": [p.to_json() for p in self.prompts(game_id)],
            "score": score,
            "finished": game.status == "finished",
            "last_event_id": last_event,
        }

    def resolve(self, game_id: int, plays: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Resolve ``plays`` under the game's *current* settings (the replay page's verdict;
        the stored ``resolution`` is the one made when the trick was recorded or corrected)."""
        game = self.game(game_id)
        return _resolve(plays, game.settings, game.players)

    def verdict(self, game_id: int, plays: Sequence[Mapping[str, Any]]) -> TrickResult | RulesError:
        """The verdict of ``resolve`` as the rules engine's objects: the result, or the error
        for a trick no deck could produce (each with phrases, for a page to word in the
        reader's language)."""
        game = self.game(game_id)
        return _verdict(plays, game.settings, game.players)

    # ------------------------------------------------------------------------------- events
    def last_event_id(self) -> int:
        """The newest event id (0 when none): a page's starting point for the SSE stream."""
        return int(self._conn().execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0])

    def events_since(
        self, after_id: int, game_id: int | None = None, limit: int = 200
    ) -> list[Event]:
        """Events with id > ``after_id``, oldest first (a game's, plus game-less ones)."""
        if game_id is None:
            rows = (
                self._conn()
                .execute("SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?", (after_id, limit))
                .fetchall()
            )
        else:
            rows = (
                self._conn()
                .execute(
                    "SELECT * FROM events WHERE id > ? AND (game_id = ? OR game_id IS NULL) "
                    "ORDER BY id LIMIT ?",
                    (after_id, game_id, limit),
                )
                .fetchall()
            )
        return [
            Event(
                id=r["id"],
                game_id=r["game_id"],
                kind=r["kind"],
                payload=_loads(r["payload"]),
                at=r["at"],
            )
            for r in rows
        ]

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


# ---------------------------------------------------------------------------------- helpers
def _game(row: sqlite3.Row) -> Game:
    return Game(
        id=row["id"],
        players=_loads(row["players"]),
        first_dealer=row["first_dealer"],
        settings=_loads(row["settings"]),
        status=row["status"],
        created_at=row["created_at"],
        finished_at=row["finished_at"],
    )


def _trick(row: sqlite3.Row) -> Trick:
    return Trick(
        id=row["id"],
        game_id=row["game_id"],
        round=row["round"],
        trick=row["trick"],
        plays=_loads(row["plays"]),
        original_plays=_loads(row["original_plays"]),
        completion_image=row["completion_image"],
        annotated_image=row["annotated_image"],
        detections=_loads(row["detections"]),
        resolution=_loads(row["resolution"]),
        model_version=row["model_version"],
        flags=_loads(row["flags"]),
        recorded_at=row["recorded_at"],
    )


def _prompt(row: sqlite3.Row) -> Prompt:
    return Prompt(
        id=row["id"],
        game_id=row["game_id"],
        kind=row["kind"],
        round=row["round"],
        trick=row["trick"],
        player=row["player"],
        payload=_loads(row["payload"]),
        status=row["status"],
        answer=None if row["answer"] is None else _loads(row["answer"]),
        created_at=row["created_at"],
    )


def _check_cannonball_counts(game: Game) -> None:
    """A cannonball call only counts under Rascal's scoring: one made under another would
    sit in the record, ignored with a warning, until the setting changed."""
    scoring = checks.full_settings(game.settings)["scoring"]
    if scoring != "rascal":
        raise UserError(
            f"a cannonball is called only under Rascal's scoring; this game scores "
            f"{scoring!r}: change its scoring in the game's settings first"
        )


def _missing_bids_problem(
    game: Game, r: int, bids: Sequence[int | None], tricks: Mapping[int, Sequence[Trick]]
) -> tuple[Phrase, ...] | None:
    """Why stopping the record at round ``r`` (bids missing) would leave out recorded play,
    or None when round ``r`` is just the round being bid or played."""
    n = len(game.players)
    missing = ", ".join(game.players[i] for i, b in enumerate(bids) if b is None)
    later = sorted(k for k in tricks if k > r)
    if later:
        args = {"round": r, "players": missing, "later": later[-1]}
        return (Phrase("missing_bid_before_tricks", args),)
    if len(tricks.get(r, [])) >= checks.cards_dealt(r, n):
        return (Phrase("missing_bid_all_tricks", {"round": r, "players": missing}),)
    return None


def _resolve(
    plays: Sequence[Mapping[str, Any]],
    settings: Mapping[str, Any],
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """``resolve_trick(...).to_json()`` for plays in play order (indices are play indices).

    ``names`` (seat order) lets the explanation say "Ana" instead of "play 0". A trick no
    deck could produce gives ``{"error": ...}`` instead of raising, so a misread trick can
    still be stored and then corrected.
    """
    return resolution_json(_verdict(plays, settings, names))


def resolution_json(verdict: TrickResult | RulesError) -> dict[str, Any]:
    """A verdict as the store keeps it: the result's ``to_json()``, or ``{"error": ...}``."""
    if isinstance(verdict, RulesError):
        return {"error": str(verdict)}
    return dict(verdict.to_json())


def _verdict(
    plays: Sequence[Mapping[str, Any]],
    settings: Mapping[str, Any],
    names: Sequence[str] | None = None,
) -> TrickResult | RulesError:
    """The rules engine's result for ``plays``, or its error for a trick no deck could make
    (a misread card read twice: it is stored anyway, to be corrected)."""
    labels = None if names is None else [names[int(p["player"])] for p in plays]
    try:
        cards = [parse_card(p["card"]) for p in plays]
        return resolve_trick(cards, checks.settings_obj(settings), labels)
    except RulesError as err:
        return err


def _winner_player(plays: Sequence[Mapping[str, Any]], resolution: Mapping[str, Any]) -> int | None:
    idx = resolution.get("winner")
    if isinstance(idx, int) and 0 <= idx < len(plays):
        return int(plays[idx]["player"])
    return None
