"""The live loop: recording into the store, kill -9 and resume, and ``skullcam run`` end to end."""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest
from demo_games import SEED, calibrate_seats, make_demo

from skullcam.cli import main
from skullcam.device import live as live_module
from skullcam.device.demo_game import DemoGame
from skullcam.device.live import LiveLoop
from skullcam.device.scripted import FrameKeyedRecognizer
from skullcam.errors import UserError
from skullcam.store import GameStore
from skullcam.store.rows import Trick
from skullcam.vision.trick_state import tigress_flag


def recorded_rounds(store: GameStore, game_id: int) -> list[list[list]]:
    rounds: dict[int, list] = {}
    for t in store.tricks(game_id):
        rounds.setdefault(t.round, []).append([(p["player"], p["card"]) for p in t.plays])
    return [rounds[r] for r in sorted(rounds)]


def truth_rounds(record: dict) -> list[list[list]]:
    return [
        [[(p["player"], p["card"]) for p in t["plays"]] for t in r["tricks"]]
        for r in record["rounds"]
    ]


def test_demo_game_is_recorded_trick_by_trick_with_images(tmp_path: Path) -> None:
    record, script = make_demo(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    loop = LiveLoop(store, FrameKeyedRecognizer(script), None, DemoGame.load(tmp_path / "demo"))
    loop.speed = 0
    loop.run()
    (game,) = store.games()
    assert recorded_rounds(store, game.id) == truth_rounds(record)
    assert store.game(game.id).status == "finished"
    trick = store.tricks(game.id)[0]
    completion = store.image_path(trick.completion_image)
    assert completion is not None and completion.is_file()
    annotated = store.image_path(trick.annotated_image)
    assert annotated is not None and annotated.is_file()
    assert trick.model_version == "scripted-keyed"
    assert trick.detections["source"] == "demo" and trick.detections["cards"]
    assert store.score(game.id)["ok"]
    assert store.export_record(game.id)["rounds"] == record["rounds"]


def wait_for_tricks(data: Path, proc: subprocess.Popen, count: int, timeout: float) -> int:
    """Tricks the child process has recorded into the first game of ``data``, polled until
    there are ``count``, it exits, or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    recorded = 0
    while time.monotonic() < deadline and recorded < count and proc.poll() is None:
        time.sleep(0.2)
        if (data / "skullcam.db").exists():
            store = GameStore(data)
            games = store.games()
            recorded = len(store.tricks(games[0].id)) if games else 0
            store.close()
    return recorded


CHILD = textwrap.dedent(
    """
    import sys
    from functools import partial
    from pathlib import Path
    from skullcam.device import live, sources
    from skullcam.device.demo_game import DemoGame
    from skullcam.device.live import LiveLoop
    from skullcam.device.scripted import FrameKeyedRecognizer, simulate_game
    from skullcam.store import GameStore

    # Paced, but late frames are not skipped: the truth is what the game records from every
    # frame, and a loaded machine that stalls 0.15 s (12 frames at speed 8) as a lead card
    # lands records that trick with the next card's player leading, before any kill.
    live.Paced = partial(sources.Paced, drop_late=False)
    demo = DemoGame.load(Path(sys.argv[1]))
    script = simulate_game(demo.record, seed=int(sys.argv[4])).script
    loop = LiveLoop(GameStore(Path(sys.argv[2])), FrameKeyedRecognizer(script), None, demo)
    loop.speed = float(sys.argv[3])
    loop.run()
    """
)


def test_kill_9_mid_game_then_restart_resumes_without_loss_or_duplicates(tmp_path: Path) -> None:
    # Four rounds (10 tricks): the kill comes after 3, and a loaded machine that polls late
    # must still find the game unfinished (with 6 tricks the child sometimes finished first).
    record, _ = make_demo(tmp_path / "demo", rounds=4)
    child = tmp_path / "child.py"
    child.write_text(CHILD)
    data = tmp_path / "data"
    args = [sys.executable, str(child), str(tmp_path / "demo"), str(data)]
    proc = subprocess.Popen([*args, "8", str(SEED)], stderr=subprocess.DEVNULL)
    try:
        recorded = wait_for_tricks(data, proc, 3, timeout=60)
        assert recorded >= 3, "the child recorded too little before the kill"
        time.sleep(random.Random(SEED).uniform(0.0, 0.6))  # anywhere in the next trick
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    store = GameStore(data)
    before = recorded_rounds(store, store.games()[0].id)
    assert sum(map(len, before)) < sum(len(r["tricks"]) for r in record["rounds"])
    # What the killed run recorded is the truth so far: a wrong trick after the restart is
    # the resume's, not the first run's.
    assert before == [r[: len(b)] for r, b in zip(truth_rounds(record), before, strict=False)]
    store.close()
    subprocess.run([*args, "0", str(SEED)], check=True, timeout=120, stderr=subprocess.DEVNULL)
    store = GameStore(data)
    (game,) = store.games()
    assert recorded_rounds(store, game.id) == truth_rounds(record)
    assert store.game(game.id).status == "finished"


KILLED_CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    import skullcam.store.tricks as tricks
    from skullcam.device.demo_game import DemoGame
    from skullcam.device.live import LiveLoop
    from skullcam.device.scripted import FrameKeyedRecognizer, simulate_game
    from skullcam.store import GameStore

    demo_dir, data, seed, frame, trick = sys.argv[1:6]
    demo = DemoGame.load(Path(demo_dir))
    keyed = FrameKeyedRecognizer(simulate_game(demo.record, seed=int(seed)).script)

    def recognizer(image):  # killed as this frame comes in
        if int(image[0, 0, 0]) | int(image[0, 0, 1]) << 8 == int(frame):
            os.kill(os.getpid(), signal.SIGKILL)
        return keyed(image)

    insert, inserted = tricks.insert_trick, []

    def insert_then_die(*args, **kwargs):  # killed with the trick's row written, not committed
        inserted.append(insert(*args, **kwargs))
        if len(inserted) == int(trick):
            os.kill(os.getpid(), signal.SIGKILL)
        return inserted[-1]

    tricks.insert_trick = insert_then_die
    LiveLoop(GameStore(Path(data)), recognizer, None, demo, speed=0).run()
    """
)


@pytest.mark.parametrize("when", ["in-transaction", "trick-still-lying", "mid-trick"])
def test_a_kill_at_each_risky_moment_resumes_the_game_exactly(tmp_path: Path, when: str) -> None:
    """The kill -9 test's moments, each made to happen (not left to timing): in the 4th trick's
    transaction (its images written), after the 3rd trick with its cards still on the table,
    and with two cards of the 4th trick down (the live trick shown)."""
    from skullcam.device.scripted import simulate_game

    record, _ = make_demo(tmp_path / "demo", rounds=4)
    settled = simulate_game(record, seed=SEED).settle_frames  # per trick, each card's frame
    frame, trick = {
        "in-transaction": (-1, 4),
        "trick-still-lying": (settled[2][-1] + 8, -1),  # swept 12 frames after the last card
        "mid-trick": (settled[3][1] + 6, -1),  # settled: still for 0.35 s (4 frames)
    }[when]
    (tmp_path / "child.py").write_text(KILLED_CHILD)
    data = tmp_path / "data"
    args = [sys.executable, str(tmp_path / "child.py"), str(tmp_path / "demo"), str(data)]
    done = subprocess.run([*args, str(SEED), str(frame), str(trick)], timeout=120)
    assert done.returncode == -signal.SIGKILL
    store = GameStore(data)
    (game,) = store.games()
    assert recorded_rounds(store, game.id) == truth_rounds(record)[:2]  # three tricks
    live = store.live(game.id)
    if when == "in-transaction":  # the 4th trick's images are there, its row is not
        assert (store.game_dir(game.id) / "r03t00-boxes.jpg").is_file()
    elif when == "trick-still-lying":  # recording it cleared the live trick; no sweep since
        assert live is None
    else:
        assert live is not None and [p["card"] for p in live["plays"]] == ["purple-13", "yellow-9"]
    store.close()
    subprocess.run([*args, str(SEED), "-1", "-1"], check=True, timeout=120)
    store = GameStore(data)
    assert recorded_rounds(store, game.id) == truth_rounds(record)
    assert store.game(game.id).status == "finished"


def test_a_demo_game_stopped_before_all_its_bids_were_in_gets_them_when_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game and each round's bids are separate writes: a kill -9 between them left a demo
    game that the next run resumed, played out and could never score ("round 2 has no bid")."""
    from skullcam.device.demo_game import start_demo_game

    record, _ = make_demo(tmp_path / "demo", rounds=3)
    demo = DemoGame.load(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    set_bids = store.set_bids

    def die_after_round_1(game_id: int, number: int, bids: list) -> None:
        if number > 1:
            raise KeyboardInterrupt  # the process stops here
        set_bids(game_id, number, bids)

    with monkeypatch.context() as patch:
        patch.setattr(store, "set_bids", die_after_round_1)
        with pytest.raises(KeyboardInterrupt):
            start_demo_game(store, demo)
    (game,) = store.games()
    assert store.bids(game.id, 2) == [None] * 3
    assert start_demo_game(store, demo) == (game.id, 0, [])  # the same game, resumed
    truth = [rnd["bids"] for rnd in record["rounds"]]
    assert [store.bids(game.id, r) for r in (1, 2, 3)] == truth


def test_ctrl_c_stops_skullcam_run_cleanly_and_keeps_the_game(tmp_path: Path) -> None:
    # The bundled demo and the shipped model, as the README's command runs them; Ctrl-C while
    # frames are being read (it used to abort the process on its way out, exit -6).
    data = tmp_path / "data"
    cmd = [sys.executable, "-m", "skullcam", "run", "--speed", "0", "--no-web", "--data", str(data)]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert wait_for_tricks(data, proc, 1, timeout=120) >= 1, "no trick recorded before Ctrl-C"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "terminate called" not in err
    assert "recorded" in out
    store = GameStore(data)
    (game,) = store.games()
    assert store.tricks(game.id) and store.score(game.id)["ok"]


STOPPED_WHILE_LOADING_CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from skullcam.cli import main
    from skullcam.device.scripted import FrameKeyedRecognizer
    from skullcam.vision.recognizer import Recognizer

    def load(*args, **kwargs):  # systemctl stop while the model loads
        os.kill(os.getpid(), signal.SIGTERM)
        return FrameKeyedRecognizer([])

    Recognizer.load = staticmethod(load)
    sys.exit(main(["run", "--no-web", "--speed", "0", "--data", sys.argv[1]]))
    """
)


def test_a_sigterm_while_the_model_loads_is_said_and_exits_as_a_stop(tmp_path: Path) -> None:
    """``systemctl stop`` while the recognizer loads: the default SIGTERM killed the process
    (exit -15) with no line in the journal. Now it says so, exits 130 as any stop does, and
    leaves the data folder as it was (no game set up)."""
    stderr, data = _stopped_child(tmp_path, STOPPED_WHILE_LOADING_CHILD)
    said = [line for line in stderr.splitlines() if "loading the model" in line]
    assert len(said) == 1 and "stopped while loading the model; nothing was recorded" in said[0]
    assert GameStore(data).games() == []


