"""What a whole ``skullcam run`` recorded and whether it kept up with the table.

A run may play several games (a looping demo, a camera left on for the evening), each
through its own pipeline and frame source, and its last line counts them all. How many frames
a second the recognizer gets through is said as it happens too: a Pi that reads too few misses
cards laid and taken quickly, and without a word the table would never know why.

The rate is what counts, not the share of frames skipped (a live camera's reader keeps only the
newest frame, a paced recording drops late ones): a 30 frames/s camera read at 5 skips 83 % and
misses nothing, a 5 frames/s camera read at 2.5 skips half and loses tricks.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from skullcam.counts import agreeing, counted
from skullcam.device.pipeline import Pipeline
from skullcam.device.sources import Frame

logger = logging.getLogger(__name__)

BEHIND_WINDOW_S = 60.0
"""How often the frames read are counted (and a rate too low is at most said)."""

FIRST_WINDOW_S = 15.0
"""The first window's length, from a source's second frame and again from a game's second
frame after a wait for it, on the clock or in the source's time, whichever comes first: a
minute is longer than a demo game (about 58 s, each a source of its own), which would leave a
machine too slow for the demo untold, and a new game waiting a minute for its own verdict; a
recording played at ``--speed 4`` or more plays a demo game in under 15 s of the clock. 15 s
is some 50 frames read even at the line. The first frame begins nothing: the time it takes
(a model's first run) is not the pace frames are read at, and at ``--speed 8`` a second of
it would be 8 of the 15."""

KEEP_UP_FRAMES_PER_S = 3.3
"""Frames a second of the table's time the recognizer must get through for the tracker to
follow every trick. Replaying 29 generated games of 10 frames/s (388 tricks, the generator's
truth as recognizer) thinned: 386 tricks right at the full rate, 385 at 3.3 frames a second,
357 at 2.5, 293 at 2 (docs/pi.md, 'If the Pi cannot keep up')."""

KEEP_UP_ADVICE = "see docs/pi.md, 'If the Pi cannot keep up'"

FASTER = (
    'to read more, set "detector_mirror": false in the model\'s recognizer.json, stop other '
    "loads on this machine, or run on a faster one, a Pi 5 rather than a Pi 4"
)
"""What makes the recognizer read more frames a second: ``skullcam run`` has no option for
it; the model's settings, the machine's other work and the machine itself do."""


class DropCounter(Protocol):
    """A frame source's count of the frames it skipped (``Paced``, ``LatestFrameReader``)."""

    @property
    def dropped(self) -> int: ...


class FramesRead(Protocol):
    """Frames read and the seconds of the source's time they span (:class:`KeepUpWatch`)."""

    @property
    def read(self) -> int: ...

    @property
    def seconds(self) -> float: ...


def too_fast(dropped: int, speed: float | None) -> float | None:
    """The speed a recording (or the demo) is played at when it, not the machine, is what to
    change: frames were skipped and it plays faster than real time; else None."""
    return speed if dropped and speed is not None and speed > 1 else None


def what_to_do(dropped: int, speed: float | None = None) -> str:
    """With frames skipped the recognizer is too slow for the frames' pace: a recording played
    faster than real time (``speed``; None for a live camera) is played slower, else the
    recognizer must read more; with none skipped the camera (or the recording) gives too few."""
    if (fast := too_fast(dropped, speed)) is not None:
        return (
            f"it is played at --speed {fast:g}, faster than this machine reads it: play it at a "
            "lower --speed (1 = real time), or --speed 0 to read every frame as fast as it can"
        )
    if dropped:
        return FASTER
    if speed is not None:
        return "the recording itself holds too few frames a second"
    return "check the camera's frame rate: a dim room slows a webcam"


def rate_of(read: int, seconds: float) -> float | None:
    """Frames a second, None before any time has passed."""
    return read / seconds if seconds > 0 else None


@dataclass
class RunTally:
    """Tricks, frames, skipped frames and the rate frames were read at, over every game."""

    _tricks: int = 0
    _frames: int = 0
    _dropped: int = 0
    _read: int = 0
    _seconds: float = 0.0
    _speed: float | None = None
    _pipeline: Pipeline | None = field(default=None, repr=False)
    _drops: DropCounter | None = field(default=None, repr=False)
    _pace: FramesRead | None = field(default=None, repr=False)

    def follow_pipeline(self, pipeline: Pipeline) -> None:
        """A new game's pipeline: the one before is counted and let go (a looping demo
        would otherwise keep every game's)."""
        if self._pipeline is not None:
            self._tricks += self._pipeline.stats.tricks
            self._frames += self._pipeline.stats.frames
        self._pipeline = pipeline

    def follow_drops(self, drops: DropCounter) -> None:
        if self._drops is not None:
            self._dropped += self._drops.dropped
        self._drops = drops

    def follow_pace(self, pace: FramesRead, speed: float | None = None) -> None:
        """A new source's frames read; ``speed`` the pace a recording is played at (None for
        a live camera), which the advice of :meth:`summary` follows."""
        if self._pace is not None:
            self._read += self._pace.read
            self._seconds += self._pace.seconds
        self._pace = pace
        self._speed = speed

    @property
    def tricks(self) -> int:
        return self._tricks + (self._pipeline.stats.tricks if self._pipeline else 0)

    @property
    def frames(self) -> int:
        return self._frames + (self._pipeline.stats.frames if self._pipeline else 0)

    @property
    def dropped(self) -> int:
        return self._dropped + (self._drops.dropped if self._drops else 0)

    @property
    def frames_per_s(self) -> float | None:
        """Frames read a second of the sources' time over the run; None when not measured
        (a recording played as fast as possible)."""
        if self._pace is None:
            return rate_of(self._read, self._seconds)
        return rate_of(self._read + self._pace.read, self._seconds + self._pace.seconds)

    def summary(self, data: object) -> str:
        """The run's last line."""
        tricks, frames = counted(self.tricks, "trick"), counted(self.frames, "frame")
        line = f"recorded {tricks} from {frames} into {data}"
        rate = self.frames_per_s
        if self.dropped:
            skipped = agreeing(self.dropped, "was", "were")
            line += f"; {counted(self.dropped, 'more frame')} {skipped} skipped"
        if rate is None:
            return line
        line += f"{',' if self.dropped else ';'} {rate:.1f} frames a second read"
        if rate < KEEP_UP_FRAMES_PER_S:
            line += (
                f": below {KEEP_UP_FRAMES_PER_S} tricks can be missed"
                f" ({what_to_do(self.dropped, self._speed)}; {KEEP_UP_ADVICE})"
            )
        return line


@dataclass
class _Window:
    """The frames read since a window began, and the source's time from its first to its last
    (``read`` counts those after the first: the first begins the time they span). ``length_s``
    is how long it runs on the clock before it is judged."""

    began: float
    first_stamp: float
    dropped_before: int
    length_s: float
    first: bool = False
    """A source's or a game's first: judged as soon as it spans ``length_s`` of the source's
    time, if that comes before the clock's (a recording played faster than real time)."""
    last_stamp: float = 0.0
    read: int = 0

    def __post_init__(self) -> None:
        self.last_stamp = self.first_stamp

    @property
    def seconds(self) -> float:
        return self.last_stamp - self.first_stamp

    def ran(self, now: float) -> bool:
        """Whether it has run its length, and is judged."""
        return now - self.began >= self.length_s or (self.first and self.seconds >= self.length_s)

    def add(self, frame: Frame, new: bool = True) -> None:
        """``frame`` done with; ``new`` when it showed a new picture: a repeat of the one
        before (a frozen camera) is time passing with nothing read."""
        self.read += new
        self.last_stamp = frame.timestamp


SOURCES = {"camera": "the camera", "demo": "the demo game", "recording": "the recording"}
"""What :class:`KeepUpWatch` reads frames from, by the name the TV's ``slow`` notice gives it
(its ``source``), and as the log says it falls behind it."""


class KeepUpWatch:
    """Counts the frames the recognizer gets through a second of the source's time (its
    frames' timestamps: a recording played 8 times as fast is read per second of the table)
    and warns when that is below :data:`KEEP_UP_FRAMES_PER_S`: first :data:`FIRST_WINDOW_S`
    (of the clock or of the source's time, whichever comes first) after the second frame (and
    after each :meth:`restart`), then at most once a ``window_s`` of the clock; once it is
    back above, says so once. ``on_slow`` hears each change of the verdict (the live loop
    tells the TV).

    A frame counts once its consumer asks for the next, and only when ``repeated`` (the
    consumer's verdict on it) says it showed a new picture: a frozen camera hands out its last
    picture again, cheap to skip, and counted, those repeats would make a camera that gives
    the recognizer few pictures look fast. ``speed`` is a recording's pace (None for a live
    camera): played faster than real time, the advice is to play it slower. ``source`` is what
    the frames come from (:data:`SOURCES`), which the warning names as what it falls behind
    and the TV's notice names too: a file played too slowly has no camera to fall behind."""

    def __init__(
        self,
        drops: DropCounter,
        window_s: float = BEHIND_WINDOW_S,
        clock: Callable[[], float] = time.monotonic,
        on_slow: Callable[[bool], None] | None = None,
        speed: float | None = None,
        repeated: Callable[[Frame], bool] | None = None,
        first_window_s: float = FIRST_WINDOW_S,
        source: str = "camera",
    ) -> None:
        self.drops = drops
        self.source = source
        self.on_slow = on_slow
        self.window_s = window_s
        self.first_window_s = first_window_s
        self.clock = clock
        self.speed = speed
        self.repeated = repeated
        self._window: _Window | None = None
        self._read_before = 0
        self._seconds_before = 0.0
        self._restart = False
        self.slow = False
        """Whether the last window judged read too few frames a second."""
        self.too_fast: float | None = None
        """While :attr:`slow` for a recording played faster than this machine reads it, its
        speed (:func:`too_fast`): the TV then says to play it slower."""

    @property
    def behind(self) -> str:
        """The source as the warning says it falls behind: "the camera", "the demo game"."""
        return SOURCES[self.source]

    @property
    def read(self) -> int:
        """Frames read so far, over every window (the first two after each start or restart
        not counted: the second begins the time they span)."""
        return self._read_before + (self._window.read if self._window else 0)

    @property
    def seconds(self) -> float:
        """The seconds of the source's time the frames :attr:`read` span."""
        return self._seconds_before + (self._window.seconds if self._window else 0.0)

    def restart(self) -> None:
        """A pause that is not the recognizer's (the camera waited for a game to be set up
        on the web page): the frames after it are not timed from those before, and the
        verdict on those before is not the new game's, so its TV drops it; the new game's is
        said after :attr:`first_window_s`. The frame handed out before the wait is not
        counted: its count comes as the new game asks for its first frame, and after a wait
        longer than the window had left on the clock the window would be judged then, the
        game before's verdict told at the new game's start and its first window lost."""
        self._restart = True
        self._set_slow(False, None)

    def frames(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        """``frames`` as they come, counted. After a start or a restart the first two frames
        each begin the window afresh: the first one's time is not the recognizer's pace."""
        beginnings = 0
        for frame in frames:
            if self._window is None or self._restart:
                beginnings = 2
            window = self._window
            if window is None or beginnings:
                beginnings -= 1
                self._begin(frame, self.first_window_s, first=True)
                yield frame
                continue
            yield frame
            if not self._restart:  # the frame before a wait is the game before's: not judged
                self._count(window, frame)

    def _count(self, window: _Window, frame: Frame) -> None:
        """``frame``, which its consumer is done with, into ``window``; judged once it has
        run its length."""
        window.add(frame, new=self.repeated is None or not self.repeated(frame))
        if window.ran(self.clock()):
            self._judge(window)
            self._begin(frame, self.window_s)

    def _begin(self, frame: Frame, length_s: float, first: bool = False) -> None:
        """A new window from ``frame``; the one before goes into the totals."""
        if self._window is not None:
            self._read_before += self._window.read
            self._seconds_before += self._window.seconds
        dropped = self.drops.dropped
        self._window = _Window(self.clock(), frame.timestamp, dropped, length_s, first)
        self._restart = False

    def _judge(self, window: _Window) -> None:
        rate = rate_of(window.read, window.seconds) if window.read else 0.0
        if rate is None:
            return
        if rate >= KEEP_UP_FRAMES_PER_S:
            if self.slow:
                logger.info("keeping up again: %.1f frames a second read", rate)
                self._set_slow(False, None)
            return
        dropped = self.drops.dropped - window.dropped_before
        self._set_slow(True, too_fast(dropped, self.speed))
        logger.warning(
            "%s; below %s a second, cards laid and taken quickly can be missed: %s; %s",
            self._slow(rate, dropped, window),
            KEEP_UP_FRAMES_PER_S,
            what_to_do(dropped, self.speed),
            KEEP_UP_ADVICE,
        )

    def _set_slow(self, slow: bool, fast: float | None) -> None:
        """The verdict, told to ``on_slow`` when it (or what to do about it) changed."""
        if (slow, fast) == (self.slow, self.too_fast):
            return
        self.slow, self.too_fast = slow, fast
        if self.on_slow is not None:
            self.on_slow(slow)

    def _slow(self, rate: float, dropped: int, window: _Window) -> str:
        if not dropped:
            return f"frames come at only {rate:.1f} a second, none skipped"
        return (
            f"falling behind {self.behind}: its frames are read at {rate:.1f} a second"
            f" ({dropped} skipped in the last {window.length_s:.0f} s)"
        )
