"""House rules and variants: one frozen value, validated from the JSON a user writes.

Every field is a key of ``shared/spec/interfaces.md``; a game is always scored from its record
plus a ``Settings``, so changing a setting recomputes a whole recorded game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import RulesError, SettingError, SettingRangeError
from .explain import Arg, Phrase

# Allowed ranges for the numeric settings (the Danish score sheet's house rules, seed 003).
_RANGES: dict[str, tuple[int, int]] = {
    "rounds": (1, 10),
    "points_per_trick": (5, 50),
    "miss_penalty_per_trick": (0, 30),
    "zero_bid_points": (0, 30),
    "mermaid_captures_skull_king": (0, 100),
    "skull_king_captures_pirate": (0, 100),
    "pirate_captures_mermaid": (0, 100),
    "fourteen_bonus": (0, 100),
    "black_fourteen_bonus": (0, 100),
    "loot_alliance_bonus": (0, 100),
}
_CHOICES: dict[str, tuple[str, ...]] = {
    "zero_bid_mode": ("per_card", "fixed"),
    "kraken_next_leader": ("would_have_won", "left_of_kraken"),
    "scoring": ("standard", "rascal", "no_bonus"),
    "tie": ("shared", "extra_round"),
}


@dataclass(frozen=True, slots=True)
class Settings:
    """The table's rules. Defaults are the 2021 rulebook (``rules.md``)."""

    rounds: int = 10
    points_per_trick: int = 20
    miss_penalty_per_trick: int = 10
    zero_bid_points: int = 10
    zero_bid_mode: str = "per_card"
    keep_bonus_on_miss: bool = False
    mermaid_captures_skull_king: int = 40
    skull_king_captures_pirate: int = 30
    pirate_captures_mermaid: int = 20
    fourteen_bonus: int = 10
    black_fourteen_bonus: int = 20
    loot: bool = False
    loot_alliance_bonus: int = 20
    kraken_and_white_whale: bool = False
    kraken_next_leader: str = "would_have_won"
    pirate_abilities: bool = False
    scoring: str = "standard"
    tie: str = "shared"

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            _check(field.name, getattr(self, field.name), field.type)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Settings:
        """Settings from a JSON object; unknown keys and bad values raise ``RulesError``."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesError(f"settings must be a JSON object, got {type(data).__name__}")
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise SettingError(
                f"unknown setting {unknown[0]!r}: the settings are " + ", ".join(sorted(known)),
                unknown[0],
                Phrase("setting_unknown", {"key": unknown[0]}),
            )
        return cls(**dict(data))

    def to_dict(self) -> dict[str, Any]:
        """Every setting, as the JSON object ``from_dict`` reads back."""
        return dataclasses.asdict(self)

    def bonus_paid(self, cannonball: bool = False) -> str:
        """When a trick's capture bonus is paid, as the scorer pays it, so that every line that
        names a bonus names its condition too: ``"exact"`` (the bid met), ``"always"`` (the
        house rule ``keep_bonus_on_miss``) or ``"rascal"`` (all of it on an exact bid, half on
        a bid off by one). Under Rascal's scoring a winner who called a cannonball is paid
        only on an exact bid (``cannonball``)."""
        if self.scoring == "rascal":
            return "exact" if cannonball else "rascal"
        return "always" if self.keep_bonus_on_miss else "exact"

    def deals(self, card: Card) -> bool:
        """Whether this table's deck holds ``card``: an expansion card only with its setting on
        (``Card.expansion_setting``), every other card always."""
        setting = card.expansion_setting
        return setting is None or bool(getattr(self, setting))

    def changes(self) -> dict[str, Any]:
        """Only the settings that differ from the defaults (what a record needs to store)."""
        default = Settings()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}


def _check(name: str, value: object, type_name: object) -> None:
    """Refuse a value ``name`` cannot take, saying which setting and what it must be (the
    value itself only where it is a whole number: a page quotes no pasted blob back)."""
    if type_name in ("bool", bool):
        if not isinstance(value, bool):
            raise SettingError(
                f"setting {name!r} must be true or false, got {value!r}",
                name,
                Phrase("setting_not_bool", {"key": name}),
            )
    elif type_name in ("int", int):
        low, high = _RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingError(
                f"setting {name!r} must be a whole number, got {value!r}",
                name,
                Phrase("setting_not_whole", {"key": name, "low": low, "high": high}),
            )
        if not low <= value <= high:
            said: dict[str, Arg] = {"key": name, "low": low, "high": high, "value": value}
            raise SettingRangeError(name, low, high, value, Phrase("setting_outside_range", said))
    else:
        choices = _CHOICES[name]
        if value not in choices:
            raise SettingError(
                f"setting {name!r} must be one of " + ", ".join(choices) + f", got {value!r}",
                name,
                Phrase("setting_not_choice", {"key": name, "choices": ", ".join(choices)}),
            )


def setting_fields() -> list[tuple[str, str, tuple[Any, ...]]]:
    """Every setting as a form shows it, in the dataclass's order: its key, its kind (``int``
    with its (low, high) range, ``bool``, or ``choice`` with its options). The setup and
    settings pages draw their fields from this, so a new setting appears there by itself."""
    out: list[tuple[str, str, tuple[Any, ...]]] = []
    for field in dataclasses.fields(Settings):
        if field.type in ("bool", bool):
            out.append((field.name, "bool", ()))
        elif field.type in ("int", int):
            out.append((field.name, "int", _RANGES[field.name]))
        else:
            out.append((field.name, "choice", _CHOICES[field.name]))
    return out


DEFAULT_SETTINGS = Settings()
