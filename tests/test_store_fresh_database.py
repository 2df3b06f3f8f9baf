"""A fresh or emptied game database beside the images of older games never takes their
folders over: its games are numbered past them, and a 0-byte ``skullcam.db`` that games
were recorded with is refused instead of being taken for a new database."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from store_support import plays

from skullcam.errors import UserError
from skullcam.store import GameStore


def _recorded_game(data: Path, demo: bool = False) -> dict[str, bytes]:
    """A data folder with one game and its trick image in ``games/1/``; the folder's files."""
    store = GameStore(data)
    gid = store.create_game(["Ana", "Ben"], 0, {})
    store.set_bids(gid, 1, [0, 1])
    folder = store.game_dir(gid)
    (folder / "r01t00.jpg").write_bytes(b"old game's image")
    if demo:
        (folder / "DEMO").write_text("recorded from the demo game\n")
    store.record_trick(
        gid,
        1,
        0,
        plays((1, "green-3"), (0, "green-4")),
        completion_image=folder / "r01t00.jpg",
    )
    store.close()
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def _move_database_aside(data: Path) -> None:
    """As the damaged-database message tells a user: the file and its -wal/-shm, together."""
    aside = data.parent / "aside"
    aside.mkdir()
    for path in data.glob("skullcam.db*"):
        path.rename(aside / path.name)


def test_a_fresh_database_numbers_its_games_past_the_old_folders(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Was: the new game got id 1 again, wrote into games/1/ and took its DEMO mark, so the
    table's game passed for the demo's and the camera refused to record into it."""
    data = tmp_path / "data"
    before = _recorded_game(data, demo=True)
    _move_database_aside(data)
    with caplog.at_level(logging.INFO, logger="skullcam.store.database"):
        store = GameStore(data)
    gid = store.create_game(["Cai", "Dan"], 0, {})
    assert gid == 2
    assert not (data / "games" / "2").exists()
    assert {p.name: p.read_bytes() for p in (data / "games" / "1").iterdir()} == before
    assert "new games are numbered from 2" in caplog.text
    store.close()


def test_a_database_restored_from_an_older_backup_numbers_past_the_newer_folders(
    tmp_path: Path,
) -> None:
    """A backup taken after game 1, restored once games 2 and 3 had been recorded: game 4
    is next, not a second game 2 on top of the first one's images."""
    data = tmp_path / "data"
    _recorded_game(data)
    for gid in (2, 3):
        (data / "games" / str(gid)).mkdir()
        (data / "games" / str(gid) / "r01t00.jpg").write_bytes(b"image")
    store = GameStore(data)
    assert store.create_game(["Cai", "Dan"], 0, {}) == 4
    store.close()
    store = GameStore(data)  # the numbering is kept, not moved again
    assert store.create_game(["Eve", "Fay"], 0, {}) == 5
    store.close()


def test_an_emptied_database_beside_recorded_games_is_refused_untouched(tmp_path: Path) -> None:
    """Was: `truncate -s 0 skullcam.db` was taken as a new database, and the camera wrote
    the new game's images over games/1/'s."""
    data = tmp_path / "data"
    before = _recorded_game(data)
    for extra in data.glob("skullcam.db-*"):
        extra.unlink()
    (data / "skullcam.db").write_bytes(b"")
    with pytest.raises(UserError) as info:
        GameStore(data)
    message = str(info.value)
    assert f"{data / 'skullcam.db'} is empty (0 bytes)" in message
    assert f"{data / 'games'} holds the images of 1 game" in message
    assert "Backups" in message and "move the empty file aside" in message
    assert (data / "skullcam.db").stat().st_size == 0
    assert {p.name: p.read_bytes() for p in (data / "games" / "1").iterdir()} == before


def test_an_emptied_database_with_its_log_is_refused_and_the_log_kept(tmp_path: Path) -> None:
    """SQLite deletes the -wal of a 0-byte database as it opens it: during a game that log
    holds every trick since the last checkpoint."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "skullcam.db").write_bytes(b"")
    (data / "skullcam.db-wal").write_bytes(b"log" * 1000)
    with pytest.raises(UserError, match=r"skullcam\.db-wal is not \(3000 bytes\): keep that log"):
        GameStore(data)
    assert (data / "skullcam.db-wal").read_bytes() == b"log" * 1000


def test_an_empty_database_with_no_games_beside_it_is_a_fresh_one(tmp_path: Path) -> None:
    """A file left at 0 bytes by a start cut short, with nothing recorded: nothing to keep."""
    data = tmp_path / "data"
    (data / "games" / "1").mkdir(parents=True)  # made on demand, never written into
    (data / "skullcam.db").write_bytes(b"")
    store = GameStore(data)
    assert store.create_game(["Ana", "Ben"], 0, {}) == 2
    store.close()
