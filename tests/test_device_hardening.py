"""Bad input and failures on the device's runtime paths: the recording survives them.

Each test here reproduces a failure found by review (a recognizer raising on one frame, a store
write failing, a damaged video, a camera that hangs, ...) and checks the project's standard:
a clear error naming what was wrong and what to do, and no recorded data lost or corrupted.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from demo_games import make_demo
from image_support import imread

from skullcam.device import live as live_module
from skullcam.device.demo_game import DemoGame
from skullcam.device.live import LiveLoop, save_frames
from skullcam.device.referee import Referee
from skullcam.device.replay import replay_source
from skullcam.device.scripted import FrameKeyedRecognizer
from skullcam.device.sources import Frame, FrameSource, LatestFrameReader, open_source
from skullcam.errors import UserError
from skullcam.rules import Settings
from skullcam.store import GameStore
from skullcam.vision.detection import Detection


def recorded(store: GameStore, game_id: int) -> list[tuple[int, int]]:
    return [(t.round, t.trick) for t in store.tricks(game_id)]


def all_tricks(record: dict) -> list[tuple[int, int]]:
    return [(r, t) for r, rnd in enumerate(record["rounds"], 1) for t in range(len(rnd["tricks"]))]


class FailingRecognizer:
    """The keyed script's detections, except that calls ``fail_from`` .. ``fail_to`` raise."""

    version = "failing"

    def __init__(self, script: list, fail_from: int, fail_to: int, error: Exception) -> None:
        self.inner = FrameKeyedRecognizer(script)
        self.fail_from, self.fail_to, self.error = fail_from, fail_to, error
        self.calls = 0

    def __call__(self, frame: np.ndarray) -> list[Detection]:
        self.calls += 1
        if self.fail_from <= self.calls <= self.fail_to:
            raise self.error
        return self.inner(frame)


def demo_loop(tmp_path: Path, recognizer: object) -> tuple[LiveLoop, GameStore]:
    store = GameStore(tmp_path / "data")
    loop = LiveLoop(store, recognizer, None, DemoGame.load(tmp_path / "demo"))  # type: ignore[arg-type]
    loop.speed = 0
    return loop, store


# --------------------------------------------------------------------- the recognizer fails


def test_a_recognizer_failure_on_one_frame_is_skipped_and_the_game_still_recorded(
    tmp_path: Path,
) -> None:
    """Was: the exception ended the live loop (a traceback from ``skullcam run``) and the
    trick on the table was lost."""
    record, script = make_demo(tmp_path / "demo")
    loop, store = demo_loop(tmp_path, FailingRecognizer(script, 200, 200, RuntimeError("boom")))
    loop.run()
    (game,) = store.games()
    assert recorded(store, game.id) == all_tricks(record)
    assert store.game(game.id).status == "finished"


def test_a_recognizer_that_keeps_failing_stops_with_a_clear_error_and_keeps_the_tricks(
    tmp_path: Path,
) -> None:
    _record, script = make_demo(tmp_path / "demo")
    loop, store = demo_loop(tmp_path, FailingRecognizer(script, 200, 10**9, RuntimeError("boom")))
    with pytest.raises(
        UserError, match=r"frame_0+299\.png: RuntimeError: boom \(and on every frame for 10 s\)"
    ):
        loop.run()
    (game,) = store.games()
    assert recorded(store, game.id)  # what was recorded before the failures is still there
    assert store.game(game.id).status == "active"


def test_replay_names_the_frame_file_the_recognizer_refused(tmp_path: Path) -> None:
    """Was: 'the image is 20x20 pixels, too small ...' with no word of which frame."""
    _record, script = make_demo(tmp_path / "demo")
    source = open_source(tmp_path / "demo")
    error = UserError("the image is 20x20 pixels, too small")
    recognizer = FailingRecognizer(script, 5, 5, error)
    referee = Referee(["P0", "P1", "P2"], 0, Settings(rounds=3))
    with pytest.raises(UserError, match=r"frame_000004\.png: the image is 20x20"):
        replay_source(source, tmp_path / "demo", recognizer, referee)


