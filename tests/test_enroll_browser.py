"""The camera enrollment page in headless chromium, served by waitress, file-backed camera."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from browser_support import require_browser
from enroll_support import learned_too_little
from image_support import imread
from repo_paths import SAMPLE_SCENES

from skullcam.datasets.deck import render_face
from skullcam.device.enroll_web import CameraFeed, EnrollSession, create_enroll_app
from skullcam.device.sources import ImageFolderSource
from skullcam.rules import FACES
from skullcam.vision.adapt import AdaptPlan
from skullcam.vision.enroll import Enrollment
from skullcam.vision.enroll_check import card_name
from skullcam.vision.enroll_synth import render_photo

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_browser()

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


@contextmanager
def _serve(
    tmp_path: Path, shots: list[np.ndarray], **app_options: Any
) -> Iterator[tuple[str, EnrollSession]]:
    """The enrollment page on a free port, its camera a folder of ``shots``."""
    from waitress.server import create_server

    from skullcam.web.server_thread import PagesThread

    camera = tmp_path / "camera"
    camera.mkdir()
    for i, shot in enumerate(shots):
        cv2.imwrite(str(camera / f"frame_{i:06d}.jpg"), shot)
    session = EnrollSession(
        Enrollment.open(tmp_path / "data", "browser-deck"),
        CameraFeed(ImageFolderSource(camera)),
        AdaptPlan(progress=False),
    )
    app = create_enroll_app(session, **app_options)
    pages = PagesThread(create_server(app, host="127.0.0.1", port=0, threads=4))
    pages.start()
    try:
        yield f"http://127.0.0.1:{pages.server.effective_port}/", session
    finally:
        pages.close(wait_s=5)


@pytest.fixture
def page(tmp_path: Path) -> Iterator[tuple[str, EnrollSession]]:
    rng = np.random.default_rng(1)
    shots = [
        render_photo([render_face("green-1", "alt")], rng, (640, 480))[0],
        render_photo([render_face("green-2", "alt")], rng, (640, 480), blur=0.04)[0],
        render_photo([render_face("green-2", "alt")], rng, (640, 480))[0],
    ]
    with _serve(tmp_path, shots) as served:
        yield served


def _text(driver: Any, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def _keys(driver: Any, *keys: str) -> None:
    """Real key presses, sent to whatever has the focus."""
    ActionChains(driver).send_keys(*keys).perform()


def _tab_to(driver: Any, found: Callable[[Any], bool], limit: int = 100, back: bool = False) -> Any:
    """Press Tab (Shift+Tab, ``back``) until the focused element is ``found``."""
    for _ in range(limit):
        if back:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(
                Keys.SHIFT
            ).perform()
        else:
            _keys(driver, Keys.TAB)
        focused = driver.switch_to.active_element
        if found(focused):
            return focused
    raise AssertionError("Tab never reached the element")


def _focused(driver: Any) -> Any:
    return driver.switch_to.active_element


def _found_and_another(session: Any) -> tuple[int, str, str]:
    """The captured trick's card count, its first card, and a face to correct that one to."""
    found = session.tricks.pending
    assert found is not None and len(found.detections) >= 2
    first = found.detections[0].card
    return len(found.detections), first, "kraken" if first != "kraken" else "loot"


def test_capture_accept_and_a_refused_blurred_shot_in_a_real_browser(
    browser: Any, page: tuple[str, EnrollSession]
) -> None:
    url, session = page
    wait = WebDriverWait(browser, 15)
    browser.get(url)
    wait.until(lambda d: "Green 1" in _text(d, "prompt"))
    assert _text(browser, "count") == "0 of 69 faces"

    browser.find_element(By.ID, "capture").click()
    wait.until(lambda d: "accept it?" in _text(d, "message"))
    wait.until(
        lambda d: d.execute_script("return document.getElementById('preview').naturalWidth") == 224
    )
    browser.find_element(By.ID, "accept").click()
    wait.until(lambda d: "Green 2" in _text(d, "prompt"))
    assert _text(browser, "count") == "1 of 69 faces"

    browser.find_element(By.ID, "capture").click()
    wait.until(lambda d: "retake" in _text(d, "message"))
    assert not browser.find_element(By.ID, "accept").is_displayed()
    browser.find_element(By.ID, "retake").click()
    wait.until(lambda d: not d.find_element(By.ID, "pending").is_displayed())

    browser.find_element(By.ID, "capture").click()
    wait.until(lambda d: "accept it?" in _text(d, "message"))
    browser.find_element(By.ID, "accept").click()
    wait.until(lambda d: "Green 3" in _text(d, "prompt"))
    assert sorted(session.enrollment.faces) == ["green-1", "green-2"]


