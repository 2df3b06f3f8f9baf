"""Server-sent events: every change in the store, pushed to every open page.

The stream tails the store's ``events`` table, so the event id *is* the table's id: a page
that reconnects sends ``Last-Event-ID`` (browsers do this by themselves) and receives exactly
what it missed, then carries on. Pages never poll: each event either carries what changed (the
live trick) or prompts one fetch of ``/api/game/<id>/state``.

Each open stream holds one waitress worker thread and wakes when the store signals a write
(at once for writes in this process, within ``SSE_WAIT_SECONDS`` for another process's). A
comment line every ``SSE_KEEPALIVE_SECONDS`` keeps proxies from closing the connection and lets
waitress notice a page that has gone away, which frees the thread.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request
from werkzeug.exceptions import ServiceUnavailable

from skullcam.errors import NotFoundError

from .app import ID_MAX, StreamCount, get_store, parse_id

bp = Blueprint("events", __name__)

BATCH = 200


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

    def generate() -> Iterator[str]:
        nonlocal last
        began = time.monotonic()
        quiet_since = began
        yield f"retry: 2000\n: connected at event {last}\n\n"
        while True:
            newest = store.last_event_id()
            events = store.events_since(last, game_id, limit=BATCH)
            for event in events:
                last = event.id
                payload = dict(event.payload)
                payload["game_id"] = event.game_id
                yield format_event(event.id, event.kind, payload)
            if len(events) < BATCH:
                # Other games' events are skipped, not waited on again.
                last = max(last, newest)
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
            if not events:
                store.wait_for_event(last, wait)

    streams: StreamCount = current_app.extensions["skullcam_streams"]
    who = request.remote_addr or "?"
    if not streams.take(int(config["SSE_MAX_STREAMS"]), who, config["SSE_MAX_STREAMS_PER_ADDRESS"]):
        raise TooManyPages()
    response = Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    # Given back when the server closes it, whatever the cause.
    response.call_on_close(lambda: streams.give_back(who))
    return response
