"""A trick's explanation in the table's language: every phrase translated; the replay page."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import pytest
from flask.testing import FlaskClient
from store_support import plays
from web_support import game_with_round_2_led_by_the_read_winner

import skullcam.rules.cards as deck
from skullcam.rules import (
    CARD_IDS,
    IllegalPlayError,
    Kind,
    RulesError,
    Settings,
    TrickResult,
    parse_card,
    resolve_trick,
)
from skullcam.rules.explain import ENGLISH, CardId, Phrase, SettingName, placeholders, render
from skullcam.store import GameStore
from skullcam.web import i18n
from skullcam.web.explain_i18n import ARTICLES, TEMPLATES, explain, owned_card, why_text

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
    "too_many_in_round",
}
#: Why a game's score stopped: a record the rules refuse, or recorded rounds the store cannot
#: score yet (a missing bid).
SCORE_KEYS = {
    "at_round",
    "at_trick",
    "at_ability",
    "extra_round_off",
    "bid_out_of_range",
    "too_many_tricks",
    "round_unfinished",
    "plays_per_trick",
    "out_of_turn",
    "out_of_turn_leader",
    "ability_twice",
    "ability_past_tricks",
    "ability_not_won",
    "rosie_choice",
    "rosie_last_trick",
    "harry_bid_out_of_range",
    "missing_bid_before_tricks",
    "missing_bid_all_tricks",
    "trick_short",
}
ERROR_KEYS |= SCORE_KEYS
#: Why an imported file is no game record a page can read (its JSON's shape).
ERROR_KEYS |= {"record_bad_value", "record_unknown_key", "record_not_object"}
#: Which setting a user wrote is no setting, or what its value must be.
ERROR_KEYS |= {
    "setting_unknown",
    "setting_not_bool",
    "setting_not_whole",
    "setting_outside_range",
    "setting_not_choice",
}
#: What a game's score warns about (besides "setting_off", a trick's own warning).
WARNING_KEYS = {
    "scored_as_played",
    "abilities_setting_off",
    "cannonball_ignored",
    "tie_one_more_round",
    "tie_break_not_due",
    "rosie_last_trick_ignored",
}
#: What the store says in place of one of the score's warnings: the trick after a place a
#: trick taken back left free (test_store_hand_entry's gap tests say it in Italian).
STORE_WARNING_KEYS = {"trick_missing"}
WARNING_KEYS |= STORE_WARNING_KEYS
#: A setting's label is quoted as each language quotes: Danish »...« as the Danish score
#: sheet in the user's rules writes it, Spanish and Italian «...», English on the pages “...”.
OPENING_QUOTE = {"en": "\u201c", "es": "«", "it": "«", "da": "»"}
CLOSING_QUOTE = {"en": "\u201d", "es": "»", "it": "»", "da": "«"}


def quoted(label: str, lang: str) -> str:
    return OPENING_QUOTE[lang] + label + CLOSING_QUOTE[lang]


PLAYABLE = [c for c in CARD_IDS if c != "tigress"] + ["tigress:pirate", "tigress:escape"]
SETTINGS = [
    Settings(),
    Settings(scoring="no_bonus"),
    Settings(scoring="rascal"),
    Settings(keep_bonus_on_miss=True),
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
    out = [(["escape", "loot"], Settings()), (["escape", "tigress:escape"], Settings())]
    out.append((["white-whale", "kraken"], Settings()))
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
            assert OPENING_QUOTE[lang] in explain([warning], lang)  # the label, as on its page
    # The rest is not a trick's result: why a record is refused, or what its score warns of.
    assert keys_seen == set(ENGLISH) - {"setting_off"} - ERROR_KEYS - WARNING_KEYS


def test_english_is_the_engines_own_text() -> None:
    for cards, settings in random_tricks(300):
        result = resolve_trick([parse_card(c) for c in cards], settings)
        assert render(result.phrases) == result.explanation


def test_spanish_sentence_reads_as_written() -> None:
    result = resolve_trick(
        [parse_card(c) for c in ("pirate-rosie", "skull-king", "yellow-14")],
        players=["Ana", "Ben", "Cai"],
    )
    assert explain(result.phrases, "es") == (
        "Gana el Skull King de Ben: el Skull King vence a todos los Piratas y a todas las cartas"
        " numeradas. +10 por el Cofre del Tesoro 14; +30 por capturar a Rosie D' Laney"
        " (si se cumple la apuesta)."
    )
    assert result.explanation.startswith("The Skull King (Ben) wins")


@pytest.mark.parametrize("lang", ["en", *sorted(TEMPLATES)])
def test_the_tvs_line_says_the_rule_that_won_and_nothing_after_it(lang: str) -> None:
    """The TV's line under the last trick (``why_text``): the explanation's first sentence,
    with the winner's name left out where the sentence starts with it (the TV stars the
    card), and neither the bonus nor who leads next after it. The White Whale's named the
    winner's card and player, and after a discarded trick who leads next: 195 characters in
    Italian with a name of two letters, cut at two lines on the TV. No sentence names a
    player now, and the longest, the Whale's tie, is at most 160 characters."""
    names = ["Ana", "Ben", "Cai", "Dag", "Eva", "Fer", "Gil", "Hal"]
    whale = [(["yellow-12", "white-whale", "black-12"], Settings(kraken_and_white_whale=True))]
    whale.append((["white-whale", "mermaid-alyra"], Settings(kraken_and_white_whale=True)))
    for cards, settings in whale + random_tricks(1000):
        result = resolve_trick([parse_card(c) for c in cards], settings, names[: len(cards)])
        why = why_text(result, lang)
        assert why is not None and why[:1].isupper() and why.endswith("."), why
        assert "{" not in why and "+" not in why, why
        assert not any(name in why for name in names), why
        assert len(why) <= 160, why
    result = resolve_trick(
        [parse_card(c) for c in ("pirate-rosie", "skull-king", "yellow-14")],
        players=["Ana", "Ben", "Cai"],
    )
    assert why_text(result, "es") == (
        "El Skull King vence a todos los Piratas y a todas las cartas numeradas."
    )


