"""The camera's flags on a trick, said in the reader's language on the replay page."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from store_support import BO_LEADS_AFTER_ROSIE, plays, rosie_wins_round_2

from skullcam.device.referee import Referee
from skullcam.rules import Settings
from skullcam.store import GameStore
from skullcam.store.camera_reading import camera_read_flag
from skullcam.store.tricks import AFTER_AN_ENTRY, WENT_BACK, WENT_ON
from skullcam.vision.trick_state import swap_flag, tigress_flag
from skullcam.web import i18n
from skullcam.web.flag_i18n import flag_text

#: Flags as vision/trick_state.py words them (the tracker's, built from its f-strings).
TRACKER_FLAGS = [
    "only 3 cards for 4 players",
    "the trick was swept away with 3 of 4 cards seen: a card was missed",
    "the trick was swept away with 4 of 4 cards seen (never all at once)",
    "the recording ended with 2 of 4 cards seen",
    "green-7 read with low confidence (0.41)",
    tigress_flag(47),
    "green-4 seen twice in one trick",
    "two cards looked like escape; the weaker one read as loot",
    "taken back before the trick completed: green-3, skull-king",
    "more cards than players: 5 cards (ignored: black-2)",
    "Ana led, but the game expected Ben to lead",
    "play order and seats disagree: cards arrived from Ben, Ana, Cai, clockwise from Ana the "
    "order is Ana, Ben, Cai; plays follow the seats",
    "the cards' seats (Ana, Ana, Cai) do not name every player once; plays follow the arrival "
    "order",
    swap_flag("Ben", "green-3", "skull-king"),
]


def referee_flags() -> list[str]:
    """Flags the referee really writes (device/referee.py), not copies of its wording."""
    ref = Referee(["Ana", "Ben", "Cai"], 0, Settings(pirate_abilities=True, rounds=3))
    flags = list(ref.add_plays([(1, "pirate-harry"), (2, "green-3"), (0, "green-4")]).flags)
    ref.add_plays([(2, "green-3"), (0, "green-9"), (1, "green-2")])  # round 2, Ana wins
    flags += ref.add_plays([(0, "green-3"), (1, "green-8"), (2, "green-1")]).flags  # again
    flags += ref.add_plays([(0, "green-5")]).flags  # round 3: a short trick
    return flags


@pytest.mark.parametrize("lang", ["es", "it", "da"])
def test_every_flag_the_camera_writes_is_said_in_the_language(lang: str) -> None:
    written = TRACKER_FLAGS + referee_flags()
    assert "pirate-harry ability: ask the table (recorded as no change)" in written
    assert "green-3 already played this round" in written
    assert "cannot resolve: 1 card for 3 players" in written
    for flag in written:
        said = flag_text(flag, lang)
        assert said != flag and "{" not in said, (lang, flag)
        for card_id in ("green-7", "green-3", "skull-king", "pirate-harry", "escape", "black-2"):
            assert card_id not in said, (lang, said)  # cards by their names


# A flag that counts cards, and its words where one card is counted: "1 cards" was written,
# "1 carte viste" said. A flag the store kept as written before ("1 cards") reads right too.
ONE_CARD_FLAGS = [
    (
        "cannot resolve: 1 card for 3 players",
        {
            "es": "no se puede resolver: 1 carta para 3 jugadores",
            "it": "impossibile risolvere: 1 carta per 3 giocatori",
            "da": "kan ikke afgøres: 1 kort til 3 spillere",
        },
    ),
    (
        "cannot resolve: 1 cards for 3 players",
        {
            "es": "no se puede resolver: 1 carta para 3 jugadores",
            "it": "impossibile risolvere: 1 carta per 3 giocatori",
            "da": "kan ikke afgøres: 1 kort til 3 spillere",
        },
    ),
    (
        "only 1 cards for 2 players",
        {
            "es": "solo 1 carta para 2 jugadores",
            "it": "solo 1 carta per 2 giocatori",
            "da": "kun 1 kort til 2 spillere",
        },
    ),
    (
        "the recording ended with 1 of 3 cards seen",
        {
            "es": "la grabación terminó con 1 de 3 cartas vistas",
            "it": "la registrazione è finita con 1 carta vista su 3",
            "da": "optagelsen sluttede med 1 af 3 kort set",
        },
    ),
    (
        "the trick was swept away with 1 of 2 cards seen: a card was missed",
        {
            "es": "la baza se retiró con 1 de 2 cartas vistas: faltó una carta",
            "it": "la presa è stata raccolta con 1 carta vista su 2: ne è sfuggita una",
            "da": "stikket blev fjernet med 1 af 2 kort set: et kort blev overset",
        },
    ),
    (
        "the trick was swept away with 1 of 2 cards seen (never all at once)",
        {
            "es": "la baza se retiró con 1 de 2 cartas vistas (nunca todas a la vez)",
            "it": "la presa è stata raccolta con 1 carta vista su 2 (mai tutte insieme)",
            "da": "stikket blev fjernet med 1 af 2 kort set (aldrig alle på én gang)",
        },
    ),
]


@pytest.mark.parametrize(("flag", "said"), ONE_CARD_FLAGS, ids=[f for f, _ in ONE_CARD_FLAGS])
def test_a_flag_counting_one_card_says_it_in_the_singular(flag: str, said: dict[str, str]) -> None:
    for lang, words in said.items():
        assert flag_text(flag, lang) == words, lang
    assert flag_text("only 2 cards for 3 players", "it") == "solo 2 carte per 3 giocatori"


def test_an_unknown_flag_is_shown_as_written() -> None:
    assert flag_text("loot was played but the loot setting is off", "es") == (
        "loot was played but the loot setting is off"
    )
    assert flag_text("only 3 cards for 4 players", "en") == "only 3 cards for 4 players"


def trick_read_with_low_confidence(store: GameStore) -> int:
    """A game whose round 1 trick is flagged for Ben's green-5, read at 0.41."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    flags = ["green-5 read with low confidence (0.41)"]
    store.record_trick(
        gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-3")), flags=flags
    )
    return gid


