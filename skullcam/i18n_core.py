"""The UI's languages, how a page picks one, and card names as each edition says them.

Shared by the table app (``web/``) and the deck-enrollment page (``device/enroll_web.py``),
which must not import each other: ``device`` holds camera code that ``web`` never loads, and
``device`` does not depend on ``web``. Both choose the reader's language the same way (a
``?lang=`` parameter, remembered in a ``lang`` cookie, else the browser's Accept-Language,
else English) and name cards with the same words (``card_name``). Each keeps its own table
of page strings.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "es", "it", "da")
LANGUAGE_NAMES = {"en": "English", "es": "Español", "it": "Italiano", "da": "Dansk"}
LANG_COOKIE = "lang"
LANG_COOKIE_MAX_AGE = 365 * 86400

# Card names per edition. Suits: Parrot / Treasure Chest / Treasure Map / Jolly Roger.
_SUITS = {
    "en": {
        "green": "Parrot",
        "yellow": "Treasure Chest",
        "purple": "Treasure Map",
        "black": "Jolly Roger",
    },
    "es": {
        "green": "Loro",
        "yellow": "Cofre del Tesoro",
        "purple": "Mapa del Tesoro",
        "black": "Jolly Roger",
    },
    "it": {
        "green": "Pappagallo",
        "yellow": "Forziere",
        "purple": "Mappa del Tesoro",
        "black": "Jolly Roger",
    },
    "da": {"green": "Grøn", "yellow": "Gul", "purple": "Lilla", "black": "Jolly Roger"},
}
_SPECIALS = {
    "en": {
        "escape": "Escape",
        "pirate": "Pirate",
        "pirate-rosie": "Rosie D' Laney",
        "pirate-bendt": "Bendt the Bandit",
        "pirate-rascal": "Rascal of Roatan",
        "pirate-juanita": "Juanita Jade",
        "pirate-harry": "Harry the Giant",
        "tigress": "Tigress",
        "tigress:pirate": "Tigress (pirate)",
        "tigress:escape": "Tigress (escape)",
        "skull-king": "Skull King",
        "mermaid": "Mermaid",
        "mermaid-alyra": "Mermaid Alyra",
        "mermaid-sirena": "Mermaid Sirena",
        "loot": "Loot",
        "kraken": "Kraken",
        "white-whale": "White Whale",
    },
    "es": {
        "escape": "Huida",
        "pirate": "Pirata",
        "pirate-rosie": "Rosie D' Laney",
        "pirate-bendt": "Bendt el Bandido",
        "pirate-rascal": "Rascal de Roatán",
        "pirate-juanita": "Juanita Jade",
        "pirate-harry": "Harry el Gigante",
        "tigress": "Tigresa",
        "tigress:pirate": "Tigresa (Pirata)",
        "tigress:escape": "Tigresa (Huida)",
        "skull-king": "Skull King",
        # The mermaid named Sirena is "Sirena", not "Sirena Sirena" (English "Mermaid Sirena"
        # word for word); the mermaid an input leaves unnamed is told from her as "genérica".
        # "Sirena sin nombre" read "la Sirena sin nombre de Cai" ("without Cai's name"). The
        # user's Spanish and Italian rules (shared/seeds) have no word of their own for her:
        # they name neither mermaid, and every one is "Sirena" ("una Sirena", "2 cartas de
        # Sirena", "Sirene (2 carte)"), the name the mermaid called Sirena has here.
        "mermaid": "Sirena genérica",
        "mermaid-alyra": "Sirena Alyra",
        "mermaid-sirena": "Sirena",
        "loot": "Botín",
        "kraken": "Kraken",
        "white-whale": "Ballena Blanca",
    },
    "it": {
        "escape": "Fuga",
        "pirate": "Pirata",
        "pirate-rosie": "Rosie D'Laney",
        "pirate-bendt": "Bendt il Bandito",
        "pirate-rascal": "Furfante di Roatán",
        "pirate-juanita": "Juanita Jade",
        "pirate-harry": "Harry il Gigante",
        "tigress": "Tigre",
        "tigress:pirate": "Tigre (Pirata)",
        "tigress:escape": "Tigre (Fuga)",
        "skull-king": "Re dei Teschi",
        "mermaid": "Sirena generica",  # as in Spanish: no word of the sources' for her
        "mermaid-alyra": "Sirena Alyra",
        "mermaid-sirena": "Sirena",
        "loot": "Bottino",
        "kraken": "Kraken",
        "white-whale": "Balena Bianca",
    },
    "da": {
        "escape": "Flugtkort",
        "pirate": "Pirat",
        "pirate-rosie": "Rosie D' Laney",
        "pirate-bendt": "Bendt the Bandit",
        "pirate-rascal": "Rascal of Roatan",
        "pirate-juanita": "Juanita Jade",
        "pirate-harry": "Harry the Giant",
        "tigress": "Tigress",
        "tigress:pirate": "Tigress (pirat)",
        "tigress:escape": "Tigress (flugtkort)",
        "skull-king": "Skull King",
        "mermaid": "Havfrue",
        "mermaid-alyra": "Havfrue Alyra",
        "mermaid-sirena": "Havfrue Sirena",
        "loot": "Byttekort",
        "kraken": "Kraken",
        "white-whale": "Den Hvide Hval",
    },
}


def pick_language(requested: str | None, accept: list[tuple[str, float]] | None = None) -> str:
    """``requested`` if supported, else the best of the browser's Accept-Language, else English."""
    if requested and requested in LANGUAGES:
        return requested
    for code, _quality in accept or []:
        short = code.split("-")[0].lower()
        if short in LANGUAGES:
            return short
    return "en"


