"""How the classifier's training crops cut at the detector's boxes are labelled."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from image_support import imread
from repo_paths import SAMPLE_SCENES, SHIPPED_MODEL

from skullcam.vision import crop_dataset
from skullcam.vision.crop_dataset import (
    COVERED_UP_TO,
    MIN_VISIBLE,
    CandidateBoxes,
    LabelledCard,
    crops_from_candidates,
    crops_from_detector,
    cut_in_parallel,
    read_scene_index,
)
from skullcam.vision.training import CLASSES


def box(x: float, y: float, w: float = 60, h: float = 90) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_boxes_are_labelled_by_the_card_they_lie_on(tmp_path: Path) -> None:
    image = tmp_path / "scene.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 90, np.uint8))
    cards = [
        LabelledCard("green-7", box(300, 200), 1.0),
        LabelledCard("kraken", box(100, 100), 0.2),  # a sliver shows: taught as "none"
        LabelledCard("escape", box(100, 300), 0.4),  # a corner may show: left out
    ]
    quads = np.stack(
        [
            box(302, 201),  # the visible card
            box(100, 100, 20, 90),  # the kraken's visible strip only
            box(101, 301),  # the whole escape outline
            box(500, 20),  # nothing there (a hand, clutter)
        ]
    )
    crops = crops_from_detector([(image, cards)], CLASSES, lambda frame: quads)
    assert [CLASSES[i] for i in crops.labels] == ["green-7", "none", "none"]
    everything_left_out = crops_from_detector(
        [(image, cards)], CLASSES, lambda frame: quads, hidden_is_none_below=0.0
    )
    assert [CLASSES[i] for i in everything_left_out.labels] == ["green-7", "none"]


def test_candidate_boxes_are_taught_only_on_covered_cards(tmp_path: Path) -> None:
    """The detector's raw boxes teach a partly covered card's face where they fit it loosely;
    a card in full view, one under half visible, a near-exact box and a box fitting another
    card better teach nothing."""
    image = tmp_path / "scene.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 90, np.uint8))
    cards = [
        LabelledCard("purple-5", box(300, 200), 0.6),  # half under the card above it
        LabelledCard("green-7", box(100, 100), 1.0),  # in full view
        LabelledCard("escape", box(450, 300), 0.4),  # under the must-find line
    ]
    candidates = np.stack(
        [
            box(300, 220),  # on purple-5, shifted a fifth: IoU 0.64
            box(300, 240),  # further: IoU 0.47, under the match line
            box(301, 200),  # near-exact (IoU 0.97): its own box already teaches it
            box(105, 110),  # on the card in full view
            box(450, 310),  # on the card under half visible
        ]
    )
    crops = crops_from_candidates([(image, cards)], CLASSES, lambda frame: candidates)
    assert [CLASSES[i] for i in crops.labels] == ["purple-5"]
    assert crops.images.shape == (1, 96, 64, 3)


def test_candidate_crops_keep_to_their_number_a_card(tmp_path: Path) -> None:
    image = tmp_path / "scene.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 90, np.uint8))
    cards = [LabelledCard("kraken", box(300, 200), 0.7)]
    candidates = np.stack([box(300, 200 + dy) for dy in (12, 14, 16, 18, 20)])
    for per_card, expected in ((1, 1), (3, 3), (9, 5)):
        crops = crops_from_candidates(
            [(image, cards)], CLASSES, lambda frame: candidates, per_card=per_card
        )
        assert [CLASSES[i] for i in crops.labels] == ["kraken"] * expected
    none_here = crops_from_candidates([(image, [])], CLASSES, lambda frame: candidates)
    assert len(none_here) == 0 and none_here.images.shape == (0, 96, 64, 3)


def test_the_shipped_detectors_candidates_teach_covered_cards_in_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Raw boxes of both views, cut by worker processes (the detector handed over by value)."""
    scenes = read_scene_index(SAMPLE_SCENES, "test")[:12]
    detect = CandidateBoxes(SHIPPED_MODEL / "card-detector.onnx", (256, 320), threads=1)
    assert detect.mirror and len(detect(imread(scenes[0][0]))) >= 1
    monkeypatch.setattr(crop_dataset, "PARALLEL_FROM", 0)
    crops = cut_in_parallel(crops_from_candidates, scenes, CLASSES, 2, detect=detect, per_card=2)
    covered = [
        c.face
        for _, cards in scenes
        for c in cards
        if MIN_VISIBLE <= c.visible_fraction <= COVERED_UP_TO
    ]
    assert 0 < len(crops) <= 2 * len(covered)
    assert {CLASSES[i] for i in crops.labels} <= set(covered)
