"""A trick entered by hand, moved or taken back, in the words a table reads in Spanish, Italian
and Danish: the pages' hints, a trick's history, the system's notes in it and the refusals (a
review of the wording, session 44: "movida un lugar adelante", "la correzione che l'aveva
annullata è stata annullata" read as translated word for word)."""

from __future__ import annotations

import pytest

from skullcam.store.abilities import CARRIED_OVER
from skullcam.store.refusals import refusal
from skullcam.web.flag_i18n import flag_text
from skullcam.web.i18n import translate
from skullcam.web.refusal_i18n import TEMPLATES, refusal_text


def place(lang: str, round_number: int, trick: int) -> str:
    return translate("audit_place", lang, round=round_number, trick=trick)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("es", "movida de la baza 1 de la ronda 2 a la baza 1 de la ronda 3"),
        ("it", "spostata: era la presa 1 del round 2, ora è la presa 1 del round 3"),
        ("da", "flyttet fra stik 1 i runde 2 til stik 1 i runde 3"),
    ],
)
def test_a_moved_tricks_history_says_its_places_as_a_sentence(lang: str, expected: str) -> None:
    """Was "movida de ronda 2 baza 1 a ronda 3 baza 1", "spostata da round 2 presa 1 a ...":
    a place said as the rest of the pages say it ("la baza 1 de la ronda 2")."""
    moved = translate("audit_moved", lang, from_place=place(lang, 2, 1), to_place=place(lang, 3, 1))
    assert moved == expected


@pytest.mark.parametrize(
    ("key", "values", "lang", "expected"),
    [
        (
            "insert_crosses_round",
            {"round": 2, "trick": 2, "to_round": 3, "to_trick": 1},
            "es",
            "La ronda 2 no tiene sitio libre: su baza 2 pasa a ser la baza 1 de la ronda 3, y"
            " las bazas que la siguen también avanzan un puesto.",
        ),
        (
            "insert_crosses_round",
            {"round": 2, "trick": 2, "to_round": 3, "to_trick": 1},
            "it",
            "Il round 2 non ha posti liberi: la sua presa 2 diventa la presa 1 del round 3, e"
            " anche le prese che la seguono avanzano di un posto.",
        ),
        (
            "remove_hint",
            {},
            "es",
            "¿Anotada por error? Quítala y su sitio vuelve a quedar libre.",
        ),
        (
            "remove_hint",
            {},
            "da",
            "Indtastet ved en fejl? Fjern det, så er pladsen ledig igen.",
        ),
        (
            "remove_hint_moved",
            {"n": 2},
            "es",
            "¿Anotada en el sitio equivocado? Quítala y las bazas que avanzaron un puesto al"
            " anotarla (2) vuelven a donde estaban.",
        ),
        (
            "remove_hint_moved",
            {"n": 2},
            "it",
            "Inserita nel posto sbagliato? Toglila e le prese che aveva spostato avanti di un"
            " posto (2) tornano dov'erano.",
        ),
        (
            "remove_hint_moved",
            {"n": 2},
            "da",
            "Indtastet det forkerte sted? Fjern det, så rykker de stik, det skubbede én plads"
            " frem (2), tilbage igen.",
        ),
        (
            "remove_hint_moved_one",
            {},
            "es",
            "¿Anotada en el sitio equivocado? Quítala y la baza que avanzó un puesto al"
            " anotarla vuelve a donde estaba.",
        ),
        (
            "remove_hint_moved_one",
            {},
            "it",
            "Inserita nel posto sbagliato? Toglila e la presa che aveva spostato avanti di un"
            " posto torna dov'era.",
        ),
        (
            "remove_hint_moved_one",
            {},
            "da",
            "Indtastet det forkerte sted? Fjern det, så rykker det stik, det skubbede én plads"
            " frem, tilbage igen.",
        ),
        ("audit_removed", {}, "es", "anotada a mano y luego quitada"),
        ("audit_removed", {}, "it", "inserita a mano e poi tolta"),
        ("audit_removed", {}, "da", "indtastet manuelt og fjernet igen"),
    ],
)
def test_the_insert_and_take_back_hints_read_as_a_table_says_them(
    key: str, values: dict[str, int], lang: str, expected: str
) -> None:
    assert translate(key, lang, **values) == expected


LAST = "round 2 trick 2 is now the round's last: pirate-rosie's choice no longer counts"
MISFIT = "moved to round 3: pirate-harry's change no longer fits the winner's bid there"
UNDONE = "restored: the correction that dropped it was undone"
ON = "moved one place on: the missed trick was entered by hand as round 2 trick 1"
BACK = "moved back: the trick entered by hand as round 2 trick 1 was taken back"
CARRIED = CARRIED_OVER  # the store's own note, so that a reworded one is caught here


