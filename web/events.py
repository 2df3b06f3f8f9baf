"""Server-sent events: every change in the store, pushed to every open page.

The stream tails the store's ``events`` table, so the event id *is* the table's id: a page
that reconnects sends ``Last-Event-ID`` (browsers do this by themselves) and receives exactly
what it missed, then carries on. Pages never poll: each event either carries what changed (the
live trick) or prompts one fetch of ``/api/game/<id>/state``.

Each open stream holds one waitress worker thread (WSGI streams a response from a thread),
but none of them reads the store while it waits: one watcher thread, :class:`EventFeed`, reads
each new event once, when the store signals a write (at once for writes in this process,
within ``SSE_WAIT_SECONDS`` for another process's), keeps the last :data:`FEED_KEEP` in memory
and wakes every open stream, which takes its page's events from there. Each stream polled the
store itself, 12 SQL statements a second idle and about 20 with live events: 40 open pages ran
nearly 800 a second beside the camera (``benchmarks/bench_sse_streams.py``). Only a page
reconnecting with an id older than the feed's memory reads the store, to catch up.

A comment line every ``SSE_KEEPALIVE_SECONDS`` keeps proxies from closing the connection and
lets waitress notice a page that has gone away, which frees the thread.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request
from werkzeug.exceptions import ServiceUnavailable

from skullcam.errors import NotFoundError, UserError
from skullcam.store import Event, GameStore

from .app import ID_MAX, StreamCount, get_store, parse_id

logger = logging.getLogger(__name__)

bp = Blueprint("events", __name__)

BATCH = 200
FEED_KEEP = 1000
"""Events the feed keeps in memory: a page that reconnects within them (a phone woken, the
stream renewed every ``SSE_MAX_SECONDS``) is caught up without reading the store."""


class EventFeed:
    """The store's new events, read once by one thread and handed to every open stream.

    The thread runs while a stream is open (:meth:`subscribe`, :meth:`unsubscribe`) and
    closes its connection when the last one closes, so an app with no page open reads
    nothing. ``floor``: the feed holds every event after it up to ``last``. ``restarts``
    counts the times the store's events started over below ``last`` (:meth:`_start_over`).
    """

    def __init__(self, store: GameStore, wait_s: float) -> None:
        self.store = store
        self.wait_s = wait_s
        self.changed = threading.Condition()
        self.recent: deque[Event] = deque()
        self.floor = self.last = 0
        self.restarts = 0
        self.streams = 0
        self.thread: threading.Thread | None = None
        self._watchers: list[threading.Thread] = []
        """Every watcher thread started, until :meth:`join` sees it ended."""

    def subscribe(self) -> None:
        """One more open stream; the first starts the watcher, from the newest event."""
        newest = self.store.last_event_id()
        with self.changed:
            self.streams += 1
            if self.thread is None:
                self.recent.clear()
                self.floor = self.last = newest
                self.thread = threading.Thread(target=self._watch, name="events", daemon=True)
                self._watchers = [t for t in self._watchers if t.is_alive()] + [self.thread]
                self.thread.start()

    def unsubscribe(self) -> None:
        with self.changed:
            self.streams -= 1
            self.changed.notify_all()

    def since(self, after: int, game_id: int | None) -> tuple[list[Event], int] | None:
        """A page's events after ``after`` (its game's and game-less ones; every one without
        ``game_id``) and the id it has now seen up to; None when the feed no longer holds
        them all (the page reads the store)."""
        with self.changed:
            if after < self.floor:
                return None
            events = [
                e
                for e in self.recent
                if e.id > after and (game_id is None or e.game_id in (game_id, None))
            ]
            return events, max(after, self.last)

    def wait(self, after: int, timeout: float, restarts: int | None = None) -> None:
        """Until the feed has an event after ``after``, has started over since ``restarts``,
        or ``timeout`` seconds."""
        with self.changed:
            if self.last <= after and restarts in (None, self.restarts):
                self.changed.wait(timeout)

    def _watch(self) -> None:
        faulted = False
        fresh = True
        try:
            while True:
                try:
                    if not self._read_new(fresh):
                        return
                    fresh = True  # a wait that fails: the events are read after it
                    fresh = self.store.wait_for_event(self.last, self.wait_s)
                    faulted = False
                except (sqlite3.Error, UserError) as err:
                    self._store_failed(err)
                except Exception:
                    # Every open page gets its events from this thread: a fault nobody
                    # foresaw must not leave them waiting until a restart, nor fill the log
                    # once a wait while it lasts.
                    if not faulted:
                        logger.exception("the event feed failed; it reads the store again")
                    faulted = True
                    time.sleep(self.wait_s)
        finally:
            self.store.close_thread_connection()

    def _read_new(self, fresh: bool = True) -> bool:
        """Take the store's events after :attr:`last` into memory and wake the streams;
        False once no stream is open (the thread ends). Not ``fresh`` (a wait found no newer
        event), it reads the newest id instead, as many statements, to notice events that
        started over (:meth:`_start_over_if_behind`)."""
        last = self.last
        events: list[Event] = []
        if not fresh:
            self._start_over_if_behind()
            last = self.last
        else:
            try:
                events = self.store.events_since(last, None, limit=BATCH)
            except UserError:  # a damaged event: the ones after it still reach the pages
                events, last = self._read_around_damage(last)
            except sqlite3.Error as err:
                # The pause here, not in the wait: an event newer than :attr:`last` (the one
                # that failed, or this process's next) ends that at once, and a failing store
                # was read as fast as a core allowed while a page was open.
                self._store_failed(err)
        with self.changed:
            if self.streams <= 0:
                self.thread = None
                return False
            if events:
                self.recent.extend(events)
                while len(self.recent) > FEED_KEEP:
                    self.floor = self.recent.popleft().id
            # Past the last event read, or a damaged one skipped after it.
            last = max([last, *(e.id for e in events)])
            if last > self.last:
                self.last = last
                self.changed.notify_all()
        return True

    def _start_over_if_behind(self) -> None:
        """:meth:`_start_over` where the store's newest event is below :attr:`last`."""
        try:
            newest = self.store.last_event_id()
        except (sqlite3.Error, UserError) as err:
            self._store_failed(err)
            return
        if newest < self.last:
            self._start_over(newest)

    def _start_over(self, newest: int) -> None:
        """The store's events end at ``newest``, below the feed's :attr:`last`: its database
        was restored or replaced while pages were open. The feed kept waiting for an id past
        the old database's newest, and no open page heard of a change until a restart. It
        forgets what it holds and follows the store from ``newest``; every open stream ends
        (:attr:`restarts`), and its page, reconnecting, starts from now and reads the state
        again."""
        logger.warning(
            "the database's events start over at %d, below %d (it was replaced while skullcam "
            "ran): the open pages follow it from now",
            newest,
            self.last,
        )
        self.store.events_start_over(newest)
        with self.changed:
            self.recent.clear()
            self.floor = self.last = newest
            self.restarts += 1
            self.changed.notify_all()

    def _read_around_damage(self, last: int) -> tuple[list[Event], int]:
        """The events after ``last`` read one by one, those that cannot be decoded (a
        failing disk's damage) skipped with a warning, and the id read up to: the feed reads
        every game's events, and stopping at one damaged event would stop every page of every
        game. A page gets no message for a skipped event; its next one makes it fetch the
        state."""
        events: list[Event] = []
        for _ in range(BATCH):
            try:
                one = self.store.events_since(last, None, limit=1)
            except UserError as err:
                damaged = self._undecodable_after(last)
                if damaged is None:
                    break
                logger.warning("skipping event %s, which cannot be read: %s", damaged, err)
                last = damaged
                continue
            except sqlite3.Error as err:
                self._store_failed(err)
                break
            if not one:
                break
            events += one
            last = one[-1].id
        return events, last

    def _undecodable_after(self, last: int) -> int | None:
        """The id of the event after ``last`` where the store reads but cannot decode it;
        None where there is no event after it, or where the store itself failed (a database
        it could not open for a moment is a UserError too), then after a wait: taken for
        damage, such a failure would end the watcher, or skip a whole event."""
        try:
            after = self.store.next_event_id(last)
            if after is None:
                return None
        except (sqlite3.Error, UserError) as err:
            self._store_failed(err)
            return None
        try:
            self.store.events_since(last, None, limit=1)  # whole, now that the store reads
        except UserError:
            return after
        except sqlite3.Error as err:
            self._store_failed(err)
        return None

    def _store_failed(self, err: Exception) -> None:
        """A read of the store failed (busy, or failing): the pages wait a while."""
        logger.debug("the event feed could not read the store: %s", err)
        time.sleep(self.wait_s)

    def join(self, timeout: float) -> bool:
        """Wait for the watcher to end once no stream is open (it notices within one wait,
        ``SSE_WAIT_SECONDS``), its connection closed by itself: the store can then be closed
        with no thread of the web reading from it. True when none runs."""
        deadline = time.monotonic() + timeout
        with self.changed:
            watchers = list(self._watchers)
        for watcher in watchers:
            watcher.join(max(0.0, deadline - time.monotonic()))
        return not any(watcher.is_alive() for watcher in watchers)


