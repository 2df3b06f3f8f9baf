"""A killed game's data folder that cannot be written (a USB stick mounted read-only, a folder
without write permission) is still read: its pages, replay and export are served from a copy
of the database, and every write is refused with one sentence saying nothing can be recorded
there. SQLite alone cannot read it: the killed game's tricks are in the ``-wal`` log, which
``mode=ro`` reads only with a ``-shm`` file beside it, and ``immutable=1`` skips."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

#: A game with its bids, then a kill: what it wrote is in the ``-wal`` log, never checkpointed.
_KILLED = """
import os, sys
from pathlib import Path
from skullcam.store import GameStore
store = GameStore(Path(sys.argv[1]))
game = store.create_game(["Ana", "Ben", "Cai"], 0, {})
store.set_bids(game, 1, [1, 0, 1])
os._exit(9)
"""


def _unable_to_write() -> list[str]:
    """What runs a command so that it cannot write a folder chmod made read-only: nothing for
    a user; root writes through any mode, so for root ``setpriv`` without the power to
    (CAP_DAC_OVERRIDE), where it is there and allowed."""
    if os.geteuid() != 0:
        return []
    prefix = ["setpriv", "--bounding-set=-dac_override"]
    if shutil.which("setpriv") is None or subprocess.run([*prefix, "true"]).returncode != 0:
        pytest.skip("root writes through chmod -w, and setpriv cannot take that power away")
    return prefix


def _set_modes(folder: Path, file_mode: int, folder_mode: int) -> None:
    for path in folder.iterdir():
        path.chmod(file_mode)
    folder.chmod(folder_mode)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as page:
        return json.load(page)


def _post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as page:
            return page.status, json.load(page)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


@pytest.mark.parametrize("with_shm", [True, False], ids=["with-shm", "wal-only"])
def test_a_killed_games_read_only_folder_is_served_with_its_writes_refused(
    tmp_path: Path, with_shm: bool
) -> None:
    """'skullcam run --camera none' on it stopped at the lock file ("make it writable"): the
    game could not even be looked at. Served now, the game as the kill left it (its bids are
    in the log only); a write says nothing can be recorded there; the folder is untouched."""
    data = tmp_path / "data"
    killed = subprocess.run([sys.executable, "-P", "-c", _KILLED, str(data)], timeout=60)
    assert killed.returncode == 9 and (data / "skullcam.db-wal").stat().st_size > 0
    if not with_shm:  # copied onto the stick without it
        (data / "skullcam.db-shm").unlink()
    before = {path.name: path.read_bytes() for path in data.iterdir()}
    prefix = _unable_to_write()
    _set_modes(data, 0o444, 0o555)
    cmd = [*prefix, sys.executable, "-P", "-m", "skullcam", "run", "--camera", "none"]
    cmd += ["--data", str(data), "--port", "0", "--max-seconds", "60"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        said = ""
        while (line := proc.stderr.readline()) and "scoreboard on" not in line:
            said += line
        found = re.search(r"127\.0\.0\.1:(\d+)/tv", line)
        assert found, f"no page served: {said}{line}"
        site = f"http://127.0.0.1:{found[1]}"
        assert "nothing can be recorded in" in said and "can be viewed and exported" in said
        shown = _get(f"{site}/api/tv/state")
        assert shown["game"]["id"] == 1 and shown["bids"] == [1, 0, 1]
        with urllib.request.urlopen(f"{site}/game/1/bids", timeout=10) as page:
            assert 'id="read-only-note"' in page.read().decode()  # the page says so first
        exported = _get(f"{site}/game/1/export.json")
        assert exported["players"] == ["Ana", "Ben", "Cai"]
        status, refused = _post(f"{site}/api/game/1/bids", {"round": 1, "bids": [0, 0, 1]})
        said = refused["error"]  # the page's copy has long paths cut short
        assert status == 400 and said.startswith("nothing can be recorded in /")
        assert "can be viewed and exported" in said
        assert _get(f"{site}/api/tv/state")["bids"] == [1, 0, 1]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        _set_modes(data, 0o644, 0o755)
    assert {path.name: path.read_bytes() for path in data.iterdir()} == before


@pytest.mark.parametrize("unwritten", ["database", "folder"])
@pytest.mark.parametrize("source", ["demo", "camera"])
def test_a_camera_or_demo_run_on_a_read_only_folder_is_refused_before_the_model_loads(
    tmp_path: Path, unwritten: str, source: str
) -> None:
    """Where only skullcam.db could not be written, a run with the demo or a camera took the
    lock (run.lock written in the folder), loaded the model and stopped at its first write,
    or stood aside for a game it could never record; an unwritable folder was refused at its
    lock file. Both are refused at once with the sentence the store refuses writes with:
    the model (a missing one here) is not loaded, and nothing in the folder is touched."""
    import cv2
    import numpy as np

    from skullcam.store import GameStore

    data = tmp_path / "data"
    store = GameStore(data)
    store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.close()
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "frame_000000.png"), np.zeros((48, 64, 3), np.uint8))
    before = {path.name: path.read_bytes() for path in data.iterdir()}
    prefix = _unable_to_write()
    _set_modes(data, 0o444, 0o555 if unwritten == "folder" else 0o755)
    cmd = [*prefix, sys.executable, "-P", "-m", "skullcam", "run", "--no-web", "--speed", "0"]
    cmd += ["--data", str(data), "--model", str(tmp_path / "no-model"), "--max-seconds", "30"]
    if source == "camera":
        cmd += ["--camera", str(frames)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    finally:
        _set_modes(data, 0o644, 0o755)
    file = data if unwritten == "folder" else data / "skullcam.db"
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"skullcam run: error: nothing can be recorded in {data}: {file} cannot be written"
        " (a read-only disk or folder). Its games can be viewed and exported; to record, make"
        " it writable or copy the data folder to a writable disk and pass that --data;"
        " '--camera none' serves its games to view\n"
    )
    assert {path.name: path.read_bytes() for path in data.iterdir()} == before
