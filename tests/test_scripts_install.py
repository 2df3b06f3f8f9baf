"""scripts/install.sh, run over a stand-in venv whose pip only talks: what the user sees.

pip warns once for each configured wheel folder that does not exist on the machine (39 lines
on the build machine); install.sh drops those lines and passes everything else on. The CPU
training stack's install (the README's way to a second checkout's venv) passed them all on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from repo_paths import REPO

NOISE = (
    "WARNING: Location 'file:///opt/wheels/x/' is ignored: it is neither a file nor a directory."
)
REAL = "ERROR: a message pip means"

#: A venv's python that answers install.sh's questions: no torchvision installed, and a pip
#: that prints one line of noise and one real line on stderr, then succeeds.
FAKE_PYTHON = f"""#!/usr/bin/env bash
if [ "$1" = -c ]; then exit 1; fi
echo "{NOISE}" >&2
echo "{REAL}" >&2
exit 0
"""


def run_install(tmp_path: Path, *args: str, stack: str | None = None) -> str:
    """install.sh's stderr, run in a copy of the project's files with the fake venv."""
    shutil.copytree(REPO / "scripts", tmp_path / "scripts")
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    tools = tmp_path / "tools"  # a chromedriver, so a root run does not apt-get chromium
    tools.mkdir()
    (tools / "chromedriver").write_text("#!/bin/sh\n")
    (tools / "chromedriver").chmod(0o755)
    env = {**os.environ, "PATH": f"{tools}:{os.environ['PATH']}"}
    env.pop("SKULLCAM_TRAIN_STACK", None)
    if stack:
        env["SKULLCAM_TRAIN_STACK"] = stack
    done = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "install.sh"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


@pytest.mark.parametrize(
    ("args", "stack"), [((), None), (("dev",), "cpu")], ids=["runtime", "dev-cpu"]
)
def test_install_drops_pips_missing_folder_warnings_and_keeps_the_rest(
    tmp_path: Path, args: tuple[str, ...], stack: str | None
) -> None:
    said = run_install(tmp_path, *args, stack=stack)
    assert "is ignored: it is neither a file nor a directory" not in said
    assert REAL in said
