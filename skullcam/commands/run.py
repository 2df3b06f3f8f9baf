"""``skullcam run``: the main job. Camera -> recognition -> tricks -> scoreboard.

Picks the camera: ``--camera SRC`` when given, else the Raspberry Pi camera when picamera2
finds one, else no camera at all, in which case it replays the bundled recorded game at real
speed through the real recognizer, so the scoreboard shows recognition really running. The web
app (``skullcam.web``) is served from the same process; the pipeline runs in a background
thread and records every completed trick into the data folder's store.

``--camera none`` serves the pages only (a dispute settled the morning after, a table entering
its tricks by hand): no demo, no model loaded, nothing recorded; it takes the same idle path as
a run whose demo stepped aside for a table's game.

``--max-seconds`` and ``--exit-when-done`` make a run finite (tests, benchmarks, a kiosk that
restarts it); without them it serves until Ctrl-C.
"""

from __future__ import annotations

import argparse
import logging
import math
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skullcam.addresses import scoreboard_urls
from skullcam.cli import (
    add_data_argument,
    playback_speed,
    port_number,
    positive_float,
    table_pin,
)
from skullcam.counts import counted
from skullcam.errors import UserError, cannot_listen
from skullcam.files import hold_lock, make_folder

logger = logging.getLogger(__name__)

