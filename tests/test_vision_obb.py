"""Letterbox, oriented-box geometry, probiou and rotated NMS against hand-computed cases."""

from __future__ import annotations

import math

import numpy as np
import pytest
from training_stack import require_ultralytics

from skullcam.vision import obb
from skullcam.vision.crops import CROP_H, CROP_W, order_long_side_vertical, rectify
from skullcam.vision.detection import Detection
from skullcam.vision.readings import drop_overlapping_readings
from skullcam.vision.recognizer import DETECTOR_IOU


def test_letterbox_4_3_frame_into_256x320_needs_no_padding_sideways() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    image, fit = obb.letterbox(frame, (256, 320))
    assert image.shape == (256, 320, 3)
    assert fit.scale == pytest.approx(0.5)
    assert (fit.pad_x, fit.pad_y) == (0.0, 8.0)  # 240 rows of picture, 8 grey rows each side
    assert image[0, 0, 0] == obb.LETTERBOX_FILL and image[8, 0, 0] == 0


def test_letterbox_round_trip_maps_model_pixels_back_to_frame_pixels() -> None:
    _, fit = obb.letterbox(np.zeros((480, 640, 3), np.uint8), (320, 320))
    # 640x480 -> 320x240, padded 40 rows top: frame (100, 200) is model (50, 140).
    assert fit.to_frame(np.array([[50.0, 140.0]])).tolist() == [[100.0, 200.0]]


def test_corners_of_axis_aligned_and_turned_boxes() -> None:
    square = obb.corners(np.array([[10, 20, 4, 2, 0.0]]))[0]
    assert square.tolist() == [[8, 19], [12, 19], [12, 21], [8, 21]]
    turned = obb.corners(np.array([[0, 0, 4, 2, math.pi / 2]]))[0]
    np.testing.assert_allclose(turned, [[1, -2], [1, 2], [-1, 2], [-1, -2]], atol=1e-5)


def test_regularize_makes_width_the_long_side_and_angle_in_0_pi() -> None:
    out = obb.regularize(np.array([[0, 0, 2, 4, 0.1], [0, 0, 4, 2, -0.5]], np.float32))
    np.testing.assert_allclose(out[0], [0, 0, 4, 2, 0.1 + math.pi / 2], atol=1e-6)
    np.testing.assert_allclose(out[1], [0, 0, 4, 2, math.pi - 0.5], atol=1e-6)


def test_probiou_is_one_for_identical_boxes_and_near_zero_for_distant_ones() -> None:
    a = np.array([[50, 50, 40, 20, 0.3]])
    b = np.array([[50, 50, 40, 20, 0.3], [500, 500, 40, 20, 0.3]])
    iou = obb.probiou(a, b)[0]
    assert iou[0] == pytest.approx(1.0, abs=1e-3)
    assert iou[1] < 1e-3


def test_probiou_is_symmetric_and_invariant_to_the_180_degree_ambiguity() -> None:
    a = np.array([[0, 0, 40, 20, 0.3]])
    b = np.array([[5, 3, 40, 20, 0.3 + math.pi]])
    assert obb.probiou(a, b)[0, 0] == pytest.approx(obb.probiou(b, a)[0, 0])
    assert obb.probiou(a, b)[0, 0] == pytest.approx(
        obb.probiou(a, np.array([[5, 3, 40, 20, 0.3]]))[0, 0], abs=1e-6
    )


def test_nms_keeps_best_of_overlapping_boxes_and_every_separate_one() -> None:
    boxes = np.array(
        [[50, 50, 40, 20, 0.0], [51, 50, 40, 20, 0.02], [200, 50, 40, 20, 1.0]], np.float32
    )
    keep = obb.nms_rotated(boxes, np.array([0.6, 0.9, 0.5]), iou_threshold=0.5)
    assert keep.tolist() == [1, 2]


def test_decode_reads_the_ultralytics_obb_layout() -> None:
    # (1, 4 + nc + 1, N) with nc = 1: cx, cy, w, h, score, angle per anchor.
    raw = np.array(
        [
            [
                [100, 101, 300],
                [50, 50, 60],
                [20, 20, 20],
                [40, 40, 40],
                [0.9, 0.8, 0.1],
                [0.1, 0.1, 0.0],
            ]
        ],
        np.float32,
    )
    boxes, scores, classes = obb.decode(raw, conf_threshold=0.25, iou_threshold=0.5)
    assert scores.tolist() == pytest.approx([0.9])  # the 0.8 twin is suppressed, 0.1 filtered
    assert classes.tolist() == [0]
    # w=20, h=40 becomes w=40, h=20 with the angle turned a quarter.
    np.testing.assert_allclose(boxes[0], [100, 50, 40, 20, 0.1 + math.pi / 2], atol=1e-5)


