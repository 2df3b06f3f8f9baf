"""The parts import each other only the way docs/architecture.md draws it.

The one-way dependencies (rules at the bottom, web never touching the camera's code) are what
lets the rules engine run alone, the web app run on a machine with no OpenCV, and each part be
read and tested without the ones above it. Nothing checked them: a lazy import inside a
function (``from skullcam.device...`` in web/) would have passed every other test. This reads
every import statement of every module, those inside functions and ``TYPE_CHECKING`` blocks
too, since a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from repo_paths import DOCS, REPO

#: Each part and the parts it may import: docs/architecture.md's diagram, as data.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "rules": frozenset(),
    "datasets": frozenset({"rules"}),
    "vision": frozenset({"rules", "datasets", "models"}),  # models: the shipped model's folder
    "store": frozenset({"rules"}),
    "device": frozenset({"rules", "vision", "store", "datasets"}),
    "web": frozenset({"rules", "store"}),
}
#: The small modules of skullcam/ every part may use; they themselves import no part but rules.
SHARED = "shared"
#: What a part's imports name; skullcam/cli.py and skullcam/commands/ wire everything together.
PARTS = frozenset(MAY_IMPORT) | {"models", "commands", "cli"}
#: Libraries that read a camera or a picture: web/ and store/ run without them.
CAMERA_LIBRARIES = frozenset({"cv2", "numpy", "onnxruntime", "picamera2", "torch", "ultralytics"})


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every absolute module an import statement in ``path`` names, with its line. ``from
    skullcam import x`` names ``skullcam.x``; relative imports stay inside the part and are
    left out (none climbs above its own folder: see the test below)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "skullcam":
                found += [(node.lineno, f"skullcam.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
    return found


def part_of(module: str) -> str | None:
    """Which part a ``skullcam.*`` module belongs to (``SHARED`` for skullcam/'s own small
    modules and the package itself); None for anything outside skullcam."""
    names = module.split(".")
    if names[0] != "skullcam":
        return None
    if len(names) > 1 and names[1] in PARTS:
        return names[1]
    return SHARED


def sources(part: str) -> list[Path]:
    return sorted((REPO / part).rglob("*.py"))


def shared_sources() -> list[Path]:
    """skullcam/'s own modules but the command line (cli.py, __main__.py, commands/)."""
    wiring = {"cli.py", "__main__.py"}
    return [p for p in sorted((REPO / "skullcam").glob("*.py")) if p.name not in wiring]


def forbidden_imports(paths: list[Path], allowed: frozenset[str]) -> list[str]:
    """``file:line module`` for each import of a part outside ``allowed`` (the shared modules
    are allowed everywhere)."""
    return [
        f"{path.relative_to(REPO)}:{line} {module}"
        for path in paths
        for line, module in imported_modules(path)
        if part_of(module) not in (None, SHARED, *allowed)
    ]


def test_each_part_imports_only_the_parts_below_it() -> None:
    wrong = [
        found
        for part, allowed in MAY_IMPORT.items()
        for found in forbidden_imports(sources(part), allowed | {part})
    ]
    assert not wrong, wrong


def test_the_shared_modules_import_no_part_but_rules() -> None:
    assert shared_sources(), "skullcam/'s shared modules moved: update this test"
    assert not forbidden_imports(shared_sources(), frozenset({"rules"}))


def test_the_rules_engine_uses_the_standard_library_only() -> None:
    outside = [
        f"{path.relative_to(REPO)}:{line} {module}"
        for path in sources("rules")
        for line, module in imported_modules(path)
        if module.split(".")[0] not in sys.stdlib_module_names and part_of(module) != "rules"
    ]
    assert not outside, outside


def test_web_and_store_load_no_camera_or_picture_library() -> None:
    loaded = [
        f"{path.relative_to(REPO)}:{line} {module}"
        for part in ("web", "store")
        for path in sources(part)
        for line, module in imported_modules(path)
        if module.split(".")[0] in CAMERA_LIBRARIES
    ]
    assert not loaded, loaded


def test_no_relative_import_climbs_out_of_its_part() -> None:
    climbing = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for part in MAY_IMPORT
        for path in sources(part)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.level > 1
    ]
    assert not climbing, climbing


def test_the_architecture_page_draws_these_dependencies() -> None:
    """docs/architecture.md's diagram (``vision <- rules, datasets``) says what MAY_IMPORT
    does, so the page a new developer reads is the rule the tests hold."""
    drawn = dict(
        (match["part"], frozenset(re.findall(r"\w+", match["uses"])) - {"nothing"})
        for match in re.finditer(
            r"^(?P<part>\w+)\s+<- (?P<uses>[\w, ]+?)(?:\s{2,}|\s*\(|$)",
            (DOCS / "architecture.md").read_text(),
            re.M,
        )
    )
    assert {part: drawn.get(part) for part in MAY_IMPORT} == {
        part: allowed - {"models"} for part, allowed in MAY_IMPORT.items()
    }
