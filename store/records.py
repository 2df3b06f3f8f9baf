"""A game in and out as a ``skullcam-game/1`` record (``shared/spec/interfaces.md``).

The record is also what scoring reads (``scores.py``), so export decides what counts: rounds
from round 1 while every player has bid and every trick has its cards. The format has no
"not bid yet" and no missed card, and recorded play left out of it for either must be
*said*, never dropped quietly.

Import is all or nothing, like every write: the record is checked in full first, then stored
in one transaction.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skullcam.errors import UserError, echo
from skullcam.rules import GameRecord, GameRecordError, RulesError, score_as_played
from skullcam.rules.explain import Phrase, render
from skullcam.rules.record import FORMAT as GAME_FORMAT

from . import checks, verdicts
from .abilities import save_abilities
from .audit import write_audit
from .bids import put_round
from .events import emit
from .games import announce_replaced, insert_game, mark_finished, table_game_row
from .refusals import ExportRefused, refusal
from .rows import Game, Trick, dump_json, load_json
from .tricks import TricksMixin, insert_trick


@dataclass(frozen=True)
class _CheckedRecord:
    """A record to import, every part checked; ``rounds`` pairs each round as given with its
    tricks' plays made canonical."""

    players: list[str]
    first_dealer: int
    settings: dict[str, Any]
    rounds: list[tuple[dict[str, Any], list[list[dict[str, Any]]]]]
    complete: bool


def _missing_bids_problem(
    game: Game, r: int, bids: Sequence[int | None], tricks: Mapping[int, Sequence[Trick]]
) -> tuple[Phrase, ...] | None:
    """Why stopping the record at round ``r`` (bids missing) would leave out recorded play,
    or None when round ``r`` is just the round being bid or played."""
    n = len(game.players)
    missing = ", ".join(game.players[i] for i, b in enumerate(bids) if b is None)
    later = sorted(k for k in tricks if k > r)
    if later:
        args: dict[str, str | int] = {"round": r, "players": missing, "later": later[-1]}
        return (Phrase("missing_bid_before_tricks", args),)
    if len(tricks.get(r, [])) >= checks.cards_dealt(r, n, game.settings):
        return (Phrase("missing_bid_all_tricks", {"round": r, "players": missing}),)
    return None


def _short_trick_problem(trick: Trick, n: int) -> tuple[Phrase, ...]:
    """Why a round with a card the camera missed cannot be scored, and where to add it (the
    trick counted from 1, as its replay page heads it)."""
    where = Phrase("at_trick", {"round": trick.round, "trick": trick.trick + 1})
    return (where, Phrase("trick_short", {"cards": len(trick.plays), "players": n}))


def _round_entry(
    row: sqlite3.Row, bids: list[int | None], tricks: Sequence[Trick], abilities_on: bool
) -> dict[str, Any]:
    """One round of the record: only what the rules engine scores (confidences, images and
    flags stay in the store)."""
    entry: dict[str, Any] = {
        "bids": bids,
        "tricks": [
            {"plays": [{"player": p["player"], "card": p["card"]} for p in t.plays]} for t in tricks
        ],
    }
    if row["cannonball"]:
        entry["cannonball"] = load_json(row["cannonball"])
    abilities = _at_record_places(load_json(row["abilities"]) or [], tricks)
    if abilities and abilities_on:
        # Kept in the store when the setting is turned off, so turning it back on
        # restores them; the record only carries them while they count.
        entry["abilities"] = abilities
    return entry


def _at_record_places(
    abilities: Sequence[dict[str, Any]], tricks: Sequence[Trick]
) -> list[dict[str, Any]]:
    """The round's pirate choices with each trick named by its place in the record's list of
    the round's tricks, as the rules engine reads it, not by its number in the round as
    stored. A trick taken back from the middle of a round leaves a gap the record has no place
    for: Rascal's bet on trick 2 then named a second trick of a one-trick list, and the whole
    score stopped ("an ability names trick 1, but the round has only 1 trick(s)"). A choice
    whose trick is not recorded has nothing to apply to and stays out of the record."""
    place = {t.trick: i for i, t in enumerate(tricks)}
    return [{**a, "trick": place[a["trick"]]} for a in abilities if a.get("trick") in place]


