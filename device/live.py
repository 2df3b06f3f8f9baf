"""The live loop of ``skullcam run``: camera (or the bundled game) -> pipeline -> store.

One process (style guide): the web server's threads serve pages from the store while this loop
runs in its own thread, reading frames, recognizing, tracking and recording each completed trick
into the same store. A live camera is read through
:class:`~skullcam.device.sources.LatestFrameReader`, so a slow recognizer drops frames instead
of building a backlog; the bundled demo game is paced at its real frame rate so the scoreboard
fills in at the speed of a real table, with the real recognizer running on every frame.

Restarting resumes: the active game's recorded tricks rebuild the referee, a demo replay
continues after the frame of its last recorded trick, and the last trick's cards, if still on
the table, are not recorded twice. A trick the table enters by hand on the web page while the
camera watches (or a card it corrects, a trick it takes back) is taken up the same way,
without a restart.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from skullcam.counts import counted
from skullcam.device import unrecorded
from skullcam.device.demo_game import (
    DEMO_SOURCE,
    DemoGame,
    prune_demo_games,
    start_demo_game,
)
from skullcam.device.picture_watch import CameraNotice, PictureWatch, SharpnessSaid
from skullcam.device.pipeline import EnteredTrick, FrameError, Pipeline, model_version_of
from skullcam.device.recorder import GAME_FILES, StoreRecorder, referee_from_store
from skullcam.device.referee import Referee
from skullcam.device.resume_point import (
    entered_since_seen,
    last_seen_trick,
    last_trick_cards,
    moved_here,
    recorded_from,
    resume_frame,
    source_name_of,
)
from skullcam.device.run_tally import KeepUpWatch, RunTally
from skullcam.device.sources import (
    MAX_FPS,
    Frame,
    FrameSource,
    LatestFrameReader,
    Paced,
    names_live_camera,
    open_source,
)
from skullcam.errors import UserError
from skullcam.files import (
    discard,
    make_folder,
    remove_leftover_temps,
    replace_atomically,
    temp_beside,
)
from skullcam.store import GameStore
from skullcam.vision.seats import SeatLayout, layout_for

logger = logging.getLogger(__name__)

FAILING_FRAMES_S = 10.0
"""Seconds of frames the recognizer may fail on in a row before the loop stops. A frame it
fails on is skipped like a missed detection (the tracker rides out 2.5 s of those); a
recognizer that fails on everything is broken, and the table must be told, not left waiting."""


def wait_for_game(
    store: GameStore,
    stop: threading.Event,
    done: Mapping[int, int] | None = None,
    meanwhile: Callable[[], object] = lambda: None,
) -> int | None:
    """A live camera records into the active game; wait until the web page starts one (other
    than the games in ``done``, which the camera has already seen to their end, unless the
    table resumed one since). ``meanwhile`` is called once a second while it waits."""
    announced = False
    while not stop.is_set():
        if (found := game_to_record(store, done)) is not None:
            return found
        if not announced:
            game = store.active_game()
            if game is not None and not _seen_to_end(store, done, game.id):
                logger.info("game %d is the demo's, left unfinished: not recorded into", game.id)
            logger.info("waiting for a game to be set up on the web page")
            announced = True
        meanwhile()
        stop.wait(1.0)
    return None


def game_to_record(store: GameStore, done: Mapping[int, int] | None = None) -> int | None:
    """The game a camera records into now: the active one, unless the camera saw it end
    (``done``: game id -> the last event id then) and it was not reopened since, or its
    tricks came from the demo; None when there is none."""
    game = store.active_game()
    if game is None or _seen_to_end(store, done, game.id) or store.is_demo_game(game.id):
        return None
    return game.id


def _seen_to_end(store: GameStore, done: Mapping[int, int] | None, game_id: int) -> bool:
    """A game finished by mistake and resumed on the Settings page (or its rounds raised)
    is recorded into again: the camera had taken it as over for good."""
    if not done or game_id not in done:
        return False
    return not store.reopened_since(game_id, done[game_id])


NEXT_GAME = "the camera goes on with the table's next game"
"""What the camera does while tricks of a game it left wait for the database (the log says)."""

DEMO_PAUSE_S = 10.0
"""How long a demo game's final scores stay up before the next demo game starts."""