@pytest.mark.parametrize(
    ("lang", "under_the_banner"),
    [
        ("en", "The Kraken destroys the trick; its cards and bonuses are lost."),
        ("es", "El Kraken destruye la baza; sus cartas y bonus se pierden."),
        ("it", "Il Kraken distrugge la presa; le sue carte e i bonus vanno persi."),
        ("da", "Kraken ødelægger stikket; dets kort og bonusser går tabt."),
    ],
)
def test_the_kraken_line_under_the_banners_head_says_nobody_wins_once(
    lang: str, under_the_banner: str
) -> None:
    """The TV's banner for a Kraken trick read "Nobody wins this trick" over "The Kraken
    destroys the trick: nobody wins it; ...": "nobody wins" twice, in every language. Under
    a head that says it (``nobody_said``), the Kraken's sentence leaves it out; the TV's line
    under the last trick, with no such head, keeps it. A trick the White Whale discards never
    said it, and reads the same both ways."""

    def trick(*cards: str) -> TrickResult:
        players = ["Ana", "Ben", "Cai"][: len(cards)]
        settings = Settings(kraken_and_white_whale=True)
        return resolve_trick([parse_card(c) for c in cards], settings, players)

    kraken = trick("green-5", "kraken", "green-9")
    assert kraken.winner is None
    assert why_text(kraken, lang, nobody_said=True) == under_the_banner
    assert why_text(kraken, lang) == explain(kraken.phrases[:1], lang)
    # The Kraken counting against the White Whale (played second) is the same sentence.
    assert why_text(trick("white-whale", "kraken", "green-9"), lang, nobody_said=True) == (
        under_the_banner
    )
    whale = trick("white-whale", "mermaid-alyra")
    assert whale.winner is None
    assert why_text(whale, lang, nobody_said=True) == why_text(whale, lang)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_every_kind_of_card_has_its_article_in_spanish_and_italian(lang: str) -> None:
    """A kind with no article is named bare ("Gana Kraken de Ana"), which no test of a
    sentence would catch for a card added later: each kind has its own."""
    assert set(Kind) <= set(ARTICLES[lang]), lang


def test_spanish_and_italian_name_a_bonus_card_with_its_article() -> None:
    """ "+40 por capturar a Skull King", "Se encuentran Kraken y Ballena Blanca": a card with
    no player after it had no article, where a Spanish or Italian player says one ("al Skull
    King", contracted; "il Re dei Teschi"); a named pirate takes none ("a Rosie")."""
    cards = [parse_card(c) for c in ("pirate-rosie", "skull-king", "mermaid-alyra", "black-14")]
    phrases = resolve_trick(cards, players=["Ana", "Ben", "Cai", "Dag"]).phrases
    assert explain(phrases, "es").endswith(
        " +20 por el Jolly Roger 14; +40 por capturar al Skull King (si se cumple la apuesta)."
        " Capturar al Pirata no da bonus."
    )
    assert explain(phrases, "it").endswith(
        " +20 per il Jolly Roger 14; +40 per aver catturato il Re dei Teschi (se la puntata è"
        " esatta). Catturare il Pirata non dà bonus."
    )
    cards = [parse_card(c) for c in ("skull-king", "tigress:pirate", "pirate-harry", "purple-14")]
    phrases = resolve_trick(cards, players=["Ana", "Ben", "Cai", "Dag"]).phrases
    assert "; +30 por capturar a la Tigresa (Pirata); +30 por capturar a Harry el Gigante " in (
        explain(phrases, "es")
    )
    assert "+10 per la Mappa del Tesoro 14; " in explain(phrases, "it")
    cards = [parse_card(c) for c in ("kraken", "white-whale", "green-3")]
    settings = Settings(kraken_and_white_whale=True)
    phrases = resolve_trick(cards, settings, players=["Ana", "Ben", "Cai"]).phrases
    assert explain(phrases, "es").startswith(
        "Se encuentran el Kraken y la Ballena Blanca: vale la que se jugó en segundo lugar,"
        " la Ballena Blanca, y el Kraken cuenta como una Huida."
    )
    assert explain(phrases, "it").startswith("Si incontrano il Kraken e la Balena Bianca: ")


def test_english_on_the_web_names_a_players_card_without_double_brackets() -> None:
    """The web's English named the winner as the page's lists name the card, then its player:
    "Tigress (pirate) (Ana) wins". It says whose card it is first, as the store's refusals do
    ("card 2 is now Ana's Parrot 9"); Danish too, with its genitive. The CLI's own English
    (``explanation``, promised in interfaces.md) is left as it was."""
    cards = [parse_card(c) for c in ("tigress:pirate", "mermaid-sirena", "green-14")]
    result = resolve_trick(cards, players=["Ana", "Lars", "Cai"])
    english = explain(result.phrases, "en")
    assert english.startswith("Ana's Tigress (pirate) wins: a pirate beats every numbered card")
    assert ") (" not in english
    assert explain(result.phrases, "da").startswith("Anas Tigress (pirat) vinder: en pirat slår")
    assert result.explanation.startswith("The Tigress as a pirate (Ana) wins")
    result = resolve_trick([parse_card(c) for c in ("kraken", "skull-king")], players=["A", "Lars"])
    assert explain(result.phrases, "da").endswith(
        " Lars' Skull King ville have vundet det og spiller ud næste gang."
    )


def test_english_on_the_web_says_a_capture_bonus_as_a_player_would() -> None:
    """ "+40 for capturing Skull King": the cards a bonus names, with no player's name before
    them, take their article as the CLI's English does ("+40 for capturing the Skull King")."""
    cards = [parse_card(c) for c in ("pirate-rosie", "skull-king", "mermaid-alyra", "black-14")]
    english = explain(resolve_trick(cards, players=["Ana", "Ben", "Cai", "Dag"]).phrases, "en")
    assert english == (
        "Cai's Mermaid Alyra wins: when a pirate, the Skull King and a mermaid meet, the mermaid"
        " wins. +20 for the Jolly Roger 14; +40 for capturing the Skull King (if the bid is"
        " exact). No bonus for capturing the pirate."
    )
    cards = [parse_card(c) for c in ("skull-king", "tigress:pirate", "pirate-harry", "green-14")]
    english = explain(resolve_trick(cards, players=["Ana", "Ben", "Cai", "Dag"]).phrases, "en")
    assert english.endswith(
        " +10 for the Parrot 14; +30 for capturing the Tigress (pirate); +30 for capturing"
        " Harry the Giant (if the bid is exact)."
    )
    meet = explain(resolve_trick([parse_card("kraken"), parse_card("white-whale")]).phrases, "en")
    assert meet.startswith(
        "The Kraken and the White Whale meet: the one played second, the White Whale, takes"
        " effect and the Kraken plays as an escape."
    )


@pytest.mark.parametrize(
    ("cards", "lang", "expected"),
    [
        (("tigress:pirate", "mermaid-alyra", "green-14"), "es", "Gana la Tigresa (Pirata) de Ana:"),
        (("tigress:pirate", "mermaid-alyra", "green-14"), "it", "Vince la Tigre (Pirata) di Ana:"),
        (("green-2", "mermaid-alyra", "green-14"), "es", "Gana la Sirena Alyra de Ben:"),
        (("purple-9", "purple-3", "escape"), "it", "Vince la Mappa del Tesoro 9 di Ana:"),
        (("purple-9", "purple-3", "escape"), "es", "Gana el Mapa del Tesoro 9 de Ana:"),
        (("escape", "escape", "escape"), "it", "Vince la Fuga di Ana:"),
        (("green-2", "pirate-harry", "skull-king"), "es", "Gana el Skull King de Cai:"),
        (("green-2", "pirate-harry", "green-14"), "es", "Gana Harry el Gigante de Ben:"),
        (("green-2", "pirate-rascal", "green-14"), "it", "Vince il Furfante di Roatán di Ben:"),
        (("kraken", "skull-king", "green-3"), "it", "Il Re dei Teschi di Ben l'avrebbe vinta"),
    ],
)
def test_spanish_and_italian_say_whose_card_wins_with_its_article(
    cards: tuple[str, ...], lang: str, expected: str
) -> None:
    """ "Gana Tigresa (Pirata) (Ana)": the card's name then its player in brackets, after a
    card name that may hold brackets of its own. Now the card with its article, then whose it
    is; a named pirate, a person, takes none. The CLI's English is as it was."""
    result = resolve_trick([parse_card(c) for c in cards], players=["Ana", "Ben", "Cai"])
    text = explain(result.phrases, lang)
    assert expected in text
    assert ") (" not in text and "(Ana)" not in text and "(Ben)" not in text


