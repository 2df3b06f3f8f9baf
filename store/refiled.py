"""Moving back a trick the camera moved to a round's first place, when the table says no.

The camera moves a trick it filed as a round's last to the next round's first place when the
trick after it shows that it was that round's first (``GameStore.record_trick``'s
``refile_before``; ``Referee.follows_a_lost_first_trick``), and leaves its old place for the
table to enter the trick it lost. A table that played a round's first trick out of turn after
a doubted round can be taken for that; the trick's page then offers to move it back, as a
trick entered by hand can be taken back: the camera's move is undone, audited, and the camera
follows it (the event counts as a change by the table).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import pairwise

from skullcam.rules import face_of
from skullcam.rules.table import LED_UNEXPECTEDLY, already_played

from . import lead_doubt, repeat_doubt, trick_moves
from .corrections import raise_flag
from .events import emit
from .hand_removal import HandRemovalMixin
from .refusals import refusal
from .rosie_lead import follow_rosies_lead
from .rows import Game, Place, Trick, correction_from_row, select_rows
from .tricks import REFILED

MOVED_BACK = "moved back by the table: the camera had moved it to the next round's first place"
"""The note on the 'moved' entry of a trick :meth:`RefiledMixin.move_back_refiled` moves."""
FOLLOWED_BACK = (
    "moved back a place by the table: the camera had filed it a place late, taking the round"
    " before's last trick for this round's first"
)
"""The note on the 'moved' entry of a trick of the round that follows the moved one back a
place (:meth:`RefiledMixin.move_back_refiled`)."""


class RefiledMixin(HandRemovalMixin):
    """The camera's moves of a trick to a round's first place, and undoing one."""

    def refiled_from(self, game_id: int, trick: Trick) -> Place | None:
        """The place the camera moved ``trick`` from (:data:`~skullcam.store.tricks.REFILED`)
        where it can go back there: that move is the trick's last, and the place is free.
        None otherwise (the page offers no move back)."""
        rows = select_rows(self._conn(), "corrections", "id", game_id=game_id, trick_id=trick.id)
        moves = [c for c in map(correction_from_row, rows) if c.kind == "moved"]
        if not moves or moves[-1].note != REFILED:
            return None
        before, after = moves[-1].before, moves[-1].after
        if (after["round"], after["trick"]) != (trick.round, trick.trick):
            return None
        place = (int(before["round"]), int(before["trick"]))
        taken = any(t.trick == place[1] for t in self.tricks(game_id, place[0]))
        return None if taken else place

    def move_back_refiled(
        self, game_id: int, round_number: int, trick_index: int
    ) -> dict[str, int]:
        """Move the trick at ``round_number``'s ``trick_index`` back where the camera filed
        it (:meth:`refiled_from`), and the tricks after it, up to the game's first free
        place, each a place back with it, over a round's end too: the camera filed them a
        place late, taking it for the round's first. Left a place late, the round's first
        place had no trick to enter, and its last trick held the next round's first place
        (or found none, the game over). Returns ``{"round", "trick"}``, where it went.
        Refused where the camera did not move it, where that place holds a trick again, in
        the demo's game and in one another game replaced."""
        with self._write() as conn:
            game = self.game(game_id)
            self._refuse_hand_tricks_off_the_table(game)
            trick = self.trick(game_id, round_number, trick_index)
            place = self.refiled_from(game_id, trick)
            if place is None:
                raise refusal("move_back_none", round=round_number, trick=trick_index + 1)
            here = (round_number, trick_index)
            ids = {(t.round, t.trick): t.id for t in self.tricks(game_id)}
            after = _a_place_back(game, ids, here, self.rounds_due(game_id))
            trick_moves.move_tricks(conn, game, [(here, place), *after])
            trick_moves.audit_moves(conn, game, [(here, place)], {here: trick.id}, MOVED_BACK)
            trick_moves.audit_moves(conn, game, after, ids, FOLLOWED_BACK)
            places = [place, *(new for _, new in after)]
            self._settle_moved(conn, game, places)
            for moved in places:
                _doubt_again(
                    conn, game, self.trick(game_id, *moved), self.tricks(game_id, moved[0])
                )
            follow_rosies_lead(conn, game, round_number, trick_index)
            _tell(conn, game, trick, here, place)
        return {"round": place[0], "trick": place[1]}


def _a_place_back(
    game: Game, taken: Iterable[Place], here: Place, rounds: int
) -> list[trick_moves.Move]:
    """The moves that take the tricks after ``here``, up to the game's first free place (up
    to the end of round ``rounds``), each a place back, the first first (each lands on the
    place the one before left). Over a round's end too: the camera, a place late, filed the
    round's last trick as the next round's first, and so on, as the moves of an insert
    (:func:`trick_moves.moves_to_free`) cross round ends because the misfiling does."""
    places = set(taken)
    after = trick_moves.places_from(game, here, rounds)
    moves: list[trick_moves.Move] = []
    for new, old in pairwise(after):
        if old not in places:
            break
        moves.append((old, new))
    return moves


def _doubt_again(
    conn: sqlite3.Connection, game: Game, trick: Trick, round_tricks: Sequence[Trick]
) -> None:
    """The doubts ``trick``'s place gives it, moved back there, raised again and asked about:
    a card an earlier trick of its round holds, a lead by another player than the rules'
    leader (``round_tricks``: its round's tricks as recorded now). The camera's move had
    settled them at the place it moved the trick to; left settled, the score stopped on the
    repeated card with nothing on the page asking why."""
    earlier = repeat_doubt.played_before(trick, round_tricks)
    cards = [str(p["card"]) for p in trick.plays]
    doubts = [already_played(card) for card in cards if face_of(card) in earlier]
    lead = lead_doubt.doubt_here(conn, game, trick, round_tricks)
    doubted = any(LED_UNEXPECTEDLY.fullmatch(flag) for flag in trick.flags)
    if lead is not None and not doubted:
        doubts.append(lead)
    for doubt in doubts:
        if doubt not in trick.flags:
            raise_flag(conn, trick, doubt)
            trick = replace(trick, flags=[*trick.flags, doubt])


def _tell(conn: sqlite3.Connection, game: Game, trick: Trick, here: Place, place: Place) -> None:
    """The pages reload, and a camera following the game takes it up from the store again
    (``moved_back``: a change by the table)."""
    event = {"round": here[0], "trick": here[1], "trick_id": trick.id, "moved_back": list(place)}
    emit(conn, game.id, "correction", event)
