"""``skullcam replay SOURCE --players N``: the full pipeline over a recorded game.

Runs exactly what ``skullcam run`` runs (recognizer, tracker, trick state machine, rules) over a
video file or a folder of frames, as fast as the machine allows, and prints the trick log and
the scores; ``--json`` prints the recognized ``skullcam-game/1`` record instead. Decisions use
the recording's timestamps only, so the same input gives the same output every time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from skullcam.cli import add_data_argument
from skullcam.counts import agreeing, counted
from skullcam.errors import UserError
from skullcam.files import read_json
from skullcam.rules import same_name, visible_name


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay",
        help="run the full pipeline over a recorded video or folder of frames",
        description="Run the camera pipeline over a recorded game and print tricks and scores.",
    )
    parser.add_argument(
        "source", metavar="SOURCE", help="video file, folder of frames, or game folder"
    )
    parser.add_argument("--players", type=int, required=True, metavar="N", help="players (2-8)")
    parser.add_argument(
        "--first-dealer",
        type=int,
        default=None,
        metavar="K",
        help="seat of the first dealer (default: the game folder's game.json says, else 0)",
    )
    parser.add_argument(
        "--bids",
        type=Path,
        default=None,
        metavar="FILE",
        help="JSON list of per-round bid lists, or a game record (its bids, and its settings "
        "unless --settings is given); without it every bid counts as 0",
    )
    parser.add_argument(
        "--settings",
        type=Path,
        default=None,
        metavar="FILE",
        help="JSON object of house rules (default: the settings of the game record given as --bids"
        " or of the game folder's game.json, else the standard rules)",
    )
    parser.add_argument("--json", action="store_true", help="print the recognized game record")
    parser.add_argument(
        "--fps",
        type=float,
        default=None,
        metavar="F",
        help=(
            'frame rate of a folder of frames (default: the folder\'s meta.json "fps", else 10;'
            " a video's own rate wins)"
        ),
    )
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: active)")
    parser.add_argument(
        "--seats",
        type=Path,
        default=None,
        metavar="FILE",
        help="seat calibration from 'skullcam calibrate' (default: the data folder's, if any)",
    )
    parser.add_argument(
        "--names",
        default=None,
        metavar="A,B,...",
        help="player names, clockwise from seat 0 (default: the game folder's game.json, else "
        "Player 1, Player 2, ...)",
    )
    add_data_argument(parser)
    parser.set_defaults(func=_run)


def player_names(names: str | None, n: int) -> list[str]:
    if not 2 <= n <= 8:
        raise UserError(f"--players {n}: Skull King is played by 2 to 8 players")
    if names is None:
        return [f"Player {i + 1}" for i in range(n)]
    out = [visible_name(s) for s in names.split(",")]
    empty = not all(out)
    clash = None if empty else same_name(out)
    if len(out) != n or empty or clash is not None:
        why = " (a name is empty)" if empty else f" ({clash})" if clash else ""
        raise UserError(f"--names needs {n} distinct comma-separated names, got {names!r}{why}")
    return out


def _defaults_from_game_folder(args: argparse.Namespace) -> str | None:
    """Fill ``--first-dealer``, ``--names`` and ``--settings`` left out from the game record
    kept with the recording (a game folder, or its ``game.*`` video): with the wrong first
    dealer every trick reads as led out of turn, and the record does not score; without its
    settings, a 3-round game scores as 10 rounds, unfinished. Returns what was taken,
    to say once the arguments have passed their checks (before an error it only adds a
    line)."""
    source = Path(args.source)
    folder = source if source.is_dir() else source.parent if source.stem == "game" else None
    record_path = folder / "game.json" if folder is not None else None
    taken = []
    if record_path is not None and record_path.is_file():
        record = read_json(record_path, "game record")
        players = record.get("players") if isinstance(record, dict) else None
        if isinstance(players, list) and len(players) == args.players:
            dealer = record.get("first_dealer", 0)
            if args.first_dealer is None:
                # bool is an int to Python: a hand-edited "first_dealer": true is no seat.
                if isinstance(dealer, bool) or not isinstance(dealer, int):
                    dealer = -1
                if not 0 <= dealer < args.players:
                    raise UserError(
                        f"{record_path}: first_dealer must be a seat 0..{args.players - 1}, "
                        f"got {json.dumps(record.get('first_dealer'))[:40]}; "
                        "fix it or give --first-dealer"
                    )
                args.first_dealer = dealer
                taken.append(f"first dealer {dealer}")
            if args.names is None and all(isinstance(p, str) and "," not in p for p in players):
                args.names = ",".join(players)
                taken.append("the players' names")
            settings = record.get("settings")
            if (
                args.settings is None
                and not _brings_settings(args.bids)
                and isinstance(settings, dict)
            ):
                # Its rounds, say: without them a 3-round game scored as 10 rounds, unfinished
                # (also beside a --bids file that is a plain list of bids, with no settings).
                args.settings_record = record_path
                taken.append("the settings")
    if args.first_dealer is None:
        args.first_dealer = 0
    if not taken:
        return None
    said = f"replay: {' and '.join(taken)} from {record_path}"
    if args.bids is None and args.json:
        # Bids are not on the table for the camera: say where this game's are (the text
        # output says it beside the scores).
        said += f"; no --bids given, so every bid counts as 0 (its own: --bids {record_path})"
    args.bids_hint = record_path
    return said


def _brings_settings(bids: Path | None) -> bool:
    """Whether a ``--bids`` file is a game record with settings (which then apply)."""
    if bids is None:
        return False
    record = read_json(bids, "bids file")
    return isinstance(record, dict) and isinstance(record.get("settings"), dict)


def _run(args: argparse.Namespace) -> int:
    from skullcam.device.pipeline import trick_log_lines
    from skullcam.device.referee import Referee
    from skullcam.device.replay import (
        load_bids,
        load_settings,
        open_replay_source,
        replay_source,
    )
    from skullcam.device.sources import MAX_FPS
    from skullcam.vision.seats import CALIBRATION_FILE

    taken = _defaults_from_game_folder(args)
    names = player_names(args.names, args.players)
    if not 0 <= args.first_dealer < args.players:
        raise UserError(f"--first-dealer must be a seat 0..{args.players - 1}")
    if args.fps is not None and not 0 < args.fps <= MAX_FPS:
        raise UserError(f"--fps must be more than 0 and at most {MAX_FPS:g}")
    settings = load_settings(args.settings, getattr(args, "settings_record", None) or args.bids)
    bids = load_bids(args.bids, names, settings)
    seats = args.seats
    if seats is None and args.data is not None:
        candidate = Path(args.data) / CALIBRATION_FILE
        seats = candidate if candidate.is_file() else None
        if seats is not None:
            from skullcam.vision.seats import SeatLayout

            if SeatLayout.load(seats).n_players != args.players:
                seats = None  # calibrated for another table size: use the default
    source = open_replay_source(args.source, args.fps)
    for said in (taken, _bids_short(bids, settings.rounds)):
        if said is not None:
            print(said, file=sys.stderr)
    from skullcam.vision.recognizer import Recognizer

    recognizer = Recognizer.load(args.model, data_dir=args.data)
    referee = Referee(names, args.first_dealer, settings, bids)
    with source:
        pipeline = replay_source(source, args.source, recognizer, referee, seats=seats)
    record = referee.record()
    flagged = sum(1 for o in pipeline.outcomes if o.flags)
    if repeats := pipeline.stats.repeats:
        them = agreeing(repeats, "it", "them")
        print(
            f"{counted(repeats, 'frame')} repeated the picture before {them} (a frozen camera):"
            " read as that picture, not recognized again",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(record, indent=2))
        # stdout is the record alone (a program reads it); what a person should know before
        # trusting it goes to stderr, as in the text output.
        if "error" in (score := referee.score()):
            print(
                f"the recognized record does not score: {score['error']} "
                "(check --players, --first-dealer and --names)",
                file=sys.stderr,
            )
        elif (strict := _strict_refusal(record)) is not None:
            print(
                f"the recognized record scores only as played ('skullcam score --as-played'):"
                f" {strict} (check --players and --first-dealer)",
                file=sys.stderr,
            )
        _say_flagged(flagged)
        return 0
    for line in trick_log_lines(pipeline.outcomes, names):
        print(line)
    if not pipeline.outcomes:
        print("no completed trick was recognized")
    score = referee.score()
    if bids is None:
        hint = getattr(args, "bids_hint", None)
        own = f"; the game's own: --bids {hint}" if hint is not None else ""
        print(f"(no --bids given: every bid counts as 0 in these scores{own})")
    if "error" in score:
        print(f"scores: cannot score the recognized game: {score['error']}")
        return 0
    for number, rnd in enumerate(score["rounds"], start=1):
        points = "  ".join(f"{n} {p:+d}" for n, p in zip(names, rnd["points"], strict=True))
        print(f"round {number}: {points}")
    totals = "  ".join(f"{n} {p}" for n, p in zip(names, score["totals"], strict=True))
    print(f"totals: {totals}")
    _say_flagged(flagged)
    return 0


def _say_flagged(flagged: int) -> None:
    """Count the tricks a person should check, last on stderr, after either output."""
    if flagged:
        print(f"{counted(flagged, 'trick')} flagged for a person to check", file=sys.stderr)


def _strict_refusal(record: dict[str, Any]) -> str | None:
    """Why ``skullcam score`` (not ``--as-played``) refuses the record, or None: a trick led
    out of turn stands in the camera's record, but a program scoring it strictly stops."""
    from skullcam.rules import GameRecord, RulesError, score_game

    try:
        score_game(GameRecord.from_dict(record))
    except RulesError as err:
        return str(err)
    return None


def _bids_short(bids: list[list[int]] | None, rounds: int) -> str | None:
    """What a bids file for fewer rounds than the game's means for the scores, or None."""
    if bids is None or len(bids) >= rounds:
        return None
    return (
        f"replay: --bids has bids for {len(bids)} of {counted(rounds, 'round')}: "
        "the later rounds' bids count as 0 in the scores"
    )
