"""A run's tally over several games, and the word said when too few frames a second are read."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from demo_games import make_demo

from skullcam.device import live as live_module
from skullcam.device.demo_game import DemoGame
from skullcam.device.live import LiveLoop
from skullcam.device.picture_watch import CameraNotice
from skullcam.device.run_tally import KeepUpWatch, RunTally
from skullcam.device.scripted import FrameKeyedRecognizer
from skullcam.device.sources import Frame
from skullcam.store import GameStore


def _pipeline(tricks: int, frames: int) -> SimpleNamespace:
    return SimpleNamespace(stats=SimpleNamespace(tricks=tricks, frames=frames))


def test_the_tally_counts_every_game_not_the_last_two() -> None:
    """The run's last line summed the pipelines it still held, two at most: a looping demo's
    six games were said as 12 tricks of 35."""
    tally = RunTally()
    for tricks in (6, 6, 6, 6, 6, 5):
        tally.follow_pipeline(_pipeline(tricks, 100))  # type: ignore[arg-type]
    assert (tally.tricks, tally.frames) == (35, 600)
    first, second = SimpleNamespace(dropped=3), SimpleNamespace(dropped=0)
    tally.follow_drops(first)
    tally.follow_drops(second)
    second.dropped = 4
    assert tally.dropped == 7
    assert tally.summary("DATA").startswith("recorded 35 tricks from 600 frames into DATA; 7")


def test_a_run_without_skipped_frames_says_nothing_of_them() -> None:
    tally = RunTally()
    tally.follow_pipeline(_pipeline(6, 537))  # type: ignore[arg-type]
    tally.follow_drops(SimpleNamespace(dropped=0))
    assert tally.summary("D") == "recorded 6 tricks from 537 frames into D"


def test_one_trick_frame_and_skipped_frame_are_said_in_the_singular() -> None:
    """The run's last line said "recorded 1 trick(s) from 1 frame(s) ...; 1 more frame(s) were
    skipped": every count hedged its plural, and the verb disagreed with a count of one."""
    tally = RunTally()
    tally.follow_pipeline(_pipeline(1, 1))  # type: ignore[arg-type]
    tally.follow_drops(SimpleNamespace(dropped=1))
    assert tally.summary("D").startswith("recorded 1 trick from 1 frame into D; 1 more frame was")
    tally.follow_pipeline(_pipeline(5, 1606))  # type: ignore[arg-type]
    tally.follow_drops(SimpleNamespace(dropped=3))
    assert tally.summary("D").startswith(
        "recorded 6 tricks from 1607 frames into D; 4 more frames were skipped"
    )


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _frames(n: int, fps: float = 10.0) -> Iterator[Frame]:
    image = np.zeros((2, 2, 3), np.uint8)
    return (Frame(image, i / fps, i) for i in range(n))


def _read(
    watch: KeepUpWatch, clock: _Clock, drops: Any, reads: int, fps: float, every: int
) -> None:
    """A camera of ``fps`` frames a second of which one in ``every`` is read, the others
    skipped (counted in ``drops.dropped``): ``reads`` frames, the clock keeping the camera's
    time."""
    start = watch.seconds + (1 if watch.read else 0)
    frames = [
        Frame(np.zeros((2, 2, 3), np.uint8), start + i * every / fps, i) for i in range(reads)
    ]
    for _ in watch.frames(frames):
        clock.now += every / fps
        drops.dropped += every - 1