def _check_record(record: Any) -> _CheckedRecord:
    """Everything :meth:`RecordsMixin.import_record` refuses, before anything is written."""
    if not isinstance(record, dict):
        raise refusal("record_not_object", expected=GAME_FORMAT)
    found = record.get("format")
    if found is None:
        raise refusal("record_no_format", expected=GAME_FORMAT)
    if found != GAME_FORMAT:
        raise refusal("record_format", found=echo(found), expected=GAME_FORMAT)
    try:
        parsed = GameRecord.from_dict(record, as_played=True)
    except (RulesError, TypeError, KeyError, ValueError) as err:
        raise UserError(f"invalid game record: {err}") from err
    _check_ability_tricks(parsed)
    players = checks.check_players(record["players"])
    first_dealer = record.get("first_dealer", 0)
    checks.check_first_dealer(first_dealer, len(players))
    settings = checks.check_settings(dict(record.get("settings") or {}))
    total = int(checks.full_settings(settings)["rounds"])
    rounds = list(record.get("rounds") or [])
    n = len(players)
    checked = [(rnd, _checked_tricks(rnd, r, n)) for r, rnd in enumerate(rounds, start=1)]
    complete = len(rounds) >= total and all(
        len(tricks) >= checks.cards_dealt(r, n, settings)
        for r, (_, tricks) in enumerate(checked, start=1)
    )
    if len(rounds) > total or (complete and settings.get("tie") == "extra_round"):
        complete = _over(record, len(rounds) > total)
    return _CheckedRecord(players, first_dealer, settings, checked, complete)


def _check_ability_tricks(parsed: GameRecord) -> None:
    """A pirate's choice names a trick its round has, whether pirate abilities are on or not:
    kept while they were off, a choice for trick 10^20 made the game unscoreable the moment
    they were turned on, and no page can remove a choice for a trick that is not there.
    Refused in the rules engine's own words (and numbering), as it refuses the same record
    with abilities on, so a page says it in its reader's language."""
    for r, rnd in enumerate(parsed.rounds, start=1):
        for ability in rnd.abilities:
            if not 0 <= ability.trick < len(rnd.tricks):
                counts = {"trick": ability.trick, "count": len(rnd.tricks)}
                said = (Phrase("at_round", {"round": r}), Phrase("ability_past_tricks", counts))
                err = GameRecordError(render(said), said)
                raise UserError(f"invalid game record: {err}") from err


def _over(record: Mapping[str, Any], tie_breaks: bool) -> bool:
    """Whether a played-out record's game is over: not while the lead is tied under
    ``tie=extra_round`` (a tie-break round is due). A record with rounds past the setting's
    (``tie_breaks``) must score as played: a tie-break round after an untied lead is then
    left out of the score, warned about, as the store's own export of a game corrected after
    its tie-break has it. A record the rules cannot score otherwise is taken as over, as its
    trick count says."""
    try:
        return score_as_played(record).finished
    except RulesError as err:
        if tie_breaks:
            raise UserError(f"invalid game record: {err}") from err
        return True


def _checked_tricks(rnd: Mapping[str, Any], r: int, n: int) -> list[list[dict[str, Any]]]:
    """A round's tricks' plays, canonical (``GREEN-5`` is ``green-5``), as the camera's are."""
    tricks = []
    for t, trick in enumerate(rnd.get("tricks") or []):
        try:
            tricks.append(checks.check_plays(trick["plays"], n))
        except UserError as err:
            where = f"round {r}, trick {t + 1}"
            raise UserError(f"invalid game record: {where}: {err}") from err
    return tricks


def _store_rounds(conn: sqlite3.Connection, game_id: int, record: _CheckedRecord) -> None:
    """Bids, calls, abilities and tricks of an imported game, each trick resolved now."""
    now = time.time()
    for r, (rnd, tricks) in enumerate(record.rounds, start=1):
        put_round(conn, game_id, r, list(rnd["bids"]), rnd.get("cannonball"))
        abilities = [
            {"trick": a["trick"], "pirate": a["pirate"], "choice": a["choice"]}
            for a in rnd.get("abilities") or []
        ]
        if abilities:
            save_abilities(conn, game_id, r, abilities)
        for t, plays in enumerate(tricks):
            resolution = verdicts.resolve(plays, record.settings, record.players)
            columns = {
                "plays": dump_json(plays),
                "original_plays": dump_json(plays),
                "resolution": dump_json(resolution),
                "recorded_at": now,
            }
            insert_trick(conn, game_id, r, t, columns)


def _settle_imported_status(
    conn: sqlite3.Connection, game_id: int, complete: bool
) -> tuple[bool, str]:
    """Finish an imported game that is complete, or that would take the TV and the camera
    off a game in progress. Returns whether it is the game in progress now, and why it was
    kept finished ("" where it was not)."""
    table = table_game_row(conn, other_than=game_id)
    in_progress = table if table is not None and table["status"] == "active" else None
    if complete:
        mark_finished(conn, game_id)
    elif in_progress is not None:
        mark_finished(conn, game_id)
        why = (
            f"imported unfinished while game {in_progress['id']} was in progress; "
            "kept as finished so that game stays on the TV and the camera"
        )
        return False, why
    return not complete and in_progress is None, ""


