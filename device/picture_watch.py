"""A camera that works but sees badly: a frozen picture, a dark one, or a blurred one.

Neither stops frames from coming, so nothing else notices. A frozen camera (a USB webcam or
its driver handing out its last picture again) showed the tracker a table where nothing
moved, then every card laid meanwhile at once: the robustness review's replay with four
frozen stretches of 2-3 s flagged two of ten tricks "play order and seats disagree". A
repeated frame is now not recognized again: the pipeline takes the detections of the picture
it repeats (a card that landed just before the freeze still settles, and the trick completes),
and the first new picture counts as after a gap in the frames (cards first seen then are
ordered by seat). A live camera frozen for :data:`FROZEN_REOPEN_S` is a
:class:`~skullcam.device.sources.CameraError`, which ``skullcam run`` answers by opening the
camera again. A lens out of focus misreads cards (blur sigma 2.5 at 640 x 480: three tricks of
ten with a wrong card); only the table can turn the lens, so the TV tells it, once the cards'
sharpness has stayed low for a while: a per-trick flag would mark every trick of a game
played at a sharpness that still reads right. A picture almost black (a webcam's privacy
shutter or a lens cap left closed, the light off) shows no card and looks like an empty table:
the TV tells that too, before the table plays a trick that nothing records.
"""

from __future__ import annotations

import logging
import statistics
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from skullcam.device.sources import CameraError, Frame
from skullcam.vision.detection import Detection
from skullcam.vision.sharpness import card_sharpness

logger = logging.getLogger(__name__)

FROZEN_NOTICE_S = 3.0
"""Seconds of identical frames before the table is told: no live sensor gives two identical
frames (its noise differs), so this is only to let a hiccup pass unsaid."""

FROZEN_REOPEN_S = 20.0
"""Seconds of identical frames after which a live camera is taken as failed and opened again."""

DARK_BELOW = 10.0
"""The picture's mean level (0-255, all channels) under which it is called dark. The rendered
tables measure 25 (the darkest felt) to 234 on this measure. The robustness replay's dusk game,
lit down to a gain of 0.4 with gamma 1.3, went from 39 to 4.5; it is told from 8 (frame 5,085
of 6,244 on), and still read every trick there, as rendered cards carry none of the noise a
real sensor adds in the dark. So the line is where a picture is all but black: a closed
shutter, a lens cap, a room with the light off."""

LIGHT_AGAIN_AT = 20.0
"""The mean level at which a dark picture is called lit again: twice the line, so a picture at
dusk near it does not make the notice come and go."""

DARK_NOTICE_S = 3.0
"""Seconds of dark frames before the table is told: a hand over the lens for a moment is not
a covered lens."""

BLURRED_BELOW = 0.12
"""The cards' median sharpness (:func:`~skullcam.vision.sharpness.sharpness`) under which the
picture is called blurred. On the held-out test split (1,000 generated scenes, read by the
shipped recognizer) scenes read fully right 99.0-99.4 % from 0.15 up, 89.7 % at 0.12-0.15
and 84.6 % at 0.10-0.12: single frames go wrong ten times as often below 0.15. Whole games
hold up longer, as the tracker votes over many frames (the robustness games: blur sigma 2,
about 0.09, still read every trick right; sigma 2.5, about 0.07, misread three of ten), so
the line is drawn between the two: told before the tricks go wrong, not at every soft frame.
A sharp rendered table measures 0.33-0.38."""

SHARP_AGAIN_AT = 0.15
"""The median at which a blurred picture is called sharp again: where single frames read as
well as sharp ones do, and far enough above :data:`BLURRED_BELOW` that a picture near the
line does not make the notice come and go."""

FOCUS_EVERY_S = 1.0
"""Seconds of frames between two sharpness samples: the same cards lie there for seconds."""

CARDS_PER_SAMPLE = 3
"""Cards measured per sample, the ones the recognizer is surest of."""

FOCUS_WINDOW = 40
"""Card measurements the median is taken over: the last ~15-40 s of cards on the table."""

FOCUS_MIN_SAMPLES = 12
"""Card measurements needed before the picture is judged: a card moving under a hand is
smeared for a moment, and one trick's cards are not the camera's focus."""

SHARPNESS_SAID_AGAIN = 0.05
"""How far the cards' sharpness must move from the figure the log last said before the log
says it again: a new game's measurements of the same camera (a looping demo's every minute)
come within 0.01 of each other, a lens turned or a light moved moves it more."""


@dataclass(frozen=True)
class CameraNotice:
    """What is wrong with a working camera's picture, for the TV: ``why`` is ``frozen``,
    ``dark``, ``blurred`` or ``moved`` (the tricks lie away from the seat calibration: the
    camera or the table moved), or, from the live loop, ``slow`` (too few frames read a
    second); ``sharpness`` the cards' median sharpness when blurred; ``speed``, when slow, the
    speed of a recording played faster than this machine reads it (the TV says to play it
    slower, not to mend the camera), and ``source`` what is read too slowly (``camera``,
    ``demo`` or ``recording``: the TV blames no camera for a file)."""

    why: str
    sharpness: float | None = None
    speed: float | None = None
    source: str | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"why": self.why}
        if self.sharpness is not None:
            out["sharpness"] = round(self.sharpness, 3)
        if self.speed is not None:
            out["speed"] = self.speed
        if self.source is not None:
            out["source"] = self.source
        return out


