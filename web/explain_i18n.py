"""A trick's explanation in Spanish, Italian and Danish, for the replay page of a rule dispute.

The rules engine gives the explanation as phrases (``rules.explain``) and words them in
English; this is the same table in the other three languages, naming cards as the UI does
(``i18n.card_name``) and settings by their labels on the settings page. A player settling a
dispute reads why the trick went that way in the language of the table, and the English
``--json`` output stays word for word what other programs rely on.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from skullcam.rules import (
    CARD_IDS,
    Card,
    IllegalPlayError,
    Kind,
    RulesError,
    TrickResult,
    parse_card,
)
from skullcam.rules.explain import (
    ENGLISH,
    ENGLISH_WORDING,
    Phrase,
    Wording,
    phrases_from_json,
    render,
)

from . import i18n

TEMPLATES: dict[str, dict[str, str]] = {
    "es": {
        "kraken_meets_whale": (
            "Se encuentran {first} y {second}: vale la que se jugó en segundo lugar,"
            " {second}, y {first} cuenta como una Huida. "
        ),
        "kraken": "El Kraken destruye la baza: nadie la gana; sus cartas y bonus se pierden.",
        "kraken_left_leads": (
            " {player:cap}, a la izquierda de quien jugó el Kraken, sale en la siguiente."
        ),
        "kraken_would_have_won": " {who:cap} la habría ganado y sale en la siguiente.",
        "kraken_alone": (
            " No queda ninguna otra carta que hubiera podido ganarla: {player} vuelve a salir."
        ),
        "whale": "La Ballena Blanca quita su poder a todas las cartas especiales",
        "whale_discarded": (
            "; solo se jugaron cartas especiales, así que la baza se descarta y {player},"
            " que jugó la Ballena Blanca, sale en la siguiente."
        ),
        "whale_highest": ": gana {who}, el número más alto, sea cual sea su palo",
        "whale_tied": " (empate a {rank}: gana el primero que se jugó).",
        "full_stop": ".",
        "mermaid_over_all": (
            "Gana {who}: cuando coinciden un Pirata, el Skull King y una Sirena, gana la Sirena"
        ),
        "mermaid_captures_skull_king": (
            "{who:cap} captura al Skull King: una Sirena vence al Skull King"
        ),
        "skull_king": (
            "Gana {who}: el Skull King vence a todos los Piratas y a todas las cartas numeradas"
        ),
        "pirate": (
            "Gana {who}: un Pirata vence a todas las cartas numeradas y a todas las Sirenas"
        ),
        "mermaid": "Gana {who}: una Sirena vence a todas las cartas numeradas",
        "trump": (
            "Gana {who}: el negro (Jolly Roger) es triunfo y esta es la carta negra más alta"
        ),
        "suit_led": "Gana {who}: la carta más alta del palo de salida ({suit})",
        "only_escapes": (
            "Gana {who}: solo se jugaron Huidas, así que gana la primera carta jugada"
        ),
        "only_escapes_and_loot": (
            "Gana {who}: solo se jugaron Huidas y Botines, así que gana la primera carta jugada"
        ),
        "first_pirate_wins": "; entre varios Piratas gana el primero que se jugó",
        "first_mermaid_wins": "; entre las Sirenas gana la primera que se jugó",
        "no_bonus_scoring": " Sin bonus por capturas: se puntúa sin bonus.",
        "bonus_start": " ",
        "bonus_separator": "; ",
        "bonus_fourteen": "+{points} por {card}",
        "bonus_capture": "+{points} por capturar a {card}",
        "bonus_end": " (si se cumple la apuesta).",
        "bonus_end_kept": " (se cobra se cumpla o no la apuesta).",
        "bonus_end_rascal": (
            " (entero si se cumple la apuesta; la mitad si se falla por una, salvo con bala de"
            " cañón)."
        ),
        "pirate_does_not_count": " Capturar al Pirata no da bonus.",
        "pirates_do_not_count": " Capturar a los Piratas no da bonus.",
        "loot_alliance": (
            " Alianza del Botín: {loot_player} y {winner_player}"
            " (+{points} cada uno si los dos cumplen su apuesta)."
        ),
        "trick_size": "una baza tiene una carta por jugador, de {low} a {high}; hay {count}",
        "too_many_escapes": "una Huida de más en esta baza (la baraja tiene {count})",
        "too_many_loot": "un Botín de más en esta baza (la baraja tiene {count})",
        "too_many_pirates": "un Pirata de más en esta baza (la baraja tiene {count})",
        "too_many_mermaids": "una Sirena de más en esta baza (la baraja tiene {count})",
        "already_in_trick": "{face} ya está en esta baza (la baraja tiene una)",
        "tigress_undeclared": ("hay que decir cómo se juega la Tigresa: como Pirata o como Huida"),
        "at_play": "ronda {round}, baza {trick}, jugada {play}: ",
        "at_play_by": "ronda {round}, baza {trick}, jugada {play} ({player}): ",
        "played_twice_in_round": (
            "{card} ya se jugó en esta ronda, en la baza {first_trick} por {first_player} (cada"
            " carta se juega una sola vez por ronda)"
        ),
        "too_many_in_round": (
            "{card}: una más de las que tiene la baraja en esta ronda (tiene {count})"
        ),
        "setting_off": (
            "se jugó {card}, pero el ajuste {setting} está desactivado: se resolvió igualmente"
            " con su regla; revisa la carta o activa el ajuste"
        ),
        # Why a game's score stopped (a record the rules refuse, a missing bid).
        "at_round": "ronda {round}: ",
        "at_trick": "ronda {round}, baza {trick}: ",
        "at_ability": "ronda {round}, «abilities[{index}]»: ",
        "record_bad_value": "el valor de «{key}» no es válido",
        "record_unknown_key": "la clave «{key}» no existe en un registro de partida",
        "record_not_object": "no es un objeto JSON",
        "setting_unknown": "«{key}» en «settings» no es ningún ajuste",
        "setting_not_bool": "el ajuste «{key}» debe ser true o false",
        "setting_not_whole": "el ajuste «{key}» debe ser un número entero de {low} a {high}",
        "setting_outside_range": "el ajuste «{key}» va de {low} a {high}; se recibió {value}",
        "setting_not_choice": "el ajuste «{key}» debe ser uno de estos: {choices}",
        "extra_round_off": (
            "la partida tiene {rounds} {rounds:ronda|rondas} (ajuste {setting}); solo se juega una"
            " ronda más en caso de empate, con el ajuste «En caso de empate: una ronda más»"
        ),
        "bid_out_of_range": (
            "la apuesta {bid} de {player} está fuera de rango: las apuestas van de 0 a {dealt}"
            " con {dealt} {dealt:carta repartida|cartas repartidas}"
        ),
        "too_many_tricks": (
            "hay {count} bazas grabadas, pero con {dealt}"
            " {dealt:carta repartida|cartas repartidas} solo se {dealt:puede|pueden} jugar {dealt}"
        ),
        "round_unfinished": (
            "solo hay {count} de {dealt} {dealt:baza grabada|bazas grabadas}; solo la última"
            " ronda de una partida puede quedar sin terminar"
        ),
        "plays_per_trick": (
            "{count} {count:jugada|jugadas}; tiene que haber una por jugador ({players})"
        ),
        "out_of_turn": "{player} jugó fuera de turno; le tocaba a {due}",
        "out_of_turn_leader": " ({leader} sale en esta baza)",
        "ability_twice": "la baza {trick} ya tiene una habilidad",
        "ability_past_tricks": (
            "una habilidad nombra la baza {trick}, pero la ronda solo tiene {count}"
            " {count:baza grabada|bazas grabadas} (las bazas se cuentan desde 0)"
        ),
        "ability_not_won": (
            "hay grabada una habilidad de {pirate}, pero ese Pirata no ganó esta baza"
        ),
        "rosie_choice": "la elección de Rosie tiene que ser un jugador de 0 a {last}, no {choice}",
        "rosie_last_trick": (
            "Rosie ganó la última baza de la ronda {round}: la siguiente ronda la empieza el"
            " vecino de quien reparte, así que no hay nada que elegir"
        ),
        "harry_bid_out_of_range": (
            "Harry no puede llevar la apuesta de {player} a {bid} (las apuestas van de 0 a {dealt})"
        ),
        "missing_bid_before_tricks": (
            "en la ronda {round} falta la apuesta de {players}, pero la ronda {later} tiene"
            " bazas grabadas; anota la apuesta que falta de la ronda {round} para puntuar las"
            " rondas siguientes"
        ),
        "missing_bid_all_tricks": (
            "la ronda {round} tiene todas sus bazas grabadas, pero falta la apuesta de"
            " {players}; anota la apuesta que falta de la ronda {round} para puntuarla"
        ),
        "trick_short": (
            "solo se {cards:grabó|grabaron} {cards} de {players} cartas; añade la carta que"
            " falta en la página de la baza"
        ),
        # What the score warns about (each after "ronda N: ", but the tie).
        "scored_as_played": (
            "baza {trick}: salió {player}, pero según las reglas sale {leader}; se puntúa tal"
            " como se jugó"
        ),
        "trick_missing": "la baza {trick} no está grabada: anótala a mano",
        "abilities_setting_off": (
            "hay habilidades de Piratas grabadas, pero el ajuste {setting} está desactivado:"
            " no se tienen en cuenta"
        ),
        "cannonball_ignored": (
            "las balas de cañón anunciadas no cuentan fuera de la «Puntuación de Rascal»"
        ),
        "rosie_last_trick_ignored": (
            "la elección de Rosie grabada en la última baza de la ronda no cuenta: la siguiente"
            " ronda la empieza el vecino de quien reparte"
        ),
        "tie_one_more_round": (
            "hay empate en cabeza tras la última ronda: toca jugar una ronda más"
            " (ajuste «En caso de empate: una ronda más»)"
        ),
        "tie_break_not_due": (
            "no hay empate en cabeza tras la ronda {last}, así que la ronda {round}, jugada"
            " para desempatar, no cuenta"
        ),
    },
    "it": {
        "kraken_meets_whale": (
            "Si incontrano {first} e {second}: ha effetto quella giocata per seconda,"
            " {second}, e {first} vale come una Fuga. "
        ),
        "kraken": (
            "Il Kraken distrugge la presa: nessuno la vince; le sue carte e i bonus vanno persi."
        ),
        "kraken_left_leads": (
            " {player:cap}, a sinistra di chi ha giocato il Kraken, guida la prossima presa."
        ),
        "kraken_would_have_won": " {who:cap} l'avrebbe vinta e guida la prossima presa.",
        "kraken_alone": (
            " Non resta nessun'altra carta che avrebbe potuto vincerla: {player} guida di nuovo."
        ),
        "whale": "La Balena Bianca toglie il potere a tutte le carte speciali",
        "whale_discarded": (
            "; sono state giocate solo carte speciali, quindi la presa viene scartata e"
            " {player}, che ha giocato la Balena Bianca, guida la prossima presa."
        ),
        "whale_highest": ": vince {who}, il numero più alto, qualunque sia il seme",
        "whale_tied": " (pari merito al numero {rank}: vince il primo giocato).",
        "full_stop": ".",
        "mermaid_over_all": (
            "Vince {who}: quando si incontrano un Pirata, il Re dei Teschi e una Sirena,"
            " vince la Sirena"
        ),
        "mermaid_captures_skull_king": (
            "{who:cap} cattura il Re dei Teschi: una Sirena batte il Re dei Teschi"
        ),
        "skull_king": (
            "Vince {who}: il Re dei Teschi batte tutti i Pirati e tutte le carte numerate"
        ),
        "pirate": "Vince {who}: un Pirata batte tutte le carte numerate e tutte le Sirene",
        "mermaid": "Vince {who}: una Sirena batte tutte le carte numerate",
        "trump": (
            "Vince {who}: il nero (Jolly Roger) è il seme superiore e questa è la carta nera"
            " più alta"
        ),
        "suit_led": "Vince {who}: la carta più alta del seme da seguire ({suit})",
        "only_escapes": (
            "Vince {who}: sono state giocate solo Fughe, quindi vince la prima carta giocata"
        ),
        "only_escapes_and_loot": (
            "Vince {who}: sono state giocate solo Fughe e Bottini, quindi vince la prima carta"
            " giocata"
        ),
        "first_pirate_wins": "; tra più Pirati vince il primo giocato",
        "first_mermaid_wins": "; tra le Sirene vince la prima giocata",
        "no_bonus_scoring": " Nessun bonus di cattura: il punteggio è senza bonus.",
        "bonus_start": " ",
        "bonus_separator": "; ",
        "bonus_fourteen": "+{points} per {card}",
        "bonus_capture": "+{points} per aver catturato {card}",
        "bonus_end": " (se la puntata è esatta).",
        "bonus_end_kept": " (pagato che la puntata sia esatta o no).",
        "bonus_end_rascal": (
            " (intero se la puntata è esatta; la metà se sbagliata di uno, salvo con la palla di"
            " cannone)."
        ),
        "pirate_does_not_count": " Catturare il Pirata non dà bonus.",
        "pirates_do_not_count": " Catturare i Pirati non dà bonus.",
        "loot_alliance": (
            " Alleanza del Bottino: {loot_player} e {winner_player}"
            " (+{points} ciascuno se entrambe le puntate sono esatte)."
        ),
        "trick_size": "una presa ha una carta per giocatore, da {low} a {high}; ce ne sono {count}",
        "too_many_escapes": "una Fuga di troppo in questa presa (il mazzo ne ha {count})",
        "too_many_loot": "un Bottino di troppo in questa presa (il mazzo ne ha {count})",
        "too_many_pirates": "un Pirata di troppo in questa presa (il mazzo ne ha {count})",
        "too_many_mermaids": "una Sirena di troppo in questa presa (il mazzo ne ha {count})",
        "already_in_trick": "{face} è già in questa presa (il mazzo ne ha una)",
        "tigress_undeclared": "bisogna dire come si gioca la Tigre: come Pirata o come Fuga",
        "at_play": "round {round}, presa {trick}, giocata {play}: ",
        "at_play_by": "round {round}, presa {trick}, giocata {play} ({player}): ",
        "played_twice_in_round": (
            "la carta {card} è già stata giocata in questo round, nella presa {first_trick} da"
            " {first_player} (ogni carta si gioca una sola volta per round)"
        ),
        "too_many_in_round": (
            "{card}: una in più di quelle che il mazzo ha in questo round (ne ha {count})"
        ),
        "setting_off": (
            "è stata giocata la carta {card}, ma l'impostazione {setting} è disattivata: risolta"
            " comunque con la sua regola; controlla la carta o attiva l'impostazione"
        ),
        # Why a game's score stopped (a record the rules refuse, a missing bid).
        "at_round": "round {round}: ",
        "at_trick": "round {round}, presa {trick}: ",
        "at_ability": "round {round}, «abilities[{index}]»: ",
        "record_bad_value": "il valore di «{key}» non è valido",
        "record_unknown_key": "la chiave «{key}» non esiste in un registro di partita",
        "record_not_object": "non è un oggetto JSON",
        "setting_unknown": "«{key}» in «settings» non è un'impostazione",
        "setting_not_bool": "l'impostazione «{key}» deve essere true o false",
        "setting_not_whole": (
            "l'impostazione «{key}» deve essere un numero intero da {low} a {high}"
        ),
        "setting_outside_range": "l'impostazione «{key}» va da {low} a {high}; ricevuto {value}",
        "setting_not_choice": "l'impostazione «{key}» deve essere uno di questi: {choices}",
        "extra_round_off": (
            "la partita ha {rounds} round (impostazione {setting}); si gioca un round in più"
            " solo in caso di parità, con l'impostazione «In caso di parità: un round in più»"
        ),
        "bid_out_of_range": (
            "la puntata {bid} di {player} non è valida: le puntate vanno da 0 a {dealt} con"
            " {dealt} {dealt:carta distribuita|carte distribuite}"
        ),
        "too_many_tricks": (
            "{count} prese registrate, ma con {dealt} {dealt:carta distribuita|carte distribuite}"
            " se ne {dealt:può|possono} giocare solo {dealt}"
        ),
        "round_unfinished": (
            "solo {count} {count:presa|prese} su {dealt} {count:registrata|registrate}; solo"
            " l'ultimo round di una partita può restare incompleto"
        ),
        "plays_per_trick": (
            "{count} {count:giocata|giocate}, ne serve una per giocatore ({players})"
        ),
        "out_of_turn": "{player} ha giocato fuori turno; toccava a {due}",
        "out_of_turn_leader": " ({leader} guida questa presa)",
        "ability_twice": "la presa {trick} ha già un'abilità",
        "ability_past_tricks": (
            "un'abilità indica la presa {trick}, ma il round ha solo {count}"
            " {count:presa registrata|prese registrate} (le prese si contano da 0)"
        ),
        "ability_not_won": (
            "è registrata un'abilità di {pirate}, ma quel Pirata non ha vinto questa presa"
        ),
        "rosie_choice": "la scelta di Rosie deve essere un giocatore da 0 a {last}, non {choice}",
        "rosie_last_trick": (
            "Rosie ha vinto l'ultima presa del round {round}: la prima presa del round"
            " successivo la guida il vicino del mazziere, quindi non c'è niente da scegliere"
        ),
        "harry_bid_out_of_range": (
            "Harry non può portare la puntata di {player} a {bid} (le puntate vanno da 0 a {dealt})"
        ),
        "missing_bid_before_tricks": (
            "nel round {round} manca la puntata di {players}, ma il round {later} ha prese"
            " registrate; inserisci la puntata mancante del round {round} per calcolare i"
            " punti dei round successivi"
        ),
        "missing_bid_all_tricks": (
            "il round {round} ha tutte le prese registrate, ma manca la puntata di {players};"
            " inserisci la puntata mancante del round {round} per calcolarne i punti"
        ),
        "trick_short": (
            "{cards:è stata registrata|sono state registrate} solo {cards} {cards:carta|carte}"
            " su {players}; aggiungi la carta che manca nella pagina della presa"
        ),
        # What the score warns about (each after "round N: ", but the tie).
        "scored_as_played": (
            "presa {trick}: ha guidato {player}, ma secondo le regole guida {leader}; conteggiata"
            " così come è stata giocata"
        ),
        "trick_missing": "la presa {trick} non è registrata: inseriscila a mano",
        "abilities_setting_off": (
            "ci sono abilità dei Pirati registrate, ma l'impostazione {setting} è disattivata:"
            " non vengono considerate"
        ),
        "cannonball_ignored": (
            "le palle di cannone dichiarate non contano fuori dal «Punteggio del Furfante»"
        ),
        "rosie_last_trick_ignored": (
            "la scelta di Rosie registrata sull'ultima presa del round non conta: la prima"
            " presa del round successivo la guida il vicino del mazziere"
        ),
        "tie_one_more_round": (
            "c'è parità in testa dopo l'ultimo round: si gioca un round in più"
            " (impostazione «In caso di parità: un round in più»)"
        ),
        "tie_break_not_due": (
            "non c'è parità in testa dopo il round {last}, quindi il round {round}, giocato"
            " per lo spareggio, non conta"
        ),
    },
    "da": {
        "kraken_meets_whale": (
            "{first:cap} og {second} mødes: det af de to, der blev spillet sidst, {second},"
            " virker, og {first} tæller som et flugtkort. "
        ),
        "kraken": "Kraken ødelægger stikket: ingen vinder det; dets kort og bonusser går tabt.",
        "kraken_left_leads": (
            " {player:cap}, til venstre for den, der spillede Kraken, spiller ud næste gang."
        ),
        "kraken_would_have_won": " {who:cap} ville have vundet det og spiller ud næste gang.",
        "kraken_alone": (
            " Der er intet andet kort tilbage, der kunne have vundet det: {player} spiller ud igen."
        ),
        "whale": "Den Hvide Hval fratager alle specialkort deres kraft",
        "whale_discarded": (
            "; der blev kun spillet specialkort, så stikket kasseres, og {player}, der"
            " spillede Den Hvide Hval, spiller ud næste gang."
        ),
        "whale_highest": ": {who} vinder som det højeste tal, uanset farve",
        "whale_tied": " (det først spillede af de lige høje {rank}'ere).",
        "full_stop": ".",
        "mermaid_over_all": (
            "{who:cap} vinder: når en pirat, Skull King og en havfrue mødes, vinder havfruen"
        ),
        "mermaid_captures_skull_king": "{who:cap} fanger Skull King: en havfrue slår Skull King",
        "skull_king": "{who:cap} vinder: Skull King slår alle pirater og alle talkort",
        "pirate": "{who:cap} vinder: en pirat slår alle talkort og alle havfruer",
        "mermaid": "{who:cap} vinder: en havfrue slår alle talkort",
        "trump": (
            "{who:cap} vinder: sort (Jolly Roger) er trumf, og dette er det højeste sorte kort"
        ),
        "suit_led": "{who:cap} vinder: det højeste kort i den udspillede farve ({suit})",
        "only_escapes": (
            "{who:cap} vinder: der blev kun spillet flugtkort, så det først spillede kort vinder"
        ),
        "only_escapes_and_loot": (
            "{who:cap} vinder: der blev kun spillet flugtkort og byttekort, så det først spillede"
            " kort vinder"
        ),
        "first_pirate_wins": "; blandt flere pirater vinder den først spillede",
        "first_mermaid_wins": "; blandt havfruerne vinder den først spillede",
        "no_bonus_scoring": " Ingen fangstbonus: der tælles uden bonusser.",
        "bonus_start": " ",
        "bonus_separator": "; ",
        "bonus_fourteen": "+{points} for {card}",
        "bonus_capture": "+{points} for at fange {card}",
        "bonus_end": " (hvis buddet holder).",
        "bonus_end_kept": " (betales, uanset om buddet holder).",
        "bonus_end_rascal": (
            " (det hele, hvis buddet holder; det halve, hvis det er én ved siden af, medmindre"
            " der er meldt kanonkugle)."
        ),
        "pirate_does_not_count": " Fangsten af piraten giver ingen bonus.",
        "pirates_do_not_count": " Fangsten af piraterne giver ingen bonus.",
        "loot_alliance": (
            " Byttealliance: {loot_player} og {winner_player}"
            " (+{points} hver, hvis begges bud holder)."
        ),
        "trick_size": "et stik har ét kort pr. spiller, {low} til {high}; her er {count}",
        "too_many_escapes": "ét flugtkort for meget i dette stik (bunken har {count})",
        "too_many_loot": "ét byttekort for meget i dette stik (bunken har {count})",
        "too_many_pirates": "én pirat for meget i dette stik (bunken har {count})",
        "too_many_mermaids": "én havfrue for meget i dette stik (bunken har {count})",
        "already_in_trick": "{face:cap} er allerede i dette stik (bunken har kun ét)",
        "tigress_undeclared": "Tigress skal meldes: som pirat eller som flugtkort",
        "at_play": "runde {round}, stik {trick}, kort {play}: ",
        "at_play_by": "runde {round}, stik {trick}, kort {play} ({player}): ",
        "played_twice_in_round": (
            "{card:cap} er allerede spillet i denne runde, i stik {first_trick} af {first_player}"
            " (hvert kort spilles kun én gang pr. runde)"
        ),
        "too_many_in_round": (
            "{card:cap}: ét kort mere end bunken har i denne runde (den har {count})"
        ),
        "setting_off": (
            "{card:cap} blev spillet, men indstillingen {setting} er slået fra: afgjort efter"
            " kortets regel alligevel; tjek kortet eller slå indstillingen til"
        ),
        # Why a game's score stopped (a record the rules refuse, a missing bid).
        "at_round": "runde {round}: ",
        "at_trick": "runde {round}, stik {trick}: ",
        "at_ability": "runde {round}, »abilities[{index}]«: ",
        "record_bad_value": "værdien af »{key}« er ugyldig",
        "record_unknown_key": "nøglen »{key}« findes ikke i en spilregistrering",
        "record_not_object": "det er ikke et JSON-objekt",
        "setting_unknown": "»{key}« i »settings« er ikke en indstilling",
        "setting_not_bool": "indstillingen »{key}« skal være true eller false",
        "setting_not_whole": "indstillingen »{key}« skal være et helt tal fra {low} til {high}",
        "setting_outside_range": "indstillingen »{key}« går fra {low} til {high}; ikke {value}",
        "setting_not_choice": "indstillingen »{key}« skal være en af disse: {choices}",
        "extra_round_off": (
            "spillet har {rounds} {rounds:runde|runder} (indstillingen {setting}); en ekstra runde"
            " spilles kun ved uafgjort med indstillingen »Ved uafgjort: en runde mere«"
        ),
        "bid_out_of_range": (
            "buddet {bid} fra {player} er ikke tilladt: bud er 0 til {dealt}, når der er"
            " givet {dealt} kort"
        ),
        "too_many_tricks": (
            "{count} stik registreret, men der kan kun spilles {dealt}, når der er givet"
            " {dealt} kort"
        ),
        "round_unfinished": (
            "kun {count} af {dealt} stik registreret; kun den sidste runde i et spil må være"
            " ufærdig"
        ),
        "plays_per_trick": "{count} kort spillet; der skal være ét pr. spiller ({players})",
        "out_of_turn": "{player} spillede uden for tur; det var {due}, der skulle spille",
        "out_of_turn_leader": " ({leader} spiller ud i dette stik)",
        "ability_twice": "stik {trick} har allerede en evne",
        "ability_past_tricks": (
            "en evne nævner stik {trick}, men runden har kun {count} stik registreret (stik"
            " tælles fra 0)"
        ),
        "ability_not_won": (
            "der er registreret en evne for {pirate}, men den pirat vandt ikke dette stik"
        ),
        "rosie_choice": "Rosies valg skal være en spiller fra 0 til {last}, ikke {choice}",
        "rosie_last_trick": (
            "Rosie vandt sidste stik i runde {round}: næste runde spilles ud af giverens"
            " nabo, så der er intet at vælge"
        ),
        "harry_bid_out_of_range": (
            "Harry kan ikke ændre {player:gen} bud til {bid} (bud er 0 til {dealt})"
        ),
        "missing_bid_before_tricks": (
            "runde {round} mangler bud fra {players}, men runde {later} har registrerede stik;"
            " indtast det manglende bud for runde {round} for at regne runderne efter den ud"
        ),
        "missing_bid_all_tricks": (
            "runde {round} har alle sine stik registreret, men mangler bud fra {players};"
            " indtast det manglende bud for runde {round} for at regne den ud"
        ),
        "trick_short": (
            "kun {cards} af {players} kort blev registreret; tilføj det manglende kort på"
            " stikkets side"
        ),
        # What the score warns about (each after "runde N: ", but the tie).
        "scored_as_played": (
            "stik {trick}: {player} spillede ud, men efter reglerne skal {leader} spille ud;"
            " stikket tæller, som det blev spillet"
        ),
        "trick_missing": "stik {trick} er ikke optaget: indtast det manuelt",
        "abilities_setting_off": (
            "der er registreret piratevner, men indstillingen {setting} er slået fra: de tælles"
            " ikke med"
        ),
        "cannonball_ignored": "meldte kanonkugler tæller ikke uden for »Rascal scoring«",
        "rosie_last_trick_ignored": (
            "Rosies valg registreret på rundens sidste stik tæller ikke: næste runde spilles ud"
            " af giverens nabo"
        ),
        "tie_one_more_round": (
            "der er uafgjort om førstepladsen efter sidste runde: spil en runde mere"
            " (indstillingen »Ved uafgjort: en runde mere«)"
        ),
        "tie_break_not_due": (
            "der er ikke uafgjort om førstepladsen efter runde {last}, så runde {round},"
            " spillet for at afgøre stillingen, tæller ikke"
        ),
    },
}


#: The English templates the pages word otherwise than ``skullcam trick``: there the Tigress
#: is declared with the page's "as a pirate" and "as an escape", not by writing an id.
ENGLISH_ON_PAGES = {
    "tigress_undeclared": "the Tigress must be declared: as a pirate or as an escape",
}

#: The quotation marks a setting's label stands in: Danish writes »Antal runder« (as the
#: Danish score sheet in the user's rules does), Spanish and Italian «...», English “...”.
QUOTES = {"en": ("\u201c", "\u201d"), "da": ("\u00bb", "\u00ab")}


def _quoted(label: str, lang: str) -> str:
    opening, closing = QUOTES.get(lang, ("\u00ab", "\u00bb"))
    return f"{opening}{label}{closing}"


#: How a language writes a name's genitive where its templates say ``{player:gen}`` (here
#: and in ``refusal_i18n``, ``flag_i18n``): Danish "Anas bud" but "Lars' bud", not "Larss".
#: Spanish and Italian say "de Ana" and use none.
GENITIVES: dict[str, Callable[[str], str]] = {"da": i18n.danish_genitive}

#: How a language writes a card's name after a player's genitive (``owned_card``, and the
#: ``{card:owned}`` of the refusals' "{player:gen} {card:owned}"): Danish drops its article,
#: "Anas Hvide Hval", where "Anas Den Hvide Hval" said two. Others write the name as it is.
OWNED_NAMES: dict[str, Callable[[str], str]] = {"da": i18n.danish_owned}


#: Where a language names a player's card with the player's genitive before it (English
#: "Ana's Tigress (pirate) wins", Danish "Anas Tigress (pirat) vinder"), the way the store's
#: refusals say "card 2 is now Ana's Parrot 9". Spanish and Italian say the card with its
#: article and the player after it (:data:`ARTICLES`): "Gana la Tigresa (Pirata) de Ana",
#: "Vince la Tigre (Pirata) di Ana", not "Gana Tigresa (Pirata) (Ana)".
OWNER_FIRST = ("en", "da")

#: The article a card's name takes where Spanish and Italian say whose card it is, by its
#: kind ("el Loro 9 de Cai", "la Sirena de Ana"); a suit, or a card id, that takes another
#: (Italian "la Mappa del Tesoro 9") overrides it. A named pirate is a person's name and takes
#: none ("Gana Harry el Gigante de Ben"), save Italian's Rascal, named by what he is ("il
#: Furfante di Roatán").
ARTICLES: dict[str, dict[Kind | str, str]] = {
    "es": {
        Kind.NUMBER: "el",
        Kind.ESCAPE: "la",
        Kind.PIRATE: "el",
        Kind.TIGRESS: "la",
        Kind.SKULL_KING: "el",
        Kind.MERMAID: "la",
        Kind.LOOT: "el",
        Kind.KRAKEN: "el",
        Kind.WHITE_WHALE: "la",
    },
    "it": {
        Kind.NUMBER: "il",
        "purple": "la",
        Kind.ESCAPE: "la",
        Kind.PIRATE: "il",
        Kind.TIGRESS: "la",
        Kind.SKULL_KING: "il",
        Kind.MERMAID: "la",
        Kind.LOOT: "il",
        Kind.KRAKEN: "il",
        Kind.WHITE_WHALE: "la",
        "pirate-rascal": "il",
    },
}

#: "de Ana", "di Ana": whose card it is, after the card.
_OF = {"es": "de", "it": "di"}


def _article(card: Card, lang: str) -> str:
    """The article ``card``'s name takes in ``lang`` (:data:`ARTICLES`), or "" for none."""
    articles = ARTICLES[lang]
    if str(card) in articles:
        return articles[str(card)]
    if card.kind is Kind.PIRATE and card.name:
        return ""
    if card.suit is not None and card.suit.value in articles:
        return articles[card.suit.value]
    return articles.get(card.kind, "")


