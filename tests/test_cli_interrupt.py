"""Ctrl-C while the command line is still starting: one line and exit 130, as Ctrl-C during a
command is, not a KeyboardInterrupt traceback and exit -2."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from repo_paths import REPO

# Run as the console command pip makes from pyproject's [project.scripts] runs it; a finder
# put first on the import path sends this process SIGINT as `MODULE` is imported, as a
# Ctrl-C pressed in the first fraction of a second lands (the imports are most of it).
CONSOLE_SCRIPT = """
import os, signal, sys

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.{signal_name})
        return None

sys.meta_path.insert(0, CtrlC())
from {entry_module} import {entry_function}
sys.exit({entry_function}())
"""


def console_entry_point() -> tuple[str, str]:
    """The ``skullcam`` command's module and function, from pyproject.toml."""
    with open(REPO / "pyproject.toml", "rb") as f:
        target = tomllib.load(f)["project"]["scripts"]["skullcam"]
    module, function = target.split(":")
    return module, function


@pytest.mark.parametrize(
    "module",
    [
        "skullcam.errors",  # imported with the command line's own module
        "skullcam.commands.run",  # imported as the parser is built, before the command runs
    ],
)
def test_ctrl_c_while_the_command_line_starts_is_one_line_and_exit_130(
    module: str, tmp_path: Path
) -> None:
    _signalled_while_importing(module, signal.SIGINT, tmp_path)


def test_a_sigterm_while_the_command_line_starts_is_one_line_and_exit_130(tmp_path: Path) -> None:
    """``kill`` (or a container's stop) while ``skullcam run`` imported its modules killed it
    with no word (exit -15): nothing in the journal said it stopped. It now ends as Ctrl-C
    does; once the run has started, its own handler says so (test_device_live)."""
    _signalled_while_importing("skullcam.commands.run", signal.SIGTERM, tmp_path)


def _signalled_while_importing(module: str, signum: signal.Signals, tmp_path: Path) -> None:
    """``skullcam run`` started as its console command, sent ``signum`` as ``module`` is
    imported, says one line and exits 130. The child starts with the signal's default
    action: a shell's background job ignores SIGINT, which would hide a Ctrl-C."""
    entry_module, entry_function = console_entry_point()
    script = CONSOLE_SCRIPT.format(
        module=module,
        entry_module=entry_module,
        entry_function=entry_function,
        signal_name=signum.name,
    )
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), "run", "--camera", "none"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL),
        cwd=tmp_path,  # not the checkout: its skullcam/ folder would shadow the package
    )
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr == "skullcam: interrupted\n"
    assert proc.stdout == ""