def test_the_replay_page_says_the_flags_in_the_readers_language(
    client: FlaskClient, store: GameStore
) -> None:
    gid = trick_read_with_low_confidence(store)
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=es").get_data(as_text=True)
    assert "Loro 5: lectura poco fiable (0,41)" in page


def rules_flags() -> list[str]:
    """Flags that carry the rules engine's own sentences, as the referee writes them: a
    warning (the Kraken with its setting off) and why a trick cannot be resolved."""
    settings = Settings(kraken_and_white_whale=False, rounds=3)
    flags = list(
        Referee(["Ana", "Ben", "Cai"], 0, settings)
        .add_plays([(1, "kraken"), (2, "green-3"), (0, "green-4")])
        .flags
    )
    flags += (
        Referee(["Ana", "Ben", "Cai"], 0, settings)
        .add_plays([(1, "green-5"), (2, "green-5"), (0, "green-4")])
        .flags
    )
    flags += (
        Referee(["Ana", "Ben", "Cai"], 0, settings)
        .add_plays([(1, "tigress"), (2, "green-5"), (0, "green-4")])
        .flags
    )
    return flags


@pytest.mark.parametrize("lang", ["es", "it", "da"])
def test_the_rules_sentences_in_flags_are_said_in_the_language(lang: str) -> None:
    """Was: "no se puede resolver: play 1 (green-5): green-5 is already in this trick", and
    the Kraken's setting warning wholly in English."""
    written = rules_flags()
    assert any(f.startswith("kraken was played but the 'kraken_and_white_whale'") for f in written)
    # Plays counted from 1, as the trick's page counts them (they said "play 1" of the second).
    assert any(
        f.startswith("cannot resolve: play 2 (green-5): green-5 is already") for f in written
    )
    assert any(
        f.startswith("cannot resolve: play 1 (tigress): the Tigress must be declared")
        for f in written
    )
    for flag in written:
        said = flag_text(flag, lang)
        assert said != flag, (lang, flag)
        for english in ("is already in this trick", "was played but", "must be declared", "play "):
            assert english not in said, (lang, said)
        for card_id in ("green-5", "kraken", "tigress"):
            assert card_id not in said, (lang, said)


def test_the_confirmed_flags_in_a_tricks_history_are_said_in_the_language(
    client: FlaskClient, store: GameStore
) -> None:
    gid = trick_read_with_low_confidence(store)
    store.confirm_trick(gid, 1, 0)
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=es").get_data(as_text=True)
    assert "confirmada como se grabó: Loro 5: lectura poco fiable (0,41)" in page
    assert "read with low confidence" not in page


def test_english_flags_name_cards_as_the_page_does() -> None:
    """Was: "green-9 read with low confidence" beside a plays table that says Parrot 9."""
    assert flag_text("green-9 read with low confidence (0.41)", "en") == (
        "Parrot 9 read with low confidence (0.41)"
    )
    assert flag_text("taken back before the trick completed: green-3, skull-king", "en") == (
        "taken back before the trick completed: Parrot 3, Skull King"
    )
    for flag in TRACKER_FLAGS + referee_flags():
        assert not any(c in flag_text(flag, "en") for c in ("green-", "skull-king", "black-2"))


#: Notes the store and the recorder write on a trick's history themselves.
SYSTEM_NOTES = [
    "the camera saw purple-3 swapped for purple-9 before the pickup",
    "pirate-rosie no longer wins round 2 trick 1: its ability no longer counts",
    "round 2 trick 1 is now won by another player: pirate-harry's ability no longer counts",
    "round 3 trick 2 is not recorded: pirate-rosie's choice is read from who leads it",
    "imported unfinished while game 4 was in progress; kept as finished so that game stays"
    " on the TV and the camera",
    "read from the lead: Bo led trick 2",
    "completed by hand",
    "prompt 3",
    camera_read_flag("Ben", "purple-10", "purple-9"),
    WENT_ON,
    WENT_BACK,
    AFTER_AN_ENTRY,
]