class LiveLoop:
    """Runs the pipeline on a source until it ends, the game ends, or :attr:`stop` is set."""

    def __init__(
        self,
        store: GameStore,
        recognizer: Callable[..., Any],
        camera: str | None,
        demo: DemoGame | None,
        data_dir: Path | None = None,
        speed: float = 1.0,
        next_games: bool = False,
        reload_model: Callable[[], Any] | None = None,
    ) -> None:
        if camera is None and demo is None:
            raise UserError("nothing to watch: give --camera or a demo game")
        self.store = store
        self.recognizer = recognizer
        self.reload_model = reload_model
        """Called once a frame; returns a new recognizer when the active model changed
        (``skullcam enroll`` finished), so the game goes on with it, no restart."""
        self.camera = camera
        self.demo = demo
        self.data_dir = data_dir
        self.speed = speed
        self.next_games = next_games
        """After a game ends, go on to the next: a new demo game, or with a camera the next
        game set up on the web page (``skullcam run`` without ``--exit-when-done``)."""
        self.watch_every_s = 1.0
        """How often the camera asks the store whether the game changed or the table changed
        its tricks (:class:`_GameWatch`); a test replaying frames faster than real time
        asks every frame, so the answer comes on the frame the change was made, not on
        whichever frame a second of a loaded machine's time ends."""
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.tally = RunTally()
        """Tricks, frames and skipped frames over every game this loop played."""
        self.keep_up: KeepUpWatch | None = None
        """The current source's frames read a second, said when too few."""
        self._thread: threading.Thread | None = None
        self.picture: PictureWatch | None = None
        """The current source's picture: frozen or blurred (a new one for each source)."""
        self.sharpness_said = SharpnessSaid()
        """The cards' sharpness the log said, over every game this loop plays."""
        self.record_frames: Path | None = None
        """With a live camera: also save every processed frame here, for a later replay."""
        self.camera_failing: str | None = None
        """How the camera failed, as ``skullcam run`` said it before trying it again; its
        first frame since says, once, that it works again."""
        self.left = _LeftGames()
        """The camera's tricks of games left on the web page, waiting for the database."""
        self._closing_since: float | None = None
        """When the run's end began waiting for the database (:meth:`_close`): the current
        game's tricks and those of the games left share one ``StoreRecorder.CLOSE_WAIT_S``
        from then, where each waited its own and a Ctrl-C took up to twice that to exit."""

    @property
    def model_version(self) -> str:
        return model_version_of(self.recognizer)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._guarded, name="live-loop", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the loop; True when it has ended."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _guarded(self) -> None:
        try:
            self.run()
        except BaseException as err:  # reported by the command in the main thread
            # A UserError is the command's one-line message; logged here too it read twice.
            log = logger.debug if isinstance(err, UserError | sqlite3.Error) else logger.error
            log("live loop stopped: %s", err)
            self.error = err
        finally:
            # ``skullcam run`` tries a failed camera again in a new thread each time: the
            # thread's connection is closed as it ends, or each try would keep two more files
            # open (the database and its log) for as long as the run lasts.
            self.store.close_thread_connection()

    def run(self) -> None:
        """The loop itself (runs in the caller's thread when called directly). Tricks of a
        game left on the web page that still wait for the database as it ends are written
        then, or said to be kept, as the last game's are (:meth:`_LeftGames.close`)."""
        self._closing_since = None  # a camera tried again runs the loop anew
        try:
            self._run()
        except BaseException:
            self.left.close(quietly=True, since=self._ending())
            raise
        self.left.close(since=self._ending())

    def _ending(self) -> float:
        """When the run's end began waiting for the database: the last game's wait, or now;
        :func:`finish` reads it to wait for the end's writes instead of leaving mid-wait."""
        if self._closing_since is None:
            self._closing_since = time.monotonic()
        return self._closing_since

    @property
    def closing_since(self) -> float | None:
        """When the run's end began waiting for the database (None while it has not)."""
        return self._closing_since

    def _run(self) -> None:
        self._take_kept()
        while not self.stop.is_set():
            if self.demo is not None and self.camera is None:
                if not self.left.written(self.stop) or self._table_game_waits():
                    return
                finished = self._run_demo(self.demo)
                if self._table_game_waits() or not (finished and self.next_games):
                    return
                if not self.left.written(self.stop):
                    return
                prune_demo_games(self.store)
                self.stop.wait(DEMO_PAUSE_S)  # the final scores stay up a while, then a new game
                continue
            self._run_camera(self.camera or "")
            return

    def _next_game(self, reader: LatestFrameReader | None, done: dict[int, int]) -> int | None:
        """The next game to record; a live camera's frames left unread meanwhile are not the
        recognizer falling behind, so they are not counted as dropped, nor is the wait counted
        as time the recognizer read too few frames in."""
        if reader is not None:
            reader.counting = False
        game_id = wait_for_game(self.store, self.stop, done, meanwhile=self.left.write)
        if reader is not None and game_id is not None:  # not on a stop: nothing is watched
            reader.counting = True
        if self.keep_up is not None:
            self.keep_up.restart()
        return game_id

    def _take_kept(self) -> None:
        """Tricks an earlier run left waiting for a busy database go in first, before a
        recording's resume point, the demo's or the camera's referee read the game. Those of
        a finished game go into it as the run had them go while it ran (:attr:`left`: they
        were played in that game), once the database is free, the camera watching the
        table's next game meanwhile: left waiting for a resume, which the Settings page
        refuses while the table plays its next game, they were never written. A list whose
        tricks all went in (the run stopped before removing it) goes; those of a game the
        loop left before it was tried again are written by :attr:`left`, as in the run
        before (waited for here, they would leave the table unwatched while the database is
        held)."""
        for kept in sorted((self.store.data_dir / "games").glob(f"*/{unrecorded.FILE}")):
            name = kept.parent.name
            game = self._game_or_none(int(name)) if name.isascii() and name.isdigit() else None
            if game is None:
                logger.warning(
                    "%s holds tricks a run stopped while the game database was held could not "
                    "record, but the database has no such game: to drop them, delete the file",
                    kept,
                )
            elif not self.left.holds(game.id):  # held: tried again, the games left write them
                self._take_kept_of(game.id, game.status == "active")

    def _take_kept_of(self, game_id: int, active: bool) -> None:
        """An earlier run's kept tricks of ``game_id``: an active game's go in now, waited
        for until :attr:`stop`; a finished game's go to :attr:`left`. A list that cannot be
        read is named in the log and stays."""
        recorder = StoreRecorder(self.store, game_id, self.model_version)
        if active:
            recorder.take_kept(self.stop)
        elif not recorder.drop_kept_if_in():
            try:
                waits = recorder.load_kept()
            except (OSError, UserError) as err:
                logger.warning("%s", err)  # names the file, and what to do with it
                return
            if waits:
                self.left.leave(recorder, "is finished", self._meanwhile(at_start=True))

    def _game_or_none(self, game_id: int) -> Any:
        try:
            return self.store.game(game_id)
        except UserError:
            return None

    def _counting_drops(
        self,
        source: Paced | LatestFrameReader,
        speed: float | None = None,
        kind: str = "camera",
    ) -> Iterator[Frame]:
        """The source's frames, its skipped ones and the rate they are read at counted into
        the run's tally, and said when too few a second are read to follow the tricks;
        ``speed`` is a recording's pace, None for a live camera; ``kind`` names it
        (``run_tally.SOURCES``) in the log's "falling behind the camera" and the TV's notice."""
        was_slow = self.keep_up is not None and self.keep_up.slow
        self.keep_up = KeepUpWatch(
            source,
            on_slow=self._slow_changed,
            speed=speed,
            repeated=self._repeated,
            source=kind,
        )
        self.tally.follow_drops(source)
        self.tally.follow_pace(self.keep_up, speed)
        if was_slow:  # judged of the source before: the new one is judged afresh
            self._slow_changed(False)
        return self.keep_up.frames(source.frames())

    def _repeated(self, frame: Frame) -> bool:
        """Whether the pipeline found ``frame`` repeating the picture before it."""
        return self.picture is not None and self.picture.repeated_frame(frame)

    def _playing_again(self) -> None:
        """The first frame of a game from the camera or the demo: the TV's "no camera"
        notice (said by an earlier run, or by this one before the camera came back) no longer
        holds. On a frame, not on opening: a camera that opens and then stalls is no camera.
        A camera that had failed says so in the log too: its failure was logged, and then
        nothing said that recording had resumed."""
        if self.camera_failing is not None:
            logger.info("the camera works again (%s): recording resumes", self.camera_failing)
            self.camera_failing = None
        self._camera_back()
        self._tell_notice(self.picture.notice if self.picture is not None else None)

    def _camera_back(self) -> None:
        """The TV's "no camera" notice taken down, if it is up. Asked first (a read, which a
        database another program holds does not stall), and written waiting at most
        ``StoreRecorder.WAIT_S``: a game set up while the database was held (its tricks
        waiting) waited the store's 10 s here on its first frame, then ended the run. Not
        taken down then, the notice stays up until the next game; the log says so."""
        if self.store.camera_missing_why() is None:
            return
        try:
            with self.store.waiting_at_most(StoreRecorder.WAIT_S):
                self.store.set_camera_missing(False)
        except sqlite3.Error as err:
            logger.warning("the TV was not told that the camera records again: %s", err)

    def _watch_picture(self, source_name: str, live: bool) -> None:
        """A new source: its picture is watched afresh (frozen, blurred), told to the TV; the
        cards' sharpness figure the log said for an earlier game is not said again unchanged."""
        self.picture = PictureWatch(
            source_name, live, on_notice=self._tell_notice, said=self.sharpness_said
        )

    def _slow_changed(self, slow: bool) -> None:
        """Too few frames a second read, or enough again: the TV's notice follows."""
        self._tell_notice(self.picture.notice if self.picture is not None else None)

    def _tell_notice(self, notice: CameraNotice | None) -> None:
        """The TV's notice about the camera's picture, else about too few of its frames read
        a second (what is wrong with the picture is what the table can mend); a database too
        busy to take it only costs the notice (said in the log already), never the
        recording."""
        if notice is None and self.keep_up is not None and self.keep_up.slow:
            notice = CameraNotice("slow", speed=self.keep_up.too_fast, source=self.keep_up.source)
        try:
            with self.store.waiting_at_most(StoreRecorder.WAIT_S):
                self.store.set_camera_notice(None if notice is None else notice.to_json())
        except (sqlite3.Error, UserError) as err:
            logger.warning("the TV was not told about the camera's picture: %s", err)

    def _table_game_waits(self) -> bool:
        """A game was set up on the web page while the demo played: the demo stops, since a
        new demo game would take the table (and the TV) from it."""
        waiting = game_to_record(self.store)
        if waiting is not None:
            logger.warning(
                "game %d was set up on the web page: the demo stops; connect a camera (or run "
                "with --camera SRC) to record it",
                waiting,
            )
            self.store.set_camera_missing(True)  # the TV says nothing is recorded
        return waiting is not None

    def _run_demo(self, demo: DemoGame) -> bool:
        game_id, start, guard = start_demo_game(self.store, demo)
        source = open_source(demo.folder, start=start)
        self._watch_picture(source.name, live=False)
        frames: Iterator[Frame] = source.frames()
        if self.speed > 0:
            frames = self._counting_drops(Paced(frames, self.speed), self.speed, "demo")
        with source:
            # Following the active game, as a camera does: a game set up on the web page
            # stops the demo within a second, not after the rest of the demo's game (a minute
            # or more at real speed, while the table thought its game was being watched).
            pipeline = self._pipeline(game_id, source, frames, DEMO_SOURCE, guard)
        # Finished on the web page (or its rounds lowered) counts as done: the loop goes on
        # to the next demo game, as it did before the demo followed the active game.
        return (pipeline is not None and pipeline.referee.finished) or not self._current(game_id)

    def _run_camera(self, camera: str) -> None:
        """Record the active game from the camera; when it ends (its last trick, or finished
        or replaced on the web page), wait for the next one with the camera still open. Ends
        when the frames do (a recording), on :attr:`stop`, or after one game without
        :attr:`next_games`."""
        name = source_name_of(camera)
        start = 0
        if not names_live_camera(camera) and (game_id := game_to_record(self.store)) is not None:
            # A recording played into a game it was already partly recorded into (stopped,
            # or a frame removed as the error said): on from where it stopped.
            # After the last trick it recorded: one the table entered by hand since has no
            # frame, and the recording would be played again from its start.
            last = last_seen_trick(self.store, game_id)
            start, info = resume_frame(last, name), recorded_from(last)
            if start:
                moved = f": it is {info['source']}, moved" if moved_here(info, name) else ""
                logger.info("resuming %s at frame %d%s", camera, start, moved)
            elif (before := info.get("source")) not in (None, name):
                logger.warning(
                    "game %d already has tricks recorded from %s; %s is played into it from "
                    "its first frame: if it is that recording moved or renamed, stop now and "
                    "run it from its old path (or correct the tricks on the web page)",
                    game_id,
                    before,
                    name,
                )
        source = open_source(camera, start=start)
        self._watch_picture(source.name, source.live)
        reader = LatestFrameReader(source) if source.live else None
        frames: Iterator[Frame]
        if reader is not None:
            frames = self._counting_drops(reader)
        elif self.speed > 0:  # a recording played as if it were a camera: at its real rate
            paced = Paced(source.frames(), self.speed)
            frames = self._counting_drops(paced, self.speed, "recording")
        else:
            frames = source.frames()
        feed = _EndAware(frames)
        done: dict[int, int] = {}
        on_table: list[list[str]] = []  # the last trick of the game before, if any
        try:
            while (game_id := self._next_game(reader, done)) is not None:
                # Tricks still waiting for the database from when the camera left it, or from
                # an earlier run (the game was finished at this run's start, and resumed
                # since): in first, as at a start. The camera's referee read the game without
                # them, and its copy of their place wrote over their pictures, named as
                # theirs (only a recorded trick's names are avoided).
                self.left.take_up(game_id, self.stop)
                StoreRecorder(self.store, game_id, self.model_version).take_kept(self.stop)
                if self.stop.is_set():
                    return
                # Cards of the trick last recorded may still lie there (a restart mid-game, or
                # the game before's last trick not yet swept): not a new trick.
                guard = last_trick_cards(self.store, game_id) or on_table
                game_frames: Iterator[Frame] = iter(feed)
                if self.record_frames is not None:
                    game_frames = save_frames(game_frames, self.record_frames / f"game-{game_id}")
                # The log as the game starts: a reopening after this (the table resuming a
                # game finished by mistake, even while this camera winds it down) counts.
                started = self.store.last_event_id()
                self._pipeline(game_id, source, game_frames, name, guard)
                if self.stop.is_set() or feed.ended:
                    return
                done[game_id] = started
                on_table = self.left.last_cards(game_id) or last_trick_cards(self.store, game_id)
                self._say_seen_out(game_id)
                if not self.next_games:
                    return
        finally:
            if reader is not None:
                reader.close()
            else:
                source.close()

    def _say_seen_out(self, game_id: int) -> None:
        """Log that the camera is done with the game: over, or, where a trick taken back left
        a place free in an earlier round, waiting for that trick to be entered by hand (it
        said "over" of a game the pages still showed in play)."""
        # Not finished, nor replaced by a newer game; one whose last tricks wait for the
        # database is over once they are in, its place is not left free.
        table = not self.left.holds(game_id) and self._current(game_id)
        free = self.store.next_trick(game_id) if table else None
        if free is None:
            logger.info("game %d is over", game_id)
            return
        logger.info(
            "game %d: the camera has seen its last trick; it is over once round %d trick %d, "
            "left free, is entered by hand",
            game_id,
            free["round"],
            free["trick"] + 1,
        )

    def _pipeline(
        self,
        game_id: int,
        source: FrameSource,
        frames: Iterator[Frame],
        source_name: str,
        guard: list[list[str]],
    ) -> Pipeline | None:
        """Record ``frames`` into the game until it ends, the frames do, or :attr:`stop`, or
        the web page finishes the game or starts another (the TV follows the newest game, so
        the camera must too).

        A trick the table enters by hand meanwhile leaves the camera's referee out of date
        (its next trick would be refused as already recorded, or led by the wrong player), and
        so does a card corrected, a trick taken back, Rosie's choice or a house rule
        changed (the next trick was flagged as led by the wrong player, the table having put
        the winner right already): the game is then taken up again from the store as a
        restart takes it up, on the same frames, the last trick's cards (maybe still on the
        table) not a new trick."""
        changed_at_table = False
        while True:
            recorder = StoreRecorder(self.store, game_id, self.model_version, source_name)
            # Before the referee reads the tricks: a change made in between is then
            # followed at the next ask instead of missed.
            watch = _GameWatch(
                game_id,
                self._current,
                self.store.table_changes_since,
                self.store.last_event_id(),
                self.watch_every_s,
                written=recorder.flush,
                meanwhile=self.left.write,
            )
            referee = referee_from_store(self.store, game_id)
            if referee.finished:
                return None
            if changed_at_table:
                logger.info(
                    "the game's tricks were changed on the web page: following the table's "
                    "record from round %d trick %d",
                    referee.round,
                    referee.trick + 1,
                )
            # A recording shows again the tricks entered by hand after its own last one; a
            # live camera never sees an old trick again.
            again = [] if source.live else entered_since_seen(self.store, game_id)
            try:
                pipeline = self._watch(referee, recorder, source, frames, guard, again, watch)
            except BaseException as stopped:
                # The camera failed (or the run was stopped) with tricks waiting for a busy
                # database: they are written first, as at a normal end; their frames are gone.
                try:
                    self._close(recorder)
                except UserError as err:
                    # A trick the full disk refused fails again here, with the same message
                    # the command says as its error: logged too, the journal had it twice.
                    if str(err) != str(stopped):
                        logger.error("%s", err)
                raise
            if watch.left and not self.stop.is_set():
                # Finished or replaced on the web page: the camera goes on with the next game
                # at once, what waits for the database written later (:class:`_LeftGames`).
                self.left.leave(recorder)
                return pipeline
            if self._ends_waiting(pipeline, recorder):
                # Its last trick seen: the same, rather than waiting for the database and
                # ending the run with the table's next game unwatched.
                self.left.keep(recorder, "has ended", self._meanwhile())  # it just failed
                return pipeline
            # A trick that waited for a busy database is written before the end (the watch
            # waits for it before a rebuild from the store: :class:`_GameWatch`).
            self._close(recorder)
            if not watch.changed_at_table:
                return pipeline
            changed_at_table = True
            guard = last_trick_cards(self.store, game_id)

    def _ends_waiting(self, pipeline: Pipeline | None, recorder: StoreRecorder) -> bool:
        """The camera saw the game's last trick, and tricks of it still wait for the
        database. Only then: with them in, a change the table made meanwhile (a trick taken
        back) is followed as before, the game taken up again from the store."""
        finished = pipeline is not None and pipeline.referee.finished
        return finished and not self.stop.is_set() and not recorder.flush()

    def _meanwhile(self, at_start: bool = False) -> str:
        """What the loop does while the tricks of a game it left (or found ``at_start``)
        wait for the database (the log says): the table's next game, the demo's once they
        are in, or, after the one game it was to watch, the run's end."""
        goes_on = at_start or self.next_games
        if self.camera is None and goes_on:
            return "the next demo game starts once they are in"
        return NEXT_GAME if goes_on else "the run writes them before it ends"

    def _close(self, recorder: StoreRecorder) -> None:
        """Write the game's waiting tricks before the camera leaves it
        (:meth:`StoreRecorder.close`). Once the run is stopping, or this wait fails and ends
        it, the wait begun here is the whole end's: the games left on the web page get what
        is left of it (:meth:`_LeftGames.close`), so a stop lasts one
        ``StoreRecorder.CLOSE_WAIT_S`` at most, not one for each."""
        if self._closing_since is None:
            self._closing_since = time.monotonic()
        recorder.close(since=self._closing_since)
        if not self.stop.is_set():  # the run goes on: its end waits afresh
            self._closing_since = None

    def _watch(
        self,
        referee: Referee,
        recorder: StoreRecorder,
        source: FrameSource,
        frames: Iterator[Frame],
        guard: list[list[str]],
        again: list[EnteredTrick],
        current: _GameWatch,
    ) -> Pipeline | None:
        """The frames through the pipeline until the game ends, the frames do, a stop, or
        ``current`` says the game is no longer this pipeline's to follow. ``guard`` and
        ``again``: recorded tricks the frames may show (:attr:`Pipeline.resume_cards`,
        :attr:`Pipeline.seen_again`)."""
        pipeline: Pipeline | None = None
        failing: _FailingFrames = _FailingFrames()
        for frame in frames:
            if pipeline is None:
                self._playing_again()  # frames come in: the TV's "no camera" goes
                height, width = frame.image.shape[:2]
                layout = self._layout(referee.n, (width, height), source)
                pipeline = Pipeline(
                    self.recognizer, referee, layout, listener=recorder, picture=self.picture
                )
                pipeline.resume_cards, pipeline.seen_again = guard, again
                self.tally.follow_pipeline(pipeline)
            if (fresh := self._fresh_model()) is not None:
                self.recognizer = pipeline.recognizer = fresh
                recorder.model_version = self.model_version
                logger.info("switched to the newly active model %s", self.model_version)
            try:
                pipeline.process(frame)
            except FrameError as err:
                failing.failed(frame, err)
            else:
                failing.recovered()
            if pipeline.referee.finished or self.stop.is_set() or not current.still():
                break
        return pipeline

    def _current(self, game_id: int) -> bool:
        """The game is still the one to record: unfinished, and no newer game was started."""
        active = self.store.active_game()
        return active is not None and active.id == game_id

    def _fresh_model(self) -> Any:
        """The newly active recognizer, if the active model changed and loads. A model that
        does not load is logged and the game goes on with the current one: a bad
        ``enroll --activate`` must not stop the recording of a game in progress."""
        if self.reload_model is None:
            return None
        try:
            return self.reload_model()
        except UserError as err:
            logger.error(
                "the newly active model was not loaded, still using %s: %s", self.model_version, err
            )
            return None

    def _layout(self, n: int, size: tuple[int, int], source: FrameSource) -> SeatLayout:
        if self.camera is None and self.demo is not None:
            from skullcam.device.replay import layout_for_source

            return layout_for_source(self.demo.folder, n, size)
        return layout_for(n, self.data_dir, size)


