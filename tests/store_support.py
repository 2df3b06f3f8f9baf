"""Building blocks for tests that record games in the store."""

from __future__ import annotations

from typing import Any


def plays(*pairs: tuple[int, str], confidence: float = 0.9) -> list[dict[str, Any]]:
    """A trick's plays as ``GameStore.record_trick`` takes them: (player, card id) pairs, in
    the order played."""
    return [{"player": p, "card": c, "confidence": confidence} for p, c in pairs]
