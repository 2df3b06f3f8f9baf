"""The one error type the command line turns into a one-line message instead of a traceback.

Packages other than ``rules`` raise :class:`UserError` for anything a user can fix (a bad file,
a missing model, an unplugged camera). ``rules`` stays dependency-free and raises its own
``skullcam.rules.RulesError``; the CLI treats both the same way.
"""

from __future__ import annotations

import errno
import re
import socket
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from skullcam.rules.explain import Arg, Phrase


class UserError(Exception):
    """A problem the user can fix; ``str(err)`` names what was wrong and what to do.

    ``phrase``, where set, is the same message as a key and its values, so a web page can say
    it in the reader's language (``web/refusal_i18n.py``); ``str(err)`` stays English, the
    text the command line and other programs read.
    """

    def __init__(self, message: str, phrase: Phrase | None = None) -> None:
        super().__init__(message)
        self.phrase = phrase


class NotFoundError(UserError):
    """What was asked for does not exist (a game or trick id): the web pages answer 404."""


# Not in the runtime install (the Pi runs on ONNX Runtime): training and enrollment need them.
TRAINING_PACKAGES = frozenset({"torch", "torchvision", "ultralytics", "onnx", "onnxslim"})


def missing_training_package(err: ModuleNotFoundError) -> UserError | None:
    """What to install, when ``err`` is a training package missing from a runtime install.

    None for any other missing module: that is a broken install, and its traceback should show.
    """
    if err.name not in TRAINING_PACKAGES:
        return None
    return UserError(
        f"this needs {err.name}, which is not installed. Training and enrollment need the "
        "training stack: `pip install -e '.[train]'` on a workstation, or on a Raspberry Pi "
        "see docs/pi.md (Enrolling on the Pi)"
    )


def cannot_listen(host: str, port: int, err: OSError | ValueError) -> UserError:
    """Why a web page could not be served (port taken, address not on this machine, not an
    address at all: waitress says ``ValueError``), for ``run`` and ``enroll`` alike."""
    if isinstance(err, ValueError):
        return UserError(
            f"cannot listen on {host}:{port}: {host!r} is not an address; use --host 0.0.0.0 "
            "(every network), 127.0.0.1 (this machine only) or one of this machine's addresses"
        )
    if err.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT) or isinstance(err, socket.gaierror):
        return UserError(
            f"cannot listen on {host}:{port}: {host} is not an address of this machine; "
            "use --host 0.0.0.0 (every network) or 127.0.0.1 (this machine only)"
        )
    return UserError(f"cannot listen on {host}:{port}: {err.strerror or err}; try another --port")


def first_line(err: BaseException, limit: int = 160) -> str:
    """The first line of a library's error, cut to ``limit`` characters (its type's name
    when it says nothing): enough to name what went wrong inside one line of our own."""
    text = str(err).strip()
    return text.splitlines()[0][:limit] if text else type(err).__name__


ECHO_LIMIT = 40
"""User input quoted back in a message is cut to this many characters."""


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters: an error names the bad input without
    echoing a thousand-digit number or a whole pasted document back to the page."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


WHOLE_NUMBER_LIMIT = 10**9
"""Whole numbers a user sends (rounds, players, bids, answers) are small; a bigger one is
refused before it reaches the store (SQLite cannot hold above 2**63) or a message."""
_WHOLE = re.compile(r"\s*[+-]?[0-9]+\s*")


#: What :func:`whole_number` says of a request's key, as phrases (:func:`phrased`): a page says
#: it in the reader's language (``store/refusals.py`` takes these in, ``web/refusal_i18n.py``
#: words them), where a first dealer of "x" sent to a new game was refused in English alone.
NUMBER_ENGLISH = {
    "not_whole_number": "{what} must be a whole number, got {value}",
    "number_far_out": "{what} is far out of range, got {value}",
}


def whole_number(value: object, what: str, *, key: bool = False) -> int:
    """A whole number from a JSON body or answer: an int, or ASCII digits as text ("10", " -1").

    ``int()`` alone would read 1.7 and true as 1, recording a choice nobody made; and
    ``str.isdigit`` accepts '²' (which ``int`` refuses) and '١' (which ``int`` reads as 1), so
    text is matched against ``[0-9]``. Digits beyond the limit are refused before ``int``
    reads them: a 5,000-digit string would otherwise cost a conversion and then a crash.

    ``key``: ``what`` is a request's key as sent (``'first_dealer'``), the same in every
    language, so the refusal carries its phrase for a page to word; other ``what`` are English
    words ("Rosie's next leader") a translation would leave in the middle of its sentence.
    """

    def refused(reason: str) -> UserError:
        if key:
            return phrased(UserError, NUMBER_ENGLISH, reason, what=what, value=echo(value))
        return UserError(NUMBER_ENGLISH[reason].format(what=what, value=echo(value)))

    if isinstance(value, str) and _WHOLE.fullmatch(value):
        digits = value.strip().lstrip("+-").lstrip("0")
        if len(digits) > len(str(WHOLE_NUMBER_LIMIT)):
            raise refused("number_far_out")
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise refused("not_whole_number")
    if abs(value) >= WHOLE_NUMBER_LIMIT:
        raise refused("number_far_out")
    return value


E = TypeVar("E", bound=UserError)


def phrased(kind: type[E], templates: Mapping[str, str], key: str, **args: Arg) -> E:
    """A ``kind`` error worded by ``templates[key]`` (``rules.explain`` templates: a card is
    named, ``{name:cap}`` capitalises) and carrying its phrase, so the English message and
    the translations share one key and one set of values."""
    from skullcam.rules.explain import Phrase, Wording, render

    phrase = Phrase(key, args)
    return kind(render([phrase], Wording(templates=templates)), phrase)
