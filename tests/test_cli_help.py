"""Every `skullcam ... --help` as a new user reads it: each argument says what it is, and an
option that has a default says it, so nobody has to read the code to learn what is assumed."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from skullcam.cli import build_parser

_NO_VALUE = (
    argparse._StoreTrueAction,
    argparse._StoreFalseAction,
    argparse._StoreConstAction,
    argparse._VersionAction,
    argparse._AppendAction,
)


def _commands(
    parser: argparse.ArgumentParser, name: str = "skullcam"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Each parser with its command line: skullcam, skullcam run, skullcam synth deck, ..."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, child in action.choices.items():
                yield from _commands(child, f"{name} {sub}")


def _arguments() -> Iterator[tuple[str, argparse.Action]]:
    for name, parser in _commands(build_parser()):
        for action in parser._actions:
            if not isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                yield name, action


def _says_default(action: argparse.Action) -> bool:
    """The help names the default: "(default ...)", or the value alone in brackets, "(8000)"."""
    text = action.help or ""
    value = action.default
    shown = {f"({value})"} | ({f"({value:g})"} if isinstance(value, float) else set())
    return "default" in text or any(s in text for s in shown)


def test_every_argument_says_what_it_is() -> None:
    """`skullcam train --help` listed --batch and --max-classifier-scenes bare, `skullcam synth
    relabel` its --min-visible, `skullcam detect` its IMAGE."""
    bare = [f"{name} {action.dest}" for name, action in _arguments() if not action.help]
    assert bare == []


def test_every_option_with_a_default_says_it() -> None:
    """`skullcam enroll --workers` (2), `--test-scenes` (500), `skullcam run --speed` (1),
    `skullcam train --imgsz` (320) ... ran with values their help never named."""
    unsaid = [
        f"{name} {max(action.option_strings, key=len)}"
        for name, action in _arguments()
        if action.option_strings
        and not isinstance(action, _NO_VALUE)
        and action.default is not None
        and not _says_default(action)
    ]
    assert unsaid == []


def test_run_help_says_how_to_name_a_recording_called_none() -> None:
    """`--camera none` serves the pages alone, so a recording named "none" is played only as
    ./none; `skullcam run --help` said neither, and such a file was never played."""
    run = dict(_commands(build_parser()))["skullcam run"]
    camera = next(a for a in run._actions if "--camera" in a.option_strings)
    assert "./none" in (camera.help or "")
