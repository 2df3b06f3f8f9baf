"""The 69 face ids a deck holds, in the class order every vision model uses.

The single source of truth is ``skullcam.rules.FACES``; this module re-exports it so the
generator keeps working while ``rules`` is being built (the fallback list is the same order as
docs/architecture.md states, and a test checks the two agree once ``rules`` has it).
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)

SUITS: tuple[str, ...] = ("green", "yellow", "purple", "black")

_FALLBACK_FACES: tuple[str, ...] = (
    *(f"{suit}-{rank}" for suit in SUITS for rank in range(1, 15)),
    "escape",
    "pirate-rosie",
    "pirate-bendt",
    "pirate-rascal",
    "pirate-juanita",
    "pirate-harry",
    "tigress",
    "skull-king",
    "mermaid-alyra",
    "mermaid-sirena",
    "loot",
    "kraken",
    "white-whale",
)

try:  # rules is the owner of the list; fall back only while it is not there yet
    from skullcam.rules import FACES as _RULES_FACES

    FACES: tuple[str, ...] = tuple(_RULES_FACES)
except ImportError:  # pragma: no cover - only before rules lands
    FACES = _FALLBACK_FACES

SPECIALS: tuple[str, ...] = tuple(f for f in FACES if "-" not in f or f.split("-")[0] not in SUITS)


def split_number(face: str) -> tuple[str, int] | None:
    """``("green", 7)`` for ``green-7``; ``None`` for a special card."""
    head, _, tail = face.partition("-")
    if head in SUITS and tail.isdigit():
        return head, int(tail)
    return None
