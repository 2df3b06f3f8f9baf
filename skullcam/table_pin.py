"""The table's PIN, shared by the two servers a phone writes to: the table app (``web/``)
and the enrollment page (``device/``), which may not import each other.

Why it is shaped so:
- Four digits are only 10 000 guesses. Five wrong ones lock an address for 30 s, each
  further lock twice as long (to an hour) until a right PIN; and the whole table takes at
  most 50 wrong PINs an hour from all addresses together, since a guesser can take several
  addresses. A brute force would take days; phones already in keep working.
- The host lifts every lock at once (:meth:`PinGuard.unlock`, from this machine only): a
  guest who mistyped the PIN fifty times, or a table locked by guessing, waited out the hour
  or restarted skullcam, which stops the camera mid-game.
- The per-address lock comes first: each address counts towards the table's 50 with at most
  10 wrong PINs an hour (two of its own locks), so the table locks only for guessing from
  five addresses or more. One guest's phone and laptop, guessing as fast as their own locks
  let them (about 35 each in the first hour), spent all 50 and kept every new phone out.
- A phone proves it knows the PIN once: its session cookie keeps a digest keyed by the
  server's secret, not the PIN (the cookie is signed, not encrypted: whoever sees it could
  read a PIN in it).
- The machine itself never needs the PIN, but only a request that names it in ``Host``: a
  web page in a browser on the Pi (DNS rebinding) arrives from loopback under a foreign name.
- The PIN and the cookie key are kept in the data folder (mode 600), so a restart (a power
  cut, the systemd unit starting again) keeps every phone at the table signed in.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import math
import secrets
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

MAX_FAILURES = 5
LOCK_SECONDS = 30.0
"""The first lock of an address; each further one (without a right PIN between) doubles."""
LOCK_MAX_SECONDS = 3600.0
TABLE_FAILURES = 50
TABLE_WINDOW_SECONDS = 3600.0
"""Wrong PINs the table takes from all addresses together in this window."""
TABLE_SHARE = 2 * MAX_FAILURES
"""Of one address's wrong PINs in the window, the most that count towards the table's."""


class PinWait(Exception):
    """Too many wrong PINs: ``key`` is ``pin_locked`` (this address; ``seconds``) or
    ``pin_table_locked`` (every address; ``minutes``), for each server to word."""

    def __init__(self, key: str, **args: int) -> None:
        super().__init__(key)
        self.key = key
        self.args_ = args


@dataclass
class PinGuard:
    """The wrong-PIN counts of one server."""

    failures: dict[str, tuple[int, float, int]] = field(default_factory=dict)
    recent: deque[tuple[float, str]] = field(default_factory=deque)
    """The wrong PINs counted towards the table's budget: when, and from which address."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    lift: str = "restarting skullcam lets new phones in at once"
    """What the log says lets new phones in while the whole table is locked: the table app's
    home page on this machine lifts it (:meth:`unlock`), the enrollment page has no such page."""

    def attempt(self, who: str, given: object, pin: str | None, now: float) -> bool:
        """Whether ``given`` is ``pin``; raises :class:`PinWait` while ``who`` (an address)
        or the whole table is locked, whatever the PIN. Read, checked and written under one
        lock, so parallel guesses cannot slip past the limits."""
        with self.lock:
            while self.recent and now - self.recent[0][0] >= TABLE_WINDOW_SECONDS:
                self.recent.popleft()
            count, since, locks = self.failures.get(who, (0, now, 0))
            if count >= MAX_FAILURES:
                left = lock_seconds(locks) - (now - since)
                if left > 0:
                    raise PinWait("pin_locked", seconds=math.ceil(left))
                count = 0
            if len(self.recent) >= TABLE_FAILURES:
                left = TABLE_WINDOW_SECONDS - (now - self.recent[0][0])
                raise PinWait("pin_table_locked", minutes=max(1, math.ceil(left / 60)))
            if pin is not None and same_pin(given, pin):
                self.failures.pop(who, None)
                return True
            count += 1
            if sum(1 for _, by in self.recent if by == who) < TABLE_SHARE:
                self.recent.append((now, who))
            if count >= MAX_FAILURES:
                locks += 1
                logger.warning(
                    "%d wrong PINs from %s: that address waits %d s (someone may be guessing)",
                    count,
                    who,
                    lock_seconds(locks),
                )
            if len(self.recent) == TABLE_FAILURES:
                logger.warning(
                    "%d wrong PINs from %d addresses within an hour: no phone can enter a PIN "
                    "for a while (phones that already have it, and this machine, keep working;"
                    " %s)",
                    len(self.recent),
                    len({by for _, by in self.recent}),
                    self.lift,
                )
            self.failures[who] = (count, now, locks)
        return False

    def table_lock_minutes(self, now: float) -> int | None:
        """The minutes left on the whole table's lock (as a phone is told), None when no
        lock holds."""
        with self.lock:
            live = [at for at, _ in self.recent if now - at < TABLE_WINDOW_SECONDS]
            if len(live) < TABLE_FAILURES:
                return None
            return max(1, math.ceil((TABLE_WINDOW_SECONDS - (now - live[0])) / 60))

    def unlock(self) -> None:
        """Forget every wrong PIN, the table's and each address's: the host lets phones in
        again at once, where the table's lock held every new phone out for up to an hour."""
        with self.lock:
            self.recent.clear()
            self.failures.clear()
        logger.warning("the host let phones enter the PIN again: every wrong PIN is forgotten")


