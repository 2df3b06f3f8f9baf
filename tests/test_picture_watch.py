"""A working camera that sees badly: repeated (frozen) frames, a dark and a blurred picture."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from repo_paths import SAMPLE_SCENES as SCENES

from skullcam.device.live import LiveLoop
from skullcam.device.picture_watch import (
    BLURRED_BELOW,
    DARK_BELOW,
    DARK_NOTICE_S,
    FOCUS_MIN_SAMPLES,
    FROZEN_NOTICE_S,
    FROZEN_REOPEN_S,
    LIGHT_AGAIN_AT,
    SHARP_AGAIN_AT,
    CameraNotice,
    PictureWatch,
    RepeatedPictures,
)
from skullcam.device.sources import CameraError, Frame
from skullcam.store import GameStore
from skullcam.vision.detection import Detection
from skullcam.vision.sharpness import card_sharpness


def _scene(index: int = 0) -> tuple[np.ndarray, list[Detection]]:
    """A committed generated scene and its whole cards, as the recognizer would report them."""
    rows = (SCENES / "labels" / "test" / "scenes.jsonl").read_text().splitlines()
    row = json.loads(rows[index])
    image = cv2.imread(str(SCENES / row["file"]))
    assert image is not None
    cards = [c for c in row["cards"] if c["visible_fraction"] > 0.95]
    dets = [
        Detection.from_corners(c["face"], 0.9, np.array(c["corners"], np.float32)) for c in cards
    ]
    return image, dets


OUT_OF_FOCUS = 4.5
"""A blur (sigma, px) well past the line on every whole card of the committed scene."""


def _noisy(base: np.ndarray, seed: int) -> np.ndarray:
    """``base`` with a sensor's noise: no two frames of a working camera are identical."""
    noise = np.random.default_rng(seed).integers(0, 3, base.shape, dtype=np.uint8)
    return cv2.add(base, noise)


class Told:
    def __init__(self) -> None:
        self.notices: list[CameraNotice | None] = []

    def __call__(self, notice: CameraNotice | None) -> None:
        self.notices.append(notice)


def test_only_a_frame_identical_to_the_one_before_repeats() -> None:
    image = np.full((48, 64, 3), 90, np.uint8)
    seen = RepeatedPictures()
    assert not seen.repeats(Frame(image, 0.0, 0))
    assert seen.repeats(Frame(image.copy(), 0.1, 1))
    changed = image.copy()
    changed[47, 63, 2] = 91  # one channel of one pixel, off the strided look's grid
    assert not seen.repeats(Frame(changed, 0.2, 2))
    assert not seen.repeats(Frame(np.full((48, 32, 3), 90, np.uint8), 0.3, 3))  # another size


def test_a_buffer_the_source_fills_again_is_compared_by_content() -> None:
    """A source may hand out one array it refills: kept by reference, every frame would look
    like the one before, and a working camera would be called frozen."""
    buffer = np.zeros((48, 64, 3), np.uint8)
    seen = RepeatedPictures()
    assert not seen.repeats(Frame(buffer, 0.0, 0))
    buffer[:] = 40
    assert not seen.repeats(Frame(buffer, 0.1, 1))
    assert seen.repeats(Frame(buffer, 0.2, 2))  # refilled with the same picture: a repeat


def test_a_frozen_picture_is_told_after_a_while_and_untold_when_it_moves() -> None:
    told = Told()
    watch = PictureWatch("camera 0", live=False, on_notice=told)
    image = np.full((48, 64, 3), 70, np.uint8)
    assert not watch.repeats(Frame(image, 0.0, 0))
    fps = 10
    before_notice = range(1, round(FROZEN_NOTICE_S * fps))
    repeated = [watch.repeats(Frame(image, k / fps, k)) for k in before_notice]
    assert all(repeated) and told.notices == []  # a hiccup is not said
    assert watch.repeats(Frame(image, FROZEN_NOTICE_S, 99))
    assert told.notices == [CameraNotice("frozen")]
    assert watch.repeats(Frame(image, FROZEN_REOPEN_S + 1, 500))  # a recording is not reopened
    assert told.notices == [CameraNotice("frozen")]  # said once
    assert not watch.repeats(Frame(_noisy(image, 1), FROZEN_REOPEN_S + 2, 501))
    assert told.notices == [CameraNotice("frozen"), None]


