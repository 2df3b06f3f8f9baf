"""The enrollment page in English, Spanish, Italian and Danish.

The page chooses its language as the table app does (``?lang=``, the ``lang`` cookie, the
browser's Accept-Language), names cards as the TV and phones do, and words what the vision code
says about a photo in that language; English stays the command line's text, word for word.
"""

from __future__ import annotations

import ast
import io
import json
import re
import string
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import pytest
from enroll_support import learned_too_little
from repo_paths import REPO
from web_support import page_client

from skullcam import i18n_core
from skullcam.datasets.deck import render_face
from skullcam.device.enroll_i18n import (
    MESSAGES,
    STEPS,
    STRINGS,
    face_name,
    log_line,
    page_error,
    say,
    step_name,
    t,
)
from skullcam.device.enroll_web import CameraFeed, EnrollSession, create_enroll_app
from skullcam.device.sources import ImageFolderSource
from skullcam.errors import UserError
from skullcam.rules import FACES
from skullcam.vision.adapt import AdaptPlan
from skullcam.vision.enroll import Enrollment, check_face
from skullcam.vision.enroll_check import CheckResult
from skullcam.vision.enroll_messages import (
    ENGLISH,
    MessageError,
    SaidText,
    message,
    placeholders,
    render,
    spoken,
    spoken_count,
)
from skullcam.vision.enroll_photo import PhotoCheck, inspect_photo
from skullcam.vision.enroll_synth import render_photo
from skullcam.vision.enroll_tricks import TrickComparison, decode_photo
from skullcam.vision.reading_choice import WeightChoice, WeightScore
from skullcam.web import i18n as web_i18n

if TYPE_CHECKING:
    from flask.testing import FlaskClient

PHOTO = (640, 480)
EMPTY_TABLE = np.full((480, 640, 3), 90, np.uint8)  # a camera frame with no card
OTHERS = ("es", "it", "da")


# ------------------------------------------------------------------------------ the tables


def test_every_page_string_has_every_language_with_the_same_placeholders() -> None:
    for key, texts in STRINGS.items():
        assert set(texts) == set(i18n_core.LANGUAGES), key
        assert all(texts[lang].strip() for lang in i18n_core.LANGUAGES), key
        english = placeholders(texts["en"])
        for lang in OTHERS:
            assert placeholders(texts[lang]) == english, (key, lang)


def test_a_page_string_said_apart_for_one_counts_in_number_in_english() -> None:
    """The English of the strings the page words apart for a count of one said "1 card(s)
    found", "1 photo(s) saved", "1 face(s) still missing", where the other languages say it."""
    for key in [k for k in STRINGS if k.endswith("_one")]:
        for said in (STRINGS[key]["en"], STRINGS[key.removesuffix("_one")]["en"]):
            assert "(s)" not in said, key


# English names a card by its id too where a folder's files are named so ("green-7.jpg looks
# like green-1 (Green 1), not green-7 (Green 7)"); the page's other languages name it only as
# the prompts do.
ENGLISH_ONLY = {"photo_wrong_card": {"best", "face"}}


def test_every_vision_message_has_every_language_with_the_same_placeholders() -> None:
    assert set(MESSAGES) == set(OTHERS)
    for lang, table in MESSAGES.items():
        assert set(table) == set(ENGLISH), lang  # none missing, none left over
        for key, text in table.items():
            assert text.strip(), (lang, key)
            english = placeholders(ENGLISH[key]) - ENGLISH_ONLY.get(key, set())
            assert placeholders(text) == english, (lang, key)


def test_page_and_vision_keys_do_not_collide() -> None:
    assert not set(STRINGS) & set(ENGLISH)


def test_the_page_names_cards_as_the_rest_of_the_ui_does() -> None:
    # One table of card names, shared through skullcam.i18n_core (web keeps its names for it).
    assert web_i18n.card_name is i18n_core.card_name
    assert web_i18n.pick_language is i18n_core.pick_language
    for face in FACES:
        for lang in OTHERS:
            assert face_name(face, lang) == web_i18n.card_name(face, lang), (face, lang)
    assert face_name("green-7", "es") == "Loro 7"
    assert face_name("skull-king", "it") == "Re dei Teschi"
    assert face_name("white-whale", "da") == "Den Hvide Hval"
    # English keeps the page's own names, as the command line says them.
    assert face_name("green-7", "en") == "Green 7"
    assert face_name("green-7", "xx") == "Green 7"


def test_neither_side_imports_the_other() -> None:
    """device/ (the enrollment page) never loads web/, and web/ never loads camera code."""
    code = (
        "import sys, importlib; importlib.import_module(sys.argv[1]); "
        "print(' '.join(sorted({m.split('.')[1] for m in sys.modules "
        "if m.startswith('skullcam.')})))"
    )

    def loaded(module: str) -> set[str]:
        out = subprocess.run(
            [sys.executable, "-c", code, module], capture_output=True, text=True, check=True
        )
        return set(out.stdout.split())

    device = loaded("skullcam.device.enroll_web")
    assert "i18n_core" in device and "web" not in device
    web = loaded("skullcam.web.app")
    assert "i18n_core" in web and not {"vision", "device"} & web


# ------------------------------------------------------------------ English stays the same


