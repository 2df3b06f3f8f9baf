"""A refused change is said in the table's language: the store's and the PIN check's refusals
come back as ``error_text`` (and on error pages) in Spanish, Italian or Danish, while ``error``
stays the English that programs read."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from store_support import plays, spec_example
from web_support import json_of

from skullcam.errors import UserError
from skullcam.rules import parse_card
from skullcam.rules.explain import CardId
from skullcam.store import GameStore
from skullcam.store.refusals import ENGLISH, refusal
from skullcam.web import create_app
from skullcam.web.refusal_i18n import PIN_ENGLISH, REQUEST_ENGLISH, TEMPLATES, refusal_text

REMOTE = {"REMOTE_ADDR": "192.168.1.50"}
# Refusals only a program meets (a PIN sent in a header) may stay English.
PROGRAMS_ONLY = {"pin_header_wrong"}
# Values a refusal carries beyond its English template's fields.
#: A malformed body says where it broke (line, column) where the English gives the decoder's
#: reason.
EXTRA_FIELDS = {"player_has_card": {"names"}, "request_malformed": {"line", "column"}}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", sorted(TEMPLATES))
def test_every_refusal_a_table_meets_is_translated(lang: str) -> None:
    english = {**ENGLISH, **PIN_ENGLISH, **REQUEST_ENGLISH}
    assert set(TEMPLATES[lang]) == set(english) - PROGRAMS_ONLY
    for key, template in TEMPLATES[lang].items():
        given = fields(english[key]) | EXTRA_FIELDS.get(key, set())
        assert fields(template) <= given, (lang, key)


def test_refusal_without_a_phrase_stays_english() -> None:
    assert refusal_text(UserError("unknown card 'x'"), "es") == "unknown card 'x'"


#: (how the request is sent, the English ``error``, its Spanish, Italian and Danish wording)
MALFORMED = [
    (
        {"data": "{bad", "content_type": "application/json"},
        "malformed JSON: Expecting property name enclosed in double quotes: line 1 column 2"
        " (char 1)",
        {
            "es": "JSON mal formado (línea 1, columna 2)",
            "it": "JSON non valido (riga 1, colonna 2)",
            "da": "ugyldig JSON (linje 1, kolonne 2)",
        },
    ),
    (
        {"data": "[]", "content_type": "text/plain"},
        "send JSON (Content-Type: application/json)",
        {
            "es": "envía JSON (Content-Type: application/json)",
            "it": "invia JSON (Content-Type: application/json)",
            "da": "send data som JSON (Content-Type: application/json)",
        },
    ),
    (
        {"json": [1]},
        "the request body must be a JSON object",
        {
            "es": "el cuerpo de la petición debe ser un objeto JSON",
            "it": "il corpo della richiesta deve essere un oggetto JSON",
            "da": "forespørgslens indhold skal være et JSON-objekt",
        },
    ),
    (
        {"data": b'{"x": "\xff"}', "content_type": "application/json"},
        "the request body is not UTF-8 text (byte 7): send JSON encoded as UTF-8",
        {
            "es": "el cuerpo de la petición no es texto UTF-8 (byte 7): envía JSON en UTF-8",
            "it": "il corpo della richiesta non è testo UTF-8 (byte 7): invia JSON in UTF-8",
            "da": "forespørgslens indhold er ikke UTF-8-tekst (byte 7): send JSON kodet som UTF-8",
        },
    ),
    (
        {"data": "[" * 40 + "]" * 40, "content_type": "application/json"},
        "malformed JSON: nested too deeply",
        {
            "es": "JSON mal formado: anidado a demasiada profundidad",
            "it": "JSON non valido: annidato troppo in profondità",
            "da": "ugyldig JSON: indlejret for dybt",
        },
    ),
]


@pytest.mark.parametrize("lang", ["en", "es", "it", "da"])
@pytest.mark.parametrize(("sent", "english", "said"), MALFORMED)
def test_a_malformed_body_is_refused_in_the_readers_language(
    client: FlaskClient, lang: str, sent: dict[str, object], english: str, said: dict[str, str]
) -> None:
    """A page older than its server (a phone left open across an upgrade) can send a body the
    API no longer takes: its reader saw why in English alone. ``error`` stays as it was."""
    client.set_cookie("lang", lang)
    res = client.post("/api/games", **sent)
    body = json_of(res)
    assert res.status_code == 400 and body["error"] == english
    assert body.get("error_text") == said.get(lang)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", None),
        ("es", "falta 'player'"),
        ("it", "manca 'player'"),
        ("da", "'player' mangler"),
    ],
)
def test_a_request_missing_a_key_is_refused_in_the_readers_language(
    client: FlaskClient, store: GameStore, lang: str, said: str | None
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    res = client.post(f"/api/game/{gid}/bids?lang={lang}", json={"round": 1, "bid": 1})
    body = json_of(res)
    assert res.status_code == 400 and body["error"] == "missing 'player'"
    assert body.get("error_text") == said
    res = client.post(f"/api/game/{gid}/settings?lang={lang}", json={"loot": True})
    body = json_of(res)
    assert body["error"] == 'send {"settings": {...}} with the settings to change'
    assert ("error_text" in body) == (lang != "en") and "{{" not in body.get("error_text", "")


def test_names_alike_are_refused_in_spanish(client: FlaskClient) -> None:
    client.set_cookie("lang", "es")
    res = client.post("/api/games", json={"players": ["Ana", "Ben", "ana"]})
    assert res.status_code == 400
    body = json_of(res)
    assert body["error"] == "player names must differ: 'Ana' and 'ana' are one name"
    assert body["error_text"] == "los nombres deben ser distintos: «Ana» y «ana» son el mismo"


def test_names_alike_but_for_an_invisible_character_are_refused_in_danish(
    client: FlaskClient,
) -> None:
    client.set_cookie("lang", "da")
    res = client.post("/api/games", json={"players": ["Ana", "Ben", "Ana\u2800"]})
    assert res.status_code == 400
    assert json_of(res)["error_text"] == "navnene skal være forskellige: »Ana« står der to gange"
    res = client.post("/api/games", json={"players": ["Ana", "Ben", "\u3164\u200b"]})
    assert json_of(res)["error_text"] == "hver spiller skal have et navn"


def test_confirming_a_short_trick_is_refused_in_italian(
    client: FlaskClient, store: GameStore
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2")), flags=["short"])
    res = client.post(f"/api/game/{gid}/round/1/trick/0/confirm?lang=it", json={})
    body = json_of(res)
    assert res.status_code == 400
    assert body["error"].startswith("round 1 trick 1 has 2 of 3 cards")
    assert body["error_text"] == (
        "la presa 1 del round 1 ha 2 carte su 3; aggiungi la carta mancante invece di confermare"
    )


def test_confirming_a_trick_of_one_card_says_the_card_in_the_singular_in_italian(
    client: FlaskClient, store: GameStore
) -> None:
    """It said "ha 1 carte su 3"."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1")), flags=["short"])
    res = client.post(f"/api/game/{gid}/round/1/trick/0/confirm?lang=it", json={})
    assert json_of(res)["error_text"] == (
        "la presa 1 del round 1 ha 1 carta su 3; aggiungi la carta mancante invece di confermare"
    )


