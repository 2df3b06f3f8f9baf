"""Pirate abilities: the choice a winning Rosie, Rascal or Harry gives the table.

A choice is stored on its round (``rounds.abilities``) and must always belong to a pirate
that wins its trick as recorded now: one that does not would make the whole game unscoreable.
So a choice is refused for a trick its pirate does not win (:func:`check_ability_applies`),
and when a correction changes a trick's winner, the choices and open questions of the old
winner go (:func:`drop_abilities_not_won`, :func:`dismiss_questions_not_won`).

Abilities stay stored while the ``pirate_abilities`` setting is off, so turning it back on
restores them; only the record and the state leave them out meanwhile.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from skullcam.errors import UserError
from skullcam.rules import parse_card
from skullcam.rules.explain import CardId

from . import checks, verdicts
from .audit import write_audit
from .bids import check_harry_bid as check_harry_bid
from .bids import put_round, round_row
from .database import Database
from .prompts import close_prompt, insert_prompt, open_questions
from .refusals import refusal
from .round_so_far import is_rounds_last_trick
from .rows import Game, Prompt, Trick, dump_json, load_json, trick_row

#: The prompt kind that asks for each pirate's choice, and back.
ABILITY_PIRATE = {"rosie": "pirate-rosie", "rascal_bet": "pirate-rascal", "harry": "pirate-harry"}
ABILITY_KIND = {pirate: kind for kind, pirate in ABILITY_PIRATE.items()}


def stored_abilities(
    conn: sqlite3.Connection, game_id: int, round_number: int
) -> list[dict[str, Any]]:
    """A round's recorded choices, ``[{trick, pirate, choice}]`` (empty before any)."""
    row = round_row(conn, game_id, round_number)
    return load_json(row["abilities"]) if row else []


def made_choice(
    conn: sqlite3.Connection, game_id: int, round_number: int, trick_index: int, pirate: str
) -> dict[str, Any] | None:
    """The choice stored for ``pirate`` on the round's trick ``trick_index``, if one is."""
    return next(
        (
            a
            for a in stored_abilities(conn, game_id, round_number)
            if a["trick"] == trick_index and a["pirate"] == pirate
        ),
        None,
    )


def save_abilities(
    conn: sqlite3.Connection, game_id: int, round_number: int, abilities: list[dict[str, Any]]
) -> None:
    """Replace a round's choices; the round's row must exist (see :func:`record_ability`)."""
    conn.execute(
        "UPDATE rounds SET abilities = ? WHERE game_id = ? AND round = ?",
        (dump_json(abilities), game_id, round_number),
    )


def record_ability(
    conn: sqlite3.Connection,
    game: Game,
    round_number: int,
    trick_index: int,
    kind: str,
    choice: int,
    note: str,
) -> None:
    """Record a pirate's choice (a question answered, or a choice changed on the replay
    page), replacing an earlier one for it, with an audit entry: a choice moves points as
    much as a card does, so changing it after the fact is on the record.

    The round may have no row yet (a choice can come before any bid is entered); it gets one
    with every bid still open.
    """
    if round_row(conn, game.id, round_number) is None:
        put_round(conn, game.id, round_number, [None] * len(game.players), None)
    pirate = ABILITY_PIRATE[kind]
    abilities, before = [], None
    for a in stored_abilities(conn, game.id, round_number):
        if a["trick"] == trick_index and a["pirate"] == pirate:
            before = {"pirate": pirate, "choice": a["choice"]}
        else:
            abilities.append(a)
    if before is not None and before["choice"] == choice:
        return  # the choice it has (Save tapped twice): no "+1 -> +1" in the history
    abilities.append({"trick": trick_index, "pirate": pirate, "choice": choice})
    abilities.sort(key=lambda a: (a["trick"], a["pirate"]))
    save_abilities(conn, game.id, round_number, abilities)
    row = trick_row(conn, game.id, round_number, trick_index)
    after = {"pirate": pirate, "choice": choice}
    write_audit(conn, game.id, row["id"] if row else None, "choice", before, after, note)


def choice_kind(game: Game, trick: Trick) -> str:
    """The prompt kind of the choice ``trick``'s winning pirate gives the table ("rosie",
    "rascal_bet" or "harry"), or UserError saying why it gives none."""
    where = {"round": trick.round, "trick": trick.trick + 1}
    if not checks.full_settings(game.settings)["pirate_abilities"]:
        raise refusal("abilities_off")
    if len(trick.plays) < len(game.players):
        raise refusal("choice_card_missing", **where)
    winning = verdicts.resolve(trick.plays, game.settings, game.players).get("winning_card")
    kind = ABILITY_KIND.get(str(winning))
    if kind is None:
        raise refusal("no_choice", **where)
    if kind == "rosie" and is_rounds_last_trick(game, trick.round, trick.trick):
        raise refusal("rosie_last_trick", round=trick.round)
    return kind


