"""What a whole ``skullcam run`` recorded and what it could not keep up with.

A run may play several games (a looping demo, a camera left on for the evening), each
through its own pipeline and frame source, and its last line counts them all. The frames a
source skips because the recognizer fell behind (a paced recording drops late frames, a live
camera's reader keeps only the newest) are said as they happen too: a Pi that cannot keep up
misses cards laid and taken quickly, and without a word the table would never know why.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from skullcam.device.pipeline import Pipeline
from skullcam.device.sources import Frame

logger = logging.getLogger(__name__)

BEHIND_WINDOW_S = 60.0
"""How often the share of skipped frames is looked at (and at most said)."""

BEHIND_SHARE = 0.1
"""A window with more than this share of its frames skipped is said: a few late frames on a
busy machine are harmless, the tracker votes over many."""

KEEP_UP_ADVICE = "see docs/pi.md, 'If the Pi cannot keep up'"


class DropCounter(Protocol):
    """A frame source's count of the frames it skipped (``Paced``, ``LatestFrameReader``)."""

    @property
    def dropped(self) -> int: ...


@dataclass
class RunTally:
    """Tricks, frames and skipped frames over every game of a run."""

    _tricks: int = 0
    _frames: int = 0
    _dropped: int = 0
    _pipeline: Pipeline | None = field(default=None, repr=False)
    _drops: DropCounter | None = field(default=None, repr=False)

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

    @property
    def tricks(self) -> int:
        return self._tricks + (self._pipeline.stats.tricks if self._pipeline else 0)

    @property
    def frames(self) -> int:
        return self._frames + (self._pipeline.stats.frames if self._pipeline else 0)

    @property
    def dropped(self) -> int:
        return self._dropped + (self._drops.dropped if self._drops else 0)

    def summary(self, data: object) -> str:
        """The run's last line."""
        line = f"recorded {self.tricks} trick(s) from {self.frames} frame(s) into {data}"
        if self.dropped:
            line += (
                f"; {self.dropped} more frame(s) were skipped, the recognizer falling behind"
                f" ({KEEP_UP_ADVICE})"
            )
        return line


def warn_when_behind(
    frames: Iterable[Frame],
    drops: DropCounter,
    window_s: float = BEHIND_WINDOW_S,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[Frame]:
    """``frames`` as they come, with a warning for each ``window_s`` in which more than
    :data:`BEHIND_SHARE` of the source's frames were skipped."""
    since, seen, dropped_before = clock(), 0, drops.dropped
    for frame in frames:
        seen += 1
        yield frame
        now = clock()
        if now - since < window_s:
            continue
        dropped = drops.dropped - dropped_before
        offered = seen + dropped
        if dropped > BEHIND_SHARE * offered:
            logger.warning(
                "falling behind the camera: %d of the last %d frames were skipped (%.0f %%),"
                " so cards laid and taken quickly may be missed; %s",
                dropped,
                offered,
                100.0 * dropped / offered,
                KEEP_UP_ADVICE,
            )
        since, seen, dropped_before = now, 0, drops.dropped
