"""skullcam.rules: the Skull King rules engine (standard library only, no I/O).

The contract other packages use (docs/architecture.md): cards and their ids, settings,
follow-suit legality, trick resolution with a readable explanation, game records and scoring.
"""

from .cards import (
    BASE_DECK_SIZE,
    CARD_IDS,
    DECK,
    FACES,
    MERMAID_NAMES,
    PIRATE_NAMES,
    SUITS,
    Card,
    Kind,
    Suit,
    copies_in_deck,
    find_duplicate,
    full_deck,
    parse_card,
)
from .errors import (
    GameRecordError,
    IllegalPlayError,
    InvalidCardError,
    OutOfTurnError,
    RulesError,
)
from .record import (
    Ability,
    GameRecord,
    Play,
    RoundRecord,
    TrickRecord,
    name_clash,
    same_name,
)
from .scoring import GameScore, Revoke, RoundScore, TrickScore, score_bid, score_game
from .settings import DEFAULT_SETTINGS, Settings
from .table import cards_dealt, cards_in_round, dealer_of_round, first_leader
from .trick import (
    TrickResult,
    WinReason,
    check_trick,
    follow_suit,
    legal_plays,
    resolve_trick,
)

__all__ = [
    "BASE_DECK_SIZE",
    "CARD_IDS",
    "DECK",
    "DEFAULT_SETTINGS",
    "FACES",
    "MERMAID_NAMES",
    "PIRATE_NAMES",
    "SUITS",
    "Ability",
    "Card",
    "GameRecord",
    "GameRecordError",
    "GameScore",
    "IllegalPlayError",
    "InvalidCardError",
    "Kind",
    "OutOfTurnError",
    "Play",
    "Revoke",
    "RoundRecord",
    "RoundScore",
    "RulesError",
    "Settings",
    "Suit",
    "TrickRecord",
    "TrickResult",
    "TrickScore",
    "WinReason",
    "cards_dealt",
    "cards_in_round",
    "check_trick",
    "copies_in_deck",
    "dealer_of_round",
    "find_duplicate",
    "first_leader",
    "follow_suit",
    "full_deck",
    "legal_plays",
    "name_clash",
    "parse_card",
    "resolve_trick",
    "same_name",
    "score_bid",
    "score_game",
]
