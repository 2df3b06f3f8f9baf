"""A trick's explanation in the table's language: every phrase translated; the replay page."""

from __future__ import annotations

import random
import re

import pytest
from flask.testing import FlaskClient

from skullcam.rules import (
    CARD_IDS,
    IllegalPlayError,
    RulesError,
    Settings,
    parse_card,
    resolve_trick,
)
from skullcam.rules.explain import ENGLISH, placeholders
from skullcam.store import GameStore
from skullcam.web.explain_i18n import TEMPLATES, explain

ERROR_KEYS = {
    "trick_size",
    "too_many_escapes",
    "too_many_loot",
    "too_many_pirates",
    "too_many_mermaids",
    "already_in_trick",
    "tigress_undeclared",
    "at_play",
    "at_play_by",
    "played_twice_in_round",
}
PLAYABLE = [c for c in CARD_IDS if c != "tigress"] + ["tigress:pirate", "tigress:escape"]
SETTINGS = [
    Settings(),
    Settings(scoring="no_bonus"),
    Settings(loot=False, kraken_and_white_whale=False, kraken_next_leader="left_of_kraken"),
]


@pytest.mark.parametrize("lang", sorted(TEMPLATES))
def test_every_phrase_is_translated_with_the_same_blanks(lang: str) -> None:
    table = TEMPLATES[lang]
    assert set(table) == set(ENGLISH), "a phrase missing or left over in " + lang
    for key, template in table.items():
        assert placeholders(template) == placeholders(ENGLISH[key]), (lang, key)


def random_tricks(count: int) -> list[tuple[list[str], Settings]]:
    """``count`` tricks a deck could produce, the rare kinds first (only escapes; the Whale and
    then the Kraken with nothing else, so nobody would have won)."""
    rng = random.Random(7)
    out = [(["escape", "loot"], Settings()), (["white-whale", "kraken"], Settings())]
    while len(out) < count:
        cards = rng.sample(PLAYABLE, rng.randint(2, 8))
        settings = rng.choice(SETTINGS)
        try:
            resolve_trick([parse_card(c) for c in cards], settings)
        except RulesError:
            continue
        out.append((cards, settings))
    return out


@pytest.mark.parametrize("lang", sorted(TEMPLATES))
def test_any_trick_is_explained_in_the_language_with_every_player_named(lang: str) -> None:
    names = ["Ana", "Ben", "Cai", "Dag", "Eva", "Fer", "Gil", "Hal"]
    keys_seen: set[str] = set()
    for cards, settings in random_tricks(3000):
        result = resolve_trick([parse_card(c) for c in cards], settings, names[: len(cards)])
        text = explain(result.phrases, lang)
        keys_seen |= {p.key for p in result.phrases}
        assert "{" not in text and "}" not in text
        assert text != result.explanation
        # Who won, or who leads next after a Kraken or a discarded trick, is named.
        named = result.winner if result.winner is not None else result.next_leader
        assert names[named] in text
        for warning in result.warning_phrases:
            assert "«" in explain([warning], lang)  # the setting's label, as on its page
    assert keys_seen == set(ENGLISH) - {"setting_off"} - ERROR_KEYS  # the rest: not a result


def test_english_is_the_engines_own_text() -> None:
    for cards, settings in random_tricks(300):
        result = resolve_trick([parse_card(c) for c in cards], settings)
        assert explain(result.phrases, "en") == result.explanation


def test_spanish_sentence_reads_as_written() -> None:
    result = resolve_trick(
        [parse_card(c) for c in ("pirate-rosie", "skull-king", "yellow-14")],
        players=["Ana", "Ben", "Cai"],
    )
    assert explain(result.phrases, "es") == (
        "Gana Skull King (Ben): el Skull King vence a todos los piratas y a todas las cartas"
        " numeradas. +10 por Cofre del Tesoro 14; +30 por capturar a Rosie D' Laney"
        " (si se cumple la apuesta)."
    )
    assert result.explanation.startswith("The Skull King (Ben) wins")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("es", "Gana Loro 9 (Cai)"),
        ("it", "Vince Pappagallo 9 (Cai)"),
        ("da", "Grøn 9 (Cai) vinder"),
    ],
)
def test_replay_page_explains_in_the_chosen_language(
    client: FlaskClient, store: GameStore, lang: str, expected: str
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"loot": False})
    store.set_bids(gid, 1, [0, 1, 0])
    plays = [("green-5", 1), ("green-9", 2), ("loot", 0)]
    store.record_trick(gid, 1, 0, [{"player": p, "card": c, "confidence": 0.9} for c, p in plays])
    page = client.get(f"/game/{gid}/round/1/trick/0?lang={lang}").get_data(as_text=True)
    explanation = re.search(r'id="explanation">(.*?)</p>', page, re.S)
    assert explanation is not None and explanation[1].startswith(expected)
    assert "wins" not in explanation[1]
    warning = re.search(r'class="warning">(.*?)</p>', page, re.S)
    assert warning is not None and "«" in warning[1] and "setting is off" not in warning[1]
    english = client.get(f"/game/{gid}/round/1/trick/0?lang=en").get_data(as_text=True)
    assert "The green 9 (Cai) wins: the highest green card, the suit led." in english


