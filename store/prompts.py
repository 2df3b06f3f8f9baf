"""Questions the camera or a page puts to the table, shown on every page until closed.

Asking and closing live here; what an answer *changes* (a Tigress re-declared, a pirate's
ability recorded) is in ``answers.py``, because applying an answer is a correction, while
corrections themselves ask and close questions through :func:`insert_prompt` and
:func:`close_prompt`.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Mapping
from typing import Any

from skullcam.errors import UserError, echo

from . import checks
from .events import emit
from .games import GamesMixin
from .refusals import not_found, refusal
from .rows import Prompt, dump_json, prompt_from_row, select_rows

#: Prompt kinds the pipeline (or the web) may raise, and the answers each accepts.
PROMPT_KINDS = ("tigress", "rosie", "rascal_bet", "harry", "flagged")


#: The questions whose answer changes the score itself: a doubtful Tigress (who wins her
#: trick), Rascal's bet and Harry's bid change. While one is open a finished game's result is
#: not final: with ``tie=extra_round`` an answer can even tie the lead and reopen the game.
RESULT_KINDS = ("tigress", "rascal_bet", "harry")


def result_waits(open_prompts: Iterable[Prompt]) -> bool:
    """Whether any of a game's ``open_prompts`` is a question the result waits for
    (:data:`RESULT_KINDS`): the pages name no winner until it is answered."""
    return any(p.kind in RESULT_KINDS for p in open_prompts)


#: A question about a trick, asked as it is recorded: its kind, whom it concerns, its payload.
Ask = tuple[str, int | None, dict[str, Any]]


def check_ask(kind: str, player: int | None, players: int) -> None:
    """Refuse a question of no known kind, or about no player of the game."""
    if kind not in PROMPT_KINDS:
        raise UserError(f"unknown prompt kind {echo(kind)}; one of {', '.join(PROMPT_KINDS)}")
    if player is not None:
        checks.check_player(player, players)


def insert_prompt(
    conn: sqlite3.Connection,
    game_id: int,
    kind: str,
    round_number: int,
    trick_index: int | None,
    player: int | None,
    payload: dict[str, Any],
) -> int:
    """Ask inside the caller's write transaction; returns the prompt id."""
    cur = conn.execute(
        "INSERT INTO prompts (game_id, kind, round, trick, player, payload, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, kind, round_number, trick_index, player, dump_json(payload), time.time()),
    )
    prompt_id = int(cur.lastrowid or 0)
    asked = {
        "prompt_id": prompt_id,
        "kind": kind,
        "round": round_number,
        "trick": trick_index,
        "player": player,
    }
    emit(conn, game_id, "prompt", asked)
    return prompt_id


def open_questions(
    conn: sqlite3.Connection,
    game_id: int,
    round_number: int,
    trick_index: int,
    kind: str | None = None,
) -> list[Prompt]:
    """The open prompts about one trick (of ``kind`` only, when given), oldest first."""
    rows = select_rows(
        conn,
        "prompts",
        "id",
        game_id=game_id,
        round=round_number,
        trick=trick_index,
        kind=kind,
        status="open",
    )
    return [prompt_from_row(r) for r in rows]


def already_closed(prompt: Prompt, what: str) -> UserError:
    """The refusal for answering (``what`` "prompt_already") or dismissing ("dismiss_closed")
    a prompt that is no longer open; a status the store never writes is named as it is."""
    if prompt.status in ("answered", "dismissed"):
        return refusal(f"{what}_{prompt.status}", prompt=prompt.id)
    return UserError(f"prompt {prompt.id} is {prompt.status}, not open")


def close_prompt(conn: sqlite3.Connection, prompt: Prompt, status: str, answer: Any) -> None:
    """Close an open prompt as ``status`` ('answered' or 'dismissed').

    Only an open one: when two phones answer at once, the second is told it was closed
    meanwhile, instead of applying its answer on top of the first.
    """
    cur = conn.execute(
        "UPDATE prompts SET status = ?, answer = ?, answered_at = ? "
        "WHERE id = ? AND status = 'open'",
        (status, None if answer is None else dump_json(answer), time.time(), prompt.id),
    )
    if not cur.rowcount:
        raise refusal("prompt_closed_meanwhile", prompt=prompt.id)
    closed = {"prompt_id": prompt.id, "kind": prompt.kind, "answer": answer, "round": prompt.round}
    emit(conn, prompt.game_id, "prompt_answered", closed)


class PromptsMixin(GamesMixin):
    """Asking the table, listing what is open, and dismissing a question asked by mistake."""

    def create_prompt(
        self,
        game_id: int,
        kind: str,
        round_number: int,
        trick_index: int | None = None,
        player: int | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> int:
        """Ask the table something; pages show it until answered. Returns the prompt id.

        Kinds: ``tigress`` (answer 'pirate'/'escape'), ``rosie`` (answer: next leader, a player
        number), ``rascal_bet`` (0, 10 or 20), ``harry`` (-1, 0 or +1), ``flagged`` ('confirm'
        or 'correct'). ``player`` is whom it concerns (the pirate's or Tigress's player).
        """
        game = self.game(game_id)
        check_ask(kind, player, len(game.players))
        data = dict(payload or {})
        with self._write() as conn:
            return insert_prompt(conn, game_id, kind, round_number, trick_index, player, data)

    def prompt(self, prompt_id: int) -> Prompt:
        row = self._conn().execute("SELECT * FROM prompts WHERE id = ?", (prompt_id,)).fetchone()
        if row is None:
            # An unknown address is a 404, as an unknown game or trick is (docs/web.md).
            raise not_found("no_prompt", prompt=prompt_id)
        return prompt_from_row(row)

    def prompts(self, game_id: int, status: str | None = "open") -> list[Prompt]:
        """A game's prompts (open ones by default), oldest first."""
        rows = select_rows(self._conn(), "prompts", "id", game_id=game_id, status=status)
        return [prompt_from_row(r) for r in rows]

    def dismiss_prompt(self, prompt_id: int) -> None:
        """Close an open prompt without applying anything (asked by mistake).

        An answered prompt has been applied (a Tigress re-declared, an ability recorded):
        dismissing it would hide that, so it is refused; correct the trick instead."""
        with self._write() as conn:
            prompt = self.prompt(prompt_id)
            if prompt.status != "open":
                raise already_closed(prompt, "dismiss_closed")
            close_prompt(conn, prompt, "dismissed", None)
