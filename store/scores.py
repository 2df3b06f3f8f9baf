"""Scores, computed from the record every time they are asked for, never stored.

The record (``records.py``) fully determines the score, so a settings change or a correction
recomputes every round at once and nothing can go stale. Scoring a whole game takes tens of
ms and every open page asks after every event, so the last result per game is reused while
its record is unchanged (:class:`_ScoreCache`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from skullcam.rules import (
    GameRecordError,
    GameScore,
    RulesError,
    Suit,
    TrickResult,
    parse_card,
    revoke_explanation,
    score_as_played,
)
from skullcam.rules.explain import Phrase, phrases_from_json, phrases_to_json, render

from . import checks, verdicts
from .records import RecordsMixin
from .round_so_far import first_free_place


class _ScoreCache:
    """The last score per game, keyed by its record, shared by this store's threads: the
    games pages have open, and the history page's newest finished games, whose results it
    shows on every load (30). It held 16, so a history of 200 finished games of 10 rounds
    scored 30 games again on every load: 259 ms here, 58 ms with them all kept. A score is a
    few kilobytes."""

    SIZE = 48

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._scores: dict[int, tuple[str, dict[str, Any]]] = {}

    def get(self, game_id: int, key: str) -> dict[str, Any] | None:
        with self._lock:
            cached = self._scores.get(game_id)
        return cached[1] if cached is not None and cached[0] == key else None

    def put(self, game_id: int, key: str, score: dict[str, Any]) -> None:
        with self._lock:
            self._scores[game_id] = (key, score)
            while len(self._scores) > self.SIZE:
                self._scores.pop(next(iter(self._scores)))


_UNSCORABLE = (RulesError, TypeError, KeyError, ValueError)
"""What reading and scoring a stored record can raise when the rules refuse it."""


def _score_record(record: dict[str, Any]) -> dict[str, Any]:
    """``{"ok": True, "score": ...}`` (with ``warning_phrases``, one list per entry of the
    score's ``warnings``, when it has some), or why the record cannot be scored, in English
    and as phrases for a page to say in its reader's language."""
    try:
        score = score_as_played(record)
        out: dict[str, Any] = {"ok": True, "score": score.to_json()}
        out["rounds_due"] = score.rounds_due  # for the store's count of rounds, not pages
        # The bids each round was scored with (Harry's change made): the score sheet's column.
        out["bids"] = [list(r.bids) for r in score.rounds]
        if score.warning_phrases:
            # Next to the score, not in it: ``score`` is the interface's JSON, word for word.
            out["warning_phrases"] = [phrases_to_json(w) for w in score.warning_phrases]
        return out
    except _UNSCORABLE as err:
        refused: dict[str, Any] = {"ok": False, "error": str(err)}
        if isinstance(err, GameRecordError) and err.phrases:
            refused["error_phrases"] = phrases_to_json(err.phrases)
        so_far = _score_so_far(record)
        if so_far is not None:
            refused["so_far"] = so_far.to_json()
            # As ``bids`` beside a score: the score sheet's rows of the rounds that score.
            refused["so_far_bids"] = [list(r.bids) for r in so_far.rounds]
        return refused


def _score_so_far(record: dict[str, Any]) -> GameScore | None:
    """The score of the record's longest run of first rounds the rules accept (None when not
    even round 1 is): while a table corrects a misread card or enters a forgotten bid, the
    scoreboard keeps the totals it had instead of dropping everyone to 0."""
    rounds = list(record.get("rounds") or [])
    for kept in range(len(rounds) - 1, 0, -1):
        try:
            return score_as_played({**record, "rounds": rounds[:kept]})
        except _UNSCORABLE:
            continue
    return None


#: The phrases naming a trick by its place in its round of the record (from 1): the arg.
_AT_A_TRICK = {
    "at_trick": "trick",
    "at_play": "trick",
    "at_play_by": "trick",
    "scored_as_played": "trick",
    "played_twice_in_round": "first_trick",
}


def _renumbered(
    phrases: Sequence[Mapping[str, Any]], places: Mapping[int, Sequence[int]]
) -> list[Mapping[str, Any]]:
    """``phrases`` (as JSON) naming each trick by its number in its round as recorded
    (``places``: each round's trick indexes in order) rather than by its place in the record.
    A trick taken back from the middle of a round leaves a gap the record has no place for:
    round 2's trick 2, after trick 1 was taken back, was warned about as "trick 1". And the
    trick after a gap is not said to be led by the wrong player ("trick 2: Ana led, but by
    the rules Cai leads it"): the trick before it, whose winner leads it, is the one missing,
    and that is said instead."""
    out: list[Mapping[str, Any]] = []
    round_number: Any = None
    for phrase in phrases:
        args = phrase.get("args") or {}
        round_number = args.get("round", round_number)
        name = _AT_A_TRICK.get(str(phrase.get("key")))
        place = args.get(name) if name else None
        tricks = places.get(round_number, []) if isinstance(round_number, int) else []
        if name and isinstance(place, int) and 1 <= place <= len(tricks):
            number = tricks[place - 1]
            phrase = {**phrase, "args": {**args, name: number + 1}}
            if phrase.get("key") == "scored_as_played" and number > 0 and number - 1 not in tricks:
                # The rules judged its leader by the trick before the gap, whose winner did
                # not lead it: what the table needs to hear is that a trick is missing.
                phrase = {"key": "trick_missing", "args": {"trick": number}}
        out.append(phrase)
    return out


def _renumbered_revokes(
    revokes: Sequence[Mapping[str, Any]],
    places: Mapping[int, Sequence[int]],
    players: Sequence[str],
) -> list[Mapping[str, Any]]:
    """The score's ``revokes`` with the revoke's and its proof's tricks by their numbers in
    the round as recorded (``places``, as :func:`_renumbered` reads them), and the English
    said again with them. With round 3's first trick taken back, a revoke on trick 2 proved
    on trick 3 was "trick 1 ... (trick 2)" on the tricks page and the TV, and neither
    trick's replay page showed it where it was."""
    out: list[Mapping[str, Any]] = []
    for revoke in revokes:
        tricks = places.get(int(revoke["round"]), [])
        trick, proof = int(revoke["trick"]), int(revoke["proof_trick"])
        if not (0 <= trick < len(tricks) and 0 <= proof < len(tricks)):
            out.append(revoke)
            continue
        at, proved = tricks[trick], tricks[proof]
        said = revoke_explanation(
            int(revoke["round"]),
            at,
            int(revoke["play"]),
            players[int(revoke["player"])],
            parse_card(str(revoke["card"])),
            Suit(revoke["suit"]),
            proved,
            parse_card(str(revoke["proof_card"])),
        )
        out.append({**revoke, "trick": at, "proof_trick": proved, "explanation": said})
    return out


def _gap_warnings(
    places: Mapping[int, Sequence[int]], warnings: Sequence[Sequence[Mapping[str, Any]]]
) -> list[list[Mapping[str, Any]]]:
    """A warning (as phrases) for each place before a round's last recorded trick that holds
    no trick (``places``: each round's trick indexes in order), but those ``warnings``
    already name. :func:`_renumbered` says one only where the trick after it was led by
    another player than the rules expected after the trick before the gap: a trick after
    the gap led by that trick's winner left the gap unsaid."""
    said = set()
    for warning in warnings:
        keys = {str(p.get("key")): p.get("args") or {} for p in warning}
        if "trick_missing" in keys:
            said.add(((keys.get("at_round") or {}).get("round"), keys["trick_missing"]["trick"]))
    return [
        [
            {"key": "at_round", "args": {"round": r}},
            {"key": "trick_missing", "args": {"trick": k + 1}},
        ]
        for r, taken in sorted(places.items())
        for k in range(max(taken, default=0))
        if k not in taken and (r, k + 1) not in said
    ]


def _free_place_named(
    error: Sequence[Mapping[str, Any]],
    places: Mapping[int, Sequence[int]],
    dealt: Callable[[int], int],
) -> list[Mapping[str, Any]]:
    """The rules engine's "round 2: only 1 of 2 tricks recorded; only the last round of a
    record may be unfinished" (``error``, as phrases) said as the table can act on it: "round
    2: trick 1 is not recorded: enter it by hand", its first free place (``places``: each
    round's trick indexes in order; ``dealt``: a round's tricks), the one the hand-entry form
    fills. A trick taken back from an earlier round than the one being played left the TV
    and the pages with the engine's words, which name no trick and no way to fix it. Any
    other error, or a round with no free place (its cards dealt changed), is kept."""
    keys = {str(p.get("key")): p.get("args") or {} for p in error}
    round_number = keys.get("at_round", {}).get("round")
    if "round_unfinished" not in keys or not isinstance(round_number, int):
        return list(error)
    free = first_free_place(set(places.get(round_number, [])), dealt(round_number))
    if free is None:
        return list(error)
    return [
        {"key": "at_round", "args": {"round": round_number}},
        {"key": "trick_missing", "args": {"trick": free + 1}},
    ]


#: A round of the game whose tricks leave a place free before its last one.
_HAS_A_GAP = (
    "SELECT 1 FROM tricks WHERE game_id = ? GROUP BY round HAVING MAX(trick) + 1 > COUNT(*) LIMIT 1"
)


def _cached_score(cache: _ScoreCache, game_id: int, record: dict[str, Any]) -> dict[str, Any]:
    """``_score_record`` of the record, from ``cache`` while the record is unchanged."""
    key = json.dumps(record, sort_keys=True, separators=(",", ":"))
    out = cache.get(game_id, key)
    if out is None:
        out = _score_record(record)
        cache.put(game_id, key, out)
    return out


class ScoresMixin(RecordsMixin):
    """The scoreboard's numbers, and the rules engine's verdict on one trick for replays."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__(data_dir)
        self._scores = _ScoreCache()
        #: Scores of records cut before a tie-break round that is only bid so far: those bids
        #: must not decide whether the round is due.
        self._scores_before_tie_break = _ScoreCache()

    def rounds_due(self, game_id: int) -> int:
        """How many rounds the game has now: its ``rounds`` setting, and one more each time
        the last round played ends with the lead tied under ``tie=extra_round``. A record
        that does not score (yet) has the rounds stored."""
        full = checks.full_settings(self.game(game_id).settings)
        total = int(full["rounds"])
        if full["tie"] != "extra_round":
            return total
        record, _, out = self._scored(game_id)  # up to a missing bid or card: what scores
        due = out.get("rounds_due")
        return max(total, due if isinstance(due, int) else len(record["rounds"]))

    def _record(self, game_id: int) -> tuple[dict[str, Any], tuple[Phrase, ...] | None]:
        """The record (``RecordsMixin._record``) without tie-break rounds that are only bid and
        no longer due. Their bids stay in the store: a correction that untied the lead before
        the round was played may be undone, and the round is due again with its bids."""
        record, problem = super()._record(game_id)
        rounds = record["rounds"]
        total = int(checks.full_settings(record["settings"])["rounds"])
        played = len(rounds)
        while played > total and not rounds[played - 1]["tricks"]:
            played -= 1  # whether a tie-break round only bid is due is the rounds' before
        if played == len(rounds):
            return record, problem
        shorter = {**record, "rounds": rounds[:played]}
        due = _cached_score(self._scores_before_tie_break, game_id, shorter).get("rounds_due")
        if not isinstance(due, int):  # the rounds before do not score: kept, so it is named
            return record, problem
        return {**record, "rounds": rounds[: max(played, due)]}, problem

    def _scored(
        self, game_id: int
    ) -> tuple[dict[str, Any], tuple[Phrase, ...] | None, dict[str, Any]]:
        """The exportable record, why recorded rounds are missing from it, and its score
        (``_score_record``), computed once per record: every page view asks, some twice."""
        record, problem = self._record(game_id)
        return record, problem, _cached_score(self._scores, game_id, record)

    def score(self, game_id: int) -> dict[str, Any]:
        """Scores computed now by ``skullcam.rules.score_game`` from :meth:`export_record`.

        Returns ``{"ok": True, "score": <GameScore.to_json()>}`` (plus ``warning_phrases``
        when the score warns, for pages to word the warnings in their reader's language), or
        ``{"ok": False, "error": msg}`` when the recorded game breaks the rules (e.g. a misread
        card played twice) or recorded rounds cannot be scored yet (a missing bid), so pages
        can show what to correct instead of failing. Then ``so_far``, when there is one, is
        the score of the rounds before the one in question (``GameScore.to_json()``): the
        scoreboard keeps showing it, beside what to correct, and ``so_far_bids`` the bids
        its rounds were scored with (``bids`` of a score), for the score sheet's rows.
        """
        record, problem, out = self._scored(game_id)
        if problem is None:
            out = self._tricks_as_recorded(game_id, record["players"], out)
            return {k: v for k, v in out.items() if k != "rounds_due"} | {"record": record}
        # The rounds before the missing bid or card score as they are: kept as ``so_far``.
        refused: dict[str, Any] = {
            "ok": False,
            "error": render(problem),
            "error_phrases": phrases_to_json(problem),
            "record": record,
        }
        so_far = out["score"] if out["ok"] else out.get("so_far")
        if so_far is not None and record["rounds"]:
            refused["so_far"] = so_far
            refused["so_far_bids"] = out["bids"] if out["ok"] else out.get("so_far_bids")
        return refused

    def _tricks_as_recorded(
        self, game_id: int, players: Sequence[str], out: dict[str, Any]
    ) -> dict[str, Any]:
        """The score ``out`` (``_score_record``'s, not changed: it is cached) with the tricks
        its warnings, its error (``_renumbered``) and its revokes (``_renumbered_revokes``,
        worded with ``players``) name numbered as the table sees them. The tricks' places
        are read only when one names a trick."""
        warnings = out.get("warning_phrases") or []
        error = out.get("error_phrases") or []
        revokes = (out.get("score") or {}).get("revokes") or []
        names_a_trick = any(p.get("key") in _AT_A_TRICK for ps in [*warnings, error] for p in ps)
        gap = out["ok"] and self._conn().execute(_HAS_A_GAP, (game_id,)).fetchone() is not None
        unfinished = any(p.get("key") == "round_unfinished" for p in error)
        if not revokes and not names_a_trick and not gap and not unfinished:
            return out
        sql = "SELECT round, trick FROM tricks WHERE game_id = ? ORDER BY round, trick"
        places: dict[int, list[int]] = {}
        for row in self._conn().execute(sql, (game_id,)):
            places.setdefault(int(row["round"]), []).append(int(row["trick"]))
        out = dict(out)
        renumbered_revokes = _renumbered_revokes(revokes, places, players)
        if renumbered_revokes != revokes:
            out["score"] = {**out["score"], "revokes": renumbered_revokes}
        renumbered = [_renumbered(w, places) for w in warnings]
        if gap:
            renumbered += _gap_warnings(places, renumbered)
        if renumbered != warnings:
            out["warning_phrases"] = renumbered
            english = [render(phrases_from_json(w)) for w in renumbered]
            out["score"] = {**out["score"], "warnings": english}
        renumbered_error = _renumbered(error, places)
        if unfinished:
            renumbered_error = _free_place_named(renumbered_error, places, self._dealt(game_id))
        if renumbered_error != error:
            out["error_phrases"] = renumbered_error
            out["error"] = render(phrases_from_json(renumbered_error))
        return out

    def _dealt(self, game_id: int) -> Callable[[int], int]:
        """The cards dealt (the tricks) in a round of the game, by round number."""
        game = self.game(game_id)
        return lambda r: checks.cards_dealt(r, len(game.players), game.settings)

    def resolve(self, game_id: int, plays: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Resolve ``plays`` under the game's *current* settings (the replay page's verdict;
        the stored ``resolution`` is the one made when the trick was recorded or corrected)."""
        game = self.game(game_id)
        return verdicts.resolve(plays, game.settings, game.players)

    def verdict(self, game_id: int, plays: Sequence[Mapping[str, Any]]) -> TrickResult | RulesError:
        """The verdict of ``resolve`` as the rules engine's objects: the result, or the error
        for a trick no deck could produce (each with phrases, for a page to word in the
        reader's language)."""
        game = self.game(game_id)
        return verdicts.verdict(plays, game.settings, game.players)
