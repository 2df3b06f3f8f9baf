"""Where the tests find the repository's own files: one place, so a moved folder is one edit."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
SAMPLE_SCENES = REPO / "datasets" / "samples" / "scenes"  # the 40 committed held-out scenes
SHIPPED_MODEL = REPO / "models"
DOCS = REPO / "docs"


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py``: the folder holds scripts, not a package, so load it by path."""
    spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