class _EndAware:
    """A camera's frames, shared by the games recorded one after another, noting when the
    source has none left (a recording's end: nothing more to wait for)."""

    def __init__(self, frames: Iterator[Frame]) -> None:
        self.frames = frames
        self.ended = False

    def __iter__(self) -> Iterator[Frame]:
        # Not ``yield from``: closing one game's abandoned iterator would then close the
        # camera's own frame generator too, and the next game would get no frames.
        for frame in self.frames:  # noqa: UP028
            yield frame
        self.ended = True


class _GameWatch:
    """Asks at most once a second whether the game being recorded is still the one to record,
    and whether the table changed its tricks on the web page since the watch began (a
    database read every frame would cost more than the answers are worth): a game finished
    or replaced on the web page stops the camera's pipeline, and so does a change by the
    table (:meth:`GameStore.table_changes_since`), for the pipeline to be rebuilt from the
    store (:attr:`changed_at_table` then says so). Any change counts, not only a new trick
    entered by hand: otherwise a card corrected on a replay page would leave the camera
    expecting the winner it had misread to lead the next trick.

    The rebuild waits for the camera's tricks that wait for a database another program holds
    (``written``, asked at each ask until it says they are in): the camera goes on watching
    the table meanwhile, with the state it has, as it does while the database is held
    (:class:`StoreRecorder`), and the tricks it completes wait in order behind them (each
    goes where the table's change left its place: ``TrickFiler.record``). Waiting for the
    database to rebuild ended the run once ``StoreRecorder.CLOSE_WAIT_S`` passed, and the
    cards played meanwhile went unseen."""

    def __init__(
        self,
        game_id: int,
        is_current: Callable[[int], bool],
        table_changes: Callable[[int, int], tuple[bool, int]],
        since: int,
        every_s: float = 1.0,
        written: Callable[[], bool] = lambda: True,
        meanwhile: Callable[[], object] = lambda: None,
    ) -> None:
        self.game_id = game_id
        self.is_current = is_current
        self.table_changes = table_changes
        self.since = since
        """The newest event read (the store's event log): the next ask reads after it."""
        self.every_s = every_s
        self.written = written
        self.meanwhile = meanwhile
        """Called at each ask: the tricks of a game left before wait their turn this way."""
        self.asked = time.monotonic()
        self.changed_at_table = False
        """The table changed the game since the watch began (kept once said)."""
        self.left = False
        """The game was finished or replaced on the web page."""
        self._said_waiting = False

    def still(self) -> bool:
        now = time.monotonic()
        if now - self.asked < self.every_s:
            return True
        self.asked = now
        self.meanwhile()
        if not self.is_current(self.game_id):
            self.left = True
            return False
        changed, self.since = self.table_changes(self.game_id, self.since)
        self.changed_at_table = self.changed_at_table or changed
        return not self.changed_at_table or self._tricks_wait()

    def _tricks_wait(self) -> bool:
        """Whether the camera's tricks still wait for the database (said once)."""
        if self.written():
            return False
        if not self._said_waiting:
            self._said_waiting = True
            logger.info(
                "the game was changed on the web page: the camera follows the change once the "
                "tricks waiting for the database are in"
            )
        return True


