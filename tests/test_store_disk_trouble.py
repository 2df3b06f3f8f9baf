"""An I/O error is trouble with the disk, not proof the game database is damaged: the table
is sent to check the disk, and told to restore or move the file aside only when SQLite's own
check finds it damaged. Moving a healthy database aside loses nothing at once, but it takes
the game off the table and invites deleting it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from skullcam.store import GameStore
from skullcam.store.game_store import database_error

#: Opens the store under a file size limit (``ulimit -f``) and creates games until a write
#: fails; prints the message the command line would print.
_UNDER_A_SIZE_LIMIT = """
import resource, sqlite3, sys
from pathlib import Path

import pytest
from skullcam.errors import UserError
from skullcam.store import GameStore
from skullcam.store.game_store import database_error
resource.setrlimit(resource.RLIMIT_FSIZE, (40960, 40960))
data = Path(sys.argv[1])
try:
    store = GameStore(data)
    for i in range(200):
        store.create_game([f"A{i}", f"B{i}"], 0, {})
except UserError as err:
    print(err)
except sqlite3.Error as err:
    print(database_error(data / "skullcam.db", err))
"""


def _healthy_store(data: Path, games: int = 1) -> Path:
    store = GameStore(data)
    for i in range(games):
        store.create_game([f"A{i}", f"B{i}"], 0, {})
    store.close()
    return store.path


def test_a_file_size_limit_says_check_the_disk_and_keep_the_database(tmp_path: Path) -> None:
    """Was: "cannot be read (disk I/O error). Restore a backup of it, or move it aside"
    under `ulimit -f 40` although the integrity check was ok (a review's reproduction)."""
    db = _healthy_store(tmp_path / "data")
    said = subprocess.run(
        [sys.executable, "-c", _UNDER_A_SIZE_LIMIT, str(db.parent)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "disk I/O error" in said and "check the disk" in said and "ulimit -f" in said
    assert "move it aside" not in said and "Restore" not in said
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()


def test_an_io_error_on_a_healthy_database_says_keep_it(tmp_path: Path) -> None:
    db = _healthy_store(tmp_path / "data")
    said = str(database_error(db, sqlite3.OperationalError("disk I/O error")))
    assert "check the disk" in said and "a check found the file itself whole, so keep it" in said
    assert "move it aside" not in said


def test_an_io_error_on_a_damaged_database_still_says_restore_a_backup(tmp_path: Path) -> None:
    db = _healthy_store(tmp_path / "data", games=30)  # pages enough to damage one past the header
    for extra in db.parent.glob("skullcam.db-*"):
        extra.unlink()
    data = bytearray(db.read_bytes())
    for i in range(2 * 4096 + 8, 3 * 4096, 7):
        data[i] = (data[i] * 31 + 7) & 255
    db.write_bytes(bytes(data))
    said = str(database_error(db, sqlite3.OperationalError("disk I/O error")))
    assert "Restore a backup of it, or move it aside" in said


def test_a_write_that_fills_the_disk_says_full_and_the_next_write_goes_through(
    tmp_path: Path,
) -> None:
    """SQLite rolls the transaction back by itself on a full disk: the store's ROLLBACK then
    failed with "no transaction is active", and that error hid the one saying the disk was
    full."""
    store = GameStore(tmp_path / "data")
    conn = store._conn()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count={pages}")
    made = 0
    with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
        for i in range(500):
            store.create_game([f"Ana {i}", f"Ben {i}"], 0, {})
            made += 1
    assert not conn.in_transaction
    conn.execute("PRAGMA max_page_count=1073741823")
    store.create_game(["Ana", "Ben"], 0, {})
    assert len(store.games()) == made + 1
    store.close()
