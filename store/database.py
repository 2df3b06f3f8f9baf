"""The store's one door to SQLite: connections, write transactions and a busy database.

Everything about *how* the store writes lives here and nowhere else, so a recorded game stays
whole however the rest of the store grows:

- every thread uses a connection of its own (a sqlite3 connection must not be used by two
  threads at once), in WAL mode so the web's readers are not blocked while the recorder
  writes; a thread done with it hands it back (:meth:`Database.release_thread_connection`,
  after each web request) or closes it (:meth:`Database.close_thread_connection`, a thread
  that ends), so the open connections follow the threads at work, not every thread started;
- every write is one ``BEGIN IMMEDIATE`` ... ``COMMIT`` (:meth:`Database._write`), rolled back
  on any error, so a crash loses at most the trick in progress, never half a correction;
- writes in this process are serialised by one lock per database file, so they never fight
  over SQLite's write lock, and waiters on the event log are woken after each commit;
- another program holding the database is told apart from damage (:func:`is_busy`,
  :func:`database_error`): a table must never be told to restore a backup of a healthy game;
- a data folder that cannot be written (:func:`unwritable`) is read from a copy of its
  database (:func:`snapshot`), every write refused: its games can still be looked at.

The concern modules (games, bids, tricks, ...) only ever say ``with self._write() as conn``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from skullcam.counts import counted
from skullcam.errors import UserError

from .refusals import refusal
from .schema import ensure_schema, foreign_tables

logger = logging.getLogger(__name__)

#: How long a write waits for another connection's transaction before giving up.
BUSY_TIMEOUT_MS = 10_000
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_IOERR, _SQLITE_FULL = 5, 6, 10, 13


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

    A lock, a full disk, a read-only folder or an I/O error is not damage: advice to restore a
    backup there would make a table give up a healthy game. An I/O error says to restore only
    when SQLite's quick check (:func:`integrity`) finds the file damaged.
    """
    text = str(err).lower()
    if is_busy(err):
        return UserError(
            f"the game database {path} is in use by another program ({err}): close it (another "
            "skullcam on the same --data folder, or a sqlite3 shell) and try again; nothing "
            "was lost"
        )
    if is_disk_full(err, path.parent):
        return UserError(
            f"the disk holding {path} is full ({err}): free some space on it, or pass another "
            "--data; nothing was lost"
        )
    in_the_way = [p for p in (path, path.with_name(f"{path.name}-wal")) if p.is_dir()]
    if in_the_way:  # "unable to open", though the folder is writable
        return UserError(
            f"{in_the_way[0]} is a folder, where the game database keeps a file: move it aside"
            " (or pass another --data); nothing was lost"
        )
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return UserError(
            f"the game database {path} cannot be opened for writing ({err}): make "
            f"{path.parent} writable, or pass another --data; nothing was lost"
        )
    if is_io_error(err):
        whole = integrity(path)
        if whole != "damaged":
            return disk_trouble(path, err, whole == "ok")
    if isinstance(err, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError):
        # A write of ours SQLite refused, or a misused connection: a bug, not the file.
        return UserError(
            f"the game database {path} refused a change ({type(err).__name__}: {err}): "
            "this is a bug in skullcam, please report it; the file is left as it is and "
            "needs no restoring"
        )
    return UserError(
        f"the game database {path} cannot be read ({err}). Restore a backup of it, or "
        f"move it aside to start a fresh one, its {path.name}-wal and -shm files with it "
        f'(docs/pi.md, "Backups"); the trick images under {path.parent / "games"} are kept'
    )


def is_disk_full(err: sqlite3.Error, folder: Path) -> bool:
    """SQLite ran out of space for ``err``: free some, nothing is damaged.

    SQLite says "disk I/O error" when a fresh database cannot even get its first page, so
    an I/O error with less than 1 MB free in ``folder`` counts too.
    """
    code = getattr(err, "sqlite_errorcode", None)
    if code is not None and code & 0xFF == _SQLITE_FULL:
        return True
    text = str(err).lower()
    return "full" in text or (is_io_error(err) and _disk_full(folder))