def _stopped_child(tmp_path: Path, script: str) -> tuple[str, Path]:
    """``script`` run as a process of its own on the data folder it is given: it exits 130
    as any stop does, with no traceback. What it said on stderr, and its data folder."""
    (tmp_path / "child.py").write_text(script)
    data = tmp_path / "data"
    done = subprocess.run(
        [sys.executable, str(tmp_path / "child.py"), str(data)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr, data


STOPPED_WHILE_STARTING_CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from skullcam.cli import main
    from skullcam.device import sources

    def no_picamera():  # a SIGTERM while the run looks for a Pi camera, before the model
        os.kill(os.getpid(), signal.SIGTERM)
        return False

    sources.picamera_available = no_picamera
    sys.exit(main(["run", "--no-web", "--speed", "0", "--data", sys.argv[1]]))
    """
)


def test_a_sigterm_before_the_model_loads_is_said_and_exits_as_a_stop(tmp_path: Path) -> None:
    """A SIGTERM in the run's first second (its imports, the Pi camera's probe, the demo's
    load: several seconds on a Pi) killed the process with no line in the journal (exit -15):
    the handler was set only just before the model's load. Now it says so and exits 130
    before the model loads, leaving the data folder as it was."""
    stderr, data = _stopped_child(tmp_path, STOPPED_WHILE_STARTING_CHILD)
    said = [line for line in stderr.splitlines() if "stopped while" in line]
    assert len(said) == 1 and "stopped while starting; nothing was recorded" in said[0]
    assert not (data / "skullcam.db").exists()


def _web_workers() -> set[threading.Thread]:
    """waitress's worker threads alive in this process (it names them ``waitress-N``)."""
    return {t for t in threading.enumerate() if t.name.startswith("waitress-")}


def _open_files_under(folder: Path) -> list[str]:
    """The files under ``folder`` this process holds open (the game database, its log)."""
    fds = Path("/proc/self/fd")
    if not fds.is_dir():
        pytest.skip("no /proc/self/fd to count this process's open files in")
    targets = []
    for fd in fds.iterdir():
        with contextlib.suppress(OSError):  # the listing's own descriptor, closed by now
            targets.append(os.readlink(fd))
    return [t for t in targets if t.startswith(f"{folder.resolve()}{os.sep}")]


def test_skullcam_run_replays_a_demo_and_serves_then_exits(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    record, script = make_demo(tmp_path / "demo", n=4, rounds=2)
    from skullcam.vision import recognizer as recognizer_module

    monkeypatch.setattr(
        recognizer_module.Recognizer,
        "load",
        staticmethod(lambda *a, **k: FrameKeyedRecognizer(script)),
    )
    argv = ["run", "--demo", str(tmp_path / "demo"), "--data", str(tmp_path / "data")]
    argv += ["--port", "0", "--speed", "0", "--exit-when-done"]
    workers = _web_workers()
    gc.disable()  # what the run leaves open, not what a collection happens to close
    try:
        assert main(argv) == 0
        assert not _open_files_under(tmp_path / "data")  # its connections, the workers' too
    finally:
        gc.enable()
    out = capsys.readouterr().out
    assert "recorded 3 tricks" in out
    assert not _web_workers() - workers  # the server's 96 were left waiting for work
    store = GameStore(tmp_path / "data")
    (game,) = store.games()
    assert recorded_rounds(store, game.id) == truth_rounds(record)


def test_run_without_camera_or_demo_is_a_user_error(tmp_path: Path, capsys) -> None:
    argv = ["run", "--demo", str(tmp_path / "nothing"), "--data", str(tmp_path / "d")]
    assert main(argv) == 2
    assert "no recorded demo game" in capsys.readouterr().err


def test_a_demo_without_frames_is_refused_before_its_game_is_set_up(tmp_path: Path, capsys) -> None:
    """A demo folder with its game.json but no frames left an active demo game behind."""
    import shutil

    make_demo(tmp_path / "demo", n=3, rounds=1)
    shutil.rmtree(tmp_path / "demo" / "frames")
    (tmp_path / "demo" / "frames").mkdir()
    argv = ["run", "--demo", str(tmp_path / "demo"), "--data", str(tmp_path / "d"), "--no-web"]
    assert main(argv) == 2
    assert "holds no .jpg/.png frames" in capsys.readouterr().err
    assert GameStore(tmp_path / "d").games() == []


def test_a_camera_without_web_pages_and_no_game_to_record_is_a_user_error(
    tmp_path: Path, capsys
) -> None:
    # It would wait forever for a game set up on pages it does not serve.
    make_demo(tmp_path / "demo", n=3, rounds=1)
    argv = ["run", "--camera", str(tmp_path / "demo" / "frames"), "--no-web"]
    assert main([*argv, "--data", str(tmp_path / "d")]) == 2
    assert "no game in" in capsys.readouterr().err


def test_loop_needs_a_source(tmp_path: Path) -> None:
    with pytest.raises(UserError):
        LiveLoop(GameStore(tmp_path), lambda f: [], None, None)


def test_a_loop_started_again_and_again_leaves_no_connection_open(tmp_path: Path) -> None:
    """``skullcam run`` starts the loop in a new thread each time it tries a failed camera
    again (every 10 s): each thread's connection stayed open, two more open files a try
    until the run reached its limit of open files."""
    make_demo(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    store.create_game(["Xan", "Yui", "Zed"], 0, {})  # the demo reads it and steps aside
    loop = LiveLoop(store, lambda f: [], None, DemoGame.load(tmp_path / "demo"))
    before = store.open_connections()
    for _ in range(5):
        loop.start()
        assert loop.join(30.0)
        assert loop.error is None
    assert store.open_connections() == before


def test_run_with_a_camera_records_into_the_game_set_up_on_the_web_and_saves_frames(
    tmp_path: Path, monkeypatch
) -> None:
    record, script = make_demo(tmp_path / "demo", n=3, rounds=2)
    data = tmp_path / "data"
    store = GameStore(data)
    game_id = store.create_game(record["players"], record["first_dealer"], record["settings"])
    store.close()
    calibrate_seats(data)
    from skullcam.vision import recognizer as recognizer_module

    monkeypatch.setattr(
        recognizer_module.Recognizer,
        "load",
        staticmethod(lambda *a, **k: FrameKeyedRecognizer(script)),
    )
    argv = ["run", "--camera", str(tmp_path / "demo" / "frames"), "--data", str(data)]
    argv += ["--no-web", "--speed", "0", "--exit-when-done", "--record-frames"]
    assert main(argv) == 0
    store = GameStore(data)
    assert recorded_rounds(store, game_id) == truth_rounds(record)
    assert all(t.flags == [] for t in store.tricks(game_id))
    saved = sorted((data / "recordings" / f"game-{game_id}").glob("frame_*.jpg"))
    assert len(saved) > 100


def _a_table_game_seen_by_script(
    record: dict, script: list, data: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[GameStore, int]:
    """The record's game set up in ``data`` (3 seats calibrated), with every recognizer
    loaded reading the frames' keys from ``script``."""
    from skullcam.vision import recognizer as recognizer_module

    store = GameStore(data)
    game_id = store.create_game(record["players"], record["first_dealer"], record["settings"])
    calibrate_seats(data)
    monkeypatch.setattr(
        recognizer_module.Recognizer,
        "load",
        staticmethod(lambda *a, **k: FrameKeyedRecognizer(script)),
    )
    return store, game_id


def test_a_recording_shorter_than_the_game_says_what_is_left(
    tmp_path: Path, monkeypatch, caplog
) -> None:
    """A recording that ended mid-game was summed up as "recorded 3 trick(s)", or with the
    pages served as "the game is over", while the game was still in progress."""
    import shutil

    record, script = make_demo(tmp_path / "demo", n=3, rounds=2)
    shutil.copytree(tmp_path / "demo" / "frames", tmp_path / "all_frames")
    frames = sorted((tmp_path / "demo" / "frames").iterdir())
    for frame in frames[len(frames) // 3 :]:
        frame.unlink()
    data = tmp_path / "data"
    store, game_id = _a_table_game_seen_by_script(record, script, data, monkeypatch)
    argv = ["run", "--camera", str(tmp_path / "demo" / "frames"), "--data", str(data)]
    with caplog.at_level(logging.INFO):
        assert main([*argv, "--no-web", "--speed", "0", "--exit-when-done"]) == 0
    recorded = len(store.tricks(game_id))
    assert 0 < recorded < 3 and store.game(game_id).status == "active"
    assert (
        f"the camera's frames ran out with game {game_id} still in progress ({recorded} of 3"
        " tricks recorded)" in caplog.text
    )
    assert "the game is over" not in caplog.text
    # The pages say so too: they showed a normal round, the state saying nothing was amiss.
    state = store.state(game_id)
    assert state["camera_missing"] is True and state["camera_missing_why"] == "frames_ended"
    # The rest of the recording played into it: the pages say it no more.
    shutil.rmtree(tmp_path / "demo" / "frames")
    shutil.copytree(tmp_path / "all_frames", tmp_path / "demo" / "frames")
    assert main([*argv, "--no-web", "--speed", "0", "--exit-when-done"]) == 0
    assert recorded_rounds(store, game_id) == truth_rounds(record)
    assert not store.camera_missing()


def test_a_recording_moved_mid_game_goes_on_where_it_stopped(
    tmp_path: Path, monkeypatch, caplog
) -> None:
    """Renamed between two runs (what stopped the first), a folder of frames was played from
    its first frame into the game it had half recorded: round 1's cards went in as round 2's
    tricks and the game was marked finished (a review, session 50). One still at its old path
    is another recording, the next part of the game: played from its start."""
    import shutil

    record, script = make_demo(tmp_path / "demo", n=3, rounds=2)
    data = tmp_path / "data"
    store, game_id = _a_table_game_seen_by_script(record, script, data, monkeypatch)
    first = tmp_path / "cam"
    shutil.copytree(tmp_path / "demo" / "frames", first)
    frames = sorted(first.iterdir())
    hidden = tmp_path / "later"
    hidden.mkdir()
    for frame in frames[len(frames) // 3 :]:  # the first run sees only a third of them
        frame.rename(hidden / frame.name)
    run = ["run", "--data", str(data), "--no-web", "--speed", "0", "--exit-when-done"]
    assert main([*run, "--camera", str(first)]) == 0
    recorded = len(store.tricks(game_id))
    assert 0 < recorded < 3
    for frame in hidden.iterdir():
        frame.rename(first / frame.name)
    moved = tmp_path / "cam-renamed"
    first.rename(moved)
    with caplog.at_level(logging.INFO):
        assert main([*run, "--camera", str(moved)]) == 0
    assert recorded_rounds(store, game_id) == truth_rounds(record)
    assert f"it is {first.absolute()}, moved" in caplog.text
    # A folder with that frame's name while the first one is still there: another recording.
    from skullcam.device.resume_point import moved_here

    info = store.tricks(game_id)[0].source_info
    shutil.copytree(moved, first)
    assert not moved_here(info, str(moved.absolute()))
    assert moved_here({**info, "source": str(tmp_path / "gone")}, str(moved.absolute()))
    assert not moved_here(
        {**info, "source": str(tmp_path / "gone"), "frame_file": "x.png"}, str(moved.absolute())
    )


def test_a_game_set_up_while_the_demo_played_is_said_unrecorded_not_run_out(
    tmp_path: Path,
) -> None:
    """The demo stops for a table's game: no camera's frames "ran out", nothing records it."""
    from skullcam.commands.run import _left_unrecorded

    store = GameStore(tmp_path)
    assert _left_unrecorded(store, None) is None  # no game in progress: nothing to say
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    said = _left_unrecorded(store, None)
    assert said is not None and f"game {gid} is in progress and no camera records it" in said
    assert f"enter its tricks by hand on its tricks page (/game/{gid}/tricks)" in said
    camera = _left_unrecorded(store, "game.mp4")
    assert camera is not None and "ran out" in camera and "(0 of 55 tricks recorded)" in camera


def test_a_one_round_game_run_out_counts_its_one_trick_in_the_singular(tmp_path: Path) -> None:
    """A one-round game deals one card: "(0 of 1 tricks recorded)" was said."""
    from skullcam.commands.run import _left_unrecorded

    store = GameStore(tmp_path)
    store.create_game(["Ana", "Ben"], 0, {"rounds": 1})
    said = _left_unrecorded(store, "game.mp4")
    assert said is not None and "(0 of 1 trick recorded)" in said


def test_a_camera_records_one_game_after_another_without_a_restart(tmp_path: Path) -> None:
    # An evening at the table: when a game ends, the next one set up on the web page is
    # recorded by the same camera. A folder stands in for the camera: the first game's frames,
    # an empty table, then the second game's.

    record, script = make_demo(tmp_path / "demo", n=3, rounds=2)
    camera = _shown_twice(tmp_path / "demo", tmp_path / "camera", len(script))
    data = tmp_path / "data"
    store = GameStore(data)
    calibrate_seats(data)
    first = store.create_game(record["players"], record["first_dealer"], record["settings"])
    second: list[int] = []

    loop = LiveLoop(store, FrameKeyedRecognizer(script), str(camera), None, data_dir=data)

    def until_finished(watcher: GameStore, game_id: int) -> None:
        deadline = time.monotonic() + 60
        while watcher.game(game_id).status != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)

    def set_up_the_next_game() -> None:
        watcher = GameStore(data)
        try:
            until_finished(watcher, first)
            second.append(
                watcher.create_game(record["players"], record["first_dealer"], record["settings"])
            )
            until_finished(watcher, second[0])
        finally:
            loop.stop.set()  # the camera would wait for a third game

    helper = threading.Thread(target=set_up_the_next_game, daemon=True)
    helper.start()
    loop.speed = 0
    loop.next_games = True
    loop.run()
    helper.join(5)
    assert loop.error is None
    assert recorded_rounds(store, first) == truth_rounds(record)
    assert recorded_rounds(store, second[0]) == truth_rounds(record)
    assert store.game(second[0]).status == "finished"


def test_a_camera_leaves_a_demo_game_stopped_mid_way_alone(tmp_path: Path) -> None:
    # The README's demo was stopped with Ctrl-C mid-game; then a camera is plugged in. The
    # table's tricks go into the game set up on the web page, not into the demo's.
    record, script = make_demo(tmp_path / "demo", n=3, rounds=2)
    data = tmp_path / "data"
    store = GameStore(data)
    calibrate_seats(data)
    demo_game = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    demo_plays = [
        {"player": p, "card": c} for p, c in ((1, "green-5"), (2, "green-9"), (0, "escape"))
    ]
    store.record_trick(demo_game, 1, 0, demo_plays, detections={"source": "demo"})
    loop = LiveLoop(store, FrameKeyedRecognizer(script), str(tmp_path / "demo" / "frames"), None)
    loop.data_dir, loop.speed = data, 0
    table: list[int] = []

    def set_up_a_game() -> None:
        time.sleep(1.5)  # the camera is waiting by now
        table.append(
            GameStore(data).create_game(
                record["players"], record["first_dealer"], record["settings"]
            )
        )

    helper = threading.Thread(target=set_up_a_game, daemon=True)
    helper.start()
    loop.run()
    helper.join(5)
    assert recorded_rounds(store, table[0]) == truth_rounds(record)
    assert len(store.tricks(demo_game)) == 1 and store.game(demo_game).status == "active"


def test_recorder_asks_the_table_about_a_doubtful_tigress_and_flagged_tricks(
    tmp_path: Path,
) -> None:
    import numpy as np

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame
    from skullcam.vision.trick_state import PlayedCard, TrickObservation

    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], 2, {"loot": False})
    ref = referee_from_store(store, game_id)

    def played(card: str, seat: int) -> PlayedCard:
        return PlayedCard(
            seat,
            card,
            card.split(":")[0],
            0.9,
            seat,
            0.1 * seat,
            1.0,
            (100.0 * seat, 100.0),
            (0, 0, 10, 10),
            0.0,
        )

    obs = TrickObservation(
        plays=(played("green-3", 0), played("tigress:pirate", 1), played("loot", 2)),
        players=(0, 1, 2),
        leader=0,
        arrival_seats=(0, 1, 2),
        flags=(tigress_flag(50),),
        taken_back=(),
        last_settled_at=1.0,
        completed_at=1.2,
    )
    outcome = ref.add(obs)
    assert any("loot" in f.lower() for f in outcome.flags)  # expansion card, setting off
    recorder = StoreRecorder(store, game_id, "m1", "test")
    recorder.on_trick(outcome, Frame(np.zeros((48, 64, 3), np.uint8), 1.2, 12), [])
    kinds = sorted(p.kind for p in store.prompts(game_id))
    assert kinds == ["flagged", "tigress"]
    (trick,) = store.tricks(game_id)
    assert trick.flags and trick.model_version == "m1"
    assert [p["card"] for p in trick.plays] == ["green-3", "tigress:pirate", "loot"]
    annotated = store.image_path(trick.annotated_image)
    assert annotated is not None and annotated.is_file()
    again = referee_from_store(store, game_id)
    assert (again.round, again.trick) == (2, 0)
    # The Tigress answered on a phone, her doubt leaves the trick; the Loot's stays asked.
    (tigress,) = [p for p in store.prompts(game_id) if p.kind == "tigress"]
    store.answer_prompt(tigress.id, "escape")
    (trick,) = store.tricks(game_id)
    assert trick.flags and not [f for f in trick.flags if f.startswith("Tigress laid at")]
    assert [p.kind for p in store.prompts(game_id)] == ["flagged"]


def test_rosies_choice_leads_only_while_abilities_are_on(tmp_path: Path) -> None:
    from skullcam.device.recorder import referee_from_store

    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], 0, {"pirate_abilities": True})
    store.set_bids(game_id, 1, [0, 1, 0])
    played = [(1, "green-3"), (2, "green-2"), (0, "green-1")]
    store.record_trick(game_id, 1, 0, [{"player": p, "card": c} for p, c in played])
    store.set_bids(game_id, 2, [1, 0, 0])
    played = [(2, "green-3"), (0, "pirate-rosie"), (1, "green-9")]  # c leads round 2
    store.record_trick(game_id, 2, 0, [{"player": p, "card": c} for p, c in played])
    (prompt,) = store.prompts(game_id)  # recording the trick asked who leads next
    store.answer_prompt(prompt.id, 1)
    assert referee_from_store(store, game_id).leader() == 1  # Rosie's choice
    store.update_settings(game_id, {"pirate_abilities": False})
    assert referee_from_store(store, game_id).leader() == 0  # Rosie's player, the winner


def test_rosie_is_asked_who_leads_only_when_a_trick_follows_in_the_round(tmp_path: Path) -> None:
    """Won on a round's last trick, Rosie has nothing to choose: the dealer's neighbour leads
    the next round, so the phones are not asked."""
    import numpy as np

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], 0, {"pirate_abilities": True})
    recorder = StoreRecorder(store, game_id, "m1", "test")
    frame = Frame(np.zeros((48, 64, 3), np.uint8), 1.0, 10)
    ref = referee_from_store(store, game_id)
    # Round 1 has one trick, round 2 two: Rosie wins round 1's only trick, then round 2's first.
    for plays in (
        [(1, "pirate-rosie"), (2, "green-5"), (0, "green-1")],
        [(2, "green-3"), (0, "pirate-rosie"), (1, "green-9")],
    ):
        recorder.on_trick(ref.add_plays(plays), frame, [])
    asked = [(p.kind, p.round, p.trick) for p in store.prompts(game_id)]
    assert asked == [("rosie", 2, 0)]


def test_rascal_is_asked_for_the_bet_and_the_trick_is_not_called_doubtful(
    tmp_path: Path,
) -> None:
    """The camera cannot see Rascal's bet: the phones ask for it. They used to ask "confirm or
    correct?" about the same trick as well, its cards being in no doubt, and the trick kept a
    warning sign for good."""
    import numpy as np

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], 0, {"pirate_abilities": True})
    recorder = StoreRecorder(store, game_id, "m1", "test")
    frame = Frame(np.zeros((48, 64, 3), np.uint8), 1.0, 10)
    outcome = referee_from_store(store, game_id).add_plays(
        [(1, "pirate-rascal"), (2, "green-5"), (0, "green-1")]
    )
    assert any("ability: ask the table" in f for f in outcome.flags)  # for `skullcam replay`
    recorder.on_trick(outcome, frame, [])
    assert [p.kind for p in store.prompts(game_id)] == ["rascal_bet"]
    assert store.trick(game_id, 1, 0).flags == []


def test_a_tricks_images_and_folder_reach_the_disk_before_the_store_names_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A power cut keeps what was synced. The images' bytes were, but a rename is an entry of
    its folder, and a new game's folder an entry of ``games/``: neither was synced, so the
    trick's transaction (synced at commit) could outlive them and name images that are not
    there after the power comes back. Both folders are synced before the trick is recorded."""
    import stat

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], 0, {})
    events: list[tuple[str, int]] = []
    fsync, replace, record = os.fsync, os.replace, store.record_trick

    def spy_fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            events.append(("synced", os.fstat(fd).st_ino))
        fsync(fd)

    def spy_replace(src: Path, dst: Path) -> None:
        replace(src, dst)
        events.append(("renamed", Path(dst).parent.stat().st_ino))

    def spy_record(*args: object, **kwargs: object) -> int:
        events.append(("recorded", 0))
        return record(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "fsync", spy_fsync)
    monkeypatch.setattr(os, "replace", spy_replace)
    monkeypatch.setattr(store, "record_trick", spy_record)
    outcome = referee_from_store(store, game_id).add_plays([(1, "green-3"), (2, "green-5")])
    frame = Frame(np.zeros((48, 64, 3), np.uint8), 1.0, 10)
    StoreRecorder(store, game_id, "m1", "test").on_trick(outcome, frame, [])
    folder = store.game_dir(game_id)
    recorded = events.index(("recorded", 0))
    last_rename = max(i for i, (what, _) in enumerate(events) if what == "renamed")
    assert events[last_rename] == ("renamed", folder.stat().st_ino)
    assert ("synced", folder.stat().st_ino) in events[last_rename:recorded]
    assert ("synced", folder.parent.stat().st_ino) in events[:recorded]  # games/<id> itself
    assert store.trick(game_id, 1, 0).completion_image is not None


def test_a_trick_the_store_refuses_leaves_the_recorded_tricks_pictures_as_they_were(
    tmp_path: Path,
) -> None:
    """The images are written before the store accepts the trick: a copy it refused (a
    recording shown again over a trick already recorded) wrote its frame over that trick's
    pictures, while the store kept that trick's reading of them. It now writes beside them,
    and a crash's orphans (named by no trick) are still written over."""
    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], 0, {})
    outcome = referee_from_store(store, game_id).add_plays([(1, "green-3"), (2, "green-5")])
    first, again = (Frame(np.full((48, 64, 3), v, np.uint8), 1.0, 10) for v in (40, 200))
    folder = store.game_dir(game_id)
    (folder / "r01t00.jpg").write_bytes(b"an orphan a crash left")
    StoreRecorder(store, game_id, "m1", "test").on_trick(outcome, first, [])
    recorded = store.image_path(store.trick(game_id, 1, 0).completion_image)
    assert recorded == folder / "r01t00.jpg"  # the orphan written over
    kept = recorded.read_bytes()
    StoreRecorder(store, game_id, "m1", "test").on_trick(outcome, again, [])  # refused
    assert recorded.read_bytes() == kept
    picture = cv2.imread(str(recorded))
    assert picture is not None and float(picture.mean()) == pytest.approx(40, abs=2)
    assert sorted(p.name for p in folder.glob("*.jpg")) == [
        "r01t00-2-boxes.jpg",
        "r01t00-2.jpg",
        "r01t00-boxes.jpg",
        "r01t00.jpg",
    ]