def test_adding_a_card_for_a_player_who_has_one_names_who_is_missing_in_danish(
    client: FlaskClient, store: GameStore
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai", "Dag"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2")), flags=["short"])
    res = client.post(
        f"/api/game/{gid}/round/1/trick/0/add?lang=da", json={"player": 1, "card": "green-9"}
    )
    body = json_of(res)
    assert body["error"].endswith("the missing card is Ana's or Dag's")
    assert body["error_text"] == (
        "Ben har allerede et kort i stik 1 i runde 1; det manglende kort er fra Ana / Dag"
    )


def test_a_correction_from_an_out_of_date_page_is_refused_in_spanish(
    client: FlaskClient, store: GameStore
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    store.correct_play(gid, 1, 0, 2, player=2)  # another phone: the escape was Cai's
    res = client.post(
        f"/api/game/{gid}/round/1/trick/0/correct?lang=es",
        json={"play": 1, "card": "green-8", "expect": {"card": "green-9", "player": 2}},
    )
    body = json_of(res)
    assert res.status_code == 400
    assert body["error"].startswith("round 1 trick 1: card 2 is now Cai's escape, not Cai's")
    assert body["error_text"].startswith(
        "ronda 1, baza 1: la carta 2 es ahora Huida de Cai, no Loro 9 de Cai"
    )
    assert [p["card"] for p in store.trick(gid, 1, 0).plays] == ["green-5", "escape", "green-9"]


def test_a_question_closed_by_a_correction_says_so_in_spanish(
    client: FlaskClient, store: GameStore
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 2, [0, 1, 0])
    store.record_trick(gid, 2, 0, plays((1, "pirate-harry"), (2, "green-2"), (0, "green-3")))
    prompt = store.create_prompt(gid, "harry", 2, 0, player=1)
    store.correct_play(gid, 2, 0, 0, card="skull-king")  # Harry no longer wins the trick
    res = client.post(f"/api/prompt/{prompt}/answer?lang=es", json={"answer": 1})
    body = json_of(res)
    assert body["error"] == f"prompt {prompt} was already dismissed"
    assert body["error_text"] == "esta pregunta ya se ignoró"


@pytest.mark.parametrize(
    ("name", "genitive"),
    [("Ana", "Anas"), ("Lars", "Lars'"), ("Max", "Max'"), ("Fritz", "Fritz'"), ("JENS", "JENS'")],
)
def test_a_danish_refusal_writes_a_players_genitive_as_danish_does(
    name: str, genitive: str
) -> None:
    """Danish adds an s to a name ("Anas bud") but an apostrophe alone after s, x or z
    ("Lars' bud"): "{player}s" wrote "Larss bud"."""
    err = refusal("bid_cleared_after_play", round=2, player=name)
    assert refusal_text(err, "da") == (
        f"runde 2 har allerede optagne stik; ret {genitive} bud i stedet for at slette det"
    )
    err = refusal(
        "play_changed",
        round=1,
        trick=2,
        play=3,
        player=name,
        card=CardId(parse_card("green-9")),
        was_player="Ben",
        was_card=CardId(parse_card("escape")),
    )
    assert f"kort 3 er nu {genitive} grøn 9, ikke Bens flugtkort som" in refusal_text(err, "da")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Harry changes it by \u22121 (trick 1): that makes \u22121. Choose Harry's 0 or +1"),
        ("es", "Harry la cambia en \u22121 (baza 1): quedaría en \u22121. Elige 0 o +1"),
        ("it", "Harry la cambia di \u22121 (presa 1): diventerebbe \u22121. Scegli 0 o +1"),
        ("da", "Harry ændrer buddet med \u22121 (stik 1): det giver \u22121. Vælg 0 eller +1"),
    ],
)
def test_harrys_refusal_writes_a_minus_as_the_pages_do(
    client: FlaskClient, store: GameStore, lang: str, said: str
) -> None:
    """Every page writes a minus as U+2212; Harry's refusal wrote "-1" (Python's ``+d``) beside
    it. Programs still read ASCII in ``error``."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "pirate-harry"), (2, "green-3"), (0, "green-4")))
    (asked,) = store.prompts(gid)
    body = json_of(client.post(f"/api/prompt/{asked.id}/answer?lang={lang}", json={"answer": -1}))
    assert "changes it by -1 (trick 1): that makes -1. Choose Harry's 0 or +1" in body["error"]
    assert said in body["error_text"]


def test_a_pirate_in_a_refusal_is_named_as_the_page_names_cards() -> None:
    err = refusal("ability_not_won", round=2, trick=1, pirate=CardId(parse_card("pirate-harry")))
    assert "is not won by pirate-harry as recorded now" in str(err)
    assert "no la gana Harry el Gigante tal como está grabada" in refusal_text(err, "es")


def test_a_missing_game_page_says_so_in_danish(client: FlaskClient) -> None:
    res = client.get("/game/999?lang=da")
    assert res.status_code == 404
    assert "spil 999 findes ikke; se listen over spil" in res.get_data(as_text=True)


def test_a_wrong_pin_on_a_phone_is_said_in_spanish(tmp_path: Path) -> None:
    client = create_app(tmp_path, pin="4821", require_pin=True).test_client()
    client.set_cookie("lang", "es")
    res = client.post("/api/pin", json={"pin": "1111"}, environ_base=REMOTE)
    body = json_of(res)
    assert res.status_code == 403 and body["pin"] is True
    assert (body["error"], body["error_text"]) == ("wrong PIN", "PIN incorrecto")
    refused = client.post("/api/games", json={}, environ_base=REMOTE)
    assert json_of(refused)["error_text"].startswith("PIN incorrecto o ausente")


def test_english_readers_get_the_english_refusal(client: FlaskClient) -> None:
    res = client.post("/api/games", json={"players": ["Ana", "Ana"]})
    body = json_of(res)
    assert body == {"error": "player names must differ: 'Ana' appears twice"}


def test_a_setting_out_of_range_is_refused_in_italian(client: FlaskClient) -> None:
    """The setup form sends what was typed (it is novalidate): 99 rounds."""
    res = client.post(
        "/api/games?lang=it", json={"players": ["Ana", "Ben"], "settings": {"rounds": 99}}
    )
    body = json_of(res)
    assert body["error"] == "invalid settings: setting 'rounds' must be 1..10, got 99"
    assert body["error_text"] == "l'impostazione «Numero di round» va da 1 a 10; ricevuto 99"


@pytest.mark.parametrize(
    ("lang", "said"),
    [("es", "no encontrado: revisa la dirección"), ("da", "ikke fundet: tjek adressen")],
)
def test_the_webs_own_errors_are_said_in_the_readers_language(
    client: FlaskClient, lang: str, said: str
) -> None:
    page = client.get(f"/nowhere?lang={lang}")
    assert page.status_code == 404 and said in page.get_data(as_text=True)
    client.set_cookie("lang", lang)
    body = json_of(client.get("/api/nowhere"))
    assert body == {"error": "not found: check the address", "error_text": said}


def test_an_imported_record_the_rules_refuse_says_why_in_spanish(client: FlaskClient) -> None:
    record = spec_example()
    record["rounds"][0]["bids"] = [5, 0, 1]
    body = json_of(client.post("/api/import?lang=es", json=record))
    assert body["error"].startswith("invalid game record: round 1: Ana's bid 5 is out of range")
    assert body["error_text"] == (
        "registro de partida no válido: ronda 1: la apuesta 5 de Ana está fuera de rango: las"
        " apuestas van de 0 a 1 con 1 carta repartida"
    )


def _broken_card(record: dict) -> None:
    record["rounds"][0]["tricks"][0]["plays"][1]["card"] = "green-99"


def _unknown_round_key(record: dict) -> None:
    record["rounds"][0]["colour"] = "red"


def _ability_not_object(record: dict) -> None:
    record["rounds"][0]["abilities"] = [5]


@pytest.mark.parametrize(
    ("lang", "lead", "said"),
    [
        (
            "es",
            "este archivo no es un registro de partida que skullcam pueda leer: ",
            [
                "ronda 1, baza 1, jugada 2 (Cai): el valor de «card» no es válido",
                "ronda 1: la clave «colour» no existe en un registro de partida",
                "ronda 1, «abilities[0]»: no es un objeto JSON",
            ],
        ),
        (
            "it",
            "questo file non è un registro di partita che skullcam sappia leggere: ",
            [
                "round 1, presa 1, giocata 2 (Cai): il valore di «card» non è valido",
                "round 1: la chiave «colour» non esiste in un registro di partita",
                "round 1, «abilities[0]»: non è un oggetto JSON",
            ],
        ),
        (
            "da",
            "filen er ikke en spilregistrering, som skullcam kan læse: ",
            [
                "runde 1, stik 1, kort 2 (Cai): værdien af »card« er ugyldig",
                "runde 1: nøglen »colour« findes ikke i en spilregistrering",
                "runde 1, »abilities[0]«: det er ikke et JSON-objekt",
            ],
        ),
    ],
)
def test_an_imported_file_of_no_records_shape_says_where_in_the_readers_language(
    client: FlaskClient, store: GameStore, lang: str, lead: str, said: list[str]
) -> None:
    """Was English on a Spanish, Italian or Danish history page ("invalid game record: round
    1, trick 1, play 2 (Cai): unknown card 'green-99' ..."): the place and the key, as the
    file spells it, are said in the reader's language; ``error`` keeps the English detail.
    An ability's place is its key as the file spells it too (was "habilidades[0]", a key no
    file has)."""
    client.set_cookie("lang", lang)
    english = [
        "invalid game record: round 1, trick 1, play 2 (Cai): unknown card 'green-99'",
        "invalid game record: round 1: unknown key 'colour'",
        'invalid game record: round 1, abilities[0]: expected {"trick": T,',
    ]
    for breaks, text, error in zip(
        (_broken_card, _unknown_round_key, _ability_not_object), said, english, strict=True
    ):
        record = spec_example()
        breaks(record)
        body = json_of(client.post("/api/import", json=record))
        assert body["error"].startswith(error)
        assert body["error_text"] == lead + text
    assert store.games() == []


#: Settings an imported file may get wrong, each with what a page says of it.
BAD_SETTINGS = [{"lot": True}, {"loot": "yes"}, {"rounds": "ten"}, {"rounds": 99}, {"tie": 1}]


@pytest.mark.parametrize(
    ("lang", "lead", "said"),
    [
        (
            "en",
            "invalid game record: settings: ",
            [
                "unknown setting 'lot': the settings are black_fourteen_bonus, fourteen_bonus,",
                "setting 'loot' must be true or false, got 'yes'",
                "setting 'rounds' must be a whole number, got 'ten'",
                "setting 'rounds' must be 1..10, got 99",
                "setting 'tie' must be one of shared, extra_round, got 1",
            ],
        ),
        (
            "es",
            "este archivo no es un registro de partida que skullcam pueda leer: ",
            [
                "«lot» en «settings» no es ningún ajuste",
                "el ajuste «loot» debe ser true o false",
                "el ajuste «rounds» debe ser un número entero de 1 a 10",
                "el ajuste «rounds» va de 1 a 10; se recibió 99",
                "el ajuste «tie» debe ser uno de estos: shared, extra_round",
            ],
        ),
        (
            "it",
            "questo file non è un registro di partita che skullcam sappia leggere: ",
            [
                "«lot» in «settings» non è un'impostazione",
                "l'impostazione «loot» deve essere true o false",
                "l'impostazione «rounds» deve essere un numero intero da 1 a 10",
                "l'impostazione «rounds» va da 1 a 10; ricevuto 99",
                "l'impostazione «tie» deve essere uno di questi: shared, extra_round",
            ],
        ),
        (
            "da",
            "filen er ikke en spilregistrering, som skullcam kan læse: ",
            [
                "»lot« i »settings« er ikke en indstilling",
                "indstillingen »loot« skal være true eller false",
                "indstillingen »rounds« skal være et helt tal fra 1 til 10",
                "indstillingen »rounds« går fra 1 til 10; ikke 99",
                "indstillingen »tie« skal være en af disse: shared, extra_round",
            ],
        ),
    ],
)
def test_an_imported_files_bad_setting_is_named_in_the_readers_language(
    client: FlaskClient, store: GameStore, lang: str, lead: str, said: list[str]
) -> None:
    """Was «settings» alone on a Spanish, Italian or Danish page ("el valor de «settings» no
    es válido"), whichever setting was wrong and however: which setting, as the file spells
    it, and what it must be are said in every language."""
    client.set_cookie("lang", lang)
    for settings, text in zip(BAD_SETTINGS, said, strict=True):
        record = spec_example()
        record["settings"] = settings
        body = json_of(client.post("/api/import", json=record))
        assert body["error_text" if lang != "en" else "error"].startswith(lead + text)
        assert lang == "en" or body["error_text"] == lead + text
    assert store.games() == []


@pytest.mark.parametrize(
    ("lang", "not_object", "other_kind"),
    [
        (
            "es",
            "un registro de partida es un objeto JSON con formato «skullcam-game/1»",
            "no es un registro de partida de skullcam (no indica formato; se esperaba"
            " «skullcam-game/1»)",
        ),
        (
            "it",
            "un registro di partita è un oggetto JSON con formato «skullcam-game/1»",
            "non è un registro di partita di skullcam (non indica un formato; atteso"
            " «skullcam-game/1»)",
        ),
        (
            "da",
            "en spilregistrering er et JSON-objekt med formatet »skullcam-game/1«",
            "det er ikke en spilregistrering fra skullcam (intet format angivet; forventet"
            " »skullcam-game/1«)",
        ),
    ],
    ids=["es", "it", "da"],
)
def test_a_file_of_another_kind_imported_is_refused_in_the_readers_language(
    client: FlaskClient, store: GameStore, lang: str, not_object: str, other_kind: str
) -> None:
    """The history page sends any JSON file it is given: a list of records, or a settings
    file, was refused in English on a page in the reader's language."""
    client.set_cookie("lang", lang)
    body = json_of(client.post("/api/import", json=[spec_example()]))
    assert body["error"] == "a game record is a JSON object with format 'skullcam-game/1'"
    assert body["error_text"] == not_object
    body = json_of(client.post("/api/import", json={"rounds": 10}))
    assert body["error_text"] == other_kind
    wrong = json_of(client.post("/api/import", json={**spec_example(), "format": "x/2"}))
    assert "'x/2'" in wrong["error_text"] and wrong["error_text"] != wrong["error"]
    assert store.games() == []


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("it", "impossibile esportare la partita 1: nel round 1 manca la puntata di Ana"),
        ("es", "no se puede exportar la partida 1: "),
        ("da", "spil 1 kan ikke eksporteres endnu: "),
    ],
)
def test_a_record_not_exportable_yet_says_why_in_the_readers_language(
    client: FlaskClient, store: GameStore, lang: str, said: str
) -> None:
    """A game night's "Registro (JSON)" button, round 5 under way with round 1's bids never
    entered, answered an Italian page with "cannot export game 2: round 1 has no bid for
    Ana, ..., enter the missing bid ..." in English (the score sheet beside it words the same
    reason in Italian). ``error`` stays the English that programs read."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 2, [1, 0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-6"), (0, "green-7")))
    store.record_trick(gid, 2, 0, plays((2, "green-1"), (0, "green-2"), (1, "green-3")))
    page = client.get(f"/game/{gid}/export.json?lang={lang}")
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert said in text
    assert "cannot export" not in text and "missing bid" not in text
    as_json = {"Accept": "application/json"}
    english = json_of(client.get(f"/game/{gid}/export.json", headers=as_json))
    assert english["error"].startswith("cannot export game 1: round 1 has no bid for Ana, Ben")


@pytest.mark.parametrize(
    ("body", "lang", "english", "said"),
    [
        (
            {"players": "Ana, Ben"},
            "es",
            "players must be a list of 2 to 8 names in seating order",
            "«players» debe ser una lista de 2 a 8 nombres, en orden de asiento",
        ),
        (
            {"players": ["Ana", 5]},
            "it",
            "player 2's name must be text, got 5",
            "il nome del giocatore 2 deve essere un testo; ricevuto 5",
        ),
        (
            {"players": ["Ana", "Ben"], "first_dealer": 2},
            "da",
            "first dealer must be a player number 0..1, got 2",
            "første giver skal være et spillernummer fra 0 til 1; ikke 2",
        ),
        (
            {"players": ["Ana", "Ben"], "first_dealer": "x"},
            "es",
            "'first_dealer' must be a whole number, got 'x'",
            "'first_dealer' debe ser un número entero; se recibió 'x'",
        ),
        (
            {"players": ["Ana", "Ben"], "settings": [1]},
            "it",
            "settings must be a JSON object",
            "«settings» deve essere un oggetto JSON",
        ),
        (
            {"players": ["Ana", "Ben"], "settings": {"scoring": "weird"}},
            "es",
            "invalid settings: setting 'scoring' must be one of standard, rascal, no_bonus,"
            " got 'weird'",
            "ajustes no válidos: el ajuste «scoring» debe ser uno de estos: standard, rascal,"
            " no_bonus",
        ),
        (
            {"players": ["Ana", "Ben"], "settings": {"loot": 3}},
            "da",
            "invalid settings: setting 'loot' must be true or false, got 3",
            "ugyldige indstillinger: indstillingen »loot« skal være true eller false",
        ),
    ],
)
def test_a_new_game_sent_by_hand_is_refused_in_the_readers_language(
    client: FlaskClient, body: dict[str, object], lang: str, english: str, said: str
) -> None:
    """The setup form sends none of these, but a table's script or curl may: they came back
    in English alone, where the setup's other refusals (two names alike, 99 rounds) follow
    the reader's language. ``error`` stays the English programs read."""
    res = client.post("/api/games", json=body, headers={"Accept-Language": lang})
    assert res.status_code == 400
    assert json_of(res) == {"error": english, "error_text": said}