def lock_seconds(locks: int) -> float:
    return min(LOCK_SECONDS * 2 ** max(0, locks - 1), LOCK_MAX_SECONDS)


def same_pin(given: object, pin: str) -> bool:
    """Constant-time comparison of the UTF-8 bytes: ``compare_digest`` refuses ``str`` with
    non-ASCII characters (a 500 for a PIN like 'é')."""
    return hmac.compare_digest(
        str(given).encode("utf-8", "surrogatepass"), pin.encode("utf-8", "surrogatepass")
    )


def pin_mark(secret: bytes | str, pin: str) -> str:
    """What a phone's session cookie keeps to show it knows ``pin``."""
    key = secret if isinstance(secret, bytes) else secret.encode()
    return hmac.new(key, pin.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def refusal_key(
    header: str | None,
    remembered: object,
    pin: str | None,
    secret: bytes | str,
    attempt: Callable[[str], bool],
) -> str | None:
    """Whether a request proves it knows ``pin``: None if so, else why not
    (``pin_header_wrong``, ``pin_missing``). A PIN in the ``X-Skullcam-Pin`` header counts
    towards the lockouts (``attempt``), or a script could try all 10 000 in a minute; the
    cookie's mark (``remembered``) was checked when it was stored and is signed, so it is
    compared without counting."""
    if header:
        return None if attempt(header) else "pin_header_wrong"
    if pin is not None and remembered is not None and same_pin(remembered, pin_mark(secret, pin)):
        return None
    return "pin_missing"


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


def names_this_machine(host: str) -> bool:
    """``Host`` (``name[:port]``) is a loopback name or address, or this machine's unspecified
    address (``0.0.0.0``, which a browser here reaches as itself). No ``Host`` at all (an
    HTTP/1.0 request, a script) counts too: DNS rebinding is a browser's, and a browser always
    names the host; refused, a health check with ``curl -0`` got a 400."""
    if not host:
        return True
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    if name.startswith("[") and "]" in name:  # [::1]:8000
        name = name[1 : name.index("]")]
    name = name.lower().removesuffix(".")  # "localhost." is localhost
    return is_loopback(name) or name in ("0.0.0.0", "::")


def request_access() -> str:
    """:func:`access` for the Flask request being served. Its ``Host`` header as sent, ""
    when there is none: Flask's ``request.host`` fills in the server's own name then
    (``waitress.invalid``), which would pass for a foreign one."""
    from flask import current_app, request

    host = str(request.headers.get("Host", ""))
    return access(current_app.config["PIN_REQUIRED"], request.remote_addr, host)


def from_this_machine(remote_addr: str | None, host: str) -> bool:
    """A request the PIN does not apply to: from loopback, naming this machine."""
    return is_loopback(remote_addr) and names_this_machine(host)


OPEN, FOREIGN_HOST, PROVE_PIN = "open", "foreign host", "prove the PIN"


def access(pin_required: bool, remote_addr: str | None, host: str) -> str:
    """What a request to either server must do: nothing (:data:`OPEN`), be refused
    (:data:`FOREIGN_HOST`: a server listening on this machine only, reached under another
    name, is a web page in a browser here, DNS rebinding), or :data:`PROVE_PIN`."""
    if not pin_required:
        return OPEN if names_this_machine(host) else FOREIGN_HOST
    return OPEN if from_this_machine(remote_addr, host) else PROVE_PIN


Refuse = Callable[..., Exception]
"""A server's own refusal for a key (``pin_locked``, ``pin_missing``, ...) and its fields."""


def try_pin(guard: PinGuard, given: str, refuse: Refuse) -> bool:
    """Whether ``given`` is the table's PIN, for the Flask request being served (its address
    counted by ``guard``; the app's ``skullcam_clock`` read now, so tests can move it); a
    lockout is raised as the server's own refusal."""
    from flask import current_app, request

    clock: Callable[[], float] = current_app.extensions["skullcam_clock"]
    try:
        return guard.attempt(request.remote_addr or "?", given, current_app.config["PIN"], clock())
    except PinWait as wait:
        raise refuse(wait.key, **wait.args_) from None


def write_refusal(attempt: Callable[[str], bool]) -> str | None:
    """Why the Flask request being served may not write: None when it may (PINs off, or
    this machine), :data:`FOREIGN_HOST`, ``pin_not_set``, or the key of :func:`refusal_key`.
    The one check both servers run; each words the answer itself."""
    from flask import current_app, request, session

    rule = request_access()
    if rule != PROVE_PIN:
        return None if rule == OPEN else FOREIGN_HOST
    if current_app.config["PIN"] is None:
        return "pin_not_set"  # PINs on and none given: no phone can write
    return refusal_key(
        request.headers.get("X-Skullcam-Pin"),
        session.get("pin_mark"),
        current_app.config["PIN"],
        current_app.config["SECRET_KEY"],
        attempt,
    )


def sign_in(
    given: object, attempt: Callable[[str], bool], refuse: Refuse, malformed: Refuse
) -> dict[str, bool]:
    """Either server's ``/api/pin``: a phone proves it knows the PIN once, and the signed
    session cookie keeps its mark (not the PIN). ``given`` is the body's ``"pin"`` (None when
    missing): one that is no text is refused with ``malformed()``, as a garbled request, not
    counted as a wrong PIN (five of those locked the address out). A blank one (nothing, or
    spaces, which the PIN box lets through) is no guess either: it is asked for again with
    ``refuse("pin_missing")``, no try spent."""
    from flask import current_app, session

    if not isinstance(given, str):
        raise malformed()
    if not current_app.config["PIN_REQUIRED"]:
        return {"ok": True, "required": False}
    typed = given.strip()
    if not typed:
        raise refuse("pin_missing")
    if not attempt(typed):
        raise refuse("pin_typed_wrong")
    session["pin_mark"] = pin_mark(current_app.config["SECRET_KEY"], typed)
    session.permanent = True
    return {"ok": True, "required": True}


def protect_page(response: Any) -> Any:
    """Headers both servers send with every answer: no other site may frame a page (a
    framed Settings page let a click on another site finish the game), and no browser
    guesses a type other than the one sent."""
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


def kept_secret(path: Path, usable: Callable[[bytes], bool], make: Callable[[], bytes]) -> bytes:
    """The secret kept in ``path`` where it is ``usable``, else one ``make`` gives, kept there
    (mode 600) for the next start. A folder that cannot be written gives this start's."""
    try:
        kept = path.read_bytes()
        if usable(kept):
            return kept
    except OSError:
        pass
    made = make()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(made)
        path.chmod(0o600)
    except OSError:
        pass
    return made


def secret_key(data_dir: Path) -> bytes:
    """A per-data-folder random key, kept so phones stay signed in across restarts."""
    return kept_secret(
        data_dir / "web_secret_key", lambda key: len(key) >= 32, lambda: secrets.token_bytes(32)
    )


def kept_pin(data_dir: Path) -> str:
    """The data folder's generated PIN, made once and kept (as the session key is): a new
    one at every start meant every phone needed it again, shown only in the journal."""

    def usable(kept: bytes) -> bool:
        pin = kept.strip()
        return len(pin) == 4 and pin.isdigit()

    made = kept_secret(
        data_dir / "web_pin", usable, lambda: f"{secrets.randbelow(10000):04d}\n".encode()
    )
    return made.strip().decode()