def _with_article(card: Card, lang: str, owned: bool = False) -> str:
    """A card named with its article: "+10 por el Loro 14", "+40 per aver catturato il Re
    dei Teschi", "Se encuentran el Kraken y la Ballena Blanca"; an unnamed pirate or mermaid
    with "un", "una" (``i18n.card_in_sentence``), unless ``owned`` (its player named after
    it: "el Pirata de Ana", not "un Pirata de Ana")."""
    if str(card) in i18n.UNNAMED and not owned:
        return i18n.card_in_sentence(str(card), lang)
    name = i18n.card_name(str(card), lang)
    article = _article(card, lang)
    return f"{article} {name}" if article else name


#: Spanish contracts "a el" and "de el" ("+40 por capturar al Skull King"); only these two
#: words and the masculine article, whole words, so "a él" or "a Elena" are left as written.
_SPANISH_CONTRACTIONS = re.compile(r"\b(a|de) el\b")


def _contract(text: str, lang: str) -> str:
    if lang != "es":
        return text
    return _SPANISH_CONTRACTIONS.sub(lambda m: "al" if m.group(1) == "a" else "del", text)


def owned_card(card: Card, player: str, lang: str) -> str:
    """``player``'s ``card`` as ``lang`` says it: "Ana's Tigress (pirate)", "Anas Tigress
    (pirat)", "la Tigresa (Pirata) de Ana", "la Tigre (Pirata) di Ana"."""
    if lang in ARTICLES:
        return f"{_with_article(card, lang, owned=True)} {_OF[lang]} {player}"
    name = OWNED_NAMES.get(lang, ENGLISH_WORDING.owned)(i18n.card_in_text(str(card), lang))
    return f"{GENITIVES.get(lang, ENGLISH_WORDING.genitive)(player)} {name}"


