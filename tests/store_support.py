"""Building blocks for tests that record games in the store."""

from __future__ import annotations

from typing import Any


def plays(*pairs: tuple[int, str], confidence: float = 0.9) -> list[dict[str, Any]]:
    """A trick's plays as ``GameStore.record_trick`` takes them: (player, card id) pairs, in
    the order played, each read with ``confidence``."""
    return [{"player": p, "card": c, "confidence": confidence} for p, c in pairs]


def hand(*pairs: tuple[int, str]) -> list[dict[str, Any]]:
    """A trick's plays as ``GameStore.enter_trick`` takes them (entered by hand: no
    confidence): (player, card id) pairs, in the order played."""
    return [{"player": p, "card": c} for p, c in pairs]


def spec_example(settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game record of ``spec/interfaces.md``'s example: Ana, Ben and Cai, Ana deals, one
    round bid 1 / 0 / 1, and its one trick Ben's green-5, Cai's Tigress as a pirate, Ana's
    escape (Cai wins)."""
    return {
        "format": "skullcam-game/1",
        "players": ["Ana", "Ben", "Cai"],
        "settings": settings or {},
        "first_dealer": 0,
        "rounds": [
            {
                "bids": [1, 0, 1],
                "tricks": [
                    {
                        "plays": [
                            {"player": 1, "card": "green-5"},
                            {"player": 2, "card": "tigress:pirate"},
                            {"player": 0, "card": "escape"},
                        ]
                    }
                ],
            }
        ],
    }
