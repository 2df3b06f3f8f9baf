"""A trick's explanation kept as phrases (a key and its arguments), worded in English here.

The rules engine decides *what* to say; the wording is a table of templates, so the web app
can say the same thing in Spanish, Italian or Danish (``web/i18n.py``) without a second copy
of the rules. The English table below is the one ``TrickResult.explanation`` and every
``--json`` output use, word for word as before the phrases existed.

A template is ``str.format`` text with five additions: an argument that is a ``Card`` or a
``Suit`` is named by the caller's namer, the format spec ``cap`` capitalises the first
letter (a card or player named at the start of a sentence), the spec ``gen`` writes a
name in the genitive as the language does (Danish "Anas bud" but "Lars' bud"), a whole
number is written as the caller writes numbers (a page's minus sign), and a spec with a
``|`` words what a count rules: ``{dealt:card|cards}`` is "card" when ``dealt`` is 1 and
"cards" otherwise. Each language picks the words a count rules and the count that rules
them (Italian "1 presa registrata su 3", English "0 of 1 trick recorded"), so a round of one
card reads "with 1 card dealt", never "with 1 cards dealt".
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .cards import Card, Suit, parse_card


class Who(NamedTuple):
    """A card and the player who played it: "the Skull King (Ana)"."""

    card: Card
    player: str


class CardId(NamedTuple):
    """A card named by its id in English ("kraken"), as a warning about the card names it."""

    card: Card


class SettingName(NamedTuple):
    """A setting named by its key in English ("'loot'"), by its label in the web's languages."""

    key: str


Arg = Card | Suit | Who | CardId | SettingName | str | int


@dataclass(frozen=True)
class Phrase:
    """One piece of an explanation: its template's key and the values it names."""

    key: str
    args: Mapping[str, Arg] = field(default_factory=dict)


