"""Choosing the corner reader's weight on validation scenes: the networks' say is read under
each weight, and the weight that reads the most scenes right wins."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from reading_stubs import UPRIGHT, probs_of, stub_networks

from skullcam.errors import UserError
from skullcam.vision.crop_dataset import LabelledCard
from skullcam.vision.reading_choice import CORNER_WEIGHTS, WeightChoice, choose_corner_weight
from skullcam.vision.recognizer import Recognizer, shipped_model_dir


@pytest.fixture()
def recognizer() -> Recognizer:
    return Recognizer.load(shipped_model_dir(), threads=1)


@pytest.fixture()
def table(tmp_path: Path) -> Path:
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.zeros((480, 640, 3), np.uint8))
    return image


def _choose_on_a_torn_reading(
    recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch, table: Path, truth: str
) -> WeightChoice:
    """One scene, one card ``truth``: the classifier, torn, leans to green-7 (0.45) over
    green-1 (0.4); both corner marks say green-1 (0.8)."""
    torn = probs_of(recognizer, green_7=0.45, green_1=0.4)
    stub_networks(recognizer, monkeypatch, torn, np.stack([probs_of(recognizer, green_1=0.8)] * 2))
    scenes = [(table, [LabelledCard(truth, UPRIGHT, 1.0)])]
    return choose_corner_weight(recognizer, scenes, progress=False)


def test_a_deck_the_corner_reader_reads_better_gets_its_opinion(
    recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch, table: Path
) -> None:
    choice = _choose_on_a_torn_reading(recognizer, monkeypatch, table, "green-1")
    right = {s.weight: s.scenes_right for s in choice.scores}
    assert right == {0.0: 0, 0.25: 1, 0.5: 1, 1.0: 1}
    assert choice.weight == 0.25  # a tie goes to the smaller weight
    assert "0: 0, 0.25: 1" in choice.sentence()
    assert choice.to_json()["weight"] == 0.25


def test_when_the_classifier_is_right_the_corner_reader_is_not_weighed_in(
    recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch, table: Path
) -> None:
    # The same readings, but the card is the green-7 the classifier leans to.
    choice = _choose_on_a_torn_reading(recognizer, monkeypatch, table, "green-7")
    assert choice.weight == 0.0
    assert [s.weight for s in choice.scores] == list(CORNER_WEIGHTS)


def test_no_or_unreadable_validation_scenes_are_refused(
    recognizer: Recognizer, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="no validation scenes"):
        choose_corner_weight(recognizer, [], progress=False)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    with pytest.raises(UserError, match="cannot read validation scene"):
        choose_corner_weight(recognizer, [(broken, [])], progress=False)
