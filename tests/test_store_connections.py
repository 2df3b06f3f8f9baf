"""A store's connections and the threads that use them."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
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


class _LockThen:
    """A lock that runs ``then`` once, just after ``thread`` first releases it: the moment
    another thread's :meth:`GameStore.close` may take it."""

    def __init__(self, thread_name: str, then: Callable[[], None]) -> None:
        self._lock = threading.Lock()
        self.thread_name = thread_name
        self.then: Callable[[], None] | None = then

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(self, *_exc: object) -> None:
        self._lock.release()
        then, self.then = self.then, None
        if then is not None and threading.current_thread().name == self.thread_name:
            then()
        else:
            self.then = then


def test_a_connection_taken_from_the_idle_ones_is_never_closed_under_its_new_thread(
    tmp_path: Path,
) -> None:
    """A thread took a connection another had handed back and only then noted it as its
    own: a store closed in between took it for an idle one and closed it, and the thread's
    first read failed ('Cannot operate on a closed database'), as a web request answered
    while ``skullcam run`` ends could."""
    store = GameStore(tmp_path / "data")
    store._conn()
    store.release_thread_connection()  # the main thread's, now idle

    def close_elsewhere() -> None:
        closing = threading.Thread(target=store.close)
        closing.start()
        closing.join(10)

    store._connections_lock = _LockThen("request", close_elsewhere)  # type: ignore[assignment]
    seen: list[object] = []

    def request() -> None:
        try:
            seen.append(tuple(store._conn().execute("SELECT 1").fetchone()))
        except sqlite3.Error as err:
            seen.append(err)
        store.close_thread_connection()

    thread = threading.Thread(target=request, name="request")
    thread.start()
    thread.join(10)
    assert seen == [(1,)]