def test_a_model_that_learned_too_little_is_run_again_longer_from_its_button(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page said to retake 12 photos where the command line says to run again with more
    scenes and epochs, and had no way to: now it says so, and its button runs that plan."""
    import skullcam.device.enroll_web as enroll_web
    from skullcam.vision.enroll import EnrollOutcome

    plans: list[AdaptPlan] = []

    def adapted(_: object, plan: AdaptPlan, **__: object) -> EnrollOutcome:
        plans.append(plan)
        return EnrollOutcome(tmp_path / "m", learned_too_little(), False, {})

    monkeypatch.setattr(enroll_web, "adapt_and_install", adapted)
    with _serve(tmp_path, [np.full((480, 640, 3), 90, np.uint8)]) as (url, session):
        for face in FACES:
            session.enrollment.accept(face, np.zeros((8, 8, 3), np.uint8))
        wait = WebDriverWait(browser, 15)
        browser.get(url + "?lang=es")
        wait.until(lambda d: d.find_element(By.ID, "adapt").is_displayed())
        longer = browser.find_element(By.ID, "adapt-longer")
        assert not longer.is_displayed()
        browser.find_element(By.ID, "adapt").click()
        wait.until(lambda d: "aprendió demasiado poco" in _text(d, "adapt-state"))
        assert "Repite las fotos" not in _text(browser, "adapt-state")
        # Adapt again with the same photos did nothing: it says, beside it, what would.
        browser.find_element(By.ID, "adapt").click()
        wait.until(lambda d: "pulsa «Volver a adaptar" in _text(d, "adapt-error"))
        assert _in_sight(browser, "adapt-error")
        assert longer.text == (
            "Volver a adaptar con un plan más largo (7200 escenas, 18 pasadas, sin límite de"
            " tiempo)"
        )
        longer.click()
        wait.until(lambda d: "14400 escenas" in d.find_element(By.ID, "adapt-longer").text)
    assert [(p.train_scenes, p.epochs, p.minutes) for p in plans] == [
        (3600, 12, 19.0),
        (7200, 18, None),
    ]


def _in_sight(driver: Any, element_id: str) -> bool:
    return bool(
        driver.execute_script(
            "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
            # A pixel's leeway: a box scrolled into view may end at a fraction past the edge.
            "return r.top >= -1 && r.bottom <= innerHeight + 1;",
            element_id,
        )
    )


def test_on_a_phone_a_shot_and_then_the_next_prompt_are_brought_into_sight(
    browser: Any, page: tuple[str, EnrollSession]
) -> None:
    """The shot's box is under the camera on a phone: its Accept was 130 px below the screen's
    edge after Capture, and after Accept the next face's prompt 100 px above its top."""
    url, _ = page
    browser.set_window_size(412, 915)
    wait = WebDriverWait(browser, 15)
    browser.get(url)
    wait.until(lambda d: "Green 1" in _text(d, "prompt"))
    browser.find_element(By.ID, "capture").click()
    wait.until(lambda d: "accept it?" in _text(d, "message"))
    assert _in_sight(browser, "message") and _in_sight(browser, "accept")
    browser.find_element(By.ID, "accept").click()
    wait.until(lambda d: "Green 2" in _text(d, "prompt"))
    assert _in_sight(browser, "prompt") and _in_sight(browser, "capture")


def test_a_phone_is_asked_for_the_pin_once_and_then_enrolls(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond the Pi the page asks for the table's PIN; a wrong one is said and asked again."""
    import skullcam.table_pin

    # The browser runs on this machine: let its requests count as a phone's on the Wi-Fi.
    monkeypatch.setattr(skullcam.table_pin, "from_this_machine", lambda *_: False)
    shot = render_photo([render_face("green-1", "alt")], np.random.default_rng(5), (640, 480))[0]
    with _serve(tmp_path, [shot], pin="4821", require_pin=True) as (url, session):
        from selenium.webdriver.support import expected_conditions as ec

        wait = WebDriverWait(browser, 15)
        browser.get(url)
        # Declined: not asked again by the page's own polling, only by the next tap.
        wait.until(ec.alert_is_present()).dismiss()
        time.sleep(3.5)  # two polls
        assert not ec.alert_is_present()(browser)
        browser.find_element(By.ID, "capture").click()
        alert = wait.until(ec.alert_is_present())
        assert alert.text.startswith("The table's PIN")
        alert.send_keys("1111")
        alert.accept()
        alert = wait.until(ec.alert_is_present())
        assert alert.text.startswith("wrong PIN\nThe table's PIN")
        alert.send_keys("4821")
        alert.accept()
        wait.until(lambda d: "Green 1" in _text(d, "prompt"))
        # The real-trick pickers get their faces once the PIN is in.
        wait.until(lambda d: len(Select(d.find_element(By.ID, "trick-add-face")).options) == 69)
        browser.find_element(By.ID, "capture").click()
        wait.until(lambda d: "accept it?" in _text(d, "message"))
        browser.find_element(By.ID, "accept").click()
        wait.until(lambda d: "Green 2" in _text(d, "prompt"))
        assert sorted(session.enrollment.faces) == ["green-1"]


SCENE = SAMPLE_SCENES / "images" / "test" / "test_000000.jpg"


def test_tap_a_found_card_pick_its_face_add_a_missed_one_and_save(
    browser: Any, tmp_path: Path
) -> None:
    with _serve(tmp_path, [imread(SCENE)]) as (url, session):
        browser.set_window_size(412, 915)  # a phone's screen
        wait = WebDriverWait(browser, 30)
        browser.get(url)
        wait.until(lambda d: _text(d, "trick-model"))
        browser.find_element(By.ID, "trick-capture").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#trick-boxes text"))
        n, first, other = _found_and_another(session)

        browser.find_elements(By.CSS_SELECTOR, "#trick-boxes text")[0].click()
        wait.until(lambda d: d.find_element(By.ID, "trick-picker").is_displayed())
        Select(browser.find_element(By.ID, "trick-pick")).select_by_value(other)
        wait.until(lambda d: not d.find_element(By.ID, "trick-picker").is_displayed())
        label = browser.find_elements(By.CSS_SELECTOR, "#trick-boxes text")[0].text
        assert label == f"{card_name(other)} (read {card_name(first)})"
        assert "changed" in browser.find_element(
            By.CSS_SELECTOR, "#trick-boxes polygon"
        ).get_attribute("class")

        Select(browser.find_element(By.ID, "trick-add-face")).select_by_value("white-whale")
        browser.find_element(By.ID, "trick-add").click()
        assert "White Whale" in _text(browser, "trick-missed")
        browser.find_element(By.ID, "trick-save").click()
        wait.until(lambda d: "real tricks" in _text(d, "trick-result"))
        assert _text(browser, "trick-result").startswith(
            f"On 1 photo of real tricks: {n - 1} of {n + 1} cards right; "
            f"{card_name(other)} read as {card_name(first)} once; 1 card not found (White Whale)"
        )
        assert not browser.find_element(By.ID, "trick-pending").is_displayed()
        folder = tmp_path / "data" / "enroll" / "browser-deck" / "tricks"
        assert sorted(p.name for p in folder.iterdir()) == ["001.jpg", "001.json"]


def test_the_page_in_spanish_fills_in_its_script_texts(
    browser: Any, page: tuple[str, EnrollSession]
) -> None:
    url, session = page
    wait = WebDriverWait(browser, 15)
    browser.get(url + "?lang=es")
    wait.until(lambda d: "Loro 1" in _text(d, "prompt"))
    assert _text(browser, "prompt") == "coloca la carta Loro 1 boca arriba dentro del encuadre"
    assert _text(browser, "count") == "0 de 69 cartas"
    assert _text(browser, "capture") == "Capturar"
    # What a screen reader says is Spanish too.
    assert browser.find_element(By.ID, "progress").accessible_name == "Cartas registradas"
    assert browser.find_element(By.ID, "trick-file").accessible_name == "Subir una foto"
    chip = browser.find_element(By.CSS_SELECTOR, '#faces [data-face="green-1"]')
    assert chip.accessible_name == "Loro 1: todavía no"

    browser.find_element(By.ID, "capture").click()
    wait.until(lambda d: "¿la aceptas?" in _text(d, "message"))
    assert _text(browser, "message") == "Encontrada y enderezada: ¿la aceptas?"
    browser.find_element(By.ID, "accept").click()
    wait.until(lambda d: "Loro 2" in _text(d, "prompt"))
    assert _text(browser, "count") == "1 de 69 cartas"
    assert chip.accessible_name == "Loro 1: registrada" and chip.text == "✓ Loro 1"

    browser.find_element(By.ID, "capture").click()  # the blurred shot: said in Spanish
    wait.until(lambda d: "repite la foto" in _text(d, "message"))
    assert _text(browser, "message").startswith("la carta está borrosa")
    assert sorted(session.enrollment.faces) == ["green-1"]


def test_a_refused_action_stays_said_after_the_page_polls(
    browser: Any, page: tuple[str, EnrollSession]
) -> None:
    """The reason was shown in the pending shot's box, which the next poll (every 1.5 s)
    hid again before it could be read."""
    from skullcam.errors import UserError

    url, session = page

    def refuse() -> None:
        raise UserError("no picture from the camera yet: wait a moment and capture again")

    session.capture = refuse  # type: ignore[method-assign]
    wait = WebDriverWait(browser, 15)
    browser.get(url)
    wait.until(lambda d: "Green 1" in _text(d, "prompt"))
    browser.find_element(By.ID, "capture").click()
    wait.until(lambda d: "no picture from the camera" in _text(d, "action-error"))
    time.sleep(3.5)  # two polls
    assert "no picture from the camera" in _text(browser, "action-error")


# ---------------------------------------------------------- keyboard and screen readers


def test_a_face_chip_is_a_named_button_the_keyboard_reaches_and_presses(
    browser: Any, page: tuple[str, EnrollSession]
) -> None:
    """Tab to a face's chip, press Enter: the page asks for that face. The chip says whether
    the face is in (a ✓ on screen, "enrolled" to a screen reader), and the page's polling
    keeps the focus on it."""
    url, _ = page
    wait = WebDriverWait(browser, 15)
    browser.get(url)
    wait.until(lambda d: "Green 1" in _text(d, "prompt"))
    browser.find_element(By.ID, "capture").click()
    wait.until(lambda d: "accept it?" in _text(d, "message"))
    browser.find_element(By.ID, "accept").click()
    wait.until(lambda d: "Green 2" in _text(d, "prompt"))

    def chip(face: str) -> Any:
        return browser.find_element(By.CSS_SELECTOR, f'#faces [data-face="{face}"]')

    wait.until(lambda d: chip("green-1").text.startswith("✓"))
    assert (chip("green-1").tag_name, chip("green-1").aria_role) == ("button", "button")
    assert chip("green-1").text == "✓ Green 1"
    assert chip("green-1").accessible_name == "Green 1: enrolled"
    assert chip("green-5").text == "Green 5"
    assert chip("green-5").accessible_name == "Green 5: not yet"

    browser.find_element(By.TAG_NAME, "h1").click()  # start from the top of the page
    focused = _tab_to(browser, lambda el: el.get_attribute("data-face") == "green-5")
    time.sleep(3.5)  # two polls: the chips are kept, and so is the focus
    assert _focused(browser) == focused
    _keys(browser, Keys.ENTER)
    wait.until(lambda d: "Green 5" in _text(d, "prompt"))
    assert _text(browser, "prompt") == "place the Green 5 face up in the frame"
    assert _focused(browser).get_attribute("data-face") == "green-5"


def test_the_live_regions_are_written_only_when_their_text_changes(
    browser: Any, page: tuple[str, EnrollSession]
) -> None:
    """A screen reader reads a live region again on every write: the page polls every 1.5 s,
    so an unchanged prompt is left alone, and a new one is written once."""
    url, _ = page
    wait = WebDriverWait(browser, 15)
    browser.get(url)
    wait.until(lambda d: "Green 1" in _text(d, "prompt"))
    prompt = browser.find_element(By.ID, "prompt")
    assert prompt.get_attribute("aria-live") == "polite"
    for status in ("message", "adapt-state", "trick-found", "trick-result"):  # some hidden now
        assert browser.find_element(By.ID, status).get_attribute("role") == "status", status
    progress = browser.find_element(By.ID, "progress")
    assert (progress.aria_role, progress.accessible_name) == ("progressbar", "Faces enrolled")
    assert browser.find_element(By.ID, "adapt-progress").get_attribute("aria-label") == (
        "Progress of this step"
    )
    browser.execute_script(
        """
        window.writes = {};
        for (const id of ["prompt", "count", "message", "adapt-state", "trick-result"]) {
          window.writes[id] = 0;
          new MutationObserver((changes) => { window.writes[id] += changes.length; })
            .observe(document.getElementById(id),
                     {childList: true, characterData: true, subtree: true});
        }"""
    )
    time.sleep(3.5)  # two polls, nothing new
    assert browser.execute_script("return window.writes") == {
        "prompt": 0,
        "count": 0,
        "message": 0,
        "adapt-state": 0,
        "trick-result": 0,
    }
    browser.find_element(By.ID, "capture").click()
    wait.until(lambda d: "accept it?" in _text(d, "message"))
    browser.find_element(By.ID, "accept").click()
    wait.until(lambda d: "Green 2" in _text(d, "prompt"))
    time.sleep(3.5)
    writes = browser.execute_script("return window.writes")
    assert (writes["prompt"], writes["count"]) == (1, 1)


def test_a_trick_is_corrected_from_the_keyboard_alone(browser: Any, tmp_path: Path) -> None:
    """The upload is a focusable file input, the found cards a list of buttons mirroring the
    boxes on the photo: Enter on one opens its picker, typing picks a face, Enter closes it
    and the focus comes back; a missed card is added and removed with Enter too."""
    with _serve(tmp_path, [imread(SCENE)]) as (url, session):
        wait = WebDriverWait(browser, 30)
        browser.get(url)
        wait.until(lambda d: _text(d, "trick-model"))
        upload = browser.find_element(By.ID, "trick-file")
        assert upload.get_attribute("hidden") is None
        assert upload.value_of_css_property("display") != "none"
        assert upload.accessible_name == "Upload a photo"
        trick_capture = browser.find_element(By.ID, "trick-capture")
        trick_capture.send_keys(Keys.ENTER)  # focus it, then press Enter
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#trick-cards button"))
        n, first, other = _found_and_another(session)
        cards = browser.find_elements(By.CSS_SELECTOR, "#trick-cards button")
        assert len(cards) == n == len(browser.find_elements(By.CSS_SELECTOR, "#trick-boxes text"))
        assert cards[0].accessible_name == f"Card 1: {card_name(first)}"

        # From the photo button the keyboard goes to the upload, then to the first card.
        assert _focused(browser).get_attribute("id") == "trick-capture"
        _keys(browser, Keys.TAB)
        assert _focused(browser).get_attribute("id") == "trick-file"
        card = _tab_to(browser, lambda el: el.get_attribute("data-index") == "0")
        _keys(browser, Keys.ENTER)
        wait.until(lambda d: d.find_element(By.ID, "trick-picker").is_displayed())
        assert _focused(browser).get_attribute("id") == "trick-pick"
        assert _focused(browser).accessible_name.startswith("Card 1 (read as")
        _keys(browser, card_name(other))  # a closed select picks by typing its name
        time.sleep(0.3)
        assert browser.find_element(By.ID, "trick-picker").is_displayed()  # not on a key
        _keys(browser, Keys.ENTER)
        wait.until(lambda d: not d.find_element(By.ID, "trick-picker").is_displayed())
        card = _focused(browser)
        assert card.get_attribute("data-index") == "0"
        assert card.accessible_name == (f"Card 1: {card_name(other)} (read {card_name(first)})")

        add = _tab_to(browser, lambda el: el.get_attribute("id") == "trick-add-face")
        assert add.accessible_name == "Add a card it missed"
        _keys(browser, "White Whale", Keys.TAB, Keys.ENTER)  # pick it, then the Add button
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#trick-missed button"))
        _tab_to(browser, lambda el: el.get_attribute("id") == "trick-add-face", back=True)
        _keys(browser, "Mermaid", Keys.TAB, Keys.ENTER)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#trick-missed button")) == 2)
        chips = browser.find_elements(By.CSS_SELECTOR, "#trick-missed button")
        assert [c.accessible_name for c in chips] == [
            "Remove missed card White Whale",
            "Remove missed card Mermaid Alyra",
        ]
        _tab_to(browser, lambda el: el == chips[1], back=True)
        _keys(browser, Keys.ENTER)  # removed: the focus goes to the chip left
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#trick-missed button")) == 1)
        assert _focused(browser).accessible_name == "Remove missed card White Whale"
        save = _tab_to(browser, lambda el: el.get_attribute("id") == "trick-save")
        save.send_keys(Keys.ENTER)
        wait.until(lambda d: "real tricks" in _text(d, "trick-result"))
        assert _text(browser, "trick-result").startswith(
            f"On 1 photo of real tricks: {n - 1} of {n + 1} cards right; "
            f"{card_name(other)} read as {card_name(first)} once; 1 card not found (White Whale)"
        )