class RepeatedPictures:
    """Frames identical to the one before them, and since when the picture has not changed."""

    def __init__(self) -> None:
        self._last: np.ndarray | None = None
        self._last_seen: Frame | None = None
        self.since: Frame | None = None
        """The frame the picture froze on; None while it changes."""
        self.thawed_from: Frame | None = None
        """On the first frame after a frozen stretch, the frame it had frozen on; else None."""
        self.last_repeat: Frame | None = None
        """The last frame found repeating the one before it."""

    def repeats(self, frame: Frame) -> bool:
        image = frame.image
        last = self._last
        # A strided look first: a changing picture is told apart without reading it all.
        if (
            last is not None
            and last.shape == image.shape
            and np.array_equal(last[::16, ::16], image[::16, ::16])
            and np.array_equal(last, image)
        ):
            if self.since is None:
                self.since = self._last_seen
            self.last_repeat = frame
            return True
        # A copy: a source may hand out one buffer it fills again for each frame.
        self.thawed_from = self.since
        self._last, self._last_seen, self.since = image.copy(), frame, None
        return False

    def frozen_for(self, t: float) -> float:
        return 0.0 if self.since is None else t - self.since.timestamp


class FocusMeter:
    """The median sharpness of the cards seen lately (see :data:`FOCUS_WINDOW`)."""

    def __init__(self) -> None:
        self._samples: deque[float] = deque(maxlen=FOCUS_WINDOW)
        self._next_t = float("-inf")

    def sample(self, frame: Frame, detections: Sequence[Detection]) -> None:
        if not detections or frame.timestamp < self._next_t:
            return
        self._next_t = frame.timestamp + FOCUS_EVERY_S
        surest = sorted(detections, key=lambda d: d.confidence, reverse=True)
        for det in surest[:CARDS_PER_SAMPLE]:
            self._samples.append(card_sharpness(frame.image, det.corners))

    @property
    def median(self) -> float | None:
        if len(self._samples) < FOCUS_MIN_SAMPLES:
            return None
        return statistics.median(self._samples)


class DarkPicture:
    """Since when the picture has been all but black (:data:`DARK_BELOW`), and whether that is
    long enough to say (:data:`DARK_NOTICE_S`), until it is lit again (:data:`LIGHT_AGAIN_AT`)."""

    def __init__(self) -> None:
        self.since: Frame | None = None
        """The first frame of the dark stretch; None while the picture is lit."""
        self.dark = False
        self.level = 255.0

    def sample(self, frame: Frame) -> bool:
        """Measure ``frame`` (every 8th pixel each way: the level of a whole picture); whether
        the verdict changed."""
        self.level = float(np.asarray(frame.image)[::8, ::8].mean())
        if self.level >= (LIGHT_AGAIN_AT if self.dark else DARK_BELOW):
            self.since = None
            if self.dark:
                self.dark = False
                return True
            return False
        if self.since is None:
            self.since = frame
        if not self.dark and frame.timestamp - self.since.timestamp >= DARK_NOTICE_S:
            self.dark = True
            return True
        return False


class SharpnessSaid:
    """The cards' sharpness the log last said for each source, kept over a run's games.

    Each game watches its picture afresh (:meth:`LiveLoop._watch_picture`), so a looping demo
    said "the cards' sharpness is 0.37" at INFO every game, about once a minute, a line that
    reads like a warning and told the operator nothing new. A figure within
    :data:`SHARPNESS_SAID_AGAIN` of the one said goes to DEBUG; a blurred picture is said by its
    own warning whatever the figure."""

    def __init__(self) -> None:
        self._last: dict[str, float] = {}

    def level(self, name: str, median: float) -> int:
        """The log level to say ``name``'s sharpness ``median`` at; INFO counts as said."""
        last = self._last.get(name)
        if last is not None and abs(median - last) < SHARPNESS_SAID_AGAIN:
            return logging.DEBUG
        self._last[name] = median
        return logging.INFO


