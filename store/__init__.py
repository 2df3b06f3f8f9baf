"""SQLite game store shared by the live recorder (``skullcam.device``) and the web app.

See :class:`GameStore` and docs/web.md, section "Store API".
"""

from skullcam.store.game_store import (
    EVENT_KINDS,
    GAME_FORMAT,
    PROMPT_KINDS,
    Correction,
    Event,
    Game,
    GameStore,
    Prompt,
    Trick,
)

__all__ = [
    "EVENT_KINDS",
    "GAME_FORMAT",
    "PROMPT_KINDS",
    "Correction",
    "Event",
    "Game",
    "GameStore",
    "Prompt",
    "Trick",
]
