"""The ``skullcam`` command line: wires rules, vision, device, store and web together.

Each subcommand lives in ``skullcam/commands/<name>.py`` and exposes ``register(subparsers)``.
Command modules keep heavy imports (onnxruntime, torch, flask) inside their handlers so that
``skullcam trick`` and ``--help`` start in a fraction of a second.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from skullcam import __version__
from skullcam.errors import UserError, missing_training_package

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


def add_data_argument(parser: argparse.ArgumentParser) -> None:
    """Every stateful command takes ``--data DIR``; two data folders never share anything."""
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="data folder (default: $SKULLCAM_DATA or ~/.local/share/skullcam)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "data", "absent") is None:
        args.data = default_data_dir()
    try:
        result = args.func(args)
    except UserError as err:
        print(f"skullcam {args.command}: error: {err}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as err:
        missing = missing_training_package(err)
        if missing is None:
            raise
        print(f"skullcam {args.command}: error: {missing}", file=sys.stderr)
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
            print(f"skullcam {args.command}: error: {err}", file=sys.stderr)
            return 2
        raise
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
