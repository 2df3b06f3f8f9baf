"""Recording completed tricks into the game store, crash-safely, and resuming a game.

Order of writes for each trick (the style guide's Frigate pattern): the completion frame and
the annotated image go to ``<data>/games/<id>/`` first, each written to a temporary name and
renamed (a rename is atomic) and the folder synced (the new names on disk, not only the
bytes), then one SQLite transaction records the trick. A power cut or a
``kill -9`` at any moment therefore leaves either a recorded trick with both images, or no
trick at all (at worst two orphan images, which no trick names and the next attempt
overwrites, and a temp file the next ``skullcam run`` removes: :data:`GAME_FILES`): the trick
in progress is all that can be lost.

On restart :func:`referee_from_store` rebuilds the game state from the recorded tricks
(corrections included, since the store keeps the corrected plays), and the pipeline's resume
guard recognizes the last recorded trick if its cards are still on the table.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
from collections import deque
from typing import Any

from skullcam.device import unrecorded
from skullcam.device.camera_swaps import CameraSwaps
from skullcam.device.referee import Referee, TableChoices, TrickOutcome
from skullcam.device.sources import Frame
from skullcam.device.trick_filing import TrickFiler
from skullcam.device.trick_images import TrickImages
from skullcam.device.unrecorded import Swap, Waiting
from skullcam.device.waiting_tricks import WaitingTricks, not_recorded
from skullcam.errors import UserError
from skullcam.rules import Settings
from skullcam.store import GameStore
from skullcam.store.game_store import is_busy
from skullcam.store.tricks import DEMO_MARK
from skullcam.vision.detection import Detection

logger = logging.getLogger(__name__)

GAME_FILES = re.compile(
    rf"r\d{{2,}}t\d{{2,}}(-\d+)?(-boxes)?\.jpg|{re.escape(DEMO_MARK)}|{re.escape(unrecorded.FILE)}"
)
"""The names a run writes into a game's folder (:meth:`TrickImages.names`, the demo's mark,
:data:`unrecorded.FILE`): a temp file of one of these that a kill mid-write left there is the
run's to remove (``remove_leftover_temps``), any other file is kept."""


def table_choices(store: GameStore, game_id: int) -> TableChoices:
    """Every round's bids as the phones entered them (None: not bid yet) and its pirates'
    choices (Harry's changes the bid), tie-breaks too."""
    rounds = range(1, store.rounds_due(game_id) + 1)
    return [store.bids(game_id, r) for r in rounds], [store.abilities(game_id, r) for r in rounds]


def _across_a_gap(ref: Referee, place: tuple[int, int]) -> bool:
    """Bring ``ref`` to the recorded trick at ``place`` (round, trick index), over the places
    before it that hold no trick: a hand entry taken back from the middle of a round leaves
    one, to be entered again. Each counts as a trick of no cards, as a short trick does: no
    winner, the next trick's leader read from its first card. Otherwise the referee would
    stop at the gap, and the camera would file the next trick the table played into it, a
    trick early. False when ``place`` is not ahead of the referee (recorded twice, or past the
    game's end)."""
    gap = (ref.round, ref.trick)
    if place < gap or place[1] >= ref.tricks_in(place[0]) or place[0] > ref.rounds_due():
        return False
    while (ref.round, ref.trick) < place and not ref.finished:
        ref.add_plays(())
    if (ref.round, ref.trick) != place:
        return False
    if (ref.round, ref.trick) != gap:
        logger.info(
            "round %d trick %d has no recorded trick: the camera goes on after round %d trick %d",
            gap[0],
            gap[1] + 1,
            place[0],
            place[1] + 1,
        )
    return True