@pytest.mark.parametrize(
    ("fps", "every", "said"),
    [
        (5.0, 2, "falling behind the camera: its frames are read at 2.5 a second ("),
        (30.0, 6, None),  # 83 % skipped, 5 a second read: enough
        (10.0, 3, None),  # 3.3 a second: enough
        (2.0, 1, "frames come at only 2.0 a second, none skipped"),
    ],
)
def test_too_few_frames_read_a_second_are_said_not_a_share_skipped(
    caplog: pytest.LogCaptureFixture, fps: float, every: int, said: str | None
) -> None:
    """The warning came at more than 10 % of frames skipped: a 30 frames/s camera read at 5
    a second (83 % skipped, every trick followed) was warned of, and the warning never said
    the rate that matters, the frames read a second (below 3.3 tricks are lost)."""
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    watch = KeepUpWatch(drops, window_s=60.0, clock=clock)
    with caplog.at_level(logging.INFO, logger="skullcam.device.run_tally"):
        _read(watch, clock, drops, reads=int(150 * fps / every), fps=fps, every=every)
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    if said is None:
        assert caplog.records == []
        return
    assert len(warned) == 3  # 15 s in, then once a minute over 150 s, not once a frame
    assert warned[0].startswith(said), warned[0]
    assert "below 3.3 a second" in warned[0] and "docs/pi.md" in warned[0]
    assert ("skipped in the last 15 s" in warned[0]) == (every > 1)
    assert ("skipped in the last 60 s" in warned[1]) == (every > 1)
    advice = '"detector_mirror": false' if every > 1 else "the camera's frame rate"
    assert advice in warned[0]


def test_a_rate_back_up_is_said_once(caplog: pytest.LogCaptureFixture) -> None:
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    watch = KeepUpWatch(drops, window_s=60.0, clock=clock)
    with caplog.at_level(logging.INFO, logger="skullcam.device.run_tally"):
        _read(watch, clock, drops, reads=170, fps=10.0, every=4)  # 2.5 a second, 68 s
        _read(watch, clock, drops, reads=600, fps=10.0, every=2)  # 5 a second, 120 s
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    # Told 15 s in and at 75 s (a window mostly slow), back once at 135 s.
    assert [level for level, _ in said] == [logging.WARNING, logging.WARNING, logging.INFO]
    assert said[1][1].startswith("falling behind the camera: its frames are read at 2.8")
    assert said[2][1].startswith("keeping up again: 5.0 frames a second")


