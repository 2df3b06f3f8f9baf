"""Finding, rectifying and judging the one card in an enrollment photo (rendered photos)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from skullcam.datasets.deck import FACE_H, FACE_W, render_face
from skullcam.datasets.faces import FACES
from skullcam.vision.enroll_photo import inspect_photo, portrait_order
from skullcam.vision.enroll_synth import render_photo
from skullcam.vision.sharpness import sharpness

SIZE = (640, 480)


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance, allowing the 180-degree turn a portrait order cannot tell."""
    return min(
        float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in (0, 2)
    )


def _likeness(a: np.ndarray, b: np.ndarray) -> float:
    """Normalised correlation of two faces in grey, the better of the two 180-degree turns."""
    ga = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY).astype(float)
    ga -= ga.mean()
    best = -1.0
    for turned in (b, b[::-1, ::-1]):
        gb = cv2.cvtColor(turned, cv2.COLOR_BGR2GRAY).astype(float)
        gb -= gb.mean()
        best = max(best, float((ga * gb).sum() / np.sqrt((ga * ga).sum() * (gb * gb).sum())))
    return best


@pytest.mark.parametrize("style", ["alt", "classic"])
def test_a_good_photo_gives_the_rectified_face_with_corners_on_the_card(style: str) -> None:
    rng = np.random.default_rng(11)
    errors = []
    for face_id in ("green-7", "black-14", "pirate-harry", "escape", "white-whale"):
        face = render_face(face_id, style)
        photo, (truth,) = render_photo([face], rng, size=SIZE)
        check = inspect_photo(photo)
        assert check.ok, (face_id, check.message)
        assert check.face is not None and check.face.shape == (FACE_H, FACE_W, 3)
        assert check.corners is not None
        errors.append(_corner_error(check.corners, truth) / np.linalg.norm(truth[2] - truth[0]))
        # The rectified face looks like the printed one (either way up), more than like any
        # other face.
        same = _likeness(check.face, face)
        assert same > 0.65, (face_id, same)
        assert same > _likeness(check.face, render_face("green-8", style)) or face_id == "green-7"
    # Corners within a few percent of the card's diagonal on average.
    assert float(np.mean(errors)) < 0.04, errors


def test_a_photo_of_an_empty_table_has_no_card() -> None:
    rng = np.random.default_rng(3)
    for _ in range(4):
        photo, _ = render_photo([], rng, size=SIZE)
        check = inspect_photo(photo)
        assert check.problem == "no-card"
        assert "no card found" in check.message


def test_two_cards_in_one_photo_are_refused() -> None:
    rng = np.random.default_rng(5)
    faces = [render_face("green-7", "alt"), render_face("purple-2", "alt")]
    problems = [inspect_photo(render_photo(faces, rng, size=SIZE)[0]).problem for _ in range(4)]
    assert problems.count("two-cards") >= 3, problems
    assert None not in problems  # never taken as one good card


def test_a_blurred_shot_is_refused_never_accepted() -> None:
    rng = np.random.default_rng(7)
    face = render_face("yellow-9", "alt")
    checks = [inspect_photo(render_photo([face], rng, size=SIZE, blur=0.035)[0]) for _ in range(4)]
    assert all(not c.ok for c in checks)
    assert sum(c.problem == "blurred" and "retake" in c.message for c in checks) >= 3
    # The same card, sharp, passes.
    assert inspect_photo(render_photo([face], rng, size=SIZE)[0]).ok


def test_a_glare_ruined_shot_asks_for_a_retake() -> None:
    rng = np.random.default_rng(9)
    face = render_face("mermaid-sirena", "alt")
    checks = [inspect_photo(render_photo([face], rng, size=SIZE, glare=True)[0]) for _ in range(3)]
    assert [c.problem for c in checks] == ["glare"] * 3
    assert all("retake" in c.message for c in checks)


def test_sharpness_falls_with_blur() -> None:
    face = render_face("green-7", "alt")
    sharp = sharpness(face)
    soft = sharpness(cv2.GaussianBlur(face, (0, 0), 6))
    assert sharp > 0.3 > soft


def test_a_scan_cropped_to_the_card_is_taken_whole() -> None:
    face = render_face("skull-king", "alt")
    check = inspect_photo(face)
    assert check.ok and check.method == "whole image"
    assert check.face is not None and _likeness(check.face, face) > 0.99


