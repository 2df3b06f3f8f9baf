"""The stand-in deck: every face drawn and distinguishable, two distinct styles, folder format."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from image_support import imread

from skullcam.datasets.deck import FACE_H, FACE_W, load_deck, read_manifest, render_face, write_deck
from skullcam.datasets.faces import FACES, SUITS
from skullcam.errors import UserError
from skullcam.rules import FACES as RULES_FACES


@pytest.fixture(scope="module")
def classic_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_deck(tmp_path_factory.mktemp("deck") / "classic", style="classic")


def _small(img: np.ndarray) -> np.ndarray:
    """A face at the size it has in a camera frame (about 80 x 124 px)."""
    return cv2.resize(img, (80, 124), interpolation=cv2.INTER_AREA).astype(np.float32)


def test_faces_are_the_rules_faces_in_class_order() -> None:
    assert tuple(RULES_FACES) == FACES
    assert len(FACES) == 69


@pytest.mark.parametrize("style", ["classic", "alt"])
def test_every_face_is_distinct_at_camera_size(style: str) -> None:
    small = np.stack([_small(render_face(face, style)) for face in FACES])
    # the corner mark alone tells every face apart (numbers differ by a digit or a colour);
    # compare the top-left third of each pair of faces
    corner = small[:, :41, :27].reshape(len(FACES), -1)
    diffs = np.abs(corner[:, None, :] - corner[None, :, :]).mean(axis=2)
    np.fill_diagonal(diffs, np.inf)
    i, j = np.unravel_index(np.argmin(diffs), diffs.shape)
    assert diffs[i, j] > 2.0, f"{FACES[i]} and {FACES[j]} look alike ({diffs[i, j]:.2f})"
    # and every special card differs from every other face over the whole face
    flat = small.reshape(len(FACES), -1)
    whole = np.abs(flat[:, None, :] - flat[None, :, :]).mean(axis=2)
    np.fill_diagonal(whole, np.inf)
    specials = [k for k, face in enumerate(FACES) if face.split("-")[0] not in SUITS]
    assert len(specials) == 13
    assert whole[specials].min() > 20.0


def test_styles_differ_on_every_face() -> None:
    for face in FACES:
        a = _small(render_face(face, "classic"))
        b = _small(render_face(face, "alt"))
        assert np.abs(a - b).mean() > 15.0, face


def test_six_and_nine_differ_beyond_rotation() -> None:
    # the underline tells 6 from an upside-down 9
    six = render_face("green-6")
    nine_turned = render_face("green-9")[::-1, ::-1]
    assert np.abs(six.astype(int) - nine_turned.astype(int)).mean() > 1.0


def test_deck_folder_round_trip(classic_dir: Path) -> None:
    manifest = read_manifest(classic_dir)
    assert manifest["format"] == "skullcam-deck/1"
    assert manifest["faces"] == list(FACES)
    assert manifest["size_mm"] == [56, 87]
    assert manifest["style"] == "classic"
    deck = load_deck(classic_dir)
    assert list(deck) == list(FACES)
    assert {img.shape for img in deck.values()} == {(FACE_H, FACE_W, 3)}
    assert np.array_equal(deck["skull-king"], render_face("skull-king", "classic"))


def test_load_deck_resizes_photos_and_accepts_jpg(classic_dir: Path, tmp_path: Path) -> None:
    deck_dir = tmp_path / "photos"  # scans of any size, no manifest
    deck_dir.mkdir()
    for face in FACES:
        img = imread(classic_dir / f"{face}.png")
        cv2.imwrite(str(deck_dir / f"{face}.jpg"), cv2.resize(img, (300, 466)))
    deck = load_deck(deck_dir)
    assert deck["kraken"].shape == (FACE_H, FACE_W, 3)


def test_load_deck_errors_name_the_problem(classic_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="does not exist"):
        load_deck(tmp_path / "nowhere")
    with pytest.raises(UserError, match=r"no manifest\.json and no <card-id>"):
        load_deck(tmp_path)
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "manifest.json").write_text(json.dumps(read_manifest(classic_dir)))
    with pytest.raises(UserError, match="lacks 69 face"):
        load_deck(partial)
    (partial / "manifest.json").write_text("{not json")
    with pytest.raises(UserError, match="not valid JSON"):
        load_deck(partial)


def test_unknown_style_and_face_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="unknown deck style 'neon'"):
        write_deck(tmp_path / "d", style="neon")
    with pytest.raises(UserError, match="unknown face"):
        render_face("green-15")
