"""The table's answer to a prompt, and what it changes in the record.

Kept apart from ``prompts.py`` because applying an answer is a correction (``corrections.py``:
a Tigress re-declared, a flagged trick confirmed) or a pirate's choice (``abilities.py``),
while corrections themselves ask and close questions.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from skullcam.errors import UserError, echo, whole_number

from . import checks, lead_doubt
from .abilities import (
    ABILITY_PIRATE,
    check_ability_applies,
    check_harry_bid,
    choice_kind,
    record_ability,
)
from .corrections import (
    CorrectionsMixin,
    check_confirmable,
    confirm_as_recorded,
    settle_tigress,
)
from .events import emit
from .prompts import PromptsMixin, already_closed, close_prompt, open_questions
from .refusals import refusal
from .rows import Game, Prompt, Trick


def _checked_answer(kind: str, answer: Any, n: int) -> Any:
    """The answer as stored, if it is one the prompt's ``kind`` accepts (``n`` players).

    Rascal's, Harry's and a seat are refused in the reader's language (refusals): a replay
    page left open while another phone gave the trick to another pirate sends the old
    pirate's value. A Tigress's and a flagged trick's stay English: only a program sends
    other words than the pages' buttons do."""
    if kind == "tigress":
        if answer not in ("pirate", "escape"):
            raise UserError("answer the Tigress with 'pirate' or 'escape'")
        return answer
    if kind == "rosie":
        leader = whole_number(answer, "Rosie's next leader")
        checks.check_player(leader, n)
        return leader
    if kind == "rascal_bet":
        bet = whole_number(answer, "Rascal's bet")
        if bet not in (0, 10, 20):
            raise refusal("rascal_bet_value", bet=echo(bet))
        return bet
    if kind == "harry":
        change = whole_number(answer, "Harry's bid change")
        if change not in (-1, 0, 1):
            raise refusal("harry_change_value", change=echo(change))
        return change
    # flagged
    if answer not in ("confirm", "correct"):
        raise UserError("answer a flagged trick with 'confirm' or 'correct'")
    return answer


class AnswersMixin(CorrectionsMixin, PromptsMixin):
    """Answering a prompt from a phone or the TV."""

    def answer_prompt(self, prompt_id: int, answer: Any) -> Prompt:
        """Answer a prompt and apply it: re-declare the Tigress, record a pirate ability's
        choice in the round's ``abilities``, or confirm a flagged trick.

        Read, checked and applied in one write transaction, like a correction."""
        with self._write() as conn:
            prompt = self.prompt(prompt_id)
            if prompt.status != "open":
                raise already_closed(prompt, "prompt_already")
            game = self.game(prompt.game_id)
            value = _checked_answer(prompt.kind, answer, len(game.players))
            with self.settling_rounds(conn, game.id):  # Harry's choice may tie the lead
                self._apply_answer(conn, game, prompt, value)
        return self.prompt(prompt_id)

    def choose_ability(
        self, game_id: int, round_number: int, trick_index: int, choice: Any, note: str = ""
    ) -> Trick:
        """Set or change the choice of the pirate that won a recorded trick (Rosie's next
        leader, Rascal's bet, Harry's bid change): the replay page's way to fix an answer
        given wrong, or to give one never asked (abilities turned on after the game). An
        open question about it is closed as answered; audited as 'choice'."""
        note = checks.check_note(note)
        with self._write() as conn:
            game = self.game(game_id)
            trick = self.trick(game_id, round_number, trick_index)
            kind = choice_kind(game, trick)
            value = _checked_answer(kind, choice, len(game.players))
            if kind == "harry":
                check_harry_bid(conn, game, round_number, trick_index, value)
            for prompt in open_questions(conn, game_id, round_number, trick_index, kind):
                close_prompt(conn, prompt, "answered", value)
            with self.settling_rounds(conn, game_id):
                record_ability(conn, game, round_number, trick_index, kind, value, note)
            self._settle_next_lead(conn, game, round_number, trick_index)
            changed = {"round": round_number, "trick": trick_index, "trick_id": trick.id}
            emit(conn, game_id, "correction", {**changed, "choice": {"kind": kind, "value": value}})
        return self.trick(game_id, round_number, trick_index)

    def _apply_answer(
        self, conn: sqlite3.Connection, game: Game, prompt: Prompt, value: Any
    ) -> None:
        """Apply a checked answer; a question about no recorded trick (``trick`` None) only
        closes, there being nothing in the record to apply it to."""
        kind, note = prompt.kind, f"prompt {prompt.id}"
        if kind in ABILITY_PIRATE and prompt.trick is not None:
            check_ability_applies(conn, game, prompt)
            if kind == "harry":
                check_harry_bid(conn, game, prompt.round, prompt.trick, value)
        if kind == "tigress" and prompt.trick is not None:
            plan = self._plan_tigress(game.id, prompt.round, prompt.trick, value)
            if plan is not None:
                self._apply_correction(conn, plan, note, by_hand=False)
            trick = self.trick(game.id, prompt.round, prompt.trick)
            settle_tigress(conn, trick, value, answering=prompt.id)
        if kind == "flagged" and value == "confirm" and prompt.trick is not None:
            trick = self.trick(game.id, prompt.round, prompt.trick)
            check_confirmable(trick, len(game.players))
            confirm_as_recorded(conn, trick, note, len(game.players), answering=prompt.id)
        close_prompt(conn, prompt, "answered", value)
        if kind in ABILITY_PIRATE and prompt.trick is not None:
            # The same question asked twice (create_prompt beside the store's own) is answered
            # too, as choose_ability answers them: left open, it would mark the answered
            # choice as only read from the lead (abilities.audit_dropped_choice).
            for twin in open_questions(conn, game.id, prompt.round, prompt.trick, kind):
                close_prompt(conn, twin, "answered", value)
            record_ability(conn, game, prompt.round, prompt.trick, kind, value, note)
            self._settle_next_lead(conn, game, prompt.round, prompt.trick)

    def _settle_next_lead(
        self, conn: sqlite3.Connection, game: Game, round_number: int, trick_index: int
    ) -> None:
        """Rosie's choice names who leads the next trick: a doubt that trick's leader raised
        (filed a place early, then moved back behind Rosie's trick) may be settled now."""
        round_tricks = self.tricks(game.id, round_number)
        following = next((t for t in round_tricks if t.trick == trick_index + 1), None)
        if following is not None:
            lead_doubt.settle(conn, game, following, round_tricks)