def check_ability_applies(conn: sqlite3.Connection, game: Game, prompt: Prompt) -> None:
    """Refuse an ability choice for a recorded trick its pirate does not win (any more):
    recorded, it would make the whole game unscoreable. Nor while abilities are off: the
    choice would be stored and ignored (the replay page refuses it so, too)."""
    if not checks.full_settings(game.settings)["pirate_abilities"]:
        raise refusal("abilities_off")
    assert prompt.trick is not None
    row = trick_row(conn, game.id, prompt.round, prompt.trick)
    if row is None:
        return
    pirate = ABILITY_PIRATE[prompt.kind]
    winning = verdicts.resolve(load_json(row["plays"]), game.settings).get("winning_card")
    if winning != pirate:
        raise refusal(
            "ability_not_won",
            round=prompt.round,
            trick=prompt.trick + 1,
            pirate=CardId(parse_card(pirate)),
        )
    if prompt.kind == "rosie" and is_rounds_last_trick(game, prompt.round, prompt.trick):
        raise refusal("rosie_last_trick", round=prompt.round)


def drop_abilities_not_won(
    conn: sqlite3.Connection,
    game_id: int,
    round_number: int,
    trick_index: int,
    trick_id: int,
    winning: Any,
    chooser: int | None = None,
) -> list[dict[str, Any]]:
    """Drop the trick's choices made for a pirate other than its ``winning`` card (every
    choice, with ``winning`` None: the trick's winner changed hands); returns them. Each
    stays in the audit trail, saying why it no longer counts and whose choice it was
    (``chooser``, the player who won the trick when it was made)."""
    abilities = stored_abilities(conn, game_id, round_number)
    dropped = [a for a in abilities if a["trick"] == trick_index and a["pirate"] != winning]
    if not dropped:
        return []
    kept = [a for a in abilities if a not in dropped]
    save_abilities(conn, game_id, round_number, kept)
    where = f"round {round_number} trick {trick_index + 1}"
    for a in dropped:
        why = (
            f"{a['pirate']} no longer wins {where}: its ability no longer counts"
            if winning is not None
            else f"{where} is now won by another player: {a['pirate']}'s ability no longer counts"
        )
        audit_dropped_choice(conn, game_id, trick_id, a, chooser, why)
    return dropped


def audit_dropped_choice(
    conn: sqlite3.Connection,
    game_id: int,
    trick_id: int,
    ability: dict[str, Any],
    chooser: int | None,
    why: str,
) -> None:
    """Keep a dropped choice in the trick's audit trail (kind 'ability'), with the player who
    made it: the table sees why it no longer counts, and :func:`restore_dropped_choice` can
    put it back when what dropped it is undone. A choice its question was still open on
    when dropped was read from the lead (``rosie_lead.py``), never confirmed: marked
    ``"read": true``, so that it comes back as read, its question open, not as settled."""
    before = {**ability, "player": chooser}
    if _still_asked(conn, game_id, trick_id, ability):
        before["read"] = True
    write_audit(conn, game_id, trick_id, "ability", before, None, why)


def _still_asked(
    conn: sqlite3.Connection, game_id: int, trick_id: int, ability: dict[str, Any]
) -> bool:
    """Whether the table's question about ``ability`` (a choice on the trick ``trick_id``)
    is still open: the choice was read, not answered."""
    kind = ABILITY_KIND.get(str(ability.get("pirate")))
    row = conn.execute("SELECT round, trick FROM tricks WHERE id = ?", (trick_id,)).fetchone()
    if kind is None or row is None:
        return False
    return bool(open_questions(conn, game_id, row["round"], row["trick"], kind))


def restore_dropped_choice(
    conn: sqlite3.Connection,
    game: Game,
    round_number: int,
    trick_index: int,
    trick_id: int,
    kind: str,
    winner: int | None,
    note: str = "restored: the correction that dropped it was undone",
) -> bool:
    """Put back the choice a correction dropped when a later one makes the same pirate win
    the trick again (the first undone), or a move dropped when the trick moves back (an
    insert taken back); whether it did. A choice made since stands. Restoring, rather than
    asking again, keeps an answered choice, because asking again left the score short until
    someone answered a second time. Only the choice of the player who wins the trick now
    (``winner``) comes back, whether it was dropped because its pirate stopped winning or
    because another player won the trick meanwhile (a card corrected and then back): the
    same pirate won by the same player is the same choice. One made by another player (a
    seat corrected) was that player's to make, not this one's: asked again. So is one read
    from the lead and never confirmed (marked "read" by :func:`audit_dropped_choice`),
    because restored as settled it would stand as the table's answer with no question left
    to confirm it; asked again, it is read from the lead once more
    (:func:`~.rosie_lead.follow_rosies_lead`, which runs after each restore)."""
    pirate = ABILITY_PIRATE[kind]
    row = conn.execute(
        "SELECT before FROM corrections WHERE trick_id = ? AND kind = 'ability'"
        " ORDER BY id DESC LIMIT 1",
        (trick_id,),
    ).fetchone()
    if row is None or made_choice(conn, game.id, round_number, trick_index, pirate) is not None:
        return False
    dropped = load_json(row["before"])
    if not isinstance(dropped, dict) or dropped.get("pirate") != pirate:
        return False
    if winner is None or dropped.get("player") != winner or dropped.get("read"):
        return False
    choice = dropped.get("choice")
    if not isinstance(choice, int) or isinstance(choice, bool):
        return False
    if kind == "harry":
        try:
            check_harry_bid(conn, game, round_number, trick_index, choice)
        except UserError:  # the bids changed meanwhile: asked again
            return False
    record_ability(conn, game, round_number, trick_index, kind, choice, note)
    return True


