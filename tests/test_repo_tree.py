"""What the repository itself holds, as every checkout of it gets it."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from repo_paths import REPO


def _tracked() -> list[str]:
    """``git ls-files -s`` of the checkout (mode, hash, stage and path a line); the test is
    skipped where the tests run from no git checkout (an unpacked source archive)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(
        ["git", "ls-files", "-s"], cwd=REPO, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_the_repository_tracks_no_symbolic_link() -> None:
    """A link committed from a scratch folder of the machine it was made on (``s1`` ...
    ``s10`` at the top, pointing into ``/tmp``) points nowhere in any other checkout, and
    an archive or a copy of the tree follows it or fails on it."""
    links = [line.split("\t", 1)[1] for line in _tracked() if line.startswith("120000 ")]
    assert links == []
