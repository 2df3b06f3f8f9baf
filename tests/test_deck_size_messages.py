"""Messages that state how many faces the deck has count them from ``FACES`` (rules/cards.py):
a card added to the deck (docs/adding-a-card.md) changes every one of them by itself. Each
test gives the deck one face more, ``ghost-ship``, and reads the message."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest
from web_support import page_client

import skullcam.commands.enroll as enroll_command
import skullcam.commands.synth as synth_command
import skullcam.datasets.deck as deck
import skullcam.device.enroll_web as enroll_web
import skullcam.vision.enroll as enroll
import skullcam.vision.enroll_tricks as enroll_tricks
from skullcam.cli import main
from skullcam.device.sources import ImageFolderSource
from skullcam.errors import UserError
from skullcam.rules import FACES
from skullcam.vision.adapt import AdaptPlan

ONE_MORE = (*FACES, "ghost-ship")
MODULES: tuple[ModuleType, ...] = (
    enroll_command,
    synth_command,
    deck,
    enroll_web,
    enroll,
    enroll_tricks,
)


@pytest.fixture(autouse=True)
def one_more_face(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in MODULES:
        monkeypatch.setattr(module, "FACES", ONE_MORE, raising=False)


def test_a_face_the_generator_cannot_draw_names_the_decks_count() -> None:
    with pytest.raises(UserError, match=r"expected one of the 70 card ids of rules\.md"):
        deck.render_face("nope")


def test_an_unknown_face_label_names_the_decks_count() -> None:
    with pytest.raises(UserError, match=r"expected one of the 70 face ids or 'none'"):
        enroll_tricks.check_label("nope", "label")


def test_enrolling_an_unknown_face_names_the_decks_count(tmp_path: Path) -> None:
    enrollment = enroll.Enrollment.open(tmp_path, "deck")
    with pytest.raises(UserError, match="expected one of the 70 face ids"):
        enrollment.accept("nope", np.zeros((8, 8, 3), np.uint8))


def test_the_enrollment_page_counts_the_faces_in_against_the_deck() -> None:
    line = enroll_web.serving_line("home", "http://localhost:8081/", 12)
    assert "(12/70 faces in; Ctrl-C to stop" in line


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["synth", "--help"], "write a stand-in deck (70 <card-id>.png + manifest.json)"),
        (["enroll", "--help"], "one photo or scan per face (70; escape and loot once each)"),
    ],
)
def test_the_help_counts_the_decks_faces(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    assert said in " ".join(capsys.readouterr().out.split())


def test_synth_deck_says_how_many_faces_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(deck, "write_deck", lambda out, style, name: out)
    assert main(["synth", "deck", "--out", str(tmp_path)]) == 0
    assert f"wrote the classic deck's 70 faces to {tmp_path}" in capsys.readouterr().out


def test_the_enrollment_pages_progress_bar_holds_the_decks_faces(tmp_path: Path) -> None:
    """The bar's length was written as 69 into the page, until the first state the page asks
    for: a card added left it one short."""
    camera = tmp_path / "camera"
    camera.mkdir()
    cv2.imwrite(str(camera / "0000.png"), np.zeros((48, 64, 3), np.uint8))
    session = enroll_web.EnrollSession(
        enroll.Enrollment.open(tmp_path / "data", "deck"),
        enroll_web.CameraFeed(ImageFolderSource(camera)),
        AdaptPlan(train_scenes=4, val_scenes=2, epochs=1, workers=1, progress=False),
        test_scenes=2,
    )
    page = page_client(enroll_web.create_enroll_app(session)).get("/").get_data(as_text=True)
    assert '<progress id="progress" max="70" value="0"' in page