def _english_card(card: Card) -> str:
    """A card named in an English sentence with no player before it: the page's name with its
    article ("+40 for capturing the Skull King", "+10 for the Parrot 14", "the Kraken and the
    White Whale meet"), a named pirate or mermaid by its name ("Harry the Giant"), an
    unnamed one with "a" ("a Pirate")."""
    name = i18n.card_in_sentence(str(card), "en")
    if card.kind in (Kind.PIRATE, Kind.MERMAID):  # "Harry the Giant"; unnamed, "a Pirate"
        return name
    if card.kind in (Kind.ESCAPE, Kind.LOOT):
        return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"
    return f"the {name}"


def bonus_item_text(card_id: str, captured: bool, points: int | str, lang: str) -> str:
    """One item of a trick's bonus note with its card said as the trick's explanation says
    it: "+40 for capturing the Skull King", "+10 por el Mapa del Tesoro 14", "+40 por
    capturar al Skull King", because the note sits right under that explanation, and a card
    named bare there ("+10 por Mapa del Tesoro 14") clashes with the article it gives it."""
    key = "bonus_for_capture" if captured else "bonus_for_card"
    card = wording(lang).card(parse_card(card_id))
    return _contract(i18n.translate(key, lang, points=points, card=card), lang)


#: Every card a bonus can name (a Tigress declared either way, as a trick holds her).
_BONUS_CARDS = [c for c in CARD_IDS if c != "tigress"] + ["tigress:pirate", "tigress:escape"]


