"""Counts on the command line and in the logs say their noun (and its verb) in the number the
count takes: "1 trick", "4 more frames were skipped", not "1 trick(s)", "1 frame(s) were"."""

from __future__ import annotations

import ast
from pathlib import Path

from skullcam.counts import agreeing, counted

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("skullcam", "rules", "vision", "device", "web", "store", "datasets", "benchmarks")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (words for a reader of the code)."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            ids.add(id(first.value))
    return ids


def _hedged_strings(path: Path) -> list[str]:
    """Each string (or f-string part) of ``path``'s code, not a docstring, that says "(s)"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    return [
        f"{path.relative_to(REPO)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and "(s)" in node.value
    ]


def test_no_line_a_user_reads_hedges_its_plural() -> None:
    """`skullcam run` ended on "recorded 6 trick(s) from 1607 frame(s) ...; 4 more frame(s) were
    skipped", `skullcam detect` said "1 card(s)", enroll "1 good face(s) are kept"."""
    found = [
        line
        for package in PACKAGES
        for path in sorted((REPO / package).rglob("*.py"))
        for line in _hedged_strings(path)
    ]
    assert found == []


def test_agreeing_picks_the_form_of_the_count() -> None:
    assert [agreeing(n, "was", "were") for n in (0, 1, 2)] == ["were", "was", "were"]
    assert counted(1, "more frame") == "1 more frame"