@pytest.mark.parametrize(("name", "genitive"), [("Ana", "Anas"), ("Lars", "Lars'")])
def test_a_danish_explanation_writes_a_players_genitive_as_danish_does(
    name: str, genitive: str
) -> None:
    """An apostrophe alone after a name ending in s, x or z: "Lars' bud", not "Larss bud"."""
    moved = Phrase("harry_bid_out_of_range", {"player": name, "bid": 2, "dealt": 1})
    assert explain([moved], "da") == f"Harry kan ikke ændre {genitive} bud til 2 (bud er 0 til 1)"
    assert explain([moved], "en") == f"Harry cannot move {name}'s bid to 2 (bids are 0..1)"


@pytest.mark.parametrize(
    ("card", "owned"),
    [
        ("white-whale", "Anas Hvide Hval"),  # was "Anas Den Hvide Hval"
        ("kraken", "Anas Kraken"),
        ("skull-king", "Anas Skull King"),
        ("mermaid-alyra", "Anas havfrue Alyra"),
    ],
)
def test_a_danish_players_card_is_named_after_the_genitive_without_an_article(
    card: str, owned: str
) -> None:
    """A noun after a Danish genitive takes no article: "Anas Hvide Hval", as "Anas bud"; the
    card alone keeps it ("Den Hvide Hval fratager alle specialkort deres kraft")."""
    assert owned_card(parse_card(card), "Ana", "da") == owned
    assert owned_card(parse_card("white-whale"), "Lars", "da") == "Lars' Hvide Hval"
    assert owned_card(parse_card("white-whale"), "Ana", "en") == "Ana's White Whale"
    assert explain([Phrase("whale", {})], "da").startswith("Den Hvide Hval fratager")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("es", "Gana el Loro 9 de Cai"),
        ("it", "Vince il Pappagallo 9 di Cai"),
        ("da", "Cais grøn 9 vinder"),
    ],
)
def test_replay_page_explains_in_the_chosen_language(
    client: FlaskClient, store: GameStore, lang: str, expected: str
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"loot": False})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "loot")))
    page = client.get(f"/game/{gid}/round/1/trick/0?lang={lang}").get_data(as_text=True)
    explanation = re.search(r'id="explanation">(.*?)</p>', page, re.S)
    assert explanation is not None and explanation[1].startswith(expected)
    assert "wins" not in explanation[1]
    warning = re.search(r'class="warning">(.*?)</p>', page, re.S)
    assert warning is not None and OPENING_QUOTE[lang] in warning[1]
    assert "setting is off" not in warning[1]
    english = client.get(f"/game/{gid}/round/1/trick/0?lang=en").get_data(as_text=True)
    assert "Cai&#39;s Parrot 9 wins: the highest Parrot (green) card, the suit led." in english


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
    assert render([err.phrase]) in str(err)  # the English message is the same words
    for lang in TEMPLATES:
        assert explain([err.phrase], lang) != render([err.phrase])