#: The note on a choice :func:`carry_choice` carries over (``web/flag_i18n.py`` says it).
CARRIED_OVER = (
    "carried over from the trick entered by hand, taken back: the camera's trick has the same"
    " winner and the same pirate"
)


@dataclass(frozen=True)
class AnsweredChoice:
    """A choice the table answered on a trick: its pirate (card id), the player who won the
    trick with it, and the choice."""

    pirate: str
    winner: int | None
    choice: Any


def answered_choice(conn: sqlite3.Connection, game_id: int, trick: Trick) -> AnsweredChoice | None:
    """The choice the table answered for ``trick``'s winning pirate; None where it has none,
    or where it was only read from the lead (its question still open, ``rosie_lead.py``):
    that one is read again from the lead, not carried anywhere as the table's word."""
    pirate = str(trick.resolution.get("winning_card"))
    kind = ABILITY_KIND.get(pirate)
    if kind is None:
        return None
    made = made_choice(conn, game_id, trick.round, trick.trick, pirate)
    if made is None or open_questions(conn, game_id, trick.round, trick.trick, kind):
        return None
    winner = verdicts.winner_player(trick.plays, trick.resolution)
    return AnsweredChoice(pirate, winner, made["choice"])


def carry_choice(
    conn: sqlite3.Connection, game: Game, answered: AnsweredChoice | None, trick: Trick
) -> bool:
    """Record ``answered`` (a trick's answered choice, taken with it from its place) on
    ``trick``, now recorded in that place, where the same player wins it with the same
    pirate: the table said it already, and asking again made it say it twice (the camera's
    trick standing where an entry by hand was taken back). Whether it did; audited as
    'choice' (:func:`record_ability`). Another winner or pirate is asked afresh."""
    if answered is None or trick.resolution.get("winning_card") != answered.pirate:
        return False
    if verdicts.winner_player(trick.plays, trick.resolution) != answered.winner:
        return False
    kind = ABILITY_KIND[answered.pirate]
    record_ability(conn, game, trick.round, trick.trick, kind, answered.choice, CARRIED_OVER)
    return True


def dismiss_questions_not_won(
    conn: sqlite3.Connection, game_id: int, round_number: int, trick_index: int, winning: Any
) -> None:
    """Dismiss the trick's open ability questions about a pirate other than its ``winning``
    card (every one, with ``winning`` None)."""
    for prompt in open_questions(conn, game_id, round_number, trick_index):
        if prompt.kind in ABILITY_PIRATE and ABILITY_PIRATE[prompt.kind] != winning:
            close_prompt(conn, prompt, "dismissed", None)


def ask_for_choice(
    conn: sqlite3.Connection,
    game_id: int,
    round_number: int,
    trick_index: int,
    kind: str,
    winner: int | None,
) -> None:
    """Ask the table for the choice of the pirate that won the trick (``kind``), unless it
    was made or is being asked already: a question is asked once."""
    if made_choice(conn, game_id, round_number, trick_index, ABILITY_PIRATE[kind]) is not None:
        return
    if not open_questions(conn, game_id, round_number, trick_index, kind):
        insert_prompt(conn, game_id, kind, round_number, trick_index, winner, {})


def ask_winners_choice(conn: sqlite3.Connection, game: Game, trick: Trick) -> None:
    """Ask the table the choice the trick's winning pirate gives (:func:`choice_kind`), if
    any, in the transaction that records the trick: a crash between the two would leave the
    question unasked for good, since a restart asks nothing of tricks already recorded."""
    try:
        kind = choice_kind(game, trick)
    except UserError:  # no pirate with a choice won it (Rosie's last trick, abilities off)
        return
    winner = verdicts.winner_player(trick.plays, trick.resolution)
    ask_for_choice(conn, game.id, trick.round, trick.trick, kind, winner)


class AbilitiesMixin(Database):
    """Reading a round's choices (the state and the record read them too)."""

    def abilities(self, game_id: int, round_number: int) -> list[dict[str, Any]]:
        return stored_abilities(self._conn(), game_id, round_number)

    def choice(self, game_id: int, round_number: int, trick_index: int, kind: str) -> Any:
        """The choice recorded for the pirate of prompt ``kind`` on the round's trick
        ``trick_index``, None before one: a replay page shows it, and an open Rosie question
        says the one read from who led next (``rosie_lead.py``)."""
        made = made_choice(self._conn(), game_id, round_number, trick_index, ABILITY_PIRATE[kind])
        return None if made is None else made["choice"]
