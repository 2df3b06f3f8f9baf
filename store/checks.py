"""Checks on what a page, a phone or the camera sends the store: player names, seats, bids,
card ids, plays and settings, each refused with a sentence that names the bad value and the
rule it breaks (the web returns it as a 400). Pure functions, apart from the store's
bookkeeping, so the store's parts (games.py, bids.py, ...) read as what they do with valid input.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from skullcam.errors import UserError, echo
from skullcam.rules import (
    BLANK_LETTERS,
    RulesError,
    Settings,
    cards_in_round,
    name_clash,
    parse_card,
    visible_name,
)
from skullcam.rules.cards import CARD_IDS, Kind
from skullcam.rules.errors import SettingRangeError
from skullcam.rules.explain import CardId, SettingName

from .refusals import refusal

MAX_STACKED_MARKS = 3
"""Accents (combining marks) kept on one letter: a name may need two (Vietnamese), and a
letter under dozens of them smears over the TV's head and the next rows."""


def without_stacked_marks(name: str) -> str:
    """``name`` composed (NFC: a "é" typed as e + accent is the "é" another phone sends) with
    at most :data:`MAX_STACKED_MARKS` combining marks on a letter; the rest are dropped."""
    kept: list[str] = []
    run = 0
    for ch in unicodedata.normalize("NFC", name):
        run = run + 1 if unicodedata.combining(ch) else 0
        if run <= MAX_STACKED_MARKS:
            kept.append(ch)
    return "".join(kept)


NAME_LIMIT = 40
"""A player's name fits a scoreboard column."""


#: Bidirectional overrides and isolates: they turn the rest of a page's line around ("Ben"
#: and an override reads as another name, and so does every name after it on the TV).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def has_control(text: str) -> bool:
    """Control characters (NUL, newline, ...), lone surrogates and bidirectional overrides:
    invisible on every page (or turning it around), and a surrogate cannot even be stored as
    UTF-8."""
    return any(unicodedata.category(c) in ("Cc", "Cs") or c in BIDI_CONTROLS for c in text)


def shows_something(text: str) -> bool:
    """A name of only zero-width, format or filler characters passes ``strip()`` and then
    shows as nothing on every page."""
    return any(
        unicodedata.category(c) not in ("Cf", "Zs", "Zl", "Zp", "Mn", "Me")
        and c not in BLANK_LETTERS
        for c in text
    )


def check_players(players: Sequence[str]) -> list[str]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise refusal("players_not_list")
    if not 2 <= len(players) <= 8:
        raise refusal("player_count", count=len(players))
    for i, p in enumerate(players):
        # str() would turn null into a player called "None" and {"x": 1} into "{'x': 1}".
        if not isinstance(p, str):
            raise refusal("name_not_text", number=i + 1, value=echo(p))
    composed = [without_stacked_marks(p).strip() for p in players]
    for i, name in enumerate(composed):
        if has_control(name):
            raise refusal("name_control", number=i + 1, name=echo(name))
    # Checked as stored: "Ana" and "Ana" + a variation selector were two players shown alike.
    names = [visible_name(name) for name in composed]
    if not all(shows_something(n) for n in names):
        raise refusal("name_missing")
    if any(len(n) > NAME_LIMIT for n in names):
        raise refusal("name_too_long", limit=NAME_LIMIT)
    clash = name_clash(names)
    if clash is not None:
        first, second = clash
        if first == second:
            raise refusal("name_twice", name=first)
        raise refusal("names_alike", first=first, second=second)
    return names


def check_note(note: Any) -> str:
    """An audit note is text (a JSON object would be stored as its Python repr)."""
    if not isinstance(note, str):
        raise UserError(f"a note must be text, got {echo(note)}")
    return note[:500]


