"""Type-checks the whole ``skullcam`` package and tests/ with mypy: ``scripts/test.sh`` (so CI)
runs this.

Usage: ``.venv/bin/python scripts/typecheck.py [more mypy options]``

Why a script and not a bare ``mypy``: pyproject.toml's ``[tool.setuptools] package-dir`` makes
top-level folders the subpackages of one import name (rules/ is ``skullcam.rules``, vision/ is
``skullcam.vision``, ...). mypy has no notion of package-dir, and the editable install finds those
folders through an import hook that mypy cannot follow, so ``mypy rules/ vision/ ...`` names the
modules ``rules.cards`` (leaving every ``skullcam.*`` import unresolved) and ``mypy -p skullcam``
finds only skullcam/ itself.

So this lays out what setuptools installs, the ``packages`` list placed by ``package-dir``, as a
tree of symlinks to the real files under build/typecheck/skullcam/ (gitignored; made anew from
pyproject.toml on every run, so a new subpackage is checked without touching this file), and runs
mypy with pyproject's ``[tool.mypy]`` settings (``mypy_path = "build/typecheck"``,
``files = ["build/typecheck/skullcam", "tests"]``). mypy names the files by their place in that
tree; this script gives its report back with the real paths (build/typecheck/skullcam/vision/x.py
-> vision/x.py). tests/ is checked where it is: its modules are top-level (``conftest``,
``reading_stubs``, ``test_*``), as pytest imports them, and they import ``skullcam`` from the tree.
Once the tree exists, a plain ``mypy`` from the repository root works too, with tree paths in its
report.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def package_dirs(pyproject: dict[str, Any]) -> dict[str, Path]:
    """Each package setuptools installs -> its source folder (relative to ROOT), as it places it."""
    setuptools = pyproject["tool"]["setuptools"]
    mapping: dict[str, str] = setuptools.get("package-dir", {})
    placed: dict[str, Path] = {}
    for package in setuptools["packages"]:
        # setuptools' rule: the longest mapped prefix of the name, the rest as subfolders.
        parts = package.split(".")
        for cut in range(len(parts), -1, -1):
            prefix = ".".join(parts[:cut])
            if prefix in mapping or cut == 0:
                base = Path(mapping.get(prefix, ""))
                placed[package] = base.joinpath(*parts[cut:])
                break
    return placed


def build_tree() -> dict[str, str]:
    """Makes the tree afresh in [tool.mypy] mypy_path; returns tree folder prefix -> real folder
    prefix, to give mypy's report back in real paths."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        pyproject = tomllib.load(f)
    tree = Path(pyproject["tool"]["mypy"]["mypy_path"])  # relative to ROOT: build/typecheck
    placed = package_dirs(pyproject)
    shutil.rmtree(ROOT / tree, ignore_errors=True)
    back: dict[str, str] = {}
    for package, source in placed.items():
        folder = tree.joinpath(*package.split("."))
        (ROOT / folder).mkdir(parents=True, exist_ok=True)
        for file in sorted((ROOT / source).iterdir()):
            if file.suffix in (".py", ".pyi") or file.name == "py.typed":
                link = ROOT / folder / file.name
                link.symlink_to(os.path.relpath(file, link.parent))
        back[f"{folder.as_posix()}/"] = "" if source == Path() else f"{source.as_posix()}/"
    return back


def main() -> int:
    back = build_tree()
    prefixes = sorted(back, key=len, reverse=True)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", *sys.argv[1:]],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    for line in run.stdout.splitlines():
        for prefix in prefixes:
            if line.startswith(prefix):
                line = back[prefix] + line[len(prefix) :]
                break
        print(line)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