def test_the_input_tensor_is_the_frame_in_rgb_planes_over_255_to_the_bit() -> None:
    """What the detector was exported and measured with: RGB planes, float32, x / 255, every
    byte value and an odd size (the letterbox pads to any), one image in the batch."""
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
    image[0, :, :] = np.arange(53)[:, None] * [1, 2, 4]  # 0 and 255 among them
    image[1, :, 0] = 255
    tensor = obb.to_input_tensor(image)
    want = np.ascontiguousarray(image[:, :, ::-1].transpose(2, 0, 1), dtype=np.float32) / 255.0
    assert tensor.shape == (1, 3, 37, 53) and tensor.dtype == np.float32
    assert tensor.flags["C_CONTIGUOUS"]
    assert tensor[0].tobytes() == want.tobytes()


def test_the_mirror_view_is_the_letterboxed_frame_left_to_right() -> None:
    from skullcam.vision.recognizer import _mirror_image

    image = np.random.default_rng(3).integers(0, 256, (6, 9, 3), dtype=np.uint8)
    mirrored = _mirror_image(image)
    assert mirrored.flags["C_CONTIGUOUS"] and np.array_equal(mirrored, image[:, ::-1])


def test_mirror_x_puts_a_box_found_in_the_mirror_image_back() -> None:
    box = np.array([[10.0, 20.0, 30.0, 8.0, 0.3]], np.float32)
    back = obb.mirror_x(box, width=100)
    assert back[0, :4] == pytest.approx([90.0, 20.0, 30.0, 8.0])
    assert back[0, 4] == pytest.approx(math.pi - 0.3)
    # The same outline, corner for corner, as mirroring the corners themselves.
    mirrored = obb.corners(box)[0] * [-1, 1] + [100, 0]
    ours = obb.corners(back)[0]
    assert np.allclose(ours[np.lexsort(ours.T)], mirrored[np.lexsort(mirrored.T)], atol=1e-3)
    assert np.allclose(obb.mirror_x(back, 100), box, atol=1e-5)  # its own inverse


def test_suppress_on_no_candidates_is_empty() -> None:
    boxes, scores, classes = obb.suppress(
        np.zeros((0, 5), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64), 0.5, 50
    )
    assert boxes.shape == (0, 5) and len(scores) == 0 and len(classes) == 0