# ------------------------------------------------------------------- the store write fails


def _disk_full_at_the_second_trick(
    record_trick: Callable[..., int], calls: list[object], stays: bool = False
) -> Callable[..., int]:
    """``record_trick`` whose second call finds the disk full, and (``stays``) every later
    one too, else the disk has room again after it; each call is noted in ``calls``."""

    def full_disk(*args: object, **kwargs: object) -> int:
        calls.append(args)
        if len(calls) == 2 or (stays and len(calls) > 2):
            raise sqlite3.OperationalError("database or disk is full")
        return record_trick(*args, **kwargs)

    return full_disk


def test_a_failing_database_write_stops_with_a_clear_error_and_a_restart_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: sqlite3.OperationalError out of the live loop, a traceback from ``skullcam run``."""
    record, script = make_demo(tmp_path / "demo")
    loop, store = demo_loop(tmp_path, FrameKeyedRecognizer(script))
    real = store.record_trick
    monkeypatch.setattr(store, "record_trick", _disk_full_at_the_second_trick(real, []))
    with pytest.raises(UserError, match=r"could not be recorded .*disk is full.*free some disk"):
        loop.run()
    (game,) = store.games()
    # The run's end tries the failed trick once more (its disk has room again here).
    assert recorded(store, game.id) == all_tricks(record)[:2]
    monkeypatch.setattr(store, "record_trick", real)
    again, _ = demo_loop(tmp_path, FrameKeyedRecognizer(script))
    again.store = store
    again.run()
    assert recorded(store, game.id) == all_tricks(record)
    assert store.game(game.id).status == "finished"


def test_a_disk_that_stays_full_is_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Was: the run's end tried the refused trick again, failed the same way and logged it,
    so the journal read the same error twice, once from the log and once as the command's
    own ``skullcam run: error:`` line (the message the loop stops with)."""
    record, script = make_demo(tmp_path / "demo")
    loop, store = demo_loop(tmp_path, FrameKeyedRecognizer(script))
    calls: list[object] = []
    full = _disk_full_at_the_second_trick(store.record_trick, calls, stays=True)
    monkeypatch.setattr(store, "record_trick", full)
    with caplog.at_level(logging.INFO), pytest.raises(UserError) as stopped:
        loop.run()
    assert "round 2 trick 1 could not be recorded" in str(stopped.value)
    assert len(calls) == 3  # the run's end did try the trick again
    said = [r.getMessage() for r in caplog.records if "could not be recorded" in r.getMessage()]
    assert said == []  # the command's error line says it
    (game,) = store.games()
    assert recorded(store, game.id) == all_tricks(record)[:1]


