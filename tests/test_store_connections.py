"""A store's connections and the threads that use them."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from skullcam.store import GameStore


def test_closing_a_store_leaves_a_running_threads_connection_to_that_thread(
    tmp_path: Path,
) -> None:
    """The web's event watcher reads the store on a thread of its own, which ends on its own
    once the last page closes; ``skullcam run`` (and each test) closes the store as it ends.
    Closed from the main thread while the watcher was reading with it, the connection
    crashed the process inside SQLite (a segmentation fault, seen in a test run). ``close``
    leaves a running thread's connection to that thread; an idle one it closes."""
    store = GameStore(tmp_path / "data")
    opened, closed = threading.Event(), threading.Event()
    seen: list[object] = []

    def watcher() -> None:
        conn = store._conn()  # this thread's, as the watcher's first read opens it
        opened.set()
        closed.wait(10)
        try:
            seen.append(tuple(conn.execute("SELECT 1").fetchone()))
        except sqlite3.Error as err:
            seen.append(err)
        seen.append(store.last_event_id())  # and the store goes on answering this thread

    thread = threading.Thread(target=watcher)
    thread.start()
    assert opened.wait(10)
    idle = store._conn()  # the main thread's own
    store.close()
    closed.set()
    thread.join(10)
    assert seen == [(1,), 0]
    try:
        idle.execute("SELECT 1")
    except sqlite3.ProgrammingError:
        pass  # closed, as it should be
    else:
        raise AssertionError("the closing thread's own connection was left open")
