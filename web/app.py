"""The Flask app factory, the table PIN, and the production server (waitress).

Why these choices:
- App factory + blueprints (flaskr): tests build an app on a temporary data folder; ``skullcam
  run`` builds one next to the live loop and shares its :class:`GameStore`.
- Writes are JSON ``fetch`` calls only (``Content-Type: application/json`` is required), which
  a cross-site HTML form cannot send; that keeps the phones' bid and correction calls safe
  without a CSRF token dance.
- The PIN protects writes once the server listens beyond localhost (phones on the table's
  Wi-Fi); a phone enters it once and its signed session cookie remembers it. The machine
  itself never needs it; the TV view is read-only anyway. The lockouts, the cookie's mark and
  the loopback rule are ``skullcam/table_pin.py``'s, shared with the enrollment page.
- Every error answers in the page's own terms: ``{"error": "..."}`` under ``/api/``, the error
  page elsewhere, a 500 included; a traceback only ever goes to the log.
- waitress holds each server-sent-event stream on one worker thread, so ``serve`` sizes the
  pool for dozens of open pages; the Flask dev server is never used.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from flask import Flask, Response, g, jsonify, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from skullcam import i18n_core, table_pin
from skullcam.addresses import scoreboard_urls
from skullcam.errors import (
    ECHO_LIMIT,
    NotFoundError,
    UserError,
    cannot_listen,
    echo,
    phrased,
)
from skullcam.store import GameStore
from skullcam.store.database import database_error, is_disk_full, is_io_error, says_damaged
from skullcam.store.game_store import is_busy

from . import i18n
from .flag_i18n import flag_text
from .refusal_i18n import PIN_ENGLISH, refusal_text
from .server_thread import stop_server

logger = logging.getLogger(__name__)

#: Worker threads for waitress: every open page holds one for its event stream.
DEFAULT_THREADS = 96
IDLE_CONNECTION_S = 60
"""A connection that sends and receives nothing this long is closed (waitress's
``channel_timeout``; an event stream says something every ``SSE_KEEPALIVE_SECONDS``). It was an
hour: 200 idle connections from one laptop on the Wi-Fi took the scoreboard down for that long."""
SSE_MAX_STREAMS = DEFAULT_THREADS - 16
"""Open event streams at once (one per open page; each holds a server thread while open):
beyond it a page is answered 503 and tries again, so the last 16 threads always serve
requests. Without a limit, about 96 open pages left every request waiting (measured)."""
SSE_MAX_STREAMS_PER_ADDRESS = 16
"""Open event streams from one address: a phone with every page of the game open in tabs
holds under ten; more is one guest taking the streams everyone else's pages need."""
SSE_MAX_SECONDS = 300.0
"""A page's event stream is renewed this often: the browser reconnects at once with the last
event id it saw and misses nothing, and a phone that left the wifi without closing its page
holds its server thread at most this long instead of until TCP gives up."""
#: Digits an id may have in a URL or a query: SQLite integers are 64-bit, so a longer one
#: (which would overflow) can name nothing that exists.
ID_MAX_DIGITS = 18
ID_MAX = 10**ID_MAX_DIGITS - 1
#: An error message is one line of at most this many characters.
MESSAGE_LIMIT = 600


class IdConverter(BaseConverter):
    """``<id:game_id>``: a game, round, trick or prompt number in a URL.

    Only ASCII digits, at most :data:`ID_MAX_DIGITS` of them: Werkzeug's ``int`` takes any
    Unicode digit and any length, and an id past SQLite's 64-bit range raised OverflowError
    (a 500) instead of answering 404.
    """

    regex = rf"[0-9]{{1,{ID_MAX_DIGITS}}}"
    part_isolating = True

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: Any) -> str:
        return str(int(value))


