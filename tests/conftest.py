"""Fixtures shared by several test modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def browser() -> Iterator[Any]:
    """A headless chromium (see ``browser_support``); quit after the test."""
    from browser_support import require_browser, start_chromium

    require_browser()
    driver = start_chromium()
    yield driver
    driver.quit()
