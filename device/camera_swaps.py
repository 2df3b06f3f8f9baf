"""Swaps the camera saw: a card of a completed trick changed before the pickup.

The camera's referee amends its trick at once; the store's copy is amended here, once the trick
is in (it may wait for the database: :class:`~skullcam.device.recorder.StoreRecorder`). The
recorded trick may differ from the camera's by then: entered by hand, corrected, or moved to
another place by a missed trick the table inserted, so each swap finds its trick first.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from skullcam.device.referee import TrickOutcome
from skullcam.device.unrecorded import Swap
from skullcam.errors import UserError
from skullcam.store import GameStore
from skullcam.store.camera_reading import camera_card
from skullcam.store.rows import Trick
from skullcam.vision.trick_state import swap_flag

# The recorder's name, not this module's: these are the recorder's lines (``skullcam run``
# prints the name on each), and a level set for the recorder's log covers them.
logger = logging.getLogger("skullcam.device.recorder")


class CameraSwaps:
    """Applies the camera's swaps to the recorded tricks, and notes where one went into the
    store otherwise than it amended the camera's referee."""

    def __init__(
        self,
        store: GameStore,
        game_id: int,
        went_on: dict[tuple[int, int], tuple[int, int]],
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.players = list(store.game(game_id).players)
        self.went_on = went_on
        """Where the recorder filed a trick at another place than its referee gave it (shared
        with it): a swap on that trick goes there."""
        self.record_differs = False
        """A swap the camera saw went into the store otherwise than it amended the camera's
        referee, or not at all (:meth:`StoreRecorder.recorded_game`)."""

    def apply(self, outcome: TrickOutcome, swap: Swap) -> None:
        """Give the recorded trick the swapped card (audited, like a correction by hand, but
        leaving the phones' "confirm or correct?" about the trick open), flag it and ask the
        table: a card changed after the trick completed may be a slip put right or a
        dispute. Only while that play still holds the card the camera saw replaced: a person
        may have corrected it first. A trick the table entered by hand keeps its cards, and
        is asked about the swap instead (:meth:`_beside_an_entry`). A trick moved on
        since by a missed trick inserted before it takes the swap at its new place."""
        recorded = self._swapped_trick(outcome, swap)
        outcome = replace(outcome, round=recorded.round, trick=recorded.trick)
        player, card = outcome.plays[swap.index]
        if recorded.by_hand:
            self._beside_an_entry(outcome, swap)
            return
        plays = recorded.plays
        if swap.index >= len(plays) or plays[swap.index]["card"] != swap.before:
            self._not_applied(outcome, swap, "the recorded trick was changed meanwhile")
            return
        self.store.correct_play(
            self.game_id,
            outcome.round,
            outcome.trick,
            swap.index,
            card=card,
            note=f"the camera saw {swap.before} swapped for {card} before the pickup",
            by_hand=False,
            flag=swap_flag(self.players[player], swap.before, card),
        )

    def _swapped_trick(self, outcome: TrickOutcome, swap: Swap) -> Trick:
        """The recorded trick ``swap`` is about: the one at ``outcome``'s place where it holds
        the card the camera saw replaced, else one moved off that place meanwhile (the table
        inserted a missed trick at or before it while the swap waited for the database, or
        before it while the trick waited too, and it went in a place on: at the place this
        recorder put it, or per the audit trail where an earlier run did) that holds it
        (:meth:`GameStore.moved_off_holding`), as does one that went in a place on or back
        as it was recorded (:meth:`TrickFiler._record_after_another`,
        :meth:`TrickFiler._record_moved_back`), maybe leaving that place free. Not always
        the one at the place: otherwise the swap meant for the camera's trick moved on a
        place would go to the table's entry there, "not amended", with a line in the log
        only."""
        r, t = self.went_on.get((outcome.round, outcome.trick), (outcome.round, outcome.trick))
        there = self._trick_at(r, t)
        player = outcome.plays[swap.index][0]
        if there is not None and camera_card(there, player) == swap.before:
            return there
        moved = self.store.moved_off_holding(self.game_id, r, t, player, swap.before)
        if moved is None:
            if there is None:
                raise UserError(f"round {r} trick {t + 1} holds no recorded trick")
            return there
        logger.info(
            "round %d trick %d, swapped before the pickup, is now round %d trick %d: it moved "
            "since, as its history says",
            r,
            t + 1,
            moved.round,
            moved.trick + 1,
        )
        return moved

    def _trick_at(self, round_number: int, trick_index: int) -> Trick | None:
        """The recorded trick at a place; None where it holds none."""
        try:
            return self.store.trick(self.game_id, round_number, trick_index)
        except UserError:
            return None

    def _beside_an_entry(self, outcome: TrickOutcome, swap: Swap) -> None:
        """A swap in a trick the table entered by hand (a moment before the camera completed
        it, while the camera's copy waited for the database, or one the camera took up with
        its cards still on the table): the swap corrected the entry's card, the table's
        word, with no question; the entry keeps it and is asked about the swap, and the
        camera's copy kept with it takes the swap (:meth:`GameStore.swap_on_entry`)."""
        player, card = outcome.plays[swap.index]
        doubt = swap_flag(self.players[player], swap.before, card)
        r, t = outcome.round, outcome.trick
        asked = self.store.swap_on_entry(self.game_id, r, t, player, swap.before, card, doubt)
        entry = self.store.trick(self.game_id, r, t)
        self.record_differs |= not any(
            p["player"] == player and p["card"] == card for p in entry.plays
        )
        if asked is None and camera_card(entry, player) == card:
            # Seen again, or replayed by take_kept after it went in: "not amended, that trick
            # was entered by hand" read as if the swap had been lost.
            logger.info("round %d trick %d, entered by hand: %s; taken already", r, t + 1, doubt)
            return
        if asked is None:
            self._not_applied(outcome, swap, "that trick was entered by hand")
            return
        logger.info(
            "round %d trick %d, entered by hand: %s; the table's cards stand%s",
            r,
            t + 1,
            doubt,
            ", and it is asked" if asked else "",
        )

    def _not_applied(self, outcome: TrickOutcome, swap: Swap, why: str) -> None:
        self.record_differs = True
        player, card = outcome.plays[swap.index]
        logger.warning(
            "round %d trick %d: %s's %s swapped for %s, but %s; not amended",
            outcome.round,
            outcome.trick + 1,
            self.players[player],
            swap.before,
            card,
            why,
        )

    def in_already(self, outcome: TrickOutcome, swap: Swap) -> bool:
        """Whether a kept swap went in before the run that kept it stopped: the camera's
        trick at its place holds the card swapped in. Applied again, it would find the card
        it replaces gone and say "the recorded trick was changed meanwhile; not amended" at
        every such restart, though nothing but the swap itself had changed it. A trick the
        table entered by hand is left to :meth:`apply` (the store tells a swap applied before
        there itself)."""
        try:
            there = self.store.trick(self.game_id, outcome.round, outcome.trick)
        except UserError:  # not recorded yet: its kept trick goes in first
            return False
        player, card = outcome.plays[swap.index]
        return not there.by_hand and camera_card(there, player) == card