def language_of(request: Any) -> str:
    """The language a Flask request asks for: ``?lang=``, else the ``lang`` cookie, else the
    browser's Accept-Language, else English."""
    requested = request.args.get("lang") or request.cookies.get(LANG_COOKIE)
    return pick_language(requested, list(request.accept_languages))


def remember_language(request: Any, response: Any) -> None:
    """A language chosen with ``?lang=`` is kept in a cookie for the next pages."""
    chosen = request.args.get("lang")
    if chosen in LANGUAGES:
        response.set_cookie(LANG_COOKIE, chosen, max_age=LANG_COOKIE_MAX_AGE, samesite="Lax")


#: Each language's decimal mark: "2.5" in English is "2,5" in Spanish, Italian and Danish,
#: where "2.5" reads as a thousands mark. The table app's pages get it as the catalog string
#: ``decimal_mark`` (app.js ``num``); the server's own texts write numbers with
#: :func:`number_in`.
DECIMAL_MARKS = {"en": ".", "es": ",", "it": ",", "da": ","}


def decimal_mark(lang: str) -> str:
    """``lang``'s decimal mark (:data:`DECIMAL_MARKS`); a language it does not know, English's."""
    return DECIMAL_MARKS.get(lang, ".")


def number_in(value: float | str, lang: str, spec: str = "") -> str:
    """A number as ``lang`` writes it: ``value`` formatted with ``spec`` (a number already
    written as text, a stored flag's "0.41", as it is), its decimal point as ``lang``'s mark
    ("1,5" in Italian). The page scripts' ``num`` does the same."""
    text = value if isinstance(value, str) else format(value, spec)
    return text.replace(".", decimal_mark(lang))


def card_name(card_id: str, lang: str) -> str:
    """``green-7`` -> "Parrot 7" / "Loro 7" / "Pappagallo 7" / "Grøn 7"; unknown ids unchanged."""
    lang = lang if lang in LANGUAGES else "en"
    specials = _SPECIALS[lang]
    if card_id in specials:
        return specials[card_id]
    suit, _, rank = card_id.partition("-")
    if suit in _SUITS[lang] and rank.isdigit():
        return f"{_SUITS[lang][suit]} {rank}"
    return card_id


def suit_name(suit: str, lang: str) -> str:
    """``green`` -> "Parrot" / "Loro" / "Pappagallo" / "Grøn"; unknown suits unchanged."""
    return _SUITS.get(lang, _SUITS["en"]).get(suit, suit)


#: The Danish card names that begin with a card type's common noun: the Danish rule sheet
#: (shared/seeds 003) writes them in lower case in running text ("en havfrue slår Skull
#: King", "flugtkort, der altid taber"), as the names of people and places it does not
#: (Skull King, Kraken, Den Hvide Hval, Tigress).
_DANISH_TYPE_NOUNS = ("Flugtkort", "Pirat", "Havfrue", "Byttekort")
#: The Danish suits named by their colour: a colour is an adjective, which the sheet writes in
#: lower case ("den sorte 14'er", "den sorte Jolly Roger-farve"); Jolly Roger is a name.
_DANISH_COLOURS = ("Grøn", "Gul", "Lilla")


def card_in_text(card_id: str, lang: str) -> str:
    """``card_id``'s name as running text writes it: its name (``card_name``), but a Danish
    card type or colour in lower case ("Bens pirat vinder", "for at fange havfrue Alyra",
    "ikke Bens flugtkort", "Anas grøn 9"), where the pages wrote "Bens Pirat" and "Anas Grøn
    9". Lists and menus keep the name as a label ("Flugtkort", "Grøn 9"); a sentence that
    starts with the card says ``{card:cap}``. The table app's sentences and the enrollment
    page's say cards so."""
    name = card_name(card_id, lang)
    if lang == "da" and name.split(" ", 1)[0] in (*_DANISH_TYPE_NOUNS, *_DANISH_COLOURS):
        return name[:1].lower() + name[1:]
    return name


def suit_in_text(suit: str, lang: str) -> str:
    """``suit``'s name as running text writes it (``suit_name``), a Danish colour in lower case
    ("da den udspillede farve var grøn", where it read "var Grøn"), as :func:`card_in_text`."""
    name = suit_name(suit, lang)
    return name.lower() if lang == "da" and name in _DANISH_COLOURS else name


def danish_owned(card_name: str) -> str:
    """A card's name after a Danish genitive: without its article, as a noun after a genitive
    goes ("Anas Hvide Hval", where "Anas Den Hvide Hval" read as two articles); the other
    names are the same ("Anas Kraken", "Bens Skull King")."""
    return card_name.removeprefix("Den ")


def danish_genitive(name: str) -> str:
    """``name`` in the genitive as Danish writes it: an s added ("Anas bud"), or an apostrophe
    alone after a name ending in s, x or z ("Lars' bud", "Max' bud", "Fritz' bud")."""
    return f"{name}'" if name.lower().endswith(("s", "x", "z")) else f"{name}s"