def is_io_error(err: sqlite3.Error) -> bool:
    """The operating system failed a read or a write for SQLite (a file size limit, a failing
    SD card, a drive pulled out): trouble with the disk, which is no proof the file is damaged."""
    code = getattr(err, "sqlite_errorcode", None)
    if code is not None:
        return bool(code & 0xFF == _SQLITE_IOERR)
    return "disk i/o" in str(err).lower()


def read_only(path: Path) -> sqlite3.Connection | None:
    """A connection that cannot write ``path`` (the store's own switch the file to WAL, which
    writes its header), or None when it does not open. A short wait: a file another program
    holds is checked by the next start instead."""
    try:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
    except sqlite3.Error:
        return None


def integrity(path: Path) -> str:
    """``"ok"``, ``"damaged"``, or ``"unknown"`` (the check could not read the file either):
    what SQLite's quick check finds of the database at ``path``, read through a read-only
    connection of its own, so an I/O error is told apart from a damaged file before anyone
    is told to move a healthy game aside."""
    conn = read_only(path) if path.is_file() else None
    if conn is None:
        return "unknown"
    try:
        problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check(1)")]
    except sqlite3.DatabaseError as err:
        return "damaged" if says_damaged(err) else "unknown"
    finally:
        conn.close()
    return "ok" if problems == ["ok"] else "damaged"


def disk_trouble(path: Path, err: sqlite3.Error, whole: bool) -> UserError:
    """An I/O error on ``path``: the disk is the first suspect; never advise moving the game
    database aside here, as it may well be whole (``whole``: a check just found it so)."""
    found = (
        "a check found the file itself whole, so keep it as it is"
        if whole
        else "the file is left as it is"
    )
    return UserError(
        f"the game database {path} could not be read or written ({err}): check the disk it "
        "is on (free space, a limit on file size such as `ulimit -f`, a failing SD card or a "
        f"loose USB drive), then try again; {found}"
    )


def says_damaged(err: sqlite3.Error) -> bool:
    """Whether ``err`` is SQLite finding the file damaged (or not a database), as opposed to
    a lock, a full disk, a read-only folder or a query of ours that is wrong."""
    code = getattr(err, "sqlite_errorcode", None)
    text = str(err).lower()
    return (
        code in (SQLITE_CORRUPT, SQLITE_NOTADB) or "malformed" in text or ("not a database" in text)
    )


SQLITE_CORRUPT = 11
SQLITE_NOTADB = 26
"""SQLite's result codes for a damaged file and for a file that is not a database: the two an
integrity error (a bug, a race) or a closed connection must not be mistaken for."""


def _disk_full(folder: Path) -> bool:
    """Less than 1 MB free where the database lives (or no way to tell: not full)."""
    try:
        return shutil.disk_usage(folder).free < 1 << 20
    except OSError:
        return False


def unwritable(data_dir: Path) -> Path | None:
    """The first of a data folder and its game database's files this process cannot write
    (a USB stick mounted read-only, a folder without write permission), or None. None too
    where no database is there yet: a new one cannot be made, and opening says so."""
    path = data_dir / "skullcam.db"
    if not path.is_file():
        return None
    wal, shm = (path.with_name(f"{path.name}-{end}") for end in ("wal", "shm"))
    for each in (data_dir, path, wal, shm):
        if each.exists() and not os.access(each, os.W_OK):
            return each
    return None


def snapshot(path: Path, into: Path) -> Path:
    """A copy of the database ``path`` and its ``-wal`` log in the folder ``into``, to read a
    game database that cannot be written. SQLite cannot: a killed game's log holds every
    trick since the last checkpoint, and reading it needs a ``-shm`` file it can create or
    write (``mode=ro`` fails without one), while ``immutable=1`` skips the log, and with it
    those tricks."""
    copy = into / path.name
    try:
        shutil.copyfile(path, copy)
        wal = path.with_name(f"{path.name}-wal")
        if wal.is_file():
            shutil.copyfile(wal, copy.with_name(f"{copy.name}-wal"))
    except OSError as err:
        raise UserError(
            f"cannot read the game database {path} ({err.strerror or err}): check the disk"
            " it is on, or copy the data folder somewhere readable and pass that --data"
        ) from err
    return copy


