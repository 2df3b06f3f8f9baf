"""The corner reader: its patches, its training labels, its manifest entry and the rule that
lets it name a card the classifier gave up on. Needs no training stack."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from image_support import imread
from model_variants import shipped_model_with
from reading_stubs import UPRIGHT, probs_of, stub_networks
from repo_paths import SAMPLE_SCENES

from skullcam.errors import UserError
from skullcam.vision.crop_dataset import (
    LabelledCard,
    _marks_in_crop_order,
    corner_patches_from_scenes,
    read_scene_index,
)
from skullcam.vision.crops import PATCH_H, PATCH_W, corner_patches
from skullcam.vision.readings import NOT_A_CARD, SECOND_OPINION_BELOW
from skullcam.vision.recognizer import MANIFEST, Recognizer, corner_session, shipped_model_dir


def test_the_two_patches_are_the_crop_corners_the_second_turned_upright() -> None:
    crop = np.zeros((96, 64, 3), np.uint8)
    crop[0, 0] = (1, 2, 3)  # the crop's top-left pixel
    crop[95, 63] = (4, 5, 6)  # its bottom-right one
    patches = corner_patches(crop)
    assert patches.shape == (2, PATCH_H, PATCH_W, 3)
    assert tuple(patches[0, 0, 0]) == (1, 2, 3)
    assert tuple(patches[1, 0, 0]) == (4, 5, 6)  # turned 180 degrees: now top-left too


def test_a_crop_patch_is_matched_to_the_card_mark_it_shows() -> None:
    # The crop's first corner is the card's top-left: patch 0 shows mark 0.
    assert _marks_in_crop_order(UPRIGHT, UPRIGHT) == (0, 1)
    # The same card lying upside down (its top-left corner now at the bottom right of the
    # image): the crop's first corner is the card's bottom-right, so patch 0 shows mark 1.
    upside_down = np.roll(UPRIGHT, 2, axis=0)
    assert _marks_in_crop_order(upside_down, upside_down) == (1, 0)


def test_patches_are_labelled_by_their_own_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = np.full((300, 300, 3), 90, np.uint8)
    image = Path("unused.jpg")
    cards = [
        LabelledCard("green-7", UPRIGHT, 0.6, corner_visible=(1.0, 0.0)),
        LabelledCard("kraken", UPRIGHT + 20, 0.6, corner_visible=(0.5, 0.5)),  # part-read
    ]

    monkeypatch.setattr("skullcam.vision.crop_dataset._read_frame", lambda _: frame)
    patches = corner_patches_from_scenes(
        [(image, cards)], ("green-7", "kraken", NOT_A_CARD), copies=3, none_per_scene=0
    )
    # green-7: per copy one patch of its shown mark and one of its hidden one; kraken: none.
    assert sorted(patches.labels.tolist()) == [0, 0, 0, 2, 2, 2]


def test_sample_scene_patches_hold_faces_and_covered_marks() -> None:
    scenes = read_scene_index(SAMPLE_SCENES, "test")[:10]
    classes = (*sorted({c.face for _, cards in scenes for c in cards}), NOT_A_CARD)
    patches = corner_patches_from_scenes(scenes, classes, copies=1, none_per_scene=0)
    shown = sum(v >= 0.9 for _, cards in scenes for c in cards for v in c.corner_visible)
    hidden = sum(v < 0.35 for _, cards in scenes for c in cards for v in c.corner_visible)
    assert (patches.labels != len(classes) - 1).sum() == shown
    assert (patches.labels == len(classes) - 1).sum() == hidden
    assert patches.images.shape[1:] == (PATCH_H, PATCH_W, 3)


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load(shipped_model_dir(), threads=1)


def test_the_shipped_model_has_a_corner_reader_that_reads_a_card(
    recognizer: Recognizer,
) -> None:
    image, truth = read_scene_index(SAMPLE_SCENES, "test")[0]
    frame = imread(image)
    seen = [c for c in truth if min(c.corner_visible) >= 0.9]
    probs = recognizer.read_corners(frame, np.stack([c.corners for c in seen]))
    assert probs.shape == (len(seen), len(recognizer.manifest.classes))
    assert np.allclose(probs.sum(axis=1), 1, atol=1e-4)
    names = [recognizer.manifest.classes[int(p.argmax())] for p in probs]
    assert sum(n == c.face for n, c in zip(names, seen, strict=True)) >= len(seen) - 1


def _gave_up_and_corner(recognizer: Recognizer, corner_p: float) -> tuple[np.ndarray, np.ndarray]:
    """The classifier says "not a card"; one mark reads green-7 at ``corner_p``, the other is
    covered."""
    none = probs_of(recognizer, none=0.9)
    return np.stack([probs_of(recognizer, green_7=corner_p), probs_of(recognizer, none=0.99)]), none


def test_a_sure_corner_names_a_card_the_classifier_gave_up_on(
    recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    sure = (1 + recognizer.manifest.corner_min_confidence) / 2  # above the shipped threshold
    marks, none = _gave_up_and_corner(recognizer, sure)
    stub_networks(recognizer, monkeypatch, none, marks)
    (found,) = recognizer(np.zeros((480, 640, 3), np.uint8))
    assert found.card == "green-7"
    assert found.confidence == pytest.approx(sure * 0.8)


def test_an_unsure_corner_names_nothing(
    recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    marks, none = _gave_up_and_corner(recognizer, recognizer.manifest.corner_min_confidence - 0.05)
    stub_networks(recognizer, monkeypatch, none, marks)
    assert recognizer(np.zeros((480, 640, 3), np.uint8)) == []


def test_an_unsure_classifier_takes_the_corner_readers_second_opinion(
    recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Torn between green-7 and green-1; both corner marks read green-1 (not surely enough to
    # name a card alone). Together they say green-1.
    torn = probs_of(recognizer, green_7=0.45, green_1=0.4)
    marks = np.stack([probs_of(recognizer, green_1=0.8)] * 2)
    calls = stub_networks(recognizer, monkeypatch, torn, marks)
    assert recognizer.manifest.corner_weight > 0
    (found,) = recognizer(np.zeros((480, 640, 3), np.uint8))
    assert found.card == "green-1" and calls == [1]
    # Weighed at 0 (a model made before the second opinion), the classifier's word stands.
    monkeypatch.setattr(recognizer, "manifest", replace(recognizer.manifest, corner_weight=0.0))
    (found,) = recognizer(np.zeros((480, 640, 3), np.uint8))
    assert found.card == "green-7" and found.confidence == pytest.approx(0.45 * 0.8)


def test_a_sure_classifier_is_not_second_guessed(
    recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    sure = probs_of(recognizer, green_7=SECOND_OPINION_BELOW + 0.01)
    other = np.stack([probs_of(recognizer, green_1=0.99)] * 2)
    calls = stub_networks(recognizer, monkeypatch, sure, other)
    (found,) = recognizer(np.zeros((480, 640, 3), np.uint8))
    assert found.card == "green-7" and calls == []


def test_a_manifest_without_a_corner_weight_reads_as_before(tmp_path: Path) -> None:
    folder = shipped_model_with(tmp_path)
    raw = json.loads((folder / MANIFEST).read_text())
    del raw["corner_weight"]
    (folder / MANIFEST).write_text(json.dumps(raw))
    assert Recognizer.load(folder, threads=1).manifest.corner_weight == 0.0


def test_a_model_without_a_corner_reader_reads_as_before(tmp_path: Path) -> None:
    plain = Recognizer.load(shipped_model_with(tmp_path, corner_reader=None), threads=1)
    assert "corner_reader" not in plain.manifest.to_json()
    with pytest.raises(UserError, match="no corner reader"):
        plain.read_corners(np.zeros((480, 640, 3), np.uint8), UPRIGHT[None])
    image, _ = read_scene_index(SAMPLE_SCENES, "test")[0]
    assert plain(imread(image))  # still recognizes cards


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("nowhere.onnx", "missing"),
        ("card-classifier.onnx", "input"),  # a classifier is not a corner reader: shape refused
        (5, "not a valid recognizer manifest"),
        ("", "not a valid recognizer manifest"),
    ],
)
def test_a_bad_corner_reader_entry_is_a_clear_error(
    tmp_path: Path, entry: object, message: str
) -> None:
    with pytest.raises(UserError, match=message):
        Recognizer.load(shipped_model_with(tmp_path, corner_reader=entry), threads=1)


def test_a_corner_reader_trained_for_other_classes_is_refused_naming_the_cure(
    tmp_path: Path,
) -> None:
    """A corner reader kept by ``skullcam train --skip-corner`` after a card was added has
    fewer outputs than the manifest's classes: refused at load, saying to train it again."""
    shipped = Recognizer.load(shipped_model_with(tmp_path), threads=1).manifest
    fewer = replace(shipped, classes=(*shipped.classes[:9], NOT_A_CARD))
    with pytest.raises(
        UserError,
        match=r"corner-reader\.onnx was trained for 70 classes and the manifest lists 10: "
        r"train it again \(skullcam train without --skip-corner\)",
    ):
        corner_session(fewer, 1)


@pytest.mark.parametrize("weight", [-0.5, "heavy", None, float("nan")])
def test_a_bad_corner_weight_is_a_clear_error(tmp_path: Path, weight: object) -> None:
    with pytest.raises(UserError, match="not a valid recognizer manifest"):
        Recognizer.load(shipped_model_with(tmp_path, corner_weight=weight), threads=1)
