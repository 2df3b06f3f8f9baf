"""``skullcam calibrate``: where the players sit around the table (seat zones).

Two ways, both saved to ``<data>/seats.json`` and used by ``run`` and ``replay``:

* ``skullcam calibrate --players 5 --first-seat left``: players evenly spaced around the image
  centre, player 0 towards the given side (or angle), then clockwise;
* ``skullcam calibrate --players 5 --image table.jpg`` (or ``--camera 0``): each player lays one
  card in front of themselves; the cards found in that one frame give every seat's direction
  (player 0 is the card nearest ``--first-seat``, default bottom).

``--show`` prints the layout in use, ``--reset`` goes back to the default of interfaces.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from skullcam.cli import add_data_argument
from skullcam.counts import counted
from skullcam.errors import UserError

if TYPE_CHECKING:  # the command line imports its commands' heavy parts only when they run
    import numpy as np

    from skullcam.vision.seats import SeatLayout


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "calibrate",
        help="seat calibration: where each player sits around the table",
        description=(
            "Set the seat zones used to tell which player played each card. --players N alone"
            " spaces the seats evenly around the centre; with --image or --camera, each player"
            " lays one card in front of them and the cards found set the seats (player 0: the"
            " card nearest --first-seat). Saved in the data folder, where run and replay read"
            " it."
        ),
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="players (2-8); with --image or --camera, the cards to expect (default: as many"
        " as are found)",
    )
    parser.add_argument(
        "--first-seat",
        default=None,
        metavar="SIDE",
        help="where player 0 sits: bottom, left, top, right or degrees (default bottom)",
    )
    parser.add_argument(
        "--center",
        default=None,
        metavar="X,Y",
        help="table centre in the frame's pixels (default: the middle of the frame)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--image",
        type=Path,
        default=None,
        help="a photo of the table with one card laid in front of each player",
    )
    source.add_argument(
        "--camera",
        default=None,
        metavar="SRC",
        help="take that picture from SRC instead, as 'skullcam run --camera' takes it (an index,"
        " stream URL, 'picamera' or a video)",
    )
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: active)")
    parser.add_argument("--show", action="store_true", help="print the layout in use and exit")
    parser.add_argument("--reset", action="store_true", help="forget the calibration")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the layout as JSON on stdout (null when none is saved); messages to stderr",
    )
    add_data_argument(parser)
    parser.set_defaults(func=_run)


def _centre(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        x = y = math.nan
    if not (math.isfinite(x) and math.isfinite(y)):  # nan/inf would be saved as invalid JSON
        raise UserError(f"--center wants X,Y in pixels (e.g. 320,240), got {text!r}")
    return (x, y)


def _check_centre(text: str, centre: tuple[float, float], size: tuple[int, int], what: str) -> None:
    """Refuse a centre off the picture: every card would then lie the same way from it, and
    every trick would go to one or two seats."""
    width, height = size
    if not (0 <= centre[0] <= width and 0 <= centre[1] <= height):
        raise UserError(
            f"--center {text} lies outside the {width} x {height} {what}; give the table's "
            f"centre in its pixels (0..{width}, 0..{height})"
        )


def _frame(args: argparse.Namespace) -> np.ndarray:
    if args.image is not None:
        from skullcam.vision.image_io import read_image

        return read_image(args.image)
    from skullcam.device.sources import open_source

    with open_source(args.camera) as source:
        first: np.ndarray | None = None
        for frame in source.frames():
            first = frame.image if first is None else first
            # A live camera's first frames come before its exposure and white balance settle:
            # the cards read from them would be darker than the game's.
            if not source.live or frame.timestamp >= SETTLE_S:
                return frame.image
        if first is not None:
            return first
    raise UserError(f"{args.camera} gave no frame")


SETTLE_S = 1.0
"""How long a live camera runs before its frame is used (auto exposure settles in well under
a second)."""


def _describe(layout: SeatLayout) -> str:
    cx, cy = layout.centre
    seats = ", ".join(f"{k}: {math.degrees(a):.0f} deg" for k, a in enumerate(layout.angles))
    return f"{layout.n_players} seats around ({cx:.0f}, {cy:.0f}), clockwise: {seats}"


def _check_one_task(args: argparse.Namespace) -> None:
    """--show and --reset each do only that, so one given with the other, or with what a new
    calibration is made from, is refused: '--reset --players 5' would forget the calibration
    and drop the 5 seats unsaid, '--show --players 3' show the old layout and save nothing
    (as would '--reset --first-seat left' or '--show --model DIR')."""
    only = [flag for flag, given in (("--show", args.show), ("--reset", args.reset)) if given]
    new = [
        flag
        for flag, value in (
            ("--players", args.players),
            ("--image", args.image),
            ("--camera", args.camera),
            ("--center", args.center),
            ("--first-seat", args.first_seat),
            ("--model", args.model),
        )
        if value is not None
    ]
    if only and len(only + new) > 1:
        raise UserError(
            f"{only[0]} does only that: give it alone, without {', '.join((only + new)[1:])}"
        )


def _run(args: argparse.Namespace) -> int:
    from skullcam.vision.seats import CALIBRATION_FILE, SeatLayout, parse_direction

    path = Path(args.data) / CALIBRATION_FILE
    _check_one_task(args)
    if args.reset:
        try:
            path.unlink(missing_ok=True)
        except OSError as err:  # a read-only data folder refuses it, there or not
            raise UserError(
                f"cannot remove {path} ({err.strerror or err}): make {path.parent} writable,"
                " or pass another --data"
            ) from None
        said = f"seat calibration removed; the default layout applies ({path})"
        if args.json:  # stdout stays JSON, as --json promises: null, none saved now
            print("null")
        print(said, file=sys.stderr if args.json else sys.stdout)
        return 0
    # --json alone asks to see the saved layout, as its help says: nothing new is calibrated.
    nothing_new = args.players is None and args.image is None and args.camera is None
    if args.show or (args.json and nothing_new):
        if not path.is_file():
            said = "no calibration: players evenly spaced, player 0 at the bottom, clockwise"
            if args.json:  # stdout stays JSON for the program reading it: null, no layout
                print("null")
            print(said, file=sys.stderr if args.json else sys.stdout)
            return 0
        layout = SeatLayout.load(path)
        print(json.dumps(layout.to_json()) if args.json else _describe(layout))
        return 0
    first = parse_direction(args.first_seat or "bottom")
    centre = _centre(args.center)
    if args.image is None and args.camera is None:
        if args.players is None:
            raise UserError("give --players N (and --first-seat), or --image/--camera")
        from skullcam.device.sources import WORKING_SIZE

        layout = SeatLayout.evenly(args.players, WORKING_SIZE, first=first)
        if centre is not None:
            _check_centre(args.center, centre, WORKING_SIZE, "camera frame")
            layout = SeatLayout(centre, layout.angles, frame_size=WORKING_SIZE)
    else:
        from skullcam.vision.recognizer import Recognizer
        from skullcam.vision.tracker import centre_in_frame

        image = _frame(args)
        cards = Recognizer.load(args.model, data_dir=args.data)(image)
        if args.players is not None and len(cards) != args.players:
            raise UserError(
                f"found {counted(len(cards), 'card')} for --players {args.players}: lay exactly"
                " one card in front of each player, clear the rest of the table, and try again"
            )
        height, width = image.shape[:2]
        if centre is not None:
            _check_centre(args.center, centre, (width, height), "image")
        # Where the tracker places the same cards in play (a cut card: its part in view).
        points = [tuple(centre_in_frame(c, (width, height))) for c in cards]
        found = SeatLayout.from_points(points, centre or (width / 2.0, height / 2.0), first)
        layout = SeatLayout(found.centre, found.angles, frame_size=(width, height))
    layout.save(path)
    print(json.dumps(layout.to_json()) if args.json else _describe(layout))
    print(f"saved to {path}", file=sys.stderr if args.json else sys.stdout)
    return 0
