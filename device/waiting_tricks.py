"""The camera's tricks and swaps waiting, in order, while another program holds the database.

The camera loop never waits long on the database: a completed trick (its images already on
disk) or a swap waits in line and is written as soon as the database is free, and the line is
kept on disk (``unrecorded.json``) so that a stop or a crash meanwhile loses nothing: the next
run records it first (:meth:`WaitingTricks.take_kept`).
"""

from __future__ import annotations

import logging
import math
import sqlite3
import threading
import time
from collections import deque
from typing import Any

from skullcam.counts import agreeing, counted
from skullcam.device import unrecorded
from skullcam.device.camera_swaps import CameraSwaps
from skullcam.device.referee import TrickOutcome
from skullcam.device.trick_filing import TrickFiler
from skullcam.device.unrecorded import Swap, Waiting
from skullcam.errors import UserError
from skullcam.store import GameStore
from skullcam.store.database import database_error, says_damaged
from skullcam.store.game_store import is_busy

# The recorder's name, not this module's: these are the recorder's lines (``skullcam run``
# prints the name on each), and a level set for the recorder's log covers them.
logger = logging.getLogger("skullcam.device.recorder")


class WaitingTricks:
    """The line of tricks to record and swaps to apply, written in order once the database is
    free, and kept on disk meanwhile."""

    #: How often the "still waiting" warning repeats.
    WARN_EVERY_S = 10.0

    def __init__(
        self, store: GameStore, game_id: int, filer: TrickFiler, swaps: CameraSwaps
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.filer = filer
        self.swaps = swaps
        self.recorded = 0
        self.pending: deque[Waiting] = deque()
        """Tricks to record (their ``record_trick`` arguments) and swaps to apply, in order."""
        self._on_disk = False
        """``unrecorded.json`` holds what waits (written while the database is held) ..."""
        self._disk_current = True
        """... and nothing was added to or taken from :attr:`pending` since it was written."""
        self._warned_at = {"live": -math.inf, "tricks": -math.inf}
        self._taking_kept = False
        """Recording the tricks an earlier run kept (:meth:`take_kept`): the table is watched
        once they are in, not meanwhile (:meth:`_meanwhile`)."""

    def add(self, item: Waiting) -> None:
        """Put a trick or a swap at the end of the line; :meth:`flush` writes it."""
        self.pending.append(item)
        self._disk_current = False

    def flush(self, wait_s: float) -> bool:
        """Write the waiting tricks and swaps in order; False while the database is held."""
        while self.pending:
            outcome, record = self.pending[0]
            try:
                with self.store.waiting_at_most(wait_s):
                    if isinstance(record, Swap):
                        self.swaps.apply(outcome, record)
                    else:
                        self.filer.record(outcome, record)
            except UserError as err:
                self.swaps.record_differs |= isinstance(record, Swap)
                # Refused, the trick's move to its round's first place did not go in either.
                self.filer.refile_refused |= outcome.refiled_before is not None
                what = "not amended" if isinstance(record, Swap) else "not recorded"
                logger.error(
                    "round %d trick %d %s: %s", outcome.round, outcome.trick + 1, what, err
                )
            except sqlite3.Error as err:
                if not is_busy(err):
                    raise not_recorded(self.store, outcome, err) from err
                self._say_waiting(err)
                self._keep()
                return False
            else:
                if not isinstance(record, Swap):
                    self.recorded += 1
            self.pending.popleft()
            self._disk_current = False
        self._keep()
        return True

    def _keep(self) -> None:
        """What waits, on disk too once the database is held: a stop or a crash before it
        is free loses no trick (``take_kept`` records them at the next start)."""
        if not self.pending and not self._on_disk:
            return
        if self._on_disk and self._disk_current:
            return
        try:
            unrecorded.keep(self.store.game_dir(self.game_id), list(self.pending))
        except (OSError, UserError) as err:  # they still wait in memory
            logger.warning("the tricks waiting for the database could not be kept: %s", err)
            return
        self._on_disk, self._disk_current = bool(self.pending), True

    def take_kept(self, stop: threading.Event | None, close_wait_s: float) -> None:
        """Record first what an earlier run left waiting for a busy database (a trick the
        camera recorded before that run stopped is not recorded twice; one the table entered
        by hand since keeps the camera's picture and reading, as in :meth:`TrickFiler.record`:
        skipped, they were lost without a word).

        With ``stop`` (a run's start) the database is waited for until the run is stopped,
        as tricks from the camera are: giving up after ``close_wait_s`` ended the run,
        and under systemd the restarts took the pages down each time while the lock lasted.
        The list stays on disk meanwhile, so a stop loses nothing."""
        if not self.load_kept():
            return
        logger.info(
            "recording %s an earlier run left waiting for the database",
            counted(sum(1 for _, record in self.pending if not isinstance(record, Swap)), "trick"),
        )
        if stop is None:
            self.close(close_wait_s)
            return
        self._taking_kept = True
        while not self.flush(wait_s=1.0) and not stop.wait(1.0):
            pass

    def load_kept(self) -> bool:
        """Put what an earlier run kept on disk, and did not get in before it stopped, into
        the line (not written yet: :meth:`flush` does); whether any of it waits. A list all
        of whose tricks went in is removed."""
        waiting = unrecorded.kept(self.store.game_dir(self.game_id))
        if not waiting:
            return False
        for item in self._not_in_yet(waiting):
            self.add(item)
        self._on_disk, self._disk_current = True, False  # the file may list some recorded
        if not self.pending:  # all went in before that run stopped: only the list is left
            self._keep()
            return False
        return True

    def drop_kept_if_in(self) -> bool:
        """Remove the list an earlier run kept where all it names is in the store already
        (that run stopped between the transaction of its last trick and the list's removal);
        whether it did. A game that trick finished cannot be resumed, and left there, the
        list of a game not being played is named as unrecorded at every start. A list that
        cannot be read or removed stays, for the start's warning to name."""
        folder = self.store.game_dir(self.game_id)
        try:
            waiting = unrecorded.kept(folder)
            if not waiting or self._not_in_yet(waiting):
                return False
            unrecorded.keep(folder, [])
        except (OSError, UserError):
            return False
        logger.info("%s: the tricks it kept are recorded; it is removed", folder / unrecorded.FILE)
        return True

    def _not_in_yet(self, waiting: list[Waiting]) -> list[Waiting]:
        """The kept tricks and swaps that did not go in before the run that kept them stopped
        (:meth:`_in_already`, :meth:`CameraSwaps.in_already`), in order."""
        return [
            (outcome, record)
            for outcome, record in waiting
            if not (
                self.swaps.in_already(outcome, record)
                if isinstance(record, Swap)
                else self._in_already(record)
            )
        ]

    def _in_already(self, record: dict[str, Any]) -> bool:
        """Whether a kept trick went in before the run that kept it stopped (or its reading
        with the entry the table typed there): a recorded trick names its picture. It asks
        for the picture, not for any camera's trick at its place, because a missed trick
        inserted by hand meanwhile may have filled that place with the camera's trick before
        it: the kept trick then goes a place on, as in :meth:`TrickFiler._record_moved_on`,
        rather than being dropped unsaid."""
        image = record.get("completion_image")
        return image is not None and self.store.image_in_use(image)

    def close(self, close_wait_s: float, since: float | None = None) -> None:
        """Write what still waits before the run ends, until ``close_wait_s`` after ``since``
        (a ``time.monotonic()``; this call's when not told: a run's end shares one wait among
        all its games); say plainly what could not be. Each try waits a second at most, and
        no longer than the deadline: with none left it is one try, not a second more."""
        deadline = (time.monotonic() if since is None else since) + close_wait_s
        while not self.flush(wait_s=min(1.0, max(0.0, deadline - time.monotonic()))):
            if time.monotonic() > deadline:
                first, _ = self.pending[0]
                folder = self.store.game_dir(self.game_id)
                n = len(self.pending)
                held = (
                    f"the game database {self.store.path} stayed in use by another program for "
                    f"{close_wait_s:.0f} s: {counted(n, 'trick')} from round "
                    f"{first.round} trick {first.trick + 1} on {agreeing(n, 'is', 'are')} not "
                    "recorded"
                )
                they, their = agreeing(n, "it is", "they are"), agreeing(n, "its", "their")
                if self._on_disk and self._disk_current:
                    raise UserError(
                        f"{held} yet; {they} kept in {folder / unrecorded.FILE}: close the other"
                        " program and run skullcam run again, which records"
                        f" {agreeing(n, 'it', 'them')} before anything else"
                    )
                raise UserError(
                    f"{held}, and could not be kept on disk either (the warning above says why):"
                    f" {they} lost; {their} images are in {folder}"
                )

    def time_to_warn(self, about: str) -> bool:
        """True at most once every :attr:`WARN_EVERY_S` for each thing waiting (``about``: the
        live view, the tricks): a long lock is said, not shouted, and the live view's warning
        does not silence the one that says tricks wait."""
        now = time.monotonic()
        if now - self._warned_at[about] < self.WARN_EVERY_S:
            return False
        self._warned_at[about] = now
        return True

    def _say_waiting(self, err: sqlite3.Error) -> None:
        if self.time_to_warn("tricks"):
            first, _ = self.pending[0]
            logger.warning(
                "the game database is in use by another program (%s): %s from round %d"
                " trick %d %s to be recorded; %s",
                err,
                counted(len(self.pending), "trick"),
                first.round,
                first.trick + 1,
                agreeing(len(self.pending), "waits", "wait"),
                self._meanwhile(),
            )

    def _meanwhile(self) -> str:
        """What the "database in use" warning says goes on while the tricks wait, agreeing
        with their count: a single kept trick was "they"."""
        if not self._taking_kept:
            return "the camera keeps watching"
        n = len(self.pending)
        return (
            f"{agreeing(n, 'it goes', 'they go')} in first: the table is watched once "
            f"{agreeing(n, 'it is', 'they are')} in"
        )


def not_recorded(
    store: GameStore, outcome: TrickOutcome, err: OSError | sqlite3.Error
) -> UserError:
    """Why ``outcome`` could not be recorded, as the run stops with it: a damaged database,
    or a disk or folder that refused its pictures or its transaction."""
    if isinstance(err, sqlite3.Error) and says_damaged(err):
        damaged = database_error(store.path, err)
        return UserError(
            f"round {outcome.round} trick {outcome.trick + 1} could not be recorded: {damaged}"
        )
    return UserError(
        f"round {outcome.round} trick {outcome.trick + 1} could not be recorded in "
        f"{store.data_dir} ({err}): free some disk space or fix the folder's "
        "permissions, then run again; the tricks recorded before it are kept"
    )
