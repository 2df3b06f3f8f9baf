"""The camera's flags on a trick, in the reader's language.

The tracker and the referee write a trick's flags as English sentences ("only 3 cards for 4
players", "green-7 read with low confidence (0.41)"), and the store keeps them as written
(docs/web.md). A table playing in Spanish reads them on the replay page, where a dispute is
settled, so each sentence the camera writes is matched here and said again in the reader's
language, card ids as card names; a rules warning the referee copied, or why a trick could not
be resolved, is worded again from the rules engine's own phrase. A flag no pattern knows (an
older version's) is shown as written: better in English than not at all.
"""

from __future__ import annotations

import re
import string

from skullcam.i18n_core import card_name, number_in
from skullcam.rules import RulesError, parse_card
from skullcam.rules.explain import ENGLISH, Arg, CardId, Phrase, SettingName, fill
from skullcam.rules.table import ALREADY_PLAYED, LED_UNEXPECTEDLY
from skullcam.store.refiled import FOLLOWED_BACK, MOVED_BACK
from skullcam.store.tricks import AFTER_AN_ENTRY, REFILED, WENT_BACK, WENT_ON

from . import explain_i18n, i18n

#: (the English sentence as a pattern, its wording per language). Named groups: ``card``,
#: ``alt`` and ``cards`` (comma-separated) are card ids; ``k`` is a count the words after it
#: agree with (``{k:carta|carte}``, ``rules.explain``'s counted words); a number with a
#: decimal point (``p``, a reading's confidence) has the language's decimal mark ("0,41");
#: the rest are shown as written. "1 cards" is matched too: the camera wrote it before it
#: said "1 card", and the store keeps flags as written.
FLAGS: list[tuple[re.Pattern[str], dict[str, str]]] = [
    (
        re.compile(r"only (?P<k>\d+) cards? for (?P<n>\d+) players"),
        {
            "es": "solo {k} {k:carta|cartas} para {n} jugadores",
            "it": "solo {k} {k:carta|carte} per {n} giocatori",
            "da": "kun {k} kort til {n} spillere",
        },
    ),
    (
        re.compile(r"cannot resolve: (?P<k>\d+) cards? for (?P<n>\d+) players"),
        {
            "es": "no se puede resolver: {k} {k:carta|cartas} para {n} jugadores",
            "it": "impossibile risolvere: {k} {k:carta|carte} per {n} giocatori",
            "da": "kan ikke afgøres: {k} kort til {n} spillere",
        },
    ),
    (
        re.compile(
            r"the trick was swept away with (?P<k>\d+) of (?P<n>\d+) cards seen: a card was missed"
        ),
        {
            "es": "la baza se retiró con {k} de {n} cartas vistas: faltó una carta",
            "it": (
                "la presa è stata raccolta con {k} {k:carta vista|carte viste} su {n}: ne è"
                " sfuggita una"
            ),
            "da": "stikket blev fjernet med {k} af {n} kort set: et kort blev overset",
        },
    ),
    (
        re.compile(
            r"the trick was swept away with (?P<k>\d+) of (?P<n>\d+) cards seen "
            r"\(never all at once\)"
        ),
        {
            "es": "la baza se retiró con {k} de {n} cartas vistas (nunca todas a la vez)",
            "it": (
                "la presa è stata raccolta con {k} {k:carta vista|carte viste} su {n} (mai tutte"
                " insieme)"
            ),
            "da": "stikket blev fjernet med {k} af {n} kort set (aldrig alle på én gang)",
        },
    ),
    (
        re.compile(r"the recording ended with (?P<k>\d+) of (?P<n>\d+) cards seen"),
        {
            "es": "la grabación terminó con {k} de {n} cartas vistas",
            "it": "la registrazione è finita con {k} {k:carta vista|carte viste} su {n}",
            "da": "optagelsen sluttede med {k} af {n} kort set",
        },
    ),
    (
        re.compile(r"(?P<card>[a-z0-9:-]+) read with low confidence \((?P<p>[0-9.]+)\)"),
        {
            "es": "{card}: lectura poco fiable ({p})",
            "it": "{card}: lettura poco sicura ({p})",
            "da": "{card:cap} læst med lav sikkerhed ({p})",
        },
    ),
    (
        re.compile(r"Tigress laid at (?P<deg>\d+) degrees: pirate or escape\?"),
        {
            "es": "Tigresa colocada a {deg} grados: ¿Pirata o Huida?",
            "it": "Tigre posata a {deg} gradi: Pirata o Fuga?",
            "da": "Tigress lagt i {deg} grader: pirat eller flugtkort?",
        },
    ),
    (
        ALREADY_PLAYED,
        {
            "es": "{card} ya se jugó en esta ronda",
            "it": "la carta {card} è già stata giocata in questo round",
            "da": "{card:cap} er allerede spillet i denne runde",
        },
    ),
    (
        re.compile(r"(?P<card>[a-z0-9:-]+) seen twice in one trick"),
        {
            "es": "{card} aparece dos veces en una baza",
            "it": "la carta {card} compare due volte in una presa",
            "da": "{card:cap} set to gange i ét stik",
        },
    ),
    (
        re.compile(
            r"two cards looked like (?P<card>[a-z0-9:-]+); the weaker one read as "
            r"(?P<alt>[a-z0-9:-]+)"
        ),
        {
            "es": "dos cartas parecían {card}; la menos clara se leyó como {alt}",
            "it": "due carte sembravano {card}; la meno chiara è stata letta come {alt}",
            "da": "to kort lignede {card}; det svageste blev læst som {alt}",
        },
    ),
    (
        re.compile(r"taken back before the trick completed: (?P<cards>.+)"),
        {
            "es": "cartas retiradas antes de completar la baza: {cards}",
            "it": "carte riprese prima che la presa fosse completa: {cards}",
            "da": "taget tilbage før stikket var færdigt: {cards}",
        },
    ),
    (
        re.compile(
            r"(?P<who>.+)'s (?P<card>[a-z0-9:-]+) was swapped for (?P<alt>[a-z0-9:-]+) after "
            r"the trick completed"
        ),
        {
            "es": "{who} cambió {card} por {alt} después de completarse la baza",
            "it": "{who} ha scambiato {card} con {alt} dopo che la presa era completa",
            "da": "{who} byttede {card} ud med {alt}, efter stikket var færdigt",
        },
    ),
    (
        re.compile(
            r"the camera read (?P<who>.+)'s (?P<card>[a-z0-9:-]+) where the table entered "
            r"(?P<alt>[a-z0-9:-]+)"
        ),
        {
            "es": "la cámara leyó {card} de {who} donde la mesa anotó {alt}",
            "it": "la fotocamera ha letto {card} di {who} dove il tavolo ha inserito {alt}",
            "da": "kameraet læste {card} hos {who}, hvor bordet indtastede {alt}",
        },
    ),
    # Notes the system writes on a trick's history (the audit trail), beside a person's own.
    (
        re.compile(
            r"the camera saw (?P<card>[a-z0-9:-]+) swapped for (?P<alt>[a-z0-9:-]+) before "
            r"the pickup"
        ),
        {
            "es": "la cámara vio cambiar {card} por {alt} antes de recoger la baza",
            "it": "la fotocamera ha visto scambiare {card} con {alt} prima della raccolta",
            "da": "kameraet så {card} byttet ud med {alt}, før stikket blev samlet op",
        },
    ),
    (
        re.compile(
            r"(?P<card>pirate-[a-z]+) no longer wins round (?P<r>\d+) trick (?P<t>\d+): its "
            r"ability no longer counts"
        ),
        {
            "es": "{card} ya no gana la baza {t} de la ronda {r}: su habilidad ya no cuenta",
            "it": "{card} non vince più la presa {t} del round {r}: la sua abilità non conta più",
            "da": "{card} vinder ikke længere stik {t} i runde {r}: evnen tæller ikke længere",
        },
    ),
    (
        re.compile(
            r"round (?P<r>\d+) trick (?P<t>\d+) is now won by another player: "
            r"(?P<card>pirate-[a-z]+)'s ability no longer counts"
        ),
        {
            "es": "la baza {t} de la ronda {r} la gana ahora otro jugador: la habilidad de"
            " {card} ya no cuenta",
            "it": "la presa {t} del round {r} ora la vince un altro giocatore: l'abilità di"
            " {card} non conta più",
            "da": "stik {t} i runde {r} vindes nu af en anden spiller: evnen for {card} tæller"
            " ikke længere",
        },
    ),
    (
        re.compile(
            r"round (?P<r>\d+) trick (?P<t>\d+) is now the round's last: "
            r"(?P<card>pirate-[a-z]+)'s choice no longer counts"
        ),
        {
            "es": "la baza {t} es ahora la última de la ronda {r}: la elección de {card} ya no"
            " cuenta",
            "it": "la presa {t} ora è l'ultima del round {r}: la scelta di {card} non conta più",
            "da": "stik {t} er nu det sidste i runde {r}: {card:gen} valg tæller ikke længere",
        },
    ),
    (
        # store/rosie_lead.py: Rosie's open question answered by who led the next trick.
        re.compile(r"read from the lead: (?P<player>.+) led trick (?P<t>\d+)"),
        {
            "es": "deducida de la salida: {player} salió en la baza {t}",
            "it": "dedotta da chi ha guidato: {player} ha guidato la presa {t}",
            "da": "aflæst af udspillet: {player} spillede ud i stik {t}",
        },
    ),
    (
        re.compile(
            r"round (?P<r>\d+) trick (?P<t>\d+) is not recorded: "
            r"(?P<card>pirate-[a-z]+)'s choice is read from who leads it"
        ),
        {
            "es": "la baza {t} de la ronda {r} no está registrada: la elección de {card} se"
            " lee de quien sale en ella",
            "it": "la presa {t} del round {r} non è registrata: la scelta di {card} si legge da"
            " chi la guida",
            "da": "stik {t} i runde {r} er ikke registreret: {card:gen} valg aflæses af, hvem"
            " der spiller ud i det",
        },
    ),
    (
        re.compile(r"restored: it counts again at round (?P<r>\d+) trick (?P<t>\d+)"),
        {
            "es": "recuperada: vuelve a contar en la baza {t} de la ronda {r}",
            "it": "ripristinata: conta di nuovo nella presa {t} del round {r}",
            "da": "gendannet: tæller igen i stik {t} i runde {r}",
        },
    ),
    (
        re.compile(
            r"moved to round (?P<r>\d+): (?P<card>pirate-[a-z]+)'s change no longer fits the "
            r"winner's bid there"
        ),
        {
            "es": "movida a la ronda {r}: el cambio de {card} ya no encaja con la apuesta del"
            " ganador en esa ronda",
            "it": "spostata nel round {r}: il cambio di {card} non è più compatibile con la"
            " puntata del vincitore in quel round",
            "da": "flyttet til runde {r}: ændringen fra {card} passer ikke længere til vinderens"
            " bud dér",
        },
    ),
    (
        re.compile(r"restored: the correction that dropped it was undone"),
        {
            "es": "recuperada: se deshizo la corrección que la había anulado",
            "it": "ripristinata: è stata annullata la correzione che l'aveva eliminata",
            "da": "gendannet: rettelsen, der fjernede det, blev fortrudt",
        },
    ),
    (
        re.compile(
            r"carried over from the trick entered by hand, taken back: the camera's trick has"
            r" the same winner and the same pirate"
        ),
        {
            "es": "conservada de la baza anotada a mano, que se quitó: la baza de la cámara"
            " tiene el mismo ganador y el mismo Pirata",
            "it": "mantenuta dalla presa inserita a mano, poi tolta: la presa della fotocamera"
            " ha lo stesso vincitore e lo stesso Pirata",
            "da": "overført fra stikket, der blev indtastet manuelt og fjernet igen: kameraets"
            " stik har samme vinder og samme pirat",
        },
    ),
    (
        re.compile(
            r"moved one place on: the missed trick was entered by hand as round (?P<r>\d+) "
            r"trick (?P<t>\d+)"
        ),
        {
            "es": "adelantada un puesto: la baza que faltaba se anotó a mano como baza {t} de"
            " la ronda {r}",
            "it": "spostata avanti di un posto: la presa mancante è stata inserita a mano come"
            " presa {t} del round {r}",
            "da": "flyttet én plads frem: det manglende stik blev indtastet manuelt som stik {t}"
            " i runde {r}",
        },
    ),
    (
        re.compile(re.escape(WENT_ON)),
        {
            "es": "anotada un puesto más adelante: esperaba a la base de datos mientras se"
            " anotaba a mano antes de ella una baza que faltaba",
            "it": "registrata un posto più avanti: aspettava il database mentre una presa"
            " mancante veniva inserita a mano prima di essa",
            "da": "registreret én plads senere: det ventede på databasen, mens et manglende"
            " stik før det blev indtastet manuelt",
        },
    ),
    (
        re.compile(re.escape(AFTER_AN_ENTRY)),
        {
            "es": "anotada un puesto más adelante: en su sitio se había anotado a mano otra baza",
            "it": "registrata un posto più avanti: al suo posto era stata inserita a mano"
            " un'altra presa",
            "da": "registreret én plads senere: på dets plads var der indtastet et andet stik"
            " manuelt",
        },
    ),
    (
        re.compile(re.escape(REFILED)),
        {
            "es": "movida al primer puesto de la ronda siguiente: la baza siguiente, que abrió"
            " quien la ganó, era la segunda de esa ronda; su puesto aquí es la baza que la"
            " cámara perdió",
            "it": "spostata al primo posto del round seguente: la presa dopo, aperta da chi"
            " l'ha vinta, era la seconda di quel round; il suo posto qui è la presa che la"
            " fotocamera ha perso",
            "da": "flyttet til første plads i næste runde: stikket efter det, spillet ud af den,"
            " der vandt det, var rundens andet; dets plads her er stikket, kameraet mistede",
        },
    ),
    (
        re.compile(re.escape(FOLLOWED_BACK)),
        {
            "es": "devuelta un puesto por la mesa: la cámara la había anotado un puesto tarde,"
            " tomando la última baza de la ronda anterior por la primera de esta",
            "it": "rimessa indietro di un posto dal tavolo: la fotocamera l'aveva registrata un"
            " posto dopo, prendendo l'ultima presa del round precedente per la prima di questo",
            "da": "flyttet en plads tilbage af bordet: kameraet havde registreret det en plads"
            " for sent og taget det sidste stik i runden før for denne rundes første",
        },
    ),
    (
        re.compile(re.escape(MOVED_BACK)),
        {
            "es": "devuelta por la mesa: la cámara la había movido al primer puesto de la ronda"
            " siguiente",
            "it": "rimessa indietro dal tavolo: la fotocamera l'aveva spostata al primo posto"
            " del round seguente",
            "da": "flyttet tilbage af bordet: kameraet havde flyttet det til første plads i"
            " næste runde",
        },
    ),
    (
        re.compile(re.escape(WENT_BACK)),
        {
            "es": "anotada un puesto más atrás: la baza que faltaba, anotada a mano antes de"
            " ella, se quitó mientras la cámara la anotaba",
            "it": "registrata un posto più indietro: la presa mancante inserita a mano prima di"
            " essa è stata tolta mentre la fotocamera la registrava",
            "da": "registreret én plads tidligere: det manglende stik, der var indtastet"
            " manuelt før det, blev fjernet, mens kameraet registrerede det",
        },
    ),
    (
        re.compile(
            r"moved back: the trick entered by hand as round (?P<r>\d+) trick (?P<t>\d+) "
            r"was taken back"
        ),
        {
            "es": "devuelta a su sitio: se quitó la baza anotada a mano como baza {t} de la"
            " ronda {r}",
            "it": "rimessa al suo posto: la presa inserita a mano come presa {t} del round {r}"
            " è stata tolta",
            "da": "flyttet tilbage: stikket, der blev indtastet manuelt som stik {t} i runde"
            " {r}, er fjernet igen",
        },
    ),
    (
        re.compile(
            r"imported unfinished while game (?P<n>\d+) was in progress; kept as finished so "
            r"that game stays on the TV and the camera"
        ),
        {
            "es": "importada sin terminar mientras se jugaba la partida {n}; se guarda como"
            " terminada para que esa partida siga en la TV y en la cámara",
            "it": "importata non finita mentre era in corso la partita {n}; tenuta come finita"
            " perché quella partita resti sulla TV e sulla fotocamera",
            "da": "importeret ufærdigt, mens spil {n} var i gang; gemt som færdigt, så det spil"
            " bliver på tv'et og kameraet",
        },
    ),
    (
        re.compile(r"completed by hand"),
        {"es": "completada a mano", "it": "completata a mano", "da": "fuldført manuelt"},
    ),
    (
        re.compile(r"prompt (?P<n>\d+)"),
        {"es": "pregunta {n}", "it": "domanda {n}", "da": "spørgsmål {n}"},
    ),
    (
        re.compile(r"more cards than players: (?P<k>\d+) cards \(ignored: (?P<cards>.+)\)"),
        {
            "es": "más cartas que jugadores: {k} cartas (no se cuentan: {cards})",
            "it": "più carte che giocatori: {k} carte (ignorate: {cards})",
            "da": "flere kort end spillere: {k} kort (set bort fra: {cards})",
        },
    ),
    (
        LED_UNEXPECTEDLY,
        {
            "es": "salió {first}, pero la partida esperaba que saliera {leader}",
            "it": "ha guidato {first}, ma la partita si aspettava che guidasse {leader}",
            "da": "{first} spillede ud, men efter spillet skulle {leader} have spillet ud",
        },
    ),
    (
        re.compile(
            r"play order and seats disagree: cards arrived from (?P<arrived>.+), clockwise "
            r"from (?P<leader>.+) the order is (?P<order>.+); plays follow the seats"
        ),
        {
            "es": "el orden de juego y los asientos no coinciden: las cartas llegaron de"
            " {arrived}; en sentido horario desde {leader} el orden es {order}; las jugadas"
            " siguen los asientos",
            "it": "ordine di gioco e posti non coincidono: le carte sono arrivate da {arrived};"
            " in senso orario da {leader} l'ordine è {order}; le giocate seguono i posti",
            "da": "spilleorden og pladser passer ikke: kortene kom fra {arrived}; med uret fra"
            " {leader} er rækkefølgen {order}; kortene følger pladserne",
        },
    ),
    (
        re.compile(
            r"the cards' seats \((?P<seats>.+)\) do not name every player once; plays follow "
            r"the arrival order"
        ),
        {
            "es": "los asientos de las cartas ({seats}) no nombran a cada jugador una vez; las"
            " jugadas siguen el orden de llegada",
            "it": "i posti delle carte ({seats}) non nominano ogni giocatore una volta; le"
            " giocate seguono l'ordine di arrivo",
            "da": "kortenes pladser ({seats}) nævner ikke hver spiller én gang; kortene"
            " følger ankomstrækkefølgen",
        },
    ),
    (
        re.compile(r"(?P<card>pirate-[a-z]+) ability: ask the table \(recorded as no change\)"),
        {
            "es": "habilidad de {card}: pregunta a la mesa (grabada sin cambio)",
            "it": "abilità di {card}: chiedi al tavolo (registrata senza modifica)",
            "da": "{card:gen} evne: spørg bordet (registreret som ingen ændring)",
        },
    ),
    (
        re.compile(r"cannot resolve: play (?P<n>\d+) \((?P<card>[a-z0-9:-]+)\): (?P<why>.+)"),
        {
            "es": "no se puede resolver: jugada {n} ({card}): {why}",
            "it": "impossibile risolvere: giocata {n} ({card}): {why}",
            "da": "kan ikke afgøres: kort {n} ({card}): {why}",
        },
    ),
    (
        re.compile(r"cannot resolve: play (?P<n>\d+): (?P<why>.+)"),
        {
            "es": "no se puede resolver: jugada {n}: {why}",
            "it": "impossibile risolvere: giocata {n}: {why}",
            "da": "kan ikke afgøres: kort {n}: {why}",
        },
    ),
    (
        re.compile(r"cannot resolve: (?P<why>.+)"),
        {
            "es": "no se puede resolver: {why}",
            "it": "impossibile risolvere: {why}",
            "da": "kan ikke afgøres: {why}",
        },
    ),
]

