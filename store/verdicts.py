"""The store's questions to the rules engine about one trick: who won it, and why.

A camera can misread a card into a trick no deck could produce (the same card twice). Such a
trick must still be stored, to be corrected on its replay page, so these never raise: the
rules engine's error becomes ``{"error": ...}`` in place of a resolution.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skullcam.rules import IllegalPlayError, RulesError, TrickResult, parse_card, resolve_trick
from skullcam.rules.explain import Phrase, render

from . import checks


def resolve(
    plays: Sequence[Mapping[str, Any]],
    settings: Mapping[str, Any],
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """``resolve_trick(...).to_json()`` for plays in play order (indices are play indices).

    ``names`` (seat order) lets the explanation say "Ana" instead of "play 0", and tells a
    short trick (a card the camera missed) from a whole one. A trick no deck could produce,
    or a short one, gives ``{"error": ...}`` instead of raising, so it can still be stored
    and then corrected.
    """
    return resolution_json(verdict(plays, settings, names))


def resolution_json(verdict: TrickResult | RulesError) -> dict[str, Any]:
    """A verdict as the store keeps it: the result's ``to_json()``, or ``{"error": ...}``."""
    if isinstance(verdict, RulesError):
        return {"error": str(verdict)}
    return dict(verdict.to_json())


def verdict(
    plays: Sequence[Mapping[str, Any]],
    settings: Mapping[str, Any],
    names: Sequence[str] | None = None,
) -> TrickResult | RulesError:
    """The rules engine's result for ``plays``, or its error for a trick no deck could make
    (a misread card read twice: it is stored anyway, to be corrected).

    With ``names``, a trick with fewer cards than players gets no winner: resolving the cards
    that were seen would name one, and the missed card may well have beaten it."""
    if names is not None and len(plays) < len(names):
        return short_trick_error(len(plays), len(names))
    labels = None if names is None else [names[int(p["player"])] for p in plays]
    try:
        cards = [parse_card(p["card"]) for p in plays]
        return resolve_trick(cards, checks.settings_obj(settings), labels)
    except RulesError as err:
        return err


def winner_player(plays: Sequence[Mapping[str, Any]], resolution: Mapping[str, Any]) -> int | None:
    """The winning seat: a resolution names the winning *play*, pages and bids count seats."""
    idx = resolution.get("winner")
    if isinstance(idx, int) and 0 <= idx < len(plays):
        return int(plays[idx]["player"])
    return None


def bonus_for(verdict: TrickResult | RulesError) -> list[dict[str, Any]]:
    """What a trick's capture bonus is paid for, for a page to name it (``TrickResult.bonus_for``):
    ``[{"points": 20, "card": "black-14", "captured": False}, ...]``; none for a trick no deck
    could produce."""
    if isinstance(verdict, RulesError):
        return []
    return [
        {"points": points, "card": str(card), "captured": captured}
        for points, card, captured in verdict.bonus_for
    ]


def loot_alliances(
    verdict: TrickResult | RulesError,
    plays: Sequence[Mapping[str, Any]],
    settings: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """The Loot alliances a trick makes, by seat, for a page to name them (the TV's banner):
    ``[{"loot": 4, "winner": 3, "points": 20}, ...]``, each paid to both if both bids are exact.
    Empty under "no bonuses" scoring, which pays none (``rules.scoring``), and for a trick no
    deck could produce."""
    rules = checks.settings_obj(settings)
    if isinstance(verdict, RulesError) or rules.scoring == "no_bonus":
        return []
    return [
        {
            "loot": int(plays[loot]["player"]),
            "winner": int(plays[winner]["player"]),
            "points": rules.loot_alliance_bonus,
        }
        for loot, winner in verdict.loot_alliances
    ]


def short_trick_error(cards: int, players: int) -> IllegalPlayError:
    """Why a trick with a card missing has no winner, and what to do about it."""
    phrase = Phrase("trick_short", {"cards": cards, "players": players})
    reason = render([phrase])
    return IllegalPlayError(reason, reason=reason, phrase=phrase)