@pytest.mark.parametrize(
    ("face", "kind", "said"),
    [
        ("escape", None, "one escape too many in this trick (the deck has 4)"),
        ("loot", None, "one loot too many in this trick (the deck has 4)"),
        ("pirate", Kind.PIRATE, "one pirate too many in this trick (the deck has 4)"),
        ("mermaid", Kind.MERMAID, "one mermaid too many in this trick (the deck has 4)"),
    ],
)
def test_a_card_too_many_is_told_the_decks_own_count(
    face: str, kind: Kind | None, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check counts the copies from the deck (``copies_in_deck``, ``deck_holds``), but the
    sentence said "the deck has 5" (or 2) whatever the deck held: a deck of four of each says 4,
    in every language."""
    if kind is None:
        monkeypatch.setitem(deck._COPIES, face, 4)
    else:
        monkeypatch.setitem(deck._GROUP_LIMITS, kind, 4)
    with pytest.raises(IllegalPlayError) as caught:
        resolve_trick([parse_card(face)] * 5)
    err = caught.value
    assert err.phrase is not None and render([err.phrase]) == said
    for lang, four in (("es", "tiene 4)"), ("it", "ne ha 4)"), ("da", "har 4)")):
        assert explain([err.phrase], lang).endswith(four)


def test_replay_page_says_a_misread_duplicate_in_the_chosen_language(
    client: FlaskClient, store: GameStore
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    twice = plays((1, "green-5"), (2, "green-9"), (0, "green-5"), confidence=0.5)
    store.record_trick(gid, 1, 0, twice)  # the camera read one card twice
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=es").get_data(as_text=True)
    explanation = re.search(r'id="explanation">(.*?)</p>', page, re.S)
    assert explanation is not None
    assert explanation[1] == "El Loro 5 de Ana: Loro 5 ya está en esta baza (la baraja tiene una)"
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=it").get_data(as_text=True)
    explanation = re.search(r'id="explanation">(.*?)</p>', page, re.S)
    assert explanation is not None and explanation[1].startswith("Il Pappagallo 5 di Ana: ")
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=en").get_data(as_text=True)
    explanation = re.search(r'id="explanation">(.*?)</p>', page, re.S)
    assert explanation is not None  # English names the card as the page does, not "green-5"
    assert (
        explanation[1] == "Ana&#39;s Parrot 5: Parrot 5 is already in this trick (the deck has one)"
    )
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=da").get_data(as_text=True)
    explanation = re.search(r'id="explanation">(.*?)</p>', page, re.S)
    assert explanation is not None and explanation[1].startswith("Anas grøn 5: ")


def test_every_ui_language_has_every_table() -> None:
    """A fifth language must bring its explanation, suit and card tables, not fall back."""

    assert set(TEMPLATES) == set(i18n.LANGUAGES) - {"en"}
    specials = {c for c in CARD_IDS if not c.split("-")[-1].isdigit()}
    specials |= {"tigress:pirate", "tigress:escape"}
    for lang in i18n.LANGUAGES:
        assert set(i18n._SUITS[lang]) == {"green", "yellow", "purple", "black"}, lang
        assert specials <= set(i18n._SPECIALS[lang]), lang


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_card_has_a_name_of_its_own_that_says_no_word_twice(lang: str) -> None:
    """Spanish and Italian named the mermaid called Sirena "Sirena Sirena" (English "Mermaid
    Sirena" word for word): she is "Sirena", beside "Sirena Alyra", and the mermaid an input
    leaves unnamed is told from her ("Sirena genérica"), so that no two cards share a name."""
    names = {card: i18n.card_name(card, lang) for card in CARD_IDS}
    assert len(set(names.values())) == len(names), lang
    for card, name in names.items():
        words = name.lower().split()
        assert len(set(words)) == len(words), (lang, card, name)
    if lang in ("es", "it"):
        assert names["mermaid-sirena"] == "Sirena"
        assert names["mermaid-alyra"] == "Sirena Alyra"


def test_every_setting_is_on_the_settings_page_with_its_labels() -> None:
    """A new setting of the rules engine shows on the setup and settings pages by itself, and
    cannot ship without a label (and its options' labels) in every language."""
    from dataclasses import fields

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
    # Where it was played first, too: the trick a person corrects may be either of the two.
    assert "yellow-4 was already played this round, in trick 1 by Ben" in english
    state = client.get(f"/api/game/{gid}/state?lang=es").get_json()
    assert state["score"]["error"] == english  # the API's English stays as it was
    assert (
        "Cofre del Tesoro 4 ya se jugó en esta ronda, en la baza 1 por Ben"
        in (state["score"]["error_text"])
    )
    page = client.get(f"/game/{gid}/round/2/trick/1?lang=da").get_data(as_text=True)
    assert "Gul 4 er allerede spillet i denne runde" in page
    page = client.get(f"/game/{gid}/tricks?lang=it").get_data(as_text=True)
    assert "la carta Forziere 4 è già stata giocata in questo round" in page
    english_page = client.get(f"/game/{gid}/tricks?lang=en").get_data(as_text=True)
    assert english.replace("yellow-4", "Treasure Chest 4") in english_page  # the page's names


def test_phrases_survive_json_as_the_store_keeps_them() -> None:
    import json

    from skullcam.rules.explain import phrases_from_json, phrases_to_json

    for cards, settings in random_tricks(500):
        result = resolve_trick([parse_card(c) for c in cards], settings)
        for phrases in (result.phrases, result.warning_phrases):
            back = phrases_from_json(json.loads(json.dumps(phrases_to_json(phrases))))
            assert back == tuple(phrases)


def _plays(*plays: tuple[int, str]) -> list[dict[str, object]]:
    return [{"player": p, "card": c} for p, c in plays]


# A round-1 trick Ben (seat 1, left of the dealer) leads and Cai wins.
_TRICK_1 = {"plays": _plays((1, "green-5"), (2, "green-9"), (0, "green-3"))}
_ROUND_1 = {"bids": [0, 1, 0], "tricks": [_TRICK_1]}
_HARRY = {"plays": _plays((1, "pirate-harry"), (2, "green-9"), (0, "green-3"))}
_ROSIE = {"plays": _plays((1, "pirate-rosie"), (2, "green-9"), (0, "green-3"))}

# (what is wrong, settings, rounds, the English message as the rules engine has always said
# it, the phrase keys it is said with)
REFUSED_RECORDS = [
    (
        "a round past the setting",
        {"rounds": 1},
        [_ROUND_1, {"bids": [0, 0, 0]}],
        "round 2: the game has 1 round (setting 'rounds'); an extra round is played only on a"
        " tie with the setting tie=extra_round",
        ["at_round", "extra_round_off"],
    ),
    (
        "a round past the setting of two rounds",
        {"rounds": 2},
        [
            _ROUND_1,
            {
                "bids": [1, 1, 0],
                "tricks": [
                    {"plays": _plays((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-3"))},
                    {"plays": _plays((0, "purple-5"), (1, "purple-9"), (2, "purple-3"))},
                ],
            },
            {"bids": [0, 0, 0]},
        ],
        "round 3: the game has 2 rounds (setting 'rounds'); an extra round is played only on a"
        " tie with the setting tie=extra_round",
        ["at_round", "extra_round_off"],
    ),
    (
        "a bid over the one card dealt",
        {},
        [{"bids": [0, 2, 0]}],
        "round 1: Ben's bid 2 is out of range: bids are 0..1 with 1 card dealt",
        ["at_round", "bid_out_of_range"],
    ),
    (
        "a bid over the cards dealt",
        {},
        [_ROUND_1, {"bids": [3, 0, 0]}],
        "round 2: Ana's bid 3 is out of range: bids are 0..2 with 2 cards dealt",
        ["at_round", "bid_out_of_range"],
    ),
    (
        "more tricks than cards",
        {},
        [{"bids": [0, 1, 0], "tricks": [_TRICK_1, _TRICK_1]}],
        "round 1: 2 tricks recorded but only 1 can be played with 1 card dealt",
        ["at_round", "too_many_tricks"],
    ),
    (
        "an unfinished round before another",
        {},
        [{"bids": [0, 1, 0]}, {"bids": [0, 1, 0]}],
        "round 1: only 0 of 1 trick recorded; only the last round of a record may be unfinished",
        ["at_round", "round_unfinished"],
    ),
    (
        "a play missing",
        {},
        [{"bids": [0, 1, 0], "tricks": [{"plays": _plays((1, "green-5"), (2, "green-9"))}]}],
        "round 1, trick 1: 2 plays, expected one per player (3)",
        ["at_trick", "plays_per_trick"],
    ),
    (
        "one play alone",
        {},
        [{"bids": [0, 1, 0], "tricks": [{"plays": _plays((1, "green-5"))}]}],
        "round 1, trick 1: 1 play, expected one per player (3)",
        ["at_trick", "plays_per_trick"],
    ),
    (
        "the wrong player leading",
        {},
        [
            {
                "bids": [0, 1, 0],
                "tricks": [{"plays": _plays((2, "green-5"), (0, "green-9"), (1, "green-3"))}],
            }
        ],
        "round 1, trick 1, play 1: Cai played out of turn; it was Ben's turn"
        " (Ben leads this trick)",
        ["at_play", "out_of_turn", "out_of_turn_leader"],
    ),
    (
        "two abilities on one trick",
        {"pirate_abilities": True},
        [
            {
                "bids": [0, 1, 0],
                "tricks": [_HARRY],
                "abilities": [
                    {"trick": 0, "pirate": "pirate-harry", "choice": 0},
                    {"trick": 0, "pirate": "pirate-rosie", "choice": 0},
                ],
            }
        ],
        "round 1, abilities[1]: trick 0 already has an ability",
        ["at_ability", "ability_twice"],
    ),
    (
        "an ability on a trick not played",
        {"pirate_abilities": True},
        [
            {
                "bids": [0, 1, 0],
                "tricks": [_HARRY],
                "abilities": [{"trick": 1, "pirate": "pirate-harry", "choice": 0}],
            }
        ],
        "round 1: an ability names trick 1, but the round has only 1 trick recorded"
        " (tricks are counted from 0)",
        ["at_round", "ability_past_tricks"],
    ),
    (
        "an ability of a pirate that did not win",
        {"pirate_abilities": True},
        [
            {
                "bids": [0, 1, 0],
                "tricks": [_HARRY],
                "abilities": [{"trick": 0, "pirate": "pirate-rosie", "choice": 0}],
            }
        ],
        "round 1, trick 1: an ability of pirate-rosie is recorded, but that pirate did not win"
        " this trick",
        ["at_trick", "ability_not_won"],
    ),
    (
        "Rosie choosing no player",
        {"pirate_abilities": True},
        [
            {
                "bids": [0, 1, 0],
                "tricks": [_ROSIE],
                "abilities": [{"trick": 0, "pirate": "pirate-rosie", "choice": 5}],
            }
        ],
        "round 1, trick 1: Rosie's choice must be a seat 0..2, got 5",
        ["at_trick", "rosie_choice"],
    ),
    (
        "Rosie's choice on a round's last trick",
        {"pirate_abilities": True},
        [
            {
                "bids": [0, 1, 0],
                "tricks": [_ROSIE],
                "abilities": [{"trick": 0, "pirate": "pirate-rosie", "choice": 0}],
            }
        ],
        "round 1, trick 1: Rosie won the last trick of round 1: the next round is led by the"
        " dealer's neighbour, so there is no choice",
        ["at_trick", "rosie_last_trick"],
    ),
    (
        "Harry moving a bid below 0",
        {"pirate_abilities": True},
        [
            {
                "bids": [0, 0, 0],
                "tricks": [_HARRY],
                "abilities": [{"trick": 0, "pirate": "pirate-harry", "choice": -1}],
            }
        ],
        "round 1: Harry cannot move Ben's bid to -1 (bids are 0..1)",
        ["at_round", "harry_bid_out_of_range"],
    ),
]


@pytest.mark.parametrize(
    ("settings", "rounds", "english", "keys"),
    [case[1:] for case in REFUSED_RECORDS],
    ids=[case[0] for case in REFUSED_RECORDS],
)
def test_why_the_rules_refuse_a_record_is_phrases_in_every_language(
    settings: dict[str, object], rounds: list[object], english: str, keys: list[str]
) -> None:
    from skullcam.rules import GameRecord, GameRecordError

    record = {
        "format": "skullcam-game/1",
        "players": ["Ana", "Ben", "Cai"],
        "settings": settings,
        "rounds": rounds,
    }
    with pytest.raises(GameRecordError) as caught:
        GameRecord.from_dict(record)
    err = caught.value
    assert str(err) == english  # word for word what the CLI and the API have always said
    assert [p.key for p in err.phrases] == keys
    assert render(err.phrases) == english
    for lang in TEMPLATES:
        _assert_said_in(lang, err.phrases, english)


# A phrase that counts, and what each language says of it: a count of one in the singular
# ("with 1 cards dealt", "1 prese su 3" were said), any other count in the plural.
COUNTED = [
    (
        Phrase("extra_round_off", {"rounds": 1, "setting": SettingName("rounds")}),
        {
            "en": "the game has 1 round (setting",
            "es": "la partida tiene 1 ronda (ajuste",
            "it": "la partita ha 1 round (impostazione",
            "da": "spillet har 1 runde (indstillingen",
        },
    ),
    (
        Phrase("extra_round_off", {"rounds": 2, "setting": SettingName("rounds")}),
        {
            "en": "the game has 2 rounds (setting",
            "es": "la partida tiene 2 rondas (ajuste",
            "it": "la partita ha 2 round (impostazione",
            "da": "spillet har 2 runder (indstillingen",
        },
    ),
    (
        Phrase("bid_out_of_range", {"player": "Ben", "bid": 2, "dealt": 1}),
        {
            "en": "bids are 0..1 with 1 card dealt",
            "es": "las apuestas van de 0 a 1 con 1 carta repartida",
            "it": "le puntate vanno da 0 a 1 con 1 carta distribuita",
            "da": "bud er 0 til 1, når der er givet 1 kort",
        },
    ),
    (
        Phrase("bid_out_of_range", {"player": "Ben", "bid": 3, "dealt": 2}),
        {
            "en": "bids are 0..2 with 2 cards dealt",
            "es": "las apuestas van de 0 a 2 con 2 cartas repartidas",
            "it": "le puntate vanno da 0 a 2 con 2 carte distribuite",
            "da": "bud er 0 til 2, når der er givet 2 kort",
        },
    ),
    (
        Phrase("too_many_tricks", {"count": 2, "dealt": 1}),
        {
            "en": "with 1 card dealt",
            "es": "con 1 carta repartida solo se puede jugar 1",
            "it": "con 1 carta distribuita se ne può giocare solo 1",
            "da": "kun spilles 1, når der er givet 1 kort",
        },
    ),
    (
        Phrase("too_many_tricks", {"count": 3, "dealt": 2}),
        {
            "en": "with 2 cards dealt",
            "es": "con 2 cartas repartidas solo se pueden jugar 2",
            "it": "con 2 carte distribuite se ne possono giocare solo 2",
            "da": "kun spilles 2, når der er givet 2 kort",
        },
    ),
    (
        Phrase("round_unfinished", {"count": 0, "dealt": 1}),
        {
            "en": "only 0 of 1 trick recorded;",
            "es": "solo hay 0 de 1 baza grabada;",
            "it": "solo 0 prese su 1 registrate;",
            "da": "kun 0 af 1 stik registreret;",
        },
    ),
    (
        Phrase("round_unfinished", {"count": 1, "dealt": 3}),
        {
            "en": "only 1 of 3 tricks recorded;",
            "es": "solo hay 1 de 3 bazas grabadas;",
            "it": "solo 1 presa su 3 registrata;",
            "da": "kun 1 af 3 stik registreret;",
        },
    ),
    (
        Phrase("plays_per_trick", {"count": 1, "players": 3}),
        {"en": "1 play, expected", "es": "1 jugada; tiene", "it": "1 giocata, ne", "da": "1 kort"},
    ),
    (
        Phrase("ability_past_tricks", {"trick": 1, "count": 1}),
        {
            "en": "only 1 trick recorded (",
            "es": "solo tiene 1 baza grabada (",
            "it": "ha solo 1 presa registrata (",
            "da": "kun 1 stik registreret (",
        },
    ),
    (
        Phrase("ability_past_tricks", {"trick": 2, "count": 2}),
        {
            "en": "only 2 tricks recorded (",
            "es": "solo tiene 2 bazas grabadas (",
            "it": "ha solo 2 prese registrate (",
            "da": "kun 2 stik registreret (",
        },
    ),
    (
        Phrase("trick_short", {"cards": 1, "players": 3}),
        {
            "en": "only 1 of 3 cards was recorded;",
            "es": "solo se grabó 1 de 3 cartas;",
            "it": "è stata registrata solo 1 carta su 3;",
            "da": "kun 1 af 3 kort blev registreret;",
        },
    ),
    (
        Phrase("trick_short", {"cards": 2, "players": 3}),
        {
            "en": "only 2 of 3 cards were recorded;",
            "es": "solo se grabaron 2 de 3 cartas;",
            "it": "sono state registrate solo 2 carte su 3;",
            "da": "kun 2 af 3 kort blev registreret;",
        },
    ),
]


@pytest.mark.parametrize(("phrase", "said"), COUNTED, ids=[p.key for p, _ in COUNTED])
def test_a_count_of_one_is_said_in_the_singular_in_every_language(
    phrase: Phrase, said: dict[str, str]
) -> None:
    assert set(said) == {"en", *TEMPLATES}
    for lang, words in said.items():
        assert words in explain([phrase], lang), lang
    assert said["en"] in render([phrase])  # the command line's and the API's English


def test_every_reason_a_score_stops_is_said_by_some_case() -> None:
    """A new reason of the rules engine comes with a case above (or a store test below)."""
    said = {key for case in REFUSED_RECORDS for key in case[4]}
    store_only = {"missing_bid_before_tricks", "missing_bid_all_tricks", "trick_short"}
    assert not SCORE_KEYS - said - store_only, "a reason with no case"


def test_the_extra_round_reason_names_the_tie_setting_as_its_page_does() -> None:

    for lang, table in TEMPLATES.items():
        label = i18n.translate("set_tie", lang) + ": " + i18n.translate("opt_extra_round", lang)
        assert quoted(label, lang) in table["extra_round_off"], lang


def _game(store: GameStore, settings: dict[str, object] | None = None) -> int:
    """Ana, Ben and Cai, Ana dealing (Ben leads round 1), round 1 played: Cai wins."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, settings or {})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, _plays((1, "green-5"), (2, "green-9"), (0, "green-3")))
    return gid


def _missing_bid(store: GameStore) -> int:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [None, 1, 0])
    store.record_trick(gid, 1, 0, _plays((1, "green-5"), (2, "green-9"), (0, "green-3")))
    return gid


def _missing_bid_before_tricks(store: GameStore) -> int:
    gid = _missing_bid(store)
    store.set_bids(gid, 2, [0, 1, 1])
    store.record_trick(gid, 2, 0, _plays((2, "green-5"), (0, "green-6"), (1, "green-7")))
    return gid


def _out_of_turn(store: GameStore) -> int:
    gid = _game(store)
    store.set_bids(gid, 2, [0, 1, 1])  # Cai leads round 2; Ana is next, not Ben
    store.record_trick(gid, 2, 0, _plays((2, "green-5"), (1, "green-6"), (0, "green-7")))
    return gid


def _round_unfinished(store: GameStore) -> int:
    gid = _game(store)
    store.set_bids(gid, 2, [0, 1, 1])
    store.record_trick(gid, 2, 0, _plays((2, "green-5"), (0, "green-6"), (1, "green-7")))
    store.set_bids(gid, 3, [0, 1, 1])  # round 3 recorded before round 2's last trick
    store.record_trick(gid, 3, 0, _plays((0, "green-5"), (1, "green-6"), (2, "green-7")))
    return gid


def _ability_not_won(store: GameStore) -> int:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    # Answered before the trick was recorded, and the trick then went another way.
    store.answer_prompt(store.create_prompt(gid, "harry", 1, 0, player=1), 1)
    store.record_trick(gid, 1, 0, _plays((1, "green-5"), (2, "green-9"), (0, "green-3")))
    return gid


def _ability_twice(store: GameStore) -> int:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    store.answer_prompt(store.create_prompt(gid, "harry", 1, 0, player=1), 0)
    store.answer_prompt(store.create_prompt(gid, "rosie", 1, 0, player=1), 2)
    store.record_trick(gid, 1, 0, _plays((1, "pirate-harry"), (2, "green-9"), (0, "green-3")))
    return gid


def _short_trick(store: GameStore) -> int:
    gid = _game(store)
    store.set_bids(gid, 2, [0, 1, 1])
    store.record_trick(gid, 2, 0, _plays((2, "green-5"), (0, "green-6")))  # Ben's card missed
    return gid


# (how the store gets there, the English score.error, the Spanish score.error_text)
STOPPED_GAMES = [
    (
        _short_trick,
        "round 2, trick 1: only 2 of 3 cards were recorded; add the missing card on the"
        " trick's page",
        "ronda 2, baza 1: solo se grabaron 2 de 3 cartas; añade la carta que falta en la"
        " página de la baza",
    ),
    (
        _missing_bid,
        "round 1 has all its tricks recorded but no bid for Ana; enter the missing bid for"
        " round 1 to score it",
        "la ronda 1 tiene todas sus bazas grabadas, pero falta la apuesta de Ana; anota la"
        " apuesta que falta de la ronda 1 para puntuarla",
    ),
    (
        _missing_bid_before_tricks,
        "round 1 has no bid for Ana, but round 2 has recorded tricks; enter the missing bid"
        " for round 1 to score the rounds after it",
        "en la ronda 1 falta la apuesta de Ana, pero la ronda 2 tiene bazas grabadas",
    ),
    (
        _out_of_turn,
        "round 2, trick 1, play 2: Ben played out of turn; it was Ana's turn",
        "ronda 2, baza 1, jugada 2: Ben jugó fuera de turno; le tocaba a Ana",
    ),
    (
        # The engine's "round 2: only 1 of 2 tricks recorded; only the last round of a record
        # may be unfinished", said as the trick to enter (store/scores._free_place_named).
        _round_unfinished,
        "round 2: trick 2 is not recorded: enter it by hand",
        "ronda 2: la baza 2 no está grabada: anótala a mano",
    ),
    (
        _ability_not_won,
        "round 1, trick 1: an ability of pirate-harry is recorded, but that pirate did not win"
        " this trick",
        "ronda 1, baza 1: hay grabada una habilidad de Harry el Gigante, pero ese Pirata no"
        " ganó esta baza",
    ),
    (
        _ability_twice,
        "round 1, abilities[1]: trick 0 already has an ability",
        "ronda 1, «abilities[1]»: la baza 0 ya tiene una habilidad",
    ),
]


@pytest.mark.parametrize(
    ("make", "english", "spanish"), STOPPED_GAMES, ids=[case[0].__name__ for case in STOPPED_GAMES]
)
def test_every_reason_the_store_stops_a_score_is_said_in_spanish(
    client: FlaskClient, store: GameStore, make: object, english: str, spanish: str
) -> None:
    import html

    assert callable(make)
    gid = make(store)
    state = client.get(f"/api/game/{gid}/state?lang=es").get_json()
    assert state["score"]["ok"] is False
    assert state["score"]["error"] == english  # the API's English, word for word
    assert spanish in state["score"]["error_text"]
    assert "{" not in state["score"]["error_text"]
    page = html.unescape(client.get(f"/game/{gid}/tricks?lang=es").get_data(as_text=True))
    # What the page shows: its script data (the state as the API gives it, English "error"
    # beside "error_text") is not read by the table.
    shown = re.sub(r"<script\b.*?</script>", "", page, flags=re.S)
    assert spanish in shown and english not in shown
    english_page = html.unescape(client.get(f"/game/{gid}/tricks?lang=en").get_data(as_text=True))
    said = client.get(f"/api/game/{gid}/state?lang=en").get_json()["score"]["error_text"]
    assert said in english_page and "pirate-" not in said  # cards by the page's names


def test_a_reason_without_phrases_is_still_shown_in_english(
    client: FlaskClient, store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A score error the pages cannot word (no phrases: an unexpected error) is shown as the
    English text, never as nothing or an error page."""
    from skullcam.web.explain_i18n import score_error_text

    gid = _game(store)
    reason = "round 1: something the phrases do not cover"
    real = store.score

    def score(game_id: int) -> dict[str, object]:
        return {"ok": False, "error": reason, "record": real(game_id)["record"]}

    monkeypatch.setattr(store, "score", score)
    for lang in ("es", "it", "da"):
        assert score_error_text({"ok": False, "error": reason}, lang) == reason
        assert score_error_text({"ok": False, "error": reason, "error_phrases": []}, lang) == reason
        state = client.get(f"/api/game/{gid}/state?lang={lang}").get_json()
        assert state["score"]["error"] == state["score"]["error_text"] == reason
        for url in (f"/game/{gid}/tricks", f"/game/{gid}/round/1/trick/0"):
            answer = client.get(f"{url}?lang={lang}")
            assert answer.status_code == 200 and reason in answer.get_data(as_text=True), url
        tv = client.get(f"/api/tv/state?lang={lang}").get_json()
        assert tv["score"]["error_text"] == reason


# (what the score warns about, settings, rounds, the English warnings as the rules engine has
# always said them, the phrase keys of each); Ana deals, so Ben leads round 1.
WARNED_RECORDS = [
    (
        "a trick led by the wrong player, scored as played",
        {},
        [
            {
                "bids": [0, 1, 0],
                "tricks": [{"plays": _plays((2, "green-5"), (0, "green-9"), (1, "green-3"))}],
            }
        ],
        ["round 1: trick 1: Cai led, but by the rules Ben leads it; scored as played"],
        [["at_round", "scored_as_played"]],
    ),
    (
        "abilities recorded with the setting off",
        {},
        [
            {
                "bids": [0, 1, 0],
                "tricks": [_HARRY],
                "abilities": [{"trick": 0, "pirate": "pirate-harry", "choice": 0}],
            }
        ],
        [
            "round 1: pirate abilities are recorded but the 'pirate_abilities' setting is off:"
            " they are ignored"
        ],
        [["at_round", "abilities_setting_off"]],
    ),
    (
        "a cannonball outside Rascal's scoring",
        {},
        [{**_ROUND_1, "cannonball": [False, True, False]}],
        ["round 1: cannonball declarations are ignored outside Rascal's scoring"],
        [["at_round", "cannonball_ignored"]],
    ),
    (
        "a tie after the last round, with an extra round to play",
        {"rounds": 1, "tie": "extra_round"},
        [{"bids": [0, 0, 0], "tricks": [_TRICK_1]}],
        ["the lead is tied after the last round: play one more round (tie setting)"],
        [["tie_one_more_round"]],
    ),
    (
        "Rosie's choice on a round's last trick, in a game recorded before it was refused",
        {"pirate_abilities": True},
        [
            {
                "bids": [0, 1, 0],
                "tricks": [_ROSIE],
                "abilities": [{"trick": 0, "pirate": "pirate-rosie", "choice": 0}],
            }
        ],
        [
            "round 1: Rosie's choice recorded on the round's last trick is ignored: the next"
            " round is led by the dealer's neighbour"
        ],
        [["at_round", "rosie_last_trick_ignored"]],
    ),
    (
        "a tie-break round played, then the lead untied by a correction: it does not count",
        {"rounds": 1, "tie": "extra_round"},
        [
            {"bids": [0, 0, 1], "tricks": [_TRICK_1]},
            {"bids": [0, 0, 0], "tricks": [_TRICK_1]},
        ],
        ["the lead is not tied after round 1, so round 2, played as a tie-break, does not count"],
        [["tie_break_not_due"]],
    ),
    (
        "loot played twice in a round with its setting off: said once",
        {"loot": False, "rounds": 2},
        [
            _ROUND_1,
            {
                "bids": [0, 1, 1],
                "tricks": [
                    {"plays": _plays((2, "loot"), (0, "green-9"), (1, "green-3"))},
                    {"plays": _plays((0, "yellow-9"), (1, "loot"), (2, "yellow-3"))},
                ],
            },
        ],
        [
            "round 2: loot was played but the 'loot' setting is off: resolved by its rule"
            " anyway; check the card or turn the setting on"
        ],
        [["at_round", "setting_off"]],
    ),
]


def _score(settings: dict[str, object], rounds: list[object]) -> object:
    from skullcam.rules import GameRecord, score_game

    record = {
        "format": "skullcam-game/1",
        "players": ["Ana", "Ben", "Cai"],
        "settings": settings,
        "rounds": rounds,
    }
    return score_game(GameRecord.from_dict(record, as_played=True), as_played=True)


@pytest.mark.parametrize(
    ("settings", "rounds", "english", "keys"),
    [case[1:] for case in WARNED_RECORDS],
    ids=[case[0] for case in WARNED_RECORDS],
)
def test_what_a_score_warns_about_is_phrases_in_every_language(
    settings: dict[str, object], rounds: list[object], english: list[str], keys: list[list[str]]
) -> None:
    from skullcam.rules import GameScore

    score = _score(settings, rounds)
    assert isinstance(score, GameScore)
    assert list(score.warnings) == english  # word for word what the CLI has always said
    assert score.to_json()["warnings"] == english
    assert set(score.to_json()) == {"rounds", "totals", "leaders", "warnings"}  # no new key
    assert [[p.key for p in warning] for warning in score.warning_phrases] == keys
    assert [render(warning) for warning in score.warning_phrases] == english
    for lang in TEMPLATES:
        for phrases, text in zip(score.warning_phrases, english, strict=True):
            _assert_said_in(lang, phrases, text)


def test_every_warning_of_a_score_is_said_by_some_case() -> None:
    """A new warning of the score comes with a case above."""
    said = {key for case in WARNED_RECORDS for warning in case[4] for key in warning}
    assert not WARNING_KEYS - said - STORE_WARNING_KEYS, "a warning with no case"


def test_the_tie_warning_names_the_tie_setting_as_its_page_does() -> None:

    for lang, table in TEMPLATES.items():
        label = i18n.translate("set_tie", lang) + ": " + i18n.translate("opt_extra_round", lang)
        assert quoted(label, lang) in table["tie_one_more_round"], lang


def test_tricks_page_says_the_score_warnings_in_the_chosen_language(
    client: FlaskClient, store: GameStore
) -> None:
    """A dispute settled after the fact: Ben's card was the Tigress as a pirate, so he won
    round 2's first trick, but Ana (the winner as read) had already led the second one."""
    import html

    gid = game_with_round_2_led_by_the_read_winner(store)
    store.correct_play(gid, 2, 0, 2, card="tigress:pirate", note="it was the Tigress")
    english = "round 2: trick 2: Ana led, but by the rules Ben leads it; scored as played"
    score = store.score(gid)
    assert score["score"]["warnings"] == [english]  # the interface's JSON, word for word
    assert "warning_phrases" not in score["score"] and len(score["warning_phrases"]) == 1
    page = html.unescape(client.get(f"/game/{gid}/tricks?lang=es").get_data(as_text=True))
    assert re.findall(r'class="warning">(.*?)</p>', page, re.S) == [
        "⚠ ronda 2: baza 2: salió Ana, pero según las reglas sale Ben; se puntúa tal como se jugó"
    ]
    english_page = html.unescape(client.get(f"/game/{gid}/tricks?lang=en").get_data(as_text=True))
    assert re.findall(r'class="warning">(.*?)</p>', english_page, re.S) == ["⚠ " + english]


def test_the_replay_pages_say_a_trick_was_led_out_of_turn(
    client: FlaskClient, store: GameStore
) -> None:
    """Was: a seat or card corrected on a trick's page changed its winner, and the next
    trick, led by the old winner, was scored as played: said on the tricks page, the TV and
    the bids page, but neither that trick's replay page nor the corrected one's said it, where
    the referee was looking (helper K's review). Now both do, in the page's language; the
    round's other tricks do not."""
    import html

    gid = game_with_round_2_led_by_the_read_winner(store)
    store.correct_play(gid, 2, 0, 2, card="tigress:pirate", note="it was the Tigress")
    spanish = (
        "ronda 2: baza 2: salió Ana, pero según las reglas sale Ben; se puntúa tal como se jugó"
    )

    def warnings(round_number: int, trick: int) -> list[str]:
        url = f"/game/{gid}/round/{round_number}/trick/{trick}?lang=es"
        page = html.unescape(client.get(url).get_data(as_text=True))
        return re.findall(r'<p class="warning">⚠ (.*?)</p>', page, re.S)

    assert warnings(2, 1) == [spanish]  # led by Ana
    assert warnings(2, 0) == [spanish]  # won by Ben, who should have led the next
    assert warnings(1, 0) == []
    store.correct_play(gid, 2, 0, 2, card="green-2")  # undone: nothing to warn about
    assert warnings(2, 1) == [] and warnings(2, 0) == []


def test_the_tv_and_bids_pages_get_the_score_warnings_in_the_chosen_language(
    client: FlaskClient, store: GameStore
) -> None:
    """Was: only the tricks and replay pages said what the score warns about; the TV and the
    bids page showed the totals with no caveat. The state they render from words it now."""
    import html
    import json

    gid = game_with_round_2_led_by_the_read_winner(store)
    store.correct_play(gid, 2, 0, 2, card="tigress:pirate")
    spanish = (
        "ronda 2: baza 2: salió Ana, pero según las reglas sale Ben; se puntúa tal como se jugó"
    )
    for url in (f"/api/game/{gid}/state?lang=es", "/api/tv/state?lang=es"):
        score = client.get(url).get_json()["score"]
        assert score["warning_texts"] == [spanish], url
        assert score["score"]["warnings"] == [
            "round 2: trick 2: Ana led, but by the rules Ben leads it; scored as played"
        ]  # the English beside it, word for word
    page = client.get(f"/game/{gid}/bids?lang=es").get_data(as_text=True)
    data = re.search(r'<script id="page-data" type="application/json">(.*?)</script>', page, re.S)
    assert data is not None
    assert json.loads(html.unescape(data[1]))["state"]["score"]["warning_texts"] == [spanish]
    assert 'id="score-warnings"' in page
    assert 'id="tv-warnings"' in client.get(f"/game/{gid}/tv").get_data(as_text=True)
    store.correct_play(gid, 2, 0, 2, card="green-2")  # undone: nothing to warn about
    assert client.get(f"/api/game/{gid}/state").get_json()["score"]["warning_texts"] == []


def test_score_warnings_without_phrases_are_shown_in_english() -> None:
    """A score kept without ``warning_phrases`` still shows its warnings, in English."""
    from skullcam.web.explain_i18n import score_warning_texts

    warned = {"ok": True, "score": {"warnings": ["round 1: something new"]}}
    for lang in ("en", "es", "it", "da"):
        assert score_warning_texts(warned, lang) == ["round 1: something new"]
        assert score_warning_texts({**warned, "warning_phrases": []}, lang) == [
            "round 1: something new"
        ]
    assert score_warning_texts({"ok": True, "score": {}}, "es") == []
    assert score_warning_texts({"ok": False, "error": "round 1: no"}, "es") == []


def _assert_said_in(lang: str, phrases: Sequence[Phrase], english: str) -> None:
    """The phrases worded in ``lang``: not the English, no blank left, and every player, card,
    number and setting they carry said by its name in that language."""
    text = explain(phrases, lang)
    assert text != english and "{" not in text, lang
    for phrase in phrases:
        for value in phrase.args.values():
            if isinstance(value, CardId):
                assert i18n.card_name(str(value.card), lang) in text, lang
            elif isinstance(value, SettingName):
                assert i18n.translate(f"set_{value.key}", lang) in text, lang
            elif isinstance(value, int):  # a negative one with the pages' minus sign
                assert i18n.number_text(value) in text, (lang, value)
            else:
                assert str(value) in text, (lang, value)


def test_a_tie_break_trick_that_does_not_count_says_so_on_its_page(
    client: FlaskClient, store: GameStore
) -> None:
    """Its page named its winner with a star as any trick's does; only the tricks list said
    the round was out of the score."""
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 1, "tie": "extra_round"})
    store.set_bids(gid, 1, [1, 0])
    store.record_trick(gid, 1, 0, plays((1, "escape"), (0, "escape")))  # -10 each: tied
    store.set_bids(gid, 2, [1, 0])
    store.record_trick(gid, 2, 0, plays((0, "green-3"), (1, "green-2")))
    store.correct_play(gid, 1, 0, 1, card="green-3")  # Ana wins round 1: untied after all
    spanish = "así que la ronda 2, jugada para desempatar, no cuenta"
    page = client.get(f"/game/{gid}/round/2/trick/0?lang=es").get_data(as_text=True)
    assert spanish in page
    first = client.get(f"/game/{gid}/round/1/trick/0?lang=es").get_data(as_text=True)
    assert spanish not in first


def test_english_pages_say_how_to_declare_the_tigress_with_the_pages_choices() -> None:
    """The pages said "write tigress:pirate or tigress:escape", the command line's advice, where
    the page declares her with its "as a pirate" and "as an escape" (a review, session 51)."""
    page = explain([Phrase("tigress_undeclared")], "en")
    assert "tigress:" not in page and "as a pirate or as an escape" in page
    assert "tigress:pirate" in render([Phrase("tigress_undeclared")])  # the CLI's own words