@pytest.mark.parametrize(
    ("said", "english"),
    [
        (
            message("photo_edge_unclear"),
            "the card's edge does not stand out from the surface: put it on a plain surface "
            "of another colour and retake",
        ),
        (
            message("photo_no_card"),
            "no card found: lay the card face up on a plain, contrasting surface, the whole "
            "card in the picture, hold still and retake",
        ),
        (message("photo_cards", n=3), "3 cards in the picture: photograph one card at a time"),
        (
            message("photo_too_small", width=41.6),
            "the card is only 42 px wide in the picture: move closer so it fills more of the frame",
        ),
        (
            message("photo_blurred", sharpness=0.1234, needed=0.16),
            "the card is blurred (sharpness 0.12, needs 0.16): hold still, focus on the card "
            "and retake",
        ),
        (
            message("photo_glare", share=0.237),
            "a reflection washes out 24% of the card: tilt the card or move the light and retake",
        ),
        (
            message("upload_too_small", width=50, height=40, min=64),
            "the photo is only 50 x 40 px: a trick needs at least 64 px",
        ),
    ],
)
def test_english_messages_are_the_command_lines_text(said: object, english: str) -> None:
    assert str(said) == english
    assert say(said, "en") == english  # type: ignore[arg-type]


def test_a_folder_photo_read_as_another_card_still_says_its_file_name() -> None:
    face = np.zeros((348, 224, 3), np.uint8)

    def classify(_: np.ndarray) -> dict[str, float]:
        return {f: (0.95 if f == "black-9" else 0.05 / 69) for f in FACES}

    check = check_face(
        "green-7", PhotoCheck(None, message("photo_ok"), face=face), classify, "g.jpg"
    )
    assert check.problem == "wrong-card"
    assert check.message == (
        "g.jpg looks like black-9 (Black 9), not green-7 (Green 7): check the card and retake, "
        "or accept it if it really is that card"
    )
    spanish = say(check.said, "es")
    assert spanish.startswith(f"g.jpg parece {face_name('black-9', 'es')}, no ")
    assert face_name("green-7", "es") in spanish
    assert "black-9" not in spanish and "green-7" not in spanish


def test_sentences_in_english_and_spanish() -> None:
    check = CheckResult(
        scenes=500,
        cards=2100,
        recall=0.997,
        precision=0.998,
        classifier_accuracy=0.999,
        confusions=[("extra", "escape", 1), ("pirate-harry", "pirate-rosie", 2)],
    )
    assert check.sentence() == (
        "99.7% of cards right on 500 test scenes; Pirate Harry and Pirate Rosie confused "
        "twice; 1 false alarm"
    )
    assert say(check.said(), "es") == (
        "99,7% de cartas acertadas en 500 escenas de prueba; Harry el Gigante y "
        "Rosie D' Laney se confundieron dos veces; 1 falsa alarma"
    )
    # The page rebuilds the sentence from a model's enroll.json after a restart.
    assert CheckResult.from_json(check.to_json()).said() == check.said()

    photos = TrickComparison(
        photos=2,
        cards=9,
        right=7,
        misreads=Counter({("green-7", "green-1"): 1}),
        missed=Counter({"kraken": 1}),
    )
    english = (
        "on 2 photos of real tricks: 7 of 9 cards right; Green 7 read as Green 1 once; "
        "1 card not found (Kraken)"
    )
    assert photos.sentence() == english == photos.to_json()["sentence"]
    assert say(photos.said(), "da") == (
        "på 2 billeder af rigtige stik: 7 af 9 kort rigtige; grøn 7 læst som grøn 1 én gang; "
        "1 kort ikke fundet (Kraken)"
    )  # a colour in lower case in running text, as the table app's pages write it
    assert face_name("green-7", "da") == "Grøn 7"  # the chips and menus keep it as a label
    assert say(TrickComparison().said(), "it") == "nessuna foto di prese reali ancora controllata"


def test_an_error_keeps_its_english_and_is_worded_per_language() -> None:
    with pytest.raises(MessageError) as caught:
        decode_photo(b"")
    assert isinstance(caught.value, UserError)
    assert str(caught.value) == "the uploaded file is empty: choose a photo (JPEG or PNG)"
    assert say(caught.value.said, "da") == (
        "den uploadede fil er tom: vælg et billede (JPEG eller PNG)"
    )
    err = page_error("err_unusable", reason=message("photo_cards", n=2))
    assert str(err) == (
        "this capture cannot be used (2 cards in the picture: photograph one card at a time)"
    )
    assert say(err.said, "it") == (
        "questo scatto non si può usare (ci sono 2 carte nell'immagine: fotografa una carta "
        "alla volta)"
    )
    assert t("count", "es", done=3, total=69) == "3 de 69 cartas"


# ------------------------------------------------------------------------- the page itself


def _client(tmp_path: Path, shots: list[np.ndarray]) -> FlaskClient:
    camera = tmp_path / "camera"
    camera.mkdir()
    for i, shot in enumerate(shots):
        cv2.imwrite(str(camera / f"frame_{i:06d}.jpg"), shot)
    session = EnrollSession(
        Enrollment.open(tmp_path / "data", "mesa"),
        CameraFeed(ImageFolderSource(camera)),
        AdaptPlan(progress=False),
    )
    return page_client(create_enroll_app(session))