def test_an_unknown_setting_sent_by_hand_is_named_as_sent(client: FlaskClient) -> None:
    res = client.post(
        "/api/games?lang=it", json={"players": ["Ana", "Ben"], "settings": {"rondas": 5}}
    )
    body = json_of(res)
    assert body["error"].startswith("invalid settings: unknown setting 'rondas': the settings")
    assert (
        body["error_text"]
        == "impostazioni non valide: «rondas» in «settings» non è un'impostazione"
    )


def test_a_page_asked_for_under_another_name_says_why_in_the_readers_language(
    tmp_path: Path,
) -> None:
    """A scoreboard listening on this machine only, opened under another name (the Pi's
    own browser at raspberrypi.local): the page said where to open it in English alone."""
    client = create_app(tmp_path).test_client()
    foreign = {"Host": "raspberrypi.local:8000", "Accept-Language": "es"}
    page = client.get("/", base_url="http://localhost:8000", headers=foreign)
    assert page.status_code == 400
    said = "este marcador solo escucha en esta máquina: ábrelo como http://localhost:8000/"
    assert said in page.get_data(as_text=True)
    write = client.post(
        "/api/games?lang=it",
        json={"players": ["Ana", "Ben"]},
        base_url="http://localhost:8000",
        headers={"Host": "raspberrypi.local"},
    )
    assert json_of(write) == {
        "error": "this scoreboard listens on this machine only: open it as"
        " http://localhost:8000/ to change anything",
        "error_text": "questo segnapunti è in ascolto solo su questa macchina: aprilo come"
        " http://localhost:8000/ per cambiare qualcosa",
    }


