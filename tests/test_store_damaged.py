"""A damaged game database is a clear message naming the file, never a traceback mid-game,
and the damaged file is left as it was for the user to restore or move aside."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from skullcam.errors import UserError
from skullcam.store import GameStore
from skullcam.store.database import database_error


def test_a_file_that_is_not_a_database_is_named(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    junk = bytes(range(256)) * 20
    (data / "skullcam.db").write_bytes(junk)
    with pytest.raises(UserError, match=r"skullcam\.db cannot be read .*move it aside"):
        GameStore(data)
    assert (data / "skullcam.db").read_bytes() == junk


@pytest.mark.parametrize("name", ["skullcam.db", "skullcam.db-wal"])
def test_a_folder_where_the_database_keeps_a_file_is_named(tmp_path: Path, name: str) -> None:
    """SQLite says "unable to open", which read as a folder to make writable."""
    data = tmp_path / "data"
    GameStore(data).close()
    (data / "skullcam.db-wal").unlink(missing_ok=True)
    if name == "skullcam.db":
        (data / name).unlink()
    (data / name).mkdir()
    with pytest.raises(UserError, match=rf"{name} is a folder, where the game database keeps a"):
        GameStore(data).create_game(["Ana", "Ben"], 0, {})


def test_a_truncated_database_is_named(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "data")
    for i in range(40):
        store.create_game([f"A{i}", f"B{i}"], 0, {})
    store.close()
    db = tmp_path / "data" / "skullcam.db"
    for extra in db.parent.glob("skullcam.db-*"):  # the WAL is checkpointed on close
        extra.unlink()
    db.write_bytes(db.read_bytes()[: 3 * 4096])
    with pytest.raises(UserError, match=r"skullcam\.db cannot be read"):
        store = GameStore(tmp_path / "data")
        store.games()


def test_a_damaged_row_is_a_clear_error(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "data")
    gid = store.create_game(["Ana", "Ben"], 0, {})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(
        gid, 1, 0, [{"player": 1, "card": "green-3"}, {"player": 0, "card": "green-4"}]
    )
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE tricks SET plays = '[{\"player\": 1,' WHERE game_id = ?", (gid,))
    with pytest.raises(UserError, match=r"record in the game database .* is damaged"):
        store.state(gid)
    store.close()


def _scramble_page(db: Path, page: int) -> bytes:
    """Scramble every 7th byte of 4 KiB page ``page`` (0-based) past its header, as a bad
    sector or a half-written copy would; the file's own header page is left whole."""
    data = bytearray(db.read_bytes())
    for i in range(page * 4096 + 8, page * 4096 + 4096, 7):
        data[i] = (data[i] * 31 + 7) & 255
    db.write_bytes(bytes(data))
    return bytes(data)


def test_a_database_sqlite_finds_damaged_is_refused_before_a_new_game_goes_in(
    tmp_path: Path,
) -> None:
    """A damaged page deep in the file used to pass unnoticed at opening: the demo then
    recorded a whole new game into it."""
    store = GameStore(tmp_path / "data")
    for i in range(60):
        gid = store.create_game([f"A{i}", f"B{i}"], 0, {})
        store.set_bids(gid, 1, [0, 1])
    store.close()
    db = tmp_path / "data" / "skullcam.db"
    for extra in db.parent.glob("skullcam.db-*"):
        extra.unlink()
    damaged = _scramble_page(db, 5)
    with pytest.raises(UserError, match=r"skullcam\.db cannot be read \(damaged: .*backup"):
        GameStore(tmp_path / "data")
    assert db.read_bytes() == damaged


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with sqlite3.connect(data / "skullcam.db") as conn:
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    conn.close()
    before = (data / "skullcam.db").read_bytes()
    with pytest.raises(UserError, match=r"is not a skullcam game database .*photos"):
        GameStore(data)
    assert (data / "skullcam.db").read_bytes() == before


@pytest.mark.parametrize(
    "err",
    [
        sqlite3.IntegrityError("UNIQUE constraint failed: tricks.game_id"),
        sqlite3.ProgrammingError("Cannot operate on a closed database."),
    ],
)
def test_a_bug_is_not_called_damage(tmp_path: Path, err: sqlite3.Error) -> None:
    """A write SQLite refused (a bug of ours, or a race) was worded as damage: "cannot be
    read ... Restore a backup of it, or move it aside", and a table could give up a healthy
    game on that advice."""
    said = str(database_error(tmp_path / "skullcam.db", err))
    assert "bug in skullcam" in said and "needs no restoring" in said
    assert "Restore" not in said and "move it aside" not in said
