"""`skullcam synth deck|scenes|game|sheet`: the synthetic deck, scene and game-video generator.

Heavy imports (cv2, numpy) stay inside the handlers so ``skullcam --help`` stays fast.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from skullcam.cli import non_negative_int, output_path, positive_int, scene_count
from skullcam.counts import counted
from skullcam.errors import UserError
from skullcam.parallel import usable_cores
from skullcam.rules import FACES

# What `synth game` offers, spelled out here so `skullcam --help` needs no numpy or OpenCV;
# the tests hold them equal to datasets/game_config.py's HABITS and PACES.
HABITS = ("lead-early", "push-aside", "take-back", "swap-last", "hover")
PACES = ("normal", "brisk", "quick")


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "synth",
        help="synthetic deck, labelled trick scenes and game videos",
        description="Generate a stand-in deck, labelled trick scenes (YOLO OBB) or a whole "
        "recorded game (frames/video + true game record). See docs/synth.md.",
    )
    parser.set_defaults(
        func=lambda args: parser.error("choose one of: deck, scenes, relabel, game, sheet")
    )
    ssub = parser.add_subparsers(dest="synth_command", metavar="{deck,scenes,relabel,game,sheet}")

    deck = ssub.add_parser(
        "deck", help=f"write a stand-in deck ({len(FACES)} <card-id>.png + manifest.json)"
    )
    deck.add_argument("--out", type=output_path, required=True, help="deck folder to write")
    deck.add_argument("--style", default="classic", help="art style: classic (default) or alt")
    deck.add_argument("--name", default=None, help="deck name for the manifest")
    deck.set_defaults(func=_deck)

    scenes = ssub.add_parser(
        "scenes",
        help="labelled trick scenes as an ultralytics OBB dataset",
        description="Render N photographic trick scenes (640x480 JPEG) with YOLO OBB labels "
        "(class 0 = card), per-scene JSON records and data.yaml. --count is split into "
        "train/val/test by the fractions, or written to one split with --split.",
    )
    scenes.add_argument(
        "--deck", type=Path, required=True, help="deck folder (skullcam synth deck)"
    )
    scenes.add_argument("--count", type=scene_count, required=True, help="number of scenes")
    scenes.add_argument("--out", type=output_path, required=True, help="dataset folder to write")
    scenes.add_argument("--seed", type=non_negative_int, default=0, help="random seed (default 0)")
    scenes.add_argument("--val-fraction", type=_fraction, default=0.1, help="share for val (0.1)")
    scenes.add_argument("--test-fraction", type=_fraction, default=0.1, help="share for test (0.1)")
    scenes.add_argument(
        "--split",
        choices=("train", "val", "test"),
        default=None,
        help="write all scenes to this one split instead",
    )
    scenes.add_argument(
        "--min-visible",
        type=_fraction,
        default=0.5,
        help="label a card only if at least this fraction is visible (0.5)",
    )
    scenes.add_argument(
        "--labels",
        choices=("card", "card+marks"),
        default="card",
        help="card: one OBB per card (class 0, default); card+marks: also each visible corner "
        "mark (class 1)",
    )
    scenes.add_argument(
        "--backgrounds",
        type=Path,
        default=None,
        help="folder of table photos to use as surfaces besides the procedural ones",
    )
    scenes.add_argument(
        "--workers",
        type=positive_int,
        default=min(2, usable_cores()),
        help="parallel worker processes (default: min(2, CPUs))",
    )
    scenes.add_argument("--no-progress", action="store_true", help="no progress bar")
    scenes.set_defaults(func=_scenes)

    relabel = ssub.add_parser(
        "relabel",
        help="redraw a scene dataset's card labels at another visibility threshold",
        description="Rewrite the YOLO label files (and the labelled flags of scenes.jsonl) of a "
        "dataset written by 'skullcam synth scenes', labelling each card at least MIN_VISIBLE "
        "visible, without rendering the scenes again.",
    )
    relabel.add_argument("--dataset", type=Path, required=True, help="scene dataset folder")
    relabel.add_argument(
        "--min-visible",
        type=_fraction,
        required=True,
        help="label a card only if at least this fraction is visible (synth scenes uses 0.5)",
    )
    relabel.set_defaults(func=_relabel)

    game = ssub.add_parser(
        "game",
        help="a whole legal game rendered frame by frame, with its true record",
        description="Deal, bid and play a legal game, then render every trick card by card with a "
        "fixed camera: frames/frame_000000.jpg..., optional game.mp4, game.json (skullcam-game/1), "
        "truth.json and meta.json.",
    )
    game.add_argument("--deck", type=Path, required=True, help="deck folder (skullcam synth deck)")
    game.add_argument("--players", type=int, required=True, help="number of players (2..8)")
    game.add_argument("--out", type=output_path, required=True, help="output folder")
    game.add_argument("--seed", type=non_negative_int, default=0, help="random seed (default 0)")
    game.add_argument("--rounds", type=int, default=10, help="rounds to play (1..10, default 10)")
    game.add_argument("--fps", type=float, default=10.0, help="frame rate (default 10)")
    game.add_argument("--video", action="store_true", help="also write game.mp4")
    game.add_argument(
        "--no-frames", action="store_true", help="do not keep frames/ (needs --video)"
    )
    game.add_argument(
        "--expansion",
        action="store_true",
        help="shuffle in Loot, Kraken and White Whale (their settings on)",
    )
    game.add_argument(
        "--first-round",
        type=positive_int,
        default=1,
        metavar="N",
        help="render only rounds N..--rounds (game.json still holds the whole game; default 1)",
    )
    game.add_argument(
        "--pace",
        choices=PACES,
        default="normal",
        help="how fast hands move and tricks are taken: normal (default), brisk or quick",
    )
    game.add_argument(
        "--habit",
        action="append",
        default=[],
        metavar="NAME=P",
        help="a table habit with its chance per trick, 0..1 (repeatable): "
        + ", ".join(HABITS)
        + " (see docs/synth.md)",
    )
    game.add_argument("--no-progress", action="store_true", help="no progress bar")
    game.set_defaults(func=_game)

    sheet = ssub.add_parser("sheet", help="contact sheet: scenes with their labels drawn, one PNG")
    sheet.add_argument("--dataset", type=Path, required=True, help="dataset folder (synth scenes)")
    sheet.add_argument("--out", type=output_path, required=True, help="PNG file to write")
    sheet.add_argument("--split", default="train", help="split to show (train)")
    sheet.add_argument("--count", type=positive_int, default=12, help="scenes to show (12)")
    sheet.add_argument("--columns", type=positive_int, default=4, help="columns (4)")
    sheet.add_argument("--scale", type=float, default=0.5, help="scene scale in the sheet (0.5)")
    sheet.set_defaults(func=_sheet)


def _deck(args: argparse.Namespace) -> int:
    from skullcam.datasets.deck import get_style, write_deck

    get_style(args.style)
    out = write_deck(args.out, style=args.style, name=args.name)
    print(f"wrote the {args.style} deck's {len(FACES)} faces to {out}")
    return 0


def _relabel(args: argparse.Namespace) -> int:
    from skullcam.datasets.dataset import relabel_scenes

    labelled = relabel_scenes(args.dataset, args.min_visible)
    parts = ", ".join(f"{split} {counted(n, 'labelled card')}" for split, n in labelled.items())
    print(f"relabelled {args.dataset} at min visible {args.min_visible}: {parts}")
    return 0


def _scenes(args: argparse.Namespace) -> int:
    from skullcam.datasets import props
    from skullcam.datasets.dataset import split_counts, write_scenes
    from skullcam.datasets.scenes import SceneConfig

    if args.split:
        counts = {args.split: args.count}
    else:
        counts = split_counts(args.count, args.val_fraction, args.test_fraction)
    backgrounds: tuple[Path, ...] = ()
    if args.backgrounds is not None:
        if not args.backgrounds.is_dir():
            raise UserError(f"--backgrounds {args.backgrounds} is not a folder of images")
        backgrounds = props.list_backgrounds(args.backgrounds)
        if not backgrounds:
            raise UserError(f"--backgrounds {args.backgrounds} holds no .jpg/.png images")
    config = SceneConfig(min_visible=args.min_visible, backgrounds=backgrounds)
    labelled = write_scenes(
        args.deck,
        args.out,
        counts,
        seed=args.seed,
        config=config,
        workers=args.workers,
        progress=not args.no_progress,
        marks=args.labels == "card+marks",
    )
    parts = ", ".join(
        f"{split} {counted(n, 'scene')} / {counted(labelled[split], 'labelled card')}"
        for split, n in counts.items()
    )
    print(f"wrote {parts} to {args.out.resolve()} (data.yaml inside)")
    return 0


def _game(args: argparse.Namespace) -> int:
    from skullcam.datasets.game_config import GameConfig, Habits
    from skullcam.datasets.game_video import write_game

    if args.no_frames and not args.video:
        raise UserError("--no-frames needs --video, or nothing would be written")
    config = GameConfig(
        players=args.players,
        rounds=args.rounds,
        fps=args.fps,
        expansion=args.expansion,
        first_round=args.first_round,
        habits=Habits.parse(args.habit),
    ).with_pace(args.pace)
    summary = write_game(
        args.deck,
        args.out,
        config,
        seed=args.seed,
        video=args.video,
        frames=not args.no_frames,
        progress=not args.no_progress,
    )
    print(summary)
    return 0


def _sheet(args: argparse.Namespace) -> int:
    from skullcam.datasets.sheet import write_contact_sheet

    path = write_contact_sheet(
        args.dataset,
        args.out,
        split=args.split,
        count=args.count,
        columns=args.columns,
        scale=args.scale,
    )
    print(f"wrote {path}")
    return 0