class _LeftGames:
    """The camera's tricks (and swaps) of games it left while they waited for a database
    another program holds: finished or replaced on the web page, ended with their last
    trick, or finished with tricks an earlier run kept. The camera goes on with the table's
    next game at once; they wait on disk (``unrecorded.json``) and are written into their own
    game as soon as the database is free, tried at each of the camera's asks about its game
    (:class:`_GameWatch`) and each second it waits for one. Writing them before the camera
    went on left the table unwatched for ``StoreRecorder.CLOSE_WAIT_S``, then ended the run."""

    def __init__(self) -> None:
        self.recorders: list[StoreRecorder] = []

    def leave(
        self,
        recorder: StoreRecorder,
        why: str = "was left on the web page",
        then: str = NEXT_GAME,
    ) -> None:
        """The camera leaves ``recorder``'s game: what waits is written now if the database
        is free, else later (:meth:`keep`)."""
        if not recorder.flush():
            self.keep(recorder, why, then)

    def keep(self, recorder: StoreRecorder, why: str, then: str) -> None:
        """Keep what waits in ``recorder``, which just failed to go in, to write it later.
        ``why`` and ``then`` say in the log why the camera leaves its game and what it does
        meanwhile."""
        first, _ = recorder.pending[0]
        logger.info(
            "game %d %s while its tricks from round %d trick %d on wait for the database: they "
            "are kept, and written into it once it is free; %s",
            recorder.game_id,
            why,
            first.round,
            first.trick + 1,
            then,
        )
        self.recorders.append(recorder)

    def written(self, stop: threading.Event) -> bool:
        """Wait until every game's waiting tricks are in, trying once a second; False when
        ``stop`` came first. The demo waits so before it prunes or starts a game: those
        writes would fail on the held database and end the run."""
        while self.recorders:
            self.write()
            if self.recorders and stop.wait(1.0):
                return False
        return True

    def write(self) -> None:
        """One try (``StoreRecorder.WAIT_S``) at each game's waiting tricks."""
        for recorder in list(self.recorders):
            if recorder.flush():
                self.recorders.remove(recorder)
                logger.info(
                    "game %d: the tricks that waited for the database are in", recorder.game_id
                )

    def holds(self, game_id: int) -> bool:
        """Whether tricks of ``game_id`` wait here (kept since a run of the loop that ended
        with them: :meth:`close`)."""
        return any(recorder.game_id == game_id for recorder in self.recorders)

    def last_cards(self, game_id: int) -> list[list[str]]:
        """The cards of ``game_id``'s last waiting trick, as completed and as amended since,
        which may still lie on the table: the next game's first frames are not a new trick
        (the store's last trick of the game is an older one). Empty when none waits."""
        for recorder in self.recorders:
            if recorder.game_id == game_id and recorder.pending:
                last, _ = recorder.pending[-1]
                there = [
                    o for o, _ in recorder.pending if (o.round, o.trick) == (last.round, last.trick)
                ]
                return [[card for _, card in o.plays] for o in there]
        return []

    def take_up(self, game_id: int, stop: threading.Event) -> None:
        """The camera takes ``game_id`` up again (resumed on the Settings page): its waiting
        tricks go in first, the database waited for until ``stop``, as a start does with the
        tricks an earlier run kept (read from disk as well, they would go in twice)."""
        for recorder in [r for r in self.recorders if r.game_id == game_id]:
            while not recorder.flush(wait_s=1.0) and not stop.wait(1.0):
                pass
        self.write()

    def close(self, quietly: bool = False, since: float | None = None) -> None:
        """The run ends: what still waits is written, within one ``StoreRecorder.CLOSE_WAIT_S``
        for them all from ``since`` (when the run's end began waiting, for the last game's
        tricks; now when it did not), and what could not be is the run's error
        (``StoreRecorder.close``), or ``quietly`` logged, the run ending with another."""
        since = time.monotonic() if since is None else since
        errors: list[UserError] = []
        for recorder in self.recorders:
            try:
                recorder.close(since=since)
            except UserError as failed:
                errors.append(failed)
        # What is not written stays: a loop tried again (``skullcam run`` does, when the
        # camera failed) writes it into its game as this run would have. Left to the next
        # start, a finished game's would wait on disk for a resume the table may not get.
        self.recorders = [recorder for recorder in self.recorders if recorder.pending]
        for err in errors[0 if quietly else 1 :]:
            logger.error("%s", err)
        if errors and not quietly:
            raise errors[0]


