"""Evaluation's bookkeeping on hand-made scenes: what counts as found, missed and false alarm."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from skullcam.datasets.scenes import cut_by_frame
from skullcam.vision.crop_dataset import LabelledCard
from skullcam.vision.detection import Detection
from skullcam.vision.evaluate import (
    confusion_pairs,
    frame_edge_recall,
    judge_scene,
    mean_average_precision,
    per_card_counts,
)
from skullcam.vision.obb import polygon_inside, polygon_iou

IMAGE = Path("scene.png")


def box(x: float, y: float, w: float = 60, h: float = 90) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def card(face: str, x: float, y: float, visible: float = 1.0) -> LabelledCard:
    return LabelledCard(face, box(x, y), visible)


def reading(face: str, corners: np.ndarray, confidence: float = 0.9) -> Detection:
    return Detection.from_corners(face, confidence, corners)


def test_share_of_a_box_inside_another_is_hand_computed() -> None:
    assert polygon_inside(box(0, 0, 30, 90), box(0, 0)) == pytest.approx(1.0)
    assert polygon_inside(box(30, 0), box(0, 0)) == pytest.approx(0.5)
    assert polygon_inside(box(100, 100), box(0, 0)) == 0.0


def test_a_visible_card_read_right_is_found_and_a_missed_one_is_a_miss() -> None:
    truth = [card("green-7", 0, 0), card("kraken", 200, 0)]
    outcome = judge_scene(IMAGE, truth, [reading("green-7", box(2, 1))])
    assert outcome.errors == ["missed kraken (100% visible)"]
    counts = per_card_counts([outcome])
    assert counts["green-7"] == {"tp": 1, "fp": 0, "fn": 0}
    assert counts["kraken"] == {"tp": 0, "fp": 0, "fn": 1}


def test_a_hidden_card_read_right_on_its_visible_part_is_neither_credit_nor_fault() -> None:
    # Only the left third of the escape shows; the box fits that third, so its IoU with the
    # whole outline is a third, yet the reading names a card that really lies there.
    truth = [card("green-7", 100, 0), card("escape", 80, 0, visible=0.3)]
    found = [reading("green-7", box(100, 0)), reading("escape", box(80, 0, 20, 90), 0.6)]
    outcome = judge_scene(IMAGE, truth, found)
    assert outcome.correct, outcome.errors
    counts = per_card_counts([outcome])
    assert "escape" not in counts
    assert mean_average_precision([outcome])[0.5] == pytest.approx(1.0)


def test_a_hidden_card_read_as_another_face_is_a_false_alarm() -> None:
    truth = [card("green-7", 100, 0), card("escape", 80, 0, visible=0.3)]
    found = [reading("green-7", box(100, 0)), reading("skull-king", box(80, 0, 20, 90), 0.6)]
    outcome = judge_scene(IMAGE, truth, found)
    assert outcome.errors == ["extra skull-king (0.60) on a hidden escape (30% visible)"]
    assert per_card_counts([outcome])["skull-king"] == {"tp": 0, "fp": 1, "fn": 0}
    assert confusion_pairs([outcome])[("extra", "skull-king")] == 1


def test_a_hidden_card_read_twice_is_one_false_alarm() -> None:
    truth = [card("escape", 80, 0, visible=0.3)]
    thirds = box(80, 0, 20, 90)
    outcome = judge_scene(IMAGE, truth, [reading("escape", thirds, 0.6), reading("escape", thirds)])
    assert outcome.errors == ["extra escape (0.60)"]


def test_a_box_mostly_off_a_hidden_card_does_not_lie_on_it() -> None:
    truth = [card("escape", 80, 0, visible=0.3)]
    outcome = judge_scene(IMAGE, truth, [reading("escape", box(110, 0))])
    assert outcome.errors == ["extra escape (0.90)"]


def test_a_right_reading_on_a_card_lying_on_a_hidden_one_is_that_card() -> None:
    # The green-7 lies almost squarely on a hidden escape; the reading's box fits the escape's
    # outline a little better (IoU 0.88 against 0.82) but names the green-7: it is the
    # green-7 found, not a false alarm on the escape plus a missed green-7.
    truth = [card("green-7", 100, 0), card("escape", 104, 4, visible=0.05)]
    found = [reading("green-7", box(103, 3))]
    ious = [polygon_iou(found[0].corners, t.corners) for t in truth]
    assert ious[1] > ious[0] > 0.5
    outcome = judge_scene(IMAGE, truth, found)
    assert outcome.correct, outcome.errors


def test_a_misread_still_takes_the_card_it_lies_on() -> None:
    # Face-first matching must not hide a misread: a reading naming no card there is matched
    # across faces afterwards.
    truth = [card("green-7", 100, 0), card("escape", 104, 4, visible=0.05)]
    outcome = judge_scene(IMAGE, truth, [reading("kraken", box(101, 1))])
    assert outcome.errors == ["green-7 read as kraken"]


def test_average_precision_is_cocos_101_point_interpolation() -> None:
    from skullcam.vision.evaluate import average_precision

    assert average_precision(np.array([1.0]), np.array([1.0])) == pytest.approx(1.0)
    # Half the cards found, all right: precision 1 at recall points 0..0.5 (51 of 101).
    assert average_precision(np.array([0.5]), np.array([1.0])) == pytest.approx(51 / 101)
    # Right, wrong, right over two cards: precision 1 up to recall 0.5, 2/3 up to 1.
    recall, precision = np.array([0.5, 0.5, 1.0]), np.array([1.0, 0.5, 2 / 3])
    assert average_precision(recall, precision) == pytest.approx((51 + 50 * 2 / 3) / 101)
    assert average_precision(np.zeros(0), np.zeros(0)) == 0.0


def test_a_card_is_cut_by_the_frame_when_its_outline_runs_past_an_edge() -> None:
    size = (640, 480)
    assert not cut_by_frame(box(0, 0), size)  # touching the corner is not past it
    assert not cut_by_frame(box(580, 390), size)  # right and bottom edges reached exactly
    assert cut_by_frame(box(-5, 100), size)
    assert cut_by_frame(box(600, 100), size)
    assert cut_by_frame(box(100, 400), size)


def test_recall_at_the_frame_edge_counts_right_readings_of_cut_cards_apart() -> None:
    """Two cards cut by the edge (one read right, one misread) and two inside (one read right,
    one missed); a hidden card at the edge counts in neither."""
    truth = [
        card("green-7", -20, 100),
        card("kraken", 600, 300),
        card("escape", 200, 100),
        card("loot", 400, 100),
        card("tigress", -30, 300, visible=0.3),
    ]
    found = [
        reading("green-7", box(-20, 100)),
        reading("purple-2", box(600, 300)),
        reading("escape", box(201, 100)),
    ]
    outcome = judge_scene(IMAGE, truth, found)
    counts = frame_edge_recall([outcome], [(640, 480)])
    assert counts == {
        "edge_cards": 2,
        "edge_recall": 0.5,
        "inside_cards": 2,
        "inside_recall": 0.5,
    }
    with pytest.raises(ValueError):  # a size for every outcome
        frame_edge_recall([outcome], [])