@functools.cache
def bonus_items_for_script(lang: str) -> dict[str, list[str]]:
    """:func:`bonus_item_text` of every card, ``[for the card, for capturing it]``, with
    "{points}" left for the TV's script to fill: its banner names a trick's bonus as the
    replay page does, articles and Spanish contractions included, from one wording. The same
    for every TV page in a language: worded once a run (140 items, each a wording built)."""
    return {
        card: [bonus_item_text(card, captured, "{points}", lang) for captured in (False, True)]
        for card in _BONUS_CARDS
    }


@functools.cache
def loot_alliance_for_script(lang: str) -> str:
    """The explanation's "Loot alliance: Eve and Dag (+20 each if both bids are exact)." in
    ``lang`` with "{loot_player}", "{winner_player}" and "{points}" left for the TV's script
    to fill: its banner named a trick's capture bonus and said nothing of the alliance a Loot
    made, which pays the two players as much (a game night with the expansion cards)."""
    blanks = {key: f"{{{key}}}" for key in ("loot_player", "winner_player", "points")}
    return explain([Phrase("loot_alliance", blanks)], lang).strip()


def wording(lang: str) -> Wording:
    """How ``lang`` words an explanation; English is the rules engine's own wording, with a
    card id ("green-8 is already in this trick") said as the page names the card ("Parrot 8")
    and a negative number with the pages' minus sign (``i18n.number_text``)."""
    if lang not in TEMPLATES and lang != "en":
        return ENGLISH_WORDING

    def name(card: Card) -> str:  # the UI's name, wherever English says "the green 7" or an id
        return i18n.card_in_text(str(card), lang)

    genitive = GENITIVES.get(lang, ENGLISH_WORDING.genitive)

    def owned(card: Card, player: str) -> str:  # "Ana's Tigress (pirate)", "el Loro 9 de Cai"
        return owned_card(card, player, lang)

    who = owned if lang in OWNER_FIRST or lang in ARTICLES else None

    def setting(key: str) -> str:  # by its label on the settings page, quoted as lang quotes
        return _quoted(i18n.translate(f"set_{key}", lang), lang)

    if lang == "en":
        # The cards as the page's lists name them ("Jolly Roger 3" beside "the black 3" read
        # as two cards), and a suit so with its colour after it, the colour "black is trump"
        # is said in ("the highest Parrot (green) card" beside "Ben's Parrot 9"); a setting
        # by its label, as the other languages; the Tigress declared with the page's
        # buttons, not by writing tigress:pirate.
        return replace(
            ENGLISH_WORDING,
            templates={**ENGLISH, **ENGLISH_ON_PAGES},
            card=_english_card,
            suit=lambda suit: f"{i18n.suit_name(suit.value, lang)} ({suit.value})",
            card_id=name,
            setting=setting,
            who=who,
            number=i18n.number_text,
        )

    def said(card: Card) -> str:  # "Anas Havfrue" beside a player, "en havfrue" without one
        return i18n.card_in_sentence(str(card), lang)

    return Wording(
        templates=TEMPLATES[lang],
        card=(lambda card: _with_article(card, lang)) if lang in ARTICLES else said,
        suit=lambda suit: i18n.suit_in_text(suit.value, lang),
        card_id=name,
        setting=setting,
        genitive=genitive,
        who=who,
        number=i18n.number_text,
        owned=OWNED_NAMES.get(lang, ENGLISH_WORDING.owned),
    )


