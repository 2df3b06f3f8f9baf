"""Building blocks for tests that record games in the store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skullcam.store import GameStore


def plays(*pairs: tuple[int, str], confidence: float = 0.9) -> list[dict[str, Any]]:
    """A trick's plays as ``GameStore.record_trick`` takes them: (player, card id) pairs, in
    the order played, each read with ``confidence``."""
    return [{"player": p, "card": c, "confidence": confidence} for p, c in pairs]


def hand(*pairs: tuple[int, str]) -> list[dict[str, Any]]:
    """A trick's plays as ``GameStore.enter_trick`` takes them (entered by hand: no
    confidence): (player, card id) pairs, in the order played."""
    return [{"player": p, "card": c} for p, c in pairs]


def type_next_trick(store: GameStore, game_id: int, cards: list[str]) -> None:
    """The game's next trick entered by hand as the table typed it (``cards`` by player, in
    the order the rules have them play)."""
    slot = store.next_trick(game_id)
    assert slot is not None
    entered = hand(*[(p, cards[p]) for p in slot["order"]])
    store.enter_trick(game_id, slot["round"], slot["trick"], entered)


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


def rosie_wins_round_2(store: GameStore) -> int:
    """Ana and Bo, abilities on: round 2's first trick won by Ana's Rosie, her question
    open (who leads next), the trick after hers not recorded yet."""
    gid = store.create_game(["Ana", "Bo"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-9"), (0, "green-3")))
    store.set_bids(gid, 2, [1, 1])
    store.record_trick(gid, 2, 0, plays((0, "pirate-rosie"), (1, "green-7")))
    return gid


BO_LEADS_AFTER_ROSIE = plays((1, "black-3"), (0, "green-2"))
"""Round 2's second trick in :func:`rosie_wins_round_2`'s game, led by Bo (Ana chose him)."""