NO_CAMERA = "none"
"""``--camera none``: serve the pages, record nothing (a video file named so is ``./none``)."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "run",
        help="the main job: camera -> recognition -> scoreboard (no camera: a bundled game)",
        description="Watch the table and serve the scoreboard. With no camera it replays a "
        "bundled recorded game at real speed; '--camera none' serves the scoreboard and phone "
        "pages only (last night's game, or tricks entered by hand), with no demo and no model.",
    )
    parser.add_argument(
        "--camera",
        default=None,
        metavar="SRC",
        help="camera index (0), stream URL, 'picamera', a video/folder to play as if live, or "
        "'none': serve the pages only, record nothing, load no model (a video or folder named "
        "none is given as ./none; default: the Pi camera if present, else the bundled game)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (127.0.0.1)")
    parser.add_argument(
        "--pin",
        default=None,
        type=table_pin,
        help="table PIN phones must give to write, 4-12 characters (default: a random one, "
        "printed and kept in the data folder, when --host is beyond localhost)",
    )
    parser.add_argument("--port", type=port_number, default=8000, help="port to serve on (8000)")
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: active)")
    parser.add_argument(
        "--demo",
        type=Path,
        default=None,
        metavar="DIR",
        help="recorded game folder to replay when there is no camera (default: the bundled one)",
    )
    parser.add_argument(
        "--speed",
        type=playback_speed,
        default=1.0,
        help="playback speed of the demo or a recording: 1 = real time (the default; 0.05 to"
        " 1000), 0 = as fast as possible",
    )
    parser.add_argument(
        "--max-seconds",
        type=positive_float,
        default=None,
        help="stop after this many seconds (default: run until stopped)",
    )
    parser.add_argument(
        "--exit-when-done",
        action="store_true",
        help="exit when the game (or the demo) is over instead of serving on (with --camera "
        "none: the game in progress, else the next one set up on the web page)",
    )
    parser.add_argument(
        "--no-web", action="store_true", help="record only; serve no pages (not with --camera none)"
    )
    parser.add_argument(
        "--record-frames",
        action="store_true",
        help="with a camera: also save every frame under DATA/recordings/ for 'skullcam replay'",
    )
    add_data_argument(parser)
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    # Ctrl-C and a SIGTERM are heard from the start: set before the model loads, the handler
    # still left the imports, the camera's probe and the demo's load (about a second here,
    # several on a Pi) to a SIGTERM that killed the process without a word in the journal.
    stopping = _StopOnSignal()
    try:
        return _start(args, stopping)
    finally:
        stopping.restore()


def _start(args: argparse.Namespace, stopping: _StopOnSignal) -> int:
    """Check what the run was given (camera, demo, data folder) and take the data folder's
    lock, then record: a stop asked for meanwhile ends it here, before the model loads."""
    from skullcam.device.demo_game import DemoGame
    from skullcam.device.sources import names_live_camera, open_source, picamera_available

    camera = args.camera
    demo = None
    if camera == NO_CAMERA:
        if args.no_web:
            raise UserError(
                "--camera none with --no-web has nothing to do: it records nothing and --no-web "
                "serves no page. Drop --no-web to serve the pages, or give a camera (--camera SRC)"
            )
        camera = None  # camera and demo both None: the pages only
    elif camera is None and picamera_available():
        camera = "picamera"
    if camera is None and args.camera is None:
        demo = DemoGame.load(args.demo)
    if camera is not None and not names_live_camera(camera):
        open_source(camera).close()  # a recording's mistake is said first, not after the game's
    if demo is not None:
        open_source(demo.folder).close()  # before its game is set up in the store
    data = make_folder(Path(args.data), "data folder")
    lock = _recorder_lock(data, pages_only=camera is None and demo is None)
    try:
        if lock is not None:  # under the lock: no other run's write in flight loses its file
            from skullcam.device.live import remove_interrupted_writes

            remove_interrupted_writes(data)
        if stopping.signalled:
            return _stopped_early("starting")
        return _record(args, camera, demo, data, stopping)
    finally:
        # Released however the run ends, its store closed first: an error the live loop holds
        # keeps the run's frames alive, the lock's file with them, until a garbage collection,
        # and a process that runs again (the tests) found its folder locked by itself.
        if lock is not None:
            lock.close()


def _stopped_early(while_: str) -> int:
    """A stop that came before the store was opened: said in one line, nothing to lose."""
    logger.warning("stopped while %s; nothing was recorded", while_)
    return 130


def _recorder_lock(data: Path, pages_only: bool) -> Any:
    """The data folder's lock for this run: one recorder per data folder (a second one
    wrote its trick images over the first's before the store refused its tricks as already
    recorded). None for ``--camera none`` on a folder that cannot be written (a USB stick
    mounted read-only): it records nothing, and its pages read the games from a copy.

    A camera or the demo is refused there with the store's own sentence, before the model
    loads: where only ``skullcam.db`` could not be written, the run took the lock, loaded the
    model and stopped at its first write, or waited beside the game it could never record."""
    from skullcam.store.database import unwritable
    from skullcam.store.refusals import refusal

    file = unwritable(data)
    if file is not None:
        if pages_only:
            return None
        said = refusal("read_only", folder=str(data), file=str(file))
        raise UserError(f"{said}; '--camera none' serves its games to view")
    return hold_lock(
        data / "run.lock",
        f"another 'skullcam run' is already recording into {data}: stop it first, or give "
        "this one another --data",
    )


def _record(
    args: argparse.Namespace,
    camera: str | None,
    demo: Any,
    data: Path,
    stopping: _StopOnSignal,
) -> int:
    """The run from its model's load on: record (or wait) and serve until done or stopped.
    With neither ``camera`` nor ``demo`` (``--camera none``) no model loads and no live loop
    is made: nothing would use them, and the model takes seconds to load on a Pi."""
    from skullcam.store import GameStore

    recognizer = None
    if camera is not None or demo is not None:
        from skullcam.vision.recognizer import Recognizer

        recognizer = Recognizer.load(args.model, data_dir=data)
    if stopping.signalled:  # the store is not opened yet: nothing to lose
        return _stopped_early("loading the model")
    store = GameStore(data)
    try:
        return _serve(args, camera, demo, data, stopping, store, recognizer)
    finally:
        # Closed here, not left to the garbage collector: the app holds the store in a
        # reference cycle, so its connections (one per web worker that answered a page) would
        # outlast the run, run after run in a process that runs again (the tests).
        store.close()


def _serve(
    args: argparse.Namespace,
    camera: str | None,
    demo: Any,
    data: Path,
    stopping: _StopOnSignal,
    store: Any,
    recognizer: Any,
) -> int:
    """:func:`_record` with its store opened and its model loaded (``recognizer``, None
    with ``--camera none``)."""
    from skullcam.device.live import finish, game_to_record
    from skullcam.device.run_tally import RunTally
    from skullcam.device.sources import names_live_camera

    pages_only = camera is None and demo is None
    idle = _why_idle(args, pages_only, demo, store, data)
    if camera is not None and args.no_web and game_to_record(store) is None:
        raise UserError(
            f"no game in {data} to record into, and --no-web serves no page to set one up: "
            "run without --no-web and start a game on the web page"
        )
    loop = None if pages_only else _live_loop(args, store, recognizer, camera, demo, data)
    if demo is not None and idle is None:
        # The demo plays from the first page served: the "no camera" an earlier run left
        # (--camera none, a camera that failed) put last night's game on the TV in place of
        # the demo's (``store.tv_game()``) until the demo's first frame cleared it.
        store.set_camera_missing(False)
    server = pages = None
    if not args.no_web:
        from skullcam.web import create_app
        from skullcam.web.app import make_server
        from skullcam.web.server_thread import PagesThread

        app = create_app(data, store=store, pin=args.pin)
        try:
            server = make_server(app, args.host, args.port)
        except (OSError, ValueError) as err:
            raise cannot_listen(args.host, args.port, err) from err
        pages = PagesThread(server)
        pages.start()
        logger.info("scoreboard on %s", scoreboard_urls(args.host, server.effective_port))
    if demo is not None and idle is None:
        # Said once every check has passed: before, a run refused (a table's game in progress,
        # the port taken) first announced the replay it then did not play.
        logger.info("no camera: replaying the recorded game in %s", demo.folder)
    if loop is not None:
        stopping.attach(loop)
    deadline = None if args.max_seconds is None else time.monotonic() + args.max_seconds
    no_game_left = _game_over_check(args.exit_when_done, store, waits_for_one=pages_only)
    try:
        if idle is not None:
            logger.warning(idle)
            if store.read_only is None:  # else the store said why nothing is recorded
                store.set_camera_missing(True)  # the TV says nothing is recorded
            _wait_idle(stopping, deadline, no_game_left, deadline)
        else:
            assert loop is not None  # only --camera none has none, and it is idle
            # A live camera that fails (not there at boot, unplugged) with the pages served:
            # they stay up and the camera is tried again, where exiting made the systemd unit
            # restart every 3 s with no page up meanwhile.
            retry = server is not None and camera is not None and names_live_camera(camera)
            _run_trying_again(loop, store, stopping, deadline, retry, no_game_left)
        done = args.exit_when_done or args.max_seconds is not None or stopping.signalled
        timed_out = deadline is not None and time.monotonic() >= deadline
        unfinished = None if stopping.signalled or timed_out else _left_unrecorded(store, camera)
        if unfinished is not None:
            logger.warning(unfinished)
            if camera is not None:  # the pages say so too (the demo's stop has said it already)
                store.set_camera_missing(True, "frames_ended")
        if not done and server is not None:
            over = "the game is over" if unfinished is None else "nothing records it now"
            logger.info("%s; the scoreboard stays up (Ctrl-C to stop)", over)
            stopping.wait()
    finally:
        stopping.restore()
        if loop is not None:
            loop.stop.set()
            finish(loop)  # its frame, and the tricks it writes as it ends
        if pages is not None:
            pages.close()
    print((RunTally() if loop is None else loop.tally).summary(data))
    if stopping.signalled:
        print("skullcam run: interrupted", file=sys.stderr)
        return 130
    return 0


def _why_idle(
    args: argparse.Namespace, pages_only: bool, demo: Any, store: Any, data: Path
) -> str | None:
    """Why this run serves the pages and records nothing, said in the log (None when it
    records): ``--camera none`` asked for it, or no camera was found and the demo steps aside
    for a table's game in progress (refused with ``--no-web``: nothing would be left to do)."""
    from skullcam.device.live import game_to_record

    waiting = game_to_record(store) if pages_only or demo is not None else None
    if pages_only:
        said = "--camera none: the scoreboard and phone pages are served, and nothing is recorded"
        unused = _unused_with_no_camera(args)
        if unused:  # said, not silently dropped: a user who gave them expects them to count
            said += f" ({', '.join(unused)} ignored: nothing is played or recorded)"
        if waiting is not None and store.read_only is None:  # else nothing can be entered
            said += (
                f"; game {waiting} is in progress: enter its tricks by hand on its tricks page"
                f" (/game/{waiting}/tricks)"
            )
        return said
    if waiting is None:
        return None
    names = ", ".join(store.game(waiting).players)
    idle = (
        f"no camera found, and game {waiting} ({names}) is in progress in {data}: the demo "
        "does not play over a table's game."
    )
    if args.no_web:
        raise UserError(
            f"{idle} Connect the camera (or pass --camera SRC) to record it, or finish it on"
            " the web page first"
        )
    # The pages still come up: exiting here made the systemd unit restart every 3 s,
    # for ever, with the scoreboard and the phones' pages unreachable meanwhile.
    return idle + (
        " The scoreboard and phone pages are served, and nothing is recorded: connect the"
        " camera (or pass --camera SRC) and restart skullcam, or enter its tricks by hand"
        f" on its tricks page (/game/{waiting}/tricks)"
    )