def test_a_danish_refusal_names_a_players_white_whale_without_its_article() -> None:
    """After a genitive Danish drops the card's article: "Anas Den Hvide Hval" said two."""
    err = refusal(
        "play_changed",
        round=1,
        trick=2,
        play=3,
        player="Ana",
        card=CardId(parse_card("white-whale")),
        was_player="Lars",
        was_card=CardId(parse_card("white-whale")),
    )
    said = refusal_text(err, "da")
    assert "kort 3 er nu Anas Hvide Hval, ikke Lars' Hvide Hval som" in said
    assert "Den Hvide Hval" not in said
    assert "card 3 is now Ana's White Whale, not Lars's White Whale" in refusal_text(err, "en")


def test_werkzeugs_own_errors_are_said_in_the_readers_language(client: FlaskClient) -> None:
    """A Range past a file's end is answered by Werkzeug itself (416): its English
    description stays the API's ``error``, and the reader's language is beside it, on the
    error page too (it was "The server cannot provide the requested range." on a Spanish
    page)."""
    past_the_end = {"Range": "bytes=99999999-"}
    as_json = {**past_the_end, "Accept": "application/json"}
    res = client.get("/static/app.css?lang=es", headers=as_json)
    body = json_of(res)
    assert res.status_code == 416
    assert body["error"] == "The server cannot provide the requested range."
    assert body["error_text"] == (
        "el servidor no pudo atender esta petición (HTTP 416); recarga la página"
    )
    page = client.get("/static/app.css?lang=it", headers=past_the_end).get_data(as_text=True)
    assert "il server non ha potuto rispondere a questa richiesta (HTTP 416)" in page
    assert "error_text" not in json_of(client.get("/static/app.css?lang=en", headers=as_json))


