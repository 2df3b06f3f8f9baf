"""The Skull King deck: card kinds, suits, the 69 face ids and the 74 physical cards.

``str(card)`` is the card's id (``green-7``, ``pirate-rosie``, ``tigress:escape``): the same text
the command line reads, game records store and (for the 69 faces) the vision models use as class
names, so one id travels through the whole system unchanged.
"""

from __future__ import annotations

import difflib
import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import IllegalPlayError, InvalidCardError


class Suit(enum.Enum):
    """The four numbered suits; black (Jolly Roger) is trump."""

    GREEN = "green"
    YELLOW = "yellow"
    PURPLE = "purple"
    BLACK = "black"


class Kind(enum.Enum):
    """What a card is printed as. A Tigress's role comes from its declaration (``Card.role``)."""

    NUMBER = "number"
    ESCAPE = "escape"
    PIRATE = "pirate"
    TIGRESS = "tigress"
    SKULL_KING = "skull-king"
    MERMAID = "mermaid"
    LOOT = "loot"
    KRAKEN = "kraken"
    WHITE_WHALE = "white-whale"


SUITS: tuple[Suit, ...] = (Suit.GREEN, Suit.YELLOW, Suit.PURPLE, Suit.BLACK)
PIRATE_NAMES: tuple[str, ...] = ("rosie", "bendt", "rascal", "juanita", "harry")
MERMAID_NAMES: tuple[str, ...] = ("alyra", "sirena")
MAX_RANK = 14

_PIRATE_TITLES = {
    "rosie": "Rosie D' Laney",
    "bendt": "Bendt the Bandit",
    "rascal": "Rascal of Roatan",
    "juanita": "Juanita Jade",
    "harry": "Harry the Giant",
}
_MERMAID_TITLES = {"alyra": "Alyra", "sirena": "Sirena"}
# Roles that never set a suit and never stop the search for one (rules.md, "Following suit").
_SUITLESS_ROLES = frozenset({Kind.ESCAPE, Kind.LOOT})
#: The expansion cards and the ``Settings`` key that puts each in a table's deck: the one table
#: the deck a game deals (``simulate.deck_for``), a trick's "setting is off" warning and the
#: pages' card menus (``store/checks.py``) all read, so a new expansion card is added here once.
EXPANSION_SETTINGS: dict[Kind, str] = {
    Kind.LOOT: "loot",
    Kind.KRAKEN: "kraken_and_white_whale",
    Kind.WHITE_WHALE: "kraken_and_white_whale",
}
_EXPANSION_KINDS = frozenset(EXPANSION_SETTINGS)


@dataclass(frozen=True, slots=True)
class Card:
    """One card as played.

    ``name`` tells the individual pirate or mermaid apart (``None`` for input that only says
    ``pirate`` or ``mermaid``); ``declared`` is a Tigress's declaration (``Kind.PIRATE`` or
    ``Kind.ESCAPE``; ``None`` while it is still in a hand). The five escapes are equal values,
    as are the two loot cards: they look alike, and no rule tells them apart.
    """

    kind: Kind
    suit: Suit | None = None
    rank: int | None = None
    name: str | None = None
    declared: Kind | None = None

    def __post_init__(self) -> None:
        # Construction goes through parse_card/full_deck; this guards hand-built cards so that
        # an impossible card cannot reach the resolver and produce a confident wrong verdict.
        is_number = self.kind is Kind.NUMBER
        if is_number != (self.suit is not None and self.rank is not None):
            raise InvalidCardError(f"a numbered card needs a suit and a rank, got {self!r}")
        if self.rank is not None and not 1 <= self.rank <= MAX_RANK:
            raise InvalidCardError(f"numbered cards run 1..{MAX_RANK}, got rank {self.rank}")
        allowed_names = {Kind.PIRATE: PIRATE_NAMES, Kind.MERMAID: MERMAID_NAMES}.get(self.kind, ())
        if self.name is not None and self.name not in allowed_names:
            raise InvalidCardError(f"no {self.kind.value} is called {self.name!r}")
        if self.declared is not None and (
            self.kind is not Kind.TIGRESS or self.declared not in (Kind.PIRATE, Kind.ESCAPE)
        ):
            raise InvalidCardError("only the Tigress is declared, as a pirate or an escape")

    def __str__(self) -> str:
        if self.kind is Kind.NUMBER:
            assert self.suit is not None
            return f"{self.suit.value}-{self.rank}"
        if self.name is not None:
            return f"{self.kind.value}-{self.name}"
        if self.declared is not None:
            return f"tigress:{self.declared.value}"
        return str(self.kind.value)

    def __repr__(self) -> str:
        return f"parse_card({str(self)!r})"

    @property
    def face(self) -> str:
        """The printed face id (a ``FACES`` entry, or ``pirate``/``mermaid`` when unnamed)."""
        return "tigress" if self.kind is Kind.TIGRESS else str(self)

    @property
    def role(self) -> Kind:
        """How the card plays: its kind, or a Tigress's declaration.

        Raises ``IllegalPlayError`` for an undeclared Tigress: a trick cannot be judged without
        knowing whether she came down as a pirate or an escape.
        """
        if self.kind is not Kind.TIGRESS:
            return self.kind
        if self.declared is None:
            raise IllegalPlayError(
                "the Tigress must be declared when played: write tigress:pirate or tigress:escape"
            )
        return self.declared

    @property
    def is_number(self) -> bool:
        return self.kind is Kind.NUMBER

    @property
    def is_special(self) -> bool:
        """Specials may always be played, whatever suit is led."""
        return self.kind is not Kind.NUMBER

    @property
    def is_expansion(self) -> bool:
        """Loot, Kraken and White Whale: cards a table may leave out (settings)."""
        return self.kind in _EXPANSION_KINDS

    @property
    def expansion_setting(self) -> str | None:
        """The ``Settings`` key that puts this expansion card in the deck; None for the others."""
        return EXPANSION_SETTINGS.get(self.kind)

    @property
    def title(self) -> str:
        """How the card is named in a sentence a player reads at the table."""
        if self.kind is Kind.NUMBER:
            assert self.suit is not None
            return f"the {self.suit.value} {self.rank}"
        if self.kind is Kind.PIRATE:
            return _PIRATE_TITLES[self.name] if self.name else "a pirate"
        if self.kind is Kind.MERMAID:
            return _MERMAID_TITLES[self.name] if self.name else "a mermaid"
        if self.kind is Kind.TIGRESS:
            if self.declared is None:
                return "the Tigress"
            return f"the Tigress as {'a pirate' if self.declared is Kind.PIRATE else 'an escape'}"
        return {
            Kind.ESCAPE: "an escape",
            Kind.SKULL_KING: "the Skull King",
            Kind.LOOT: "a Loot",
            Kind.KRAKEN: "the Kraken",
            Kind.WHITE_WHALE: "the White Whale",
        }[self.kind]


