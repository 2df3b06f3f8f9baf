"""Where a camera's trick goes in the store, beside the tricks the table entered by hand.

The camera learns of the table's changes once a second, and its tricks may wait for a held
database, so the place its referee gave a trick may have changed meanwhile: the table entered
that trick by hand, inserted a missed trick before it, or took such an insert back. Each case
has its own method below, each saying what went wrong for the table without it.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from skullcam.device.referee import TrickOutcome, is_ability_ask
from skullcam.rules.table import is_tigress_doubt
from skullcam.store import GameStore
from skullcam.store.camera_reading import shares_a_card
from skullcam.store.prompts import Ask
from skullcam.store.tricks import AlreadyRecorded

# The recorder's name, not this module's: these are the recorder's lines (``skullcam run``
# prints the name on each), and a level set for the recorder's log covers them.
logger = logging.getLogger("skullcam.device.recorder")

#: What of a camera's trick :meth:`GameStore.keep_camera_reading` keeps beside a hand entry.
_READING = ("completion_image", "annotated_image", "detections", "model_version", "flags")


class TrickFiler:
    """Records a completed trick of the camera's at the place the table's changes left it."""

    def __init__(self, store: GameStore, game_id: int) -> None:
        self.store = store
        self.game_id = game_id
        self.went_on: dict[tuple[int, int], tuple[int, int]] = {}
        """The place this recorder's referee gave each trick that went in a place on
        (:meth:`_record_moved_on`) or back (:meth:`_record_moved_back`), and the place it went
        in at: a swap on it goes there. A
        trick numbered by this referee only, so it lives as long as the recorder; another
        run finds the trick from the audit trail (:meth:`CameraSwaps._swapped_trick`)."""
        self.refile_refused = False
        """A trick the referee moved to a round's first place stayed where it was in the
        store (the table changed those places meanwhile: ``GameStore._refile``): the camera
        takes the game up from the store (``StoreRecorder.recorded_game``)."""

    def record(self, outcome: TrickOutcome, record: dict[str, Any]) -> None:
        """Record a completed trick. Where the table entered it by hand a moment before (the
        camera learns of hand entries once a second), the entry stands and the camera's
        picture and reading go with it, a card read otherwise asked about
        (:meth:`_kept_with_an_entry`): they were dropped with a line in the log, and nobody
        at the table learned that the camera saw other cards. Where a missed trick inserted
        meanwhile moved a trick into its place, it goes a place on (:meth:`_record_moved_on`),
        first: an entry moved there is the table's copy of the trick before it, and was
        asked about the camera's cards as if they were its own, the trick lost. Where the
        table took such an insert back a moment before, it goes a place back
        (:meth:`_record_moved_back`)."""
        self._file(outcome, record)
        self.refile_refused |= self._refile_refused(outcome)

    def _file(self, outcome: TrickOutcome, record: dict[str, Any]) -> None:
        """:meth:`record`, each case in turn."""
        place = (outcome.round, outcome.trick)
        asks = self._asks(outcome)
        if self._record_moved_back(place, record, asks):
            return
        try:
            self.store.record_trick(self.game_id, *place, **record, asks=asks)
        except AlreadyRecorded:
            if self._record_moved_on(place, record, asks):
                return
            if self._record_after_another(place, record, asks):
                return
            if not self._kept_with_an_entry(place, record, asks):
                raise

    def _refile_refused(self, outcome: TrickOutcome) -> bool:
        """Whether the trick the referee moved before ``outcome`` (:attr:`TrickOutcome.
        refiled_before`) is still at its old place in the store, just recorded; True where
        the store cannot be read, since taking the game up from the store is right either way."""
        if outcome.refiled_before is None:
            return False
        r, t = outcome.refiled_before
        try:
            return any(trick.trick == t for trick in self.store.tricks(self.game_id, r))
        except sqlite3.Error:
            return True

    def _kept_with_an_entry(
        self, place: tuple[int, int], record: dict[str, Any], asks: list[Ask]
    ) -> bool:
        """Keep the camera's picture and reading with the trick the table entered by hand
        at ``place`` (:meth:`~skullcam.store.GameStore.keep_camera_reading`); False where
        no entry is there."""
        reading = {k: record[k] for k in _READING}
        doubts = self.store.keep_camera_reading(
            self.game_id, *place, record["plays"], **reading, asks=asks
        )
        if doubts is None:
            return False
        said = f"; the table is asked: {'; '.join(doubts)}" if doubts else ""
        logger.info(
            "round %d trick %d was entered by hand meanwhile: the camera's picture is kept "
            "with it%s",
            place[0],
            place[1] + 1,
            said,
        )
        return True

    def _record_moved_on(
        self, place: tuple[int, int], record: dict[str, Any], asks: list[Ask]
    ) -> bool:
        """Record a waiting trick refused at ``place`` where a missed trick, inserted by hand
        while it waited, moved the camera's trick before it into that place: at the first
        place after it that no camera's trick holds, audited as moved from ``place``
        (``filed_at``), so the later waiting tricks, and the swaps on it, follow it there, in
        this run or the next (:meth:`StoreRecorder.take_kept`); or with the table's entry of it
        there, typed while it waited and moved on by the insert too (it was recorded twice).
        Otherwise it would be refused as already recorded, and lost with an error in the log.
        False where the refusal stands (a recording shown again)."""
        later = self.store.place_after_an_insert(self.game_id, *place)
        if later is None:
            return False
        if not self._kept_with_an_entry(later, record, asks):
            self.store.record_trick(self.game_id, *later, **record, asks=asks, filed_at=place)
        why = "a missed trick was entered by hand before it while it waited for the database"
        return self._went_in(place, later, why)

    def _record_after_another(
        self, place: tuple[int, int], record: dict[str, Any], asks: list[Ask]
    ) -> bool:
        """Record a trick refused at ``place``, where the table entered by hand a moment
        before a trick that holds none of its one-of-a-kind cards and was not led as it was
        (:meth:`GameStore.is_another_trick`), in the place after it: it is another trick,
        the camera a trick behind the table (it missed the one entered, and learns of
        entries once a second). Audited as moved from ``place``
        (``filed_at``); a swap on it follows it. Where the table entered that trick too, its
        reading goes with that entry (:meth:`_kept_with_an_entry`). Kept as the first
        entry's reading instead, its every card was asked about as misread, and the trick
        was lost. False where the reading may be the entry's, or the place after holds a
        camera's trick or none is left: the reading stays with the entry, as before."""
        there = self.store.trick(self.game_id, *place)
        if not there.by_hand or not self.store.is_another_trick(
            self.game_id, there, record["plays"]
        ):
            return False
        later = self.store.place_after(self.game_id, *place)
        if later is None:
            return False
        try:
            self.store.record_trick(self.game_id, *later, **record, asks=asks, filed_at=place)
        except AlreadyRecorded:
            entry = self.store.trick(self.game_id, *later)
            if not entry.by_hand or not shares_a_card(entry.plays, record["plays"]):
                return False
            self._kept_with_an_entry(later, record, asks)
        why = "the table entered another trick by hand at its place"
        return self._went_in(place, later, why)

    def _record_moved_back(
        self, place: tuple[int, int], record: dict[str, Any], asks: list[Ask]
    ) -> bool:
        """Record a trick filed at ``place`` a place back, where the table took back a
        missed trick it had inserted, which the camera had followed (it learns of the
        table's changes once a second), before learning of the take-back: the insert's place
        is no trick's, and the take-back left the place before this one free
        (:meth:`GameStore.place_an_insert_left`). Audited as moved from ``place``
        (``filed_at``), and a swap on it follows it there. Otherwise it went in a place
        late, the place where it was played left for the table to enter again. False where
        the place stands."""
        earlier = self.store.place_an_insert_left(self.game_id, *place)
        if earlier is None:
            return False
        self.store.record_trick(self.game_id, *earlier, **record, asks=asks, filed_at=place)
        why = "the missed trick inserted by hand before it was taken back"
        return self._went_in(place, earlier, why)

    def _went_in(self, place: tuple[int, int], at: tuple[int, int], why: str) -> bool:
        """Note that the trick this recorder's referee filed at ``place`` went in at ``at``
        (a swap on it goes there: :attr:`went_on`), and log ``why``. True: it is recorded."""
        self.went_on[place] = at
        logger.info(
            "round %d trick %d went in as round %d trick %d: %s",
            place[0],
            place[1] + 1,
            at[0],
            at[1] + 1,
            why,
        )
        return True

    @staticmethod
    def _asks(outcome: TrickOutcome) -> list[Ask]:
        """What the table is asked about the trick as it is recorded (in the same
        transaction): a doubtful Tigress, the other flags. The store asks the winning
        pirate's choice itself."""
        asks: list[Ask] = []
        for flag in outcome.flags:
            if is_tigress_doubt(flag):
                player = next((p for p, c in outcome.plays if c.startswith("tigress")), None)
                # The question stands for the doubt: answered, it takes it off the trick.
                asks.append(("tigress", player, {"flag": flag}))
        others = [f for f in outcome.flags if not is_tigress_doubt(f) and not is_ability_ask(f)]
        if others:
            asks.append(("flagged", None, {"flags": others}))
        return asks
