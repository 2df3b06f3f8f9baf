"""The ``skullcam`` command line: wires rules, vision, device, store and web together.

Each subcommand lives in ``skullcam/commands/<name>.py`` and exposes ``register(subparsers)``.
Command modules keep heavy imports (onnxruntime, torch, flask) inside their handlers so that
``skullcam trick`` and ``--help`` start in a fraction of a second.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

# OpenCV and its FFmpeg back end print their own lines ("moov atom not found", "camera index
# out of range") beside the one-line message skullcam gives for the same failure. Set before
# any command imports cv2; a developer can set either variable to see them again.
os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")

from skullcam import __version__
from skullcam.errors import UserError, missing_training_package

T = TypeVar("T")

COMMANDS = (
    "run",
    "trick",
    "score",
    "detect",
    "replay",
    "synth",
    "train",
    "eval",
    "bench",
    "calibrate",
    "enroll",
)


def default_data_dir() -> Path:
    """``$SKULLCAM_DATA`` or ``~/.local/share/skullcam``: the interface spec's default."""
    env = os.environ.get("SKULLCAM_DATA")
    return Path(env) if env else Path.home() / ".local" / "share" / "skullcam"


def whole_number_arg(text: str) -> int:
    """An argparse type for an int, with the message the other types below share."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def finite_float(text: str) -> float:
    """An argparse type for a finite number: nan and inf are refused, as every comparison
    with nan is false and would slip past a later range check."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def _in_range(
    parse: Callable[[str], T], ok: Callable[[T], bool], wanted: str
) -> Callable[[str], T]:
    """An argparse type: ``parse`` the text, then refuse values that are not ``ok``, so a bad
    count is caught when the command line is read, not minutes later deep in a library."""

    def convert(text: str) -> T:
        value = parse(text)
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{wanted}, got {text!r}")
        return value

    return convert


positive_int = _in_range(whole_number_arg, lambda v: v >= 1, "must be at least 1")
"""Counts: frames, repeats, epochs, scenes."""
scene_count = _in_range(
    whole_number_arg, lambda v: 1 <= v <= 1_000_000, "must be 1 to 1,000,000 (render more in parts)"
)
"""Scenes to render: a million is about 40 GB of JPEGs; a typo past it would fill memory
with the job list before the progress bar even starts."""
non_negative_int = _in_range(whole_number_arg, lambda v: v >= 0, "must be 0 or more")
"""Seeds (numpy refuses negative ones) and limits where 0 means none."""
playback_speed = _in_range(
    finite_float,
    lambda v: v == 0 or 0.05 <= v <= 1000,
    "must be 0 (as fast as possible) or 0.05 to 1000 (1 = real time)",
)
"""A playback speed. Slower than 0.05 a 10 fps recording waits 2 s a frame, deaf to Ctrl-C
while it sleeps (and 1e-300 overflows the clock)."""
positive_float = _in_range(finite_float, lambda v: v > 0, "must be more than 0")
"""A time limit, a learning rate."""
non_negative_float = _in_range(finite_float, lambda v: v >= 0, "must be 0 or more")
"""A warm-up length in epochs, where 0 means none."""
port_number = _in_range(
    whole_number_arg,
    lambda v: 0 <= v <= 65535,
    "not a port number (1-65535, or 0 for any free one)",
)
"""A TCP port; out of range, the OS would wrap it (99999 listens on 34463) or refuse it."""
table_pin = _in_range(
    str,
    lambda v: 4 <= len(v) <= 12 and not any(c.isspace() for c in v),
    "must be 4 to 12 characters with no spaces (a phone's PIN box takes 12, and drops spaces)",
)
"""The table's phone PIN: one the phones' box cannot take (longer, or with a space the
phone's typing loses) would lock every phone out, and a shorter one is guessed at once."""


def check_data_dir(path: Path) -> None:
    """``--data`` must be a folder (or not exist yet): a file there would fail later, in
    whichever command first opens something inside it, with an OS error instead of this."""
    if path.exists() and not path.is_dir():
        raise UserError(
            f"data folder {path} is a file, not a folder: give --data a folder "
            "(it is created if missing)"
        )