def game_folder_ids(data_dir: Path) -> list[int]:
    """The game ids that have a folder under ``<data>/games/``, lowest first: each holds the
    images of a game recorded there, which no later game may write into."""
    try:
        names = [p.name for p in (data_dir / "games").iterdir() if p.is_dir()]
    except OSError:  # no games folder yet (or none readable: nothing to number past)
        return []
    return sorted(int(name) for name in names if name.isascii() and name.isdigit())


def number_games_past_folders(conn: sqlite3.Connection, data_dir: Path) -> int | None:
    """Make the next game's id higher than every ``<data>/games/<id>/`` folder; returns the
    highest such folder when the numbering had to move past it, else None.

    A fresh database (the old one moved aside as damaged, or restored from an older backup)
    would otherwise number its games from 1 again: the new game wrote its images over the
    old game's in ``games/1/`` and took that folder's DEMO mark for its own. ``games`` is an
    AUTOINCREMENT table, so raising its ``sqlite_sequence`` row is all it takes.
    """
    folders = game_folder_ids(data_dir)
    if not folders:
        return None
    highest = folders[-1]
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()
    newest = conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
    if max(int(row[0]) if row else 0, int(newest)) >= highest:
        return None
    if row is None:
        conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('games', ?)", (highest,))
    else:
        conn.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'games'", (highest,))
    logger.info(
        "%s holds game folders up to %d that %s does not know: new games are numbered from"
        " %d, and the images in those folders are left as they are",
        data_dir / "games",
        highest,
        data_dir / "skullcam.db",
        highest + 1,
    )
    return highest


def refuse_emptied(path: Path) -> None:
    """Refuse a 0-byte ``skullcam.db`` that games were recorded with: one emptied by a crash
    or a copy gone wrong, not a fresh one.

    SQLite takes an empty file for a new database, and on opening it deletes the file's
    ``-wal`` log, which during a game holds every trick recorded since the last checkpoint;
    the new game then numbered from 1 and wrote over ``games/1/``'s images.
    """
    wal = path.with_name(path.name + "-wal")
    wal_size = wal.stat().st_size if wal.is_file() else 0
    games = path.parent / "games"
    folders = [i for i in game_folder_ids(path.parent) if _holds_files(games / str(i))]
    if wal_size:
        raise UserError(
            f"the game database {path} is empty (0 bytes) but its log {wal} is not "
            f"({wal_size} bytes): keep that log, it may hold the games. Restore a backup of "
            f'the data folder (docs/pi.md, "Backups"), or move {path.name} and '
            f"{wal.name} aside together to start a fresh database"
        )
    if folders:
        raise UserError(
            f"the game database {path} is empty (0 bytes) although {games} "
            f"holds the images of {counted(len(folders), 'game')}: it was emptied (a crash, a full "
            f'disk or a copy gone wrong). Restore a backup of it (docs/pi.md, "Backups"), '
            "or move the empty file aside to start a fresh database: new games are numbered "
            "after those folders and their images are kept"
        )


def _holds_files(folder: Path) -> bool:
    """Whether ``folder`` has anything in it (an image, a DEMO mark): a game was recorded."""
    try:
        return any(folder.iterdir())
    except OSError:
        return False


def _roll_back(conn: sqlite3.Connection) -> None:
    """Undo a failed write, keeping the error that failed it.

    SQLite rolls a transaction back by itself on some errors (a full disk, an I/O error): a
    ROLLBACK then failed with "no transaction is active" and that error hid the one that
    said what was wrong. A COMMIT that failed may leave the transaction open: rolled back
    here, or every later write on this connection failed to BEGIN.
    """
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def newest_event_id(conn: sqlite3.Connection) -> int:
    """The newest row of the event log (0 when none): what waiters on the log compare with."""
    return int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0])


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