def end_event_feed(app: Flask, timeout: float) -> bool:
    """:meth:`EventFeed.join` for ``app``'s feed (True at once when no page ever opened
    one)."""
    feed: EventFeed | None = getattr(app, "extensions", {}).get("skullcam_feed")
    return feed is None or feed.join(timeout)


_FEED_LOCK = threading.Lock()


def feed_of(app: Flask) -> EventFeed:
    """The app's :class:`EventFeed`, made on the first stream."""
    with _FEED_LOCK:
        feed: EventFeed | None = app.extensions.get("skullcam_feed")
        if feed is None:
            feed = EventFeed(get_store(app), float(app.config["SSE_WAIT_SECONDS"]))
            app.extensions["skullcam_feed"] = feed
        return feed


class TooManyPages(ServiceUnavailable):
    """A stream refused while ``SSE_MAX_STREAMS`` are open (503): the page tries again. Its
    ``text_key`` words it in the reader's language (``app._http_error``)."""

    description = "too many pages are following the game; this page tries again in a few seconds"
    text_key = "error_too_many_pages"


def format_event(event_id: int, kind: str, payload: Any) -> str:
    """One SSE message; ``data`` is a single JSON line."""
    data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    return f"id: {event_id}\nevent: {kind}\ndata: {data}\n\n"