_CARD_GROUPS = ("card", "alt")

#: The rules engine's own sentences a flag carries: a warning the referee copied into the
#: flags, or (as ``why``) the reason a trick could not be resolved. They are matched against
#: the engine's English templates and worded again from the same phrase
#: (``explain_i18n``), so none is translated twice.
_RULES_KEYS = (
    "setting_off",
    "trick_size",
    "too_many_escapes",
    "too_many_loot",
    "too_many_pirates",
    "too_many_mermaids",
    "already_in_trick",
    "too_many_in_round",
    "tigress_undeclared",
)


def _template_pattern(template: str) -> re.Pattern[str]:
    """An English template as a pattern, each ``{field}`` a named group."""
    parts = []
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name:
            parts.append(f"(?P<{name}>.+?)")
    return re.compile("".join(parts))


_RULES_PATTERNS = [(key, _template_pattern(ENGLISH[key])) for key in _RULES_KEYS]


def _rules_value(name: str, text: str) -> Arg:
    """A field of a rules sentence back as the value the engine wrote: a setting by its key
    (English quotes it), a number, or a card id."""
    if name == "setting":
        return SettingName(text.strip("'"))
    if text.isdigit():
        return int(text)
    try:
        return CardId(parse_card(text))
    except RulesError:
        return text


