"""skullcam: a camera-assisted referee and live scoreboard for Skull King.

The design card's top-level folders are subpackages of this one import name
(``rules/`` is ``skullcam.rules``, ``vision/`` is ``skullcam.vision``...), so an installed
skullcam works from any directory while the repository keeps its flat layout.
"""

__version__ = "0.1.0"

import os as _os

MAX_IMAGE_PIXELS = 100_000_000
"""The largest image skullcam decodes (see ``vision/image_io.py``). Also OpenCV's own limit,
set before anything imports cv2: only PNG and JPEG headers are read before decoding, and a
10 kB WebP (or TIFF) declaring 12,000 x 12,000 pixels took an enrollment upload to 1.7 GB."""
_os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_IMAGE_PIXELS))


class Terminated(KeyboardInterrupt):
    """A SIGTERM heard as Ctrl-C (:func:`stop_as_interrupt`): every ``except
    KeyboardInterrupt`` takes it as one. Unlike Ctrl-C at a terminal, which reaches the whole
    process group, ``kill PID`` reaches this process alone, so a process it started and waits
    for must be told (``vision.adapt.call_in_fresh_interpreter``): that one waited 20 s for a
    job that had heard nothing, then killed it mid-work."""


def stop_as_interrupt(signum: int, frame: object) -> None:
    """A SIGTERM (``kill``, a container's stop) ends the command as Ctrl-C does: one line,
    exit 130, its ``finally`` blocks run. By default it killed the process without a word
    (exit -15): in ``skullcam run``'s first half second (its imports) nothing reached the
    journal. ``skullcam run`` hears it itself once it starts (``_StopOnSignal``)."""
    raise Terminated


def stop_once_as_interrupt(signum: int, frame: object) -> None:
    """:func:`stop_as_interrupt` for a job started by another skullcam process
    (``vision.adapt.call_in_fresh_interpreter``), which hears a SIGTERM once and ignores any
    after it. systemd stops a unit by signalling every process in it, and the starter passes
    its own SIGTERM on as well: the second one, heard mid-cleanup, broke off the job's
    ``except``/``finally`` blocks and left its helper processes running."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated
