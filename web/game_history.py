"""The game-level entries of a game's history on its tricks page, worded for a player.

A referee settling a dispute the morning after reads that history: a house rule changed
mid-game rescores every round, and a game finished (by hand or by its last trick) or reopened
decides which rounds count, as does another game taking the table, so each such audit entry
says what changed and when in the game it was made ("House rule “Loot cards” turned on before
round 4"), the tricks counted as they stood then. The import, a bid changed after play and a
trick taken back are worded by the template itself (``tricks.html``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skullcam.rules.settings import DEFAULT_SETTINGS
from skullcam.rules.table import cards_in_round
from skullcam.store.rows import Correction, Game, Trick

from .i18n import STRINGS, translate

#: The audit kinds worded here: a settings change, "Finish game", "Resume game", a game
#: finished or reopened by itself, another game taking the table.
WORDED_KINDS = ("settings", "finish", "resume", "status", "replaced")

#: The line of a status change by itself (``after``'s status and why); one of a why this
#: version does not know is worded as its rounds' (a finish or reopening all the same).
_STATUS_LINES = {
    ("finished", "last_trick"): "history_finished_last_trick",
    ("finished", "rounds"): "history_finished_rounds",
    ("active", "removed"): "history_reopened_removed",
    ("active", "rounds"): "history_reopened_rounds",
    ("active", "tie_break"): "history_reopened_tie_break",
}


def worded_entries(
    game: Game, trail: Sequence[Correction], tricks: Sequence[Trick], lang: str
) -> dict[int, str]:
    """The line of each settings, finish and resume entry of ``trail`` (by entry id). A
    settings entry that changed no rule's value (a default written out, as a game recorded
    before the store stopped auditing such saves holds) gets none: the page would list a
    change that changed nothing."""
    lines: dict[int, str] = {}
    for entry in trail:
        if entry.kind not in WORDED_KINDS:
            continue
        settings = entry.before if entry.kind == "settings" else _settings_at(game, trail, entry)
        when = _when(_places_then(entry, trail, tricks), len(game.players), settings, lang)
        line = _line(entry, when, lang)
        if line is not None:
            lines[entry.id] = line
    return lines


def _line(entry: Correction, when: str, lang: str) -> str | None:
    """What the entry did, then when."""
    if entry.kind == "finish":
        return translate("history_finished", lang, when=when)
    if entry.kind == "resume":
        return translate("history_resumed", lang, when=when)
    if entry.kind in ("status", "replaced"):
        return _moved_on(entry, when, lang)
    changes = _rule_changes(entry.before, entry.after, lang)
    if not changes:
        return None
    if len(changes) == 1:
        return translate("history_rule", lang, change=changes[0], when=when)
    return translate("history_rules", lang, changes="; ".join(changes), when=when)


def _moved_on(entry: Correction, when: str, lang: str) -> str:
    """A status change by itself, or the table taken by another game (``after["by"]``, or
    the demo's where ``after["demo"]``)."""
    after = entry.after if isinstance(entry.after, Mapping) else {}
    if entry.kind == "replaced" and after.get("demo"):  # its game is deleted later: unnamed
        return translate("history_replaced_by_demo", lang, when=when)
    if entry.kind == "replaced":
        return translate("history_replaced", lang, game=after.get("by", "?"), when=when)
    status = "active" if after.get("status") == "active" else "finished"
    why = str(after.get("why"))
    key = _STATUS_LINES.get((status, why), _STATUS_LINES[(status, "rounds")])
    return translate(key, lang, when=when)


def _rule_changes(before: Any, after: Any, lang: str) -> list[str]:
    """Each rule whose value the change moved, in the settings page's order and words."""
    old, new = _filled(before), _filled(after)
    out = []
    for key, now in new.items():
        was = old[key]
        if was == now:
            continue
        name = translate(f"set_{key}", lang)
        if isinstance(now, bool):
            out.append(translate("history_rule_on" if now else "history_rule_off", lang, name=name))
        else:
            said = {"was": _value(was, lang), "now": _value(now, lang)}
            out.append(translate("history_rule_changed", lang, name=name, **said))
    return out


def _filled(settings: Any) -> dict[str, Any]:
    """Every rule's value under ``settings`` as an entry holds them, defaults filled in. Not
    checked as a game's settings are: an old entry naming a rule this version dropped, or a
    value it no longer takes, must not take the page down (only today's rules are listed)."""
    given = settings if isinstance(settings, Mapping) else {}
    return {key: given.get(key, value) for key, value in DEFAULT_SETTINGS.to_dict().items()}


def _value(value: Any, lang: str) -> str:
    """A setting's value as the settings page shows it: a number, or its option's words (an
    option this version does not know as the entry holds it)."""
    known = not isinstance(value, int) and f"opt_{value}" in STRINGS
    return translate(f"opt_{value}", lang) if known else str(value)


def _settings_at(game: Game, trail: Sequence[Correction], entry: Correction) -> Any:
    """The settings in force when ``entry`` was made: those the next settings change found
    (``before``), or the game's own where none came after."""
    for later in trail:
        if later.kind == "settings" and later.id > entry.id:
            return later.before
    return game.settings


def _places_then(
    entry: Correction, trail: Sequence[Correction], tricks: Sequence[Trick]
) -> list[tuple[int, int]]:
    """The places (round, trick) of the tricks recorded when ``entry`` was made, as they were
    then: the tricks recorded by its time, each moved back where a later entry moved it (an
    insert, or its take-back), and the tricks entered by hand taken back since, at the place
    they were taken from. Counted at their places now, a trick taken back after a change
    made it read a trick (or a round) early, and a trick an insert moved on a trick late.
    The entries later than ``entry`` are those after it on the trail: an entry written in
    the same moment as a removal (a game it reopened) comes after the removal's."""
    places: dict[int, tuple[int, int]] = {
        t.id: (t.round, t.trick) for t in tricks if t.recorded_at <= entry.at
    }
    gone: list[tuple[int, int]] = []
    for later in reversed([c for c in trail if c.id > entry.id]):
        was = _place(later.before)
        if later.kind == "moved" and later.trick_id in places and was is not None:
            places[later.trick_id] = was
        elif later.kind == "removed" and was is not None and _recorded_by(later.before, entry.at):
            gone.append(was)
    return [*places.values(), *gone]


def _place(value: Any) -> tuple[int, int] | None:
    """``{"round", "trick"}`` of an entry's ``before``, or None where it holds none."""
    if not isinstance(value, Mapping):
        return None
    r, t = value.get("round"), value.get("trick")
    return (r, t) if isinstance(r, int) and isinstance(t, int) else None


def _recorded_by(removed: Any, at: float) -> bool:
    """Whether a trick taken back (a 'removed' entry's ``before``) was recorded by ``at``;
    an entry written before the store kept that time says nothing, and is left out."""
    recorded = removed.get("recorded_at") if isinstance(removed, Mapping) else None
    return isinstance(recorded, (int, float)) and recorded <= at


def _when(places: Sequence[tuple[int, int]], n: int, settings: Any, lang: str) -> str:
    """Where the game stood with tricks at ``places``: before its first trick, during a round
    (after its last trick recorded), or between rounds ("before round 4"; "after round 10"
    past the game's last round, the number of rounds as it was then)."""
    if not places:
        return translate("history_before_play", lang)
    last_round, last_trick = max(places)
    in_round = sum(1 for r, _ in places if r == last_round)
    rounds = _filled(settings)["rounds"]
    rounds = rounds if isinstance(rounds, int) else DEFAULT_SETTINGS.rounds
    if in_round < cards_in_round(last_round, n, rounds):
        return translate("history_during_round", lang, round=last_round, trick=last_trick + 1)
    if last_round < rounds:
        return translate("history_before_round", lang, round=last_round + 1)
    return translate("history_after_round", lang, round=last_round)
