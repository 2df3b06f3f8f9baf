"""Taking back a trick entered by hand: the table's undo for a slip.

A trick entered in the wrong place (the missed trick inserted before the wrong one, moving a
whole run of tricks over a round's end) or entered when the camera had not missed it at all
could only be corrected card by card, trick after trick. Only a trick entered by hand can be
taken back, and its cards stay in the game's history. Its place is free again; the tricks its
insertion moved go back where they were, as long as none has moved since (another insert,
another removal).

An entry the camera completed a moment later carries the camera's picture and reading
(``camera_reading.py``). Taking the typed entry back leaves the camera's trick in its place:
it is what the camera saw there, and the camera, past it, would never record it again, so the
table would have had to type it in a second time. Where the place is not free (tricks the
entry moved came back into it) the reading goes with the entry: its cards in the history, and
its pictures deleted once no trick refers to them (they stayed until a later camera trick at
that place overwrote them, or for good).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import checks, trick_moves, verdicts
from .abilities import AnsweredChoice, answered_choice, carry_choice
from .audit import write_audit
from .camera_reading import camera_copy
from .corrections import raise_flag
from .events import emit
from .games import played_out, reopen
from .hand_entry import HandEntryMixin
from .prompts import check_ask, close_prompt, insert_prompt, open_questions
from .refusals import refusal
from .rosie_lead import ask_and_follow, follow_rosies_lead
from .rows import Game, Trick, dump_json, trick_row
from .trick_moves import Move

logger = logging.getLogger(__name__)


def _moves_back(trick: Trick, recorded: Mapping[int, tuple[int, int]]) -> list[Move] | None:
    """The moves that take the tricks ``trick``'s insertion moved back, the first place
    first (each lands on the place the one before it left); None where any of them is no
    longer where the insertion put it (``recorded``: every trick's place by id)."""
    back: list[Move] = []
    moved = trick.source_info.get("moved", [])
    for move in reversed(moved):  # stored last first, as moves_to_free gives them
        now = (int(move["to"][0]), int(move["to"][1]))
        if recorded.get(int(move["id"])) != now:
            return None
        back.append((now, (int(move["from"][0]), int(move["from"][1]))))
    return back


class HandRemovalMixin(HandEntryMixin):
    """Removing a trick entered by hand."""

    def remove_hand_trick(
        self, game_id: int, round_number: int, trick_index: int, note: str = ""
    ) -> dict[str, Any]:
        """Remove trick ``trick_index`` of ``round_number``, entered by hand, and move back
        the tricks its insertion moved. Returns ``{"round", "trick", "plays", "moved_back",
        "camera_kept"}``: ``camera_kept``, the camera's copy of the trick, kept with the entry,
        now holds its place (:meth:`_camera_reading_stands`).

        Refused for a camera's trick (correct its cards instead: its picture is the
        evidence), in the demo's game, and where a trick the insertion moved has moved
        since. Audited as 'removed' with its cards (and the camera's, ``camera_plays``; the
        trick's own entries go with it); its open questions close; a game it finished is
        open again."""
        note = checks.check_note(note)
        with self._write() as conn:
            game = self.game(game_id)
            self._refuse_hand_tricks_off_the_table(game)
            trick = self.trick(game_id, round_number, trick_index)
            where = {"round": round_number, "trick": trick_index + 1}
            if not trick.by_hand:
                raise refusal("remove_camera_trick", **where)
            tricks = self.tricks(game_id)
            back = _moves_back(trick, {t.id: (t.round, t.trick) for t in tricks})
            if back is None:
                raise refusal("remove_moved_since", **where)
            rounds = self.rounds_due(game_id)
            was_out = played_out(conn, game, rounds)
            answered = answered_choice(conn, game_id, trick)  # read before it is dropped
            self._drop_trick(conn, game, trick)
            trick_moves.move_tricks(conn, game, back)
            ids = {(t.round, t.trick): t.id for t in tricks}
            entered = f"round {round_number} trick {trick_index + 1}"
            why = f"moved back: the trick entered by hand as {entered} was taken back"
            trick_moves.audit_moves(conn, game, back, ids, why)
            self._settle_moved(conn, game, [b for _, b in back])
            self._restore_doubts(conn, game, trick)
            kept = self._camera_reading_stands(conn, game, trick, answered)
            # Its place may be free now: a Rosie choice read from its lead goes.
            follow_rosies_lead(conn, game, round_number, trick_index)
            plays = [{"player": p["player"], "card": p["card"]} for p in trick.plays]
            removed = {"round": round_number, "trick": trick_index, "plays": plays}
            outcome = {"moved_back": len(back), "camera_kept": kept}
            # When it was entered: the game's history places its earlier entries with it.
            before = {**removed, **_camera_plays(trick), "recorded_at": trick.recorded_at}
            write_audit(conn, game_id, None, "removed", before, outcome, note)
            # After the removal's entry: the history says the game stood without the trick.
            if game.status == "finished" and was_out and not played_out(conn, game, rounds):
                reopen(conn, game, rounds, "removed")
            # A correction to the pages: the TV drops the trick's banner, the lists reload.
            event = {"round": round_number, "trick": trick_index, "trick_id": trick.id}
            emit(conn, game_id, "correction", {**event, "removed": True})
        self._delete_unused_images(trick)
        return {**removed, **outcome}

    def _camera_reading_stands(
        self,
        conn: sqlite3.Connection,
        game: Game,
        trick: Trick,
        answered: AnsweredChoice | None = None,
    ) -> bool:
        """Record the camera's copy kept with the entry ``trick`` (just removed) in its place,
        as the camera gave it: its cards, pictures, detections and model, its doubts (a
        doubtful Tigress, a card read with low confidence, a swap it saw before the pickup)
        asked as they would have been had the camera recorded it (they stood for nothing
        while the table's cards did), and its winning pirate's choice: the one the table
        ``answered`` on the entry carried over where the same player wins with the same
        pirate (:func:`~.abilities.carry_choice`), asked afresh otherwise. Whether it did: not
        where the entry has none, nor where the place is taken again (a trick the entry's
        insertion moved came back into it)."""
        copy = camera_copy(trick)
        if copy is None or trick_row(conn, game.id, trick.round, trick.trick) is not None:
            return False
        plays = checks.check_plays(copy.plays, len(game.players), partial=True)
        resolution = verdicts.resolve(plays, game.settings, game.players)
        columns = {
            "completion_image": trick.completion_image,
            "annotated_image": trick.annotated_image,
            "detections": dump_json(copy.detections),
            "model_version": trick.model_version,
        }
        place = (trick.round, trick.trick)
        self._record_in(conn, game, *place, plays, resolution, columns, copy.flags)
        for kind, player, payload in copy.asks:
            check_ask(kind, player, len(game.players))
            insert_prompt(conn, game.id, kind, *place, player, payload)
        stands = self.trick(game.id, *place)
        carry_choice(conn, game, answered, stands)
        ask_and_follow(conn, game, stands)
        return True

    def _delete_unused_images(self, trick: Trick) -> None:
        """Delete the pictures of the removed ``trick`` (the camera's, kept with the entry)
        that no trick refers to now, the camera's trick put in its place included; only
        those in the data folder, which the camera wrote. A file that cannot be deleted is
        said in the log: the trick is removed all the same."""
        for stored in {trick.completion_image, trick.annotated_image} - {None}:
            path = self.image_path(stored)
            if path is None or Path(str(stored)).is_absolute() or self.image_in_use(path):
                continue
            try:
                path.unlink(missing_ok=True)
            except OSError as err:
                logger.warning("the picture %s of a trick taken back stays: %s", path, err)

    def _drop_trick(self, conn: sqlite3.Connection, game: Game, trick: Trick) -> None:
        """Delete the trick with its questions (closed first, so the phones stop asking) and
        the pirate's choice it held."""
        for prompt in open_questions(conn, game.id, trick.round, trick.trick):
            close_prompt(conn, prompt, "dismissed", None)
        conn.execute(
            "DELETE FROM prompts WHERE game_id = ? AND round = ? AND trick = ?",
            (game.id, trick.round, trick.trick),
        )
        trick_moves.drop_abilities(conn, game, (trick.round, trick.trick))
        conn.execute("DELETE FROM tricks WHERE id = ?", (trick.id,))

    def _restore_doubts(self, conn: sqlite3.Connection, game: Game, trick: Trick) -> None:
        """The doubts the insertion dropped from the tricks it moved ("led, but the game
        expected", "already played this round") come back with them, and the phones ask
        about them again: they were the way to the missed trick's place."""
        for move in trick.source_info.get("moved", []):
            for flag in move.get("flags", []):
                back = self.trick(game.id, int(move["from"][0]), int(move["from"][1]))
                if flag not in back.flags:  # read again: raising one writes the trick's flags
                    raise_flag(conn, back, flag)


def _camera_plays(trick: Trick) -> dict[str, Any]:
    """``{"camera_plays": [{player, card}]}``: the cards the camera read in a trick entered
    by hand, for the history of its removal; empty where it has no camera's copy."""
    copy = camera_copy(trick)
    if copy is None:
        return {}
    return {"camera_plays": [{"player": p["player"], "card": p["card"]} for p in copy.plays]}
