"""Corrections of a recorded trick: a misread card or seat, a Tigress re-declared, a flagged
trick confirmed. Each is audited, and the camera's ``original_plays`` are never touched.

A correction is planned (checked, read-only) and then applied, both inside one write
transaction: what the plan read is then exactly what it replaces, so two pages correcting one
trick at once both land, one after the other, instead of the later undoing the earlier.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from skullcam.errors import UserError, echo

from . import checks, verdicts
from .abilities import (
    ABILITY_KIND,
    dismiss_questions_not_won,
    drop_abilities_not_won,
    stored_abilities,
)
from .audit import write_audit
from .events import emit
from .prompts import insert_prompt
from .rows import Trick, dump_json
from .tricks import TricksMixin


@dataclass(frozen=True)
class CorrectionPlan:
    """A checked change to one play of a trick, ready to write."""

    game_id: int
    round: int
    trick: int
    trick_id: int
    play: int
    plays: list[dict[str, Any]]
    #: The trick resolved with the corrected plays, and its winning card before.
    resolution: dict[str, Any]
    winning_before: Any
    #: ``(kind, before, after)`` per change: 'card', 'tigress' or 'player'.
    changes: list[tuple[str, Any, Any]]


def _check_play_index(play_index: Any, last: int) -> None:
    if isinstance(play_index, bool) or not isinstance(play_index, int):
        raise UserError(f"play must be a number 0..{last}, got {echo(play_index)}")
    if not 0 <= play_index <= last:
        raise UserError(f"play must be 0..{last}, got {echo(play_index)}")


def _change_card(
    plays: list[dict[str, Any]], play_index: int, card: str
) -> list[tuple[str, Any, Any]]:
    """Put ``card`` in the play (in place); the change made, if any."""
    new_card = checks.parse_card_id(card)
    if new_card == "tigress":
        # An undeclared Tigress cannot be judged: the score would stop at this trick.
        raise UserError("say how the Tigress was played: choose tigress:pirate or tigress:escape")
    was = str(plays[play_index]["card"])
    if new_card == was:
        return []
    plays[play_index]["card"] = new_card
    plays[play_index]["confidence"] = None
    both_tigress = new_card.startswith("tigress") and was.startswith("tigress")
    return [("tigress" if both_tigress else "card", was, new_card)]


def _change_player(
    plays: list[dict[str, Any]], play_index: int, player: int, n: int
) -> list[tuple[str, Any, Any]]:
    """Give the play to ``player`` (in place), swapping seats with whichever play had that
    player, so the trick still has one card per player; the change made, if any."""
    checks.check_player(player, n)
    current = plays[play_index]["player"]
    if player == current:
        return []
    for other in plays:
        if other["player"] == player:
            other["player"] = current
    plays[play_index]["player"] = player
    return [("player", current, player)]


class CorrectionsMixin(TricksMixin):
    """Changing a recorded trick after the fact (the replay page, and answered prompts)."""

    def correct_play(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        play_index: int,
        *,
        card: str | None = None,
        player: int | None = None,
        note: str = "",
    ) -> Trick:
        """Change one play's card and/or player; re-resolves the trick, keeps the original.

        A player change swaps seats with whichever play had that player, so the trick still
        has one card per player. Unknown cards and players raise UserError. The trick is
        read and changed in one write transaction, so two pages correcting the same trick at
        once both land (one after the other) instead of the later undoing the earlier.
        """
        plan = partial(
            self._plan_correction,
            game_id,
            round_number,
            trick_index,
            play_index,
            card=card,
            player=player,
        )
        return self._correct(game_id, round_number, trick_index, plan, note)

    def _correct(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plan: Callable[[], CorrectionPlan | None],
        note: str,
    ) -> Trick:
        """Plan and apply a correction in one write transaction (see the module's docstring);
        returns the trick as it is now."""
        note = checks.check_note(note)
        with self._write() as conn:
            planned = plan()
            if planned is not None:
                self._apply_correction(conn, planned, note)
        return self.trick(game_id, round_number, trick_index)

    def _plan_correction(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        play_index: int,
        *,
        card: str | None = None,
        player: int | None = None,
    ) -> CorrectionPlan | None:
        """Validate a correction (reads only); None when it changes nothing.

        Call it inside :meth:`_write`: what it reads must be what the correction replaces.
        """
        game = self.game(game_id)
        old = self.trick(game_id, round_number, trick_index)
        n = len(game.players)
        _check_play_index(play_index, len(old.plays) - 1)
        plays = [dict(p) for p in old.plays]
        changes: list[tuple[str, Any, Any]] = []
        if card is not None:
            changes += _change_card(plays, play_index, card)
        if player is not None:
            changes += _change_player(plays, play_index, player, n)
        if not changes:
            return None
        clean = checks.check_plays(plays, n)
        return CorrectionPlan(
            game_id=game_id,
            round=round_number,
            trick=trick_index,
            trick_id=old.id,
            play=play_index,
            plays=clean,
            resolution=verdicts.resolve(clean, game.settings, game.players),
            winning_before=verdicts.resolve(old.plays, game.settings).get("winning_card"),
            changes=changes,
        )

    def _apply_correction(self, conn: sqlite3.Connection, plan: CorrectionPlan, note: str) -> None:
        conn.execute(
            "UPDATE tricks SET plays = ?, resolution = ? WHERE id = ?",
            (dump_json(plan.plays), dump_json(plan.resolution), plan.trick_id),
        )
        for kind, before, after in plan.changes:
            before_json = {"play": plan.play, "value": before}
            after_json = {"play": plan.play, "value": after}
            write_audit(conn, plan.game_id, plan.trick_id, kind, before_json, after_json, note)
        dropped = self._reconcile_abilities(conn, plan)
        payload: dict[str, Any] = {
            "round": plan.round,
            "trick": plan.trick,
            "trick_id": plan.trick_id,
            "play": plan.play,
            "changes": [{"kind": k, "before": b, "after": a} for k, b, a in plan.changes],
        }
        if dropped:
            payload["abilities_dropped"] = dropped
        emit(conn, plan.game_id, "correction", payload)

    def _reconcile_abilities(
        self, conn: sqlite3.Connection, plan: CorrectionPlan
    ) -> list[dict[str, Any]]:
        """Make a corrected trick's pirate abilities follow its new winner; returns those dropped.

        A choice recorded for a pirate that no longer wins the trick (Rosie's next leader, say)
        would make the whole game unscoreable, with no way left to remove it; so it is dropped
        (kept in the audit trail), an open question about it is closed, and when the
        correction made a pirate with an ability the winner (setting on), the table is asked.
        Runs whatever the setting, since abilities stay stored while it is off.
        """
        game = self.game(plan.game_id)
        r, t = plan.round, plan.trick
        winning = plan.resolution.get("winning_card")
        dropped = drop_abilities_not_won(conn, game.id, r, t, plan.trick_id, winning)
        asked = dismiss_questions_not_won(conn, game.id, r, t, winning)
        kind = ABILITY_KIND.get(str(winning))
        recorded = any(
            a["trick"] == t and a["pirate"] == winning for a in stored_abilities(conn, game.id, r)
        )
        on = bool(checks.full_settings(game.settings)["pirate_abilities"])
        changed = winning != plan.winning_before  # a question declined is not re-asked
        if kind is not None and on and changed and not recorded and kind not in asked:
            winner = verdicts.winner_player(plan.plays, plan.resolution)
            insert_prompt(conn, game.id, kind, r, t, winner, {})
        return dropped

    def _plan_tigress(
        self, game_id: int, round_number: int, trick_index: int, as_: Any
    ) -> CorrectionPlan | None:
        """The correction that re-declares the trick's Tigress (a card change, audited as
        'tigress')."""
        if as_ is None:
            raise UserError("say how the Tigress was played: 'pirate' or 'escape'")
        if as_ not in ("pirate", "escape"):
            raise UserError(f"the Tigress is played as 'pirate' or 'escape', not {echo(as_)}")
        old = self.trick(game_id, round_number, trick_index)
        for i, play in enumerate(old.plays):
            if str(play["card"]).startswith("tigress"):
                return self._plan_correction(
                    game_id, round_number, trick_index, i, card=f"tigress:{as_}"
                )
        raise UserError(
            f"round {round_number} trick {trick_index} has no Tigress; correct the card instead"
        )

    def redeclare_tigress(
        self, game_id: int, round_number: int, trick_index: int, as_: str, note: str = ""
    ) -> Trick:
        """Re-declare the trick's Tigress as ``'pirate'`` or ``'escape'`` (audited)."""
        plan = partial(self._plan_tigress, game_id, round_number, trick_index, as_)
        return self._correct(game_id, round_number, trick_index, plan, note)

    def confirm_trick(
        self, game_id: int, round_number: int, trick_index: int, note: str = ""
    ) -> None:
        """The table confirms a flagged trick as recorded: clears its flags (audited)."""
        note = checks.check_note(note)
        with self._write() as conn:
            confirm_as_recorded(conn, self.trick(game_id, round_number, trick_index), note)


def confirm_as_recorded(conn: sqlite3.Connection, trick: Trick, note: str) -> None:
    """Clear a flagged trick's flags: the table says the camera read it right."""
    conn.execute("UPDATE tricks SET flags = '[]' WHERE id = ?", (trick.id,))
    write_audit(conn, trick.game_id, trick.id, "confirm", trick.flags, [], note)
    confirmed = {
        "round": trick.round,
        "trick": trick.trick,
        "trick_id": trick.id,
        "confirmed": True,
    }
    emit(conn, trick.game_id, "correction", confirmed)