def _shown_twice(demo: Path, camera: Path, keys: int) -> Path:
    """A camera's folder of frames that shows ``demo``'s game, an empty table for 20 frames,
    then the game again: two games played one after the other at one table (``keys``: the
    demo's scripted frames, the empty table's key after them)."""
    import shutil

    from skullcam.device.scripted import key_image

    shutil.copytree(demo / "frames", camera)
    for k in range(20):
        cv2.imwrite(str(camera / f"gap_{k:03d}.png"), key_image(keys + 1, (64, 48)))
    for frame in sorted((demo / "frames").iterdir()):
        shutil.copyfile(frame, camera / f"second_{frame.name}")
    return camera


def test_live_winner_of_a_partial_trick() -> None:
    from skullcam.device.recorder import live_winner

    plays = [{"player": 2, "card": "green-3"}, {"player": 0, "card": "skull-king"}]
    assert live_winner(plays, {}) == 0
    assert live_winner(plays[:1], {}) is None
    assert live_winner([{"player": 1, "card": "tigress"}, *plays], {}) == 0


def test_a_newly_activated_model_takes_over_mid_game_without_a_restart(tmp_path: Path) -> None:
    """What `skullcam enroll` relies on: the loop asks once a frame, swaps, and records the
    new model's version on the tricks that follow."""
    record, script = make_demo(tmp_path / "demo")

    class Enrolled(FrameKeyedRecognizer):
        version = "enrolled-deck"

    calls = {"n": 0}

    def reload_model() -> FrameKeyedRecognizer | None:
        calls["n"] += 1
        return Enrolled(script) if calls["n"] == 120 else None

    store = GameStore(tmp_path / "data")
    loop = LiveLoop(
        store,
        FrameKeyedRecognizer(script),
        None,
        DemoGame.load(tmp_path / "demo"),
        reload_model=reload_model,
    )
    loop.speed = 0
    loop.run()
    (game,) = store.games()
    versions = [t.model_version for t in store.tricks(game.id)]
    assert versions[0] == "scripted-keyed" and versions[-1] == "enrolled-deck"
    assert store.export_record(game.id)["rounds"] == record["rounds"]


def test_a_newly_active_model_that_does_not_load_is_logged_and_the_game_goes_on(
    tmp_path: Path, caplog
) -> None:
    """`enroll --activate` of a broken folder mid-game (or a pointer written by hand) must not
    stop the recording: the loop keeps the model it has and says why."""
    from skullcam.commands.run import _active_model_reloader

    record, script = make_demo(tmp_path / "demo")
    data = tmp_path / "data"
    store = GameStore(data)
    loop = LiveLoop(
        store,
        FrameKeyedRecognizer(script),
        None,
        DemoGame.load(tmp_path / "demo"),
        reload_model=_active_model_reloader(data),
    )
    broken = tmp_path / "broken"
    broken.mkdir()
    from skullcam.vision.recognizer import shipped_model_dir

    (broken / "recognizer.json").write_text((shipped_model_dir() / "recognizer.json").read_text())
    (broken / "card-detector.onnx").write_bytes(b"not a model")
    (broken / "card-classifier.onnx").write_bytes(b"not a model")
    (data / "active_model").write_text(f"{broken}\n")
    loop.speed = 0
    with caplog.at_level("ERROR", logger="skullcam.device.live"):
        loop.run()
    assert loop.error is None
    assert "the newly active model was not loaded" in caplog.text
    assert "card-detector.onnx cannot be loaded" in caplog.text
    (game,) = store.games()
    assert store.export_record(game.id)["rounds"] == record["rounds"]
    assert {t.model_version for t in store.tricks(game.id)} == {"scripted-keyed"}


def test_a_trick_with_a_missed_card_is_recorded_for_the_table_to_complete(tmp_path: Path) -> None:
    """The camera saw 2 cards for 3 players: the trick is kept, image and all, and the table is
    asked about it; nothing after it is renumbered."""
    import numpy as np

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], 0, {})
    store.set_bids(game_id, 1, [0, 1, 0])
    recorder = StoreRecorder(store, game_id, "m1", "test")
    ref = referee_from_store(store, game_id)
    frame = Frame(np.zeros((48, 64, 3), np.uint8), 1.0, 10)
    recorder.on_trick(ref.add_plays([(1, "green-3"), (2, "green-9")]), frame, [])
    (trick,) = store.tricks(game_id)
    assert [p["card"] for p in trick.plays] == ["green-3", "green-9"]
    assert store.image_path(trick.completion_image) is not None
    assert [p.kind for p in store.prompts(game_id)] == ["flagged"]
    assert recorder.recorded == 1
    again = referee_from_store(store, game_id)
    assert (again.round, again.trick) == (2, 0)
    store.add_play(game_id, 1, 0, 0, "green-1")
    assert store.score(game_id)["score"]["totals"] == [10, -10, -10]


def _table_game(store: GameStore, record: dict) -> int:
    """The demo's game set up as a table would: its players, dealer and bids."""
    gid = store.create_game(record["players"], record.get("first_dealer", 0), record["settings"])
    for number, rnd in enumerate(record["rounds"], start=1):
        store.set_bids(gid, number, rnd["bids"])
    return gid