def create_app(
    data_dir: Path,
    pin: str | None = None,
    *,
    store: GameStore | None = None,
    require_pin: bool = False,
    test_config: dict[str, Any] | None = None,
) -> Flask:
    """Build the table app on ``data_dir`` (``<data>/skullcam.db``).

    ``pin``: the table's PIN for write actions; ``require_pin`` turns the check on (``serve``
    does so itself when the host is not loopback). ``store`` shares an already open
    :class:`GameStore` (the live loop's). ``test_config`` overrides Flask config keys, e.g.
    ``SSE_MAX_SECONDS`` to end event streams in tests. ``app.extensions["skullcam_clock"]``
    is the clock the PIN lockout reads (``time.monotonic``; tests replace it).
    """
    data_dir = Path(data_dir)
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(
        DATA_DIR=data_dir,
        PIN=str(pin) if pin is not None else None,
        PIN_REQUIRED=bool(require_pin),
        SECRET_KEY=table_pin.secret_key(data_dir),
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
        JSON_SORT_KEYS=False,
        SSE_WAIT_SECONDS=0.25,
        SSE_KEEPALIVE_SECONDS=15.0,
        SSE_MAX_SECONDS=SSE_MAX_SECONDS,
        SSE_MAX_STREAMS=SSE_MAX_STREAMS,
        SSE_MAX_STREAMS_PER_ADDRESS=SSE_MAX_STREAMS_PER_ADDRESS,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["skullcam_store"] = store or GameStore(data_dir)
    app.extensions["skullcam_pin_guard"] = table_pin.PinGuard(
        lift="'Let phones in again' on the home page on this machine lets new phones in at once"
    )
    app.extensions["skullcam_clock"] = time.monotonic
    app.extensions["skullcam_streams"] = StreamCount()
    app.url_map.converters["id"] = IdConverter

    from .api import bp as api_bp
    from .events import bp as events_bp
    from .pages import bp as pages_bp

    app.register_blueprint(pages_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(events_bp)

    _add_language(app)
    _add_error_pages(app)
    _share_connections(app)
    _refuse_foreign_names(app)
    _version_static_files(app)
    return app


def _share_connections(app: Flask) -> None:
    """Each request hands its thread's store connection back as it ends, for whichever
    worker answers the next: the connections open are as many as the most requests answered
    at once (a burst's stay open, idle, for the next), not one for every worker thread that
    ever answered one (:data:`DEFAULT_THREADS`, two open files each)."""

    @app.teardown_request
    def _release(_error: BaseException | None) -> None:
        get_store(app).release_thread_connection()


def _version_static_files(app: Flask) -> None:
    """Every link to a static file carries its content's digest (``app.css?v=3f2a...``).
    Browsers keep the files an hour (``SEND_FILE_MAX_AGE_DEFAULT``), so without the digest
    a TV left open across an upgrade would reload the new page with the old script and
    stylesheet. The files change only with skullcam, so each is read once a run."""
    static = Path(app.static_folder or "")

    @functools.cache
    def digest(filename: str) -> str:
        try:
            return hashlib.sha256((static / filename).read_bytes()).hexdigest()[:12]
        except OSError:  # no such file: the link is answered 404 as before
            return ""

    @app.url_defaults
    def _versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint != "static" or "filename" not in values or "v" in values:
            return
        if version := digest(str(values["filename"])):
            values["v"] = version


def _refuse_foreign_names(app: Flask) -> None:
    """A scoreboard listening on this machine only answers nothing under another name: that
    is a web page in a browser here (DNS rebinding), which could otherwise read the games,
    their exports and their trick images, as writes were already refused to it."""

    @app.before_request
    def _foreign_name() -> None:
        rule = table_pin.request_access()
        if rule == table_pin.FOREIGN_HOST and request.method in ("GET", "HEAD"):
            raise _only_here("foreign_host")


def _add_language(app: Flask) -> None:
    """Every page in the reader's language: chosen by ``?lang=``, remembered in a cookie,
    else the browser's (``skullcam.i18n_core``, as the enrollment page chooses it); the
    templates' ``t()`` and ``card_name()`` speak it."""

    @app.before_request
    def _language() -> None:
        g.lang = i18n_core.language_of(request)

    @app.after_request
    def _remember_language(response: Any) -> Any:
        i18n_core.remember_language(request, response)
        return table_pin.protect_page(response)

    app.add_template_filter(i18n.number_text, "number")

    @app.context_processor
    def _template_helpers() -> dict[str, Any]:
        lang = getattr(g, "lang", "en")

        def t(key: str, **fields: object) -> str:
            return i18n.translate(key, lang, **fields)

        def card(card_id: str) -> str:
            return i18n.card_name(card_id, lang)

        def flag(text: str) -> str:
            return flag_text(text, lang)

        return {
            "t": t,
            "card_name": card,
            "flag_text": flag,
            "lang": lang,
            "languages": i18n.LANGUAGE_NAMES,
            "pin_required": app.config["PIN_REQUIRED"],
        }


def _add_error_pages(app: Flask) -> None:
    """Every error in one shape (JSON for the API and event streams, a page otherwise), with
    a sentence that says what to do and never a traceback."""

    @app.errorhandler(PinError)
    def _pin_error(err: PinError) -> Any:
        return _error_response(str(err), 403, pin=True, text=_in_reader_language(err))

    @app.errorhandler(UserError)
    def _user_error(err: UserError) -> Any:
        status = 404 if isinstance(err, NotFoundError) else 400
        return _error_response(str(err), status, text=_in_reader_language(err))

    @app.errorhandler(404)
    def _not_found(err: Any) -> Any:
        return _said_error("error_not_found", 404)

    @app.errorhandler(405)
    def _bad_method(err: Any) -> Any:
        return _said_error("error_method", 405)

    @app.errorhandler(413)
    def _too_large(err: Any) -> Any:
        return _said_error("error_too_large", 413)

    @app.errorhandler(500)
    def _server_error(err: Any) -> Any:
        # Flask has logged the original exception with its traceback; the answer names none.
        return _said_error("error_server", 500)

    @app.errorhandler(sqlite3.DatabaseError)
    def _database_error(err: sqlite3.DatabaseError) -> Any:
        """Another program held the database past the store's wait: nothing was written, and
        the same request a moment later will go through (503). SQLite found the file damaged:
        say which file and what to do, as the command line does, not "report it"."""
        if is_busy(err):
            response = app.make_response(_said_error("error_busy", 503))
            response.headers["Retry-After"] = "5"
            return response
        store = get_store(app)
        if is_disk_full(err, store.data_dir):
            return _disk_full(store.path, err)
        app.logger.exception("database failure", exc_info=err)
        if says_damaged(err) or is_io_error(err):  # damage, or a disk to check first
            return _error_response(str(database_error(store.path, err)), 500)
        return _server_error(err)

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException) -> Any:
        """Any other HTTP error (400 from Werkzeug, 416, ...) in the same shape as ours: its
        English description for programs, and a sentence in the reader's language beside it
        (it was English on every page)."""
        code, lang = err.code or 500, getattr(g, "lang", "en")
        key = getattr(err, "text_key", "error_request")  # events.TooManyPages names its own
        text = None if lang == "en" else i18n.translate(key, lang, code=code)
        return _error_response(err.description or err.name, code, text=text)


def _disk_full(path: Path, err: sqlite3.Error) -> Any:
    """The disk is full (507 Insufficient Storage): a sentence naming the file for programs
    and the log, and the same advice in the reader's language on the page. The write was rolled
    back whole, so it says this change was not saved and nothing before it was lost; a
    traceback would only bury that."""
    message = (
        f"this change was not saved: the disk holding {path} is full ({err}); free some space"
        " on it, then try again; nothing saved before it was lost"
    )
    logger.warning("%s", message)
    text = i18n.translate("error_disk_full", getattr(g, "lang", "en"))
    return _error_response(message, 507, text=text)


class StreamCount:
    """How many event streams are open, all told (``SSE_MAX_STREAMS``) and from each address
    (``SSE_MAX_STREAMS_PER_ADDRESS``): 80 streams from one guest's laptop left every other
    page, the TV's too, answered 503 for as long as it held them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.by_address: Counter[str] = Counter()

    def take(self, limit: int, who: str = "?", per_address: int | None = None) -> bool:
        with self.lock:
            if self.open >= limit:
                return False
            if per_address is not None and self.by_address[who] >= per_address:
                return False
            self.open += 1
            self.by_address[who] += 1
            return True

    def give_back(self, who: str = "?") -> None:
        with self.lock:
            self.open -= 1
            self.by_address[who] -= 1
            if self.by_address[who] <= 0:
                del self.by_address[who]


def get_store(app: Flask | None = None) -> GameStore:
    """The app's :class:`GameStore`."""
    from flask import current_app

    target = app or current_app
    store: GameStore = target.extensions["skullcam_store"]
    return store


def clip_message(message: str) -> str:
    """One readable line: long unbroken runs (a 5000-digit number or a pasted blob quoted back
    by a check) are cut, keeping the advice around them, and the whole is capped."""
    text = " ".join(str(message).split())
    text = re.sub(rf"\S{{{ECHO_LIMIT + 1},}}", lambda m: m[0][:ECHO_LIMIT] + "…", text)
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def parse_id(raw: str, what: str) -> int:
    """A number from a query string or header: ASCII digits only (``'²'.isdigit()`` is true
    and ``int('١')`` is 1), else UserError. One longer than any stored id can be comes back
    as ``ID_MAX + 1`` (never read whole: 5000 digits would not even convert), so the caller
    never hands SQLite a number it overflows on."""
    text = raw.strip()
    if not re.fullmatch(r"-?[0-9]+", text):
        raise UserError(f"{what} must be a number, got {echo(raw)}")
    if text.startswith("-"):
        raise UserError(f"{what} must be 0 or more, got {echo(raw)}")
    digits = text.lstrip("0")
    return ID_MAX + 1 if len(digits) > ID_MAX_DIGITS else int(text)


def _said_error(key: str, status: int) -> Any:
    """The web's own error ``key`` (``web/i18n.py``): English for programs, the reader's
    language for the page."""
    english = i18n.translate(key, "en")
    return _error_response(english, status, text=i18n.translate(key, getattr(g, "lang", "en")))


def _in_reader_language(err: UserError) -> str:
    return refusal_text(err, getattr(g, "lang", "en"))


def _error_response(message: str, status: int, pin: bool = False, text: str | None = None) -> Any:
    """The error as JSON (``error`` in English for programs, and ``error_text`` in the
    reader's language where that differs) or as a page in the reader's language."""
    from flask import render_template

    message = clip_message(message)
    text = message if text is None else clip_message(text)
    wants_json = (
        request.path.startswith("/api/")
        or request.path == "/events"  # an EventSource reads no HTML page
        or request.is_json
        or (request.accept_mimetypes.best == "application/json")
    )
    if wants_json:
        body: dict[str, Any] = {"error": message}
        if text != message:
            body["error_text"] = text
        if pin:
            body["pin"] = True
        return jsonify(body), status
    lang = getattr(g, "lang", "en")
    try:
        page = render_template(
            "error.html",
            message=text,
            status=status,
            strings=i18n.js_strings(lang),
            cards=i18n.js_cards(lang),
        )
    except Exception:  # the error page itself failed: still answer, in plain text
        logger.exception("error page failed to render")
        return Response(f"{status}: {text}\n", status, mimetype="text/plain")
    return page, status


def check_pin() -> None:
    """Refuse a write unless PINs are off, the caller is this machine, or it carries the PIN.

    A PIN in the ``X-Skullcam-Pin`` header counts towards the same lockout as one typed on a
    phone (:func:`try_pin`), or a script could try all 10 000 in a minute. The session's mark
    of the PIN was checked when it was stored and is signed, so it is compared without
    counting. Raises ``PinError`` (403); the pages answer it by asking for the PIN.
    """
    key = table_pin.write_refusal(try_pin)
    if key == table_pin.FOREIGN_HOST:
        # A plain refusal: a PinError would make the page ask for a PIN there is none of.
        raise _only_here("foreign_host_write")
    if key is not None:
        raise pin_refusal(key)


def _only_here(key: str) -> UserError:
    """A page asked for under another name than this machine's (``PIN_ENGLISH``'s
    ``foreign_host``, or ``foreign_host_write`` for a change): a plain refusal, in the
    reader's language, where it was said in English whatever the page's language."""
    port = request.environ.get("SERVER_PORT", "")
    return phrased(UserError, PIN_ENGLISH, key, port=port)


def try_pin(given: str) -> bool:
    """Check a PIN typed on a phone or sent in a header (``table_pin.PinGuard``: too many
    wrong tries lock the address, or the whole table, for a while)."""

    return table_pin.try_pin(pin_guard(), given, pin_refusal)


def pin_guard() -> table_pin.PinGuard:
    """The app's count of wrong PINs."""
    from flask import current_app

    guard: table_pin.PinGuard = current_app.extensions["skullcam_pin_guard"]
    return guard


def pin_for_host() -> dict[str, Any] | None:
    """The table's PIN, and the minutes left on the whole table's lock (None: no lock), for
    the home page on this machine: the PIN was only in the terminal (the journal, under
    systemd), and the lock could be lifted only by a restart. None unless PINs are on and
    the request comes from this machine, which never needs the PIN, and one is set (with
    none, no phone can sign in at all: ``pin_not_set``)."""
    from flask import current_app

    config = current_app.config
    if not config["PIN_REQUIRED"] or config["PIN"] is None:
        return None
    if table_pin.request_access() != table_pin.OPEN:
        return None
    now = current_app.extensions["skullcam_clock"]()
    return {"pin": current_app.config["PIN"], "locked_minutes": pin_guard().table_lock_minutes(now)}


def unlock_pins() -> None:
    """The host lets phones enter the PIN again (:meth:`table_pin.PinGuard.unlock`). Refused
    to any other machine, a phone that knows the PIN included: the locks hold guessers back,
    and lifting them is the host's call."""
    if table_pin.request_access() != table_pin.OPEN:
        raise phrased(UserError, PIN_ENGLISH, "pin_unlock_here")
    pin_guard().unlock()


class PinError(UserError):
    """A write without the table's PIN (HTTP 403)."""


def pin_refusal(key: str, **args: int) -> PinError:
    """The PIN check's refusal ``key`` (``refusal_i18n.PIN_ENGLISH``)."""
    return phrased(PinError, PIN_ENGLISH, key, **args)


def make_server(
    app: Flask, host: str = "127.0.0.1", port: int = 8000, threads: int | None = None
) -> Any:  # waitress's stubs leave out effective_port, which callers read
    """A waitress server for ``app`` (call ``.run()``; ``.close()`` from another thread).

    Listening beyond loopback turns the PIN on; with no PIN given one is generated and
    logged, so phones on the Wi-Fi can never write without it.
    """
    # waitress re-exports create_server at the top, but its stubs only have it here.
    from waitress.server import create_server

    server = create_server(
        app,
        host=host,
        port=port,
        threads=threads or DEFAULT_THREADS,
        channel_timeout=IDLE_CONNECTION_S,
        cleanup_interval=max(1, int(IDLE_CONNECTION_S // 4)),
        connection_limit=max(200, (threads or DEFAULT_THREADS) * 2),
        ident="skullcam",
        channel_request_lookahead=1,
        # poll(), not select(): select() cannot watch a socket numbered 1024 or more, and
        # waitress's loop thread died on the first one ("filedescriptor out of range in
        # select()"), every page then unanswered while the process went on.
        asyncore_use_poll=True,
    )
    _prepare_pin(app, host)  # once the address is known to be good: no PIN for a failed start
    quiet_closed_streams()
    # waitress keeps the app wrapped; PagesThread's stop waits for the app's own threads.
    setattr(server, "flask_app", app)  # noqa: B010 (waitress's stubs have no such attribute)
    return server


CLOSED_STREAM = "Client disconnected while serving /events"
"""What waitress logs (at INFO, on the ``waitress`` logger) for each page closed while its
event stream was open: the normal end of every stream, not a fault."""


class _ClosedStreamFilter(logging.Filter):
    """Drops waitress's :data:`CLOSED_STREAM` message, and only that one: a phone locked or a
    page closed printed it on the terminal the table reads, every time, as if something had
    gone wrong. Its other messages (a request that failed, a full queue) still pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != CLOSED_STREAM


def quiet_closed_streams() -> None:
    """Put :class:`_ClosedStreamFilter` on waitress's logger (once, however many servers)."""
    waitress_logger = logging.getLogger("waitress")
    if not any(isinstance(f, _ClosedStreamFilter) for f in waitress_logger.filters):
        waitress_logger.addFilter(_ClosedStreamFilter())


def serve(
    app: Flask, host: str = "127.0.0.1", port: int = 8000, threads: int | None = None
) -> None:
    """Serve ``app`` with waitress until interrupted (for embedding; ``skullcam run`` makes
    its own server with :func:`make_server` to run it beside the camera loop)."""
    try:  # waitress binds the port here, not in run(): a port in use fails now
        server = make_server(app, host, port, threads)
    except (OSError, ValueError) as err:
        raise cannot_listen(host, port, err) from err
    logger.info("scoreboard on %s", scoreboard_urls(host, server.effective_port))
    try:
        server.run()
    finally:
        stop_server(server)


def _prepare_pin(app: Flask, host: str) -> None:
    if table_pin.is_loopback(host):
        return
    app.config["PIN_REQUIRED"] = True
    if not app.config.get("PIN"):
        app.config["PIN"] = table_pin.kept_pin(Path(app.config["DATA_DIR"]))
        # Printed, not logged as well: with logging on the terminal it read twice.
        print(f"skullcam: table PIN for phones: {app.config['PIN']}", flush=True)
