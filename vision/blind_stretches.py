"""The stretches the camera did not see the table: before its first frame, and over each gap in
the frames (:attr:`~skullcam.vision.trick_events.TrickConfig.blind_gap_s`). A card first seen
just after one was laid unseen, so its arrival says nothing of when it was played."""

from __future__ import annotations

from skullcam.vision.tracker import Track
from skullcam.vision.trick_events import RECENT_KEPT, TrickConfig


class BlindStretches:
    """Where the latest stretches of unseen table ended, frame by frame; the trick state
    machine asks which one a card was first seen just after."""

    def __init__(self, config: TrickConfig) -> None:
        self.config = config
        self._last_frame: float | None = None
        self._ends: list[float] = []
        """The first frame, and each frame after a gap (:attr:`TrickConfig.blind_gap_s`), the
        latest few: cards first seen just after one were played unseen
        (:attr:`TrickConfig.already_down_s`)."""

    def note_frame(self, t: float, stale_since: float | None) -> None:
        """A frame at ``t``; ``stale_since``: the frames before it repeated a picture taken
        then (a frozen camera), so the table was unseen since, as over a gap in the frames."""
        seen_before = self._last_frame if stale_since is None else stale_since
        if seen_before is None or t - seen_before >= self.config.blind_gap_s:
            self._ends = [*self._ends[1 - RECENT_KEPT :], t]
        self._last_frame = t

    def window(self, track: Track) -> int | None:
        """Which of the latest stretches of unseen table ``track`` was first seen just after
        (the camera's first frame, or a gap in the frames), if any: a card laid then."""
        after = self.config.already_down_s
        return next(
            (k for k, end in enumerate(self._ends) if end <= track.first_seen <= end + after),
            None,
        )