class _FailingFrames:
    """Skips frames the recognizer failed on, and says when it has failed for too long."""

    def __init__(self, limit_s: float = FAILING_FRAMES_S) -> None:
        self.limit_s = limit_s
        self.since: float | None = None
        self.skipped = 0

    def failed(self, frame: Frame, err: FrameError) -> None:
        """Log the first failure of a run; raise once the run lasts ``limit_s`` seconds."""
        if self.since is None:
            self.since = frame.timestamp
            logger.warning("%s; skipping the frame", err)
        self.skipped += 1
        if frame.timestamp - self.since >= self.limit_s:
            raise UserError(
                f"{err} (and on every frame for {self.limit_s:.0f} s). The tricks recorded so "
                "far are kept: check the camera and the model (--model), then run again"
            ) from err

    def recovered(self) -> None:
        if self.since is not None:
            logger.info("recognition works again after %s", counted(self.skipped, "skipped frame"))
        self.since, self.skipped = None, 0


RATE_NOTED_EVERY = 50
"""Frames between notes of a recording's frame rate: a run killed mid-game (a power cut) keeps
the rate of the frames up to the last note; a run that ends notes the rate of all of them."""


def save_frames(frames: Iterator[Frame], folder: Path) -> Iterator[Frame]:
    """Pass frames through, writing each as ``frame_NNNNNN.jpg`` (a folder ``replay`` reads).

    Numbering continues after frames already in the folder, so a restarted game appends. The
    real frame rate is noted in ``meta.json`` for ``skullcam replay`` (``--fps`` overrides),
    which plays frame ``k`` at ``k / fps`` seconds: the rate over every frame saved, so that a
    short recording has one and a slow start (the model warming up) does not stretch the whole
    replay.
    """
    import cv2

    make_folder(folder, "recordings folder")
    # After the highest number, not the count: with a frame removed (as replay asks of an
    # unreadable one) the count would land on the last frame and overwrite it.
    numbers = [int(p.stem[6:]) for p in folder.glob("frame_*.jpg") if p.stem[6:].isdigit()]
    start = max(numbers, default=-1) + 1
    first: float | None = None
    last = 0.0
    k = 0
    try:
        for k, frame in enumerate(frames):
            path = folder / f"frame_{start + k:06d}.jpg"
            tmp = temp_beside(path)  # not a frame name: replay skips it
            data = cv2.imencode(".jpg", frame.image)[1]
            try:
                tmp.write_bytes(data.tobytes())
                os.replace(tmp, path)  # a kill mid-write leaves no cut-off frame for replay
            except OSError as err:  # the game's recording matters more than its frames
                discard(tmp)
                logger.warning("frame %s not saved: %s", path, err)
            first = frame.timestamp if first is None else first
            last = frame.timestamp
            if k > 0 and k % RATE_NOTED_EVERY == 0:
                _note_rate(folder, k, last - first)
            yield frame
    finally:  # the game's end (or the run's): the rate of every frame saved
        if first is not None:
            _note_rate(folder, k, last - first)


