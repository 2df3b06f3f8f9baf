"""Headless Debian chromium for the browser tests: one setup shared by every browser test.

A module that drives a browser calls :func:`require_browser` before it imports selenium's
helpers, so a machine without selenium or chromium skips it with the reason (and the fix)
instead of failing to import; the ``browser`` fixture of ``conftest.py`` starts the browser.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu")
MOUSE = (
    "--blink-settings=primaryPointerType=4,availablePointerTypes=4,"
    "primaryHoverType=2,availableHoverTypes=2"
)
"""A desktop's mouse (``pointer: fine``, ``hover: hover``): headless chromium has no pointer at
all (``hover: none``, as a phone), and emulation does not give it one."""


def require_browser() -> None:
    """Skip the calling test module when selenium or chromium/chromedriver is missing."""
    pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    if not (Path(CHROMEDRIVER).exists() and Path(CHROMIUM).exists()):
        pytest.skip(
            "chromium/chromedriver missing: apt-get install chromium chromium-driver",
            allow_module_level=True,
        )


def start_chromium(scratch: Path, lang: str = "en-US", *flags: str) -> Any:
    """A headless chromium driven by chromedriver (the test is skipped if it cannot start),
    ``flags`` added to the usual ones (:data:`MOUSE`).

    Chromium leaves a folder for its profile lock in ``$TMPDIR`` each time chromedriver stops
    it (3,000 of them in ``/tmp`` after a few dozen runs of the suite), so it gets ``scratch``,
    a pytest temporary folder, as its ``TMPDIR``: pytest clears those away. A short one
    (``tmp_path_factory.mktemp("chromium")``): chromium puts its profile's socket in a folder
    of ``$TMPDIR`` and exits at once when that path is over 107 bytes, the limit of a Unix
    socket's address (a test's own ``tmp_path`` is too long for some test names).
    """
    if len(str(scratch)) > 60:
        raise ValueError(
            f"chromium's TMPDIR {scratch} is too long for its profile's socket: "
            'give it tmp_path_factory.mktemp("chromium")'
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in (*FLAGS, *flags):
        options.add_argument(arg)
    options.add_argument(f"--lang={lang}")
    try:
        service = Service(CHROMEDRIVER, env={**os.environ, "TMPDIR": str(scratch)})
        driver = _patient(webdriver.Chrome)(service=service, options=options)
    except Exception as err:  # pragma: no cover - depends on the machine
        pytest.skip(f"chromium did not start: {str(err).splitlines()[0]}")
    driver.set_page_load_timeout(PAGE_LOAD_S)
    return driver


PAGE_LOAD_S = 30


def _patient(chrome: type) -> type:
    """``chrome`` whose ``get`` asks once more when a page does not load in
    :data:`PAGE_LOAD_S`, then fails saying whether the server answered that page itself
    (``get_once``: the plain load, for a test that a page must not hang).

    chromedriver says "Timed out receiving message from renderer" both for a page stuck in the
    browser and for a server that never answers: the second is what the full suite hit when
    waitress's loop thread died on a socket numbered over 1024 (``web.app.make_server``), and
    the reason says which it is. One more try spares a slow 2-core machine's first load."""
    from selenium.common.exceptions import TimeoutException

    class PatientChrome(chrome):
        def get_once(self, url: str) -> None:
            super().get(url)

        def get(self, url: str) -> None:
            try:
                super().get(url)
            except TimeoutException:
                try:
                    super().get(url)
                except TimeoutException as err:
                    first = (err.msg or "").splitlines()[0]
                    pytest.fail(
                        f"chromium did not load {url} twice in {PAGE_LOAD_S} s ({first}); "
                        f"the server itself answered it {_answered_in(url)}"
                    )

    return PatientChrome


def _answered_in(url: str) -> str:
    """How long the server takes to answer ``url`` without a browser: tells a stalled server
    from a stalled renderer in a failed test's reason."""
    import time
    import urllib.request

    began = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            answer.read()
    except OSError as err:
        return f"not in {time.monotonic() - began:.1f} s ({err})"
    return f"in {time.monotonic() - began:.2f} s"


def stream_open(driver: Any) -> bool:
    """A wait condition: the page's live event stream is connected, so a change the test makes
    in the store from now on reaches the page."""
    return bool(driver.execute_script("return !!window.SK_STREAM && SK_STREAM.readyState === 1"))
