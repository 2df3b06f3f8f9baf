"""Fixtures shared by several test modules."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient

    from skullcam.store import GameStore


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to test another checkout's code. The editable install maps ``skullcam.rules``,
    ``skullcam.vision``, ... to the folders of the checkout that made the ``.venv``; a second
    clone run with that venv would test the first clone and pass whatever it changed."""
    import skullcam.rules

    root = Path(__file__).resolve().parents[1]
    tested = Path(skullcam.rules.__file__).resolve().parents[1]
    if tested != root:
        raise pytest.UsageError(
            f"these tests are in {root}, but the installed skullcam is the checkout in {tested}: "
            f"give this checkout its own environment (cd {root} && ./scripts/test.sh; "
            "SKULLCAM_TRAIN_STACK=cpu ./scripts/install.sh dev makes a 1.4 GB one)"
        )


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
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A headless chromium (see ``browser_support``); quit after the test."""
    from browser_support import require_browser, start_chromium

    require_browser()
    driver = start_chromium(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


@pytest.fixture(autouse=True)
def _stores_closed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Close every store a test opened as the test ends. An app or a live loop holds its
    store in a reference cycle, so its connections (two open files each) stayed open until
    a garbage collection happened to reach them: late in the suite the process held over
    1,024 open files."""
    from skullcam.store.database import Database

    opened: list[Database] = []
    init = Database.__init__

    def noted(self: Database, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(Database, "__init__", noted)
    yield
    for database in opened:
        database.close()


# ------------------------------------------------------- the table app (web tests)
@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """The table app on a fresh data folder; event streams end quickly so tests do not hang."""
    from skullcam.web import create_app

    return create_app(tmp_path / "data", test_config={"SSE_MAX_SECONDS": 0.3, "TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def store(app: Flask) -> GameStore:
    """The app's own store (store tests define their own ``store`` without an app)."""
    from skullcam.web import get_store

    return get_store(app)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, GameStore]]:
    """The table app served for real on a free port (browser tests): its URL and store."""
    from skullcam.web import get_store

    with _served_app(tmp_path) as (base, app):
        yield base, get_store(app)


@pytest.fixture
def app_server(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    """The same, with the app itself: for a test that slows one of its answers."""
    with _served_app(tmp_path) as served:
        yield served


@contextmanager
def _served_app(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    from skullcam.web import create_app, make_server
    from skullcam.web.server_thread import PagesThread

    app = create_app(tmp_path / "data")
    pages = PagesThread(make_server(app, "127.0.0.1", 0, threads=16))
    pages.start()
    try:
        yield f"http://127.0.0.1:{pages.server.effective_port}", app
    finally:
        pages.close(wait_s=5)