def _note_rate(folder: Path, intervals: int, seconds: float) -> None:
    """Write ``intervals`` frame periods over ``seconds`` as the recording's ``meta.json``
    rate; nothing while there is no span to measure. At most :data:`MAX_FPS`, the most a replay
    believes (two frames a moment apart would say more, and replay would refuse the folder). A
    rate that cannot be written is said in the log: the game's recording matters more than its
    replay's speed. Kept to four significant digits, not to hundredths: a rate under 0.005
    (frames minutes apart) would be written as 0, which replay refuses."""
    if intervals < 1 or seconds <= 0:
        return
    meta = folder / "meta.json"
    text = json.dumps({"fps": float(f"{min(intervals / seconds, MAX_FPS):.4g}")}) + "\n"
    try:
        replace_atomically(meta, text.encode())
    except OSError as err:
        logger.warning("%s: frame rate not noted (%s); replay it with --fps", meta, err)


FRAME_FILES = re.compile(r"frame_\d{6,}\.jpg|meta\.json")
"""The files :func:`save_frames` writes (frames, and the rate in ``meta.json``): a temp file of
one of these is the run's to remove."""


def remove_interrupted_writes(data_dir: Path) -> list[Path]:
    """Remove the temp files a run killed mid-write left beside its trick pictures (and its
    saved frames), and say so: they took space on the SD card for good. Only ours
    (:data:`GAME_FILES`, :data:`FRAME_FILES`); ``skullcam run`` calls it under its lock, as
    no other run then writes there."""
    folders = [(f, GAME_FILES) for f in sorted((data_dir / "games").glob("*"))]
    folders += [(f, FRAME_FILES) for f in sorted((data_dir / "recordings").glob("game-*"))]
    removed = [path for folder, names in folders for path in remove_leftover_temps(folder, names)]
    if removed:
        logger.info(
            "removed %s a stopped run left: %s",
            counted(len(removed), "unfinished file"),
            ", ".join(str(path) for path in removed),
        )
    return removed