#: The English wording. Spacing and punctuation are part of each piece: the explanation is
#: the pieces joined with nothing between them.
ENGLISH: dict[str, str] = {
    "kraken_meets_whale": (
        "{first:cap} and {second} meet: the one played second, {second}, takes effect and"
        " {first} plays as an escape. "
    ),
    "kraken": "The Kraken destroys the trick: nobody wins it; its cards and bonuses are lost.",
    "kraken_left_leads": " {player:cap}, left of the Kraken's player, leads next.",
    "kraken_would_have_won": " {who:cap} would have won it and leads next.",
    "kraken_alone": " No other card is left that could have won it: {player} leads again.",
    "whale": "The White Whale strips every special card of its power",
    "whale_discarded": (
        "; only specials were played, so the trick is discarded and {player}, who played the"
        " White Whale, leads next."
    ),
    "whale_highest": ": {who} wins as the highest number, whatever its suit",
    "whale_tied": " (the first of the tied {rank}s).",
    "full_stop": ".",
    "mermaid_over_all": (
        "{who:cap} wins: when a pirate, the Skull King and a mermaid meet, the mermaid wins"
    ),
    "mermaid_captures_skull_king": (
        "{who:cap} captures the Skull King: a mermaid beats the Skull King"
    ),
    "skull_king": "{who:cap} wins: the Skull King beats every pirate and every numbered card",
    "pirate": "{who:cap} wins: a pirate beats every numbered card and every mermaid",
    "mermaid": "{who:cap} wins: a mermaid beats every numbered card",
    "trump": "{who:cap} wins: black is trump and this is the highest black card",
    "suit_led": "{who:cap} wins: the highest {suit} card, the suit led",
    "only_escapes": "{who:cap} wins: only escapes were played, so the first card played wins",
    "only_escapes_and_loot": (
        "{who:cap} wins: only escapes and Loot were played, so the first card played wins"
    ),
    "first_pirate_wins": "; among several pirates the first played wins",
    "first_mermaid_wins": "; among the mermaids the first played wins",
    "no_bonus_scoring": " No capture bonus under no-bonus scoring.",
    "bonus_start": " ",
    "bonus_separator": "; ",
    "bonus_fourteen": "+{points} for {card}",
    "bonus_capture": "+{points} for capturing {card}",
    "bonus_end": " (if the bid is exact).",
    "bonus_end_kept": " (paid whether the bid is exact or not).",
    "bonus_end_rascal": (
        " (all of it if the bid is exact; half if it is off by one, unless a cannonball was"
        " called)."
    ),
    "pirate_does_not_count": " No bonus for capturing the pirate.",
    "pirates_do_not_count": " No bonus for capturing the pirates.",
    "loot_alliance": (
        " Loot alliance: {loot_player} and {winner_player} (+{points} each if both bids are exact)."
    ),
    # Why no table could have played a trick (``IllegalPlayError.phrase``).
    "trick_size": "a trick has one card per player, {low} to {high}, got {count}",
    "too_many_escapes": "one escape too many in this trick (the deck has {count})",
    "too_many_loot": "one loot too many in this trick (the deck has {count})",
    "too_many_pirates": "one pirate too many in this trick (the deck has {count})",
    "too_many_mermaids": "one mermaid too many in this trick (the deck has {count})",
    "already_in_trick": "{face} is already in this trick (the deck has one)",
    "tigress_undeclared": "the Tigress must be declared: write tigress:pirate or tigress:escape",
    # Why a game's score stopped (``GameRecordError.phrases``).
    "at_round": "round {round}: ",
    "at_trick": "round {round}, trick {trick}: ",
    "at_play": "round {round}, trick {trick}, play {play}: ",
    "at_play_by": "round {round}, trick {trick}, play {play} ({player}): ",
    "at_ability": "round {round}, abilities[{index}]: ",
    # Why a file is no game record a page can read (``RecordShapeError.phrases``): the key as
    # the file spells it. Not English's own message, which says what the value must be.
    "record_bad_value": "the value of '{key}' is not valid",
    "record_unknown_key": "unknown key '{key}'",
    "record_not_object": "not a JSON object",
    # Which setting a user wrote is not one, or what its value must be
    # (``SettingError.phrase``): the key as written.
    "setting_unknown": "'{key}' in 'settings' is no setting",
    "setting_not_bool": "the setting '{key}' must be true or false",
    "setting_not_whole": "the setting '{key}' must be a whole number from {low} to {high}",
    "setting_outside_range": "the setting '{key}' must be {low} to {high}, got {value}",
    "setting_not_choice": "the setting '{key}' must be one of {choices}",
    "played_twice_in_round": (
        "{card} was already played this round, in trick {first_trick} by {first_player} (a card"
        " can be played only once per round)"
    ),
    "too_many_in_round": "{card}: one more than the deck holds this round (it has {count})",
    "extra_round_off": (
        "the game has {rounds} {rounds:round|rounds} (setting {setting}); an extra round is played"
        " only on a tie with the setting tie=extra_round"
    ),
    "bid_out_of_range": (
        "{player}'s bid {bid} is out of range: bids are 0..{dealt} with {dealt}"
        " {dealt:card|cards} dealt"
    ),
    "too_many_tricks": (
        "{count} tricks recorded but only {dealt} can be played with {dealt}"
        " {dealt:card|cards} dealt"
    ),
    "round_unfinished": (
        "only {count} of {dealt} {dealt:trick|tricks} recorded; only the last round of a record"
        " may be unfinished"
    ),
    "plays_per_trick": "{count} {count:play|plays}, expected one per player ({players})",
    "out_of_turn": "{player} played out of turn; it was {due}'s turn",
    "out_of_turn_leader": " ({leader} leads this trick)",
    "ability_twice": "trick {trick} already has an ability",
    "ability_past_tricks": (
        "an ability names trick {trick}, but the round has only {count} {count:trick|tricks}"
        " recorded (tricks are counted from 0)"
    ),
    "ability_not_won": (
        "an ability of {pirate} is recorded, but that pirate did not win this trick"
    ),
    "rosie_choice": "Rosie's choice must be a seat 0..{last}, got {choice}",
    "rosie_last_trick": (
        "Rosie won the last trick of round {round}: the next round is led by the dealer's"
        " neighbour, so there is no choice"
    ),
    "harry_bid_out_of_range": "Harry cannot move {player}'s bid to {bid} (bids are 0..{dealt})",
    # Why the store cannot score recorded rounds yet (``GameStore.score``'s own reasons).
    "missing_bid_before_tricks": (
        "round {round} has no bid for {players}, but round {later} has recorded tricks;"
        " enter the missing bid for round {round} to score the rounds after it"
    ),
    "missing_bid_all_tricks": (
        "round {round} has all its tricks recorded but no bid for {players};"
        " enter the missing bid for round {round} to score it"
    ),
    "trick_short": (
        "only {cards} of {players} cards {cards:was|were} recorded; add the missing card on the"
        " trick's page"
    ),
    "setting_off": (
        "{card} was played but the {setting} setting is off: resolved by its rule anyway;"
        " check the card or turn the setting on"
    ),
    # What a game's score warns about (``GameScore.warning_phrases``): each warning of a round
    # is "at_round" and one of these (or "setting_off"); the tie warning stands alone.
    "scored_as_played": (
        "trick {trick}: {player} led, but by the rules {leader} leads it; scored as played"
    ),
    # Said by the store in place of "scored_as_played" for the trick after a place a trick
    # taken back left free: who should lead it is not known until that trick is entered.
    "trick_missing": "trick {trick} is not recorded: enter it by hand",
    "abilities_setting_off": (
        "pirate abilities are recorded but the {setting} setting is off: they are ignored"
    ),
    "cannonball_ignored": "cannonball declarations are ignored outside Rascal's scoring",
    "rosie_last_trick_ignored": (
        "Rosie's choice recorded on the round's last trick is ignored: the next round is led by"
        " the dealer's neighbour"
    ),
    "tie_one_more_round": (
        "the lead is tied after the last round: play one more round (tie setting)"
    ),
    "tie_break_not_due": (
        "the lead is not tied after round {last}, so round {round}, played as a tie-break,"
        " does not count"
    ),
}