@pytest.mark.parametrize("lang", ["es", "it", "da"])
def test_the_notes_the_system_writes_are_said_in_the_language(lang: str) -> None:
    """They were shown as written on a Spanish page: English, with card ids."""
    for note in SYSTEM_NOTES:
        said = flag_text(note, lang)
        assert said != note and "{" not in said, (lang, note)
        assert not any(c in said for c in ("purple-", "pirate-")), (lang, said)


def test_the_replay_page_says_the_cameras_swap_note_in_the_readers_language(
    client: FlaskClient, store: GameStore
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    note = "the camera saw green-1 swapped for green-13 before the pickup"
    store.correct_play(gid, 1, 0, 2, card="green-13", note=note, by_hand=False)
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=es").get_data(as_text=True)
    assert "la cámara vio cambiar Loro 1 por Loro 13 antes de recoger la baza" in page


def test_a_card_over_its_copies_in_a_trick_is_said_in_the_language() -> None:
    """The reason given for a card with several copies and no words of its own (a card added
    to the deck with two)."""
    flag = (
        "cannot resolve: play 3 (skull-king): skull-king: one more than the deck holds this"
        " round (it has 2)"
    )
    assert "Skull King: una más de las que tiene la baraja en esta ronda (tiene 2)" in flag_text(
        flag, "es"
    )


def test_english_rules_sentences_in_flags_name_cards_as_the_page_does() -> None:
    """Was: "cannot resolve: play 2 (Parrot 5): green-5 is already in this trick", and the
    Kraken's setting warning as "kraken was played but ...": only the flag's own card groups
    were named, not the rules engine's sentence in it."""
    said = [flag_text(flag, "en") for flag in rules_flags()]
    assert "cannot resolve: play 2 (Parrot 5): Parrot 5 is already in this trick" in " ".join(said)
    assert any(s.startswith("Kraken was played but the") for s in said), said
    for text in said:
        assert "green-5" not in text and not text.startswith("kraken"), text


def test_the_english_replay_page_names_the_card_a_trick_has_twice(
    client: FlaskClient, store: GameStore
) -> None:
    """A trick corrected into one no deck could produce keeps a doubt naming why (the store
    writes it with card ids); the English page said "green-5 is already in this trick"
    beside a plays table that says Parrot 5."""
    gid = trick_read_with_low_confidence(store)
    store.correct_play(gid, 1, 0, 2, card="green-5")
    assert any("green-5 is already in this trick" in f for f in store.trick(gid, 1, 0).flags)
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=en").get_data(as_text=True)
    assert "Parrot 5 is already in this trick" in page
    assert "green-5" not in page.split('id="flag-box"')[1].split("</div>")[0]


@pytest.mark.parametrize("lang", ["en", "es", "da"])
def test_a_rules_warning_the_camera_flagged_is_said_once_with_the_settings_label(
    client: FlaskClient, store: GameStore, lang: str
) -> None:
    """The Kraken with its setting off was said twice on the trick's page, in the flag box and
    as a warning under the explanation, and in English by the setting's key, 'kraken_and_white
    _whale', where the other languages gave its label (a review, session 51)."""
    settings = Settings(kraken_and_white_whale=False, rounds=3)
    flags = (
        Referee(["Ana", "Ben", "Cai"], 0, settings)
        .add_plays([(1, "green-9"), (2, "kraken"), (0, "green-12")])
        .flags
    )
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, settings.to_dict())
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(
        gid, 1, 0, plays((1, "green-9"), (2, "kraken"), (0, "green-12")), flags=flags
    )
    page = client.get(f"/game/{gid}/round/1/trick/0?lang={lang}").get_data(as_text=True)
    shown = page.split('<script id="i18n"')[0]  # the page's text, not its strings for scripts
    label = i18n.translate("set_kraken_and_white_whale", lang)
    assert shown.count(label) == 1, shown
    assert "kraken_and_white_whale" not in shown


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("es", "deducida de la salida: Bo salió en la baza 2"),
        ("it", "dedotta da chi ha guidato: Bo ha guidato la presa 2"),
        ("da", "aflæst af udspillet: Bo spillede ud i stik 2"),
    ],
)
def test_rosies_choice_read_from_the_lead_says_so_in_the_readers_language(
    client: FlaskClient, store: GameStore, lang: str, said: str
) -> None:
    """The camera recorded the trick after Rosie's, led by Bo: her choice is read from it and
    its history says how. A Spanish page said "read from the lead: Bo led trick 2"."""
    gid = rosie_wins_round_2(store)
    store.record_trick(gid, 2, 1, BO_LEADS_AFTER_ROSIE)
    page = client.get(f"/game/{gid}/round/2/trick/0?lang={lang}").get_data(as_text=True)
    assert said in page and "read from the lead" not in page


@pytest.mark.parametrize("lang", ["es", "it", "da"])
def test_a_readings_confidence_has_the_languages_decimal_mark(lang: str) -> None:
    """The replay page said "lettura poco sicura (0.41)" in Italian: a point where the table
    pages write the language's decimal comma (``i18n_core.number_in``)."""
    said = flag_text("green-7 read with low confidence (0.41)", lang)
    assert said.endswith("(0,41)"), said
    assert flag_text("green-7 read with low confidence (0.41)", "en").endswith("(0.41)")