def explain(phrases: Iterable[Phrase], lang: str) -> str:
    """The phrases as one text in ``lang``."""
    return _contract(render(phrases, wording(lang)), lang)


def verdict_text(
    verdict: TrickResult | RulesError,
    plays: Sequence[Mapping[str, Any]],
    players: Sequence[str],
    lang: str,
) -> str:
    """Why the trick went as it did, or why no deck could produce it (a misread card, most
    often): the play at fault named by its player and card, as the replay page shows them."""
    if isinstance(verdict, TrickResult):
        return explain(verdict.phrases, lang)
    if not isinstance(verdict, IllegalPlayError) or verdict.phrase is None:
        return str(verdict)
    reason = explain([verdict.phrase], lang)
    if verdict.play is None or not 0 <= verdict.play < len(plays):
        return reason
    play = plays[verdict.play]
    who = players[int(play["player"])]
    # "Ana's Parrot 5: ...", "El Loro 5 de Ana: ...", as the explanation names a winner; was
    # "Ana (Parrot 5): ...", which read "Ana (Tigress (pirate))" for a declared Tigress.
    try:
        owned = owned_card(parse_card(str(play["card"])), who, lang)
    except RulesError:  # an id no deck has: named as it is
        name = i18n.card_name(str(play["card"]), lang)
        genitive = GENITIVES.get(lang, ENGLISH_WORDING.genitive)
        owned = f"{name} {_OF[lang]} {who}" if lang in ARTICLES else f"{genitive(who)} {name}"
    return f"{owned[:1].upper()}{owned[1:]}: {reason}"