def referee_from_store(store: GameStore, game_id: int) -> Referee:
    """The game's state as recorded: players, settings and every recorded trick in order,
    with its flags, and a place no trick holds (a hand entry taken back, a trick the camera
    lost before the next round's lead) counted as a trick of no cards."""
    game = store.game(game_id)
    ref = Referee(
        players=list(game.players),
        first_dealer=game.first_dealer,
        settings=Settings.from_dict(dict(game.settings)),
        table_source=lambda: table_choices(store, game_id),
    )
    for trick in store.tricks(game_id):
        if not _across_a_gap(ref, (trick.round, trick.trick)):
            logger.warning(
                "recorded tricks skip from round %d trick %d to round %d trick %d",
                ref.round,
                ref.trick,
                trick.round,
                trick.trick,
            )
            break
        # With its flags: a doubt on a trick of the round is what lets the next round's lead
        # open that round (``Referee.opens_next_round``) after a restart as before it.
        ref.add_plays([(int(p["player"]), str(p["card"])) for p in trick.plays], trick.flags)
        # A choice recorded while abilities were on stays in the store (turning them back on
        # restores it) but, like the score, the turn order ignores it while they are off.
        rosie = [
            a
            for a in store.abilities(game_id, trick.round)
            if a["trick"] == trick.trick and a["pirate"] == "pirate-rosie"
        ]
        if rosie and ref.settings.pirate_abilities:
            ref.take_rosie_choice(int(rosie[0]["choice"]))
    return ref


def live_winner(plays: list[dict[str, Any]], settings: dict[str, Any]) -> int | None:
    """Who would win the trick on the table if it ended now (the TV shows it as it builds).

    A lone Tigress counts as a pirate until the trick completes; a partial trick the rules
    cannot judge (one card) has no winner yet.
    """
    from skullcam.rules import RulesError, parse_card, resolve_trick

    if len(plays) < 2:
        return None
    try:
        cards = [
            parse_card("tigress:pirate" if p["card"] == "tigress" else p["card"]) for p in plays
        ]
        result = resolve_trick(cards, Settings.from_dict(settings))
    except (RulesError, KeyError, TypeError):
        return None
    return None if result.winner is None else int(plays[result.winner]["player"])