def _file_name(name: str | None) -> str | None:
    """The imported file's name as the audit trail keeps it: without the folders a path puts
    before it (a browser may send its "fakepath" folder, with backslashes), nor characters
    that print nothing, and cut at 200; None where none is left."""
    if name is None:
        return None
    base = str(name).replace("\\", "/").rsplit("/", 1)[-1]
    kept = "".join(ch for ch in base if ch.isprintable()).strip()[:200]
    return kept or None


class RecordsMixin(TricksMixin):
    """Export (downloads, and what scoring reads) and import (settling a dispute later)."""

    def export_record(self, game_id: int) -> dict[str, Any]:
        """The game as a ``skullcam-game/1`` record (interfaces.md).

        Rounds are exported from round 1 while every player has bid; a round whose bids are
        incomplete (the round being bid or played) is left out with everything after it,
        because the record format has no "not bid yet". When that would leave out recorded
        play (a finished round, or tricks of a later round) the export is refused with what
        to enter, instead of quietly dropping those rounds; so is a game with a trick the
        camera saw short (a card missed), until the card is added. Confidences, images and
        flags stay in the store.
        """
        record, problem = self._record(game_id)
        if problem is not None:
            raise ExportRefused(game_id, problem)
        return record

    def _record(self, game_id: int) -> tuple[dict[str, Any], tuple[Phrase, ...] | None]:
        """The exportable record, and why recorded rounds are missing from it (or None), as
        phrases (``rules.explain``) for a page to say in its reader's language."""
        game = self.game(game_id)
        n = len(game.players)
        sql = "SELECT * FROM rounds WHERE game_id = ?"
        rows = {r["round"]: r for r in self._conn().execute(sql, (game_id,)).fetchall()}
        tricks: dict[int, list[Trick]] = {}
        for t in self.tricks(game_id):
            tricks.setdefault(t.round, []).append(t)
        rounds_out: list[dict[str, Any]] = []
        full = checks.full_settings(game.settings)
        # Tie-break rounds (tie=extra_round) are stored past the setting's rounds.
        total = max([int(full["rounds"]), *rows, *tricks])
        abilities_on = bool(full["pirate_abilities"])
        problem: tuple[Phrase, ...] | None = None
        for r in range(1, total + 1):
            # After an unfinished round, bids entered ahead for the rounds after it (the demo
            # enters them all at the start) are not yet part of the record, which may end with
            # one unfinished round only. Tricks recorded after it still go in, so that the
            # rules engine names the gap.
            dealt_before = checks.cards_dealt(r - 1, n, game.settings) if r > 1 else 0
            in_play = rounds_out and len(tricks.get(r - 1, [])) < dealt_before
            if in_play and not any(tricks.get(later) for later in range(r, total + 1)):
                break
            row = rows.get(r)
            bids = load_json(row["bids"]) if row is not None else [None] * n
            if row is None or any(b is None for b in bids):
                problem = _missing_bids_problem(game, r, bids, tricks)
                break
            short = next((t for t in tricks.get(r, []) if len(t.plays) < n), None)
            if short is not None:
                problem = _short_trick_problem(short, n)
                break
            rounds_out.append(_round_entry(row, bids, tricks.get(r, []), abilities_on))
        record = {
            "format": GAME_FORMAT,
            "players": list(game.players),
            "settings": dict(game.settings),
            "first_dealer": game.first_dealer,
            "rounds": rounds_out,
        }
        return record, problem

    def import_record(self, record: Any, file_name: str | None = None) -> int:
        """Store a ``skullcam-game/1`` record as a new game (validated by the rules engine).

        Card ids are stored canonical (``GREEN-5`` becomes ``green-5``), as the camera and
        corrections store them. An unfinished record becomes the game in progress only when
        no other game is: importing an old record to settle a dispute must not move the TV
        and the camera off tonight's game, so it is then kept as finished (the audit trail
        says so). The game's audit trail starts with the import (kind 'import', ``after``:
        ``{"file", "rounds", "status"}``, ``file`` the name it came from where known): a
        referee settling a dispute later sees it was not played here. All of it is one
        transaction: no half-imported game.
        """
        checked = _check_record(record)
        with self._write() as conn:
            table = table_game_row(conn)
            game_id = insert_game(conn, checked.players, checked.first_dealer, checked.settings)
            _store_rounds(conn, game_id, checked)
            active, why = _settle_imported_status(conn, game_id, checked.complete)
            status = "active" if active else "finished"
            after = {"file": _file_name(file_name), "rounds": len(checked.rounds), "status": status}
            write_audit(conn, game_id, None, "import", None, after, why)
            emit(conn, game_id, "imported", {"rounds": len(checked.rounds), "active": active})
            announce_replaced(conn, table)
        return game_id