class PictureWatch:
    """Frozen, dark and blurred pictures of one camera, said as they start and end: in the log,
    and to ``on_notice`` (the live loop's store, for the TV) with the notice now, or None."""

    def __init__(
        self,
        name: str,
        live: bool,
        on_notice: Callable[[CameraNotice | None], None] | None = None,
        said: SharpnessSaid | None = None,
    ) -> None:
        self.name = name
        self.live = live
        """A live camera frozen for :data:`FROZEN_REOPEN_S` is a CameraError (opened again);
        a recording's frozen stretch is only said."""
        self.on_notice = on_notice
        self.repeated = RepeatedPictures()
        self.focus = FocusMeter()
        self.darkness = DarkPicture()
        self.notice: CameraNotice | None = None
        self._blurred = False
        self._moved = False
        self._said_sharpness = False
        self.said = said or SharpnessSaid()
        """The sharpness figures said before, by this run's earlier watches too."""

    @property
    def stale_since(self) -> float | None:
        """On the first frame after a frozen stretch, when the picture froze: what the frames
        between showed was stale, and a card first seen now was laid unseen."""
        thawed = self.repeated.thawed_from
        return None if thawed is None else thawed.timestamp

    def repeated_frame(self, frame: Frame) -> bool:
        """Whether :meth:`repeats` found ``frame`` repeating the picture before it (the live
        loop's count of the frames read a second leaves such frames out)."""
        return self.repeated.last_repeat is frame

    def repeats(self, frame: Frame) -> bool:
        """Whether ``frame`` repeats the picture before it, and so tells nothing new."""
        if not self.repeated.repeats(frame):
            if self.notice is not None and self.notice.why == "frozen":
                logger.info("%s's picture moves again (frame %d)", self.name, frame.index)
                self._tell(self._standing_notice())
            return False
        frozen = self.repeated.frozen_for(frame.timestamp)
        if frozen >= FROZEN_NOTICE_S and (self.notice is None or self.notice.why != "frozen"):
            logger.warning(
                "%s: the same picture for %.0f s (since frame %d): the camera froze, or its "
                "lens is covered; cards laid meanwhile are seen when the picture moves again",
                self.name,
                frozen,
                self.repeated.since.index if self.repeated.since is not None else frame.index,
            )
            self._tell(CameraNotice("frozen"))
        if self.live and frozen >= FROZEN_REOPEN_S:
            raise CameraError(
                f"{self.name} has sent the same picture for {frozen:.0f} s: it is frozen (or "
                "its lens covered); check its cable and lens: skullcam opens it again"
            )
        return True

    def seen(self, frame: Frame, detections: Sequence[Detection]) -> None:
        """A frame recognized: its level counts towards the dark verdict, its cards' sharpness
        towards the focus verdict."""
        if self.darkness.sample(frame):
            self._say_dark(frame)
        self.focus.sample(frame, detections)
        median = self.focus.median
        if median is None:
            return
        if not self._said_sharpness:
            self._said_sharpness = True
            logger.log(
                self.said.level(self.name, median),
                "%s: the cards' sharpness is %.2f (the TV says the picture is blurred below %.2f)",
                self.name,
                median,
                BLURRED_BELOW,
            )
        if not self._blurred and median < BLURRED_BELOW:
            self._blurred = True
            logger.warning(
                "%s's picture is blurred (the cards' sharpness %.2f, below %.2f): cards may be "
                "misread; focus or clean the lens (docs/pi.md, 'Focus, and a frozen or dark "
                "picture')",
                self.name,
                median,
                BLURRED_BELOW,
            )
        elif self._blurred and median >= SHARP_AGAIN_AT:
            self._blurred = False
            logger.info("%s's picture is sharp again (cards' sharpness %.2f)", self.name, median)
        else:
            return
        self._retell()

    def _say_dark(self, frame: Frame) -> None:
        since = self.darkness.since
        if self.darkness.dark and since is not None:
            logger.warning(
                "%s's picture has been almost black for %.0f s (mean level %.0f of 255, since "
                "frame %d): its lens is covered or its shutter closed, or the light is off; "
                "cards laid now may not be seen",
                self.name,
                frame.timestamp - since.timestamp,
                self.darkness.level,
                since.index,
            )
        else:
            logger.info("%s's picture is lit again (frame %d)", self.name, frame.index)
        self._retell()

    def table_moved(self, moved: bool) -> None:
        """The tricks lie away from the seat calibration (the pipeline's table drift), or no
        longer: said while the picture is neither frozen, dark nor blurred, which matter more
        (the seats follow the tricks; only the next calibration needs doing)."""
        if moved == self._moved:
            return
        self._moved = moved
        self._retell()

    def _retell(self) -> None:
        """Say the standing notice now, unless the picture is frozen: that is said until the
        picture moves again, which then says the standing one (:meth:`repeats`)."""
        if self.notice is None or self.notice.why != "frozen":
            self._tell(self._standing_notice())

    def _standing_notice(self) -> CameraNotice | None:
        """What to say while the picture changes: dark, else blurred, else moved, else nothing.
        A dark picture's cards, if any, are not what to focus on."""
        if self.darkness.dark:
            return CameraNotice("dark")
        if self._blurred:
            return CameraNotice("blurred", self.focus.median)
        return CameraNotice("moved") if self._moved else None

    def _tell(self, notice: CameraNotice | None) -> None:
        if notice == self.notice:
            return
        self.notice = notice
        if self.on_notice is not None:
            self.on_notice(notice)