class Database:
    """A data folder's ``skullcam.db``: the connections and transactions every part of
    :class:`~skullcam.store.game_store.GameStore` shares.

    Safe to share one instance between threads: each thread uses a connection of its own,
    opened on its first use or handed back by a thread done with it.
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
        self._idle: list[sqlite3.Connection] = []
        """Connections a thread handed back (:meth:`release_thread_connection`), for the next
        thread that needs one: the web's worker threads share as many as they have used at once
        (none is closed before :meth:`close`)."""
        self._owners: dict[sqlite3.Connection, threading.Thread] = {}
        """The thread each connection in use is with (none for an idle one): :meth:`close`
        leaves a running thread's to that thread."""
        self._connections_lock = threading.Lock()
        self._version_conn: sqlite3.Connection | None = None
        self._version_lock = threading.Lock()
        self.read_only = unwritable(self.data_dir)
        """The file that cannot be written (the folder, the database or its log), or None:
        then the games are read from a copy of the database and every write is refused."""
        self._copy = None if self.read_only is None else tempfile.TemporaryDirectory()
        self._file = self.path if self._copy is None else snapshot(self.path, Path(self._copy.name))
        self._query_only = False
        self._check_whole()
        with self._shared.write_lock:
            conn = self._conn()
            try:
                with conn:
                    ensure_schema(conn)  # an older game's copy is brought up to date too
                    if self.read_only is None:  # no new game is numbered in a copy
                        number_games_past_folders(conn, self.data_dir)
            except sqlite3.DatabaseError as err:
                raise self._damaged(err) from err
        if self.read_only is not None:
            logger.warning("%s", self._cannot_record())
            self._query_only = True
            conn.execute("PRAGMA query_only=ON")
        newest = newest_event_id(self._conn())
        self._shared.last_event_id = max(self._shared.last_event_id, newest)

    def _damaged(self, err: sqlite3.Error) -> UserError:
        return database_error(self.path, err)

    def _cannot_record(self) -> UserError:
        """The refusal of every write to a data folder that cannot be written."""
        return refusal("read_only", folder=str(self.data_dir), file=str(self.read_only))

    def read_only_reason(self) -> UserError | None:
        """Why nothing can be recorded here (the refusal every write gets), or None where the
        folder can be written: every page says it at its top and hides its writing controls,
        so the table learns it before a tap rather than from one."""
        return None if self.read_only is None else self._cannot_record()

    def _check_whole(self) -> None:
        """Refuse, before writing anything, a database SQLite finds damaged or one another
        program made: a damaged one would take new games (and lose them with it), and a
        foreign one would get skullcam's tables mixed into its own.

        Read through a read-only connection of its own: the store's connections switch the
        file to WAL, which writes its header. A file that does not open even so is left to
        the store's connection, whose error says what is wrong with it.
        """
        if not self.path.is_file():
            return
        if self.path.stat().st_size == 0:
            refuse_emptied(self.path)
            return
        conn = read_only(self._file)
        if conn is None:
            return
        try:
            problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check(3)")]
            tables = foreign_tables(conn)
        except sqlite3.DatabaseError as err:
            if is_busy(err) or not says_damaged(err):
                return
            raise self._damaged(err) from err
        finally:
            conn.close()
        if problems != ["ok"]:
            lines = [line for p in problems for line in p.splitlines() if "***" not in line]
            raise self._damaged(sqlite3.DatabaseError(f"damaged: {'; '.join(lines[:3])}"))
        if tables:
            names = ", ".join(tables[:5])
            raise UserError(
                f"{self.path} is not a skullcam game database (it holds the tables {names}): "
                "pass another --data, or move that file aside"
            )

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
        """This thread's connection: on its first use, one another thread handed back, else
        a new one."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            with self._connections_lock:
                conn = self._idle.pop() if self._idle else None
                if conn is not None:
                    self._take(conn)
            if conn is None:
                conn = self._open()
                with self._connections_lock:
                    self._connections.append(conn)
                    self._take(conn)
            self._local.conn = conn
        return conn

    def _take(self, conn: sqlite3.Connection) -> None:
        """Note ``conn`` as this thread's, under :attr:`_connections_lock` with the step that
        hands it over: a :meth:`close` in between took it for an idle one and closed it under
        the thread about to use it ('Cannot operate on a closed database')."""
        self._owners[conn] = threading.current_thread()

    def _open(self) -> sqlite3.Connection:
        """A new connection set up for the store: WAL, foreign keys, explicit transactions.

        Opening is where a file that is not a database (or not ours to write) first shows,
        so its error is worded for the table here.
        """
        try:
            conn = sqlite3.connect(
                self._file, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
            )
        except sqlite3.Error as err:
            raise self._damaged(err) from err
        conn.row_factory = sqlite3.Row
        conn.isolation_level = None  # explicit BEGIN/COMMIT in _write
        try:
            conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as err:  # the first statement that reads the file
            conn.close()
            raise self._damaged(err) from err
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        if self._query_only:  # the copy of a database that cannot be written: never written
            conn.execute("PRAGMA query_only=ON")
        return conn

    @contextmanager
    def _write(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction: all or nothing, serialised with this process's other writers.

        ``durable`` (every write but the live view's) syncs the log to disk at commit: in WAL
        mode SQLite's NORMAL sync keeps the file whole through a power cut but may lose the
        last commits, and a recorded trick or a bid is not to be lost. The live trick, redrawn
        at every card, is the one write a power cut may drop.

        Reads that decide a write (the trick a correction replaces, the settings a change
        merges into) belong inside the ``with``: then no other writer can commit in between.
        """
        if self._query_only:
            raise self._cannot_record()
        conn = self._conn()
        with self._shared.write_lock:
            conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                _roll_back(conn)
                raise
            newest = newest_event_id(conn)
        with self._shared.changed:
            if newest > self._shared.last_event_id:
                self._shared.last_event_id = newest
            self._shared.changed.notify_all()

    def data_version(self) -> int:
        """A number that changes whenever any connection commits to the database, in this
        process or another, whether or not the write told an event (SQLite's ``PRAGMA
        data_version``). Read on a connection of its own that never writes: a connection's own
        commits do not change its number. The web keeps a game's state while it stays the same
        (``web.api.StateCache``)."""
        with self._version_lock:
            conn = self._version_conn
            if conn is None:
                conn = self._version_conn = self._open()
                with self._connections_lock:
                    self._connections.append(conn)
            return int(conn.execute("PRAGMA data_version").fetchone()[0])

    def release_thread_connection(self) -> None:
        """Hand this thread's connection, if it has one, to the next thread that needs one
        (the web's, after each request), so the connections open are as many as the most
        threads at work at once: kept by each of waitress's 96 worker threads, they came to
        about 200 open files, and as many page caches, in a run serving pages for an evening.
        One in a transaction is kept: this thread is still writing with it."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None or conn.in_transaction:
            return
        self._local.conn = None
        with self._connections_lock:
            self._owners.pop(conn, None)
            if conn in self._connections:  # else closed meanwhile (:meth:`close`)
                self._idle.append(conn)

    def close_thread_connection(self) -> None:
        """Close this thread's connection, if it opened one: a thread that ends (the web's
        event watcher, started again with the next page) would otherwise leave it open until
        :meth:`close`, one more each time."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            return
        self._local.conn = None
        with self._connections_lock:
            self._owners.pop(conn, None)
            if conn in self._connections:
                self._connections.remove(conn)
        with contextlib.suppress(sqlite3.Error):
            conn.close()

    def open_connections(self) -> int:
        """How many connections this store holds open: one per thread that used it and has
        not closed its own, and the one :meth:`data_version` reads. A count that grows with
        the threads started over a run is a leak of two file descriptors each (the database
        and its ``-wal`` log), until the process reaches its limit of open files."""
        with self._connections_lock:
            return len(self._connections)

    def close(self) -> None:
        """Close every connection this store opened (call once, at shutdown), but one a
        thread still running has: closed from here while that thread read with it (the web's
        event watcher, ending on its own as its last page closes), the process crashed in
        SQLite (a segmentation fault). The store forgets it here, so it is closed once that
        thread's read in hand lets go of it (the thread's next read opens another, which
        :meth:`close_thread_connection` closes as the thread ends)."""
        me = threading.current_thread()
        # The version lock first, as :meth:`data_version` takes them: its connection is
        # closed with no thread reading from it.
        with self._version_lock, self._connections_lock:
            for conn in self._connections:
                owner = self._owners.get(conn)
                if owner is not None and owner is not me and owner.is_alive():
                    continue
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            self._connections.clear()
            self._idle.clear()
            self._owners.clear()
            self._version_conn = None
        self._local = threading.local()
        if self._copy is not None:
            self._copy.cleanup()
