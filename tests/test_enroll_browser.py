"""The camera enrollment page in headless chromium, served by waitress, file-backed camera."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from skullcam.datasets.deck import render_face
from skullcam.device.enroll_web import CameraFeed, EnrollSession, create_enroll_app
from skullcam.device.sources import ImageFolderSource
from skullcam.vision.adapt import AdaptPlan
from skullcam.vision.enroll import Enrollment
from skullcam.vision.enroll_synth import render_photo

CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
if not (Path(CHROMEDRIVER).exists() and Path(CHROMIUM).exists()):
    pytest.skip(
        "chromium/chromedriver missing: apt-get install chromium chromium-driver",
        allow_module_level=True,
    )

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except Exception as err:  # pragma: no cover - depends on the machine
        pytest.skip(f"chromium did not start: {str(err).splitlines()[0]}")
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def page(tmp_path: Path) -> Iterator[tuple[str, EnrollSession]]:
    from waitress.server import create_server

    rng = np.random.default_rng(1)
    shots = [
        render_photo([render_face("green-1", "alt")], rng, (640, 480))[0],
        render_photo([render_face("green-2", "alt")], rng, (640, 480), blur=0.04)[0],
        render_photo([render_face("green-2", "alt")], rng, (640, 480))[0],
    ]
    camera = tmp_path / "camera"
    camera.mkdir()
    for i, shot in enumerate(shots):
        cv2.imwrite(str(camera / f"frame_{i:06d}.jpg"), shot)
    session = EnrollSession(
        Enrollment.open(tmp_path / "data", "browser-deck"),
        CameraFeed(ImageFolderSource(camera)),
        AdaptPlan(progress=False),
    )
    server = create_server(create_enroll_app(session), host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}/", session
    server.close()
    thread.join(timeout=5)


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