def run_for(loop: LiveLoop, max_seconds: float | None) -> None:
    """Run the loop in its thread until it ends or ``max_seconds`` pass; re-raise its error."""
    loop.start()
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    while not loop.join(0.2):
        if deadline is not None and time.monotonic() >= deadline:
            loop.stop.set()
            finish(loop)
            break
    if loop.error is not None:
        raise loop.error


FRAME_GRACE_S = 5.0
"""How long a stopped loop gets to finish its frame before the run exits without it."""


def finish(loop: LiveLoop, grace_s: float = FRAME_GRACE_S) -> bool:
    """Wait for a stopped loop: its frame within ``grace_s``; and when it is writing tricks
    that waited for a held database, to the end of that wait (``StoreRecorder.CLOSE_WAIT_S``
    from its start). Leaving after ``grace_s`` cut the wait short as the process exited: the
    tricks stayed on disk, but the line saying they were not recorded was never printed.
    True when the loop has ended."""
    if loop.join(grace_s):
        return True
    since = loop.closing_since
    if since is None:  # stuck elsewhere (a camera's read): the run exits without it
        return False
    left = since + StoreRecorder.CLOSE_WAIT_S + 1.0 - time.monotonic()
    if left > 0:
        logger.info("waiting up to %.0f s for the database to take the last tricks", left)
    return loop.join(max(0.0, left))