def _half_a_game_in(camera: Path, tmp_path: Path) -> tuple[dict, list, list[Path], GameStore, int]:
    """The demo's first half of frames copied into the folder ``camera``, and a table's game
    set up for it: (record, script, every frame, store, game id)."""
    import shutil

    record, script = make_demo(tmp_path / "demo")
    frames = sorted((tmp_path / "demo" / "frames").iterdir())
    camera.mkdir(parents=True)
    for frame in frames[: len(frames) // 2]:
        shutil.copy(frame, camera / frame.name)
    store = GameStore(tmp_path / "data")
    calibrate_seats(store.data_dir)
    return record, script, frames, store, _table_game(store, record)


def _record_from(folder: Path, store: GameStore, script: list) -> None:
    """``skullcam run --camera FOLDER`` until its frames end."""
    loop = LiveLoop(store, FrameKeyedRecognizer(script), str(folder), None, data_dir=store.data_dir)
    loop.speed, loop.next_games = 0, False
    loop.run()


def test_a_recording_played_again_resumes_where_it_stopped(tmp_path: Path) -> None:
    """``run --camera FOLDER`` stopped part way (a bad frame removed, a kill) and run again
    goes on after the last recorded trick's frame, not from frame 0 into the same game."""
    import shutil

    camera = tmp_path / "camera"
    record, script, frames, store, gid = _half_a_game_in(camera, tmp_path)
    for _ in range(2):
        _record_from(camera, store, script)
        if len(store.tricks(gid)) == sum(len(r["tricks"]) for r in record["rounds"]):
            break
        assert store.tricks(gid), "the first half of the frames holds no whole trick"
        for frame in frames[len(frames) // 2 :]:
            shutil.copy(frame, camera / frame.name)
    assert recorded_rounds(store, gid) == truth_rounds(record)


@pytest.mark.parametrize("inner", ["", "frames"])
def test_a_folder_whose_front_was_cleaned_up_resumes_after_the_last_recorded_frame(
    tmp_path: Path, inner: str
) -> None:
    """The frames a trick was recorded from are removed between runs (a camera folder that
    a cleaner empties): resuming by position skipped tricks; by name it goes on after them.
    Also for a game folder, whose frames are in ``frames/`` (resumed from frame 0 at first)."""
    import shutil

    given = tmp_path / "camera"
    camera = given / inner
    record, script, frames, store, gid = _half_a_game_in(camera, tmp_path)
    _record_from(given, store, script)
    assert store.tricks(gid), "the first half of the frames holds no whole trick"
    half = len(frames) // 2
    for frame in frames[: half // 2]:  # the front is cleaned up, the rest comes in
        (camera / frame.name).unlink()
    for frame in frames[half:]:
        shutil.copy(frame, camera / frame.name)
    _record_from(given, store, script)
    assert recorded_rounds(store, gid) == truth_rounds(record)


def test_a_recording_resumes_after_its_own_last_trick_when_one_was_entered_by_hand(
    tmp_path: Path,
) -> None:
    """A trick entered by hand has no frame: a recording played into the game again went on
    from its first frame (recording its first tricks again as later ones), and warned that
    the game had tricks "recorded from hand". And the cards of the camera's own last trick,
    still in its view when it goes on, are not a new trick."""
    import shutil

    from skullcam.device.scripted import simulate_game

    camera = tmp_path / "camera"
    record, script, frames, store, gid = _half_a_game_in(camera, tmp_path)
    _record_from(camera, store, script)
    done = len(store.tricks(gid))
    assert done, "the first half of the frames holds no whole trick"
    truth = [
        (r + 1, t, tr["plays"])
        for r, rnd in enumerate(record["rounds"])
        for t, tr in enumerate(rnd["tricks"])
    ]
    round_number, trick, plays = truth[done]
    store.enter_trick(gid, round_number, trick, plays)  # the camera missed it: entered by hand
    for frame in frames[len(frames) // 2 :]:
        shutil.copy(frame, camera / frame.name)
    # Blind from after the camera's last trick was swept until the missed one is swept.
    settled = simulate_game(record, seed=SEED).settle_frames
    blind = range(settled[done - 1][-1] + 20, settled[done][-1] + 25)
    loop = LiveLoop(
        store, MissesATrick(script, blind, lambda: None), str(camera), None, data_dir=store.data_dir
    )
    loop.speed, loop.next_games = 0, False
    loop.run()
    assert recorded_rounds(store, gid) == truth_rounds(record)
    sources = [t.detections.get("source") for t in store.tricks(gid)]
    assert sources.count("hand") == 1


def test_a_recording_played_again_after_a_missed_trick_was_inserted_records_nothing_twice(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A review asked whether a recording shown again at a place a missed trick's insert
    filled hours before goes in a place on, recorded twice (``moved_onto`` counts 'moved'
    entries however old). The recording records the game's first half blind to round 2's
    first trick, filing the next ones a place early; the table inserts the missed trick,
    moving them on; the recording, played again with the rest of its frames, goes on after
    its own last trick: no trick of it reaches the store at a recorded place, so none is
    refused there or sent a place on."""
    import shutil

    from skullcam.device.scripted import simulate_game

    camera = tmp_path / "camera"
    record, script, frames, store, gid = _half_a_game_in(camera, tmp_path)
    settled = simulate_game(record, seed=SEED).settle_frames
    blind = range(settled[0][-1] + 20, settled[1][-1] + 25)  # round 2's first trick
    first = LiveLoop(
        store, MissesATrick(script, blind, lambda: None), str(camera), None, data_dir=store.data_dir
    )
    first.speed, first.next_games = 0, False
    first.run()
    assert len(store.tricks(gid)) >= 2, "the first half holds no trick after the missed one"
    inserted = store.insert_trick(gid, 2, 0, record["rounds"][1]["tricks"][0]["plays"])
    assert inserted.source_info["moved"], "the insert moved none of the camera's tricks"
    for frame in frames[len(frames) // 2 :]:
        shutil.copy(frame, camera / frame.name)
    with caplog.at_level(logging.INFO, logger="skullcam"):
        _record_from(camera, store, script)
    assert recorded_rounds(store, gid) == truth_rounds(record)
    assert "went in as" not in caplog.text and "not recorded:" not in caplog.text


def _played_again_over_hand_entries(
    tmp_path: Path, by_hand: list[tuple[int, int]], script_then: Callable[[list], list] = list
) -> tuple[GameStore, int, dict]:
    """A recording stopped after round 2's first trick, the table entering the tricks
    ``by_hand`` (round, trick from 0), then the rest of the frames in and the recording played
    again (read through ``script_then(script)``): (store, game id, truth)."""
    import shutil

    from skullcam.device.scripted import simulate_game

    record, script = make_demo(tmp_path / "demo")
    frames = sorted((tmp_path / "demo" / "frames").iterdir())
    settled = simulate_game(record, seed=SEED).settle_frames
    camera, data = tmp_path / "camera", tmp_path / "data"
    camera.mkdir()
    for frame in frames[: settled[1][-1] + 20]:  # round 1's trick, round 2's first
        shutil.copy(frame, camera / frame.name)
    store = GameStore(data)
    gid = _table_game(store, record)
    calibrate_seats(data)

    def play_recording(script: list) -> None:
        loop = LiveLoop(store, FrameKeyedRecognizer(script), str(camera), None, data_dir=data)
        loop.speed, loop.next_games = 0, False
        loop.run()
        assert loop.error is None

    play_recording(script)
    assert [(t.round, t.trick) for t in store.tricks(gid)] == [(1, 0), (2, 0)]
    for number, trick in by_hand:
        plays = record["rounds"][number - 1]["tricks"][trick]["plays"]
        store.enter_trick(gid, number, trick, plays)
    for frame in frames[settled[1][-1] + 20 :]:
        shutil.copy(frame, camera / frame.name)
    play_recording(script_then(script))
    return store, gid, record


def _seen_again_once(caplog: pytest.LogCaptureFixture, by_hand: list[tuple[int, int]]) -> None:
    for number, trick in by_hand:
        said = f"round {number} trick {trick + 1}, entered by hand, is seen again in the recording"
        assert caplog.text.count(said) == 1


@pytest.mark.parametrize("entered", [1, 2])
def test_tricks_entered_by_hand_that_a_resumed_recording_shows_again_are_not_recorded_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, entered: int
) -> None:
    """Stopped after round 2's first trick, the table entering round 2's last (and round 3's
    first) by hand: played again, the recording goes on from its own last trick's frame and
    shows those tricks too. Its copy of round 2's last trick went in as round 3's first, flagged
    "P1 led, but the game expected P0 to lead", every later trick a place late and round 3's
    last left out (a game-night journey). They are that trick seen again: not recorded."""
    by_hand = [(2, 1), (3, 0)][:entered]
    with caplog.at_level(logging.INFO, logger="skullcam"):
        store, gid, record = _played_again_over_hand_entries(tmp_path, by_hand)
    assert recorded_rounds(store, gid) == truth_rounds(record)
    assert all(t.flags == [] for t in store.tricks(gid))
    assert [(t.round, t.trick) for t in store.tricks(gid) if t.by_hand] == by_hand
    _seen_again_once(caplog, by_hand)


@pytest.mark.parametrize(("entered", "read"), [(1, "misread"), (1, "missed"), (2, "misread")])
def test_a_trick_entered_by_hand_seen_again_with_a_card_misread_is_not_recorded_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, entered: int, read: str
) -> None:
    """The recording shows round 2's last trick again, entered by hand, but reads one of its
    cards as another (or misses it): it was not that trick's exact cards, so it went in as
    round 3's first, every later trick a place late. Its other two cards, each one of a kind
    and played by the same player, are that trick's: a new trick of round 2 could not hold
    them (each card is played at most once a round)."""
    import dataclasses

    from skullcam.device.scripted import simulate_game

    by_hand = [(2, 1), (3, 0)][:entered]
    misread = "green-10"  # round 2's last trick: P2 black-5, P0 green-10, P1 yellow-4

    def misreading(script: list) -> list:
        record = DemoGame.load(tmp_path / "demo").record
        assert {"player": 0, "card": misread} in record["rounds"][1]["tricks"][1]["plays"]
        settled = simulate_game(record, seed=SEED).settle_frames
        copy = range(settled[1][-1], settled[3][0])  # from round 2's first trick to round 3's
        as_read = [] if read == "missed" else ["green-11"]  # a card this game never plays
        return [
            [
                dataclasses.replace(d, card=c)
                for d in dets
                for c in ([d.card] if k not in copy or d.card != misread else as_read)
            ]
            for k, dets in enumerate(script)
        ]

    with caplog.at_level(logging.INFO, logger="skullcam"):
        store, gid, record = _played_again_over_hand_entries(tmp_path, by_hand, misreading)
    assert recorded_rounds(store, gid) == truth_rounds(record)
    assert [(t.round, t.trick) for t in store.tricks(gid) if t.by_hand] == by_hand
    _seen_again_once(caplog, by_hand)
    it_read = "nothing" if read == "missed" else "P0 green-11"
    said = f"(it read {it_read} where the table entered P0 green-10): not recorded again"
    assert caplog.text.count(said) == 1


def test_the_tv_does_not_show_a_trick_entered_by_hand_as_the_next_while_a_recording_lays_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recording catching up shows round 2's last trick, entered by hand, laid again: the TV
    showed its cards as the game's next trick, round 3's first, with a winner so far, though
    the table had played it already (and recorded it by hand). It shows round 3's first trick
    only, as that is laid."""
    shown: list[tuple[int, int, set]] = []
    set_live = GameStore.set_live

    def spy(self: GameStore, game_id: int, number: int, trick: int, plays: list, **kw) -> None:
        shown.append((number, trick, {(int(p["player"]), p["card"]) for p in plays}))
        set_live(self, game_id, number, trick, plays, **kw)

    monkeypatch.setattr(GameStore, "set_live", spy)
    store, gid, record = _played_again_over_hand_entries(tmp_path, [(2, 1)])
    assert recorded_rounds(store, gid) == truth_rounds(record)
    entered, laid_next = (
        {(p["player"], p["card"]) for p in t["plays"]}
        for t in (
            record["rounds"][1]["tricks"][1],
            record["rounds"][2]["tricks"][0],
        )
    )
    as_next = [plays for number, trick, plays in shown if (number, trick) == (3, 0)]
    assert any(plays and plays < laid_next for plays in as_next)  # shown as it is laid
    assert all(not plays & entered for plays in as_next)


def test_another_recording_played_into_a_half_recorded_game_is_warned_about(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A recording at another path while the first is still at its own (a copy, the next part
    of a game) starts from its first frame: if it is the same one, its first tricks would go
    in again as later ones. Said, at least, before they do. (One moved away from its path is
    taken up where it stopped: ``test_a_recording_moved_mid_game_goes_on_where_it_stopped``.)"""
    import shutil

    before = tmp_path / "a"
    _record, script, _frames, store, gid = _half_a_game_in(before, tmp_path)
    _record_from(before, store, script)
    assert store.tricks(gid)
    copy = Path(shutil.copytree(before, tmp_path / "b"))
    with caplog.at_level("WARNING"):
        _record_from(copy, store, script)
    assert f"game {gid} already has tricks recorded from {before}" in caplog.text


class MissesATrick(FrameKeyedRecognizer):
    """A camera that sees nothing of the frames ``blind`` (an arm over the lens), and the
    table entering the trick it missed by hand as the last of them comes in."""

    def __init__(self, script: list, blind: range, enter_by_hand: Callable[[], None]) -> None:
        super().__init__(script)
        self.blind, self.enter_by_hand = blind, enter_by_hand

    def __call__(self, frame: np.ndarray) -> list:
        b, g, r = (int(v) for v in frame[0, 0])
        index = b | (g << 8) | (r << 16)
        if index == self.blind[-1]:
            self.enter_by_hand()
            time.sleep(1.05)  # the loop asks about the game at most once a second
        return [] if index in self.blind else super().__call__(frame)


def _a_trick_entered_by_hand(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, back_at: Callable[[list[int]], int]
) -> tuple[GameStore, int, dict, LiveLoop]:
    """The camera records a table's game but misses its second trick (round 2's first),
    from the empty table after the first trick until the frame ``back_at(its settle frames)``,
    and the table enters that trick by hand meanwhile: (store, game, truth, loop) after it."""
    from skullcam.device.scripted import simulate_game
    from skullcam.store.rows import HAND_SOURCE

    record, script = make_demo(tmp_path / "demo")
    settled = simulate_game(record, seed=SEED).settle_frames  # the frames make_demo drew
    store = GameStore(tmp_path / "data")
    gid = _table_game(store, record)
    calibrate_seats(store.data_dir)
    missed = record["rounds"][1]["tricks"][0]["plays"]

    def enter_by_hand() -> None:
        store.record_trick(gid, 2, 0, missed, detections={"source": HAND_SOURCE})

    blind = range(settled[0][-1] + 20, back_at(settled[1]))
    camera = str(tmp_path / "demo" / "frames")
    loop = LiveLoop(
        store, MissesATrick(script, blind, enter_by_hand), camera, None, data_dir=store.data_dir
    )
    loop.speed, loop.next_games = 0, False
    with caplog.at_level(logging.INFO, logger="skullcam"):
        loop.run()
    assert loop.error is None
    return store, gid, record, loop


def test_the_camera_follows_a_trick_the_table_entered_by_hand(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The camera's referee kept its own count: the next trick it saw went into the slot
    entered by hand (refused, lost), and every later one a slot early, led by the wrong
    player. It is rebuilt from the store, and the camera's tricks land where they belong."""
    # Back once the missed trick is swept off the table, before the next one is led.
    store, gid, record, loop = _a_trick_entered_by_hand(tmp_path, caplog, lambda s: s[-1] + 25)
    assert recorded_rounds(store, gid) == truth_rounds(record)
    sources = [t.detections["source"] for t in store.tricks(gid)]
    assert sources[1] == "hand" and sources.count("hand") == 1
    assert store.game(gid).status == "finished"
    assert loop.tally.tricks == len(sources) - 1  # every other trick the camera's, none refused
    assert "not recorded:" not in caplog.text  # nothing refused as already recorded
    said = (
        "the game's tricks were changed on the web page: following the table's record from "
        "round 2 trick 2"
    )
    assert caplog.text.count(said) == 1


def test_a_trick_entered_by_hand_still_on_the_table_is_not_recorded_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The camera comes back as the last card of the trick entered by hand lands: the cards
    lying there are that trick, not the next one."""
    store, gid, record, loop = _a_trick_entered_by_hand(tmp_path, caplog, lambda s: s[-1])
    assert recorded_rounds(store, gid) == truth_rounds(record)
    assert [t.detections["source"] for t in store.tricks(gid)].count("hand") == 1
    assert "the last recorded trick is still on the table; not recorded again" in caplog.text
    assert "not recorded:" not in caplog.text  # nothing refused as already recorded
    assert loop.tally.tricks == len(store.tricks(gid)) - 1


def test_the_demo_does_not_play_over_a_tables_game(
    tmp_path: Path, monkeypatch, capsys, caplog: pytest.LogCaptureFixture
) -> None:
    """No camera found (a loose ribbon at boot) while a game set up on the web page waits:
    the demo must not start a game of its own on top of it (nor say it replays one)."""
    make_demo(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    store.create_game(["Xan", "Yui", "Zed"], 0, {})
    argv = ["run", "--demo", str(tmp_path / "demo"), "--data", str(tmp_path / "data")]
    with caplog.at_level("INFO"):
        assert main([*argv, "--no-web", "--speed", "0", "--exit-when-done"]) == 2
    err = capsys.readouterr().err
    assert "no camera found, and game 1 (Xan, Yui, Zed) is in progress" in err
    assert len(store.games()) == 1
    assert "replaying the recorded game" not in caplog.text


def _serving_port(caplog: pytest.LogCaptureFixture) -> int | None:
    """The port ``skullcam run --port 0`` logged that it serves on, once it has."""
    import re

    found = re.search(r"scoreboard on http://127\.0\.0\.1:(\d+)/tv", caplog.text)
    return int(found[1]) if found else None


def _tv_status(port: int) -> int:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/tv") as page:
        return int(page.status)


def _run_in_background(argv: list[str]) -> tuple[threading.Thread, list[int]]:
    """``skullcam`` with ``argv`` in a thread (its exit status lands in the list)."""
    codes: list[int] = []
    runner = threading.Thread(target=lambda: codes.append(main(argv)))
    runner.start()
    return runner, codes


def _no_camera_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[GameStore, int]:
    """A data folder with a game set up on the web page, a demo and no camera (the scripted
    recognizer in place of the shipped one)."""
    from skullcam.vision import recognizer as recognizer_module

    _, script = make_demo(tmp_path / "demo")
    monkeypatch.setattr(
        recognizer_module.Recognizer,
        "load",
        staticmethod(lambda *a, **k: FrameKeyedRecognizer(script)),
    )
    store = GameStore(tmp_path / "data")
    return store, store.create_game(["Xan", "Yui", "Zed"], 0, {})


def test_with_a_tables_game_and_no_camera_the_pages_still_come_up(
    tmp_path: Path, monkeypatch, caplog: pytest.LogCaptureFixture
) -> None:
    """It exited 2 before the web server started: under the systemd unit (Restart=on-failure)
    it started again every 3 s, for ever, and the TV and phones reached nothing."""
    store, gid = _no_camera_table(tmp_path, monkeypatch)
    argv = ["run", "--demo", str(tmp_path / "demo"), "--data", str(tmp_path / "data")]
    with caplog.at_level("INFO"):
        runner, codes = _run_in_background([*argv, "--port", "0", "--max-seconds", "4"])
        status = None
        for _ in range(60):
            if (port := _serving_port(caplog)) is not None:
                status = _tv_status(port)
                break
            time.sleep(0.05)
        runner.join(10)
    assert status == 200
    assert codes == [0]
    assert f"game {gid} (Xan, Yui, Zed) is in progress" in caplog.text
    assert "nothing is recorded" in caplog.text
    assert "replaying the recorded game" not in caplog.text
    assert len(store.games()) == 1 and store.tricks(gid) == []
    assert store.camera_missing() and store.state(gid)["camera_missing"] is True  # the TV says so


def test_an_idle_run_with_exit_when_done_ends_once_the_game_is_finished(
    tmp_path: Path, monkeypatch, caplog: pytest.LogCaptureFixture
) -> None:
    """It waited for a signal only: a kiosk wrapper restarting 'run --exit-when-done' sat
    there for good once the table finished its game by hand."""
    store, gid = _no_camera_table(tmp_path, monkeypatch)
    argv = ["run", "--demo", str(tmp_path / "demo"), "--data", str(tmp_path / "data")]
    with caplog.at_level("INFO"):
        runner, codes = _run_in_background(
            [*argv, "--port", "0", "--exit-when-done", "--max-seconds", "30"]
        )
        for _ in range(100):
            if _serving_port(caplog) is not None:
                break
            time.sleep(0.05)
        store.finish_game(gid)
        runner.join(10)
    assert not runner.is_alive() and codes == [0]


def _serve_until_up(argv: list[str], caplog: pytest.LogCaptureFixture) -> tuple[Any, list, int]:
    """``skullcam run argv --port 0`` in a thread, once its pages are served: the runner, its
    exit status (a list, filled when it ends) and the port."""
    runner, codes = _run_in_background([*argv, "--port", "0"])
    for _ in range(200):
        if (port := _serving_port(caplog)) is not None:
            return runner, codes, port
        if not runner.is_alive():
            break
        time.sleep(0.05)
    runner.join(10)
    raise AssertionError(f"no page served; exit status {codes}")


def _tv_state(port: int) -> dict:
    import json
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tv/state") as page:
        return json.load(page)


def test_camera_none_serves_last_nights_game_with_no_demo_and_no_model(
    tmp_path: Path, monkeypatch, capsys, caplog: pytest.LogCaptureFixture
) -> None:
    """The morning after, 'skullcam run' to settle a dispute started the demo: a new game the
    TV followed, and the model loaded for nothing. '--camera none' serves the pages alone; a
    --model that does not exist and a --demo that does not exist must not matter."""
    data = tmp_path / "data"
    store = GameStore(data)
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.finish_game(gid)
    argv = ["run", "--camera", "none", "--data", str(data), "--max-seconds", "3"]
    argv += ["--model", str(tmp_path / "no-model"), "--demo", str(tmp_path / "no-demo")]
    with caplog.at_level("INFO"):
        runner, codes, port = _serve_until_up(argv, caplog)
        status, shown = _tv_status(port), _tv_state(port)
        runner.join(10)
    assert codes == [0], capsys.readouterr().err
    assert status == 200 and shown["game"]["id"] == gid and shown["finished"]
    assert [g.id for g in store.games()] == [gid]  # no demo game
    assert "replaying the recorded game" not in caplog.text
    assert "--camera none: the scoreboard and phone pages are served" in caplog.text
    # Given, they are said to do nothing here (they were dropped without a word).
    assert "(--model, --demo ignored: nothing is played or recorded)" in caplog.text
    assert "recorded 0 tricks from 0 frames" in capsys.readouterr().out
    assert store.camera_missing_why() == "no_camera"


def test_camera_none_tells_the_pages_a_game_in_progress_is_not_recorded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A table with no camera at all, its game set up: the TV and the bids page say nothing
    records it (enter its tricks by hand), as when the demo stepped aside for it."""
    data = tmp_path / "data"
    store = GameStore(data)
    gid = store.create_game(["Xan", "Yui", "Zed"], 0, {})
    argv = ["run", "--camera", "none", "--data", str(data), "--max-seconds", "30"]
    with caplog.at_level("INFO"):
        runner, codes, port = _serve_until_up([*argv, "--exit-when-done"], caplog)
        shown = _tv_state(port)
        store.finish_game(gid)  # the table finished it by hand: --exit-when-done ends the run
        runner.join(10)
    assert not runner.is_alive() and codes == [0]
    assert shown["game"]["id"] == gid and shown["camera_missing_why"] == "no_camera"
    assert f"game {gid} is in progress: enter its tricks by hand" in caplog.text
    assert f"(/game/{gid}/tricks)" in caplog.text


def test_camera_none_with_exit_when_done_waits_for_a_game_before_ending(tmp_path: Path) -> None:
    """Started between games (none in progress), '--camera none --exit-when-done' waits for
    the next one set up on the web page and ends with it, as a camera's run does; ending at
    once would leave the table without pages."""
    from skullcam.commands.run import _game_over_check

    store = GameStore(tmp_path)
    old = store.create_game(["Ana", "Ben"], 0, {})
    store.finish_game(old)
    over = _game_over_check(True, store, waits_for_one=True)
    assert not over()  # between games: waits
    gid = store.create_game(["Ana", "Ben"], 0, {})
    assert not over()
    store.finish_game(gid)
    assert over()
    camera = _game_over_check(True, store, waits_for_one=False)
    assert camera()  # the demo's idle path as before: no game in progress ends it
    serving = _game_over_check(False, store, waits_for_one=True)
    assert not serving()


def test_camera_none_over_a_demo_left_unfinished_does_not_say_to_enter_its_tricks(
    tmp_path: Path,
) -> None:
    """Plain 'skullcam run' played the demo, stopped mid-game; '--camera none' then left the
    demo's game on the TV saying "No camera: enter the tricks by hand", which its pages do not
    take. The no-camera notice is for the table's games."""
    from skullcam.device.demo_game import start_demo_game

    make_demo(tmp_path / "demo", n=3, rounds=1)
    data = tmp_path / "data"
    store = GameStore(data)
    demo_game, _, _ = start_demo_game(store, DemoGame.load(tmp_path / "demo"))
    argv = ["run", "--camera", "none", "--data", str(data), "--port", "0", "--max-seconds", "1"]
    assert main(argv) == 0
    assert store.camera_missing_why() == "no_camera"  # a game set up now is said unrecorded
    shown = store.state(demo_game)
    assert shown["demo"] and not shown["camera_missing"] and shown["camera_missing_why"] is None
    table_game = store.create_game(["Xan", "Yui", "Zed"], 0, {})
    assert store.state(table_game)["camera_missing_why"] == "no_camera"


def test_camera_none_after_a_demo_stopped_mid_game_shows_last_nights_game_on_the_tv(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Last night's game finished; plain 'skullcam run' (no camera) then played the demo and
    was stopped mid-game. '--camera none' the morning after put the demo's unfinished board
    on the TV, which nothing plays: the TV shows last night's game. While the demo plays, the
    TV follows it as before."""
    from skullcam.device.demo_game import start_demo_game

    make_demo(tmp_path / "demo", n=3, rounds=1)
    data = tmp_path / "data"
    store = GameStore(data)
    last_night = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.finish_game(last_night)
    demo_game, _, _ = start_demo_game(store, DemoGame.load(tmp_path / "demo"))
    store.set_camera_missing(False)  # the demo's first frame, as the live loop says it
    playing = store.tv_game()
    assert playing is not None and playing.id == demo_game  # the demo playing: the TV follows
    argv = ["run", "--camera", "none", "--data", str(data), "--max-seconds", "3"]
    with caplog.at_level("INFO"):
        runner, codes, port = _serve_until_up(argv, caplog)
        shown = _tv_state(port)
        runner.join(10)
    assert codes == [0]
    assert shown["game"]["id"] == last_night and shown["finished"] and not shown["demo"]
    assert store.game(demo_game).status == "active"  # set aside, not changed: the demo resumes


def test_a_demo_run_after_camera_none_shows_the_demo_from_its_first_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'--camera none' the morning after left "no camera" said; a plain 'skullcam run' (no
    camera: the demo) then put last night's game on the TV from its first page until the
    demo's first frame cleared it. The demo plays from the start: the TV shows it as soon as
    the pages are served."""
    from skullcam.device.demo_game import start_demo_game
    from skullcam.vision import recognizer as recognizer_module
    from skullcam.web.server_thread import PagesThread

    _, script = make_demo(tmp_path / "demo", n=3, rounds=1)
    monkeypatch.setattr(
        recognizer_module.Recognizer,
        "load",
        staticmethod(lambda *a, **k: FrameKeyedRecognizer(script)),
    )
    data = tmp_path / "data"
    store = GameStore(data)
    last_night = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.finish_game(last_night)
    demo_game, _, _ = start_demo_game(store, DemoGame.load(tmp_path / "demo"))  # stopped
    store.set_camera_missing(True)  # what '--camera none' says as it starts
    first_page: list[Any] = []
    serve = PagesThread.start

    def serve_and_look(pages: Any) -> None:
        first_page.append(store.tv_game())
        serve(pages)

    monkeypatch.setattr(PagesThread, "start", serve_and_look)
    argv = ["run", "--demo", str(tmp_path / "demo"), "--data", str(data), "--port", "0"]
    assert main([*argv, "--speed", "0", "--exit-when-done"]) == 0
    assert [game.id for game in first_page] == [demo_game]
    assert store.game(demo_game).status == "finished"  # the demo resumed and played it out


def test_camera_none_without_web_pages_is_refused(tmp_path: Path, capsys) -> None:
    argv = ["run", "--camera", "none", "--no-web", "--data", str(tmp_path / "d")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--camera none with --no-web has nothing to do" in err and "Drop --no-web" in err
    assert not (tmp_path / "d").exists()  # refused before anything was made


def test_the_pages_thread_stopped_mid_loop_prints_no_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C closes the web server from the main thread while its loop runs in its own:
    the loop can then fail on the sockets just shut, and "Exception in thread web:
    Traceback" came out before "interrupted" now and then. A failure after the close was
    asked for is the stop; one before it is still an error."""
    from skullcam.web.server_thread import PagesThread

    class ServerFailingOnClose:
        """Stands for waitress's server: its loop, its listener, its connections, its
        workers and the pipe that wakes its loop."""

        socket = None

        def __init__(self) -> None:
            self.closed = threading.Event()
            self._map: dict[int, Any] = {}
            self.task_dispatcher = SimpleNamespace(shutdown=lambda **_: True)
            self.trigger = SimpleNamespace(close=lambda: None)

        def run(self) -> None:
            self.closed.wait(5)
            raise OSError(9, "Bad file descriptor")  # select() on a socket close() shut

        def del_channel(self) -> None:  # the listener leaves the loop as it is closed
            self.closed.set()

    failures: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    pages = PagesThread(ServerFailingOnClose())
    pages.start()
    pages.close()
    assert not pages.thread.is_alive() and failures == []

    class ServerFailing(ServerFailingOnClose):
        def run(self) -> None:
            raise OSError(98, "Address in use")  # not a stop: said

    pages = PagesThread(ServerFailing())
    pages.start()
    pages.thread.join(5)
    assert [type(f) for f in failures] == [OSError]


def test_ctrl_c_stops_a_camera_none_run(tmp_path: Path) -> None:
    """Ctrl-C (or systemctl stop) with the pages alone served: exit 130, said, no trace."""
    data = tmp_path / "data"
    cmd = [sys.executable, "-m", "skullcam", "run", "--camera", "none", "--port", "0"]
    proc = subprocess.Popen(
        [*cmd, "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert proc.stderr is not None
        for line in proc.stderr:  # the pages are up once it says where
            if "scoreboard on" in line:
                break
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert "recorded 0 tricks" in out
    assert GameStore(data).games() == []


def test_a_live_camera_that_fails_is_tried_again_with_the_pages_up(
    tmp_path: Path, monkeypatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A USB webcam not there at boot (or unplugged) stopped the run with status 2: under the
    systemd unit a restart every 3 s, the pages down. Now the pages stay up, the TV says
    nothing is recorded, and the camera is tried again until it opens."""
    from skullcam.commands import run as run_module
    from skullcam.device.sources import CameraError, Frame, FrameSource
    from skullcam.vision import recognizer as recognizer_module

    monkeypatch.setattr(
        recognizer_module.Recognizer, "load", staticmethod(lambda *a, **k: FrameKeyedRecognizer([]))
    )
    monkeypatch.setattr(run_module, "CAMERA_RETRY_S", 0.1)
    monkeypatch.setattr(run_module, "CAMERA_REMIND_S", 0.0)  # said again at every try after
    opened: list[str] = []

    class Plugged(FrameSource):
        live = True
        name = "camera 0"

        def frames(self):
            # Frames until the run ends, as a camera plugged in gives them: a camera whose
            # frames ran out mid-game is said on the pages too.
            for i in range(200):
                yield Frame(np.zeros((48, 64, 3), np.uint8), i / 20, i)
                time.sleep(0.05)

    def open_source(spec: str, start: int = 0) -> FrameSource:
        opened.append(spec)
        if len(opened) < 3:
            raise CameraError(f"cannot open camera {spec}: is it plugged in?")
        return Plugged()

    monkeypatch.setattr(live_module, "open_source", open_source)
    store = GameStore(tmp_path / "data")
    store.create_game(["Xan", "Yui", "Zed"], 0, {})
    argv = ["run", "--camera", "0", "--data", str(tmp_path / "data"), "--port", "0"]
    argv += ["--max-seconds", "3"]
    with caplog.at_level("INFO"):
        runner, codes = _run_in_background(argv)
        status = None
        for _ in range(100):
            port = _serving_port(caplog)
            if port is not None and status is None:
                status = _tv_status(port)
            if len(opened) >= 3 and status is not None:
                break
            time.sleep(0.02)
        runner.join(10)
    assert codes == [0] and status == 200
    assert len(opened) >= 3
    said_up = "cannot open camera 0: is it plugged in?; the scoreboard and phone pages stay up"
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    # Said once, not once a try: every 10 s filled a Pi's journal while no camera was there.
    assert sum(said_up in m for m in errors) == 1
    reminders = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert "still no camera after 2 tries: cannot open camera 0" in "\n".join(reminders)
    # Its return is said once, at INFO: nothing said that recording had resumed.
    back = [r for r in caplog.records if "works again" in r.getMessage()]
    assert [r.levelname for r in back] == ["INFO"]
    assert "(cannot open camera 0: is it plugged in?): recording resumes" in back[0].getMessage()
    # Said once when it went (not once a try), cleared by the first frame once it opened.
    said = [e.payload for e in store.events_since(0) if e.kind == "camera"]
    # The pages say the camera fails and is tried again (not to restart with another).
    assert said == [{"missing": True, "why": "camera_failed"}, {"missing": False}]
    assert not store.camera_missing()


def test_a_camera_that_came_back_and_failed_again_is_said_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Said once per failure, not once per try: a camera that worked a while and then failed
    the same way again was only in the debug log, though recording had stopped mid-game."""
    from skullcam.commands import run as run_module
    from skullcam.device.sources import CameraError

    monkeypatch.setattr(run_module, "CAMERA_RETRY_S", 0.01)
    loop = LiveLoop(GameStore(tmp_path / "data"), FrameKeyedRecognizer([]), "0", None)
    frames = iter([0, 0, 40, 40, 40])  # the loop's frame count at each failure
    tries = 0

    def run_for(_loop: object, _left: object) -> None:
        nonlocal tries
        tries += 1
        if tries <= 4:
            monkeypatch.setattr(type(loop.tally), "frames", property(lambda _: next(frames)))
            raise CameraError("camera 0 stopped delivering frames")

    monkeypatch.setattr(live_module, "run_for", run_for)
    stopping = run_module._StopOnSignal(loop)
    try:
        with caplog.at_level("DEBUG", logger="skullcam.commands.run"):
            run_module._run_trying_again(loop, loop.store, stopping, None, True, lambda: False)
    finally:
        stopping.restore()
    said = [r for r in caplog.records if "stopped delivering" in r.getMessage()]
    assert [r.levelname for r in said] == ["ERROR", "DEBUG", "ERROR", "DEBUG"]


def test_a_frozen_camera_is_said_on_the_tv_then_opened_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A webcam whose driver hands out its last picture again delivers frames, so nothing
    said anything: the TV now says the picture froze, and after a while the camera fails, to
    be opened again by ``skullcam run``; the next camera's first frame takes the notice back."""
    from skullcam.device.picture_watch import FROZEN_REOPEN_S
    from skullcam.device.scripted import key_image
    from skullcam.device.sources import CameraError, Frame, FrameSource

    class Freezes(FrameSource):
        live = True
        name = "camera 0"

        def __init__(self, moving: int, frozen: bool) -> None:
            self.moving, self.frozen, self.closed = moving, frozen, threading.Event()

        def frames(self):
            k = 0
            while not self.closed.is_set() and (self.frozen or k < self.moving):
                yield Frame(key_image(min(k, self.moving), (64, 48)), k / 10, k)
                k += 1
                time.sleep(0.001)

        def close(self) -> None:
            self.closed.set()

    cameras = [Freezes(10, frozen=True), Freezes(30, frozen=False)]
    monkeypatch.setattr(live_module, "open_source", lambda spec, start=0: cameras.pop(0))
    store = GameStore(tmp_path / "data")
    store.create_game(["Xan", "Yui", "Zed"], 0, {})
    with caplog.at_level("INFO"):
        loop = LiveLoop(store, FrameKeyedRecognizer([]), "0", None, data_dir=tmp_path / "data")
        with pytest.raises(CameraError, match=f"the same picture for {FROZEN_REOPEN_S:.0f} s"):
            loop.run()
    assert store.camera_notice() == {"why": "frozen"}
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    # Since the frame it froze on, or a later one: a live camera's reader drops frames, and
    # on a loaded machine it is first said a second later ("for 4 s", in a full-suite run).
    assert any(
        re.match(r"camera 0: the same picture for [34] s \(since frame 1\d\)", m) for m in warned
    )
    assert loop.tally.frames <= 11 + 2  # the repeats were not recognized
    LiveLoop(store, FrameKeyedRecognizer([]), "0", None, data_dir=tmp_path / "data").run()
    assert store.camera_notice() is None
    said = [e.payload for e in store.events_since(0) if e.kind == "camera"]
    assert said == [{"notice": {"why": "frozen"}}, {"notice": None}]


@pytest.mark.parametrize("failure", ["not the camera", "camera, exit when done"])
def test_a_run_serving_pages_ends_when_trying_the_camera_again_would_not_help(
    tmp_path: Path, monkeypatch, failure: str
) -> None:
    """Only the camera's own failures are tried again (a full disk or a broken model ends
    the run, as before); and with --exit-when-done, a game finished by hand while the camera
    is away ends it (it tried the camera for ever)."""
    from skullcam.commands import run as run_module
    from skullcam.device.sources import CameraError, FrameSource
    from skullcam.vision import recognizer as recognizer_module

    monkeypatch.setattr(
        recognizer_module.Recognizer, "load", staticmethod(lambda *a, **k: FrameKeyedRecognizer([]))
    )
    monkeypatch.setattr(run_module, "CAMERA_RETRY_S", 0.1)
    store = GameStore(tmp_path / "data")
    gid = store.create_game(["Xan", "Yui", "Zed"], 0, {})
    tries: list[str] = []

    def open_source(spec: str, start: int = 0) -> FrameSource:
        tries.append(spec)
        if failure == "not the camera":
            raise UserError("cannot write the trick's image: the disk is full")
        if len(tries) == 2:
            store.finish_game(gid)
        raise CameraError(f"cannot open camera {spec}: is it plugged in?")

    monkeypatch.setattr(live_module, "open_source", open_source)
    argv = ["run", "--camera", "0", "--data", str(tmp_path / "data"), "--port", "0"]
    gc.disable()  # the run's lock is released by the run, not by a collection
    try:
        runner, codes = _run_in_background([*argv, "--exit-when-done", "--max-seconds", "20"])
        runner.join(10)
        assert not runner.is_alive()
        lock = str((tmp_path / "data" / "run.lock").resolve())
        assert lock not in _open_files_under(tmp_path / "data")
    finally:
        gc.enable()
    if failure == "not the camera":
        assert codes == [2] and tries == ["0"] and not store.camera_missing()
    else:
        assert codes == [0] and len(tries) == 2


def test_demo_games_are_marked_and_only_the_newest_kept(tmp_path: Path) -> None:
    from skullcam.device.demo_game import prune_demo_games, start_demo_game
    from skullcam.device.live import game_to_record

    make_demo(tmp_path / "demo")
    demo = DemoGame.load(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    table = _table_game(store, demo.record)
    store.finish_game(table)
    made = []
    for _ in range(4):
        gid, start, _guard = start_demo_game(store, demo)
        assert start == 0 and game_to_record(store) is None  # the demo's, before any trick
        assert start_demo_game(store, demo)[0] == gid  # a restart resumes it
        made.append(gid)
        store.finish_game(gid)
    prune_demo_games(store, keep=2)
    assert sorted(g.id for g in store.games()) == [table, *made[2:]]
    assert not (tmp_path / "data" / "games" / str(made[0])).exists()
    # Their events go too: a TV looping the demo kept about 40 a game, for ever.
    games_with_events = {e.game_id for e in store.events_since(0, limit=10_000)}
    assert games_with_events - {None} == {table, *made[2:]}


class SetsUpAGame:
    """The demo's recognizer, and a table setting up its own game on the web page part way."""

    version = "keyed"

    def __init__(self, script: list, store: GameStore, at_call: int) -> None:
        self.inner = FrameKeyedRecognizer(script)
        self.store, self.at_call, self.calls = store, at_call, 0
        self.table: int | None = None

    def __call__(self, frame: np.ndarray) -> list:
        self.calls += 1
        if self.calls == self.at_call:
            self.table = self.store.create_game(["Xan", "Yui", "Zed"], 0, {})
        return self.inner(frame)


def test_the_demo_stops_for_a_game_set_up_while_it_played(tmp_path: Path) -> None:
    """A looping demo's next game took the table from it: the table's game was left 'active'
    out of the TV's and the camera's reach."""
    _record, script = make_demo(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    recognizer = SetsUpAGame(script, store, at_call=50)
    loop = LiveLoop(store, recognizer, None, DemoGame.load(tmp_path / "demo"))
    loop.speed, loop.next_games = 0, True
    loop.run()  # returns after the demo game it was playing: no second one
    active = store.active_game()
    assert recognizer.table is not None and active is not None and active.id == recognizer.table
    assert len(store.games()) == 2


def test_the_demo_stops_within_a_second_of_a_table_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """It played the rest of its own game first (a minute or more at real speed) while the
    table's game, set up on the web page, looked watched and was not."""
    _record, script = make_demo(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    recognizer = SetsUpAGame(script, store, at_call=5)
    loop = LiveLoop(store, recognizer, None, DemoGame.load(tmp_path / "demo"))
    loop.speed, loop.next_games = 4.0, True
    loop.run()
    # At 4 x the demo's rate a second is a few dozen frames, far from the demo's end.
    assert recognizer.calls < len(script) // 2, (recognizer.calls, len(script))
    assert f"game {recognizer.table} was set up on the web page: the demo stops" in caplog.text
    active = store.active_game()
    assert active is not None and active.id == recognizer.table
    assert store.camera_missing()  # the TV says the table's game is not recorded
    # The next run that plays (a camera found, or the demo with no table game) says it no more.
    store.finish_game(recognizer.table)
    again = LiveLoop(store, FrameKeyedRecognizer(script), None, DemoGame.load(tmp_path / "demo"))
    again.speed, again.next_games = 0, False
    again.run()
    assert not store.camera_missing()


def test_a_demo_game_finished_on_the_web_page_is_followed_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the demo followed the active game, finishing its game on the web page ended the
    looping demo for good, the TV left on a finished demo game."""
    monkeypatch.setattr(live_module, "DEMO_PAUSE_S", 0.05)
    _record, script = make_demo(tmp_path / "demo")
    store = GameStore(tmp_path / "data")

    class FinishesTheDemo(FrameKeyedRecognizer):
        calls = 0

        def __call__(self, frame: np.ndarray) -> list:
            self.calls += 1
            if self.calls == 5:
                active = store.active_game()
                assert active is not None
                store.finish_game(active.id)
            return super().__call__(frame)

    loop = LiveLoop(store, FinishesTheDemo(script), None, DemoGame.load(tmp_path / "demo"))
    # Paced (not at speed 0): the game is asked after at most a second, before the demo's end.
    loop.speed, loop.next_games = 4.0, True
    loop.start()
    for _ in range(200):
        if len(store.games()) >= 2:
            break
        time.sleep(0.05)
    loop.stop.set()
    assert loop.join(10)
    assert len(store.games()) >= 2, "no next demo game after the first was finished by hand"
    assert loop.error is None


def test_a_demo_that_cannot_write_its_images_leaves_no_game_behind(tmp_path: Path) -> None:
    """Was: a traceback, and the unmarked game left "in progress" blocked every later demo."""
    from skullcam.device.demo_game import start_demo_game

    make_demo(tmp_path / "demo")
    demo = DemoGame.load(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    (tmp_path / "data" / "games").write_text("not a folder")
    with pytest.raises(UserError, match=r"cannot write the game's images under .*games"):
        start_demo_game(store, demo)
    assert store.games() == []
    (tmp_path / "data" / "games").unlink()
    gid, start, _guard = start_demo_game(store, demo)
    assert start == 0 and [g.id for g in store.games()] == [gid]


def test_a_demo_game_is_marked_before_another_program_can_see_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mark was written just after the game's row: a kill in between left an unmarked
    game that passed for a table's (the camera then refused it as the table's game, and
    every later demo waited for it). It is also on disk, bytes and name, before the row
    commits: a plain write could be lost to a power cut that kept the row (synced at commit)."""
    import sqlite3
    import stat

    from skullcam.device.demo_game import DEMO_MARK, start_demo_game

    make_demo(tmp_path / "demo")
    demo = DemoGame.load(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    seen: list[tuple[str, int]] = []
    real_replace, real_fsync = os.replace, os.fsync

    def games_committed() -> int:
        other = sqlite3.connect(store.path)
        try:
            return int(other.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            other.close()

    def replacing(src: str | Path, dst: str | Path) -> None:
        real_replace(src, dst)
        if Path(dst).name == DEMO_MARK:
            seen.append(("marked", games_committed()))

    def syncing(fd: int) -> None:
        real_fsync(fd)
        if stat.S_ISDIR(os.fstat(fd).st_mode) and os.fstat(fd).st_ino == folder_inode():
            seen.append(("folder synced", games_committed()))

    def folder_inode() -> int:
        folders = list((tmp_path / "data" / "games").glob("*"))
        return folders[0].stat().st_ino if folders else -1

    monkeypatch.setattr(os, "replace", replacing)
    monkeypatch.setattr(os, "fsync", syncing)
    gid, _start, _guard = start_demo_game(store, demo)
    # The mark renamed into the game's folder, and that folder synced after it, while no game
    # was committed.
    assert seen[:1] == [("marked", 0)]
    assert ("folder synced", 0) in seen[1:]
    assert (store.game_dir(gid) / DEMO_MARK).is_file()


def test_a_trick_corrected_on_the_web_is_known_on_the_table_after_a_restart(
    tmp_path: Path,
) -> None:
    """The camera sees the cards it first read (misread again), not the corrected ones: the
    trick lying there was recorded a second time, and every later trick went one place off."""
    from skullcam.device.resume_point import last_trick_cards

    store = GameStore(tmp_path / "data")
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    assert last_trick_cards(store, gid) == []
    seen = [{"player": 1, "card": "green-5"}, {"player": 2, "card": "green-9"}]
    store.record_trick(gid, 1, 0, [*seen, {"player": 0, "card": "green-7"}])
    assert last_trick_cards(store, gid) == [["green-5", "green-9", "green-7"]]
    store.correct_play(gid, 1, 0, 2, card="green-1")
    assert last_trick_cards(store, gid) == [
        ["green-5", "green-9", "green-1"],
        ["green-5", "green-9", "green-7"],
    ]


def test_a_game_the_camera_saw_end_is_recorded_into_again_once_resumed(tmp_path: Path) -> None:
    """The camera kept every game it had seen end as done for good: a game finished by
    mistake and resumed on the Settings page went unrecorded until skullcam run restarted."""
    from skullcam.device.live import game_to_record

    store = GameStore(tmp_path / "data")
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"rounds": 2})
    assert game_to_record(store, {}) == gid
    store.finish_game(gid)
    done = {gid: store.last_event_id()}  # what the camera loop keeps when a game ends
    assert game_to_record(store, done) is None
    store.resume_game(gid)
    assert game_to_record(store, done) == gid
    # A game the camera saw end that is active without being reopened stays done (the
    # camera's own reading of its end, the store not yet caught up).
    again = {gid: store.last_event_id()}
    assert game_to_record(store, again) is None


def test_tricks_a_held_database_kept_out_are_recorded_before_a_recording_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program holds the database from a quarter of the game to the end of the frames
    there are: the run ends saying the waiting tricks are kept, and the next run (the rest of
    the frames in) records them before it works out where the recording resumes: after them,
    so none is lost and none recorded twice."""
    import shutil
    import sqlite3

    from skullcam.device.recorder import StoreRecorder

    monkeypatch.setattr(StoreRecorder, "CLOSE_WAIT_S", 0.3)
    camera = tmp_path / "camera"
    record, script, frames, store, gid = _half_a_game_in(camera, tmp_path)
    other = sqlite3.connect(store.path, isolation_level=None)

    class HoldsTheDatabase(FrameKeyedRecognizer):
        calls = 0

        def __call__(self, frame: np.ndarray) -> list:
            self.calls += 1
            if self.calls == len(script) // 4:
                other.execute("BEGIN EXCLUSIVE")
            return super().__call__(frame)

    loop = LiveLoop(store, HoldsTheDatabase(script), str(camera), None, data_dir=store.data_dir)
    loop.speed = 0
    with pytest.raises(UserError, match=r"not recorded yet; (it is|they are) kept in"):
        loop.run()
    other.execute("COMMIT")
    other.close()
    assert (store.game_dir(gid) / "unrecorded.json").is_file()
    recorded_before = len(store.tricks(gid))
    for frame in frames[len(frames) // 2 :]:
        shutil.copy(frame, camera / frame.name)
    _record_from(camera, store, script)
    assert recorded_before < len(store.tricks(gid))
    assert recorded_rounds(store, gid) == truth_rounds(record)
    assert not (store.game_dir(gid) / "unrecorded.json").exists()  # taken, not read again


def test_a_demo_game_resumed_after_a_restart_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A recording's resume was said, the demo's was not: the board simply carried on."""
    from skullcam.device.demo_game import DEMO_SOURCE, start_demo_game

    make_demo(tmp_path / "demo")
    demo = DemoGame.load(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    gid, _, _ = start_demo_game(store, demo)
    first = demo.record["rounds"][0]["tricks"][0]["plays"]
    store.record_trick(gid, 1, 0, first, detections={"source": DEMO_SOURCE, "frame_index": 40})
    with caplog.at_level(logging.INFO, logger="skullcam.device.demo_game"):
        assert start_demo_game(store, demo)[:2] == (gid, 41)
    assert f"resuming the demo's game {gid} at frame 41" in caplog.text


def test_kept_tricks_of_a_game_no_longer_the_newest_or_finished_are_recorded_into_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Only the newest active game's kept tricks were looked for: a table that set up another
    game before the restart left the first game's tricks unrecorded, without a word. A
    finished game's were kept for a resume the Settings page refuses while the table plays
    its next game: they go into it, as a running camera writes them into a game finished on
    the web page (they were played there)."""
    from recorded_tricks import held, trick

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path / "data")
    frame = Frame(np.zeros((48, 64, 3), np.uint8), 1.2, 12)
    kept = []
    for _ in range(2):
        gid = store.create_game(["a", "b", "c"], 2, {})
        store.set_bids(gid, 1, [0, 1, 0])
        recorder = StoreRecorder(store, gid, "m1")
        first = referee_from_store(store, gid).add(trick(["green-3", "green-9", "green-5"]))
        with held(store.path):
            recorder.on_trick(first, frame, [])
        kept.append(gid)
    store.finish_game(kept[1])
    newest = store.create_game(["x", "y"], 0, {})
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    loop.stop.set()  # what a run does before it watches anything
    with caplog.at_level(logging.WARNING, logger="skullcam.device.live"):
        loop.run()
    assert len(store.tricks(kept[0])) == 1  # an older game, still in progress: recorded
    assert len(store.tricks(kept[1])) == 1 and "that game is finished" not in caplog.text
    assert not (store.game_dir(kept[1]) / "unrecorded.json").exists()
    assert store.game(kept[1]).status == "finished"
    assert store.tricks(newest) == []


def test_a_finished_games_kept_tricks_go_in_once_after_a_crash_without_holding_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Two tricks waited for a held database, the game was finished on the web page, and the
    run was killed between the first one's transaction and the list's rewrite. The next
    start, the database held again, kept the list and named it ("that game is finished"):
    the second trick was never written. It now goes into its game, the first not twice, and
    the start does not wait for the database: the camera watches the table meanwhile."""
    from recorded_tricks import held, trick

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path / "data")
    gid = store.create_game(["a", "b", "c"], 2, {})
    store.set_bids(gid, 1, [0, 1, 0])
    recorder = StoreRecorder(store, gid, "m1")
    ref = referee_from_store(store, gid)
    played = [["green-3", "green-9", "green-5"], ["yellow-2", "yellow-4", "yellow-1"]]
    with held(store.path):
        for cards in played:
            recorder.on_trick(ref.add(trick(cards)), Frame(np.zeros((8, 8, 3), np.uint8), 1, 1), [])
    store.finish_game(gid)
    record = recorder.filer.record

    def killed_after_the_first(*args: Any) -> None:
        if store.tricks(gid):
            raise SystemExit("killed")
        record(*args)

    monkeypatch.setattr(recorder.filer, "record", killed_after_the_first)
    with pytest.raises(SystemExit):
        recorder.flush()
    kept = store.game_dir(gid) / "unrecorded.json"
    assert kept.is_file() and len(store.tricks(gid)) == 1  # as the kill left them
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    with held(store.path), caplog.at_level(logging.INFO, logger="skullcam.device.live"):
        loop._take_kept()  # returns at once: the camera goes on to watch the table
        assert loop.left.holds(gid)
    loop.left.write()  # as the camera does each second
    assert [[p["card"] for p in t.plays] for t in store.tricks(gid)] == played
    assert not kept.exists() and not loop.left.holds(gid)
    assert f"game {gid} is finished while its tricks from round 2 trick 1 on wait" in caplog.text


def test_a_kept_list_whose_tricks_all_went_in_is_dropped_not_named_at_each_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A power cut between the transaction of the game's last trick, which had waited for a
    held database, and the removal of the list that kept it, left ``unrecorded.json`` naming
    a trick recorded already, in a game its last trick finished. Every start then said the
    file held tricks it could not record, and to resume the game, which a played-out game
    cannot be: the list stayed, and the warning came back at each boot. The list is dropped
    once all it names is in, and nothing is recorded twice."""
    from recorded_tricks import held, trick

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path / "data")
    gid = store.create_game(["a", "b", "c"], 2, {"rounds": 1})
    recorder = StoreRecorder(store, gid, "m1")
    last = referee_from_store(store, gid).add(trick(["green-3", "green-9", "green-5"]))
    kept = store.game_dir(gid) / "unrecorded.json"
    with held(store.path):
        recorder.on_trick(last, Frame(np.zeros((8, 8, 3), np.uint8), 1, 1), [])
    listed = kept.read_bytes()
    assert recorder.flush() and store.game(gid).status == "finished"
    kept.write_bytes(listed)  # as the power cut left it
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    loop.stop.set()  # what a run does before it watches anything
    with caplog.at_level(logging.INFO, logger="skullcam.device.live"):
        loop.run()
    assert "could not" not in caplog.text
    assert not kept.exists()
    assert len(store.tricks(gid)) == 1


def test_kept_tricks_wait_for_a_database_still_held_at_start_instead_of_ending_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the database still held when the next run started, the pickup gave up after
    ``CLOSE_WAIT_S`` and ended the run; under systemd it restarted over and over, the pages
    down each time. It now waits, as tricks from the camera do, and a stop loses nothing."""
    from recorded_tricks import held, trick

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    monkeypatch.setattr(StoreRecorder, "CLOSE_WAIT_S", 0.2)
    store = GameStore(tmp_path / "data")
    gid = store.create_game(["a", "b", "c"], 2, {})
    store.set_bids(gid, 1, [0, 1, 0])
    first = referee_from_store(store, gid).add(trick(["green-3", "green-9", "green-5"]))
    with held(store.path):
        StoreRecorder(store, gid, "m1").on_trick(
            first, Frame(np.zeros((8, 8, 3), np.uint8), 1, 1), []
        )
    kept = store.game_dir(gid) / "unrecorded.json"
    assert kept.is_file()
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    with held(store.path):
        loop._thread = threading.Thread(target=loop._take_kept)  # the run's first step
        loop._thread.start()
        assert not loop.join(timeout=1.5)  # still waiting, long after CLOSE_WAIT_S
    assert loop.join(timeout=10)  # free again: recorded, and the run goes on
    assert [t.plays[0]["card"] for t in store.tricks(gid)] == ["green-3"]
    assert not kept.exists()

    second = referee_from_store(store, gid).add(trick(["yellow-2", "yellow-4", "yellow-1"]))
    with held(store.path):
        StoreRecorder(store, gid, "m1").on_trick(
            second, Frame(np.zeros((8, 8, 3), np.uint8), 1, 1), []
        )
        loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
        loop.stop.set()  # stopped while it waits
        loop._take_kept()
    assert kept.is_file() and len(store.tricks(gid)) == 1  # kept for the next run


def _beside_a_dry_run(tmp_path: Path) -> tuple[dict, list, Path, list[Trick], GameStore, int]:
    """The demo's game recorded from its frames into a store of its own, nothing done at the
    table (the dry run: which frame completes each trick), and the same game set up for the
    table in a fresh store. Returns (record, script, the frames folder, the dry run's tricks,
    the table's store, its game id)."""
    record, script = make_demo(tmp_path / "demo")
    camera = tmp_path / "demo" / "frames"
    dry = GameStore(tmp_path / "dry")
    calibrate_seats(dry.data_dir)
    dry_game = _table_game(dry, record)
    _record_from(camera, dry, script)
    store = GameStore(tmp_path / "data")
    calibrate_seats(store.data_dir)
    return record, script, camera, dry.tricks(dry_game), store, _table_game(store, record)


def _entered_as_the_camera_completes_it(
    tmp_path: Path, first: str, change: dict[int, str] | None = None
) -> tuple[dict, GameStore, int, list[str]]:
    """The demo's game recorded from its frames while the table enters round 2's first trick
    by hand on the very frame the camera completes it (``first="hand"``: the camera asks
    about hand entries once a second), or on the frame after (``"camera"``); ``change``: the
    cards the table enters otherwise, by player. Returns (record, store, game id, the
    refusals the hand entry met)."""
    record, script, camera, dry_tricks, store, gid = _beside_a_dry_run(tmp_path)
    done = dry_tricks[1].source_info["frame_index"] + (first == "camera")
    entered = [
        {**p, "card": (change or {}).get(p["player"], p["card"])}
        for p in record["rounds"][1]["tricks"][0]["plays"]
    ]
    refused: list[str] = []

    class EntersItByHand(FrameKeyedRecognizer):
        def __call__(self, frame: np.ndarray) -> list:
            if int(frame[0, 0, 0]) | int(frame[0, 0, 1]) << 8 == done:
                try:
                    store.enter_trick(gid, 2, 0, entered)
                except UserError as err:
                    refused.append(str(err))
            return super().__call__(frame)

    loop = LiveLoop(store, EntersItByHand(script), str(camera), None, data_dir=store.data_dir)
    # Frames come as fast as they are read: asked once a second, a loaded machine took the
    # entry up tricks later, half-way through round 3 trick 2 (1 run in 17 flagged it).
    loop.speed, loop.next_games, loop.watch_every_s = 0, False, 0.0
    loop.run()
    return record, store, gid, refused


def test_a_change_at_the_table_while_tricks_wait_for_a_held_database_does_not_end_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table changed a house rule just before another program took the database, and
    round 2's first trick, completed then, waited for it. Following the change, the camera
    wrote what waited before rebuilding its state from the store: it waited ``CLOSE_WAIT_S``
    for the database, then ended the run ("... stayed in use by another program"). It now
    goes on watching the table with the state it has, the tricks waiting in order, and
    rebuilds once they are written: every trick is in its place."""
    import sqlite3

    from skullcam.device.recorder import StoreRecorder

    monkeypatch.setattr(StoreRecorder, "CLOSE_WAIT_S", 0.3)
    monkeypatch.setattr(StoreRecorder, "WAIT_S", 0.02)  # each frame's try, while held
    record, script, camera, dry_tricks, store, gid = _beside_a_dry_run(tmp_path)
    done = [t.source_info["frame_index"] for t in dry_tricks]
    other: list[sqlite3.Connection] = []

    class HoldsTheDatabase(FrameKeyedRecognizer):
        """The change and the hold on the frame that completes round 2's first trick; the
        hold lasts until the frame after round 2's second completes."""

        def __call__(self, frame: np.ndarray) -> list:
            index = int(frame[0, 0, 0]) | int(frame[0, 0, 1]) << 8
            if index == done[1]:
                store.update_settings(gid, {"loot": not record["settings"].get("loot", False)})
                other.append(sqlite3.connect(store.path, isolation_level=None))
                other[0].execute("BEGIN EXCLUSIVE")
            elif index == done[2] + 1 and other and other[0].in_transaction:
                other[0].execute("COMMIT")
            return super().__call__(frame)

    loop = LiveLoop(store, HoldsTheDatabase(script), str(camera), None, data_dir=store.data_dir)
    loop.speed, loop.next_games, loop.watch_every_s = 0, False, 0.0
    try:
        loop.run()
    finally:
        for conn in other:
            if conn.in_transaction:
                conn.execute("COMMIT")
            conn.close()
    assert recorded_rounds(store, gid) == truth_rounds(record)
    assert not (store.game_dir(gid) / "unrecorded.json").exists()


def test_a_run_stopped_while_tricks_wait_behind_a_change_at_the_table_keeps_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table changed a house rule and another program took the database as round 2's
    first trick completed; the camera went on watching, and the run was stopped (Ctrl-C)
    after round 2's second, both waiting: they are kept on disk, and the next start records
    them in their places."""
    import sqlite3

    from skullcam.device.recorder import StoreRecorder

    monkeypatch.setattr(StoreRecorder, "CLOSE_WAIT_S", 0.3)
    monkeypatch.setattr(StoreRecorder, "WAIT_S", 0.02)
    record, script, camera, dry_tricks, store, gid = _beside_a_dry_run(tmp_path)
    done = [t.source_info["frame_index"] for t in dry_tricks]
    other = sqlite3.connect(store.path, isolation_level=None)
    loop: LiveLoop

    class HoldsTheDatabase(FrameKeyedRecognizer):
        def __call__(self, frame: np.ndarray) -> list:
            index = int(frame[0, 0, 0]) | int(frame[0, 0, 1]) << 8
            if index == done[1]:
                store.update_settings(gid, {"loot": not record["settings"].get("loot", False)})
                other.execute("BEGIN EXCLUSIVE")
            elif index == done[2] + 1:
                loop.stop.set()
            return super().__call__(frame)

    loop = LiveLoop(store, HoldsTheDatabase(script), str(camera), None, data_dir=store.data_dir)
    loop.speed, loop.next_games, loop.watch_every_s = 0, False, 0.0
    try:
        with pytest.raises(UserError, match="kept in"):
            loop.run()
        assert [(t.round, t.trick) for t in store.tricks(gid)] == [(1, 0)]
    finally:
        other.execute("COMMIT")
        other.close()
    StoreRecorder(store, gid, "m").take_kept()
    cards = [[p["card"] for p in t.plays] for t in store.tricks(gid)]
    assert cards == [[p["card"] for p in t.plays] for t in dry_tricks[:3]]
    assert not (store.game_dir(gid) / "unrecorded.json").exists()


def _game_left_while_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, left: str, freed: bool
) -> tuple[GameStore, int, int, list[Trick]]:
    """The demo's game recorded from its frames with ``next_games``: another program holds
    the database from the frame that completes round 2's first trick; two frames on the table
    leaves the game, the database free for the table's writes only: ``left`` is "replaced"
    (the next game set up), "finished" (finished, and the next set up) or "resumed"
    (finished, and resumed on the Settings page, the hold ended, as the camera waits for the
    next game). On the frame after round 2's second trick (the new game's first) the hold
    ends (``freed``), or the run is stopped (Ctrl-C) while it lasts. Returns (store, the
    first game, the game the camera went on with, the dry run's tricks)."""
    import sqlite3

    from skullcam.device.recorder import StoreRecorder

    monkeypatch.setattr(StoreRecorder, "CLOSE_WAIT_S", 0.3)
    monkeypatch.setattr(StoreRecorder, "WAIT_S", 0.02)  # each frame's try, while held
    record, script, camera, dry_tricks, store, gid = _beside_a_dry_run(tmp_path)
    done = [t.source_info["frame_index"] for t in dry_tricks]
    other = sqlite3.connect(store.path, isolation_level=None)
    new: list[int] = []

    class LeavesTheGame(FrameKeyedRecognizer):
        def __call__(self, frame: np.ndarray) -> list:
            index = int(frame[0, 0, 0]) | int(frame[0, 0, 1]) << 8
            if index == done[1]:
                other.execute("BEGIN EXCLUSIVE")
            elif index == done[1] + 2 and not new:
                other.execute("COMMIT")
                if left != "replaced":
                    store.finish_game(gid)
                new.append(gid if left == "resumed" else _table_game(store, record))
                other.execute("BEGIN EXCLUSIVE")
            elif index == done[2] + 1 and other.in_transaction:
                if freed:
                    other.execute("COMMIT")
                else:
                    loop.stop.set()
            return super().__call__(frame)

    waiting = live_module.wait_for_game

    def the_table(*args: Any, **kwargs: Any) -> int | None:
        seen_out = kwargs.get("done", args[2] if len(args) > 2 else None) or {}
        if left == "resumed" and other.in_transaction:
            other.execute("COMMIT")
            store.resume_game(gid)
        elif new and new[0] in seen_out:
            loop.stop.set()  # the next game seen out before the frames end: none follows
        return waiting(*args, **kwargs)

    monkeypatch.setattr(live_module, "wait_for_game", the_table)
    loop = LiveLoop(store, LeavesTheGame(script), str(camera), None, data_dir=store.data_dir)
    loop.speed, loop.next_games, loop.watch_every_s = 0, True, 0.0
    try:
        loop.run()  # until the frames end
    finally:
        if other.in_transaction:
            other.execute("COMMIT")
        other.close()
    return store, gid, new[0], dry_tricks


@pytest.mark.parametrize("left", ["replaced", "finished"])
def test_a_game_left_on_the_web_page_while_a_trick_waits_for_the_database_is_followed_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, left: str
) -> None:
    """Another program held the database as round 2's first trick completed, and the table
    set up its next game on the web page (the game before finished, or left unfinished)
    while the trick waited. The camera waited ``CLOSE_WAIT_S`` for the database, the table
    unwatched, then ended the run ("... stayed in use by another program"). It now follows
    the new game at once, the trick waiting on disk, and writes it into its game as soon as
    the database is free."""
    store, gid, new, dry_tricks = _game_left_while_held(tmp_path, monkeypatch, left, True)
    cards = [[p["card"] for p in t.plays] for t in store.tricks(gid)]
    assert cards == [[p["card"] for p in t.plays] for t in dry_tricks[:2]]
    assert not (store.game_dir(gid) / "unrecorded.json").exists()
    # The camera went on with the table's new game: round 2's first trick, still on the
    # table as it began, is not its first; the trick after is.
    (first, *_) = store.tricks(new)
    assert [p["card"] for p in first.plays] == [p["card"] for p in dry_tricks[2].plays]


def test_a_left_games_trick_still_waiting_as_the_run_stops_is_kept_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The run is stopped with the database still held: the new game's waiting trick is the
    run's error, as before, and the left game's, kept on disk too, is said in the log."""
    run_error = r"round 1 trick 1 on is not recorded yet; .*games/2/unrecorded"
    logged = caplog.at_level(logging.ERROR, logger="skullcam.device.live")
    with logged, pytest.raises(UserError, match=run_error):
        _game_left_while_held(tmp_path, monkeypatch, "replaced", freed=False)
    assert "1 trick from round 2 trick 1 on is not recorded yet; it is kept in" in caplog.text
    store = GameStore(tmp_path / "data")
    assert [len(store.tricks(g)) for g in (1, 2)] == [1, 0]
    assert all((store.game_dir(g) / "unrecorded.json").is_file() for g in (1, 2))


def test_a_left_games_trick_still_waiting_when_the_loop_is_tried_again_is_written_by_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The camera failed (``skullcam run`` tries the loop again) while a trick of a game
    finished on the web page waited for a held database. The loop's end dropped it from
    memory, and the loop's next start found it on disk in a finished game: it named the
    file, "resume the game ... and run again" (refused while the table plays its next game),
    and the trick was never written; in a game replaced instead, the start waited for the
    database with the table unwatched. The games left before keep what they could not
    write, and the next start leaves those games to them."""
    from recorded_tricks import held, trick

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path / "data")
    gid = store.create_game(["a", "b", "c"], 2, {})
    store.finish_game(gid)  # on the web page, as its trick completes
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    recorder = StoreRecorder(store, gid, "m1")
    first = referee_from_store(store, gid).add(trick(["green-3", "green-9", "green-5"]))
    with held(store.path):
        recorder.on_trick(first, Frame(np.zeros((8, 8, 3), np.uint8), 1, 1), [])
        loop.left.leave(recorder)
        # The loop ends with the camera's error, its one wait for the database spent.
        loop.left.close(quietly=True, since=time.monotonic() - StoreRecorder.CLOSE_WAIT_S)
    loop.stop.set()  # tried again: the start, then the end
    with caplog.at_level(logging.WARNING, logger="skullcam.device.live"):
        loop.run()
    assert "that game is finished" not in caplog.text
    assert [t.plays[0]["card"] for t in store.tricks(gid)] == ["green-3"]
    assert not (store.game_dir(gid) / "unrecorded.json").exists()


def test_a_stop_with_tricks_of_two_games_waiting_waits_one_close_wait_for_them_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped while the database is held, with the new game's trick and a left game's trick
    waiting: the new game's waited ``CLOSE_WAIT_S``, then the left game's as long again, so
    a Ctrl-C took up to 40 s to exit. Both now end at one deadline; each is kept on disk."""
    from skullcam.device.waiting_tricks import WaitingTricks

    deadlines: list[float] = []
    close = WaitingTricks.close

    def timed(self: WaitingTricks, close_wait_s: float, *since: float | None) -> None:
        if self.pending:  # a game left at its end, with nothing waiting, is no wait
            start = since[0] if since and since[0] is not None else time.monotonic()
            deadlines.append(start + close_wait_s)
        close(self, close_wait_s, *since)

    monkeypatch.setattr(WaitingTricks, "close", timed)
    with pytest.raises(UserError, match="not recorded yet"):
        _game_left_while_held(tmp_path, monkeypatch, "replaced", freed=False)
    assert len(deadlines) == 2 and deadlines[0] == deadlines[1]
    store = GameStore(tmp_path / "data")
    assert all((store.game_dir(g) / "unrecorded.json").is_file() for g in (1, 2))


def test_a_game_resumed_while_its_trick_waited_takes_the_trick_in_first_and_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Finished on the web page while round 2's first trick waited for a held database, the
    game is resumed as the camera waits for the next one: the camera takes it up again with
    the waiting trick in first, once. Every trick is in its place, nothing refused."""
    with caplog.at_level(logging.WARNING, logger="skullcam.device"):
        store, gid, _, dry_tricks = _game_left_while_held(tmp_path, monkeypatch, "resumed", True)
    cards = [[p["card"] for p in t.plays] for t in store.tricks(gid)]
    assert cards == [[p["card"] for p in t.plays] for t in dry_tricks]
    assert not (store.game_dir(gid) / "unrecorded.json").exists()
    assert "not recorded" not in caplog.text


def test_a_games_last_trick_waiting_for_the_database_does_not_end_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Another program held the database as the game's last trick completed: the camera
    waited ``CLOSE_WAIT_S`` for it, then ended the run ("... stayed in use by another
    program"), and the table's next game went unwatched until a restart. The game's end now
    leaves the trick waiting as a game left on the web page does: the camera waits for the
    next game at once, the database still held, and writes the trick into its game once the
    database is free; the log says the game is over, not that a place is left free."""
    import sqlite3

    from skullcam.device.recorder import StoreRecorder

    monkeypatch.setattr(StoreRecorder, "CLOSE_WAIT_S", 0.3)
    monkeypatch.setattr(StoreRecorder, "WAIT_S", 0.02)
    _record, script, camera, dry_tricks, store, gid = _beside_a_dry_run(tmp_path)
    last = dry_tricks[-1].source_info["frame_index"]
    other = sqlite3.connect(store.path, isolation_level=None)
    held_at_the_next_game: list[bool] = []

    class HoldsTheLastTrick(FrameKeyedRecognizer):
        def __call__(self, frame: np.ndarray) -> list:
            if int(frame[0, 0, 0]) | int(frame[0, 0, 1]) << 8 == last:
                other.execute("BEGIN EXCLUSIVE")
            return super().__call__(frame)

    waiting = live_module.wait_for_game
    loop: LiveLoop

    def the_table(store: GameStore, stop: threading.Event, done: Any, meanwhile: Any) -> Any:
        held_at_the_next_game.append(other.in_transaction)
        if other.in_transaction:
            other.execute("COMMIT")

        def then() -> None:  # the trick written meanwhile: the test ends there
            meanwhile()
            if not loop.left.recorders:
                loop.stop.set()

        return waiting(store, stop, done, meanwhile=then)

    monkeypatch.setattr(live_module, "wait_for_game", the_table)
    loop = LiveLoop(store, HoldsTheLastTrick(script), str(camera), None, data_dir=store.data_dir)
    loop.speed, loop.next_games, loop.watch_every_s = 0, True, 0.0
    try:
        with caplog.at_level(logging.INFO, logger="skullcam.device.live"):
            loop.run()
    finally:
        if other.in_transaction:
            other.execute("COMMIT")
        other.close()
    assert held_at_the_next_game == [False, True]  # on to the next game, the trick waiting
    cards = [[p["card"] for p in t.plays] for t in store.tricks(gid)]
    assert cards == [[p["card"] for p in t.plays] for t in dry_tricks]
    assert store.game(gid).status == "finished"
    assert not (store.game_dir(gid) / "unrecorded.json").exists()
    assert f"game {gid} has ended while its tricks from round" in caplog.text
    assert f"game {gid} is over" in caplog.text and "entered by hand" not in caplog.text


def test_a_demo_games_last_trick_waiting_for_the_database_is_written_before_the_next_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The looping demo's last trick waited for a held database: the run waited
    ``CLOSE_WAIT_S`` and ended. Now the trick waits as a camera game's does, and the demo
    prunes its games and starts the next only once it is in (those writes would fail on the
    held database)."""
    import sqlite3

    from skullcam.device.recorder import StoreRecorder

    monkeypatch.setattr(StoreRecorder, "CLOSE_WAIT_S", 0.3)
    monkeypatch.setattr(StoreRecorder, "WAIT_S", 0.02)
    monkeypatch.setattr(live_module, "DEMO_PAUSE_S", 0.05)
    record, script = make_demo(tmp_path / "demo")
    all_but_one = sum(len(r["tricks"]) for r in record["rounds"]) - 1
    store = GameStore(tmp_path / "data")
    # Held from the loop's thread (the recognizer's), freed from the test's.
    other = sqlite3.connect(store.path, isolation_level=None, check_same_thread=False)

    class HoldsTheLastTrick(FrameKeyedRecognizer):
        def __call__(self, frame: np.ndarray) -> list:
            game = store.active_game()
            last_to_come = game is not None and len(store.tricks(game.id)) == all_but_one
            if last_to_come and not other.in_transaction and len(store.games()) == 1:
                other.execute("BEGIN EXCLUSIVE")
            return super().__call__(frame)

    loop = LiveLoop(store, HoldsTheLastTrick(script), None, DemoGame.load(tmp_path / "demo"))
    loop.speed, loop.next_games = 0, True
    loop.start()
    try:
        while not loop.left.recorders and not loop.join(0.05):
            pass
        assert not loop.join(0.6), loop.error  # twice CLOSE_WAIT_S on, still running
        assert [g.id for g in store.games()] == [1]  # the next demo game waits for the trick
        other.execute("COMMIT")
        for _ in range(200):
            if len(store.games()) >= 2:
                break
            time.sleep(0.05)
    finally:
        loop.stop.set()
        if other.in_transaction:
            other.execute("COMMIT")
        other.close()
    assert loop.join(10) and loop.error is None
    assert len(store.games()) >= 2
    assert len(store.tricks(1)) == all_but_one + 1 and store.game(1).status == "finished"
    assert not (store.game_dir(1) / "unrecorded.json").exists()


@pytest.mark.parametrize("first", ["hand", "camera"])
def test_a_trick_entered_by_hand_as_the_camera_records_it_is_in_the_game_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, first: str
) -> None:
    """The table enters round 2's first trick by hand on the very frame the camera completes
    it (the camera asks about hand entries once a second), or on the frame after. The game
    holds it once, whoever was first: the camera's copy goes with the hand entry, with the
    same cards nothing asked, or the phone is told the camera recorded it with these same
    cards."""
    with caplog.at_level(logging.INFO, logger="skullcam"):
        record, store, gid, refused = _entered_as_the_camera_completes_it(tmp_path, first)
    assert recorded_rounds(store, gid) == truth_rounds(record)
    sources = [t.detections["source"] for t in store.tricks(gid)]
    assert sources.count("hand") == (first == "hand")
    if first == "hand":
        assert not refused
        said = "round 2 trick 1 was entered by hand meanwhile: the camera's picture is kept"
        assert caplog.text.count(said) == 1
        # No recording refused (the recorder's error). The info line "the last recorded trick
        # is still on the table; not recorded again" is the camera taking the entry up, which
        # its once-a-second look may do before the frame that completes it (1 run in 6).
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
        entered = store.trick(gid, 2, 0)
        picture = store.image_path(entered.completion_image)
        assert entered.by_hand and picture is not None and picture.is_file()
        assert not entered.flags and not store.prompts(gid)  # the camera agrees: quiet
    else:
        (why,) = refused
        assert "round 2 trick 1 was recorded meanwhile" in why and "these same cards" in why


def test_a_hand_entry_the_camera_read_otherwise_keeps_its_cards_and_asks_the_table(
    tmp_path: Path,
) -> None:
    """The table enters round 2's first trick by hand a moment before the camera completes
    it, typing P1's Parrot 9 where P1 laid Parrot 10. The entry stands, but the camera's copy
    was dropped with an ERROR in the log and nobody at the table learned of it: now the
    entered trick holds the camera's picture and reading, a doubt naming both cards, and the
    phones ask about it once."""
    record, store, gid, refused = _entered_as_the_camera_completes_it(
        tmp_path, "hand", change={1: "purple-9"}
    )
    assert not refused
    entered = store.trick(gid, 2, 0)
    cards = [(p["player"], p["card"]) for p in entered.plays]
    assert cards == [(0, "purple-5"), (1, "purple-9"), (2, "black-7")]  # as the table typed
    assert entered.original_plays == entered.plays and entered.by_hand
    assert entered.flags == ["the camera read P1's purple-10 where the table entered purple-9"]
    (asked,) = store.prompts(gid)
    assert (asked.kind, asked.round, asked.trick) == ("flagged", 2, 0)
    # What the camera saw: its picture, its boxes and its cards, beside the entry.
    for stored in (entered.completion_image, entered.annotated_image):
        picture = store.image_path(stored)
        assert picture is not None and picture.is_file()
    seen = {d["player"]: d["card"] for d in entered.detections["cards"]}
    assert seen == {0: "purple-5", 1: "purple-10", 2: "black-7"}
    assert entered.detections["camera_source"] == str((tmp_path / "demo" / "frames").absolute())
    # The rest of the game is the camera's, in step.
    rounds = recorded_rounds(store, gid)
    assert rounds[1][1:] + rounds[2] == truth_rounds(record)[1][1:] + truth_rounds(record)[2]


def test_the_cameras_own_doubts_go_with_its_copy_and_are_asked_once_it_stands(
    tmp_path: Path,
) -> None:
    """The camera completed a trick the table had entered by hand a moment before, doubting
    its own reading (a Tigress laid at an angle, a card read with low confidence). Those
    doubts are about the camera's cards, not the table's: the entry is not asked about them.
    Taken back, the camera's trick stands in its place, and it stood with neither doubt nor
    question, as if read cleanly; it now has both, asked as the camera would have asked."""
    from recorded_tricks import trick

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    store = GameStore(tmp_path)
    gid = store.create_game(["Ana", "Ben", "Cai"], 2, {})
    ref = referee_from_store(store, gid)  # the camera's, before it learns of the entry
    cards = ["green-3", "tigress:pirate", "green-2"]
    store.enter_trick(gid, 1, 0, [{"player": p, "card": c} for p, c in enumerate(cards)])
    doubts = (tigress_flag(50), "green-2 read with low confidence (0.40)")
    outcome = ref.add(trick(cards, doubts))
    recorder = StoreRecorder(store, gid, "m1", "test")
    recorder.on_trick(outcome, Frame(np.zeros((48, 64, 3), np.uint8), 1.2, 12), [])
    entered = store.trick(gid, 1, 0)
    assert entered.by_hand and entered.completion_image  # the camera's picture is kept
    assert entered.flags == [] and store.prompts(gid) == []  # the table's cards: quiet
    store.remove_hand_trick(gid, 1, 0)
    stands = store.trick(gid, 1, 0)
    assert not stands.by_hand and stands.flags == list(doubts)
    assert sorted(q.kind for q in store.prompts(gid)) == ["flagged", "tigress"]
    (tigress,) = [q for q in store.prompts(gid) if q.kind == "tigress"]
    assert tigress.player == 1
    store.answer_prompt(tigress.id, "pirate")  # answered, her doubt goes, as on any trick
    assert store.trick(gid, 1, 0).flags == [doubts[1]]


class TakesBackAnEntry(FrameKeyedRecognizer):
    """The first game of the frames (until the empty table after it, frame key ``between``):
    the camera misses the frames ``blind``, the table enters the trick it missed by hand as
    the last of them comes in (``enter``), and takes that entry back at frame ``back``
    (``take_back``). The second game's frames, keyed as the first's, are seen as they are."""

    def __init__(
        self,
        script: list,
        blind: range,
        back: int,
        enter: Callable[[], None],
        take_back: Callable[[], None],
    ) -> None:
        super().__init__(script)
        self.blind, self.back, self.enter, self.take_back = blind, back, enter, take_back
        self.between, self.first_game = len(script) + 1, True

    def __call__(self, frame: np.ndarray) -> list:
        b, g, r = (int(v) for v in frame[0, 0])
        index = b | (g << 8) | (r << 16)
        self.first_game = self.first_game and index != self.between
        if self.first_game and index == self.blind[-1]:
            self.enter()
            time.sleep(1.05)  # the loop asks about the game at most once a second
        if self.first_game and index == self.back:
            self.take_back()
        if self.first_game and index in self.blind:
            return []
        return super().__call__(frame)


def test_a_game_left_with_a_gap_is_finished_by_hand_and_the_camera_records_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The camera missed round 2's first trick, the table entered it by hand and took the
    entry back while round 3 was played. The camera records the last round's last trick:
    the game is not over (round 2 trick 1 is free) and the camera waits for the next game,
    saying why in the log (it said the game was over). Meanwhile the TV and the bids page
    (the score's line; a button) say which trick to enter: the score said the rules
    engine's "round 2: only 1 of 2 tricks recorded; only the last round of a record may be
    unfinished". Entered, the game finishes with its final scores, and the camera records
    the next game set up at the table, from its first trick."""
    from skullcam.device.scripted import simulate_game
    from skullcam.web import create_app

    record, script = make_demo(tmp_path / "demo")
    settled = simulate_game(record, seed=SEED).settle_frames  # per trick, as make_demo drew
    camera = _shown_twice(tmp_path / "demo", tmp_path / "camera", len(script))
    data = tmp_path / "data"
    store = GameStore(data)
    calibrate_seats(data)
    first = _table_game(store, record)
    missed = [dict(p) for p in record["rounds"][1]["tricks"][0]["plays"]]

    def enter() -> None:
        store.enter_trick(first, 2, 0, missed)

    def take_back() -> None:
        store.remove_hand_trick(first, 2, 0)

    blind = range(settled[0][-1] + 20, settled[1][-1] + 25)  # back after it is swept
    recognizer = TakesBackAnEntry(script, blind, settled[3][0], enter, take_back)
    loop = LiveLoop(store, recognizer, str(camera), None, data_dir=data)
    loop.speed, loop.next_games = 0, True
    waits = threading.Event()  # the camera waits for the next game, the first one seen out
    real_wait = live_module.wait_for_game

    def noted_wait(*args: Any, **kwargs: Any) -> int | None:
        done = kwargs.get("done", args[2] if len(args) > 2 else None)
        if done and first in done:
            waits.set()
        return real_wait(*args, **kwargs)

    monkeypatch.setattr(live_module, "wait_for_game", noted_wait)
    seen: dict[str, Any] = {}
    second: list[int] = []

    def the_table() -> None:
        watcher = GameStore(data)
        try:
            if not waits.wait(60):
                return
            pages = create_app(data, test_config={"TESTING": True}).test_client()
            seen["status"] = watcher.game(first).status
            seen["state"] = watcher.state(first)
            seen["bids"] = pages.get(f"/game/{first}/bids").get_data(as_text=True)
            watcher.enter_trick(first, 2, 0, missed)
            seen["after"] = watcher.state(first)
            second.append(watcher.create_game(record["players"], 0, record["settings"]))
            deadline = time.monotonic() + 60
            while watcher.game(second[0]).status != "finished" and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            loop.stop.set()
            watcher.close()

    helper = threading.Thread(target=the_table, daemon=True)
    helper.start()
    with caplog.at_level(logging.INFO, logger="skullcam"):
        loop.run()
    helper.join(5)
    assert loop.error is None
    assert seen, "the camera never waited for the next game"
    said = (
        f"game {first}: the camera has seen its last trick; it is over once round 2 trick 1,"
        " left free, is entered by hand"
    )
    assert said in caplog.text and f"game {first} is over" not in caplog.text
    assert f"game {second[0]} is over" in caplog.text
    state = seen["state"]
    assert seen["status"] == "active" and not state["finished"]
    assert (state["round"], state["leader"]) == (3, None)
    assert (state["hand_round"], state["hand_trick"]) == (2, 0)
    # The TV's score line, and the bids page's button, say which trick to enter.
    assert state["score"]["error"] == "round 2: trick 1 is not recorded: enter it by hand"
    assert 'class="button">Enter round 2 trick 1 by hand</a>' in seen["bids"]
    after = seen["after"]
    assert after["finished"] and after["score"]["ok"] and after["score"]["score"]["leaders"]
    assert recorded_rounds(store, first) == truth_rounds(record)
    assert recorded_rounds(store, second[0]) == truth_rounds(record)
    assert store.game(second[0]).status == "finished"


def test_tricks_kept_for_a_game_resumed_while_the_camera_waited_go_in_before_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run stopped with round 1's trick waiting for a held database, and the game was
    finished by mistake before the next run, which left the kept trick alone; the table
    resumed the game while that run's camera waited for one. The camera recorded its own
    copy of the place under the kept trick's picture names (r01t00.jpg, written over: only
    recorded tricks' names are avoided), and the kept trick was never recorded."""
    from recorded_tricks import held

    from skullcam.device.recorder import StoreRecorder, referee_from_store
    from skullcam.device.sources import Frame

    record, script = make_demo(tmp_path / "demo", n=3, rounds=2)
    store = GameStore(tmp_path / "data")
    gid = _table_game(store, record)
    calibrate_seats(store.data_dir)
    first = [(p["player"], p["card"]) for p in record["rounds"][0]["tricks"][0]["plays"]]
    before = StoreRecorder(store, gid, "the run before")
    with held(store.path):
        outcome = referee_from_store(store, gid).add_plays(first)
        before.on_trick(outcome, Frame(np.full((48, 64, 3), 7, np.uint8), 1.0, 5), [])
    kept = store.game_dir(gid) / "unrecorded.json"
    picture = store.game_dir(gid) / "r01t00.jpg"
    assert kept.is_file() and picture.is_file()
    taken = picture.read_bytes()
    store.finish_game(gid)
    waiting = live_module.wait_for_game

    def resumed_meanwhile(*args: Any, **kwargs: Any) -> int | None:
        if store.game(gid).status == "finished":
            store.resume_game(gid)  # on the Settings page, while the camera waits
        return waiting(*args, **kwargs)

    monkeypatch.setattr(live_module, "wait_for_game", resumed_meanwhile)
    camera = str(tmp_path / "demo" / "frames")
    loop = LiveLoop(store, FrameKeyedRecognizer(script), camera, None, data_dir=store.data_dir)
    loop.speed, loop.next_games = 0, False
    loop.run()
    assert loop.error is None
    assert recorded_rounds(store, gid) == truth_rounds(record)
    assert store.trick(gid, 1, 0).model_version == "the run before"
    assert picture.read_bytes() == taken and not kept.exists()


class TableActsOnce(FrameKeyedRecognizer):
    """A camera whose every frame also lets the table act, once: ``act`` is called on each
    frame until it says it acted (True)."""

    def __init__(self, script: list, act: Callable[[], bool]) -> None:
        super().__init__(script)
        self.act, self.acted = act, False

    def __call__(self, frame: np.ndarray) -> list:
        if not self.acted:
            self.acted = self.act()
        return super().__call__(frame)


def _misread(script: list, card: str, as_read: str) -> list:
    """``script`` with every detection of ``card`` read as ``as_read``."""
    import dataclasses

    return [
        [dataclasses.replace(d, card=as_read) if d.card == card else d for d in dets]
        for dets in script
    ]


def test_the_camera_follows_a_card_the_table_corrected_on_the_replay_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The camera reads round 2's first trick's black 7 (the trump that wins it) as a purple
    7, so P1's purple 10 wins it; the table corrects the card on the replay page before the
    next trick is led, and P2, its real winner, leads it. The camera's referee kept its own
    reading (it followed only tricks entered by hand): it expected P1 to lead, and flagged the
    next trick "P2 led, but the game expected P1 to lead", a doubt the table had already put
    right. It follows the correction now."""
    from skullcam.web import create_app

    record, script = make_demo(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    gid = _table_game(store, record)
    calibrate_seats(store.data_dir)
    client = create_app(store.data_dir, store=store).test_client()
    assert record["rounds"][1]["tricks"][0]["plays"][2] == {"player": 2, "card": "black-7"}

    def correct_on_the_replay_page() -> bool:
        recorded = [(t.round, t.trick) for t in store.tricks(gid)]
        if (2, 0) not in recorded:
            return False
        assert (2, 1) not in recorded  # before the next trick is recorded
        url = f"/api/game/{gid}/round/2/trick/0/correct"
        res = client.post(url, json={"play": 2, "card": "black-7"})
        assert res.status_code == 200, res.get_data(as_text=True)
        return True

    camera = TableActsOnce(_misread(script, "black-7", "purple-7"), correct_on_the_replay_page)
    loop = LiveLoop(store, camera, str(tmp_path / "demo" / "frames"), None, data_dir=store.data_dir)
    loop.speed, loop.next_games, loop.watch_every_s = 0, False, 0.0
    with caplog.at_level(logging.INFO, logger="skullcam"):
        loop.run()
    assert loop.error is None and camera.acted
    assert recorded_rounds(store, gid) == truth_rounds(record)
    assert store.trick(gid, 2, 1).flags == []
    assert store.game(gid).status == "finished"


@pytest.mark.parametrize("at_its_end", [True, False])
def test_a_stopped_run_waits_for_the_tricks_its_end_writes_not_for_a_stuck_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_its_end: bool
) -> None:
    """Stopped (Ctrl-C, ``--max-seconds``) as its end writes tricks that waited for a held
    database, the run gave the loop 5 s and exited: the wait was cut short and its "not
    recorded" line never printed. The run now waits for that write (within its
    ``CLOSE_WAIT_S``); a loop stuck elsewhere, in a camera's read, still gets the 5 s only."""
    from skullcam.device.recorder import StoreRecorder

    monkeypatch.setattr(StoreRecorder, "CLOSE_WAIT_S", 30.0)
    store = GameStore(tmp_path / "data")
    loop = LiveLoop(store, lambda frame: [], "camera", None, data_dir=store.data_dir)
    writing, released = threading.Event(), threading.Event()

    def the_end_writes(*_args: object, **_kwargs: object) -> None:
        writing.set()
        released.wait(0.5)  # the database held a while longer than the frame's grace

    def stuck_in_a_read() -> None:
        writing.set()
        released.wait(30.0)

    if at_its_end:
        monkeypatch.setattr(loop, "_run", lambda: None)
        monkeypatch.setattr(loop.left, "close", the_end_writes)
    else:
        monkeypatch.setattr(loop, "_run", stuck_in_a_read)
    loop.start()
    assert writing.wait(10.0)
    loop.stop.set()
    try:
        assert live_module.finish(loop, grace_s=0.05) is at_its_end
    finally:
        released.set()
        loop.join(10.0)
