"""Which crops the classifier reads turned 180 degrees too (``turn_below`` in the manifest)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from image_support import imread
from model_variants import shipped_model_with
from repo_paths import SAMPLE_SCENES

from skullcam.errors import UserError
from skullcam.vision.crop_dataset import read_scene_index
from skullcam.vision.crops import card_crop, crops_to_batch
from skullcam.vision.readings import softmax
from skullcam.vision.recognizer import (
    ALWAYS_TURN,
    MANIFEST,
    TURN_BELOW,
    Recognizer,
    shipped_model_dir,
)


def _networks_say(recognizer: Recognizer, frame: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """The classifier's raw logits (K, 2, n_classes) for each crop as cut and turned."""
    batch = crops_to_batch([card_crop(frame, q) for q in quads])
    session = recognizer._classifier
    name = session.get_inputs()[0].name
    (upright,) = session.run(None, {name: batch})
    (turned,) = session.run(None, {name: np.ascontiguousarray(batch[:, :, ::-1, ::-1])})
    return np.stack([upright, turned], axis=1)


@pytest.fixture(scope="module")
def scene_boxes() -> list[tuple[np.ndarray, np.ndarray]]:
    """Frames of the sample scenes and the detector's boxes in them: sure and unsure crops."""
    recognizer = Recognizer.load(shipped_model_dir(), threads=1)
    scenes = read_scene_index(SAMPLE_SCENES, "test")[:12]
    frames = [imread(image) for image, _ in scenes]
    return [(frame, recognizer.detect(frame).quads) for frame in frames]


def test_a_sure_crop_is_read_once_and_an_unsure_one_both_ways(
    scene_boxes: list[tuple[np.ndarray, np.ndarray]],
) -> None:
    recognizer = Recognizer.load(shipped_model_dir(), threads=1)
    turn = recognizer.manifest.turn_below
    assert turn < 1
    sure = unsure = 0
    for frame, quads in scene_boxes:
        logits = _networks_say(recognizer, frame, quads)
        upright = softmax(logits[:, 0])
        expected = np.where(
            (upright.max(axis=1) < turn)[:, None], softmax(logits.mean(axis=1)), upright
        )
        assert np.allclose(recognizer.classify(frame, quads), expected, atol=1e-5)
        sure += int((upright.max(axis=1) >= turn).sum())
        unsure += int((upright.max(axis=1) < turn).sum())
    assert sure > 0 and unsure > 0  # both branches were taken


def test_turn_below_one_reads_every_crop_both_ways(
    scene_boxes: list[tuple[np.ndarray, np.ndarray]], tmp_path: Path
) -> None:
    recognizer = Recognizer.load(shipped_model_with(tmp_path, turn_below=1.0), threads=1)
    for frame, quads in scene_boxes:
        logits = _networks_say(recognizer, frame, quads)
        assert np.allclose(
            recognizer.classify(frame, quads), softmax(logits.mean(axis=1)), atol=1e-5
        )


def test_a_card_names_the_same_face_whichever_way_up_it_lies(
    scene_boxes: list[tuple[np.ndarray, np.ndarray]],
) -> None:
    recognizer = Recognizer.load(shipped_model_dir(), threads=1)
    for frame, quads in scene_boxes:
        h, w = frame.shape[:2]
        turned_frame = np.ascontiguousarray(frame[::-1, ::-1])
        turned_quads = np.stack([(w - 1, h - 1)] * 4)[None] - quads
        probs = recognizer.classify(frame, quads)
        turned = recognizer.classify(turned_frame, turned_quads)
        sure = probs.max(axis=1) >= recognizer.manifest.turn_below
        assert np.array_equal(probs[sure].argmax(axis=1), turned[sure].argmax(axis=1))


def test_a_manifest_without_the_key_reads_every_crop_both_ways(tmp_path: Path) -> None:
    folder = shipped_model_with(tmp_path)
    raw = json.loads((folder / MANIFEST).read_text())
    raw.pop("turn_below")
    (folder / MANIFEST).write_text(json.dumps(raw))
    assert Recognizer.load(folder, threads=1).manifest.turn_below == ALWAYS_TURN
    assert TURN_BELOW < ALWAYS_TURN  # a model made now turns only its unsure crops
    (folder / MANIFEST).write_text(json.dumps(raw | {"turn_below": 1.5}))
    with pytest.raises(UserError, match=r"turn_below is 1\.5; it must be from 0 to 1"):
        Recognizer.load(folder, threads=1)