def test_a_wait_for_a_game_is_not_time_the_recognizer_read_too_few_in(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The camera's frames while the web page has no game are not read; after ten minutes
    of that, the frames of the next game must not be timed from the last of the game
    before."""
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    watch = KeepUpWatch(drops, window_s=60.0, clock=clock)
    frames = watch.frames(_frames(10**6, fps=10.0))
    for _ in range(300):  # 30 s of a game, every frame read
        next(frames)
        clock.now += 0.1
    watch.restart()  # what LiveLoop._next_game does after waiting
    clock.now += 600.0
    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        for _ in range(400):
            next(frames)
            clock.now += 0.1
    assert caplog.records == []
    # 30 s, then 40 s: the first two frames of each begin the time (the first not timed),
    # and the last read before the wait is not judged.
    assert watch.read == 297 + 397 and watch.seconds == pytest.approx(29.7 + 39.7)


def test_a_live_cameras_wait_for_the_next_game_is_not_timed_nor_judged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The frame a game ended on is counted when the next game asks for its first, after the
    wait: the window it closed was judged then (the last game's verdict back on the new game's
    TV) and a new one begun from it, so a live camera's next frame, stamped after the wait, put
    the whole wait in the time the recognizer read too few frames in."""
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    heard: list[bool] = []
    watch = KeepUpWatch(drops, clock=clock, on_slow=heard.append)

    def camera() -> Iterator[Frame]:  # a live camera's frames, stamped when taken
        for i in range(10**6):
            yield Frame(np.zeros((2, 2, 3), np.uint8), clock.now, i)

    frames = watch.frames(camera())

    def read(n: int, every: int) -> None:  # a camera of 10 frames a second
        for _ in range(n):
            next(frames)
            clock.now += every / 10
            drops.dropped += every - 1

    read(75, every=4)  # 30 s at 2.5 a second: told 15 s in
    assert heard == [True]
    watch.restart()  # what LiveLoop._next_game does after waiting
    assert heard == [True, False]
    clock.now += 600.0  # ten minutes until the next game is set up
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        read(700, every=1)  # 70 s, every frame read
    assert heard == [True, False] and caplog.records == []
    # 30 s and 70 s, less the first two frames of each game (they begin its time): not the wait
    assert watch.seconds == pytest.approx(100, abs=2)


def test_the_camera_waiting_for_a_game_restarts_the_count(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "data")
    game_id = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    reader = SimpleNamespace(counting=True, dropped=0, frames=lambda: iter(()))
    loop._counting_drops(reader)  # type: ignore[arg-type]
    assert loop.keep_up is not None and not loop.keep_up._restart
    assert loop._next_game(reader, {}) == game_id  # type: ignore[arg-type]
    assert loop.keep_up._restart


@pytest.mark.parametrize(
    ("read", "dropped", "ends"),
    [
        (400, 1600, "; 1600 more frames were skipped, 4.0 frames a second read"),
        (200, 0, "; 2.0 frames a second read: below 3.3 tricks can be missed (check the camera"),
        (240, 360, "skipped, 2.4 frames a second read: below 3.3 tricks can be missed (to read"),
    ],
)
def test_the_runs_last_line_says_the_rate_frames_were_read_at(
    read: int, dropped: int, ends: str
) -> None:
    """It said every skipped frame was "the recognizer falling behind", a fast camera's as
    well, and never the rate that decides whether tricks were missed."""
    tally = RunTally()
    tally.follow_pipeline(_pipeline(6, read))  # type: ignore[arg-type]
    tally.follow_drops(SimpleNamespace(dropped=dropped // 2))
    tally.follow_pace(SimpleNamespace(read=read // 2, seconds=50.0))
    tally.follow_drops(SimpleNamespace(dropped=dropped - dropped // 2))
    tally.follow_pace(SimpleNamespace(read=read - read // 2, seconds=50.0))
    line = tally.summary("D")
    assert line.startswith("recorded 6 tricks from")
    if "below" in ends:
        assert ends in line and line.endswith("see docs/pi.md, 'If the Pi cannot keep up')")
    else:
        assert line.endswith(ends)


def test_a_slow_recognizer_on_the_demo_skips_frames_and_the_run_says_how_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frames a paced recording skipped were never counted: a Pi that could not keep up
    showed no sign of it."""
    _record, script = make_demo(tmp_path / "demo")

    class Slow(FrameKeyedRecognizer):
        def __call__(self, frame: np.ndarray) -> list:
            time.sleep(0.02)
            return super().__call__(frame)

    store = GameStore(tmp_path / "data")
    loop = LiveLoop(store, Slow(script), None, DemoGame.load(tmp_path / "demo"))
    loop.speed = 8.0  # frames due every 12.5 ms at 10 frames/s, read in 20
    monkeypatch.setattr(live_module, "DEMO_PAUSE_S", 0.0)
    loop.start()
    time.sleep(1.5)
    loop.stop.set()
    assert loop.join(10) and loop.error is None
    assert loop.tally.frames > 0 and loop.tally.dropped > 0
    dropped = loop.tally.dropped
    said = "1 more frame was" if dropped == 1 else f"{dropped} more frames were"
    assert f"; {said} skipped" in loop.tally.summary("D")
    assert loop.keep_up is not None and loop.keep_up.speed == 8.0  # its advice: a lower --speed
    assert loop.keep_up.behind == "the demo game"  # "falling behind the demo game"
    assert loop.keep_up.source == "demo"  # the TV's notice names the demo, not a camera


def test_a_recording_read_too_slowly_is_not_said_to_fall_behind_a_camera(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A recording (or the demo) read too slowly was "falling behind the camera", and the TV
    said "too few of the camera's pictures": a table playing a file has no camera, and looked
    for a fault in one."""
    make_demo(tmp_path / "demo")
    store = GameStore(tmp_path / "data")
    loop = LiveLoop(store, FrameKeyedRecognizer([]), str(tmp_path / "demo"), None, speed=8.0)
    loop.stop.set()  # no game to record: the recording is opened and counted, nothing read
    loop._run_camera(str(tmp_path / "demo"))
    assert loop.keep_up is not None
    clock = _Clock()
    loop.keep_up.clock = clock
    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        _read(loop.keep_up, clock, loop.keep_up.drops, reads=60, fps=10.0, every=4)
    said = caplog.records[0].getMessage()
    assert said.startswith("falling behind the recording: its frames are read at 2.5 a second")
    assert store.camera_notice() == {"why": "slow", "speed": 8.0, "source": "recording"}


def test_a_stop_while_waiting_for_a_game_counts_no_frame_as_skipped(tmp_path: Path) -> None:
    """Counting came back on as the wait ended on a stop, and the frame the camera then
    left unread was said at every `systemctl stop`: "1 more frame(s) were skipped, the
    recognizer falling behind"."""
    store = GameStore(tmp_path / "data")
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    loop.stop.set()
    reader = SimpleNamespace(counting=True)
    assert loop._next_game(reader, {}) is None  # type: ignore[arg-type]
    assert reader.counting is False


def test_too_few_frames_read_a_second_are_said_on_the_tv_under_a_picture_notice(
    tmp_path: Path,
) -> None:
    """The log said the recognizer fell behind, but the TV, where the table looks, said
    nothing: the tricks it missed were a surprise at the end of the round."""
    store, loop, read = _slow_camera_loop(tmp_path)
    read(70, one_in=4)  # 2.5 a second
    assert store.camera_notice() == {"why": "slow", "source": "camera"}
    loop._tell_notice(CameraNotice("frozen"))  # the picture's notice comes first
    assert store.camera_notice() == {"why": "frozen"}
    loop._tell_notice(None)  # the picture moves again: still too slow
    assert store.camera_notice() == {"why": "slow", "source": "camera"}
    read(130, one_in=2)  # 5 a second
    assert store.camera_notice() is None


def test_a_demo_game_shorter_than_a_minute_read_too_slowly_is_told(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The rate was first judged a minute after a source's first frame, and each demo game
    (a source of its own) lasts about 58 s: a machine too slow for the demo was never told."""
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    heard: list[bool] = []
    watch = KeepUpWatch(drops, clock=clock, on_slow=heard.append, speed=1.0)
    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        _read(watch, clock, drops, reads=145, fps=10.0, every=4)  # 58 s at 2.5 a second
    assert heard == [True] and watch.slow
    assert [r.getMessage()[:48] for r in caplog.records] == [
        "falling behind the camera: its frames are read a"
    ]


def test_a_first_frame_that_takes_a_second_longer_is_no_false_alarm(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The first window is short: a model warming up on the first frame must not make a
    machine that reads 4 frames a second look too slow."""
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    watch = KeepUpWatch(drops, clock=clock)
    frames = watch.frames(
        Frame(np.zeros((2, 2, 3), np.uint8), t, i)
        for i, t in enumerate([0.0] + [1.0 + k / 4 for k in range(120)])
    )
    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        next(frames)
        clock.now += 1.25  # the first frame read in 1.25 s, the camera's frames meanwhile lost
        for _ in frames:
            clock.now += 0.25
    assert caplog.records == [] and not watch.slow and watch.read > 0


def _play(watch: KeepUpWatch, clock: _Clock, stamps: list[float], speed: float) -> None:
    """A recording's frames at ``stamps`` (its own time) through ``watch``, the clock running
    at ``stamps``' pace over ``speed``, as :class:`Paced` plays them; the frames between two
    read ones were skipped."""
    frames = watch.frames(Frame(np.zeros((2, 2, 3), np.uint8), t, i) for i, t in enumerate(stamps))
    for i, _frame in enumerate(frames):
        if i + 1 < len(stamps):
            clock.now += (stamps[i + 1] - stamps[i]) / speed
            watch.drops.dropped += 3  # type: ignore[misc]


def test_a_demo_game_played_at_speed_8_is_judged_while_it_plays(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """At --speed 4 or more a demo game (about 58 s of the table's time) plays in under 15 s
    of the clock, and the first verdict came 15 s of the clock in: a machine too slow for it
    was never told while the games played, only by the run's last line."""
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    heard: list[bool] = []
    watch = KeepUpWatch(drops, clock=clock, on_slow=heard.append, speed=8.0)
    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        _play(watch, clock, [k / 2.5 for k in range(145)], speed=8.0)  # 58 s at 2.5 a second
    assert heard == [True] and watch.too_fast == 8.0
    said = caplog.records[0].getMessage()
    assert said.startswith("falling behind the camera: its frames are read at 2.5 a second")
    assert clock.now < 7.5  # the whole game's time on the clock


def test_a_first_frame_that_takes_a_second_longer_at_speed_8_is_no_false_alarm(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Judged 15 s of the recording's time in, a second on the clock for the first frame (a
    model's first run) is 8 s of a recording played at --speed 8: a machine reading 4 frames
    a second of it would be told it reads 1.9."""
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    heard: list[bool] = []
    watch = KeepUpWatch(drops, clock=clock, on_slow=heard.append, speed=8.0)
    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        _play(watch, clock, [0.0] + [8.0 + k / 4 for k in range(200)], speed=8.0)
    assert caplog.records == [] and heard == [] and not watch.slow


def _slow_camera_loop(tmp_path: Path) -> tuple[GameStore, LiveLoop, Any]:
    """A loop with a game set up and a camera (10 frames a second, :func:`_camera`). Returns
    the store, the loop and a function reading ``seconds`` of the camera's frames, one in
    ``one_in`` read and the others skipped."""
    store = GameStore(tmp_path / "data")
    store.create_game(["Ana", "Ben", "Cai"], 0, {})
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    return store, loop, _camera(loop)


def _camera(loop: LiveLoop) -> Any:
    """A new camera source for ``loop``, on a fake clock; returns a reader of ``seconds`` of
    its frames at one in ``one_in``."""
    clock, reader = _Clock(), SimpleNamespace(counting=True, dropped=0)
    every = [1]

    def camera() -> Iterator[Frame]:
        for i in range(10**6):
            yield Frame(np.full((2, 2, 3), i % 256, np.uint8), clock.now, i)
            clock.now += every[0] / 10
            reader.dropped += every[0] - 1

    reader.frames = camera
    frames = loop._counting_drops(reader)  # type: ignore[arg-type]
    assert loop.keep_up is not None
    loop.keep_up.clock = clock

    def read(seconds: float, one_in: int) -> None:
        every[0] = one_in
        for _ in range(int(seconds * 10 / one_in)):
            next(frames)

    return read


def test_the_slow_notice_goes_at_a_game_change_and_comes_back_after_15_s(
    tmp_path: Path,
) -> None:
    """A game that followed one read too slowly showed "too few pictures read" for a minute
    more, whatever its own rate: the verdict was the game before's."""
    store, loop, read = _slow_camera_loop(tmp_path)
    read(70, one_in=4)
    assert store.camera_notice() == {"why": "slow", "source": "camera"}
    reader = SimpleNamespace(counting=True)
    assert loop._next_game(reader, {}) is not None  # type: ignore[arg-type]
    assert store.camera_notice() is None  # the new game is judged afresh
    read(10, one_in=4)
    assert store.camera_notice() is None
    read(10, one_in=4)  # 15 s of the new game: still too slow
    assert store.camera_notice() == {"why": "slow", "source": "camera"}


@pytest.mark.parametrize(
    ("before", "after", "notice"), [(4, 1, None), (1, 4, {"why": "slow", "source": "camera"})]
)
def test_a_long_wait_for_the_next_game_leaves_it_its_own_first_verdict(
    tmp_path: Path, before: int, after: int, notice: dict | None
) -> None:
    """After a wait for the next game longer than the last window had left to run, the new
    game's first frame had that window judged: the game before's "too few read" came back on
    the new game's TV at once, and the new game's own verdict came a minute in, not 15 s."""
    store, loop, read = _slow_camera_loop(tmp_path)
    read(70, one_in=before)  # 10 frames a second, one in ``before`` read
    assert loop.keep_up is not None
    loop.keep_up.clock.now += 600.0  # type: ignore[attr-defined]  # nothing set up for 10 min
    assert loop._next_game(SimpleNamespace(counting=True), {}) is not None  # type: ignore[arg-type]
    read(20, one_in=after)
    assert store.camera_notice() == notice


def test_the_slow_notice_goes_when_the_source_changes(tmp_path: Path) -> None:
    """The next demo game's source (or a camera opened again) showed the last one's verdict."""
    store, loop, read = _slow_camera_loop(tmp_path)
    read(70, one_in=4)
    assert store.camera_notice() == {"why": "slow", "source": "camera"}
    read = _camera(loop)
    assert store.camera_notice() is None
    read(20, one_in=1)
    assert store.camera_notice() is None


def test_repeated_pictures_of_a_frozen_camera_are_not_frames_read(tmp_path: Path) -> None:
    """A camera handing out its last picture again (a USB webcam stalling) gave 10 frames a
    second of which one in four was new: its repeats, cheap to skip, were counted as read and
    the rate looked fine while the recognizer saw 2.5 pictures a second."""
    store = GameStore(tmp_path / "data")
    store.create_game(["Ana", "Ben", "Cai"], 0, {})
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    loop._watch_picture("camera", live=True)
    clock, reader = _Clock(), SimpleNamespace(counting=True, dropped=0)

    def camera() -> Iterator[Frame]:
        for i in range(700):  # 70 s, a new picture every 4th frame
            yield Frame(np.full((2, 2, 3), i // 4 % 256, np.uint8), clock.now, i)
            clock.now += 0.1

    reader.frames = camera
    frames = loop._counting_drops(reader)  # type: ignore[arg-type]
    assert loop.keep_up is not None and loop.picture is not None
    loop.keep_up.clock = clock
    for frame in frames:
        loop.picture.repeats(frame)  # what the pipeline asks of each frame
    assert store.camera_notice() == {"why": "slow", "source": "camera"}
    assert loop.keep_up.read == 175 - 1  # the new pictures, the first one beginning the time


@pytest.mark.parametrize(
    ("speed", "dropped", "advice", "notice"),
    [
        (8.0, 3, "it is played at --speed 8, faster than this machine reads it: play it at", 8.0),
        (1.0, 3, '"detector_mirror": false', None),
        (8.0, 0, "the recording itself holds too few frames a second", None),
        (None, 3, '"detector_mirror": false', None),
        (None, 0, "check the camera's frame rate", None),
    ],
)
def test_a_recording_played_too_fast_is_told_to_play_slower(
    caplog: pytest.LogCaptureFixture,
    speed: float | None,
    dropped: int,
    advice: str,
    notice: float | None,
) -> None:
    """A recording or the demo played at --speed 8 on a machine too slow for it was told to
    turn the model down or buy a faster Pi, never to play it slower (its --speed)."""
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    watch = KeepUpWatch(drops, clock=clock, speed=speed)
    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        # 2 frames read a second of the table's time; ``dropped`` skipped after each.
        _read(watch, clock, drops, reads=40, fps=2.0 * (dropped + 1), every=dropped + 1)
    assert watch.slow and watch.too_fast == notice
    assert advice in caplog.records[0].getMessage()
    tally = RunTally()
    tally.follow_drops(drops)
    tally.follow_pace(watch, speed)
    assert advice in tally.summary("D")


def test_the_tv_is_told_at_what_speed_a_recording_is_played_too_fast(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "data")
    loop = LiveLoop(store, FrameKeyedRecognizer([]), "camera", None)
    loop.keep_up = KeepUpWatch(SimpleNamespace(dropped=0), speed=8.0, source="recording")
    loop.keep_up.slow, loop.keep_up.too_fast = True, 8.0
    loop._tell_notice(None)
    assert store.camera_notice() == {"why": "slow", "speed": 8.0, "source": "recording"}


def test_the_first_frame_of_a_game_is_not_timed(caplog: pytest.LogCaptureFixture) -> None:
    """The first window, 15 s, was timed from the first frame, whose reading waits for the
    model's first run and the game's setup (its seats, the TV told): a machine that reads 3.5
    frames a second and took 2 s over its first frame read 3.0 a second of those 15 s and was
    told it was too slow, at the start of the run and again at each new game."""
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    watch = KeepUpWatch(drops, clock=clock)

    def game(start: float) -> Iterator[Frame]:
        """A camera of 10 frames a second, read at 3.5 once its first frame took 2 s."""
        stamps = [start] + [start + 2.0 + k / 3.5 for k in range(60)]
        return (Frame(np.zeros((2, 2, 3), np.uint8), t, i) for i, t in enumerate(stamps))

    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        for start in (0.0, 100.0):  # the run's first game, and the next after a wait
            clock.now = start
            frames = watch.frames(game(start))
            next(frames)
            clock.now += 2.0
            drops.dropped += 19  # the camera's frames meanwhile, lost
            for _ in frames:
                clock.now += 1 / 3.5
                drops.dropped += 2
            watch.restart()
    assert caplog.records == [] and not watch.slow
    assert round(watch.read / watch.seconds, 1) == 3.5
