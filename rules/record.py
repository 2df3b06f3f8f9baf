"""The ``skullcam-game/1`` game record: what was bid and played, nothing derived.

A record holds only facts seen at the table (bids, plays, declarations, pirate-ability
choices); every score is recomputed from it under a ``Settings``, which is why changing a house
rule rescores a whole game. ``GameRecord.from_dict`` checks the JSON's shape here and then plays
the game through (``scoring.score_game``) so that turn order, duplicate cards and bids are
checked by the same code that scores them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeGuard

from .cards import Card, parse_card
from .errors import RecordShapeError, RulesError, SettingError
from .explain import Phrase, render
from .names import name_key
from .settings import Settings
from .trick import MAX_PLAYERS, MIN_PLAYERS

FORMAT = "skullcam-game/1"
ABILITY_PIRATES = ("pirate-rosie", "pirate-rascal", "pirate-harry")
RASCAL_BETS = (0, 10, 20)
HARRY_CHANGES = (-1, 0, 1)


@dataclass(frozen=True, slots=True)
class Play:
    """One card put down by one player (a seat index into ``GameRecord.players``)."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """The plays of one trick in play order (the first one led)."""

    plays: tuple[Play, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(play.card for play in self.plays)


@dataclass(frozen=True, slots=True)
class Ability:
    """A pirate ability used by the player who won trick ``trick`` (0-based) with ``pirate``.

    ``choice``: the next leader's seat (Rosie), the bet 0/10/20 (Rascal of Roatan) or the bid
    change -1/0/+1 (Harry).
    """

    trick: int
    pirate: str
    choice: int


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round: bids (one per seat), the tricks played so far, optional variant choices."""

    bids: tuple[int, ...]
    tricks: tuple[TrickRecord, ...] = ()
    cannonball: tuple[bool, ...] | None = None
    abilities: tuple[Ability, ...] = ()


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game as recorded: players seated clockwise, the first dealer, the rounds."""

    players: tuple[str, ...]
    rounds: tuple[RoundRecord, ...] = ()
    settings: Settings = field(default_factory=Settings)
    first_dealer: int = 0

    @classmethod
    def from_dict(cls, data: Any, *, as_played: bool = False) -> GameRecord:
        """Parse and fully validate a record; ``GameRecordError`` names round/trick/play.

        ``as_played`` accepts tricks led out of turn as the table played them (see
        :func:`~skullcam.rules.scoring.score_game`)."""
        record = _parse(data)
        from .scoring import score_game  # scoring imports this module

        score_game(record, as_played=as_played)
        return record

    def to_dict(self) -> dict[str, Any]:
        """The record as ``skullcam-game/1`` JSON (only non-default settings are written)."""
        rounds: list[dict[str, Any]] = []
        for rnd in self.rounds:
            out: dict[str, Any] = {
                "bids": list(rnd.bids),
                "tricks": [
                    {"plays": [{"player": p.player, "card": str(p.card)} for p in trick.plays]}
                    for trick in rnd.tricks
                ],
            }
            if rnd.cannonball is not None:
                out["cannonball"] = list(rnd.cannonball)
            if rnd.abilities:
                out["abilities"] = [
                    {"trick": a.trick, "pirate": a.pirate, "choice": a.choice}
                    for a in rnd.abilities
                ]
            rounds.append(out)
        return {
            "format": FORMAT,
            "players": list(self.players),
            "settings": self.settings.changes(),
            "first_dealer": self.first_dealer,
            "rounds": rounds,
        }

    def with_settings(self, settings: Settings) -> GameRecord:
        """The same game under other house rules (score it again to see the effect)."""
        return replace(self, settings=settings)


def _parse(data: Any) -> GameRecord:
    if not isinstance(data, Mapping):
        raise _not_object(f"a game record is a JSON object, got {_kind(data)}")
    if "format" not in data:
        raise _bad("format", f"not a {FORMAT} record: it has no 'format' (expected {FORMAT!r})")
    if data["format"] != FORMAT:
        raise _bad(
            "format", f"not a {FORMAT} record: 'format' is {data['format']!r}, expected {FORMAT!r}"
        )
    unknown = sorted(set(data) - {"format", "players", "settings", "first_dealer", "rounds"})
    if unknown:
        raise _unknown(unknown[0], f"unknown key {unknown[0]!r} in the game record")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS
        or not all(isinstance(name, str) and name.strip() for name in players)
    ):
        raise _bad(
            "players",
            f"'players' must list {MIN_PLAYERS} to {MAX_PLAYERS} player names, got {players!r}",
        )
    clash = same_name(players)
    if clash is not None:
        raise _bad("players", f"'players' must differ: {clash}; rename one")
    n = len(players)
    raw_settings = data.get("settings")
    if raw_settings is not None and not isinstance(raw_settings, Mapping):
        raise _bad(
            "settings",
            "'settings' must be a JSON object of setting names and values, got "
            f"{_kind(raw_settings)}",
        )
    try:
        settings = Settings.from_dict(raw_settings or {})
    except SettingError as err:  # which setting, and what it must be; not just 'settings'
        raise _shape_error(f"settings: {err}", err.phrase, None) from None
    first_dealer = data.get("first_dealer", 0)
    if not _is_int(first_dealer) or not 0 <= first_dealer < n:
        raise _bad(
            "first_dealer", f"'first_dealer' must be a seat 0..{n - 1}, got {first_dealer!r}"
        )
    rounds_data = data.get("rounds", [])
    if not isinstance(rounds_data, list):
        raise _bad("rounds", f"'rounds' must be a list, got {_kind(rounds_data)}")
    rounds = tuple(
        _parse_round(rnd, number, players) for number, rnd in enumerate(rounds_data, start=1)
    )
    return GameRecord(tuple(players), rounds, settings, first_dealer)


def name_clash(names: Sequence[str]) -> tuple[str, str] | None:
    """The first two names a table would read as one player (the same name twice, or "Ana"
    and "ana"), or None: the scores and the messages name players, so two Anas would make
    "Ana leads with 20" say nothing."""
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None


def same_name(names: Sequence[str]) -> str | None:
    """:func:`name_clash` said in English ("'Ana' appears twice", "'Ana' and 'ana' are one
    name"), or None."""
    clash = name_clash(names)
    if clash is None:
        return None
    first, second = clash
    return (
        f"{first!r} appears twice" if first == second else f"{first!r} and {second!r} are one name"
    )


def _parse_round(data: Any, number: int, players: Sequence[str]) -> RoundRecord:
    at = Phrase("at_round", {"round": number})
    n = len(players)
    if not isinstance(data, Mapping):
        raise _not_object(f"a round is a JSON object, got {_kind(data)}", at)
    unknown = sorted(set(data) - {"bids", "tricks", "cannonball", "abilities"})
    if unknown:
        raise _unknown(unknown[0], f"unknown key {unknown[0]!r}", at)
    bids = data.get("bids")
    if not isinstance(bids, list) or len(bids) != n or not all(_is_int(b) for b in bids):
        raise _bad("bids", f"'bids' must be {n} whole numbers, one per player", at)
    tricks_data = data.get("tricks", [])
    if not isinstance(tricks_data, list):
        raise _bad("tricks", f"'tricks' must be a list, got {_kind(tricks_data)}", at)
    tricks = tuple(
        _parse_trick(trick, number, t, players) for t, trick in enumerate(tricks_data, start=1)
    )
    cannonball = data.get("cannonball")
    if cannonball is not None and (
        not isinstance(cannonball, list)
        or len(cannonball) != n
        or not all(isinstance(c, bool) for c in cannonball)
    ):
        raise _bad("cannonball", f"'cannonball' must be {n} true/false values", at)
    abilities_data = data.get("abilities", [])
    if not isinstance(abilities_data, list):
        raise _bad("abilities", "'abilities' must be a list", at)
    abilities = tuple(_parse_ability(a, number, i) for i, a in enumerate(abilities_data))
    return RoundRecord(
        tuple(bids), tricks, None if cannonball is None else tuple(cannonball), abilities
    )


def _parse_trick(data: Any, round_number: int, number: int, players: Sequence[str]) -> TrickRecord:
    at = Phrase("at_trick", {"round": round_number, "trick": number})
    if not isinstance(data, Mapping):
        raise _not_object('a trick is a JSON object {"plays": [...]}', at)
    if not isinstance(data.get("plays"), list):
        raise _bad("plays", 'a trick is a JSON object {"plays": [...]}', at)
    plays: list[Play] = []
    for p, play in enumerate(data["plays"], start=1):
        here = Phrase("at_play", {"round": round_number, "trick": number, "play": p})
        if not isinstance(play, Mapping):
            raise _not_object('a play is {"player": SEAT, "card": ID}', here)
        player = play.get("player")
        if not _is_int(player) or not 0 <= player < len(players):
            raise _bad(
                "player", f"'player' must be a seat 0..{len(players) - 1}, got {player!r}", here
            )
        card = play.get("card")
        if not isinstance(card, str):
            raise _bad("card", f"'card' must be a card id, got {card!r}", here)
        try:
            plays.append(Play(player, parse_card(card)))
        except RulesError as err:
            by = Phrase("at_play_by", {**here.args, "player": players[player]})
            raise _bad("card", str(err), by) from None
    return TrickRecord(tuple(plays))


def _parse_ability(data: Any, round_number: int, index: int) -> Ability:
    at = Phrase("at_ability", {"round": round_number, "index": index})
    if not isinstance(data, Mapping):
        raise _not_object('expected {"trick": T, "pirate": ID, "choice": C}', at)
    trick, pirate, choice = data.get("trick"), data.get("pirate"), data.get("choice")
    if not _is_int(trick) or trick < 0:
        raise _bad("trick", "'trick' must be the trick's index in the round (0..)", at)
    if pirate not in ABILITY_PIRATES:
        pirates = ", ".join(ABILITY_PIRATES)
        raise _bad("pirate", f"'pirate' must be one of {pirates}, got {pirate!r}", at)
    if not _is_int(choice):
        raise _bad("choice", f"'choice' must be a whole number, got {choice!r}", at)
    if pirate == "pirate-rascal" and choice not in RASCAL_BETS:
        raise _bad("choice", f"Rascal of Roatan bets 0, 10 or 20, got {choice}", at)
    if pirate == "pirate-harry" and choice not in HARRY_CHANGES:
        raise _bad("choice", f"Harry changes his bid by -1, 0 or +1, got {choice}", at)
    return Ability(trick, str(pirate), choice)


def _shape_error(detail: str, problem: Phrase, at: Phrase | None) -> RecordShapeError:
    """A record whose JSON is not a game record's shape: in English, where (``at``: a round,
    trick, play or ability; None for the record itself) and ``detail``, what the command line
    prints; for a page, where and ``problem`` as phrases, the JSON key named as the file
    spells it (``web/explain_i18n`` words them in the reader's language)."""
    said = (problem,) if at is None else (at, problem)
    return RecordShapeError(("" if at is None else render([at])) + detail, said)


def _bad(key: str, detail: str, at: Phrase | None = None) -> RecordShapeError:
    """The value of ``key`` is not one a game record holds there."""
    return _shape_error(detail, Phrase("record_bad_value", {"key": key}), at)


def _unknown(key: str, detail: str, at: Phrase | None = None) -> RecordShapeError:
    """``key`` is no key of a game record (or of a round) at all."""
    return _shape_error(detail, Phrase("record_unknown_key", {"key": key}), at)


def _not_object(detail: str, at: Phrase | None = None) -> RecordShapeError:
    """The record, or a round, trick, play or ability in it, is not a JSON object."""
    return _shape_error(detail, Phrase("record_not_object"), at)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: object) -> str:
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return repr(value)