def test_a_page_refused_an_event_stream_is_told_why_in_its_language(
    app: Flask, client: FlaskClient
) -> None:
    app.config["SSE_MAX_STREAMS"] = 1
    held = client.get("/events")
    refused = client.get("/events?lang=da")
    body = json_of(refused)
    assert refused.status_code == 503 and "tries again" in body["error"]
    assert body["error_text"] == (
        "for mange sider følger spillet; denne side prøver igen om et par sekunder"
    )
    held.close()


def test_a_malformed_body_follows_the_browsers_language_where_none_was_chosen(
    client: FlaskClient,
) -> None:
    """A phone that never chose a language reads the page in its browser's: so the refusal."""
    res = client.post("/api/games", json=[1], headers={"Accept-Language": "da-DK,da;q=0.9"})
    assert json_of(res)["error_text"] == "forespørgslens indhold skal være et JSON-objekt"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", (None, None, None)),
        (
            "es",
            (
                "la ronda debe ser de 1 a 8; se recibió 9",
                "la ronda 1 necesita 3 apuestas, una por jugador; se recibieron 2",
                "una baza necesita una carta por jugador (3); se recibieron 2",
            ),
        ),
        (
            "it",
            (
                "il round deve essere da 1 a 8; ricevuto 9",
                "il round 1 richiede 3 puntate, una per giocatore; ricevute 2",
                "una presa richiede una carta per giocatore (3); ricevute 2",
            ),
        ),
        (
            "da",
            (
                "runden skal være fra 1 til 8; ikke 9",
                "runde 1 skal have 3 bud, ét pr. spiller; ikke 2",
                "et stik skal have ét kort pr. spiller (3); ikke 2",
            ),
        ),
    ],
)
def test_a_round_or_count_a_game_does_not_have_is_refused_in_the_readers_language(
    client: FlaskClient, store: GameStore, lang: str, said: tuple[str | None, ...]
) -> None:
    """A bids page left open on round 9 while another phone set the game to 8 rounds, and a
    whole round's bids or a trick's cards of the wrong count, were refused in English alone."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"rounds": 8})
    api = f"/api/game/{gid}"
    answers = [
        client.post(f"{api}/bids?lang={lang}", json={"round": 9, "player": 0, "bid": 1}),
        client.post(f"{api}/bids?lang={lang}", json={"round": 1, "bids": [0, 1]}),
        client.post(
            f"{api}/round/1/trick/0/enter?lang={lang}",
            json={"plays": [{"player": 1, "card": "green-1"}, {"player": 2, "card": "green-2"}]},
        ),
    ]
    english = [
        "round must be 1..8, got 9",
        "round 1 needs 3 bids, got 2",
        "a trick needs one card per player (3), got 2",
    ]
    for res, error, text in zip(answers, english, said, strict=True):
        body = json_of(res)
        assert res.status_code == 400 and body["error"] == error
        assert body.get("error_text") == text
