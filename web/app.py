"""The Flask app factory, the table PIN, and the production server (waitress).

Why these choices:
- App factory + blueprints (flaskr): tests build an app on a temporary data folder; ``skullcam
  run`` builds one next to the live loop and shares its :class:`GameStore`.
- Writes are JSON ``fetch`` calls only (``Content-Type: application/json`` is required), which
  a cross-site HTML form cannot send; that keeps the phones' bid and correction calls safe
  without a CSRF token dance.
- The PIN protects writes once the server listens beyond localhost (phones on the table's
  Wi-Fi); a phone enters it once and keeps it in a signed session cookie. Requests from the
  machine itself (loopback) never need it; the TV view is read-only anyway.
- waitress holds each server-sent-event stream on one worker thread, so ``serve`` sizes the
  pool for dozens of open pages; the Flask dev server is never used.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from flask import Flask, g, jsonify, request, session

from skullcam.errors import UserError
from skullcam.store import GameStore

from . import i18n

logger = logging.getLogger(__name__)

#: Worker threads for waitress: every open page holds one for its event stream.
DEFAULT_THREADS = 96
PIN_MAX_FAILURES = 5
PIN_LOCK_SECONDS = 30.0


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
    ``SSE_MAX_SECONDS`` to end event streams in tests.
    """
    data_dir = Path(data_dir)
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(
        DATA_DIR=data_dir,
        PIN=str(pin) if pin is not None else None,
        PIN_REQUIRED=bool(require_pin),
        SECRET_KEY=_secret_key(data_dir),
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
        JSON_SORT_KEYS=False,
        SSE_WAIT_SECONDS=0.25,
        SSE_KEEPALIVE_SECONDS=15.0,
        SSE_MAX_SECONDS=None,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["skullcam_store"] = store or GameStore(data_dir)
    app.extensions["skullcam_pin_failures"] = {}
    app.extensions["skullcam_pin_lock"] = threading.Lock()

    from .api import bp as api_bp
    from .events import bp as events_bp
    from .pages import bp as pages_bp

    app.register_blueprint(pages_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(events_bp)

    @app.before_request
    def _language() -> None:
        requested = request.args.get("lang") or request.cookies.get("lang")
        g.lang = i18n.pick_language(requested, list(request.accept_languages))

    @app.after_request
    def _remember_language(response: Any) -> Any:
        chosen = request.args.get("lang")
        if chosen in i18n.LANGUAGES:
            response.set_cookie("lang", chosen, max_age=365 * 86400, samesite="Lax")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response

    @app.context_processor
    def _template_helpers() -> dict[str, Any]:
        lang = getattr(g, "lang", "en")

        def t(key: str, **fields: object) -> str:
            return i18n.translate(key, lang, **fields)

        def card(card_id: str) -> str:
            return i18n.card_name(card_id, lang)

        return {
            "t": t,
            "card_name": card,
            "lang": lang,
            "languages": i18n.LANGUAGE_NAMES,
            "pin_required": app.config["PIN_REQUIRED"],
        }

    @app.errorhandler(PinError)
    def _pin_error(err: PinError) -> Any:
        return _error_response(str(err), 403, pin=True)

    @app.errorhandler(UserError)
    def _user_error(err: UserError) -> Any:
        return _error_response(str(err), 400)

    @app.errorhandler(404)
    def _not_found(err: Any) -> Any:
        return _error_response("not found: check the address", 404)

    @app.errorhandler(405)
    def _bad_method(err: Any) -> Any:
        return _error_response("method not allowed for this address", 405)

    @app.errorhandler(413)
    def _too_large(err: Any) -> Any:
        return _error_response("upload too large (4 MB at most)", 413)

    return app


def get_store(app: Flask | None = None) -> GameStore:
    """The app's :class:`GameStore`."""
    from flask import current_app

    target = app or current_app
    store: GameStore = target.extensions["skullcam_store"]
    return store


def _error_response(message: str, status: int, pin: bool = False) -> Any:
    from flask import render_template

    wants_json = (
        request.path.startswith("/api/")
        or request.is_json
        or (request.accept_mimetypes.best == "application/json")
    )
    if wants_json:
        body: dict[str, Any] = {"error": message}
        if pin:
            body["pin"] = True
        return jsonify(body), status
    lang = getattr(g, "lang", "en")
    page = render_template(
        "error.html",
        message=message,
        status=status,
        strings=i18n.js_strings(lang),
        cards=i18n.js_cards(lang),
    )
    return page, status


def _secret_key(data_dir: Path) -> bytes:
    """A per-data-folder random key, kept so phones stay signed in across restarts."""
    path = data_dir / "web_secret_key"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        if path.exists():
            key = path.read_bytes()
            if len(key) >= 32:
                return key
        key = secrets.token_bytes(32)
        path.write_bytes(key)
        path.chmod(0o600)
        return key
    except OSError:
        return secrets.token_bytes(32)


def is_loopback(address: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and 'localhost' (a missing address counts as remote)."""
    if not address:
        return False
    if address == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def check_pin() -> None:
    """Refuse a write unless PINs are off, the caller is local, or it carries the PIN.

    Raises ``PinError`` (403); the pages answer it by asking for the PIN.
    """
    from flask import current_app

    if not current_app.config["PIN_REQUIRED"] or is_loopback(request.remote_addr):
        return
    pin = current_app.config["PIN"]
    if pin is None:
        raise PinError("this table has no PIN set; restart skullcam run with --pin")
    given = request.headers.get("X-Skullcam-Pin") or session.get("pin")
    if given is not None and hmac.compare_digest(str(given), pin):
        return
    raise PinError("wrong or missing PIN: enter the table's PIN shown where skullcam was started")


def try_pin(given: str) -> bool:
    """Check a PIN typed on a phone; too many wrong tries lock that address for a while."""
    from flask import current_app

    failures: dict[str, tuple[int, float]] = current_app.extensions["skullcam_pin_failures"]
    lock: threading.Lock = current_app.extensions["skullcam_pin_lock"]
    who = request.remote_addr or "?"
    now = time.monotonic()
    with lock:
        count, since = failures.get(who, (0, now))
        if count >= PIN_MAX_FAILURES and now - since < PIN_LOCK_SECONDS:
            raise PinError(
                f"too many wrong PINs; wait {int(PIN_LOCK_SECONDS - (now - since)) + 1} s"
            )
        if count >= PIN_MAX_FAILURES:
            count = 0
    pin = current_app.config["PIN"]
    ok = pin is not None and hmac.compare_digest(str(given), pin)
    with lock:
        if ok:
            failures.pop(who, None)
        else:
            failures[who] = (count + 1, now)
    return ok


class PinError(UserError):
    """A write without the table's PIN (HTTP 403)."""


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8080, threads: int | None = None):  # type: ignore[no-untyped-def]
    """A waitress server for ``app`` (call ``.run()``; ``.close()`` from another thread).

    Listening beyond loopback turns the PIN on; with no PIN given one is generated and
    logged, so phones on the Wi-Fi can never write without it.
    """
    import waitress

    _prepare_pin(app, host)
    return waitress.create_server(
        app,
        host=host,
        port=port,
        threads=threads or DEFAULT_THREADS,
        channel_timeout=3600,
        connection_limit=max(200, (threads or DEFAULT_THREADS) * 2),
        ident="skullcam",
        channel_request_lookahead=1,
    )


def serve(
    app: Flask, host: str = "127.0.0.1", port: int = 8080, threads: int | None = None
) -> None:
    """Serve ``app`` with waitress until interrupted (what ``skullcam run`` calls)."""
    server = make_server(app, host, port, threads)
    logger.info("scoreboard on http://%s:%s/tv", host, port)
    try:
        server.run()
    except OSError as err:  # pragma: no cover - depends on the machine
        raise UserError(f"cannot listen on {host}:{port}: {err.strerror}; try --port") from err
    finally:
        server.close()


def _prepare_pin(app: Flask, host: str) -> None:
    if is_loopback(host):
        return
    app.config["PIN_REQUIRED"] = True
    if not app.config.get("PIN"):
        app.config["PIN"] = f"{secrets.randbelow(10000):04d}"
        logger.warning("table PIN for phones: %s", app.config["PIN"])
        print(f"skullcam: table PIN for phones: {app.config['PIN']}", flush=True)