def _english_genitive(name: str) -> str:
    return f"{name}'s"


def _as_named(name: str) -> str:
    return name


class _Formatter(string.Formatter):
    """``str.format`` plus the ``cap``, ``gen`` and ``owned`` specs (``owned``: a card's name
    after a genitive, "{player:gen} {card:owned}"), the counted words ``{n:one|other}``
    (:func:`counted_word`), and whole numbers (``{n}``, ``{n:+d}``) written by ``number``: a
    page writes a minus as U+2212 where the command line writes "-"."""

    def __init__(
        self,
        genitive: Callable[[str], str] = _english_genitive,
        number: Callable[[int], str] = str,
        owned: Callable[[str], str] = _as_named,
    ) -> None:
        self.genitive = genitive
        self.number = number
        self.owned = owned

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "cap":
            text = str(value)
            return text[:1].upper() + text[1:]
        if format_spec == "gen":
            return self.genitive(str(value))
        if format_spec == "owned":
            return self.owned(str(value))
        if "|" in format_spec:
            return counted_word(value, format_spec)
        if isinstance(value, int) and not isinstance(value, bool) and format_spec in ("", "+d"):
            text = self.number(value)
            return f"+{text}" if format_spec == "+d" and value >= 0 else text
        return str(super().format_field(value, format_spec))


def counted_word(count: Any, forms: str) -> str:
    """The words ``forms`` ("card|cards") says for ``count``: the first for a count of one,
    the second for any other ("0 cards", "2 cards"). A count is whole: anything else (a
    template's blank left for a script to fill) takes the second."""
    one, _, other = forms.partition("|")
    return one if count == 1 and not isinstance(count, bool) else other


_FORMATTER = _Formatter()


