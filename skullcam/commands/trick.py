"""`skullcam trick CARD... [--settings FILE] [--json]`: resolve one trick from the command line.

Cards are given in play order (the first led); the verdict is the rules engine's, with the
same explanation a dispute replay shows.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from skullcam.errors import UserError
from skullcam.files import read_json

#: The verdict line's bonus condition, as the scorer pays it (the explanation says the same).
_BONUS_PAID = {
    "exact": " if the bid is exact",
    "always": ", paid whether the bid is exact or not",
    "rascal": (
        ": all of it if the bid is exact, half if it is off by one unless a cannonball was called"
    ),
}


def register(sub: argparse._SubParsersAction) -> None:
    from skullcam.rules.cards import card_ids_in_words

    parser = sub.add_parser(
        "trick",
        help="resolve one trick, cards in play order (first = leader)",
        description=(
            "Resolve one trick. Cards are ids like green-7, black-14, escape, pirate-rosie,"
            " tigress:pirate, tigress:escape, skull-king, mermaid-alyra, loot, kraken,"
            " white-whale (case-insensitive), in play order: the first card led. The verdict,"
            " its explanation and errors count plays from 1 (play 1 led), as the table does;"
            " with --json they count from 0, as its indices."
        ),
        epilog=(
            f"card ids: {card_ids_in_words()} (the five escapes share one id, as do the two"
            " loot cards)."
        ),
    )
    parser.add_argument("cards", nargs="+", metavar="CARD", help="card ids in play order")
    parser.add_argument(
        "--settings",
        type=Path,
        metavar="FILE",
        help="JSON object of house rules (keys: docs/rules-engine.md, Settings)",
    )
    parser.add_argument("--json", action="store_true", help="print the documented JSON object")
    parser.set_defaults(func=_run)


def load_settings(path: Path | None) -> Any:
    """The ``Settings`` in a JSON file (defaults when ``path`` is None); UserError if bad."""
    from skullcam.rules import RulesError, Settings

    if path is None:
        return Settings()
    data = read_json(path, "settings file")
    try:
        return Settings.from_dict(data)
    except RulesError as err:
        raise UserError(f"{path}: {err}") from None


def _run(args: argparse.Namespace) -> int:
    from skullcam.rules import RulesError, parse_card, resolve_trick, unresolved_reason

    settings = load_settings(args.settings)
    # The JSON numbers plays from 0 (interfaces.md), and so do its explanation and the errors
    # beside it, where "play 2" named the JSON's play 1; a person reads "play 1" as the first
    # card, so the text counts from 1.
    first = 0 if args.json else 1
    cards = []
    for index, text in enumerate(args.cards, start=first):
        try:
            cards.append(parse_card(text))
        except RulesError as err:
            raise UserError(f"play {index}: {err}") from None
    labels = None if args.json else [f"play {i}" for i in range(1, len(cards) + 1)]
    try:
        result = resolve_trick(cards, settings, labels)
    except RulesError as err:
        raise UserError(unresolved_reason(err, cards, first)) from None
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    if result.winner is None:
        print(f"Nobody wins this trick; play {result.next_leader + 1} leads next.")
    else:
        line = f"Play {result.winner + 1} wins with {result.winning_card}"
        if result.bonus:
            line += f" (+{result.bonus} bonus{_BONUS_PAID[settings.bonus_paid()]})"
        print(line + ".")
    print(result.explanation)
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return 0
