"""The camera enrollment page in headless chromium, served by waitress, file-backed camera."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from browser_support import require_browser
from image_support import imread
from repo_paths import SAMPLE_SCENES

from skullcam.datasets.deck import render_face
from skullcam.device.enroll_web import CameraFeed, EnrollSession, create_enroll_app
from skullcam.device.sources import ImageFolderSource
from skullcam.vision.adapt import AdaptPlan
from skullcam.vision.enroll import Enrollment
from skullcam.vision.enroll_check import card_name
from skullcam.vision.enroll_synth import render_photo

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


@contextmanager
def _serve(
    tmp_path: Path, shots: list[np.ndarray], **app_options: Any
) -> Iterator[tuple[str, EnrollSession]]:
    """The enrollment page on a free port, its camera a folder of ``shots``."""
    from waitress.server import create_server

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
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        # types-waitress leaves out effective_port, which waitress sets on each server it makes.
        port = server.effective_port  # type: ignore[union-attr]
        yield f"http://127.0.0.1:{port}/", session
    finally:
        server.close()
        thread.join(timeout=5)


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
        found = session.tricks.pending
        assert found is not None and len(found.detections) >= 2
        n = len(found.detections)
        first = found.detections[0].card
        other = "kraken" if first != "kraken" else "loot"

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

    browser.find_element(By.ID, "capture").click()
    wait.until(lambda d: "¿la aceptas?" in _text(d, "message"))
    assert _text(browser, "message") == "Encontrada y enderezada: ¿la aceptas?"
    browser.find_element(By.ID, "accept").click()
    wait.until(lambda d: "Loro 2" in _text(d, "prompt"))
    assert _text(browser, "count") == "1 de 69 cartas"

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