@dataclass(frozen=True)
class Wording:
    """How one language words the phrases: its templates and how it names each kind of value
    (``genitive``: a name as the ``gen`` spec writes it, Danish "Anas" but "Lars'"; ``owned``:
    a card's name after a genitive, as the ``owned`` spec writes it, Danish "Hvide Hval" for
    "Den Hvide Hval"; ``who``:
    a card and its player, by default the card as ``card`` names it and the player after it,
    "the Skull King (Ana)"; ``number``: a whole number, "-1" by default, "−1" on a page)."""

    templates: Mapping[str, str] = field(default_factory=lambda: ENGLISH)
    card: Callable[[Card], str] = lambda card: card.title
    suit: Callable[[Suit], str] = lambda suit: suit.value
    card_id: Callable[[Card], str] = str
    setting: Callable[[str], str] = repr
    genitive: Callable[[str], str] = _english_genitive
    who: Callable[[Card, str], str] | None = None
    number: Callable[[int], str] = str
    owned: Callable[[str], str] = _as_named


ENGLISH_WORDING = Wording()


def fill(template: str, wording: Wording = ENGLISH_WORDING, **values: Any) -> str:
    """``template`` filled with ``values`` as they are, its ``cap`` and ``gen`` specs as
    ``wording`` writes them: a language's sentence that is no phrase (a camera's flag)."""
    return _Formatter(wording.genitive, wording.number, wording.owned).format(template, **values)


def render(phrases: Iterable[Phrase], wording: Wording = ENGLISH_WORDING) -> str:
    """The phrases in ``wording``'s language; a key it lacks falls back to English."""

    def named(value: Arg) -> str | int:
        if isinstance(value, Who):
            if wording.who is not None:
                return wording.who(value.card, value.player)
            return f"{wording.card(value.card)} ({value.player})"
        if isinstance(value, CardId):
            return wording.card_id(value.card)
        if isinstance(value, SettingName):
            return wording.setting(value.key)
        if isinstance(value, Card):
            return wording.card(value)
        if isinstance(value, Suit):
            return wording.suit(value)
        return value

    out = []
    for phrase in phrases:
        template = wording.templates.get(phrase.key) or ENGLISH[phrase.key]
        out.append(fill(template, wording, **{k: named(v) for k, v in phrase.args.items()}))
    return "".join(out)


def phrases_to_json(phrases: Iterable[Phrase]) -> list[dict[str, Any]]:
    """Phrases as JSON (a card by its id), so a result kept or sent as JSON can still be
    worded in any language: the store's score keeps why it stopped this way."""

    def arg(value: Arg) -> Any:
        if isinstance(value, Who):
            return {"card": str(value.card), "player": value.player}
        if isinstance(value, CardId):
            return {"card_id": str(value.card)}
        if isinstance(value, SettingName):
            return {"setting": value.key}
        if isinstance(value, Card):
            return {"card": str(value)}
        if isinstance(value, Suit):
            return {"suit": value.value}
        return value

    return [{"key": p.key, "args": {k: arg(v) for k, v in p.args.items()}} for p in phrases]


def phrases_from_json(data: Iterable[Mapping[str, Any]]) -> tuple[Phrase, ...]:
    """The phrases :func:`phrases_to_json` wrote."""

    def arg(value: Any) -> Arg:
        if not isinstance(value, Mapping):
            return value  # type: ignore[no-any-return]
        if "player" in value:
            return Who(parse_card(value["card"]), str(value["player"]))
        if "card_id" in value:
            return CardId(parse_card(value["card_id"]))
        if "setting" in value:
            return SettingName(str(value["setting"]))
        if "suit" in value:
            return Suit(value["suit"])
        return parse_card(value["card"])

    return tuple(Phrase(str(p["key"]), {k: arg(v) for k, v in p["args"].items()}) for p in data)


def placeholders(template: str) -> set[str]:
    """The argument names a template uses (the tests check translations use the same)."""
    return {name for _, name, _, _ in _FORMATTER.parse(template) if name}