def _unused_with_no_camera(args: argparse.Namespace) -> list[str]:
    """The options given that ``--camera none`` has no use for: they are about a camera, a
    recording or the demo."""
    given = {
        "--model": args.model is not None,
        "--demo": args.demo is not None,
        "--speed": args.speed != 1.0,
        "--record-frames": bool(args.record_frames),
    }
    return [option for option, there in given.items() if there]


def _live_loop(
    args: argparse.Namespace, store: Any, recognizer: Any, camera: str | None, demo: Any, data: Path
) -> Any:
    """The live loop that records the camera's (or the demo's) tricks into ``store``."""
    from skullcam.device.live import LiveLoop

    loop = LiveLoop(
        store,
        recognizer,
        camera,
        demo,
        data_dir=data,
        speed=args.speed,
        reload_model=None if args.model is not None else _active_model_reloader(data),
    )
    loop.next_games = not args.exit_when_done
    if args.record_frames:
        loop.record_frames = make_folder(data / "recordings", "recordings folder")
    return loop


def _game_over_check(exit_when_done: bool, store: Any, waits_for_one: bool) -> Callable[[], bool]:
    """Whether a run waiting with nothing recorded is done (asked once a second): with
    ``--exit-when-done``, once no game is in progress (the table finished it by hand). With
    ``waits_for_one`` (``--camera none``) only once one was, now or since: a run started
    between games waits for the next, as a camera's run does, instead of ending at once."""
    from skullcam.device.live import game_to_record

    seen = not waits_for_one or game_to_record(store) is not None

    def no_game_left() -> bool:
        nonlocal seen
        if not exit_when_done:
            return False
        playing = game_to_record(store) is not None
        seen = seen or playing
        return seen and not playing

    return no_game_left