@pytest.mark.parametrize(
    ("lang", "heading", "prompt", "capture"),
    [
        ("en", "Enroll deck “mesa”", "place the Green 1 face up in the frame", "Capture"),
        (
            "es",
            "Registrar la baraja «mesa»",
            "coloca la carta Loro 1 boca arriba dentro del encuadre",
            "Capturar",
        ),
        (
            "it",
            "Registra il mazzo «mesa»",
            "metti la carta Pappagallo 1 scoperta nell'inquadratura",
            "Scatta",
        ),
        (
            "da",
            "Registrér kortsættet »mesa«",
            "læg kortet grøn 1 med forsiden opad, så det er i billedet",
            "Tag billede",
        ),
    ],
)
def test_the_page_renders_in_each_language(
    tmp_path: Path, lang: str, heading: str, prompt: str, capture: str
) -> None:
    client = _client(tmp_path, [EMPTY_TABLE])
    page = client.get(f"/?lang={lang}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and f'<html lang="{lang}">' in html
    assert f"<h1>{heading}</h1>" in html and f'<button id="capture">{capture}</button>' in html
    # The names a screen reader gives the progress bars and the card list, and the ✓'s key.
    for key in ("progress_faces", "progress_step", "trick_cards"):
        assert f'aria-label="{STRINGS[key][lang]}"' in html, key
    assert f"({STRINGS['enrolled_key'][lang]})" in html
    assert f"lang={lang}" in page.headers.get("Set-Cookie", "")
    # The state the script shows is in the same language: the cookie remembers it.
    state = client.get("/api/state").get_json()
    assert state["prompt"] == prompt
    assert state["face_name"] == face_name("green-1", lang)
    # The faces to tap for a retake are shown by name, and called by id.
    assert state["face_names"]["skull-king"] == face_name("skull-king", lang)
    assert set(state["face_names"]) == set(FACES)
    faces = client.get("/api/trick/faces").get_json()
    assert faces[1] == {"id": "green-1", "name": face_name("green-1", lang)}
    assert faces[0]["name"] == STRINGS["not_a_card"][lang]


def test_the_browsers_language_is_used_when_none_was_chosen(tmp_path: Path) -> None:
    client = _client(tmp_path, [EMPTY_TABLE])
    italian = {"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}
    state = client.get("/api/state", headers=italian).get_json()
    assert state["prompt"].startswith("metti la carta Pappagallo 1")
    french = client.get("/api/state", headers={"Accept-Language": "fr"})
    assert french.get_json()["prompt"] == "place the Green 1 face up in the frame"


def test_a_photo_checks_message_is_worded_in_spanish_on_the_page(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    green1, green2 = render_face("green-1", "alt"), render_face("green-2", "alt")
    two = render_photo([green1, green2], rng, PHOTO)[0]
    blurred = render_photo([green1], rng, PHOTO, blur=0.04)[0]
    assert inspect_photo(two).problem == "two-cards"  # what the page is about to be shown
    client = _client(tmp_path, [two, blurred])

    state = client.post("/api/capture?lang=es").get_json()
    pending = state["pending"]
    assert pending["problem"] == "two-cards"
    assert pending["message"] == "hay 2 cartas en la imagen: fotografía las cartas de una en una"
    # The same capture read in English is the command line's text.
    english = client.get("/api/state?lang=en").get_json()
    assert english["pending"]["message"] == (
        "2 cards in the picture: photograph one card at a time"
    )

    state = client.post("/api/capture?lang=es").get_json()
    message_es = state["pending"]["message"]
    assert state["pending"]["problem"] == "blurred"
    assert message_es.startswith("la carta está borrosa (nitidez 0,")  # a decimal comma
    assert message_es.endswith("no te muevas, enfoca la carta y repite la foto")
    refused = client.post("/api/accept", json={})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == f"esta captura no se puede usar ({message_es})"


def test_the_pages_own_errors_are_worded_in_its_language(tmp_path: Path) -> None:
    client = _client(tmp_path, [EMPTY_TABLE])
    client.get("/?lang=da")
    nothing = client.post("/api/accept", json={})
    assert (
        nothing.get_json()["error"] == "intet billede taget endnu: tag først et billede af kortet"
    )
    upload = client.post(
        "/api/trick/upload",
        data={"photo": (io.BytesIO(b""), "empty.jpg")},
        headers={"X-Skullcam-Page": "enroll"},
    )
    assert upload.status_code == 400
    assert upload.get_json()["error"] == (
        "den uploadede fil er tom: vælg et billede (JPEG eller PNG)"
    )
    # English: the text it always was.
    english = client.post("/api/accept?lang=en", json={})
    assert english.get_json()["error"] == "nothing captured yet: capture the card first"


def test_render_falls_back_to_english_for_a_key_a_language_lacks() -> None:
    from skullcam.vision.enroll_messages import Wording

    partial = Wording(templates={"this_card": "cette carte"}, decimal=",")
    said = message(
        "photo_wrong_card",
        label=message("this_card"),
        best="a",
        best_name="A",
        face="b",
        face_name="B",
    )
    assert render(said, partial).startswith("cette carte looks like a (A), not b (B)")


def test_a_failed_adaptation_says_why_in_the_pages_language(tmp_path: Path) -> None:
    session = _session_on_an_empty_table(tmp_path)
    said = message("upload_empty")
    session.adapt_status = {"state": "failed", "log": [], "error": str(said), "error_said": said}
    assert session.state("es")["adapt"]["error"] == say(said, "es") != str(said)
    assert session.state("en")["adapt"]["error"] == str(said)
    assert "error_said" not in session.state("es")["adapt"]  # the page gets words, not objects


# ------------------------------------------------------------- the adaptation's progress

# The modules whose progress bars the page can see while the model adapts: the adaptation, the
# corner weight's choice, the self-check's evaluation, scene rendering in this process.
ADAPT_PATH = (
    "vision/adapt.py",
    "vision/reading_choice.py",
    "vision/evaluate.py",
    "datasets/dataset.py",
)


def _bar_names(path: Path) -> list[str]:
    """The ``desc=`` of every tqdm bar in ``path``, an f-string's fields as ``{}``."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.keyword) or node.arg != "desc":
            continue
        if isinstance(node.value, ast.Constant):
            names.append(str(node.value.value))
        elif isinstance(node.value, ast.JoinedStr):
            names.append(
                "".join(
                    str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.value.values
                )
            )
    return names


def test_every_step_of_the_adaptation_has_a_name_in_every_language() -> None:
    bars = [name for module in ADAPT_PATH for name in _bar_names(REPO / module)]
    assert "fine-tuning" in bars and "crops ({})" in bars  # the scan finds the bars
    for name in bars:
        # An f-string's bar ("crops ({split})"): each value it takes on the way is listed.
        splits = ("train", "val") if name.startswith("crops") else ("train",)
        for desc in [name.replace("{}", s) for s in splits] if "{}" in name else [name]:
            assert desc in STEPS, f"{desc!r}: a step the page would show in English only"
    assert "corner reader" in STEPS  # vision.training.fit_corner_reader's epoch bar
    for desc, key in STEPS.items():
        # The English page shows what the terminal shows; every language has a wording, with
        # no placeholders (the step line's own "{what}: {done} of {total}" frames it).
        assert STRINGS[key]["en"] == desc == step_name(desc, "en")
        for lang in OTHERS:
            assert step_name(desc, lang) == STRINGS[key][lang] != desc, (desc, lang)
            assert not placeholders(STRINGS[key][lang]), (key, lang)
    assert step_name("fine-tuning", "es") == "aprendiendo tus cartas"
    assert step_name("a step added later", "da") == "a step added later"  # shown as named


def test_every_progress_line_has_every_language_with_the_same_placeholders() -> None:
    lines = [key for key in ENGLISH if key.startswith("log_")]
    assert len(lines) >= 12
    for lang in OTHERS:
        for key in lines:
            assert placeholders(MESSAGES[lang][key]) == placeholders(ENGLISH[key]), (lang, key)


@pytest.mark.parametrize(
    ("said", "english"),
    [
        (spoken("log_rendering", n=2700), "rendering 2700 scenes of the enrolled deck"),
        (
            spoken_count("log_detector_resuming", 2, scenes=2400),
            "fine-tuning the card detector on 2400 scenes, 2 epochs (resuming)",
        ),
        (
            spoken_count("log_classifier", 12, crops=15120),
            "fine-tuning the face classifier on 15120 crops, 12 epochs",
        ),
        (
            spoken_count("log_classifier_budget", 12, crops=15120, minutes=8.5),
            "fine-tuning the face classifier on 15120 crops, 12 epochs or 8.5 min, whichever "
            "ends first",
        ),
        (
            spoken_count("log_corner_reader", 1, patches=900),
            "fine-tuning the corner reader on 900 patches, 1 epoch",
        ),
        (
            spoken("log_self_check", n=500),
            "self-check: rendering 500 new test scenes of the deck",
        ),
        (
            SaidText(
                WeightChoice(
                    0.5, 300, (WeightScore(0.0, 280, 30), WeightScore(0.5, 290, 12))
                ).said()
            ),
            "corner reader's weight 0.5, chosen on 300 validation scenes (scenes read right by "
            "weight: 0: 280, 0.5: 290)",
        ),
    ],
)
def test_progress_lines_are_the_command_lines_english(said: SaidText, english: str) -> None:
    # The terminal prints the line as it always did: a SaidText is that English str.
    assert isinstance(said, str) and said == english and str(said) == english
    assert log_line(said, "en") == english


def test_a_fine_tune_cut_short_in_its_one_epoch_says_one_epoch() -> None:
    """It said "after 0.6 of its 1 epochs" ("de sus 1 pasadas")."""
    from skullcam.vision.adapt import cut_short_line

    assert cut_short_line(0.64, 1) == (
        "the time budget ended the face classifier's fine-tune after 0.6 of its 1 epoch"
        " (--minutes 0 runs it whole, when there is time)"
    )
    assert log_line(cut_short_line(0.64, 1), "es") == (
        "el tiempo previsto acabó el aprendizaje de tus cartas tras 0,6 de su 1 pasada"
        " (--minutes 0 la hace entera, si hay tiempo)"
    )
    assert log_line(cut_short_line(0.64, 1), "it") == (
        "il tempo previsto ha chiuso l'apprendimento delle tue carte dopo 0,6 della sua 1"
        " passata (--minutes 0 la fa tutta, se c'è tempo)"
    )
    assert log_line(cut_short_line(1, 3), "da") == (
        "tidsrammen stoppede indlæringen af dine kort efter 1 af 3 gennemløb"
        " (--minutes 0 kører dem alle, når der er tid)"
    )


def test_progress_lines_in_each_language() -> None:
    choice = WeightChoice(0.25, 300, (WeightScore(0.0, 280, 30), WeightScore(0.25, 290, 12)))
    assert choice.sentence() == str(SaidText(choice.said()))
    assert log_line(SaidText(choice.said()), "es") == (
        "peso de las esquinas: 0,25, elegido con 300 escenas de validación (escenas bien leídas "
        "con cada peso: 0 → 280, 0,25 → 290)"
    )
    assert log_line(spoken("log_rendering", n=2700), "it") == (
        "creazione di 2700 scene con il tuo mazzo"
    )
    assert log_line(spoken_count("log_classifier", 1, crops=100), "es") == (
        "aprendiendo tus cartas con 100 recortes, 1 pasada"
    )
    assert log_line(spoken_count("log_classifier_budget", 12, crops=100, minutes=8.5), "es") == (
        "aprendiendo tus cartas con 100 recortes, 12 pasadas o 8,5 min, lo que acabe antes"
    )
    assert log_line(spoken_count("log_detector", 3, scenes=2400), "it") == (
        "addestramento del rilevatore di carte su 2400 scene, 3 passate"
    )
    assert log_line(spoken("log_tricks_recheck"), "da") == (
        "tjekker de gemte billeder af rigtige stik med den aktive model"
    )
    # A model's folder and a file name are what the disk calls them, in every language.
    kept = spoken("log_detector_kept", model=Path("models/base"), file="card-detector.pt")
    assert log_line(kept, "es") == (
        "el detector se queda como está: models/base no tiene card-detector.pt"
    )
    assert log_line("a line with no message", "es") == "a line with no message"


def test_the_running_step_and_log_are_in_the_pages_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fake adaptation (no training): what it says and the bar it opens, read by the page in
    Spanish, and in English as the terminal shows them."""
    from tqdm import tqdm

    import skullcam.device.enroll_web as enroll_web

    running, finish = threading.Event(), threading.Event()

    def adapting(*args: object, say: Callable[[str], None], **kwargs: object) -> None:
        say(spoken("log_rendering", n=2700))
        say(spoken_count("log_classifier", 12, crops=15120))
        say("a line with no message")
        with tqdm(total=200, desc="fine-tuning", file=io.StringIO(), mininterval=0) as bar:
            bar.update(50)
            running.set()
            finish.wait(timeout=30)
        raise UserError("stopped by the test")

    monkeypatch.setattr(enroll_web, "adapt_and_install", adapting)
    session = _session_on_an_empty_table(tmp_path)
    for face in FACES:
        session.enrollment.accept(face, np.zeros((8, 8, 3), np.uint8))
    client = page_client(create_enroll_app(session))
    try:
        assert client.post("/api/adapt?lang=es").get_json()["adapt"]["state"] == "running"
        assert running.wait(timeout=30)
        spanish = client.get("/api/state?lang=es").get_json()["adapt"]
        english = client.get("/api/state?lang=en").get_json()["adapt"]
    finally:
        finish.set()
        assert session.adapt_thread is not None
        session.adapt_thread.join(timeout=30)
    assert spanish["step"]["what"] == "aprendiendo tus cartas"
    assert (spanish["step"]["done"], spanish["step"]["total"]) == (50, 200)
    assert spanish["log"] == [
        "creando 2700 escenas con tu baraja",
        "aprendiendo tus cartas con 15120 recortes, 12 pasadas",
        "a line with no message",
    ]
    assert english["step"]["what"] == "fine-tuning"
    assert english["log"] == [
        "rendering 2700 scenes of the enrolled deck",
        "fine-tuning the face classifier on 15120 crops, 12 epochs",
        "a line with no message",
    ]
    assert client.get("/api/state").get_json()["adapt"]["state"] == "failed"


def test_the_page_names_the_faces_to_retake_in_its_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line named them since this session; the camera page said only the
    weakest faces, and only when the model was not activated."""
    import skullcam.device.enroll_web as enroll_web
    from skullcam.vision.enroll import EnrollOutcome

    check = CheckResult(
        scenes=500,
        cards=2100,
        recall=0.98,
        precision=0.98,
        classifier_accuracy=0.985,
        classifier_per_card={
            "green-7": {"precision": 0.4, "recall": 0.2},
            "green-8": {"precision": 1.0, "recall": 1.0},
        },
    )

    def adapted(*_: object, **__: object) -> EnrollOutcome:
        return EnrollOutcome(tmp_path / "models" / "m", check, True, {})

    monkeypatch.setattr(enroll_web, "adapt_and_install", adapted)
    session = _session_on_an_empty_table(tmp_path)
    for face in FACES:
        session.enrollment.accept(face, np.zeros((8, 8, 3), np.uint8))
    client = page_client(create_enroll_app(session))
    client.post("/api/adapt")
    assert session.adapt_thread is not None
    session.adapt_thread.join(timeout=30)
    assert client.get("/api/state?lang=es").get_json()["adapt"]["retake"] == ["Loro 7"]
    assert client.get("/api/state?lang=en").get_json()["adapt"]["retake"] == ["Green 7"]
    danish = client.get("/api/state?lang=da").get_json()["adapt"]
    assert danish["retake"] == ["grøn 7"] and " Tag billederne af grøn 7 igen" in danish["advice"]
    advice = client.get("/api/state?lang=es").get_json()["adapt"]["advice"]
    assert advice == (
        "El nuevo modelo está activo. Repite las fotos de Loro 7: la comprobación las reconoce"
        " en menos de la mitad de sus cartas (¿cortadas por el borde, otra carta o movidas?)."
    )


TOO_LITTLE = {
    "en": "Not activated. 12 faces are named right on under half of their cards: too many for"
    " bad photos; the model learned too little: run it again with a longer plan.",
    "es": "No activado. 12 cartas se reconocen en menos de la mitad de sus apariciones:"
    " demasiadas para ser fotos malas; el modelo aprendió demasiado poco: vuelve a adaptarlo"
    " con un plan más largo.",
    "it": "Non attivato. 12 carte sono riconosciute in meno della metà delle loro apparizioni:"
    " troppe per essere foto sbagliate; il modello ha imparato troppo poco: adattalo di nuovo"
    " con un piano più lungo.",
    "da": "Ikke aktiveret. 12 kort genkendes i under halvdelen af deres forekomster: for mange"
    " til at være dårlige billeder; modellen lærte for lidt: tilpas den igen med en længere"
    " plan.",
}


def test_a_model_that_learned_too_little_is_run_again_longer_from_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line says to run again with more --scenes and --epochs when more than 10
    faces read under half right; the page told the user to retake 12 photos, and could not
    run a longer plan. It now says what the command line says, and offers that run."""
    weak = _outcome(tmp_path, learned_too_little())
    session, client, plans = _all_faces_on_a_page(tmp_path, monkeypatch, [weak] * 2)
    _adapted(client, session)
    for lang, said in TOO_LITTLE.items():
        shown = client.get(f"/api/state?lang={lang}").get_json()["adapt"]
        assert shown["advice"] == said
        assert len(shown["retake"]) == 12  # still listed, not said
    longer = client.get("/api/state?lang=da").get_json()["adapt"]["longer"]
    assert longer == {
        "scenes": 7200,
        "epochs": 18,
        "minutes": None,  # no times recorded: no estimate
        "label": "Tilpas igen med en længere plan (7200 scener, 18 gennemløb, uden tidsgrænse)",
    }
    # Adapt again with the same photos would make the same model: it is refused, saying what
    # would not (it did nothing, and the page looked dead); the longer run is run.
    refused = client.post("/api/adapt?lang=es", json={})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == (
        "estas fotos ya hicieron el modelo que se muestra, y el mismo plan lo haría igual:"
        " pulsa «Volver a adaptar con un plan más largo» abajo"
    )
    assert len(plans) == 1
    _adapted(client, session, longer=True)
    assert [(p.train_scenes, p.val_scenes, p.epochs, p.minutes) for p in plans[1:]] == [
        (7200, 900, 18, None)
    ]
    # Still too little: the next is longer again.
    assert client.get("/api/state").get_json()["adapt"]["longer"]["scenes"] == 14400
    assert client.post("/api/adapt", json={"longer": "yes"}).status_code == 400


def _all_faces_on_a_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outcomes: list[Callable[[], Any]]
) -> tuple[EnrollSession, Any, list[AdaptPlan]]:
    """A page with all 69 faces in, whose adaptations give ``outcomes`` in turn (an outcome
    or an error raised), and the plans they were run with."""
    import skullcam.device.enroll_web as enroll_web

    plans: list[AdaptPlan] = []

    def adapted(_: object, plan: AdaptPlan, **__: object) -> Any:
        plans.append(plan)
        return outcomes[len(plans) - 1]()

    monkeypatch.setattr(enroll_web, "adapt_and_install", adapted)
    session = _session_on_an_empty_table(tmp_path)
    for face in FACES:
        session.enrollment.accept(face, np.zeros((8, 8, 3), np.uint8))
    return session, page_client(create_enroll_app(session)), plans


def _adapted(client: Any, session: EnrollSession, **body: object) -> None:
    assert client.post("/api/adapt", json=body).status_code == 200
    assert session.adapt_thread is not None
    session.adapt_thread.join(timeout=30)


def _outcome(
    tmp_path: Path, result: CheckResult, activated: bool = False, **timing: Any
) -> Callable[[], Any]:
    """An adaptation's outcome; ``timing``: its seconds and ``classifier_epochs``."""
    from skullcam.vision.enroll import EnrollOutcome

    epochs = timing.pop("classifier_epochs", None)
    return lambda: EnrollOutcome(tmp_path / "models" / "m", result, activated, timing, epochs)


def test_adapt_with_the_photos_that_made_the_model_says_to_retake_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second click on Adapt with the same photos did nothing: the page looked dead."""
    good = CheckResult(scenes=50, cards=200, recall=0.99, precision=0.99, classifier_accuracy=0.99)
    session, client, plans = _all_faces_on_a_page(
        tmp_path, monkeypatch, [_outcome(tmp_path, good, activated=True)] * 2
    )
    _adapted(client, session)
    refused = client.post("/api/adapt?lang=it", json={})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == (
        "queste foto hanno già fatto il modello mostrato: rifai prima la foto di una carta"
        " (tocca il suo nome qui sotto), poi adatta di nuovo"
    )
    assert len(plans) == 1 and session.adapt_status["state"] == "done"
    session.enrollment.accept("green-7", np.ones((8, 8, 3), np.uint8), source="retaken")
    _adapted(client, session)
    assert len(plans) == 2


def test_a_failed_longer_run_stays_on_offer_and_adapt_tries_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A longer run that failed took its button away, and the next Adapt ran the page's own
    plan: the one that had made the model that learned too little."""

    def fails() -> Any:
        raise UserError("no space left on the SD card")

    weak = _outcome(tmp_path, learned_too_little())
    session, client, plans = _all_faces_on_a_page(tmp_path, monkeypatch, [weak, fails, fails, weak])
    _adapted(client, session)
    _adapted(client, session, longer=True)
    shown = client.get("/api/state").get_json()["adapt"]
    assert shown["state"] == "failed" and shown["error"] == "no space left on the SD card"
    assert (shown["longer"]["scenes"], shown["longer"]["epochs"]) == (7200, 18)
    _adapted(client, session, longer=True)  # its button: the same run again
    _adapted(client, session)  # Adapt: the run that failed, not the page's 3,600 scenes
    assert [(p.train_scenes, p.epochs, p.minutes) for p in plans] == [
        (3600, 12, 19.0),
        (7200, 18, None),
        (7200, 18, None),
        (7200, 18, None),
    ]
    # That one finished, and learned too little again: the next is longer again.
    assert client.get("/api/state").get_json()["adapt"]["longer"]["scenes"] == 14400


def _longer_runs_on_a_restarted_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hold: threading.Event | None = None
) -> tuple[EnrollSession, Any, list[AdaptPlan]]:
    """A page after a restart whose model learned too little, its longer run started: each run
    writes the deck first, as ``adapt_and_install`` does (the enrollment leaves "done"), then
    fails (the first, where ``hold`` is given, once it is set: it has written the deck when
    this returns). The page and the plans run."""
    import skullcam.device.enroll_web as enroll_web
    from skullcam.vision.adapt import training_args

    record = {"check": learned_too_little().to_json(), "plan": training_args(AdaptPlan())}
    _shown_model(tmp_path, record)
    plans: list[AdaptPlan] = []

    def adapted(enrollment: Enrollment, plan: AdaptPlan, **_: object) -> Any:
        plans.append(plan)
        enrollment.stage = "adapt"
        enrollment.save()
        if hold is not None and len(plans) == 1:
            deck_written.set()
            hold.wait(timeout=30)
        raise UserError("no space left on the SD card")

    deck_written = threading.Event()
    monkeypatch.setattr(enroll_web, "adapt_and_install", adapted)
    session = _session_on_an_empty_table(tmp_path)
    client = page_client(create_enroll_app(session))
    assert client.post("/api/adapt", json={"longer": True}).status_code == 200
    assert hold is None or deck_written.wait(timeout=30)
    return session, client, plans


def test_a_failed_longer_run_is_offered_again_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: the failure was kept in memory only, and the run had written the deck, so after a
    restart the page showed nothing done (no button for the longer run) and Adapt ran the
    page's own plan, which had made the model that learned too little."""
    session, _, plans = _longer_runs_on_a_restarted_page(tmp_path, monkeypatch)
    assert session.adapt_thread is not None
    session.adapt_thread.join(timeout=30)
    restarted = _session_on_an_empty_table(tmp_path)
    client = page_client(create_enroll_app(restarted))
    shown = client.get("/api/state").get_json()["adapt"]
    assert shown["state"] == "failed" and shown["error"] == "no space left on the SD card"
    assert (shown["longer"]["scenes"], shown["longer"]["epochs"]) == (7200, 18)
    _adapted(client, restarted)  # Adapt: the run that failed, not the page's 3,600 scenes
    assert [(p.train_scenes, p.epochs, p.minutes) for p in plans] == [(7200, 18, None)] * 2
    # A face retaken: the photos that run was for are gone, and so is its offer.
    restarted.enrollment.accept("green-7", np.ones((8, 8, 3), np.uint8), source="retaken")
    assert _session_on_an_empty_table(tmp_path).state("en")["adapt"]["state"] == "idle"


def test_a_longer_run_the_program_stopped_during_is_offered_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A longer run can take the program down with it (out of memory): after the restart the
    page says it did not finish, in its language, and runs it again."""
    hold = threading.Event()
    session, _, plans = _longer_runs_on_a_restarted_page(tmp_path, monkeypatch, hold)
    try:
        restarted = _session_on_an_empty_table(tmp_path)  # while the first still runs
        client = page_client(create_enroll_app(restarted))
        shown = client.get("/api/state?lang=da").get_json()["adapt"]
        assert shown["state"] == "failed"
        assert shown["error"] == (
            "kørslen med en længere plan blev ikke færdig: programmet stoppede undervejs. Kør"
            " den igen: den fortsætter fra det arbejde, den gemte"
        )
        assert (shown["longer"]["scenes"], shown["longer"]["epochs"]) == (7200, 18)
        _adapted(client, restarted)
    finally:
        hold.set()
        assert session.adapt_thread is not None
        session.adapt_thread.join(timeout=30)
    assert [(p.train_scenes, p.epochs, p.minutes) for p in plans] == [(7200, 18, None)] * 2


def test_the_longer_run_says_about_how_long_it_takes_on_this_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It has no time limit, and the page said nothing of how long it takes: from the default
    plan, three times the fine-tune and twice the rest (adapt.estimate_seconds)."""
    parts: dict[str, Any] = {"before_fine_tune": 300, "after_fine_tune": 300}
    parts["classifier_epochs"] = 12
    runs = [
        _outcome(tmp_path, learned_too_little(), adapt=1800, check=106, classifier=1200, **parts),
        _outcome(tmp_path, learned_too_little(), adapt=1360, check=100, classifier=760, **parts),
    ]
    session, client, _ = _all_faces_on_a_page(tmp_path, monkeypatch, runs)
    _adapted(client, session)
    # 2 x 300 + 3 x 1200 + 2 x 300 + 1.5 x 106 = 4959 s: 82.7 minutes.
    longer = client.get("/api/state?lang=da").get_json()["adapt"]["longer"]
    assert longer["minutes"] == 83
    assert longer["label"] == (
        "Tilpas igen med en længere plan (7200 scener, 18 gennemløb, uden tidsgrænse: omkring"
        " 85 minutter på denne maskine)"
    )
    # A face retaken and adapted again, on a machine now less busy: the estimate follows the
    # run that made the model shown. 600 + 3 x 760 + 600 + 150 = 3630 s: 60.5 minutes.
    session.enrollment.accept("green-7", np.ones((8, 8, 3), np.uint8), source="retaken")
    _adapted(client, session)
    labels = {
        lang: client.get(f"/api/state?lang={lang}").get_json()["adapt"]["longer"]["label"]
        for lang in ("en", "es", "it")
    }
    assert labels["en"] == (
        "Run again with a longer plan (7200 scenes, 18 epochs, no time limit: about 60 minutes"
        " on this machine)"
    )
    assert labels["es"].endswith("sin límite de tiempo: unos 60 minutos en este equipo)")
    assert labels["it"].endswith("senza limite di tempo: circa 60 minuti su questo computer)")


def test_a_longer_run_of_hours_is_said_in_hours_after_a_restart_too(tmp_path: Path) -> None:
    """A CPU without bfloat16 takes hours for it (docs/enroll.md); a restarted page reads the
    run's parts from the model's enroll.json."""
    from skullcam.vision.adapt import training_args

    seconds = {
        "adapt": 3400.0,
        "check": 100.0,
        "before_fine_tune": 300.0,
        "classifier": 2500.0,
        "after_fine_tune": 300.0,
    }
    record = {
        "check": learned_too_little().to_json(),
        "plan": training_args(AdaptPlan()),
        "seconds": seconds,
        "classifier_epochs": 12,
    }
    model = _shown_model(tmp_path, record)
    # 600 + 7500 + 600 + 150 = 8850 s: 147.5 minutes, about 2.5 hours.
    shown = _session_on_an_empty_table(tmp_path).state("es")["adapt"]["longer"]
    assert shown["label"].endswith("sin límite de tiempo: unas 2,5 horas en este equipo)")
    shown = _session_on_an_empty_table(tmp_path).state("en")["adapt"]["longer"]
    assert shown["label"].endswith("no time limit: about 2.5 hours on this machine)")
    # An older record, without the times: no estimate rather than a guess.
    del record["seconds"]
    (model / "enroll.json").write_text(json.dumps(record))
    shown = _session_on_an_empty_table(tmp_path).state("en")["adapt"]["longer"]
    assert shown["label"].endswith("(7200 scenes, 18 epochs, no time limit)")
    assert shown["minutes"] is None


def test_after_a_restart_the_longer_run_follows_the_plan_that_made_the_model(
    tmp_path: Path,
) -> None:
    """The page's own plan may not be the one a model shown after a restart was made with:
    the longer run doubles the recorded one."""
    from skullcam.vision.adapt import sized_plan, training_args

    made_with = sized_plan(300, 4, minutes=None)
    record = {"check": learned_too_little().to_json(), "plan": training_args(made_with)}
    model = _shown_model(tmp_path, record)
    shown = _session_on_an_empty_table(tmp_path).state("it")["adapt"]
    assert shown["advice"] == TOO_LITTLE["it"]
    assert (shown["longer"]["scenes"], shown["longer"]["epochs"]) == (600, 6)
    # A record this version does not read: the longer run follows the page's plan.
    record["plan"] = {"train_scenes": 300, "a field of another version": 1}
    (model / "enroll.json").write_text(json.dumps(record))
    shown = _session_on_an_empty_table(tmp_path).state("en")["adapt"]
    assert (shown["longer"]["scenes"], shown["longer"]["epochs"]) == (7200, 18)


def test_a_model_that_learned_enough_is_offered_no_longer_run(tmp_path: Path) -> None:
    """Ten faces to retake are still photos to retake, with no longer run on offer."""
    _shown_model(tmp_path, {"check": learned_too_little(weak_faces=10).to_json()})
    shown = _session_on_an_empty_table(tmp_path).state("en")["adapt"]
    assert shown["longer"] is None
    assert shown["advice"].startswith("Not activated: retake the weakest faces. Retake the photos")


def _shown_model(tmp_path: Path, record: dict[str, Any]) -> Path:
    """An enrollment of every face whose adaptation installed ``mesa-1``, with ``record`` as
    its ``enroll.json``: what a page restarted after that run shows. The model's folder."""
    model = tmp_path / "data" / "models" / "mesa-1"
    model.mkdir(parents=True)
    (model / "enroll.json").write_text(json.dumps(record))
    enrollment = Enrollment.open(tmp_path / "data", "mesa")
    for face in FACES:
        enrollment.accept(face, np.zeros((8, 8, 3), np.uint8))
    enrollment.stage, enrollment.model = "done", "mesa-1"
    enrollment.save()
    return model


def _session_on_an_empty_table(tmp_path: Path) -> EnrollSession:
    """An enrollment page's session whose camera shows only the table."""
    camera = tmp_path / "camera"
    camera.mkdir(exist_ok=True)  # a second session on the same table: a restart
    cv2.imwrite(str(camera / "frame_000000.jpg"), EMPTY_TABLE)
    return EnrollSession(
        Enrollment.open(tmp_path / "data", "mesa"),
        CameraFeed(ImageFolderSource(camera)),
        AdaptPlan(progress=False),
    )


def test_the_enrollment_page_and_the_table_pages_share_one_decimal_mark() -> None:
    """The enrollment page wrote its decimal mark out ("," beside every language but
    English) apart from the table pages' ``decimal_mark``: both now come from
    ``i18n_core.DECIMAL_MARKS``, so a language added to one is written the same in both."""
    from skullcam.device.enroll_i18n import wording

    for lang in i18n_core.LANGUAGES:
        mark = web_i18n.translate("decimal_mark", lang)
        assert wording(lang).decimal == mark == i18n_core.decimal_mark(lang), lang
    assert i18n_core.number_in(1.5, "it", "g") == "1,5"
    assert i18n_core.number_in(1.5, "en", "g") == "1.5"
    assert i18n_core.number_in("0.41", "da") == "0,41"  # a number kept as written
    assert i18n_core.decimal_mark("fr") == "."  # a language the app does not have


def _fractional_fields(template: str) -> dict[str, float]:
    """The template's numbers written with a format spec: those a fraction can show in."""
    return {
        name: 1.25
        for _, name, spec, _ in string.Formatter().parse(template)
        if name and spec and spec[-1] in "gf%"
    }


@pytest.mark.parametrize("lang", ["es", "it", "da"])
def test_every_fraction_the_enrollment_page_says_has_the_languages_decimal_mark(lang: str) -> None:
    """Every page string and message with a fractional number ("circa {hours:g} ore", "peso
    degli angoli {weight:g}", "nitidezza {sharpness:.2f}") writes it with a comma."""
    said = 0
    for key in (*STRINGS, *MESSAGES[lang]):
        template = STRINGS[key][lang] if key in STRINGS else MESSAGES[lang][key]
        numbers = _fractional_fields(template)
        if not numbers:
            continue
        others = {name: "x" for name in placeholders(template) if name not in numbers}
        text = t(key, lang, **others, **numbers)
        assert re.search(r"\d\.\d", text) is None, (key, text)
        said += "1,25" in text or "125,0" in text
    assert said >= 5  # the hours, minutes, weights and sharpness above