@pytest.mark.parametrize(
    ("cards", "key"),
    [
        (["green-1"], "trick_size"),
        (["escape", "escape", "escape", "escape", "escape", "escape"], "too_many_escapes"),
        (["loot", "loot", "loot"], "too_many_loot"),
        (["pirate", "pirate", "pirate", "pirate", "pirate", "pirate"], "too_many_pirates"),
        (["mermaid", "mermaid", "mermaid"], "too_many_mermaids"),
        (["green-5", "tigress:pirate", "green-5"], "already_in_trick"),
        (["tigress:pirate", "tigress:escape"], "already_in_trick"),
        (["green-5", "tigress"], "tigress_undeclared"),
    ],
)
def test_why_no_deck_could_produce_a_trick_is_a_phrase(cards: list[str], key: str) -> None:
    with pytest.raises(IllegalPlayError) as caught:
        resolve_trick([parse_card(c) for c in cards])
    err = caught.value
    assert err.phrase is not None and err.phrase.key == key
    assert explain([err.phrase], "en") in str(err)  # the English message is the same words
    for lang in TEMPLATES:
        assert explain([err.phrase], lang) != explain([err.phrase], "en")


def test_replay_page_says_a_misread_duplicate_in_the_chosen_language(
    client: FlaskClient, store: GameStore
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    plays = [("green-5", 1), ("green-9", 2), ("green-5", 0)]  # the camera read one card twice
    store.record_trick(gid, 1, 0, [{"player": p, "card": c, "confidence": 0.5} for c, p in plays])
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=es").get_data(as_text=True)
    explanation = re.search(r'id="explanation">(.*?)</p>', page, re.S)
    assert explanation is not None
    assert explanation[1] == "Ana (Loro 5): Loro 5 ya está en esta baza (la baraja tiene una)"


def test_every_ui_language_has_every_table() -> None:
    """A fifth language must bring its explanation, suit and card tables, not fall back."""
    from skullcam.web import i18n

    assert set(TEMPLATES) == set(i18n.LANGUAGES) - {"en"}
    specials = {c for c in CARD_IDS if not c.split("-")[-1].isdigit()}
    specials |= {"tigress:pirate", "tigress:escape"}
    for lang in i18n.LANGUAGES:
        assert set(i18n._SUITS[lang]) == {"green", "yellow", "purple", "black"}, lang
        assert specials <= set(i18n._SPECIALS[lang]), lang


def test_every_setting_is_on_the_settings_page_with_its_labels() -> None:
    """A new setting of the rules engine shows on the setup and settings pages by itself, and
    cannot ship without a label (and its options' labels) in every language."""
    from dataclasses import fields

    from skullcam.web import i18n
    from skullcam.web.pages import SETTING_FIELDS

    assert [key for key, _, _ in SETTING_FIELDS] == [f.name for f in fields(Settings)]
    for key, kind, spec in SETTING_FIELDS:
        assert set(i18n.STRINGS[f"set_{key}"]) == set(i18n.LANGUAGES), key
        if kind == "choice":
            for option in spec:
                assert set(i18n.STRINGS[f"opt_{option}"]) == set(i18n.LANGUAGES), option
        if kind == "int":
            low, high = spec
            assert Settings(**{key: low}) and Settings(**{key: high})
            with pytest.raises(RulesError):
                Settings(**{key: high + 1})


def test_why_the_score_stopped_is_said_in_the_chosen_language(
    client: FlaskClient, store: GameStore
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 2, {})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(
        gid,
        1,
        0,
        [{"player": p, "card": c} for p, c in [(0, "green-3"), (1, "green-9"), (2, "green-5")]],
    )
    store.set_bids(gid, 2, [0, 1, 1])
    store.record_trick(
        gid,
        2,
        0,
        [{"player": p, "card": c} for p, c in [(0, "yellow-2"), (1, "yellow-4"), (2, "yellow-6")]],
    )
    store.record_trick(
        gid,
        2,
        1,
        [{"player": p, "card": c} for p, c in [(1, "purple-2"), (2, "purple-4"), (0, "purple-6")]],
    )
    # A correction turns a card of round 2 into one already played in it.
    store.correct_play(gid, 2, 1, 0, card="yellow-4")
    english = store.score(gid)["error"]
    assert "yellow-4 was already played this round" in english
    state = client.get(f"/api/game/{gid}/state?lang=es").get_json()
    assert state["score"]["error"] == english  # the API's English stays as it was
    assert "Cofre del Tesoro 4 ya se jugó en esta ronda" in state["score"]["error_text"]
    page = client.get(f"/game/{gid}/round/2/trick/1?lang=da").get_data(as_text=True)
    assert "Gul 4 er allerede spillet i denne runde" in page
    page = client.get(f"/game/{gid}/tricks?lang=it").get_data(as_text=True)
    assert "Forziere 4 è già stata giocata in questo round" in page
    assert english in client.get(f"/game/{gid}/tricks?lang=en").get_data(as_text=True)


def test_phrases_survive_json_as_the_store_keeps_them() -> None:
    import json

    from skullcam.rules.explain import phrases_from_json, phrases_to_json

    for cards, settings in random_tricks(500):
        result = resolve_trick([parse_card(c) for c in cards], settings)
        for phrases in (result.phrases, result.warning_phrases):
            back = phrases_from_json(json.loads(json.dumps(phrases_to_json(phrases))))
            assert back == tuple(phrases)