def _number_faces() -> list[str]:
    return [f"{suit.value}-{rank}" for suit in SUITS for rank in range(1, MAX_RANK + 1)]


FACES: tuple[str, ...] = (
    *_number_faces(),
    "escape",
    *(f"pirate-{name}" for name in PIRATE_NAMES),
    "tigress",
    "skull-king",
    *(f"mermaid-{name}" for name in MERMAID_NAMES),
    "loot",
    "kraken",
    "white-whale",
)
"""The 69 distinct faces in a fixed order: also the class order of every vision model."""


def _build_ids() -> dict[str, Card]:
    ids: dict[str, Card] = {}
    for suit in SUITS:
        for rank in range(1, MAX_RANK + 1):
            ids[f"{suit.value}-{rank}"] = Card(Kind.NUMBER, suit, rank)
    for name in PIRATE_NAMES:
        ids[f"pirate-{name}"] = Card(Kind.PIRATE, name=name)
    for name in MERMAID_NAMES:
        ids[f"mermaid-{name}"] = Card(Kind.MERMAID, name=name)
    for kind in (Kind.ESCAPE, Kind.PIRATE, Kind.MERMAID, Kind.TIGRESS, Kind.SKULL_KING):
        ids[kind.value] = Card(kind)
    for kind in EXPANSION_SETTINGS:  # a dict's order: a set of kinds is ordered by the hash seed
        ids[kind.value] = Card(kind)
    ids["tigress:pirate"] = Card(Kind.TIGRESS, declared=Kind.PIRATE)
    ids["tigress:escape"] = Card(Kind.TIGRESS, declared=Kind.ESCAPE)
    return ids


_IDS = _build_ids()
CARD_IDS: tuple[str, ...] = tuple(_IDS)
"""Every id ``parse_card`` accepts (lower case): the 69 faces plus ``pirate``, ``mermaid``,
``tigress:pirate`` and ``tigress:escape``."""


def card_ids_in_words() -> str:
    """Every card id, the numbered ones as ranges: what ``skullcam trick --help`` and an
    unknown card's message list, so a player who guessed "blue-3" learns the four suits."""
    numbered = [f"{s.value}-1 .. {s.value}-{MAX_RANK}" for s in SUITS]
    specials: list[str] = []
    for face in FACES[len(SUITS) * MAX_RANK :]:  # the faces after the numbered ones
        specials += ["tigress:pirate", "tigress:escape"] if face == "tigress" else [face]
    return ", ".join([*numbered, *specials[:-1]]) + f" or {specials[-1]}"