def test_a_full_disk_while_writing_a_trick_image_is_a_clear_error_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: OSError out of the live loop, and the half-written ``.jpg.tmp`` left behind."""
    _record, script = make_demo(tmp_path / "demo")
    loop, store = demo_loop(tmp_path, FrameKeyedRecognizer(script))

    real_fsync = os.fsync

    def no_space(fd: int) -> None:  # the disk fills up as a trick's image is written
        if not os.readlink(f"/proc/self/fd/{fd}").endswith(".jpg.tmp"):
            return real_fsync(fd)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(UserError, match=r"round 1 trick 1 could not be recorded .*No space"):
        loop.run()
    (game,) = store.games()
    assert recorded(store, game.id) == []
    assert list(store.game_dir(game.id).glob("*.tmp")) == []


def test_a_run_removes_the_temp_files_a_kill_mid_write_left_and_only_those(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kill while a trick's picture was written left its temp file beside the pictures for
    good (and one beside a saved frame). The next 'skullcam run' removes them as it takes
    the data folder; a user's own ``.tmp`` files, and temp names of files we never write
    there, are kept."""
    from skullcam.cli import main
    from skullcam.device.trick_images import write_image_atomic

    data = tmp_path / "data"
    store = GameStore(data)
    folder = store.game_dir(store.create_game(["Ana", "Ben"], 0, {}))
    write_image_atomic(folder / "r01t00.jpg", np.zeros((8, 8, 3), np.uint8))

    def killed(fd: int) -> None:  # the process dies between the write and the rename
        raise SystemExit("killed")

    with monkeypatch.context() as kill:
        kill.setattr(os, "fsync", killed)
        with pytest.raises(SystemExit):
            write_image_atomic(folder / "r01t01-boxes.jpg", np.zeros((8, 8, 3), np.uint8))
    assert (folder / ".r01t01-boxes.jpg.tmp").is_file()  # the kill's leftover
    (folder / "r02t03-2.jpg.tmp").write_bytes(b"half")  # as pictures were named before
    (folder / ".unrecorded.json.tmp").write_bytes(b"{")
    frames = data / "recordings" / "game-1"
    frames.mkdir(parents=True)
    (frames / ".frame_000007.jpg.tmp").write_bytes(b"half")
    users = [folder / "notes.tmp", folder / ".notes.txt.tmp", frames / "clip.tmp"]
    users += [data / ".settings.json.tmp", folder / "r01t00.jpg.tmp.bak"]
    for path in users:
        path.write_bytes(b"mine")
    argv = ["run", "--camera", "none", "--data", str(data), "--port", "0", "--max-seconds", "0.1"]
    assert main(argv) == 0
    left = sorted(p for p in data.rglob("*") if p.is_file() and ".tmp" in p.name)
    assert left == sorted(users)
    assert (folder / "r01t00.jpg").is_file()


class BusyThenFailing(FailingRecognizer):
    """The game database is held by another program until the recognizer starts failing (a
    camera giving out, in effect): the tricks of the meantime wait in the recorder."""

    def __init__(self, script: list, fail_from: int, busy: list[bool]) -> None:
        super().__init__(script, fail_from, 10**9, RuntimeError("camera gone"))
        self.busy = busy

    def __call__(self, frame: np.ndarray) -> list[Detection]:
        if self.calls + 1 >= self.fail_from:
            self.busy[0] = False
        return super().__call__(frame)


def test_tricks_waiting_for_a_busy_database_are_written_when_the_camera_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: the camera's error left the loop before the recorder's waiting tricks were
    written, and with a live camera they cannot be seen again."""
    _record, script = make_demo(tmp_path / "demo")
    busy = [True]
    loop, store = demo_loop(tmp_path, BusyThenFailing(script, 300, busy))
    write = store.record_trick

    def held(*args: object, **kwargs: object) -> int:
        if busy[0]:
            raise sqlite3.OperationalError("database is locked")
        return write(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "record_trick", held)
    with pytest.raises(UserError, match="camera gone"):
        loop.run()
    (game,) = store.games()
    assert len(recorded(store, game.id)) >= 2  # every trick completed before the failure


def test_tricks_the_full_disk_refuses_as_the_camera_fails_are_said_in_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The run stops with the camera's error; the tricks lost to the full disk meanwhile are
    said in the log, the only place that says them (a disk-full error said once must not
    silence this one)."""
    _record, script = make_demo(tmp_path / "demo")
    busy = [True]
    loop, store = demo_loop(tmp_path, BusyThenFailing(script, 300, busy))

    def held_then_full(*args: object, **kwargs: object) -> int:
        raise sqlite3.OperationalError(
            "database is locked" if busy[0] else "database or disk is full"
        )

    monkeypatch.setattr(store, "record_trick", held_then_full)
    with caplog.at_level(logging.INFO), pytest.raises(UserError, match="camera gone"):
        loop.run()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("could not be recorded" in e and "disk is full" in e for e in errors), errors