@pytest.mark.parametrize("style", ["alt", "classic"])
def test_every_face_scanned_clean_is_taken(style: str) -> None:
    """White print fills a scan's number panels; only a photo can have glare to refuse."""
    refused = {}
    for face_id in FACES:
        check = inspect_photo(render_face(face_id, style))
        if not check.ok:
            refused[face_id] = check.problem
    assert refused == {}


def test_a_card_too_small_in_the_frame_is_refused() -> None:
    face = cv2.resize(render_face("green-3", "alt"), (30, 46))
    photo = np.full((480, 640, 3), 60, np.uint8)
    photo[200:246, 300:330] = face
    check = inspect_photo(photo)
    assert check.problem in ("too-small", "no-card")


@pytest.mark.parametrize("shape", [(1, 1, 3), (4, 6, 3), (500, 2, 3), (40, 640, 3)])
def test_a_picture_too_small_for_any_card_is_refused_not_crashed_on(
    shape: tuple[int, int, int],
) -> None:
    check = inspect_photo(np.full(shape, 128, np.uint8))
    assert check.problem == "too-small"
    assert check.message.startswith(f"the picture is only {shape[1]} x {shape[0]} px")


def test_portrait_order_is_clockwise_with_a_short_edge_first() -> None:
    # A landscape card given counter-clockwise: the result must not mirror the face.
    quad = np.array([[0, 0], [0, 56], [87, 56], [87, 0]], np.float32)
    out = portrait_order(quad)
    x, y = out[:, 0], out[:, 1]
    assert float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) > 0  # clockwise on screen
    assert np.linalg.norm(out[1] - out[0]) < np.linalg.norm(out[2] - out[1])


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_pieces_of_one_card_cut_by_a_reflection_are_glare_not_two_cards() -> None:
    # The detector (or the outline search) can see a card cut in pieces by a reflection as
    # several cards: side by side in a washed-out picture, that is glare to retake.
    photo = np.full((480, 640, 3), 90, np.uint8)
    cv2.circle(photo, (320, 240), 90, (255, 255, 255), -1)  # 8 % of the picture clipped white
    # The stand-in detectors answer as the real one does: an array of corners (K, 4, 2).
    pieces = np.stack([_rect(230, 120, 318, 360), _rect(324, 120, 410, 360)])
    check = inspect_photo(photo, detector=lambda image: pieces)
    assert check.problem == "glare" and "reflection" in check.message
    # Two cards laid apart are two cards, reflection or not.
    apart = np.stack([_rect(20, 120, 120, 360), _rect(520, 120, 620, 360)])
    assert inspect_photo(photo, detector=lambda image: apart).problem == "two-cards"
    # Side by side in a picture without glare: two cards.
    plain = np.full((480, 640, 3), 90, np.uint8)
    assert inspect_photo(plain, detector=lambda image: pieces).problem == "two-cards"


def _place(photo: np.ndarray, face: np.ndarray, centre: tuple[int, int], angle: float) -> None:
    """Paste ``face`` onto ``photo`` at ``centre``, turned ``angle`` degrees, shrunk to 0.7."""
    h, w = face.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 0.7)
    turn[:, 2] += np.array(centre) - np.array([w / 2, h / 2])
    size = photo.shape[1::-1]
    card = cv2.warpAffine(np.full((h, w), 255, np.uint8), turn, size) > 0
    photo[card] = cv2.warpAffine(face, turn, size)[card]


@pytest.mark.parametrize("angle", [0, 30, -30])
def test_two_turned_cards_apart_are_two_cards_not_glare(angle: float) -> None:
    # White-bordered faces fill over 3 % of the picture with clipped white, as a reflection
    # would; turned 30 degrees their upright boxes overlap though ~60 px of table lies between.
    photo = np.full((480, 640, 3), (30, 35, 40), np.uint8)
    _place(photo, render_face("green-7", "classic"), (190, 240), angle)
    _place(photo, render_face("purple-2", "classic"), (450, 240), angle)
    assert float((photo.min(axis=2) >= 250).mean()) > 0.03
    check = inspect_photo(photo)
    assert check.problem == "two-cards" and check.message.startswith("2 cards"), check.message


def test_crossed_pieces_of_one_card_in_glare_are_glare() -> None:
    # Overlapping outlines with no corner inside the other (a cross) are still one place.
    photo = np.full((480, 640, 3), 90, np.uint8)
    cv2.circle(photo, (320, 240), 90, (255, 255, 255), -1)
    crossed = np.stack([_rect(290, 120, 350, 360), _rect(200, 210, 440, 270)])
    assert inspect_photo(photo, detector=lambda image: crossed).problem == "glare"
