"""Cards, ids and the deck: the vocabulary every other package relies on."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter

import pytest

from skullcam.rules import (
    CARD_IDS,
    DECK,
    FACES,
    Card,
    InvalidCardError,
    Kind,
    RulesError,
    Settings,
    Suit,
    copies_in_deck,
    face_of,
    find_duplicate,
    full_deck,
    parse_card,
    resolve_trick,
)
from skullcam.rules.cards import EXPANSION_SETTINGS, card_ids_in_words
from skullcam.rules.simulate import deck_for


def test_faces_are_69_distinct_ids_in_the_documented_order() -> None:
    assert len(FACES) == 69
    assert len(set(FACES)) == 69
    assert FACES[:14] == tuple(f"green-{r}" for r in range(1, 15))
    assert FACES[14] == "yellow-1" and FACES[28] == "purple-1" and FACES[42] == "black-1"
    assert FACES[55:] == (
        "black-14",
        "escape",
        "pirate-rosie",
        "pirate-bendt",
        "pirate-rascal",
        "pirate-juanita",
        "pirate-harry",
        "tigress",
        "skull-king",
        "mermaid-alyra",
        "mermaid-sirena",
        "loot",
        "kraken",
        "white-whale",
    )


def test_deck_has_74_cards_and_70_without_the_expansion() -> None:
    assert len(DECK) == 74
    assert len(full_deck(expansion=False)) == 70
    counts = Counter(card.face for card in DECK)
    assert counts["escape"] == 5
    assert counts["loot"] == 2
    assert sum(1 for card in DECK if card.kind is Kind.PIRATE) == 5
    assert sum(1 for card in DECK if card.kind is Kind.NUMBER) == 56
    assert set(counts) == set(FACES)
    assert not any(card.is_expansion for card in full_deck(expansion=False))


@pytest.mark.parametrize("text", CARD_IDS)
def test_parse_of_str_is_identity_for_every_id(text: str) -> None:
    card = parse_card(text)
    assert str(card) == text
    assert parse_card(str(card)) == card
    assert eval(repr(card), {"parse_card": parse_card}) == card


@pytest.mark.parametrize("card", sorted(set(DECK), key=str), ids=str)
def test_every_deck_card_round_trips(card: Card) -> None:
    assert parse_card(str(card)) == card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("GREEN-7", Card(Kind.NUMBER, Suit.GREEN, 7)),
        ("  Skull-King ", Card(Kind.SKULL_KING)),
        ("Tigress:Escape", Card(Kind.TIGRESS, declared=Kind.ESCAPE)),
        ("pirate", Card(Kind.PIRATE)),
        ("MERMAID-Sirena", Card(Kind.MERMAID, name="sirena")),
    ],
)
def test_parse_is_case_insensitive(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("green-15", "numbered cards run green-1 .. green-14"),
        ("black-0", "numbered cards run black-1 .. black-14"),
        ("pirate-jack", "the pirates are pirate-rosie"),
        ("mermaid-ariel", "the mermaids are mermaid-alyra"),
        ("tigress:mermaid", "tigress:pirate or tigress:escape"),
        ("joker", "expected one of green-1 .. green-14, yellow-1 .. yellow-14,"),
        ("", "expected one of"),
        ("blue-3", "purple-1 .. purple-14, black-1 .. black-14, escape, pirate-rosie,"),
        ("skull-kong", "did you mean skull-king?"),
        ("Kracken", "did you mean kraken?"),
        ("white-wale", "did you mean white-whale?"),
        ("escpae", "did you mean escape?"),
    ],
)
def test_parse_rejects_unknown_text_naming_it(text: str, hint: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(text)
    assert f"unknown card {text!r}" in str(info.value)
    assert hint in str(info.value)
    assert isinstance(info.value, RulesError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["joker", "green-15", "pirate-jack", "dragon-king"])
def test_parse_suggests_nothing_for_text_close_to_no_card(text: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(text)
    assert "did you mean" not in str(info.value)


@pytest.mark.parametrize("value", [None, 7, ["green-7"]])
def test_parse_refuses_a_value_that_is_not_text_as_an_unknown_card(value: object) -> None:
    """A JSON null or number handed straight through raised AttributeError, which callers
    handling bad card ids (``except InvalidCardError``) did not catch."""
    with pytest.raises(InvalidCardError, match="must be text"):
        parse_card(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": Kind.NUMBER, "suit": Suit.GREEN},
        {"kind": Kind.NUMBER, "suit": Suit.GREEN, "rank": 15},
        {"kind": Kind.ESCAPE, "suit": Suit.GREEN, "rank": 3},
        {"kind": Kind.PIRATE, "name": "alyra"},
        {"kind": Kind.PIRATE, "declared": Kind.PIRATE},
        {"kind": Kind.TIGRESS, "declared": Kind.MERMAID},
    ],
)
def test_impossible_cards_cannot_be_built(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidCardError):
        Card(**kwargs)  # type: ignore[arg-type]


def test_tigress_role_needs_a_declaration() -> None:
    assert parse_card("tigress:pirate").role is Kind.PIRATE
    assert parse_card("tigress:escape").role is Kind.ESCAPE
    assert parse_card("tigress:pirate").face == "tigress"
    with pytest.raises(RulesError, match="declared"):
        _ = parse_card("tigress").role


@pytest.mark.parametrize(
    ("cards", "index"),
    [
        ("green-3 green-3", 1),
        ("escape escape escape escape escape", None),
        ("escape escape escape escape escape escape", 5),
        ("loot loot", None),
        ("loot escape loot loot", 3),
        ("tigress:pirate tigress:escape", 1),
        ("pirate-rosie pirate", None),
        ("pirate pirate-rosie pirate-bendt pirate-rascal pirate-juanita pirate-harry", 5),
        ("mermaid mermaid", None),
        ("mermaid-alyra mermaid mermaid", 2),
        ("skull-king kraken white-whale skull-king", 3),
    ],
)
def test_find_duplicate_knows_how_many_of_each_card_the_deck_holds(
    cards: str, index: int | None
) -> None:
    found = find_duplicate(parse_card(c) for c in cards.split())
    assert (None if found is None else found[0]) == index


def test_copies_in_deck_counts_the_physical_deck() -> None:
    counts = Counter(card.face for card in full_deck())
    assert {face: copies_in_deck(face) for face in FACES} == counts
    assert copies_in_deck("escape") == 5 and copies_in_deck("loot") == 2
    assert copies_in_deck("green-15") == 0


def test_titles_read_like_a_sentence() -> None:
    assert parse_card("pirate-rosie").title == "Rosie D' Laney"
    assert parse_card("black-14").title == "the black 14"
    assert parse_card("tigress:escape").title == "the Tigress as an escape"
    assert parse_card("mermaid").title == "a mermaid"


def _card_ids_in_a_process(hash_seed: int) -> tuple[str, ...]:
    code = "from skullcam.rules import CARD_IDS; print(' '.join(CARD_IDS))"
    out = subprocess.run(
        [sys.executable, "-P", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
    )
    return tuple(out.stdout.split())


def test_card_ids_come_in_the_same_order_in_every_process() -> None:
    """The expansion ids were built from a set of kinds, whose order follows the hash seed:
    Loot, Kraken and White Whale came in another order in the pages' card menus (which list
    ``CARD_IDS``) from one start of the server to the next. They come in the deck's order."""
    orders = {_card_ids_in_a_process(seed) for seed in range(4)}
    assert orders == {CARD_IDS}
    assert [cid for cid in CARD_IDS if parse_card(cid).is_expansion] == [
        "loot",
        "kraken",
        "white-whale",
    ]