def test_a_busy_database_for_the_live_view_does_not_stop_the_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: 'database is locked' while publishing the trick on the table ended the game."""
    record, script = make_demo(tmp_path / "demo")
    loop, store = demo_loop(tmp_path, FrameKeyedRecognizer(script))

    def locked(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store, "set_live", locked)
    loop.run()
    (game,) = store.games()
    assert recorded(store, game.id) == all_tricks(record)


# ------------------------------------------------------------------ a camera that goes away


class HungCamera(FrameSource):
    """A live camera that delivers two frames, then blocks for ever, as picamera2 does for an
    unplugged camera; its ``close`` blocks too (picamera2's ``stop()`` on a lost camera)."""

    live = True
    name = "picamera2"

    def __init__(self) -> None:
        self.released = threading.Event()

    def frames(self) -> Iterator[Frame]:
        for i in range(2):
            yield Frame(np.full((48, 64, 3), 70, np.uint8), i / 10, i)
        self.released.wait()

    def close(self) -> None:
        self.released.wait()


def test_a_camera_that_stops_delivering_frames_is_an_error_not_a_hang() -> None:
    """Was: ``frames()`` waited for ever, so ``skullcam run`` sat silent with a dead camera."""
    camera = HungCamera()
    reader = LatestFrameReader(camera, stall_s=0.3, close_s=0.3)
    seen: list[int] = []
    with pytest.raises(UserError, match=r"picamera2 delivered no frame for 0 s: check its cable"):
        seen.extend(frame.index for frame in reader.frames())
    assert seen == [0, 1] or seen == [1]  # the newest frame always arrives
    reader.close()  # returns although the camera's close never does
    camera.released.set()


def test_the_live_loop_reports_a_hung_camera_and_keeps_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = GameStore(tmp_path / "data")
    game_id = store.create_game(["A", "B", "C"], 0, {})
    camera = HungCamera()
    monkeypatch.setattr(live_module, "open_source", lambda spec, start=0: camera)
    monkeypatch.setattr(
        live_module,
        "LatestFrameReader",
        lambda source: LatestFrameReader(source, stall_s=0.3, close_s=0.3),
    )
    loop = LiveLoop(store, lambda frame: [], "picamera", None)
    with pytest.raises(UserError, match="delivered no frame"):
        loop.run()
    camera.released.set()
    assert store.game(game_id).status == "active"


# ------------------------------------------------------------------- a damaged recording


def write_video(path: Path, fourcc: str, count: int = 100) -> bytes:
    """A small real video whose frame k is flat grey 2k (so a test can tell frames apart)."""
    import cv2

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), 10, (320, 240))
    for k in range(count):
        writer.write(np.full((240, 320, 3), 2 * k, np.uint8))
    writer.release()
    return path.read_bytes()


def damaged_mid_way(tmp_path: Path) -> Path:
    """A 100-frame mp4 with 5,000 bytes zeroed at half its length."""
    data = bytearray(write_video(tmp_path / "clean.mp4", "mp4v"))
    middle = len(data) // 2
    data[middle : middle + 5000] = bytes(5000)
    damaged = tmp_path / "damaged.mp4"
    damaged.write_bytes(bytes(data))
    return damaged


