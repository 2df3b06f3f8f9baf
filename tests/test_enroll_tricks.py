"""The real-trick check: detections against the user's tapped labels, and the saved photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from skullcam.errors import UserError
from skullcam.vision.detection import Detection
from skullcam.vision.enroll_tricks import (
    BoxLabel,
    TrickComparison,
    TrickLabels,
    check_label,
    check_tricks,
    compare_trick,
    decode_photo,
    iou,
    load_tricks,
    save_trick,
    summarize,
)


def det(card: str, x: float, y: float, w: float = 60, h: float = 90) -> Detection:
    """A detection of an upright card with its top-left corner at (x, y)."""
    corners = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
    return Detection.from_corners(card, 0.9, corners)


def box(face: str, x: float, y: float, w: float = 60, h: float = 90) -> BoxLabel:
    return BoxLabel(box=(x, y, x + w, y + h), face=face)


def test_iou_of_same_disjoint_and_half_overlapping_boxes() -> None:
    a = (0.0, 0.0, 10.0, 10.0)
    assert iou(a, a) == 1.0
    assert iou(a, (20.0, 20.0, 30.0, 30.0)) == 0.0
    assert iou(a, (5.0, 0.0, 15.0, 10.0)) == pytest.approx(50 / 150)


def test_all_right_when_every_detection_reads_its_labelled_box() -> None:
    labels = TrickLabels((box("green-7", 0, 0), box("skull-king", 200, 0)))
    result = compare_trick([det("skull-king", 202, 3), det("green-7", 1, 1)], labels)
    assert (result.photos, result.cards, result.right) == (1, 2, 2)
    assert not result.misreads and not result.missed and not result.false_alarms
    assert result.sentence() == "on 1 photo of real tricks: 2 of 2 cards right"


def test_misread_missed_and_false_alarms_are_told_apart() -> None:
    labels = TrickLabels(
        boxes=(
            box("green-7", 0, 0),  # read as green-1: a misread
            box("pirate-harry", 100, 0),  # read right
            box("none", 200, 0),  # the user says: not a card
            box("kraken", 300, 0),  # a later model finds nothing there: missed
        ),
        missed=("mermaid-alyra",),  # the first model missed it; no box
    )
    found = [
        det("green-1", 2, 2),
        det("pirate-harry", 100, 0),
        det("escape", 200, 0),
        det("loot", 500, 300),  # on no labelled box, not a named missed card: false alarm
    ]
    result = compare_trick(found, labels)
    assert result.cards == 4  # 3 boxes of cards (the 4th is no card) + 1 named missed card
    assert result.right == 1
    assert dict(result.misreads) == {("green-7", "green-1"): 1}
    assert dict(result.missed) == {"kraken": 1, "mermaid-alyra": 1}
    assert dict(result.false_alarms) == {"escape": 1, "loot": 1}
    assert result.sentence() == (
        "on 1 photo of real tricks: 1 of 4 cards right; Green 7 read as Green 1 once; "
        "2 cards not found (Kraken, Mermaid Alyra); 2 false alarms"
    )


def test_a_named_missed_card_found_later_anywhere_counts_as_right() -> None:
    labels = TrickLabels(missed=("tigress", "tigress"))
    result = compare_trick([det("tigress", 10, 10)], labels)
    assert (result.cards, result.right, dict(result.missed)) == (2, 1, {"tigress": 1})
    assert not result.false_alarms


def test_overlapping_cards_each_keep_their_own_box() -> None:
    # Two cards of a trick overlap by half; each detection belongs to its own box.
    labels = TrickLabels((box("yellow-3", 0, 0), box("yellow-4", 30, 0)))
    result = compare_trick([det("yellow-4", 31, 0), det("yellow-3", 0, 1)], labels)
    assert result.right == 2 and not result.misreads


def test_a_detection_barely_touching_a_box_is_not_that_card() -> None:
    labels = TrickLabels((box("black-14", 0, 0),))
    result = compare_trick([det("black-14", 45, 0)], labels)  # IoU 15/105 < 0.5
    assert result.right == 0
    assert dict(result.missed) == {"black-14": 1}
    assert dict(result.false_alarms) == {"black-14": 1}


def test_summary_over_photos_adds_up_and_names_repeats() -> None:
    one = compare_trick([det("green-1", 0, 0)], TrickLabels((box("green-7", 0, 0),)))
    two = compare_trick(
        [det("green-1", 0, 0), det("purple-2", 100, 0)],
        TrickLabels((box("green-7", 0, 0), box("purple-2", 100, 0))),
    )
    three = compare_trick([det("escape", 0, 0)], TrickLabels((box("escape", 0, 0),)))
    total = summarize([one, two, three])
    assert (total.photos, total.cards, total.right) == (3, 4, 2)
    assert total.sentence() == (
        "on 3 photos of real tricks: 2 of 4 cards right; Green 7 read as Green 1 twice"
    )
    assert total.to_json()["misreads"] == [["green-7", "green-1", 2]]
    assert TrickComparison().sentence() == "no photos of real tricks checked yet"


def test_more_than_three_kinds_of_misread_are_counted_not_listed() -> None:
    pairs = [("green-1", "green-2"), ("green-3", "green-4"), ("green-5", "green-6")]
    pairs += [("green-8", "green-9"), ("green-8", "green-9")]
    labels = TrickLabels(tuple(box(t, 100 * i, 0) for i, (t, _) in enumerate(pairs)))
    found = [det(r, 100 * i, 0) for i, (_, r) in enumerate(pairs)]
    text = compare_trick(found, labels).sentence()
    assert text.startswith("on 1 photo of real tricks: 0 of 5 cards right; Green 8 read as Green 9")
    assert text.endswith("; 1 other misread")


def test_check_label_names_the_bad_value() -> None:
    assert check_label("Green-7", "labels[0]") == "green-7"
    assert check_label("none", "labels[0]") == "none"
    with pytest.raises(UserError, match=r"labels\[2\]: 'green-15' is not a card"):
        check_label("green-15", "labels[2]")
    with pytest.raises(UserError, match=r"missed\[0\]: 'none' is not a card"):
        check_label("none", "missed[0]", allow_none=False)
    with pytest.raises(UserError, match="is not a card"):
        check_label(7, "labels[0]")


def test_decode_photo_refuses_what_is_not_an_image() -> None:
    image = np.full((480, 640, 3), 90, np.uint8)
    jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    assert decode_photo(jpeg).shape == (480, 640, 3)
    for bad in (b"", b"hello, this is text", jpeg[: len(jpeg) // 2]):
        with pytest.raises(UserError, match=r"empty|not a readable image"):
            decode_photo(bad)
    tiny = cv2.imencode(".png", np.zeros((20, 30, 3), np.uint8))[1].tobytes()
    with pytest.raises(UserError, match="only 30 x 20 px"):
        decode_photo(tiny)
    big = cv2.imencode(".jpg", np.zeros((2400, 3200, 3), np.uint8))[1].tobytes()
    assert decode_photo(big).shape == (1200, 1600, 3)


def test_saved_photos_round_trip_and_only_complete_ones_count(tmp_path: Path) -> None:
    folder = tmp_path / "tricks"
    image = np.zeros((480, 640, 3), np.uint8)
    cv2.rectangle(image, (100, 100), (160, 190), (255, 255, 255), -1)
    labels = TrickLabels(
        (BoxLabel((100.0, 100.0, 160.0, 190.0), "green-7", read="green-1"),), ("kraken",)
    )
    first = save_trick(folder, image, labels, source="upload")
    second = save_trick(folder, image, TrickLabels(missed=("loot",)))
    assert (first.name, second.name) == ("001.json", "002.json")
    assert (folder / "001.jpg").is_file() and not list(folder.glob("*.tmp"))
    record = json.loads(first.read_text())
    assert record["cards"][0]["label"] == "green-7" and record["source"] == "upload"
    # A crash between the photo and its labels leaves a photo without labels: not counted,
    # and the next save does not reuse its number.
    (folder / "003.jpg").write_bytes(b"half")
    (folder / "004.json").write_text("{ damaged")
    tricks = load_tricks(folder)
    assert [p.name for p, _ in tricks] == ["001.jpg", "002.jpg"]
    assert tricks[0][1].boxes[0].face == "green-7" and tricks[0][1].missed == ("kraken",)
    assert save_trick(folder, image, labels).name == "005.json"

    def recognize(frame: np.ndarray) -> list[Detection]:
        return [det("green-7", 100, 100)]

    result = check_tricks(recognize, load_tricks(folder))
    # 001: green-7 right, kraken missed; 002: loot missed, green-7 a false alarm; 005 = 001.
    assert (result.photos, result.cards, result.right) == (3, 5, 2)
    assert dict(result.missed) == {"kraken": 2, "loot": 1}
    assert dict(result.false_alarms) == {"green-7": 1}