def rules_sentence(text: str, lang: str) -> str | None:
    """``text``, one of the rules engine's sentences in English, in ``lang``; None for any
    other text."""
    for key, pattern in _RULES_PATTERNS:
        match = pattern.fullmatch(text)
        if match is not None:
            args = {name: _rules_value(name, value) for name, value in match.groupdict().items()}
            return explain_i18n.explain([Phrase(key, args)], lang)
    return None


def _named_in_english(match: re.Match[str]) -> str:
    """The English flag as written, its card ids as the page names cards ("Parrot 9 read with
    low confidence", beside a plays table that says Parrot 9, not green-9), the rules
    engine's reason in it too ("cannot resolve: play 2 (Parrot 5): Parrot 5 is already in
    this trick", not "green-5 is already")."""
    flag = match.string
    spans = []
    for group in (*_CARD_GROUPS, "cards"):
        if match.groupdict().get(group) is not None:
            start, end = match.span(group)
            ids = flag[start:end].split(",") if group == "cards" else [flag[start:end]]
            spans.append((start, end, ", ".join(card_name(c.strip(), "en") for c in ids)))
    if match.groupdict().get("why") is not None:  # the rules engine's reason, cards named too
        start, end = match.span("why")
        spans.append((start, end, rules_sentence(flag[start:end], "en") or flag[start:end]))
    for start, end, names in sorted(spans, reverse=True):
        flag = flag[:start] + names + flag[end:]
    return flag


def flag_text(flag: str, lang: str) -> str:
    """``flag`` in ``lang``: the camera's sentence said again, its card ids as card names."""
    if lang == "en":
        match = next((m for p, _ in FLAGS if (m := p.fullmatch(flag)) is not None), None)
        if match is None:  # a rules warning the referee copied names its cards too
            return rules_sentence(flag, "en") or flag
        return _named_in_english(match)
    for pattern, wordings in FLAGS:
        match = pattern.fullmatch(flag)
        if match is None or lang not in wordings:
            continue
        fields = dict(match.groupdict())
        for group in _CARD_GROUPS:
            if group in fields:
                fields[group] = i18n.card_in_text(fields[group], lang)
        if "cards" in fields:
            fields["cards"] = ", ".join(
                i18n.card_in_text(c.strip(), lang) for c in fields["cards"].split(",")
            )
        if "why" in fields:
            fields["why"] = rules_sentence(fields["why"], lang) or fields["why"]
        if "p" in fields:
            fields["p"] = number_in(fields["p"], lang)
        counts = {"k": int(fields["k"])} if "k" in fields else {}
        return fill(wordings[lang], explain_i18n.wording(lang), **{**fields, **counts})
    return rules_sentence(flag, lang) or flag