def _start_id() -> int | None:
    """The id a reconnecting page last saw (``Last-Event-ID``, or ``?last_event_id=``)."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None or raw == "":
        return None
    return parse_id(raw, "Last-Event-ID")


@bp.get("/events")
def stream() -> Response:
    """``/events?game=<id>``: that game's events (plus game-less ones); without ``game``,
    every event (the TV, which follows whichever game is active).

    A ``Last-Event-ID`` above the newest event cannot have come from this database (it was
    reset or replaced while a TV stayed open): the stream starts from now, as without one,
    instead of waiting for ids that may never come.
    """
    store = get_store()
    game_raw = request.args.get("game")
    game_id: int | None = None
    if game_raw:
        game_id = parse_id(game_raw, "game")
        if game_id > ID_MAX:
            raise NotFoundError(f"no game {game_raw.strip()}; see the games list")
        store.game(game_id)
    start = _start_id()
    newest = store.last_event_id()
    last = newest if start is None or start > newest else start
    config = current_app.config
    wait = float(config["SSE_WAIT_SECONDS"])
    keepalive = float(config["SSE_KEEPALIVE_SECONDS"])
    max_seconds = config["SSE_MAX_SECONDS"]
    disconnected = request.environ.get("waitress.client_disconnected")

    feed = feed_of(current_app._get_current_object())  # type: ignore[attr-defined]

    def next_events(after: int) -> tuple[list[Event], int]:
        """The page's events after ``after`` and the id it has seen up to: from the feed,
        or from the store where the feed no longer holds them (a long-closed page)."""
        kept = feed.since(after, game_id)
        if kept is not None:
            return kept
        newest = store.last_event_id()
        events = store.events_since(after, game_id, limit=BATCH)
        if len(events) == BATCH:
            return events, events[-1].id
        return events, max(after, newest)  # other games' events are skipped, not waited on

    def generate() -> Iterator[str]:
        nonlocal last
        restarts = feed.restarts
        began = time.monotonic()
        quiet_since = began
        yield f"retry: 2000\n: connected at event {last}\n\n"
        while True:
            events, seen = next_events(last)
            for event in events:
                payload = dict(event.payload)
                payload["game_id"] = event.game_id
                yield format_event(event.id, event.kind, payload)
            last = seen
            now = time.monotonic()
            if events:
                quiet_since = now
            elif now - quiet_since >= keepalive:
                quiet_since = now
                yield ": keepalive\n\n"
            if max_seconds is not None and now - began >= float(max_seconds):
                return
            if disconnected is not None and disconnected():
                return
            if feed.restarts != restarts:
                return  # another database: the page reconnects and reads its state again
            if not events:
                feed.wait(last, wait, restarts)

    streams: StreamCount = current_app.extensions["skullcam_streams"]
    who = request.remote_addr or "?"
    if not streams.take(int(config["SSE_MAX_STREAMS"]), who, config["SSE_MAX_STREAMS_PER_ADDRESS"]):
        raise TooManyPages()
    try:
        feed.subscribe()
    except BaseException:
        streams.give_back(who)
        raise
    response = Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )

    def closed() -> None:  # whatever the cause
        streams.give_back(who)
        feed.unsubscribe()
        store.release_thread_connection()  # a page caught up from the store took one again

    response.call_on_close(closed)
    return response