@pytest.mark.parametrize("kind", list(EXPANSION_SETTINGS))
def test_an_expansion_card_is_dealt_and_warned_about_by_its_own_setting(
    kind: Kind,
) -> None:
    """One table (``EXPANSION_SETTINGS``) says which setting puts an expansion card in the
    deck: the deck a game deals and the trick's warning follow it (the pages' menus too:
    ``tests/test_store_hand_entry.py``)."""
    card = Card(kind)
    key = EXPANSION_SETTINGS[kind]
    assert card.expansion_setting == key
    assert isinstance(getattr(Settings(), key), bool)  # a Settings field, off by default
    on = Settings.from_dict({key: True})
    assert card in deck_for(on) and card not in deck_for(Settings())
    trick = [card, parse_card("green-3")]
    [warning] = resolve_trick(trick).warnings
    assert f"the '{key}' setting is off" in warning
    assert not resolve_trick(trick, on).warnings


def test_the_base_game_cards_need_no_setting() -> None:
    base = [card for card in DECK if card.expansion_setting is None]
    assert len(base) == 70 and not any(card.is_expansion for card in base)
    assert deck_for(Settings()) == base


def test_the_card_ids_in_words_name_every_card() -> None:
    """The list ``skullcam trick --help`` and an unknown card's message give is built from
    ``FACES``: a card added there is named there too."""
    words = card_ids_in_words()
    listed = re.split(r", | or ", words)
    unnamed = {"pirate", "mermaid", "tigress"}
    for cid in CARD_IDS:
        card = parse_card(cid)
        if card.is_number:
            suit = cid.rsplit("-", 1)[0]
            assert f"{suit}-1 .. {suit}-14" in words, cid
        elif cid not in unnamed:
            assert cid in listed, cid


def test_a_cards_face_is_its_id_without_the_declaration() -> None:
    """The referee, the store's doubts and readings and the scripted tables each cut the
    declaration off a card's id themselves: one function, the parsed card's face for every id
    and the text as it stands for one that is no card (a doubt's text is compared as is)."""
    assert face_of("tigress:pirate") == face_of("tigress:escape") == "tigress"
    for cid in CARD_IDS:
        assert face_of(cid) == parse_card(cid).face, cid
    assert face_of("green-15") == "green-15"