def _left_unrecorded(store: Any, camera: str | None) -> str | None:
    """What is left of the game in progress once the frames ran out (a recording shorter
    than the game, or the demo stopped for a table's game: ``camera`` None), or None when no
    game is in progress: the run had said "the game is over" either way."""
    from skullcam.store.checks import cards_dealt

    game = store.active_game()
    if game is None:
        return None
    if camera is None:
        return (
            f"game {game.id} is in progress and no camera records it: connect one and run"
            " 'skullcam run' again (or 'skullcam run --camera SRC'), or enter its tricks by hand"
            f" on its tricks page (/game/{game.id}/tricks)"
        )
    n = len(game.players)
    due = sum(cards_dealt(r, n, game.settings) for r in range(1, store.rounds_due(game.id) + 1))
    recorded = len(store.tricks(game.id))
    return (
        f"the camera's frames ran out with game {game.id} still in progress"
        f" ({recorded} of {counted(due, 'trick')} recorded): 'skullcam run --camera SRC'"
        " records the rest into it, or finish it on its Settings page"
    )


CAMERA_RETRY_S = 10.0
"""How long a run serving the pages waits before it tries a failed live camera again."""
CAMERA_REMIND_S = 600.0
"""How often a camera failing the same way is said again (every try goes to the debug log)."""


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def _sooner(deadline: float | None, seconds: float) -> float:
    """The earlier of ``deadline`` and ``seconds`` from now."""
    soon = time.monotonic() + seconds
    return soon if deadline is None else min(deadline, soon)


