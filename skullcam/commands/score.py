"""`skullcam score GAME.json [--json]`: score a recorded game and print the score table.

Extra options beyond the interface contract: ``--settings FILE`` rescores the game under other
house rules (the record's own settings are overridden, key by key), and ``--explain`` prints
every trick's verdict and every player's working, as a dispute replay would show them, and
``--as-played`` lets tricks led out of turn stand (a store export after a corrected winner).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from skullcam.errors import UserError
from skullcam.files import read_json


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "score",
        help="score a game record (skullcam-game/1 JSON)",
        description=(
            "Score a skullcam-game/1 record. Bad records are refused with one line naming the"
            " round, trick and play (counted from 1) and what is wrong."
        ),
    )
    parser.add_argument("game", type=Path, metavar="GAME.json", help="game record ('-' = stdin)")
    parser.add_argument("--json", action="store_true", help="print the documented JSON object")
    parser.add_argument(
        "--settings",
        type=Path,
        metavar="FILE",
        help="JSON object of house rules applied over the record's own settings",
    )
    parser.add_argument(
        "--explain", action="store_true", help="also print every trick's verdict and each score"
    )
    parser.add_argument(
        "--as-played",
        action="store_true",
        help=(
            "let a trick led out of turn stand as the table played it, and leave out a"
            " tie-break round a corrected trick made needless, each with a warning (after an"
            " earlier trick was corrected); without it such a record is refused"
        ),
    )
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from skullcam.rules import GameRecord, RulesError, Settings, score_game

    data = read_json(args.game, "game record")
    if args.settings is not None:
        overrides = read_json(args.settings, "settings file")
        if not isinstance(overrides, dict):
            raise UserError(f"{args.settings}: settings must be a JSON object")
        try:  # a bad key or value is the settings file's fault, not the record's
            Settings.from_dict(overrides)
        except RulesError as err:
            raise UserError(f"{args.settings}: {err}") from None
        # A record whose own settings are not an object is left as it is: reading it says so.
        if isinstance(data, dict) and isinstance(data.get("settings") or {}, dict):
            data = {**data, "settings": {**(data.get("settings") or {}), **overrides}}
    try:
        record = GameRecord.from_dict(data, as_played=args.as_played)
        score = score_game(record, as_played=args.as_played)
    except RulesError as err:
        hint = ""
        if not args.as_played and _stands_as_played(data):
            hint = " (if the table really played it so, score it as played with --as-played)"
        raise UserError(f"{args.game}: {err}{hint}") from None
    if args.json:
        print(json.dumps(score.to_json(detail=args.explain)))
        return 0
    print(format_table(score))
    if args.explain:
        print()
        print(format_explanations(score))
    return 0


def format_table(score: Any) -> str:
    """The plain score table: one row per round (points and bid/won), totals, the lead.

    Each player's column is as wide as that player's own name and cells: one long name gave
    every column its width, and a 7-player game with a 23-letter name printed 181 characters
    a row (103 now), wrapped into two lines each on a 120-column terminal."""
    names = list(score.players)
    rows = [
        [f"{points:+d} ({bid}/{won})" for points, bid, won in zip(*cells, strict=True)]
        for cells in ((rnd.points, rnd.bids, rnd.tricks_won) for rnd in score.rounds)
    ]
    totals = [f"{total:+d}" for total in score.totals]
    widths = [
        max(12, len(name) + 2, *(len(row[seat]) + 2 for row in rows))
        for seat, name in enumerate(names)
    ]

    def line(label: str, cells: list[str]) -> str:
        return label + "".join(cell.rjust(width) for cell, width in zip(cells, widths, strict=True))

    lines = [line("Round ", names)]
    for rnd, row in zip(score.rounds, rows, strict=True):
        lines.append(line(f"{rnd.number:>5}" + ("*" if not rnd.complete else " "), row))
    lines.append(line("Total ", totals))
    lines.append("")
    legend = "Cells: points (bid/won)."
    if any(not rnd.complete for rnd in score.rounds):
        legend += " * round in progress (scored when it ends)."
    lines.append(legend)
    leaders = " and ".join(names[i] for i in score.leaders)
    verb = "wins" if score.finished else "leads"
    if len(score.leaders) > 1:
        verb = "share the win" if score.finished else "share the lead"
    lines.append(f"{leaders} {verb} with {score.totals[score.leaders[0]]}.")
    for revoke in score.revokes:
        lines.append(f"Revoke: {revoke.explanation}")
    for warning in score.warnings:
        lines.append(f"Warning: {warning}")
    return "\n".join(line.rstrip() for line in lines)


def format_explanations(score: Any) -> str:
    """Every trick's explanation and every player's working, round by round."""
    lines: list[str] = []
    for rnd in score.rounds:
        dealer = score.players[rnd.dealer]
        cards = f"{rnd.cards_dealt} card{'s' if rnd.cards_dealt != 1 else ''}"
        lines.append(f"Round {rnd.number} ({cards}, {dealer} deals):")
        for trick in rnd.tricks:
            plays = ", ".join(
                f"{score.players[seat]} {card}"
                for seat, card in zip(trick.players, trick.result.cards, strict=True)
            )
            lines.append(f"  trick {trick.index + 1}: {plays}")
            lines.append(f"    {trick.result.explanation}")
        lines += [f"  {line}" for line in rnd.explanations]
    return "\n".join(lines)


def _stands_as_played(data: Any) -> bool:
    """Whether ``--as-played`` would score the record: it lets a trick be led by the wrong
    player and leaves out a tie-break round whose tie a correction undid, but not a trick
    played out of clockwise order, so the hint is offered only where it helps."""
    from skullcam.rules import RulesError, score_as_played

    try:
        score_as_played(data)
    except RulesError:
        return False
    return True
