"""``skullcam detect``: the cards in still images, as text or the documented JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skullcam.cli import add_data_argument, print_error
from skullcam.counts import counted
from skullcam.errors import UserError

if TYPE_CHECKING:
    from skullcam.vision.recognizer import Recognizer


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "detect",
        help="card detections in still images",
        description=(
            "Find the cards in still images with the active model (or --model): each card's id,"
            " confidence, box and corners, in the images' own pixels. --json prints"
            ' {"images": [{"path", "cards": [{"card", "confidence", "box": [x1, y1, x2, y2],'
            ' ...}]}], "model"} for other programs ("model" null when no file passed the'
            " check before the model loads: every path missing or a folder). A card cut"
            " by the image's edge is boxed on its whole outline, so its box may reach past the"
            " edge (below 0 or beyond the width or height)."
            " An image that cannot be read (missing, not an image, no colour, too small) gets"
            " an error line on stderr and the other images are still read (--json lists only"
            " those); the exit status is then 2."
        ),
    )
    parser.add_argument(
        "images", nargs="+", type=Path, metavar="IMAGE", help="photos to read (JPEG or PNG)"
    )
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: active)")
    parser.add_argument("--json", action="store_true", help="print the documented JSON object")
    add_data_argument(parser)
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from skullcam.vision.image_io import check_image_file
    from skullcam.vision.recognizer import Recognizer

    files = []
    for path in args.images:  # every path checked before the model loads: a typo costs no wait
        try:
            check_image_file(path)
            files.append(path)
        except UserError as err:
            print_error("detect", err)
    if not files:
        if args.json:  # one JSON object per run, as promised, for a program reading stdout,
            # with the keys it always has; no model was loaded to read nothing
            print(json.dumps({"images": [], "model": None}))
        return 2
    recognizer = Recognizer.load(args.model, data_dir=args.data)
    results = []
    for path in files:
        try:
            result = {"path": str(path), "cards": _cards_in(recognizer, path)}
        except UserError as err:  # this image's problem: the others are still read
            print_error("detect", err)
            continue
        results.append(result)
        if not args.json:
            _print_cards(result)
    if args.json:
        print(json.dumps({"images": results, "model": recognizer.version}))
    return 0 if len(results) == len(args.images) else 2


def _cards_in(recognizer: Recognizer, path: Path) -> list[dict[str, Any]]:
    """The JSON form of the cards in the image at ``path``; a UserError naming the file."""
    from skullcam.vision.image_io import read_image

    image = read_image(path)  # its errors name the file already
    try:
        cards = recognizer.read_picture(image)
    except UserError as err:  # the recognizer's do not
        raise UserError(f"{path}: {err}") from None
    return [c.to_json() for c in cards]


def _print_cards(result: dict[str, Any]) -> None:
    """One image's cards as text, printed as soon as it is read."""
    cards = result["cards"]
    print(f"{result['path']}: {counted(len(cards), 'card')}", flush=True)
    for c in cards:
        x1, y1, x2, y2 = c["box"]
        box = f"({x1:.0f},{y1:.0f},{x2:.0f},{y2:.0f})"
        print(f"  {c['card']:<16} {c['confidence']:.2f}  box={box}", flush=True)