@pytest.mark.parametrize(
    ("flag", "lang", "expected"),
    [
        (
            LAST,
            "es",
            "la baza 2 es ahora la última de la ronda 2: la elección de Rosie D' Laney ya no"
            " cuenta",
        ),
        (
            LAST,
            "it",
            "la presa 2 ora è l'ultima del round 2: la scelta di Rosie D'Laney non conta più",
        ),
        (LAST, "da", "stik 2 er nu det sidste i runde 2: Rosie D' Laneys valg tæller ikke længere"),
        (
            MISFIT,
            "es",
            "movida a la ronda 3: el cambio de Harry el Gigante ya no encaja con la apuesta del"
            " ganador en esa ronda",
        ),
        (
            MISFIT,
            "it",
            "spostata nel round 3: il cambio di Harry il Gigante non è più compatibile con la"
            " puntata del vincitore in quel round",
        ),
        (UNDONE, "it", "ripristinata: è stata annullata la correzione che l'aveva eliminata"),
        (UNDONE, "da", "gendannet: rettelsen, der fjernede det, blev fortrudt"),
        (
            ON,
            "es",
            "adelantada un puesto: la baza que faltaba se anotó a mano como baza 1 de la ronda 2",
        ),
        (
            BACK,
            "es",
            "devuelta a su sitio: se quitó la baza anotada a mano como baza 1 de la ronda 2",
        ),
        (
            BACK,
            "da",
            "flyttet tilbage: stikket, der blev indtastet manuelt som stik 1 i runde 2, er"
            " fjernet igen",
        ),
        (
            CARRIED,
            "es",
            "conservada de la baza anotada a mano, que se quitó: la baza de la cámara tiene el"
            " mismo ganador y el mismo Pirata",
        ),
        (
            CARRIED,
            "it",
            "mantenuta dalla presa inserita a mano, poi tolta: la presa della fotocamera ha lo"
            " stesso vincitore e lo stesso Pirata",
        ),
        (
            CARRIED,
            "da",
            "overført fra stikket, der blev indtastet manuelt og fjernet igen: kameraets stik har"
            " samme vinder og samme pirat",
        ),
    ],
)
def test_the_systems_notes_on_a_moved_trick_read_naturally(
    flag: str, lang: str, expected: str
) -> None:
    """ "la baza 2 de la ronda 2 es ahora la última de la ronda", "valget for Rosie D' Laney",
    "movida un lugar adelante", "se retiró" beside the page's "Quitar esta baza" were said
    again."""
    assert flag_text(flag, lang) == expected


@pytest.mark.parametrize(
    ("key", "lang", "expected"),
    [
        (
            "insert_no_trick",
            "es",
            "la ronda 2 no tiene ninguna baza 3 grabada, así que no se puede anotar otra antes de"
            " ella; anota la siguiente baza de la ronda",
        ),
        (
            "insert_no_trick",
            "it",
            "il round 2 non ha nessuna presa 3 registrata, quindi non se ne può inserire un'altra"
            " prima; inserisci invece la prossima presa del round",
        ),
        (
            "insert_no_trick",
            "da",
            "runde 2 har intet registreret stik 3, så der kan ikke indtastes et overset stik før"
            " det; indtast rundens næste stik i stedet",
        ),
        (
            "insert_no_room",
            "es",
            "no hay sitio para anotar antes de la baza 3 de la ronda 2 una baza que la cámara no"
            " vio: todas las bazas siguientes de la partida están grabadas. Corrige las cartas"
            " de las bazas en sus páginas",
        ),
        (
            "insert_no_room",
            "it",
            "non c'è posto per inserire prima della presa 3 del round 2 una presa che la"
            " fotocamera non ha visto: tutte le prese successive della partita sono registrate."
            " Correggi invece le carte delle prese nelle loro pagine",
        ),
        (
            "remove_camera_trick",
            "es",
            "la baza 3 de la ronda 2 la grabó la cámara y tiene imagen: corrige sus cartas en su"
            " página; solo se pueden quitar las bazas anotadas a mano",
        ),
        (
            "remove_camera_trick",
            "it",
            "la presa 3 del round 2 è stata registrata dalla fotocamera e ha la sua immagine:"
            " correggine invece le carte nella sua pagina; si possono togliere solo le prese"
            " inserite a mano",
        ),
        (
            "remove_camera_trick",
            "da",
            "stik 3 i runde 2 blev registreret af kameraet og har et billede: ret i stedet"
            " kortene på stikkets side; kun stik, der er indtastet manuelt, kan fjernes",
        ),
        (
            "remove_moved_since",
            "es",
            "no se puede quitar la baza 3 de la ronda 2: una de las bazas que se movieron al"
            " anotarla se ha vuelto a mover (se anotó o se quitó otra baza). Corrige las bazas"
            " en sus páginas",
        ),
        (
            "remove_moved_since",
            "it",
            "non si può togliere la presa 3 del round 2: da quando è stata inserita, una delle"
            " prese che aveva spostato si è spostata di nuovo (è stata inserita o tolta un'altra"
            " presa). Correggi invece le prese nelle loro pagine",
        ),
        (
            "remove_moved_since",
            "da",
            "stik 3 i runde 2 kan ikke fjernes: et af de stik, der blev rykket, da det blev"
            " indtastet, er flyttet igen siden (et andet stik er indtastet eller fjernet). Ret i"
            " stedet stikkene på deres sider",
        ),
        (
            "hand_recorded_same",
            "es",
            "la baza 3 de la ronda 2 se registró mientras tanto (desde otra página o con la"
            " cámara) con estas mismas cartas: no queda nada por anotar aquí. Recarga la página",
        ),
    ],
)
def test_a_refused_insert_or_take_back_says_why_as_a_table_says_it(
    key: str, lang: str, expected: str
) -> None:
    """Was "ante la que anotar una baza perdida", "una presa persa" (a trick lost in play, not
    the one the camera missed), "una presa che il suo inserimento ha spostato", "et stik, som
    dets indtastning flyttede", "(otra página o la cámara)"."""
    assert refusal_text(refusal(key, round=2, trick=3), lang) == expected


@pytest.mark.parametrize("lang", ["es", "it"])
def test_no_refusal_calls_the_missed_trick_a_lost_one(lang: str) -> None:
    """A "baza perdida" / "presa persa" is, at the table, a trick a player lost."""
    for key, template in TEMPLATES[lang].items():
        assert "baza perdida" not in template and "presa persa" not in template, key