class StoreRecorder:
    """The pipeline's listener in ``skullcam run``: live trick, completed tricks, prompts.

    The camera loop never waits long on the database: while another program holds it, a
    completed trick (its images already on disk) waits in :attr:`pending` and is written, in
    order, as soon as the database is free, and the live view skips a redraw. Waiting the
    store's full 10 s instead would stop the loop from watching the table, and the cards played
    meanwhile would be missed, shifting every later trick to the wrong round.
    """

    #: How long one attempt waits for the database while the camera is running.
    WAIT_S = 0.2
    #: How long :meth:`close` keeps trying before it gives up on the waiting tricks (within the
    #: systemd unit's ``TimeoutStopSec``, so a stopped service says what it could not write).
    CLOSE_WAIT_S = 20.0

    def __init__(
        self, store: GameStore, game_id: int, model_version: str, source_name: str = ""
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.images = TrickImages(store, game_id, model_version, source_name)
        self.filer = TrickFiler(store, game_id)
        self.swaps = CameraSwaps(store, game_id, self.filer.went_on)
        self.waiting = WaitingTricks(store, game_id, self.filer, self.swaps)

    @property
    def pending(self) -> deque[Waiting]:
        """Tricks to record (their ``record_trick`` arguments) and swaps to apply, in order."""
        return self.waiting.pending

    @property
    def recorded(self) -> int:
        """How many of the camera's tricks this recorder wrote into the store."""
        return self.waiting.recorded

    @property
    def model_version(self) -> str:
        """The recognizer's version, recorded with each trick; ``skullcam run`` sets it anew
        when a newly enrolled model takes over mid-game, for the tricks after."""
        return self.images.model_version

    @model_version.setter
    def model_version(self, version: str) -> None:
        self.images.model_version = version

    def on_live(self, plays: list[dict[str, Any]], leader: int | None, frame: Frame) -> None:
        if not self.flush():  # the trick numbering would be stale: redraw once they are in
            return
        round_number, next_trick = self.store.round_in_play(self.game_id)
        winner = live_winner(plays, dict(self.store.game(self.game_id).settings))
        try:
            with self.store.waiting_at_most(self.WAIT_S):
                self.store.set_live(
                    self.game_id,
                    round_number,
                    next_trick,
                    plays,
                    winner=winner,
                    leader=leader,
                )
        except UserError as err:  # e.g. two cards in one seat zone: the live view just waits
            logger.debug("live trick not published: %s", err)
        except sqlite3.Error as err:  # busy or full: the live view is redrawn on the next card
            if not is_busy(err):
                logger.warning("live trick not published: %s", err)
            elif self.waiting.time_to_warn("live"):
                logger.warning("live trick not published: the game database is in use (%s)", err)

    def on_trick(self, outcome: TrickOutcome, frame: Frame, detections: list[Detection]) -> None:
        """Record one trick; a full disk or a failing database stops the loop with a UserError.

        Stopping, not skipping: the referee has already counted the trick, so going on would
        leave a hole in the store that every later trick steps around. The store's one
        transaction means nothing is half-written, and a restart resumes from what is there.
        A database held by another program is not a failure: the trick waits its turn. The
        pictures' names are read from the store (:meth:`TrickImages.names`): a damaged database
        stops the loop there as it would at the trick's write.
        """
        try:
            record = self.images.write(outcome, frame, detections)
        except (OSError, sqlite3.Error) as err:
            raise not_recorded(self.store, outcome, err) from err
        self.waiting.add((outcome, record))
        self.flush()

    def on_amended(
        self,
        outcome: TrickOutcome,
        frame: Frame,
        detections: list[Detection],
        index: int,
        before: str,
    ) -> None:
        """Correct the recorded trick as the table now has it (after the trick itself, if that
        still waits for the database). Its images stay those of its completion: the swap is in
        the trick's history, with what was replaced."""
        self.waiting.add((outcome, Swap(index, before)))
        self.flush()

    def flush(self, wait_s: float | None = None) -> bool:
        """Write the waiting tricks and swaps in order (:meth:`WaitingTricks.flush`), each
        attempt waiting :attr:`WAIT_S` unless told; False while the database is held."""
        return self.waiting.flush(self.WAIT_S if wait_s is None else wait_s)

    def take_kept(self, stop: threading.Event | None = None) -> None:
        """Record first what an earlier run left waiting for a busy database
        (:meth:`WaitingTricks.take_kept`); without ``stop``, giving up as :meth:`close` does."""
        self.waiting.take_kept(stop, self.CLOSE_WAIT_S)

    def load_kept(self) -> bool:
        """Put what an earlier run kept into :attr:`pending` without writing it
        (:meth:`WaitingTricks.load_kept`); whether any of it waits."""
        return self.waiting.load_kept()

    def drop_kept_if_in(self) -> bool:
        """Remove what an earlier run kept where all of it is recorded already; whether it
        did (:meth:`WaitingTricks.drop_kept_if_in`)."""
        return self.waiting.drop_kept_if_in()

    def close(self, wait_s: float | None = None, since: float | None = None) -> None:
        """Write what still waits before the run ends, for at most ``wait_s`` (default
        :attr:`CLOSE_WAIT_S`) from ``since`` (now when not told); say plainly what could not
        be (:meth:`WaitingTricks.close`)."""
        self.waiting.close(self.CLOSE_WAIT_S if wait_s is None else wait_s, since)

    def recorded_game(self) -> Referee | None:
        """The game as the store records it, once a swap the camera saw went in otherwise
        than it amended the camera's referee (a trick the table entered by hand keeps the
        card typed; a card corrected meanwhile keeps the correction), or a trick the referee
        moved to a round's first place stayed where it was (:attr:`TrickFiler.refile_refused`),
        and nothing else waits
        to be written; None otherwise, or while the database cannot be read (asked again on
        the next frame). Given once: the pipeline takes it as its referee."""
        differs = self.swaps.record_differs or self.filer.refile_refused
        if not differs or self.pending:
            return None
        try:
            recorded = referee_from_store(self.store, self.game_id)
        except sqlite3.Error as err:
            logger.debug("the game as recorded was not read: %s", err)
            return None
        self.swaps.record_differs = self.filer.refile_refused = False
        return recorded