#: Where an explanation's sentence on why the trick went as it did ends: after the winner and
#: its rule (``full_stop``, a tie under the White Whale), or the Kraken's or a discarded
#: trick's. What follows (the bonus, who leads next) the TV says on lines of its own.
_WHY_ENDS = frozenset({"full_stop", "whale_tied", "kraken", "whale_discarded"})

#: The White Whale's sentence on the TV, without the winner's card and player (the TV stars
#: the card) nor who leads after a discarded trick (the TV's head says who leads): with them
#: its Italian ran to 195 characters, five lines beside the cards, and was cut at two.
_WHY_TEMPLATES: dict[str, dict[str, str]] = {
    "en": {
        "whale_highest": ": the highest number wins, whatever its suit",
        "whale_discarded": "; only specials were played, so the trick is discarded.",
    },
    "es": {
        "whale_highest": ": gana el número más alto, sea cual sea su palo",
        "whale_discarded": "; solo se jugaron cartas especiales, así que la baza se descarta.",
    },
    "it": {
        "whale_highest": ": vince il numero più alto, qualunque sia il seme",
        "whale_discarded": (
            "; sono state giocate solo carte speciali, quindi la presa viene scartata."
        ),
    },
    "da": {
        "whale_highest": ": det højeste tal vinder, uanset farve",
        "whale_discarded": "; der blev kun spillet specialkort, så stikket kasseres.",
    },
}