def test_rectify_turns_a_lying_card_upright_with_its_proportions() -> None:
    frame = np.zeros((200, 300, 3), np.uint8)
    frame[50:100, 100:200] = (0, 0, 255)  # a red card lying on its long side
    quad = order_long_side_vertical(np.array([[100, 50], [200, 50], [200, 100], [100, 100]]))
    crop = rectify(frame, quad)
    assert crop.shape == (CROP_H, CROP_W, 3)
    assert crop[CROP_H // 2, CROP_W // 2].tolist() == [0, 0, 255]
    # the first edge is a short one: width 50 px maps to the crop's 64 px width
    assert np.linalg.norm(quad[1] - quad[0]) == pytest.approx(50)


def test_detection_from_corners_gives_box_and_long_axis_angle() -> None:
    det = Detection.from_corners("green-7", 0.9, np.array([[10, 10], [40, 10], [40, 60], [10, 60]]))
    assert det.box == (10.0, 10.0, 40.0, 60.0)
    assert det.angle == pytest.approx(math.pi / 2)  # long axis vertical
    assert det.to_json()["card"] == "green-7"


def _ultralytics_or_skip() -> None:
    require_ultralytics()
    from skullcam.vision.ultralytics_offline import import_ultralytics

    import_ultralytics()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_decode_matches_ultralytics_rotated_nms_on_random_heads(seed: int) -> None:
    """Many overlapping boxes with distinct scores: our decode keeps exactly ultralytics' set."""
    _ultralytics_or_skip()
    import torch
    from ultralytics.utils.nms import non_max_suppression

    rng = np.random.default_rng(seed)
    n = 400
    raw = np.zeros((1, 6, n), np.float32)
    raw[0, 0] = rng.uniform(0, 320, n)
    raw[0, 1] = rng.uniform(0, 256, n)
    raw[0, 2] = rng.uniform(20, 60, n)
    raw[0, 3] = rng.uniform(20, 60, n)
    raw[0, 4] = rng.permutation(n) / n  # distinct scores, so NMS order is unambiguous
    raw[0, 5] = rng.uniform(-math.pi / 4, 3 * math.pi / 4, n)
    ours, scores, _ = obb.decode(raw, conf_threshold=0.25, iou_threshold=0.5, max_det=300)
    (theirs,) = non_max_suppression(
        torch.from_numpy(raw), 0.25, 0.5, nc=1, max_det=300, rotated=True
    )
    theirs = theirs.numpy()  # x, y, w, h, conf, cls, angle
    assert len(ours) == len(theirs) > 10
    np.testing.assert_allclose(scores, theirs[:, 4], atol=1e-6)
    expected = obb.regularize(np.concatenate([theirs[:, :4], theirs[:, 6:7]], axis=1))
    np.testing.assert_allclose(ours, expected, atol=1e-4)


def test_letterbox_matches_ultralytics() -> None:
    _ultralytics_or_skip()
    from ultralytics.data.augment import LetterBox

    frame = np.random.default_rng(0).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    for size in [(256, 320), (320, 320), (640, 640)]:
        ours, _ = obb.letterbox(frame, size)
        theirs = LetterBox(size, auto=False, stride=32)(image=frame)
        assert isinstance(theirs, np.ndarray)  # given only an image, it returns the image
        assert ours.shape == theirs.shape
        assert np.abs(ours.astype(int) - theirs.astype(int)).max() <= 1


def _reading(card: str, confidence: float, cx: float, cy: float) -> Detection:
    quad = obb.corners(np.array([[cx, cy, 60, 90, 0.0]], np.float32))[0]
    return Detection.from_corners(card, confidence, quad)


def test_two_readings_of_one_face_on_one_spot_are_one_card() -> None:
    kept = drop_overlapping_readings(
        [_reading("green-7", 0.6, 100, 100), _reading("green-7", 0.9, 104, 103)]
    )
    assert [(d.card, d.confidence) for d in kept] == [("green-7", 0.9)]


def test_different_faces_in_a_pile_and_separate_copies_are_all_kept() -> None:
    # The second card lies half under the first: its outline overlaps the first's by IoU 1/3.
    pile = [_reading("green-7", 0.9, 100, 100), _reading("pirate-harry", 0.25, 100, 145)]
    escapes = [_reading("escape", 0.9, 100, 300), _reading("escape", 0.8, 200, 300)]
    kept = drop_overlapping_readings(pile + escapes)
    assert sorted(d.card for d in kept) == ["escape", "escape", "green-7", "pirate-harry"]


def test_a_frame_holds_no_more_of_a_face_than_the_deck_does() -> None:
    # One deck on the table: a purple-2 read at two far-apart places is one misread, and the
    # surer reading stays; five escapes and two loots are all real, a sixth and third are not.
    twice = [_reading("purple-2", 0.4, 100, 100), _reading("purple-2", 0.8, 400, 300)]
    assert [(d.card, d.confidence) for d in drop_overlapping_readings(twice)] == [("purple-2", 0.8)]
    escapes = [_reading("escape", 0.9 - k / 100, 80 * k + 40, 60) for k in range(6)]
    loots = [_reading("loot", 0.7 - k / 100, 80 * k + 40, 300) for k in range(3)]
    kept = drop_overlapping_readings(escapes + loots)
    assert sorted(d.card for d in kept) == ["escape"] * 5 + ["loot"] * 2
    assert min(d.confidence for d in kept if d.card == "escape") == 0.86


def test_two_faces_read_on_almost_one_outline_are_one_card() -> None:
    # A card under another with less than a third showing cannot be read; a second reading of
    # nearly the same outline is the top card read twice, the surer reading wins.
    kept = drop_overlapping_readings(
        [_reading("green-7", 0.9, 100, 100), _reading("kraken", 0.3, 100, 115)]
    )
    assert [d.card for d in kept] == ["green-7"]


def test_the_detector_threshold_keeps_boxes_that_overlap_as_a_pile_does() -> None:
    # Two card-sized candidates overlapping about as much as a half-hidden card under another
    # (probiou ~0.6): the old 0.5 threshold dropped the lower one; the shipped one keeps it.
    boxes = np.array([[100, 100, 90, 60, 0.0], [100, 120, 90, 60, 0.0]], np.float32)
    assert 0.5 < obb.probiou(boxes[:1], boxes[1:])[0, 0] < DETECTOR_IOU
    raw = np.concatenate([boxes[:, :4], [[0.9], [0.6]], boxes[:, 4:]], axis=1).T[None]
    assert len(obb.decode(raw, 0.2, 0.5)[0]) == 1
    assert len(obb.decode(raw, 0.2, DETECTOR_IOU)[0]) == 2


def test_an_unsure_reading_of_a_card_mostly_under_another_is_dropped() -> None:
    # Half of the lower card's box lies inside the top card's: a card half covered. Read
    # unsurely it is dropped (usually a phantom face); read surely it stays.
    # (COVERED_MIN_CONFIDENCE, 0.1 since session 25.)
    top = _reading("green-7", 0.9, 100, 100)
    for confidence, kept_cards in ((0.08, ["green-7"]), (0.15, ["green-7", "pirate-harry"])):
        kept = drop_overlapping_readings([top, _reading("pirate-harry", confidence, 100, 145)])
        assert [d.card for d in kept] == kept_cards
    # Beside the top card, touching only a corner of it, an unsure reading stays.
    beside = drop_overlapping_readings([top, _reading("pirate-harry", 0.08, 155, 170)])
    assert len(beside) == 2