def parse_card(text: str) -> Card:
    """The card whose id is ``text`` (case-insensitive, surrounding spaces ignored).

    Raises ``InvalidCardError`` naming the text, with a hint for the common mistakes; also for
    a value that is not text (a JSON ``null`` or number passed straight through), so a caller
    handling bad card ids handles that one too.
    """
    if not isinstance(text, str):
        raise InvalidCardError(
            f"a card id must be text like 'green-7', not {type(text).__name__} {text!r}"
        )
    key = text.strip().lower()
    card = _IDS.get(key)
    if card is not None:
        return card
    suit = key.partition("-")[0]
    if suit in {s.value for s in SUITS}:
        hint = f"numbered cards run {suit}-1 .. {suit}-{MAX_RANK}"
    elif key.startswith("pirate"):
        hint = "the pirates are " + ", ".join(f"pirate-{n}" for n in PIRATE_NAMES)
    elif key.startswith("mermaid"):
        hint = "the mermaids are " + ", ".join(f"mermaid-{n}" for n in MERMAID_NAMES)
    elif key.startswith("tigress"):
        hint = "declare the Tigress as tigress:pirate or tigress:escape"
    else:
        hint = "expected one of " + card_ids_in_words()
        # A typo of a special card ("skull-kong", "kracken") is the commonest slip at the
        # table; numbered cards are left to the hint above, as "green-15" is not "green-1".
        close = difflib.get_close_matches(key, _IDS, n=1, cutoff=0.75)
        if close:
            hint = f"did you mean {close[0]}? ({hint})"
    raise InvalidCardError(f"unknown card {text!r}: {hint}")


def full_deck(expansion: bool = True) -> list[Card]:
    """The physical deck: 74 cards, or the 70 of the base game without Loot/Kraken/Whale.

    The Tigress is undeclared here: she is declared only when played.
    """
    deck = [_IDS[face] for face in FACES if face not in ("escape", "loot")]
    deck += [_IDS["escape"]] * 5
    if expansion:
        deck += [_IDS["loot"]] * 2
    else:
        deck = [card for card in deck if not card.is_expansion]
    return deck


DECK: tuple[Card, ...] = tuple(full_deck(expansion=True))
BASE_DECK_SIZE = 70


def _copies_key(card: Card) -> str:
    """Which physical card a played card is; unnamed pirates/mermaids share their group."""
    return card.face


_COPIES = Counter(_copies_key(card) for card in DECK)


def copies_in_deck(face: str) -> int:
    """How many cards of ``face`` (a ``FACES`` id) the full deck holds: 5 escapes, 2 loots,
    one of every other face, 0 for an id that is no face."""
    return _COPIES.get(face, 0)


_GROUP_LIMITS = {Kind.PIRATE: len(PIRATE_NAMES), Kind.MERMAID: len(MERMAID_NAMES)}


def deck_holds(card: Card) -> int:
    """How many cards like ``card`` one deck holds: 5 escapes, 2 loots, 5 pirates for an
    unnamed ``pirate`` (2 mermaids for ``mermaid``), one of any other card."""
    return copies_in_deck(_copies_key(card)) or _GROUP_LIMITS.get(card.kind, 1)


def face_of(card_id: str) -> str:
    """The face of the card ``card_id`` names, whatever was declared of it: ``tigress`` for
    ``tigress:pirate`` and ``tigress:escape``, any other id as it is. The Tigress is one card
    however she is played, and the camera reads her face, never her declaration. The id is
    not checked (a doubt's or a reading's text is compared as it stands); for a valid id
    this is ``parse_card(card_id).face``."""
    return card_id.partition(":")[0]


def one_of_a_kind(card_id: str) -> bool:
    """Whether the deck holds one card like ``card_id``, so that a round plays it at most
    once: not an escape or a loot (several copies), nor an unnamed pirate or mermaid (any of
    several); False for an id that is no card. Two tricks of a round sharing such a card are
    one trick; sharing an escape proves nothing."""
    try:
        return copies_in_deck(parse_card(card_id).face) == 1
    except InvalidCardError:
        return False


def find_duplicate(cards: Iterable[Card]) -> tuple[int, Card] | None:
    """The first play (index, card) that the deck cannot hold after the plays before it.

    A deck has one of each card but five escapes and two loots; an unnamed ``pirate`` or
    ``mermaid`` counts against its group (five pirates, two mermaids), so ``pirate`` next to
    all five named pirates is a duplicate too.
    """
    seen: Counter[str] = Counter()
    groups: Counter[Kind] = Counter()
    for index, card in enumerate(cards):
        key = _copies_key(card)
        seen[key] += 1
        limit = _COPIES.get(key)
        if limit is not None and seen[key] > limit:
            return index, card
        if card.kind in _GROUP_LIMITS:
            groups[card.kind] += 1
            if groups[card.kind] > _GROUP_LIMITS[card.kind]:
                return index, card
    return None


def suit_role(card: Card) -> Suit | bool | None:
    """What a card does to the suit to follow when it lands first in line.

    A ``Suit`` (a numbered card sets it), ``None`` (a character: no suit this trick) or
    ``False`` (escape-like: the search goes on to the next card).
    """
    role = card.role
    if role is Kind.NUMBER:
        return card.suit
    if role in _SUITLESS_ROLES:
        return False
    return None
