"""``skullcam detect``: the cards in still images, as text or the documented JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from skullcam.cli import add_data_argument
from skullcam.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "detect",
        help="card detections in still images",
        description=(
            "Find the cards in still images with the active model (or --model): each card's id,"
            " confidence, box and corners, in the images' own pixels. --json prints"
            ' {"images": [{"path", "cards": [{"card", "confidence", "box": [x1, y1, x2, y2],'
            ' ...}]}], "model"} for other programs.'
        ),
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: active)")
    parser.add_argument("--json", action="store_true", help="print the documented JSON object")
    add_data_argument(parser)
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from skullcam.vision.image_io import check_image_file, read_colour_image
    from skullcam.vision.recognizer import Recognizer

    for path in args.images:  # check every path before loading the model
        check_image_file(path)
    recognizer = Recognizer.load(args.model, data_dir=args.data)
    results = []
    for path in args.images:
        image = read_colour_image(path)  # its errors name the file already
        try:
            cards = recognizer(image)
        except UserError as err:  # the recognizer's do not
            raise UserError(f"{path}: {err}") from None
        results.append({"path": str(path), "cards": [c.to_json() for c in cards]})
    if args.json:
        print(json.dumps({"images": results, "model": recognizer.version}))
        return 0
    for result in results:
        cards = result["cards"]
        print(f"{result['path']}: {len(cards)} card(s)")
        for c in cards:
            x1, y1, x2, y2 = c["box"]
            box = f"({x1:.0f},{y1:.0f},{x2:.0f},{y2:.0f})"
            print(f"  {c['card']:<16} {c['confidence']:.2f}  box={box}")
    return 0
