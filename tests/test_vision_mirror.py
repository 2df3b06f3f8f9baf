"""When the detector's mirror view runs (``mirror_below`` in the manifest)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from image_support import imread
from model_variants import shipped_model_with
from repo_paths import SAMPLE_SCENES

from skullcam.vision import obb
from skullcam.vision.crop_dataset import read_scene_index
from skullcam.vision.recognizer import (
    ALWAYS_MIRROR,
    MANIFEST,
    MAX_CARDS,
    MIRROR_BELOW,
    CardDetector,
    DetectorBoxes,
    ModelManifest,
    shipped_model_dir,
)


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    return [imread(image) for image, _ in read_scene_index(SAMPLE_SCENES, "test")[:16]]


def _detector(threads: int, mirror: bool, mirror_below: float = ALWAYS_MIRROR) -> CardDetector:
    m = ModelManifest.read(shipped_model_dir())
    path = m.folder / m.detector
    return CardDetector(
        path, m.detector_input, m.detector_conf, m.detector_iou, threads, mirror, mirror_below
    )


def _first_view_scores(detector: CardDetector, frame: np.ndarray) -> np.ndarray:
    """The scores of the boxes NMS keeps from the unmirrored view alone."""
    image, _ = obb.letterbox(frame, detector.input_hw)
    boxes, scores, classes = detector._candidates(image)
    return obb.suppress(boxes, scores, classes, detector.iou, MAX_CARDS)[1]


def _same(a: DetectorBoxes, b: DetectorBoxes) -> bool:
    return (
        a.quads.shape == b.quads.shape
        and np.allclose(a.quads, b.quads, atol=1e-4)
        and np.allclose(a.scores, b.scores)
        and np.allclose(a.candidate_scores, b.candidate_scores)
    )


def test_one_thread_runs_the_mirror_only_when_a_box_is_in_doubt(
    frames: list[np.ndarray],
) -> None:
    one_view, two_views = _detector(1, False), _detector(1, True)
    when_unsure = _detector(1, True, MIRROR_BELOW)
    doubtful = 0
    for frame in frames:
        in_doubt = bool(np.any(_first_view_scores(one_view, frame) < MIRROR_BELOW))
        doubtful += in_doubt
        expected = (two_views if in_doubt else one_view).detect(frame)
        assert _same(when_unsure.detect(frame), expected)
    assert 0 < doubtful < len(frames)  # both kinds of frame were seen


def test_side_by_side_views_both_run_on_every_frame(frames: list[np.ndarray]) -> None:
    """With two threads the mirror costs no wall time, so the threshold is not applied."""
    side_by_side, both = _detector(2, True, MIRROR_BELOW), _detector(1, True)
    for frame in frames[:6]:
        assert _same(side_by_side.detect(frame), both.detect(frame))


def test_an_empty_table_needs_no_mirror_view() -> None:
    table = np.full((480, 640, 3), (40, 80, 120), np.uint8)
    assert len(_detector(1, True, MIRROR_BELOW).detect(table).quads) == 0


def test_the_shipped_model_skips_sure_frames_and_old_manifests_do_not(tmp_path: Path) -> None:
    assert ModelManifest.read(shipped_model_dir()).mirror_below == MIRROR_BELOW < 1
    raw = json.loads((shipped_model_dir() / MANIFEST).read_text())
    del raw["mirror_below"]
    folder = shipped_model_with(tmp_path)
    (folder / MANIFEST).write_text(json.dumps(raw))
    assert ModelManifest.read(folder).mirror_below == ALWAYS_MIRROR == 1.0


def test_a_process_pinned_to_one_core_runs_one_view_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sized from the machine's cores, the detector ran both views side by side on the one
    core ``taskset -c 0`` left it (and so never skipped the mirror on a sure frame)."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert not _detector(0, True, MIRROR_BELOW)._side_by_side
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert _detector(0, True, MIRROR_BELOW)._side_by_side
