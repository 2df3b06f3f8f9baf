"""Fixtures shared by several test modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


def pytest_report_header() -> str:
    """Say which training stack the run has: scripts/install.sh picks it by free disk."""
    from importlib.metadata import PackageNotFoundError, version

    def installed(name: str) -> str:
        try:
            return f"{name} {version(name)}"
        except PackageNotFoundError:
            return f"no {name}"

    return "training stack: " + ", ".join(installed(n) for n in ("torch", "ultralytics"))


@pytest.fixture
def browser() -> Iterator[Any]:
    """A headless chromium (see ``browser_support``); quit after the test."""
    from browser_support import require_browser, start_chromium

    require_browser()
    driver = start_chromium()
    yield driver
    driver.quit()