def _without_nobody(kraken: str) -> str:
    """The Kraken's sentence without its middle clause, the one that says nobody wins: "The
    Kraken destroys the trick: nobody wins it; its cards and bonuses are lost." gives "The
    Kraken destroys the trick; its cards and bonuses are lost." Under the TV banner's "Nobody
    wins this trick" it read "nobody wins" twice. Derived from the sentence each language
    already has (what the Kraken does, ": ", nobody wins, "; ", what is lost), so no language
    keeps a second copy of it to drift apart; a sentence not so built is kept whole."""
    head, colon, rest = kraken.partition(": ")
    _nobody, semicolon, lost = rest.partition("; ")
    return f"{head}; {lost}" if colon and semicolon else kraken


def why_text(
    verdict: TrickResult | RulesError, lang: str, *, nobody_said: bool = False
) -> str | None:
    """Why the trick's winner won, in one short sentence for the TV, which stars the winner's
    card: the explanation's first sentence without the winner's name, "The Skull King beats
    every pirate and every numbered card." for "Ben's Skull King wins: the Skull King ...".
    The whole explanation was too long to read across the room. A Kraken meeting the White
    Whale opens it with which of them counts: left out, the next sentence says why. No
    player is named (``_WHY_TEMPLATES``). None for a trick that cannot be resolved (the
    score's error line says why). ``nobody_said``: the line goes under a head that already
    says nobody wins (the TV's banner), so the Kraken's sentence leaves its own "nobody wins
    it" out (:func:`_without_nobody`)."""
    if not isinstance(verdict, TrickResult):
        return None
    phrases = [p for p in verdict.phrases if p.key != "kraken_meets_whale"]
    end = next((i for i, p in enumerate(phrases) if p.key in _WHY_ENDS), len(phrases) - 1)
    words = wording(lang)
    rules_only = {}
    for phrase in phrases[: end + 1]:
        # "{who:cap} wins: the rule", "Gana {who}: la regla": the rule alone.
        head, colon, rule = words.templates[phrase.key].partition(": ")
        if colon and "{who" in head:
            rules_only[phrase.key] = rule
    templates = {**words.templates, **rules_only, **_WHY_TEMPLATES.get(lang, {})}
    if nobody_said:
        templates["kraken"] = _without_nobody(templates["kraken"])
    text = render(phrases[: end + 1], replace(words, templates=templates))
    text = _contract(text, lang)
    return text[:1].upper() + text[1:]


