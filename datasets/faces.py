"""The 69 face ids a deck holds, in the class order every vision model uses.

The single source of truth is ``skullcam.rules.FACES``; this module re-exports it beside the
generator's own helpers on face ids.
"""

from __future__ import annotations

from skullcam.rules import FACES as FACES  # re-exported: rules owns the list and its order

SUITS: tuple[str, ...] = ("green", "yellow", "purple", "black")


def split_number(face: str) -> tuple[str, int] | None:
    """``("green", 7)`` for ``green-7``; ``None`` for a special card."""
    head, _, tail = face.partition("-")
    if head in SUITS and tail.isdigit():
        return head, int(tail)
    return None