def test_a_live_camera_frozen_too_long_fails_to_be_opened_again() -> None:
    watch = PictureWatch("camera 0", live=True)
    image = np.full((48, 64, 3), 70, np.uint8)
    watch.repeats(Frame(image, 0.0, 0))
    assert watch.repeats(Frame(image, FROZEN_REOPEN_S - 0.1, 1))
    with pytest.raises(CameraError, match="camera 0 has sent the same picture for 20 s"):
        watch.repeats(Frame(image, FROZEN_REOPEN_S, 2))


def test_the_committed_scene_is_sharp_and_blurring_it_makes_it_blurred() -> None:
    """The figures the notice's line was drawn from, on a committed rendered scene."""
    image, dets = _scene()
    assert len(dets) >= 3

    def median(picture: np.ndarray) -> float:
        return float(np.median([card_sharpness(picture, d.corners) for d in dets]))

    sharp = median(image)
    assert sharp > 2 * SHARP_AGAIN_AT
    assert median(cv2.GaussianBlur(image, (0, 0), OUT_OF_FOCUS)) < BLURRED_BELOW
    dim = cv2.convertScaleAbs(image, alpha=0.4)  # a dim room is not a blurred lens
    assert median(dim) > SHARP_AGAIN_AT


def _feed(
    watch: PictureWatch, image: np.ndarray, dets: list[Detection], t0: float, n: int
) -> float:
    """``n`` frames a second apart (each sampled), every one a new picture; the next time."""
    for k in range(n):
        frame = Frame(_noisy(image, int(t0) + k), t0 + k, int(t0) + k)
        assert not watch.repeats(frame)
        watch.seen(frame, dets)
    return t0 + n