def warning_texts(verdict: TrickResult | RulesError, lang: str) -> list[str]:
    """The result's warnings (an expansion card played with its setting off), one a line."""
    if not isinstance(verdict, TrickResult):
        return []
    return [explain([w], lang) for w in verdict.warning_phrases]


def score_warning_texts(
    score: Mapping[str, Any], lang: str, players: Sequence[str] = ()
) -> list[str]:
    """What a game's score warns about (``GameStore.score``'s ``score.warnings``: a trick
    scored as led, abilities or cannonballs recorded that the settings ignore, a tie to play
    off), in ``lang``, from the ``warning_phrases`` the store keeps next to the score. Without
    them (an older cached score, an unexpected shape) the English warnings are shown. Then
    each proven revoke (:func:`revoke_texts`), given the players' names."""
    if not score.get("ok"):
        return []
    english = [str(w) for w in (score.get("score") or {}).get("warnings") or []]
    phrases = score.get("warning_phrases")
    if not phrases or len(phrases) != len(english):
        worded = english
    else:
        worded = [explain(phrases_from_json(warning), lang) for warning in phrases]
    return worded + revoke_texts(score, players, lang) if players else worded


def revoke_texts(
    score: Mapping[str, Any],
    players: Sequence[str],
    lang: str,
    at: tuple[int, int] | None = None,
) -> list[str]:
    """The revokes the score proved (a player who did not follow suit later played that
    suit in the round), in ``lang``; with ``at`` = (round, trick index), only those that
    trick holds, as the revoke or as its proof. The rules promise "skullcam flags it", and
    only ``skullcam score`` had said it: the pages never did."""
    if not score.get("ok"):
        return []
    texts = []
    for revoke in (score.get("score") or {}).get("revokes") or []:
        round_number, trick, proof = revoke["round"], revoke["trick"], revoke["proof_trick"]
        if at is not None and at not in ((round_number, trick), (round_number, proof)):
            continue
        seat = int(revoke["player"])
        texts.append(
            i18n.translate(
                "revoke",
                lang,
                round=round_number,
                trick=trick + 1,
                player=players[seat] if 0 <= seat < len(players) else str(seat),
                card=i18n.card_in_text(str(revoke["card"]), lang),
                suit=i18n.suit_in_text(str(revoke["suit"]), lang),
                proof=i18n.card_in_text(str(revoke["proof_card"]), lang),
                proof_trick=proof + 1,
            )
        )
    return texts


def led_otherwise_texts(score: Mapping[str, Any], at: tuple[int, int], lang: str) -> list[str]:
    """The score's warnings that a trick was led by another player than the rules say and
    scored as played, in ``lang``, for the replay page of trick ``at`` = (round, trick
    index): of that trick, and of the trick before it, whose winner should have led it.
    The replay pages say it as the tricks page, the TV and the bids page do, because a
    referee who corrects the seat of a card (its winner changed) is looking at that trick's
    page, or the next one's, when the lead goes out of turn."""
    if not score.get("ok"):
        return []
    round_number, trick = at
    texts = []
    for warning in score.get("warning_phrases") or []:
        keys = {str(p.get("key")): p.get("args") or {} for p in warning}
        if (keys.get("at_round") or {}).get("round") != round_number:
            continue
        if (keys.get("scored_as_played") or {}).get("trick") in (trick + 1, trick + 2):
            texts.append(explain(phrases_from_json(warning), lang))
    return texts


def not_counted_text(score: Mapping[str, Any], round_number: int, lang: str) -> str | None:
    """Why round ``round_number``'s tricks count for nothing (a tie-break round a corrected
    trick made needless), in ``lang``, or None: its trick page names its winner as any other
    does, and only the game's warnings said the round is out of the score."""
    if not score.get("ok"):
        return None
    for warning in score.get("warning_phrases") or []:
        for phrase in warning:
            if phrase.get("key") == "tie_break_not_due":
                first = phrase.get("args", {}).get("round")
                if isinstance(first, int) and round_number >= first:
                    return explain(phrases_from_json(warning), lang)
    return None


def score_error_text(score: Mapping[str, Any], lang: str) -> str:
    """Why a game's score stopped (``GameStore.score``'s ``error``), in ``lang``: the rules
    engine and the store give every reason they know as phrases (``error_phrases``): a card
    corrected into one already played this round, a play out of turn, a missing bid, ...
    A reason without phrases (an unexpected error) is shown in English rather than not at
    all."""
    error = str(score.get("error") or "")
    phrases = score.get("error_phrases")
    if score.get("ok") or not phrases:
        return error
    return explain(phrases_from_json(phrases), lang)