def whole_in(value: Any, low: int, high: int) -> bool:
    """An int from ``low`` to ``high``; ``True`` is an int to Python, never a number here."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_first_dealer(first_dealer: Any, n: int) -> None:
    if not whole_in(first_dealer, 0, n - 1):
        raise refusal("first_dealer_range", last=n - 1, value=echo(first_dealer))


def check_player(player: Any, n: int) -> None:
    if not whole_in(player, 0, n - 1):
        raise refusal("player_seat", last=n - 1, value=echo(player))


def check_bid(bid: Any, cards: int, name: str, round_number: int) -> int:
    """A bid 0..cards dealt; the message names the round, since bids of several are sent."""
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise refusal("bid_not_whole", round=round_number, player=name, dealt=cards, bid=echo(bid))
    if not 0 <= bid <= cards:
        raise refusal(
            "bid_out_of_range", round=round_number, player=name, dealt=cards, bid=echo(bid)
        )
    return bid


def parse_card_id(text: Any) -> str:
    """The canonical card id of ``text``, or UserError naming it (unknown card)."""
    hint = "use an id like green-7, skull-king, escape"
    if not isinstance(text, str) or not text.strip():
        raise UserError(f"unknown card {echo(text)}; {hint}")
    if len(text) > 40:
        raise UserError(f"unknown card {echo(text)}; {hint}")
    try:
        return str(parse_card(text.strip()))
    except RulesError as err:
        message = str(err)  # the rules already say "unknown card 'x': ..." for most inputs
        if not message.startswith("unknown card"):
            message = f"unknown card {echo(text)}: {message}"
        raise UserError(message) from err


def check_plays(
    plays: Sequence[Mapping[str, Any]], n: int, partial: bool = False, keep_seen: bool = False
) -> list[dict[str, Any]]:
    """Plays in play order, canonical: ``{"player", "card", "confidence"}`` each. With
    ``keep_seen`` (a correction's plays), also ``"seen"`` where the correction put it: the index
    of the camera's play a play shows (``None`` for a card entered by hand), so the replay
    page still labels each card's box right after cards changed places."""
    if isinstance(plays, (str, bytes)) or not isinstance(plays, Sequence):
        raise UserError("plays must be a list of {player, card, confidence}")
    if not partial and len(plays) != n:
        raise refusal("plays_count", players=n, count=len(plays))
    if len(plays) > n:
        raise UserError(f"at most {n} cards in a trick, got {len(plays)}")
    clean: list[dict[str, Any]] = []
    seen: set[int] = set()
    for i, play in enumerate(plays):
        if not isinstance(play, Mapping) or "player" not in play or "card" not in play:
            raise UserError(f"play {i} needs a player and a card")
        player = play["player"]
        check_player(player, n)
        if player in seen:
            raise UserError(f"player {player} plays twice in one trick (play {i})")
        seen.add(player)
        conf = play.get("confidence")
        if conf is not None:
            try:
                conf = float(conf)
            except (TypeError, ValueError) as err:
                raise UserError(f"play {i}: confidence must be a number") from err
        entry = {"player": player, "card": parse_card_id(play["card"]), "confidence": conf}
        if keep_seen and "seen" in play:
            shows = play["seen"]
            if shows is not None and not whole_in(shows, 0, n - 1):
                raise UserError(f"play {i}: seen must be a play number 0..{n - 1} or null")
            entry["seen"] = shows
        clean.append(entry)
    return clean


_UNNAMED = ("tigress", "pirate", "mermaid")
"""Ids no physical card is entered as: an undeclared Tigress cannot be judged, and an unnamed
pirate or mermaid would lose Rosie's, Rascal's and Harry's abilities."""


def hand_cards(settings: Mapping[str, Any]) -> list[str]:
    """The card ids a table names on a page (entering a trick by hand, correcting or adding a
    card), in the deck's order: every named card, the Tigress declared, and the expansion
    cards only where their setting is on."""
    deals = settings_obj(settings).deals
    return [cid for cid in CARD_IDS if cid not in _UNNAMED and deals(parse_card(cid))]


def refuse_off_the_menu(
    settings: Mapping[str, Any], players: Sequence[str], plays: Sequence[Mapping[str, Any]]
) -> None:
    """Refuse a card the pages' menus do not offer (:func:`hand_cards`), as a page sent it
    through the API: an unnamed pirate or mermaid (which one it was decides Rosie's,
    Rascal's and Harry's abilities, and the deck has one of each), or an expansion card this
    game's deck leaves out. The camera's tricks are not checked so: it names every card it
    reads, and one whose setting is off is recorded with a warning (rules.md), not refused."""
    offered = hand_cards(settings)
    for play in plays:
        cid = str(play["card"])
        if cid in offered:
            continue
        card = parse_card(cid)
        player = players[int(play["player"])]
        if card.expansion_setting is not None:
            setting = SettingName(card.expansion_setting)
            raise refusal("hand_card_off", card=CardId(card), player=player, setting=setting)
        key = "hand_pirate_unnamed" if card.kind is Kind.PIRATE else "hand_mermaid_unnamed"
        raise refusal(key, card=CardId(card), player=player)


def settings_obj(settings: Mapping[str, Any]) -> Settings:
    """The game's settings as the rules engine's object; bad ones are a UserError."""
    try:
        return Settings.from_dict(dict(settings))
    except SettingRangeError as err:  # the one a settings form meets: said in its language
        setting = SettingName(err.setting)
        raise refusal(
            "setting_range", setting=setting, low=err.low, high=err.high, value=err.value
        ) from err
    except (RulesError, TypeError, ValueError) as err:
        raise UserError(f"invalid settings: {err}") from err


def merged_settings(settings: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``settings`` with ``changes`` made; a key changed to ``None`` goes back to its default."""
    merged = dict(settings)
    for key, value in changes.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def check_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(settings, Mapping):
        raise UserError(
            "settings must be a JSON object of the keys in docs/rules-engine.md (Settings)"
        )
    settings_obj(settings)
    return dict(settings)


def full_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Every setting with its default filled in (for display and for round counts)."""
    return settings_obj(settings).to_dict()


def cards_dealt(round_number: int, n: int, settings: Mapping[str, Any]) -> int:
    """Cards each player gets in the round: a tie-break round after the last (``tie`` set to
    ``extra_round``) is dealt as the last one, so the game's ``rounds`` setting counts."""
    return int(cards_in_round(round_number, n, int(full_settings(settings)["rounds"])))