def output_path(text: str) -> Path:
    """An argparse type for where a command writes (``--out``, ``--work``): an empty name
    (``--out "$DIR"`` with DIR unset) is refused, where as a path it names the current
    folder, and a deck's 69 faces or a game's frames would be written wherever the command
    was started. ``.`` still says that folder on purpose."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "no path given (an empty name): give one ('.' for the current folder)"
        )
    return Path(text)


def data_folder(text: str) -> Path:
    """An argparse type for ``--data``: an empty name (``--data "$DATA"`` with DATA unset)
    is refused, where as a path it names the current folder, and the game store, its
    secrets and seat calibration would be made wherever the command was started."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "no folder given (an empty name): give a folder, or leave --data out for the"
            " default ($SKULLCAM_DATA or ~/.local/share/skullcam)"
        )
    return Path(text)


def add_data_argument(parser: argparse.ArgumentParser) -> None:
    """Every stateful command takes ``--data DIR``; two data folders never share anything."""
    parser.add_argument(
        "--data",
        type=data_folder,
        default=None,
        help="data folder (default: $SKULLCAM_DATA or ~/.local/share/skullcam)",
    )


class OneLineErrors(argparse.ArgumentParser):
    """A usage error is one line on stderr, as every other error is (interfaces.md): the
    usage block argparse prints first buried what was wrong. Subcommands' parsers are made
    of the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineErrors(
        prog="skullcam",
        description="Camera-assisted referee and live scoreboard for Skull King.",
    )
    parser.add_argument("--version", action="version", version=f"skullcam {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f"skullcam.commands.{name}")
        module.register(sub)
    return parser


def print_error(command: str, err: object) -> None:
    """The one-line error every command prints for a problem the user can fix."""
    print(f"skullcam {command}: error: {err}", file=sys.stderr)


def _chosen_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The (sub)command's own parser that ``args`` came through (``skullcam synth game``'s)."""
    while True:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        chosen = getattr(args, subs[0].dest, None) if subs else None
        if chosen is None:
            return parser
        parser = subs[0].choices[chosen]


def _gather_list(
    command: argparse.ArgumentParser, args: argparse.Namespace, extra: list[str]
) -> list[str]:
    """The words left over once an option has cut a command's list of positionals in two
    (``skullcam trick green-7 --json green-8``), put back at the list's end, where the
    command line has them: argparse takes such a list in one run, and called a card or an
    image after an option an unrecognized argument. Every word after a ``--`` is one of the
    list's, as ``--`` says (``skullcam detect a.jpg --json -- -scan.jpg``). Returns what is
    still left over: the unknown options, or every word for a command with no such list."""
    lists = [a for a in command._actions if not a.option_strings and a.nargs in ("+", "*")]
    if len(lists) != 1:
        return extra
    cut = extra.index("--") if "--" in extra else len(extra)
    before, after = extra[:cut], extra[cut + 1 :]
    words = [word for word in before if not word.startswith("-")] + after
    action = lists[0]
    convert: Callable[[str], Any] = action.type if callable(action.type) else str
    setattr(args, action.dest, [*(getattr(args, action.dest) or []), *map(convert, words)])
    return [word for word in before if word.startswith("-")]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    command = _chosen_parser(parser, args)
    extra = _gather_list(command, args, extra)
    if extra:  # said by the command's own parser, as its other usage errors are
        command.error(f"unrecognized arguments: {' '.join(extra)}")
    args.command = command.prog.removeprefix("skullcam ")
    if getattr(args, "data", "absent") is None:
        args.data = default_data_dir()
    try:
        if isinstance(getattr(args, "data", None), Path):
            check_data_dir(args.data)
        result = args.func(args)
    except UserError as err:
        print_error(args.command, err)
        return 2
    except ModuleNotFoundError as err:
        missing = missing_training_package(err)
        if missing is None:
            raise
        print_error(args.command, missing)
        return 2
    except sqlite3.Error as err:  # the game database failed after it opened (a damaged page)
        from skullcam.store.game_store import database_error

        data = getattr(args, "data", None)
        if not isinstance(data, Path):
            raise
        problem = database_error(data / "skullcam.db", err)
        print(f"skullcam {args.command}: error: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"skullcam {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `skullcam score game.json | head`: the reader left, not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as err:  # rules errors are ValueErrors that carry their own message
        from skullcam.rules import RulesError

        if isinstance(err, RulesError):
            print_error(args.command, err)
            return 2
        raise
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
