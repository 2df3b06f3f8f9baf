"""House rules changed mid-game. Scores are never stored, so a change needs no rewriting:
the next score is computed under the new settings. Only the number of rounds reaches further,
since it decides whether the game is over, and pirate abilities turned on, which ask the
table for the choices of the pirates that already won.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from skullcam.errors import UserError

from . import checks, verdicts
from .abilities import ABILITY_PIRATE, ask_for_choice, choice_kind
from .audit import write_audit
from .events import emit
from .games import GamesMixin
from .prompts import close_prompt
from .refusals import refusal
from .rosie_lead import follow_rosies_lead
from .rows import Game, dump_json, prompt_from_row, select_rows, trick_from_row


def _check_rounds_played(conn: sqlite3.Connection, game_id: int, rounds: int) -> None:
    played = conn.execute(
        "SELECT COALESCE(MAX(round), 0) FROM tricks WHERE game_id = ?", (game_id,)
    ).fetchone()[0]
    if rounds < played:
        raise refusal("rounds_below_played", played=played, rounds=rounds)


def _dismiss_ability_questions(conn: sqlite3.Connection, game_id: int) -> None:
    """Pirate abilities turned off: the questions about pirates' choices go (the choices
    made stay stored, and count again if the setting comes back on, which asks anew)."""
    for row in select_rows(conn, "prompts", "id", game_id=game_id, status="open"):
        prompt = prompt_from_row(row)
        if prompt.kind in ABILITY_PIRATE:
            close_prompt(conn, prompt, "dismissed", None)


def _ask_choices_not_made(conn: sqlite3.Connection, game: Game) -> None:
    """Pirate abilities turned on after tricks were played: ask the table for the choice of
    each pirate that won one (as the camera would have), unless it was made or is asked."""
    rows = conn.execute("SELECT * FROM tricks WHERE game_id = ? ORDER BY round, trick", (game.id,))
    for trick in map(trick_from_row, rows.fetchall()):
        try:
            kind = choice_kind(game, trick)
        except UserError:
            continue
        resolution = verdicts.resolve(trick.plays, game.settings, game.players)
        winner = verdicts.winner_player(trick.plays, resolution)
        ask_for_choice(conn, game.id, trick.round, trick.trick, kind, winner)
        follow_rosies_lead(conn, game, trick.round, trick.trick)  # Rosie's: as the next led


class SettingsMixin(GamesMixin):
    """The settings page's changes (and the TV's rounds count)."""

    def update_settings(
        self, game_id: int, changes: Mapping[str, Any], note: str = ""
    ) -> dict[str, Any]:
        """Change house rules mid-game; scores recompute from the record. Returns the settings.

        A key set to ``None`` goes back to its default. The settings are read and written in
        one transaction, so two pages changing different keys at once both keep their change.

        Changing the number of rounds re-decides whether the game is over: cut to the rounds
        already played, it finishes; raised on a game that ended by playing its last round,
        it is active again (the camera can record the added rounds), unless another game is
        being played at the table. A game the table ended early, with rounds unplayed, stays
        finished.
        """
        note = checks.check_note(note)
        if not isinstance(changes, Mapping):
            raise UserError(
                "settings must be a JSON object of the keys in docs/rules-engine.md (Settings)"
            )
        with self._write() as conn:
            game = self.game(game_id)
            clean = checks.check_settings(checks.merged_settings(game.settings, changes))
            old, new = checks.full_settings(game.settings), checks.full_settings(clean)
            if (new["rounds"], new["tie"]) != (old["rounds"], old["tie"]):
                # (Tie-break rounds count as played rounds: other settings may still change.)
                _check_rounds_played(conn, game_id, int(new["rounds"]))
            # Compared with every default filled in: a key set to its default ("loot": false
            # over none) changes no rule, and was audited and sent to every page as a change.
            if new == old:
                return game.settings
            with self.settling_rounds(conn, game_id):
                conn.execute(
                    "UPDATE games SET settings = ? WHERE id = ?", (dump_json(clean), game_id)
                )
                write_audit(conn, game_id, None, "settings", game.settings, clean, note)
                emit(conn, game_id, "settings", {"settings": clean})
            was_on = checks.full_settings(game.settings)["pirate_abilities"]
            now_on = checks.full_settings(clean)["pirate_abilities"]
            if now_on and not was_on:
                _ask_choices_not_made(conn, replace(game, settings=clean))
            elif was_on and not now_on:
                _dismiss_ability_questions(conn, game.id)
        return clean
