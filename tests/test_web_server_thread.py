"""The web server stopped for good: no worker thread nor page stream outlives it."""

from __future__ import annotations

import logging
import socket
import threading
from pathlib import Path

import pytest

from skullcam.web import create_app, make_server
from skullcam.web.events import end_event_feed
from skullcam.web.server_thread import PagesThread


def _workers() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("waitress-")}


def test_a_closed_server_ends_its_workers_and_its_open_pages_streams(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """waitress's close() stopped the listening alone: its workers waited on for work, and a
    page left open kept its event stream (and a worker) polling the store. Served again and
    again in one process (the test suite), 1,900 threads piled up and a page waited more than
    30 s for its answer. The stream's worker, ending as its page's connection closes, wakes
    the server's loop: with the loop's wake-up pipe closed first, that was a traceback
    ("Exception when servicing ... Bad file descriptor") on the terminal at a Ctrl-C."""
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
        with caplog.at_level(logging.ERROR, logger="waitress"):
            pages.close()
        assert not _workers() - before
        assert app.extensions["skullcam_streams"].open == 0
        assert not pages.thread.is_alive()
        assert end_event_feed(app, 0.0)  # the store can be closed: no watcher reads it
    assert "Exception when servicing" not in caplog.text


def test_the_server_answers_in_a_process_with_a_thousand_files_open(tmp_path: Path) -> None:
    """waitress's loop watched its sockets with select(), which cannot take a file number of
    1024 or more: in a process holding that many (the full test suite, late), the loop
    thread died on its first socket ("filedescriptor out of range in select()") and no page
    was answered again; the browser tests' pages timed out in every full run."""
    import os
    import resource
    import urllib.request

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"this machine allows {hard} open files: too few to open 1,100")
    if soft != resource.RLIM_INFINITY and soft < 1200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1200, hard))
    held: list[int] = []
    try:
        while not held or held[-1] < 1100:
            held.append(os.open(os.devnull, os.O_RDONLY))
        pages = PagesThread(make_server(create_app(tmp_path), "127.0.0.1", 0, threads=2))
        pages.start()
        try:
            url = f"http://127.0.0.1:{pages.server.effective_port}/api/games"
            with urllib.request.urlopen(url, timeout=20) as answer:
                assert answer.status == 200
            assert pages.thread.is_alive()
        finally:
            pages.close()
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_request_that_ends_as_the_server_stops_leaves_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A worker that ends its request wakes waitress's loop through a pipe, which waitress's
    own close() shut first: a page answered just as the server stopped (a Ctrl-C with pages
    open) printed "Exception when servicing ... Bad file descriptor" with its traceback. The
    request here ends the moment the pipe is closed, the worst moment it can."""
    app = create_app(tmp_path)
    entered, released, said = threading.Event(), threading.Event(), threading.Event()

    def slow() -> str:
        entered.set()
        released.wait(1.0)
        return "done"

    app.add_url_rule("/slow", "slow", slow)

    class Said(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "Exception when servicing" in record.getMessage():
                said.set()

    pages = PagesThread(make_server(app, "127.0.0.1", 0, threads=2))
    trigger = pages.server.trigger
    shut = trigger.close

    def close_then_end_the_request() -> None:
        shut()
        released.set()
        said.wait(1.0)  # the worker, if it pulls the closed pipe, has said so by now

    trigger.close = close_then_end_the_request
    watcher = Said()
    logging.getLogger("waitress").addHandler(watcher)
    pages.start()
    port = pages.server.effective_port
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as page:
            page.sendall(f"GET /slow HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            assert entered.wait(10)
            with caplog.at_level(logging.ERROR, logger="waitress"):
                pages.close()
    finally:
        logging.getLogger("waitress").removeHandler(watcher)
        released.set()
    assert not said.is_set(), caplog.text