def test_a_blurred_picture_is_told_once_enough_cards_were_seen_and_untold_when_sharp() -> None:
    image, dets = _scene()
    blurred = cv2.GaussianBlur(image, (0, 0), OUT_OF_FOCUS)
    told = Told()
    watch = PictureWatch("camera 0", live=True, on_notice=told)
    per_frame = min(len(dets), 3)
    need = -(-FOCUS_MIN_SAMPLES // per_frame)
    t = _feed(watch, blurred, dets, 0.0, need - 1)
    assert told.notices == []  # too few cards yet to judge the lens
    t = _feed(watch, blurred, dets, t, 1)
    (notice,) = told.notices
    assert notice is not None and notice.why == "blurred"
    assert notice.sharpness is not None and notice.sharpness < BLURRED_BELOW
    # Frozen while blurred: frozen is what the table must hear; blurred again once it moves.
    still = Frame(blurred, t, 1000)
    watch.repeats(still)
    watch.repeats(Frame(blurred, t + FROZEN_NOTICE_S, 1001))
    assert told.notices[-1] == CameraNotice("frozen")
    t = _feed(watch, blurred, dets, t + FROZEN_NOTICE_S + 1, 1)
    assert told.notices[-1] is not None and told.notices[-1].why == "blurred"
    # Focused: the median comes back over the line once most cards measured are sharp.
    t = _feed(watch, image, dets, t, 40)
    assert told.notices[-1] is None
    assert [n.why if n else None for n in told.notices] == ["blurred", "frozen", "blurred", None]


def test_a_sharp_picture_is_never_told(caplog: pytest.LogCaptureFixture) -> None:
    image, dets = _scene()
    told = Told()
    watch = PictureWatch("camera 0", live=True, on_notice=told)
    with caplog.at_level("INFO"):
        _feed(watch, image, dets, 0.0, 30)
        watch.seen(Frame(image, 40.0, 40), [])  # an empty table measures nothing
    assert told.notices == []
    said = [r.getMessage() for r in caplog.records]
    assert sum("the cards' sharpness is" in m for m in said) == 1  # said once, for the log


def test_the_same_sharpness_is_not_said_again_at_each_new_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A looping demo watches each game's picture afresh: the log said "the cards' sharpness is
    0.37" at INFO every game, about once a minute. Said again only when the figure moved."""
    image, dets = _scene()
    loop = LiveLoop(GameStore(tmp_path), lambda frame: [], "0", None)
    soft = cv2.GaussianBlur(image, (0, 0), 1.0)  # 0.23 against 0.46: softer, not blurred

    def figures_said(picture: np.ndarray) -> list[str]:
        caplog.clear()
        loop._watch_picture("demo", live=False)
        assert loop.picture is not None
        with caplog.at_level("INFO", logger="skullcam.device.picture_watch"):
            _feed(loop.picture, picture, dets, 0.0, 30)
        return [r.levelname for r in caplog.records if "the cards' sharpness is" in r.getMessage()]

    assert figures_said(image) == ["INFO"]
    assert figures_said(image) == []  # the next game: the same figure, at DEBUG
    assert figures_said(image) == []
    assert figures_said(soft) == ["INFO"]  # the lens turned: worth the operator's eye
    assert figures_said(soft) == []


def test_a_pipeline_with_a_picture_watch_does_not_recognize_repeated_frames(
    tmp_path: Path,
) -> None:
    from skullcam.device.pipeline import Pipeline
    from skullcam.device.referee import Referee
    from skullcam.vision.seats import SeatLayout

    calls: list[float] = []

    def recognizer(image: np.ndarray) -> list[Detection]:
        calls.append(float(image[0, 0, 0]))
        return []

    referee = Referee(["Ana", "Ben", "Cai"], 0)
    layout = SeatLayout.default(3, (64, 48))
    pipeline = Pipeline(
        recognizer, referee, layout, picture=PictureWatch("test", live=False), motion=False
    )
    frozen = np.full((48, 64, 3), 7, np.uint8)
    frames = [Frame(frozen, k / 10, k) for k in range(5)]
    frames.append(Frame(np.full((48, 64, 3), 8, np.uint8), 0.5, 5))
    for frame in frames:
        pipeline.process(frame)
    assert calls == [7.0, 8.0]
    assert pipeline.stats.repeats == 4 and pipeline.stats.frames == 2


def test_a_card_that_landed_just_before_the_picture_froze_still_counts() -> None:
    """The long 8-player review: the last card of a trick lay still 0.2 s, then the picture
    froze for 3 s while the table picked the trick up. With repeats skipped the card never
    settled and the trick was reported a card short, which stopped the score; a repeat now
    shows what its picture showed, so the card settles and the trick is whole."""
    import math

    from skullcam.device.pipeline import Pipeline
    from skullcam.device.referee import Referee
    from skullcam.device.scripted import FrameKeyedRecognizer, card_detection, key_image
    from skullcam.vision.seats import SeatLayout

    layout = SeatLayout.default(3)
    cx, cy = layout.centre

    def at_seat(card: str, seat: int) -> Detection:
        a = layout.angles[seat]
        return card_detection(card, (cx + 110 * math.cos(a), cy + 110 * math.sin(a)))

    trick = [at_seat("green-3", 0), at_seat("green-9", 1), at_seat("green-5", 2)]
    script: list[list[Detection]] = [[] for _ in range(10)]
    script += [trick[:1]] * 10 + [trick[:2]] * 10 + [trick] * 2  # the last card: 0.2 s
    frozen_on = len(script) - 1
    referee = Referee(["Ana", "Ben", "Cai"], 2)  # Ana leads
    pipeline = Pipeline(
        FrameKeyedRecognizer(script), referee, layout, picture=PictureWatch("test", live=False)
    )
    keys = list(range(len(script))) + [frozen_on] * 30 + [len(script)] * 30  # frozen, swept
    for index, key in enumerate(keys):
        pipeline.process(Frame(key_image(key), index / 10, index))
    pipeline.finish(Frame(key_image(len(script)), len(keys) / 10, len(keys)))
    (outcome,) = pipeline.outcomes
    assert list(outcome.plays) == [(0, "green-3"), (1, "green-9"), (2, "green-5")]
    assert outcome.winner == 1 and not outcome.flags
    assert pipeline.stats.repeats == 30 + 29  # the swept table repeats itself too here


def test_a_moved_table_is_told_below_a_blurred_or_frozen_picture() -> None:
    """The tricks left the seat calibration: the TV says so (calibrate again), unless the
    picture is frozen or blurred, which the table must hear first; said again after those."""
    image, dets = _scene()
    told = Told()
    watch = PictureWatch("camera 0", live=True, on_notice=told)
    watch.table_moved(True)
    watch.table_moved(True)  # the same: told once
    assert told.notices == [CameraNotice("moved")]
    still = Frame(image, 0.0, 1)
    watch.repeats(still)
    watch.repeats(Frame(image, FROZEN_NOTICE_S, 2))
    watch.table_moved(False)  # meanwhile: frozen stays what is said
    assert told.notices[-1] == CameraNotice("frozen")
    watch.table_moved(True)
    _feed(watch, image, dets, FROZEN_NOTICE_S + 1, 1)  # the picture moves again
    assert told.notices == [CameraNotice("moved"), CameraNotice("frozen"), CameraNotice("moved")]
    watch.table_moved(False)
    assert told.notices[-1] is None


def _level(level: float, t: float, index: int) -> Frame:
    """A picture of mean ``level`` with a sensor's noise (a covered lens is not one value)."""
    base = np.full((48, 64, 3), int(level), np.uint8)
    return Frame(_noisy(base, index), t, index)


def _show(watch: PictureWatch, level: float, t0: float, seconds: float) -> float:
    """Frames of ``level`` every half second for ``seconds``, each recognized with no card."""
    t = t0
    while t < t0 + seconds:
        frame = _level(level, t, int(t * 2))
        assert not watch.repeats(frame)
        watch.seen(frame, [])
        t += 0.5
    return t


def test_an_almost_black_picture_is_told_after_a_while_and_untold_once_lit(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A webcam's privacy shutter left closed: frames come, each new (noise), none with a
    card; the table would play a whole trick that nothing records, and not know."""
    told = Told()
    watch = PictureWatch("camera 0", live=True, on_notice=told)
    _show(watch, 3, 0.0, DARK_NOTICE_S + 0.5)  # dark from the first frame, at time 0
    assert told.notices == [CameraNotice("dark")]
    assert re.search(r"almost black for 3 s \(mean level \d of 255, since frame 0\)", caplog.text)
    told = Told()
    watch = PictureWatch("camera 0", live=True, on_notice=told)
    t = _show(watch, 40, 0.0, 5)  # the table, lit
    t = _show(watch, 3, t, DARK_NOTICE_S - 1)  # a hand over the lens for a moment
    t = _show(watch, 40, t, 1)
    assert told.notices == []
    t = _show(watch, 3, t, DARK_NOTICE_S + 0.5)
    assert told.notices == [CameraNotice("dark")]
    t = _show(watch, (DARK_BELOW + LIGHT_AGAIN_AT) / 2, t, 5)  # dusk near the line: still dark
    assert told.notices == [CameraNotice("dark")]
    _show(watch, LIGHT_AGAIN_AT + 5, t, 1)
    assert told.notices == [CameraNotice("dark"), None]


def test_the_store_keeps_the_dark_notice_for_the_tv(tmp_path: Path) -> None:
    """As the live loop hands it on: a notice the store refused would end the recording."""
    store = GameStore(tmp_path / "data")

    def tell(notice: CameraNotice | None) -> None:
        store.set_camera_notice(None if notice is None else notice.to_json())

    watch = PictureWatch("camera 0", live=True, on_notice=tell)
    _show(watch, 2, 0.0, DARK_NOTICE_S + 0.5)
    assert store.camera_notice() == {"why": "dark"}


def test_dark_is_told_below_a_frozen_picture_and_above_a_blurred_or_moved_one() -> None:
    told = Told()
    watch = PictureWatch("camera 0", live=True, on_notice=told)
    watch.table_moved(True)
    t = _show(watch, 2, 0.0, DARK_NOTICE_S + 0.5)
    assert told.notices == [CameraNotice("moved"), CameraNotice("dark")]
    black = _level(2, t, 999)
    watch.repeats(black)  # the same picture again and again: frozen says more
    watch.repeats(Frame(black.image, t + FROZEN_NOTICE_S, 1000))
    assert told.notices[-1] == CameraNotice("frozen")
    t = _show(watch, 2, t + FROZEN_NOTICE_S + 1, 1)
    assert told.notices[-1] == CameraNotice("dark")
    _show(watch, 60, t, 1)
    assert told.notices[-1] == CameraNotice("moved")


def test_a_dim_scene_and_the_darkest_rendered_table_are_not_dark() -> None:
    """The line is below what a table still read measures: the committed scene at a third of
    its light, and the darkest felt the generator renders (25 of 255)."""
    image, dets = _scene()
    dim = cv2.convertScaleAbs(image, alpha=0.33)
    felt = np.full_like(image, (18, 40, 22))  # about the darkest rendered felt (BGR)
    for picture, cards in ((dim, dets), (felt, [])):
        told = Told()
        watch = PictureWatch("camera 0", live=True, on_notice=told)
        _feed(watch, picture, cards, 0.0, 20)
        assert told.notices == [], float(picture[::8, ::8].mean())