def _wait_idle(
    stopping: _StopOnSignal,
    until: float | None,
    done: Callable[[], bool],
    deadline: float | None = None,
) -> bool:
    """Serve the pages with nothing recorded until a signal, ``until``, or ``done()`` (asked
    once a second: ``--exit-when-done`` ends once no game is in progress). True when the run
    is over (a signal, ``done()``, or ``deadline`` passed), False when only ``until`` came."""
    while not stopping.event.wait(min(1.0, _left(until) or 1.0)):
        now = time.monotonic()
        if done() or (deadline is not None and now >= deadline):
            return True
        if until is not None and now >= until:
            return False
    return True


def _run_trying_again(
    loop: Any,
    store: Any,
    stopping: _StopOnSignal,
    deadline: float | None,
    retry: bool,
    done: Callable[[], bool],
) -> None:
    """Run the live loop; with ``retry``, a loop stopped by its camera (``CameraError``) is
    said, flagged for the TV, and run again every :data:`CAMERA_RETRY_S` until it works, a
    signal, the deadline or ``done()``. Other errors end the run as before."""
    from skullcam.device.live import run_for
    from skullcam.device.sources import CameraError

    said, said_at, tries, frames = "", -math.inf, 0, loop.tally.frames
    while True:
        try:
            run_for(loop, _left(deadline))
            return
        except CameraError as err:
            if not retry or stopping.signalled:
                raise
            if loop.tally.frames > frames:  # it worked since: a new failure, said in full
                said, frames = "", loop.tally.frames
            tries += 1
            if str(err) != said:  # a new failure is said in full, once
                said, said_at, tries = str(err), time.monotonic(), 1
                logger.error(
                    "%s; the scoreboard and phone pages stay up and nothing is recorded: "
                    "trying the camera again every %g s",
                    err,
                    CAMERA_RETRY_S,
                )
            elif time.monotonic() - said_at >= CAMERA_REMIND_S:  # the same: a reminder
                said_at = time.monotonic()
                logger.warning("still no camera after %d tries: %s", tries, err)
            else:  # an error every 10 s filled the Pi's journal while no camera was plugged
                logger.debug("camera tried again: %s", err)
            loop.camera_failing = said  # its first frame says it works again
            # One event when it goes (the store's), not one a try; the pages say it is tried.
            store.set_camera_missing(True, "camera_failed")
            if _wait_idle(stopping, _sooner(deadline, CAMERA_RETRY_S), done, deadline):
                return
            loop.error = None


class _StopOnSignal:
    """Ctrl-C (SIGINT) and ``systemctl stop`` (SIGTERM) ask the live loop to stop after its
    frame, instead of raising KeyboardInterrupt into the main thread.

    With KeyboardInterrupt, the process aborted on its way out ("terminate called without an
    active exception", exit -6) in 5 of 6 Ctrl-Cs sent while frames were being read, even
    with the loop joined first; stopping through the loop's own flag exits with 130.
    """

    def __init__(self, loop: Any = None) -> None:
        self.loop = loop
        self.event = threading.Event()
        self.previous: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():  # signals go to main only
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.previous[sig] = signal.signal(sig, self._stop)

    @property
    def signalled(self) -> bool:
        return self.event.is_set()

    def attach(self, loop: Any) -> None:
        """The live loop to stop, once it exists (stopped at once if a signal came first)."""
        self.loop = loop
        if self.signalled:
            loop.stop.set()

    def _stop(self, signum: int, frame: Any) -> None:
        self.event.set()
        if self.loop is not None:
            self.loop.stop.set()

    def wait(self) -> None:
        self.event.wait()

    def restore(self) -> None:
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)


def _active_model_reloader(data: Path) -> Callable[[], Any]:
    """A new Recognizer whenever ``skullcam enroll`` (or ``--activate``) switched the active
    model of this data folder; ``None`` otherwise. One ``stat`` a frame."""
    from skullcam.vision.recognizer import ActiveModelWatcher, Recognizer

    watcher = ActiveModelWatcher(data)

    def reload() -> Any:
        folder = watcher.changed()
        return None if folder is None else Recognizer.load(folder)

    return reload
