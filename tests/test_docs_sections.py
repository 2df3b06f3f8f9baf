"""Every message that sends a user to a section of the docs names one that exists: the run's
"falling behind" advice named a heading docs/pi.md did not have (a review, session 51)."""

from __future__ import annotations

import re
from pathlib import Path

from repo_paths import DOCS, REPO

SOURCES = ("rules", "vision", "device", "web", "store", "datasets", "skullcam")

#: "docs/pi.md, 'Heading'", "docs/pi.md (Heading)" or "docs/rules-engine.md, Settings".
SECTION_REFERENCE = re.compile(
    r"docs/(?P<doc>[\w-]+\.md)(?:, '(?P<quoted>[^']+)'| \((?P<bracketed>[A-Z][^)]*)\)"
    r"|, (?P<word>[A-Z]\w+)\b)"
)


def _joined_strings(text: str) -> str:
    """Source text with Python's implicit string concatenation across lines undone, so a
    reference wrapped over two string literals reads whole."""
    return re.sub(r"\"\s*\n\s*\"", "", text)


def section_references() -> list[tuple[Path, str, str]]:
    found = []
    for folder in SOURCES:
        for path in sorted((REPO / folder).rglob("*.py")):
            for match in SECTION_REFERENCE.finditer(_joined_strings(path.read_text())):
                section = match["quoted"] or match["bracketed"] or match["word"]
                found.append((path, match["doc"], section))
    return found


def headings(doc: str) -> set[str]:
    return set(re.findall(r"^#+ (.+?)\s*$", (DOCS / doc).read_text(), re.M))


def test_every_docs_section_a_message_names_exists() -> None:
    references = section_references()
    assert len(references) >= 5, references  # the scan still finds the references it is for
    missing = [
        f"{path.relative_to(REPO)}: docs/{doc}, {section!r}"
        for path, doc, section in references
        if section not in headings(doc)
    ]
    assert not missing, missing
