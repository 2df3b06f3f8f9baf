"""The web server stopped for good: no worker thread nor page stream outlives it."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

from skullcam.web import create_app, make_server
from skullcam.web.server_thread import PagesThread


def _workers() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("waitress-")}


def test_a_closed_server_ends_its_workers_and_its_open_pages_streams(tmp_path: Path) -> None:
    """waitress's close() stopped the listening alone: its workers waited on for work, and a
    page left open kept its event stream (and a worker) polling the store. Served again and
    again in one process (the test suite), 1,900 threads piled up and a page waited more than
    30 s for its answer."""
    before = _workers()
    app = create_app(tmp_path, test_config={"SSE_KEEPALIVE_SECONDS": 60})
    pages = PagesThread(make_server(app, "127.0.0.1", 0, threads=6))
    pages.start()
    port = pages.server.effective_port
    with socket.create_connection(("127.0.0.1", port), timeout=10) as page:
        page.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert page.recv(64).startswith(b"HTTP/1.1 200")  # a stream holds a worker
        assert app.extensions["skullcam_streams"].open == 1
        assert len(_workers() - before) == 6
        pages.close()
        assert not _workers() - before
        assert app.extensions["skullcam_streams"].open == 0
        assert not pages.thread.is_alive()
