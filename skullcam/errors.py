"""The one error type the command line turns into a one-line message instead of a traceback.

Packages other than ``rules`` raise :class:`UserError` for anything a user can fix (a bad file,
a missing model, an unplugged camera). ``rules`` stays dependency-free and raises its own
``skullcam.rules.RulesError``; the CLI treats both the same way.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix; ``str(err)`` names what was wrong and what to do."""


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


def cannot_listen(host: str, port: int, err: OSError) -> UserError:
    """Why a web page could not be served (port taken, address not on this machine), for
    ``run`` and ``enroll`` alike."""
    return UserError(f"cannot listen on {host}:{port}: {err.strerror or err}; try another --port")


ECHO_LIMIT = 40
"""User input quoted back in a message is cut to this many characters."""


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters: an error names the bad input without
    echoing a thousand-digit number or a whole pasted document back to the page."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
