"""A run's tally over several games, and the word said when the recognizer falls behind."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from demo_games import make_demo

from skullcam.device import live as live_module
from skullcam.device.demo_game import DemoGame
from skullcam.device.live import LiveLoop
from skullcam.device.run_tally import RunTally, warn_when_behind
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
    assert tally.summary("DATA").startswith("recorded 35 trick(s) from 600 frame(s) into DATA; 7")


def test_a_run_without_skipped_frames_says_nothing_of_them() -> None:
    tally = RunTally()
    tally.follow_pipeline(_pipeline(6, 537))  # type: ignore[arg-type]
    tally.follow_drops(SimpleNamespace(dropped=0))
    assert tally.summary("D") == "recorded 6 trick(s) from 537 frame(s) into D"


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _frames(n: int) -> list[Frame]:
    return [Frame(np.zeros((2, 2, 3), np.uint8), i / 10, i) for i in range(n)]


@pytest.mark.parametrize(("dropped_each", "warned"), [(1, True), (0, False)])
def test_a_minute_with_many_frames_skipped_is_said(
    caplog: pytest.LogCaptureFixture, dropped_each: int, warned: bool
) -> None:
    clock, drops = _Clock(), SimpleNamespace(dropped=0)
    with caplog.at_level(logging.WARNING, logger="skullcam.device.run_tally"):
        for _ in warn_when_behind(_frames(100), drops, window_s=60.0, clock=clock):
            clock.now += 1.0  # a frame a second, one more skipped behind each
            drops.dropped += dropped_each
    said = [r.getMessage() for r in caplog.records]
    if warned:
        assert len(said) == 1  # once a minute, not once a frame
        assert said[0].startswith("falling behind the camera: 60 of the last 120 frames")
        assert "docs/pi.md" in said[0]
    else:
        assert said == []


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
    assert f"; {loop.tally.dropped} more frame(s) were skipped" in loop.tally.summary("D")


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
