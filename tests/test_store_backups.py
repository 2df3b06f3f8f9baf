"""The backup docs/pi.md tells a table to make, and the messages that send it there.

During a game the newest tricks live in ``skullcam.db-wal``: a copy of ``skullcam.db`` alone
is empty, so a message saying "restore a backup" must say how to make one that is not."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import DOCS

from skullcam.errors import UserError
from skullcam.store import GameStore
from skullcam.store.game_store import database_error
from skullcam.store.rows import load_json


def _backups_section() -> str:
    text = (DOCS / "pi.md").read_text()
    found = re.search(r"^## Backups\n(.*?)^## ", text, re.S | re.M)
    assert found, "docs/pi.md has no Backups section"
    return found[1]


def test_the_documented_backup_of_a_running_game_holds_the_tricks_in_its_log(
    tmp_path: Path,
) -> None:
    store = GameStore(tmp_path / "data")  # held open, as `skullcam run` holds it
    gid = store.create_game(["Ana", "Ben"], 0, {})
    store.set_bids(gid, 1, [0, 1])
    assert (store.path.with_name("skullcam.db-wal")).stat().st_size > 0
    script = re.search(r"python -c '([^']+)'", _backups_section())
    assert script, "the Backups section has no python one-liner"
    backup = tmp_path / "backup.db"
    subprocess.run([sys.executable, "-c", script[1], str(store.path), str(backup)], check=True)
    with sqlite3.connect(backup) as conn:  # the one file, no -wal beside it
        assert conn.execute("SELECT bids FROM rounds WHERE game_id = ?", (gid,)).fetchall() == [
            ("[0,1]",)
        ]
    conn.close()
    store.close()


def test_a_damaged_database_message_points_to_the_backups_section_and_the_log(
    tmp_path: Path,
) -> None:
    message = str(database_error(tmp_path / "skullcam.db", sqlite3.DatabaseError("malformed")))
    assert '(docs/pi.md, "Backups")' in message
    assert "move it aside to start a fresh one, its skullcam.db-wal and -shm files with it" in (
        message
    )
    assert "sqlite3" in _backups_section() and "skullcam.db-wal" in _backups_section()


def test_a_damaged_row_message_points_to_the_backups_section() -> None:
    with pytest.raises(UserError, match=r'-shm files with it \(docs/pi\.md, "Backups"\)'):
        load_json('{"player": 1,')


def test_the_documented_backup_of_a_mistyped_path_fails_instead_of_copying_nothing(
    tmp_path: Path,
) -> None:
    """Opened for writing, a mistyped path made a new, empty database and backed that up."""
    script = re.search(r"python -c '([^']+)'", _backups_section())
    assert script, "the Backups section has no python one-liner"
    typo, backup = tmp_path / "skulcam.db", tmp_path / "backup.db"
    done = subprocess.run(
        [sys.executable, "-c", script[1], str(typo), str(backup)], capture_output=True, text=True
    )
    assert done.returncode != 0 and "unable to open database file" in done.stderr
    assert not typo.exists()
