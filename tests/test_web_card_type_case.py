"""Card types written as the users' own rule sheets write them (shared/seeds).

The Spanish and Italian sheets capitalise every card type in running text ("una Sirena",
"los Piratas", "tutti i Pirati", "la Tigre come Pirata"); the Danish one writes the card
types in lower case ("en havfrue", "pirater", "flugtkort") and capitalises only the cards
named like people or places (Skull King, Kraken, Den Hvide Hval). The Spanish and Italian
texts said "una sirena" and "los piratas" beside "la Sirena de Ana" and "el Pirata de Ben".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from skullcam.rules import parse_card, resolve_trick
from skullcam.web import explain_i18n, flag_i18n, i18n, refusal_i18n
from skullcam.web.explain_i18n import bonus_item_text, explain

#: The card types each sheet capitalises, in the forms the texts use.
CAPITALISED = {
    "es": r"sirenas?|piratas?|tigresa|huidas?|botín|botines|ballena blanca|kraken",
    "it": r"siren[ae]|pirat[ai]|tigre|fuga|fughe|bottin[oi]|balena bianca|kraken|re dei teschi",
}


def _texts(table: Any, lang: str | None = None) -> Iterator[tuple[str, str]]:
    """Every (language, text) of a table of texts, however it nests them by language."""
    if isinstance(table, dict):
        for key, value in table.items():
            yield from _texts(value, key if key in i18n.LANGUAGES else lang)
    elif isinstance(table, (list, tuple)):
        for value in table:
            yield from _texts(value, lang)
    elif isinstance(table, str) and lang is not None:
        yield lang, table


TABLES = {
    "i18n.STRINGS": i18n.STRINGS,
    "card names": i18n._SPECIALS,
    "explanations": explain_i18n.TEMPLATES,
    "refusals": refusal_i18n.TEMPLATES,
    "flags": [words for _pattern, words in flag_i18n.FLAGS],
}


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("lang", sorted(CAPITALISED))
def test_spanish_and_italian_texts_capitalise_every_card_type(table: str, lang: str) -> None:
    pattern = re.compile(rf"\b({CAPITALISED[lang]})\b", re.IGNORECASE)
    lower = [
        text
        for text_lang, text in _texts(TABLES[table])
        if text_lang == lang and any(m.group(0)[0].islower() for m in pattern.finditer(text))
    ]
    assert lower == []


@pytest.mark.parametrize(
    ("cards", "lang", "expected"),
    [
        (
            ("pirate-rosie", "mermaid-alyra", "skull-king"),
            "es",
            "cuando coinciden un Pirata, el Skull King y una Sirena, gana la Sirena",
        ),
        (
            ("pirate-rosie", "mermaid-alyra", "skull-king"),
            "it",
            "quando si incontrano un Pirata, il Re dei Teschi e una Sirena, vince la Sirena",
        ),
        (("pirate-rosie", "pirate-harry", "green-3"), "es", "entre varios Piratas gana"),
        (("pirate-rosie", "pirate-harry", "green-3"), "it", "tra più Pirati vince"),
        (("pirate-rosie", "mermaid-alyra", "green-3"), "da", "en pirat slår alle talkort"),
    ],
)
def test_an_explanation_writes_card_types_as_the_sheets_do(
    cards: tuple[str, ...], lang: str, expected: str
) -> None:
    result = resolve_trick([parse_card(c) for c in cards], players=["Ana", "Ben", "Cai"])
    assert expected in explain(result.phrases, lang)


@pytest.mark.parametrize(
    ("card", "lang", "expected"),
    [
        ("mermaid", "es", "+20 por capturar a una Sirena"),
        ("mermaid", "it", "+20 per aver catturato una Sirena"),
        ("pirate", "es", "+20 por capturar a un Pirata"),
        ("mermaid", "da", "+20 for at fange en havfrue"),
    ],
)
def test_the_tvs_bonus_banner_writes_an_unnamed_card_as_the_sheets_do(
    card: str, lang: str, expected: str
) -> None:
    assert bonus_item_text(card, True, 20, lang) == expected


def test_the_declared_tigress_and_the_settings_say_pirate_as_the_sheets_do() -> None:
    assert i18n.card_name("tigress:escape", "es") == "Tigresa (Huida)"
    assert i18n.card_name("tigress:pirate", "it") == "Tigre (Pirata)"
    assert i18n.translate("set_pirate_captures_mermaid", "es") == "Un Pirata captura a una Sirena"
    assert i18n.translate("set_pirate_captures_mermaid", "da") == "Pirat fanger en havfrue"


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (("green-2", "pirate", "green-14"), "Bens pirat vinder: en pirat slår alle talkort"),
        (("green-2", "mermaid-alyra", "green-14"), "Bens havfrue Alyra vinder:"),
        (("escape", "escape", "escape"), "Anas flugtkort vinder:"),
        (("pirate-harry", "mermaid-sirena", "skull-king"), "Bens havfrue Sirena vinder:"),
    ],
)
def test_a_danish_explanation_writes_a_players_card_type_in_lower_case(
    cards: tuple[str, ...], expected: str
) -> None:
    """ "Bens Pirat vinder", where the Danish sheet writes "en pirat", "havfruer"."""
    result = resolve_trick([parse_card(c) for c in cards], players=["Ana", "Ben", "Cai"])
    assert explain(result.phrases, "da").startswith(expected)


def test_danish_running_text_writes_card_types_in_lower_case_and_lists_keep_the_label() -> None:
    assert bonus_item_text("mermaid-alyra", True, 40, "da") == "+40 for at fange havfrue Alyra"
    assert i18n.card_in_text("loot", "da") == "byttekort"
    assert i18n.card_in_text("pirate-harry", "da") == "Harry the Giant"  # a name
    assert i18n.card_in_text("white-whale", "da") == "Den Hvide Hval"
    assert i18n.card_name("escape", "da") == "Flugtkort"  # the menus' label
    # A sentence that starts with the card capitalises it.
    said = flag_i18n.flag_text("escape read with low confidence (0.41)", "da")
    assert said == "Flugtkort læst med lav sikkerhed (0,41)"


def test_a_danish_colour_is_written_in_lower_case_in_running_text() -> None:
    """The Danish sheet writes a colour as the adjective it is ("den sorte 14'er", "den sorte
    Jolly Roger-farve"); the texts said "Bens Grøn 9 vinder" and "farve (Grøn)". Jolly Roger
    is a name, and the menus keep their labels."""
    result = resolve_trick(
        [parse_card(c) for c in ("green-2", "green-9", "yellow-14")], players=["Ana", "Ben", "Cai"]
    )
    assert explain(result.phrases, "da") == (
        "Bens grøn 9 vinder: det højeste kort i den udspillede farve (grøn)."
        " +10 for gul 14 (hvis buddet holder)."
    )
    assert i18n.card_in_text("purple-3", "da") == "lilla 3"
    assert i18n.card_in_text("black-14", "da") == "Jolly Roger 14"
    assert i18n.suit_in_text("black", "da") == "Jolly Roger"
    assert i18n.card_name("green-9", "da") == "Grøn 9"  # the menus' label
    said = flag_i18n.flag_text(
        "the camera saw green-1 swapped for green-13 before the pickup", "da"
    )
    assert said == "kameraet så grøn 1 byttet ud med grøn 13, før stikket blev samlet op"
    # A sentence that starts with the card capitalises it.
    said = flag_i18n.flag_text("green-9 read with low confidence (0.41)", "da")
    assert said == "Grøn 9 læst med lav sikkerhed (0,41)"
    assert i18n.card_in_text("green-9", "es") == "Loro 9"  # the other languages' names stand
