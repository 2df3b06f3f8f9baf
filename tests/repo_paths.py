"""Where the tests find the repository's own files: one place, so a moved folder is one edit."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE_SCENES = REPO / "datasets" / "samples" / "scenes"  # the 40 committed held-out scenes
SHIPPED_MODEL = REPO / "models"
DOCS = REPO / "docs"
