"""Taking back a trick entered by hand: the table's undo for a slip.

A trick entered in the wrong place (the missed trick inserted before the wrong one, moving a
whole run of tricks over a round's end) or entered when the camera had not missed it at all
could only be corrected card by card, trick after trick. Only a trick entered by hand can be
taken back: it has no picture to lose, and its cards stay in the game's history. Its place
is free again; the tricks its insertion moved go back where they were, as long as none has
moved since (another insert, another removal).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from . import checks, trick_moves
from .audit import write_audit
from .corrections import raise_flag
from .events import emit
from .games import played_out, reopen
from .hand_entry import HandEntryMixin
from .prompts import close_prompt, open_questions
from .refusals import refusal
from .rows import Game, Trick
from .trick_moves import Move


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
        the tricks its insertion moved. Returns ``{"round", "trick", "plays", "moved_back"}``.

        Refused for a camera's trick (correct its cards instead: its picture is the
        evidence), in the demo's game, and where a trick the insertion moved has moved
        since. Audited as 'removed' with its cards (the trick's own entries go with it); its
        open questions close; a game it finished is open again."""
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
            self._drop_trick(conn, game, trick)
            trick_moves.move_tricks(conn, game, back)
            ids = {(t.round, t.trick): t.id for t in tricks}
            entered = f"round {round_number} trick {trick_index + 1}"
            why = f"moved back: the trick entered by hand as {entered} was taken back"
            trick_moves.audit_moves(conn, game, back, ids, why)
            self._settle_moved(conn, game, [b for _, b in back])
            self._restore_doubts(conn, game, trick)
            if game.status == "finished" and was_out and not played_out(conn, game, rounds):
                reopen(conn, game, rounds)
            plays = [{"player": p["player"], "card": p["card"]} for p in trick.plays]
            removed = {"round": round_number, "trick": trick_index, "plays": plays}
            write_audit(conn, game_id, None, "removed", removed, {"moved_back": len(back)}, note)
            # A correction to the pages: the TV drops the trick's banner, the lists reload.
            event = {"round": round_number, "trick": trick_index, "trick_id": trick.id}
            emit(conn, game_id, "correction", {**event, "removed": True})
        return {**removed, "moved_back": len(back)}

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
        """The "led, but the game expected" doubts the insertion dropped from the tricks it
        moved come back with them, and the phones ask about them again: they were the way
        to the missed trick's place."""
        for move in trick.source_info.get("moved", []):
            for flag in move.get("flags", []):
                back = self.trick(game.id, int(move["from"][0]), int(move["from"][1]))
                if flag not in back.flags:  # read again: raising one writes the trick's flags
                    raise_flag(conn, back, flag)