def test_a_video_damaged_mid_way_is_read_past_the_damage_and_said_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Was: reading stopped at the damage (frame 51 of 100), silently, and a replay scored
    the first half of the game as the whole game."""
    damaged = damaged_mid_way(tmp_path)
    with open_source(damaged) as source:
        frames = list(source.frames())
    assert len(frames) > 90
    assert frames[-1].image[0, 0, 0] >= 2 * 95  # the end of the game is there
    assert "damaged.mp4 is damaged or cut short" in caplog.text


def test_the_damage_is_said_as_it_is_passed_not_only_at_the_end(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """'skullcam run' stops reading once the game is over, before the end-of-file summary:
    damage in the middle of a recording went unsaid there."""
    damaged = damaged_mid_way(tmp_path)
    read: list[int] = []
    with caplog.at_level(logging.WARNING), open_source(damaged) as source:
        for frame in source.frames():
            read.append(frame.index)
            if "could not be decoded" in caplog.text:
                break
    assert "(the file is damaged there)" in caplog.text
    assert read[-1] < 95  # said right after the damage, not at the end


def test_a_video_cut_short_says_how_much_of_it_was_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Was: a file cut at half length ended as if the game had, with no word of it."""
    data = write_video(tmp_path / "clean.avi", "MJPG")
    cut = tmp_path / "cut.avi"
    cut.write_bytes(data[: len(data) // 2])
    with open_source(cut) as source:
        frames = list(source.frames())
    assert 0 < len(frames) < 60
    assert "of the 100 frames its header announces" in caplog.text
    caplog.clear()
    with open_source(tmp_path / "clean.avi") as source:
        assert len(list(source.frames())) == 100
    assert "damaged" not in caplog.text


# --------------------------------------------------------------- frames saved for a replay


def test_saving_frames_after_one_was_removed_overwrites_none(tmp_path: Path) -> None:
    """Was: numbering restarted at the count of frames, so with one removed (as replay asks of
    an unreadable frame) a restarted recording overwrote the last recorded frame."""

    def frames(values: list[int]) -> Iterator[Frame]:
        return iter(
            [Frame(np.full((48, 64, 3), v, np.uint8), k / 10, k) for k, v in enumerate(values)]
        )

    list(save_frames(frames([0, 40, 80, 120]), tmp_path))
    (tmp_path / "frame_000001.jpg").unlink()
    list(save_frames(frames([200]), tmp_path))
    names = sorted(p.name for p in tmp_path.glob("frame_*"))
    assert names == [f"frame_00000{k}.jpg" for k in (0, 2, 3, 4)]
    assert abs(int(imread(tmp_path / "frame_000003.jpg")[0, 0, 0]) - 120) <= 3
    assert abs(int(imread(tmp_path / "frame_000004.jpg")[0, 0, 0]) - 200) <= 3


def test_frames_on_a_disk_turned_read_only_mid_game_are_skipped_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An SD card the kernel remounts read-only refuses even the removal of a temp file
    that is not there (EROFS): that clean-up raised out of save_frames and ended the game's
    run, where a frame not saved is only said in the log."""
    import errno

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "write_bytes", read_only)
    monkeypatch.setattr(Path, "unlink", read_only)
    shown = [Frame(np.zeros((48, 64, 3), np.uint8), k / 10, k) for k in range(3)]
    with caplog.at_level(logging.WARNING):
        assert [f.index for f in save_frames(iter(shown), tmp_path)] == [0, 1, 2]
    assert caplog.text.count("not saved: [Errno 30] Read-only file system") == 3


def _stamped(times: list[float]) -> Iterator[Frame]:
    return iter(Frame(np.zeros((8, 8, 3), np.uint8), at, k) for k, at in enumerate(times))


def test_a_short_recording_replays_at_the_rate_it_was_recorded(tmp_path: Path) -> None:
    """A recording of under 51 frames got no meta.json: ``skullcam replay`` played a 30 fps
    camera's frames at the 10 fps a folder defaults to, three times slower than they were."""
    list(save_frames(_stamped([k / 30 for k in range(20)]), tmp_path))
    assert open_source(tmp_path).fps == pytest.approx(30.0, abs=0.01)
    list(save_frames(_stamped([0.0, 0.001]), tmp_path / "burst"))
    assert open_source(tmp_path / "burst").fps == 240.0  # the most a replay believes


def test_a_recording_slow_to_start_replays_at_its_whole_rate(tmp_path: Path) -> None:
    """The rate came from the first 50 frames alone: a recognizer slow at the start (its model
    warming up) left a rate that made the replay of the whole game last far longer than it."""
    times = [k * 0.5 for k in range(51)] + [25 + k * 0.05 for k in range(1, 451)]
    frames = save_frames(_stamped(times), tmp_path)
    for _ in range(300):
        next(frames)  # a run killed mid-game keeps the rate noted every 50 frames
    assert open_source(tmp_path).fps == pytest.approx(250 / times[250], abs=0.01)
    list(frames)
    assert open_source(tmp_path).fps == pytest.approx(500 / times[-1], abs=0.01)


def test_a_recording_of_frames_minutes_apart_replays(tmp_path: Path) -> None:
    """A rate under 0.005 fps (two frames 250 s apart) was rounded to hundredths, written as
    0.0, and ``skullcam replay`` then refused the folder: fps must be more than 0."""
    list(save_frames(_stamped([0.0, 250.0]), tmp_path))
    assert open_source(tmp_path).fps == pytest.approx(1 / 250)


def test_a_recording_whose_rate_cannot_be_noted_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """meta.json that cannot be written (a full card; here a folder in its place) raised out
    of save_frames at the 51st frame and ended the game's run."""
    (tmp_path / "meta.json").mkdir()
    with caplog.at_level(logging.WARNING):
        assert len(list(save_frames(_stamped([k / 10 for k in range(60)]), tmp_path))) == 60
    assert "frame rate not noted" in caplog.text


@pytest.mark.parametrize("failing", ["record_trick", "image_in_use"])
def test_a_database_damaged_mid_game_says_restore_not_free_disk_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    """Was: "free some disk space or fix the folder's permissions" for a malformed file
    (``record_trick``); and sqlite3.DatabaseError out of the live loop, a traceback from
    ``skullcam run``, where the recorder asks which picture names a recorded trick holds
    (``image_in_use``, since 845701a) before it writes a trick's pictures."""
    _record, script = make_demo(tmp_path / "demo")
    loop, store = demo_loop(tmp_path, FrameKeyedRecognizer(script))

    def malformed(*args: object, **kwargs: object) -> object:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(store, failing, malformed)
    with pytest.raises(UserError) as info:
        loop.run()
    message = str(info.value)
    assert message.startswith("round 1 trick 1 could not be recorded: the game database")
    assert "malformed). Restore a backup of it, or move it aside" in message
    assert "free some disk space" not in message


def test_a_trick_swept_with_a_card_never_seen_is_recorded_short_and_the_rest_stays_in_place(
    tmp_path: Path,
) -> None:
    """The live loop dropped a swept short trick (the replay kept it): the game's later tricks
    then each went one place early, most of them with no flag. Kept, the trick asks for its
    missing card and every later trick stays where it was played."""
    record, script = make_demo(tmp_path / "demo")
    hidden = record["rounds"][1]["tricks"][0]["plays"][1]["card"]  # round 2, trick 1's 2nd card
    first_frame = next(i for i, dets in enumerate(script) if any(d.card == hidden for d in dets))
    # The card is never seen (a hand over it the whole time): drop it from round 2 only.
    for dets in script[first_frame:]:
        dets[:] = [d for d in dets if d.card != hidden]
    loop, store = demo_loop(tmp_path, FrameKeyedRecognizer(script))
    loop.run()
    (game,) = store.games()
    short = store.trick(game.id, 2, 0)
    assert [p["card"] for p in short.plays] == [
        p["card"] for p in record["rounds"][1]["tricks"][0]["plays"] if p["card"] != hidden
    ]
    assert any("swept away with 2 of 3" in f for f in short.flags)
    assert recorded(store, game.id) == all_tricks(record)  # no trick moved up into its place
    for r, rnd in enumerate(record["rounds"], 1):
        for t, trick in enumerate(rnd["tricks"]):
            if (r, t) != (2, 0):
                seen = [(p["player"], p["card"]) for p in store.trick(game.id, r, t).plays]
                assert seen == [(p["player"], p["card"]) for p in trick["plays"]], (r, t)
