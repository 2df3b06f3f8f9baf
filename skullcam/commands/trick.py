"""`skullcam trick`: placeholder until its issue lands (replaced by the real command)."""

from __future__ import annotations

import argparse

from skullcam.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("trick", help="(not built yet)")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    raise UserError("'skullcam trick' is not built yet in this version")
