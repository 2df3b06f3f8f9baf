"""UI strings in English, Spanish, Italian and Danish, and card names as those editions say them.

Terms follow the users' rule sheets (shared/seeds): Spanish *baza*, *apuesta*, *Huida*, *Loro*,
*Cofre del Tesoro*, *Mapa del Tesoro*; Italian *presa*, *puntata*, *mazziere*, *Fuga*, *Tigre*,
*Re dei Teschi*, *Pappagallo*, *Forziere*; Danish *stik*, *bud*, *flugtkort*, *havfrue*,
*byttekort*, *Den Hvide Hval*, and the twelve house-rule names of the Danish score sheet
(»Antal runder«, »Point pr. stik ved holdt bud«, ...).

Card types are written as those sheets write them: Spanish and Italian capitalise every one
in running text ("una Sirena", "los Piratas", "la Tigre come Pirata", "tutti i Pirati"),
Danish names only Skull King, Kraken and Den Hvide Hval so ("en havfrue", "pirater",
"flugtkort"). The Spanish and Italian texts said "una sirena" and "los piratas" beside a
card list and explanations that said "la Sirena de Ana" and "el Pirata de Ben".

A flat table (key -> language -> text) keeps a missing translation easy to spot: the tests
check that every key has all four languages. The languages themselves, the choice of one and
the card names are in ``skullcam.i18n_core``, shared with the enrollment page.
"""

from __future__ import annotations

# The languages, the choice of one and the card names are shared with the enrollment page
# (``device/``), which may not import ``web``: they live in ``skullcam.i18n_core``.
from skullcam.i18n_core import (  # noqa: F401  (re-exported: web's own names for them)
    _SPECIALS,
    _SUITS,
    DECIMAL_MARKS,
    LANGUAGE_NAMES,
    LANGUAGES,
    card_in_text,
    card_name,
    danish_genitive,
    danish_owned,
    pick_language,
    suit_in_text,
    suit_name,
)

STRINGS: dict[str, dict[str, str]] = {
    "app_name": {"en": "skullcam", "es": "skullcam", "it": "skullcam", "da": "skullcam"},
    "home": {"en": "Home", "es": "Inicio", "it": "Inizio", "da": "Start"},
    "new_game": {"en": "New game", "es": "Nueva partida", "it": "Nuova partita", "da": "Nyt spil"},
    "current_game": {
        "en": "Game in progress",
        "es": "Partida en curso",
        "it": "Partita in corso",
        "da": "Spil i gang",
    },
    "no_game_here": {
        "en": "No game in progress.",
        "es": "No hay partida en curso.",
        "it": "Nessuna partita in corso.",
        "da": "Intet spil i gang.",
    },
    "no_game": {
        "en": "No game in progress. Start one from a phone.",
        "es": "No hay partida en curso. Empieza una desde un móvil.",
        "it": "Nessuna partita in corso. Iniziane una da un telefono.",
        "da": "Intet spil i gang. Start et fra en telefon.",
    },
    "players": {"en": "Players", "es": "Jugadores", "it": "Giocatori", "da": "Spillere"},
    "player": {"en": "Player", "es": "Jugador", "it": "Giocatore", "da": "Spiller"},
    "seating_hint": {
        "en": "In seating order, clockwise (2 to 8).",
        "es": "En orden de asiento, en sentido horario (de 2 a 8).",
        "it": "In ordine di posto, in senso orario (da 2 a 8).",
        "da": "I siddeorden, med uret (2 til 8).",
    },
    "add_player": {
        "en": "Add player",
        "es": "Añadir jugador",
        "it": "Aggiungi giocatore",
        "da": "Tilføj spiller",
    },
    "players_at_most": {
        "en": "8 players at most",
        "es": "8 jugadores como máximo",
        "it": "8 giocatori al massimo",
        "da": "Højst 8 spillere",
    },
    "remove": {"en": "Remove", "es": "Quitar", "it": "Rimuovi", "da": "Fjern"},
    "first_dealer": {
        "en": "First dealer",
        "es": "Primer repartidor",
        "it": "Primo mazziere",
        "da": "Første giver",
    },
    "dealer": {"en": "Dealer", "es": "Reparte", "it": "Mazziere", "da": "Giver"},
    "dealer_short": {"en": "D", "es": "R", "it": "M", "da": "G"},
    "leads": {"en": "Leads", "es": "Sale", "it": "Guida", "da": "Spiller ud"},
    "house_rules": {
        "en": "House rules and variants",
        "es": "Reglas de la casa y variantes",
        "it": "Regole della casa e varianti",
        "da": "Husregler og varianter",
    },
    "start_game": {
        "en": "Start game",
        "es": "Empezar partida",
        "it": "Inizia partita",
        "da": "Start spillet",
    },
    "round": {"en": "Round", "es": "Ronda", "it": "Round", "da": "Runde"},
    "of": {"en": "of", "es": "de", "it": "di", "da": "af"},
    "trick": {"en": "Trick", "es": "Baza", "it": "Presa", "da": "Stik"},
    "tricks": {"en": "Tricks", "es": "Bazas", "it": "Prese", "da": "Stik"},
    "bid": {"en": "Bid", "es": "Apuesta", "it": "Puntata", "da": "Bud"},
    "bids": {"en": "Bids", "es": "Apuestas", "it": "Puntate", "da": "Bud"},
    "enter_bids": {
        "en": "Enter bids",
        "es": "Anotar apuestas",
        "it": "Inserisci puntate",
        "da": "Indtast bud",
    },
    "card_dealt": {
        "en": "card dealt",
        "es": "carta repartida",
        "it": "carta distribuita",
        "da": "kort givet",
    },
    "cards_dealt": {
        "en": "cards dealt",
        "es": "cartas repartidas",
        "it": "carte distribuite",
        "da": "kort givet",
    },
    "revoke": {
        "en": (
            "Round {round}, trick {trick}: {player} played {card} when {suit} was led, but"
            " later played {proof} (trick {proof_trick}): a revoke"
        ),
        "es": (
            "Ronda {round}, baza {trick}: {player} jugó {card} cuando el palo de salida era"
            " {suit}, pero después jugó {proof} (baza {proof_trick}): renuncio"
        ),
        "it": (
            "Round {round}, presa {trick}: {player} ha giocato {card} quando il seme da"
            " seguire era {suit}, ma poi ha giocato {proof} (presa {proof_trick}): non ha"
            " seguito il seme pur avendolo"
        ),
        "da": (
            "Runde {round}, stik {trick}: {player} spillede {card}, da den udspillede farve"
            " var {suit}, men spillede senere {proof} (stik {proof_trick}): bekendte ikke"
            " farve, selv om det var muligt"
        ),
    },
    "skip_to_content": {
        "en": "Skip to the page",
        "es": "Saltar al contenido",
        "it": "Vai al contenuto",
        "da": "Spring til indholdet",
    },
    "total_bids": {
        "en": "Total of bids",
        "es": "Total de apuestas",
        "it": "Totale puntate",
        "da": "Bud i alt",
    },
    "tricks_available": {
        "en": "tricks available",
        "es": "bazas en juego",
        "it": "prese in gioco",
        "da": "stik i runden",
    },
    "still_to_bid": {
        "en": "{n} still to bid",
        "es": "faltan {n} por apostar",
        "it": "{n} devono ancora puntare",
        "da": "{n} mangler at byde",
    },
    "bids_over": {
        "en": "{n} over",
        "es": "{n} por encima",
        "it": "{n} in più",
        "da": "{n} over",
    },
    "bids_under": {
        "en": "{n} under",
        "es": "{n} por debajo",
        "it": "{n} in meno",
        "da": "{n} under",
    },
    "bids_even": {
        "en": "as many as the tricks",
        "es": "tantas como bazas",
        "it": "tante quante le prese",
        "da": "går lige op",
    },
    "one_still_to_bid": {
        "en": "1 still to bid",
        "es": "falta 1 por apostar",
        "it": "1 deve ancora puntare",
        "da": "1 mangler at byde",
    },
    "last_trick": {
        "en": "Last trick",
        "es": "Última baza",
        "it": "Ultima presa",
        "da": "Sidste stik",
    },
    # The TV's last trick at a round's start, the last round's: "Last trick · Round 3, trick 5".
    "round_trick": {
        "en": "Round {round}, trick {trick}",
        "es": "Ronda {round}, baza {trick}",
        "it": "Round {round}, presa {trick}",
        "da": "Runde {round}, stik {trick}",
    },
    "cannonball": {
        "en": "Cannonball",
        "es": "Bala de cañón",
        "it": "Palla di cannone",
        "da": "Kanonkugle",
    },
    "won": {"en": "Won", "es": "Ganadas", "it": "Vinte", "da": "Vundet"},
    "total": {"en": "Total", "es": "Total", "it": "Totale", "da": "Total"},
    # The pages' decimal mark (app.js num): a speed of 2.5 is "2,5" in es, it and da. The
    # server's texts write numbers with the same marks (``i18n_core.number_in``).
    "decimal_mark": dict(DECIMAL_MARKS),
    "points": {"en": "Points", "es": "Puntos", "it": "Punti", "da": "Point"},
    "bonus": {"en": "Bonus", "es": "Bonus", "it": "Bonus", "da": "Bonus"},
    "ranking": {"en": "Ranking", "es": "Clasificación", "it": "Classifica", "da": "Stilling"},
    "scoreboard": {"en": "Scoreboard", "es": "Marcador", "it": "Punteggi", "da": "Pointtavle"},
    "on_the_table": {
        "en": "On the table",
        "es": "En la mesa",
        "it": "Sul tavolo",
        "da": "På bordet",
    },
    "replaced_notice": {
        "en": "Another game is at the table now: this one is no longer being played.",
        "es": "Ahora hay otra partida en la mesa: esta ya no se está jugando.",
        "it": "Al tavolo c'è ora un'altra partita: questa non si sta più giocando.",
        "da": "Et andet spil er i gang ved bordet: dette spil spilles ikke længere.",
    },
    "replaced_link": {
        "en": "Go to that game's bids",
        "es": "Ir a las apuestas de esa partida",
        "it": "Vai alle puntate di quella partita",
        "da": "Gå til buddene i det spil",
    },
    "confirm_bid_replaced": {
        "en": (
            "Another game is at the table now. Changing a bid here changes this game's score,"
            " not the other's (it is kept in this game's history). Change a bid?"
        ),
        "es": (
            "Ahora hay otra partida en la mesa. Cambiar aquí una apuesta cambia la puntuación"
            " de esta partida, no la de la otra (queda en el historial de esta partida)."
            " ¿Cambiar una apuesta?"
        ),
        "it": (
            "Al tavolo c'è ora un'altra partita. Cambiare qui una puntata cambia il punteggio"
            " di questa partita, non quello dell'altra (resta nella cronologia di questa"
            " partita). Cambiare una puntata?"
        ),
        "da": (
            "Et andet spil er i gang ved bordet. Retter du et bud her, ændres pointene i"
            " dette spil, ikke i det andet (det gemmes i dette spils historik). Ret et bud?"
        ),
    },
    "no_rounds_played": {
        "en": "Ended with no rounds played",
        "es": "Terminó sin ninguna ronda jugada",
        "it": "Finita senza alcun round giocato",
        "da": "Sluttede, uden at der blev spillet nogen runder",
    },
    "last_game": {
        "en": "Last game",
        "es": "Última partida",
        "it": "Ultima partita",
        "da": "Seneste spil",
    },
    "host_pin": {
        "en": "Table PIN for phones",
        "es": "PIN de la mesa para los móviles",
        "it": "PIN del tavolo per i telefoni",
        "da": "Bordets PIN til telefonerne",
    },
    "host_pin_show": {
        "en": "Show the PIN",
        "es": "Mostrar el PIN",
        "it": "Mostra il PIN",
        "da": "Vis PIN-koden",
    },
    "host_pin_hint": {
        "en": "Shown on this machine only, and only when asked: a TV showing this page would"
        " show it to the whole room.",
        "es": "Solo se muestra en esta máquina, y solo si se pide: una tele que muestre esta"
        " página se lo enseñaría a toda la sala.",
        "it": "Mostrato solo su questa macchina, e solo su richiesta: una TV che mostra questa"
        " pagina lo mostrerebbe a tutta la stanza.",
        "da": "Vises kun på denne maskine, og kun når du beder om det: et tv, der viser denne"
        " side, ville vise den til hele rummet.",
    },
    "host_pin_locked": {
        "en": "Too many wrong PINs: no new phone can sign in for {minutes} min.",
        "es": "Demasiados PIN incorrectos: ningún móvil nuevo puede entrar durante {minutes} min.",
        "it": "Troppi PIN errati: nessun nuovo telefono può entrare per {minutes} min.",
        "da": "For mange forkerte PIN-koder: ingen ny telefon kan logge ind i {minutes} min.",
    },
    "host_pin_unlock": {
        "en": "Let phones in again",
        "es": "Dejar entrar a los móviles de nuevo",
        "it": "Fai entrare di nuovo i telefoni",
        "da": "Lad telefonerne komme ind igen",
    },
    "host_pin_unlocked": {
        "en": "Phones can enter the PIN again.",
        "es": "Los móviles pueden volver a escribir el PIN.",
        "it": "I telefoni possono inserire di nuovo il PIN.",
        "da": "Telefonerne kan indtaste PIN-koden igen.",
    },
    "one_open_question": {
        "en": "1 open question",
        "es": "1 pregunta pendiente",
        "it": "1 domanda in sospeso",
        "da": "1 åbent spørgsmål",
    },
    "open_questions": {
        "en": "{n} open questions",
        "es": "{n} preguntas pendientes",
        "it": "{n} domande in sospeso",
        "da": "{n} åbne spørgsmål",
    },
    "tv_more_question": {
        "en": "+1 more question on the phones",
        "es": "+1 pregunta más en los móviles",
        "it": "+1 altra domanda sui telefoni",
        "da": "+1 spørgsmål mere på telefonerne",
    },
    "tv_more_questions": {
        "en": "+{n} more questions on the phones",
        "es": "+{n} preguntas más en los móviles",
        "it": "+{n} altre domande sui telefoni",
        "da": "+{n} spørgsmål mere på telefonerne",
    },
    "no_open_questions": {
        "en": "No open questions.",
        "es": "No hay preguntas pendientes.",
        "it": "Nessuna domanda in sospeso.",
        "da": "Ingen åbne spørgsmål.",
    },
    "demo_game": {
        "en": "demo (a recorded game)",
        "es": "demo (partida grabada)",
        "it": "demo (partita registrata)",
        "da": "demo (et optaget spil)",
    },
    "set_aside": {
        "en": "not finished",
        "es": "sin terminar",
        "it": "non finita",
        "da": "ikke afsluttet",
    },
    "winning_now": {
        "en": "winning now",
        "es": "gana ahora",
        "it": "vince ora",
        "da": "vinder nu",
    },
    "trick_won_by": {
        "en": "Trick won by {name}",
        "es": "Baza para {name}",
        "it": "Presa vinta da {name}",
        "da": "Stikket går til {name}",
    },
    # A trick's capture bonus, named with what it is for ({what}: the bonus_for_* items) and
    # who collects it, on the condition the table's rules pay it (the TV's banner, the replay).
    "bonus_for_card": {
        "en": "+{points} for {card}",
        "es": "+{points} por {card}",
        "it": "+{points} per {card}",
        "da": "+{points} for {card}",
    },
    "bonus_for_capture": {
        "en": "+{points} for capturing {card}",
        "es": "+{points} por capturar a {card}",
        "it": "+{points} per aver catturato {card}",
        "da": "+{points} for at fange {card}",
    },
    # An unnamed pirate or mermaid (the camera's or a record's; the menus offer none) named in
    # a sentence: as one says a card whose name is not known, with "a" (card_in_sentence).
    "card_some_pirate": {"en": "a Pirate", "es": "un Pirata", "it": "un Pirata", "da": "en pirat"},
    "card_some_mermaid": {
        "en": "a Mermaid",
        "es": "una Sirena",
        "it": "una Sirena",
        "da": "en havfrue",
    },
    "bonus_if_made": {
        "en": "{what} if {name} makes their bid",
        "es": "{what} si {name} cumple su apuesta",
        "it": "{what} se {name} indovina la puntata",
        "da": "{name} får {what}, hvis buddet holder",
    },
    "bonus_kept": {
        "en": "{what}, whether or not {name} makes their bid",
        "es": "{what}, cumpla o no {name} su apuesta",
        "it": "{what}, che {name} indovini o no la puntata",
        "da": "{name} får {what}, uanset om buddet holder",
    },
    "bonus_rascal": {
        "en": "{what} if {name} makes their bid, half if off by one",
        "es": "{what} si {name} cumple su apuesta, la mitad si falla por una",
        "it": "{what} se {name} indovina la puntata, metà se sbaglia di una",
        "da": "{name} får {what}, hvis buddet holder, det halve ved ét stik ved siden af",
    },
    "no_winner": {
        "en": "Nobody wins this trick",
        "es": "Nadie gana esta baza",
        "it": "Nessuno vince questa presa",
        "da": "Ingen vinder dette stik",
    },
    "score_chart": {
        "en": "Score over rounds",
        "es": "Puntuación acumulada",
        "it": "Punteggio totale per round",
        "da": "Samlet score pr. runde",
    },
    # The phones' notice: short, since it stands above the bids on every visit; the restart
    # advice for whoever started skullcam is under the bids (camera_how).
    "no_camera": {
        "en": "No camera: tricks are not being recorded. Enter them by hand (button below).",
        "es": "Sin cámara: las bazas no se graban. Anótalas a mano (botón de abajo).",
        "it": (
            "Nessuna fotocamera: le prese non vengono registrate. Inseriscile a mano (qui sotto)."
        ),
        "da": "Intet kamera: stikkene optages ikke. Indtast dem manuelt (knappen nedenfor).",
    },
    "camera_how_summary": {
        "en": "Connect a camera",
        "es": "Conectar una cámara",
        "it": "Collegare una fotocamera",
        "da": "Tilslut et kamera",
    },
    "camera_how": {
        "en": (
            "Restart skullcam with a webcam (skullcam run --camera 0) or a recording"
            " (skullcam run --camera PATH)."
        ),
        "es": (
            "Reinicia skullcam con una cámara (skullcam run --camera 0) o una grabación"
            " (skullcam run --camera RUTA)."
        ),
        "it": (
            "Riavvia skullcam con una fotocamera (skullcam run --camera 0) o una registrazione"
            " (skullcam run --camera PERCORSO)."
        ),
        "da": (
            "Genstart skullcam med et kamera (skullcam run --camera 0) eller en optagelse"
            " (skullcam run --camera STI)."
        ),
    },
    "bids_in": {
        "en": "{count} of {players} in",
        "es": "{count} de {players} anotadas",
        "it": "{count} di {players} inserite",
        "da": "{count} af {players} afgivet",
    },
    # The TV's: read from across the room, with no command line to type there.
    "no_camera_tv": {
        "en": "No camera: tricks are not being recorded. Enter them by hand on a phone (Tricks).",
        "es": "Sin cámara: las bazas no se graban. Anótalas a mano en un móvil (Bazas).",
        "it": (
            "Nessuna fotocamera: le prese non vengono registrate. Inseriscile a mano da un"
            " telefono (Prese)."
        ),
        "da": "Intet kamera: stikkene optages ikke. Indtast dem manuelt på en telefon (Stik).",
    },
    "game_over": {
        "en": "Game over",
        "es": "Fin de la partida",
        "it": "Fine partita",
        "da": "Spillet er slut",
    },
    "winner_is": {
        "en": "Captain of the Seven Seas: {names}",
        "es": "Capitán de los Siete Mares: {names}",
        "it": "Capitano dei Sette Mari: {names}",
        "da": "De syv haves kaptajn: {names}",
    },
    "result_waits": {
        "en": "The result waits for the open questions",
        "es": "El resultado espera las preguntas abiertas",
        "it": "Il risultato attende le domande aperte",
        "da": "Resultatet venter på de åbne spørgsmål",
    },
    "replay": {"en": "Replay", "es": "Repetición", "it": "Rivedi", "da": "Genafspilning"},
    "round_list": {
        "en": "Rounds and tricks",
        "es": "Rondas y bazas",
        "it": "Round e prese",
        "da": "Runder og stik",
    },
    "play_order": {
        "en": "Play order",
        "es": "Orden de juego",
        "it": "Ordine di gioco",
        "da": "Spillerækkefølge",
    },
    "card": {"en": "Card", "es": "Carta", "it": "Carta", "da": "Kort"},
    "confidence": {"en": "Confidence", "es": "Confianza", "it": "Sicurezza", "da": "Sikkerhed"},
    "explanation": {
        "en": "Why",
        "es": "Por qué",
        "it": "Perché",
        "da": "Hvorfor",
    },
    "correct": {"en": "Correct", "es": "Corregir", "it": "Correggi", "da": "Ret"},
    "correct_card": {
        "en": "Correct this card or player",
        "es": "Corregir esta carta o jugador",
        "it": "Correggi questa carta o giocatore",
        "da": "Ret dette kort eller spiller",
    },
    "save": {"en": "Save", "es": "Guardar", "it": "Salva", "da": "Gem"},
    "cancel": {"en": "Cancel", "es": "Cancelar", "it": "Annulla", "da": "Annuller"},
    "audit_trail": {
        "en": "Audit trail",
        "es": "Historial de cambios",
        "it": "Registro modifiche",
        "da": "Ændringslog",
    },
    "dealer_unnamed": {
        "en": "The first dealer has no name yet: write it in, or choose another dealer.",
        "es": "El primero en repartir aún no tiene nombre: escríbelo o elige otro.",
        "it": "Chi distribuisce per primo non ha ancora un nome: scrivilo o scegline un altro.",
        "da": "Den første giver har intet navn endnu: skriv det, eller vælg en anden.",
    },
    "audit_card": {"en": "card", "es": "carta", "it": "carta", "da": "kort"},
    "audit_player": {"en": "player", "es": "jugador", "it": "giocatore", "da": "spiller"},
    "audit_tigress": {
        "en": "Tigress played as",
        "es": "Tigresa jugada como",
        "it": "Tigre giocata come",
        "da": "Tigress spillet som",
    },
    "audit_confirm": {
        "en": "confirmed as recorded",
        "es": "confirmada como se grabó",
        "it": "confermata come registrata",
        "da": "bekræftet som registreret",
    },
    "audit_ability": {
        "en": "pirate's ability dropped",
        "es": "habilidad del Pirata anulada",
        "it": "abilità del Pirata annullata",
        "da": "piratens evne fjernet",
    },
    "audit_play": {"en": "play {n}", "es": "jugada {n}", "it": "giocata {n}", "da": "kort {n}"},
    "audit_choice": {
        "en": "pirate's choice",
        "es": "elección del Pirata",
        "it": "scelta del Pirata",
        "da": "piratens valg",
    },
    "audit_bids": {"en": "bids", "es": "apuestas", "it": "puntate", "da": "bud"},
    "same_players": {
        "en": "Same players as last game ({names})",
        "es": "Los mismos jugadores que en la última partida ({names})",
        "it": "Gli stessi giocatori dell'ultima partita ({names})",
        "da": "Samme spillere som i sidste spil ({names})",
    },
    # Under the pipeline's picture, drawn when the trick was recorded, of a trick corrected
    # since: its labels and winner are the camera's, the list beside it the trick as it stands.
    "picture_as_read": {
        "en": "This picture shows the cards as the camera read them; the trick has been"
        " corrected since (the list).",
        "es": "La imagen muestra las cartas como las leyó la cámara; la baza se ha corregido"
        " después (la lista).",
        "it": "L'immagine mostra le carte come le ha lette la fotocamera; la presa è stata"
        " corretta dopo (l'elenco).",
        "da": "Billedet viser kortene, som kameraet læste dem; stikket er rettet siden (listen).",
    },
    "in_picture": {
        "en": "in the picture:",
        "es": "en la imagen:",
        "it": "nell'immagine:",
        "da": "på billedet:",
    },
    "audit_add": {
        "en": "card added",
        "es": "carta añadida",
        "it": "carta aggiunta",
        "da": "kort tilføjet",
    },
    "enter_trick_title": {
        "en": "Enter round {round} trick {trick} by hand",
        "es": "Anotar a mano la baza {trick} de la ronda {round}",
        "it": "Inserisci a mano la presa {trick} del round {round}",
        "da": "Indtast stik {trick} i runde {round} manuelt",
    },
    "enter_trick_hint": {
        "en": (
            "For a trick the camera missed, or a table without a camera: choose each "
            "player's card, in the order they were played."
        ),
        "es": (
            "Para una baza que la cámara no vio, o para una mesa sin cámara: elige la carta de "
            "cada jugador, en el orden en que se jugaron."
        ),
        "it": (
            "Per una presa che la fotocamera non ha visto, o per un tavolo senza fotocamera: "
            "scegli la carta di ogni giocatore, nell'ordine in cui sono state giocate."
        ),
        "da": (
            "Til et stik, kameraet ikke så, eller et bord uden kamera: vælg hver spillers "
            "kort i den rækkefølge, de blev spillet."
        ),
    },
    "enter_trick_save": {
        "en": "Record this trick",
        "es": "Guardar esta baza",
        "it": "Registra questa presa",
        "da": "Gem dette stik",
    },
    "enter_trick_choose": {
        "en": "Choose a card for every player.",
        "es": "Elige una carta para cada jugador.",
        "it": "Scegli una carta per ogni giocatore.",
        "da": "Vælg et kort til hver spiller.",
    },
    "enter_trick_leader_unknown": {
        "en": (
            "Who leads the next trick is not known yet: trick {trick} of this round has no"
            " winner yet (a card missing, or one read twice). Settle that on its page first:"
        ),
        "es": (
            "Aún no se sabe quién sale en la próxima baza: la baza {trick} de esta ronda todavía"
            " no tiene ganador (falta una carta o hay una leída dos veces). Resuélvelo antes en"
            " su página:"
        ),
        "it": (
            "Non si sa ancora chi guida la prossima presa: la presa {trick} di questo round non"
            " ha ancora un vincitore (manca una carta o una è stata letta due volte). Sistemala"
            " prima nella sua pagina:"
        ),
        "da": (
            "Det vides endnu ikke, hvem der spiller ud i næste stik: stik {trick} i denne runde"
            " har stadig ingen vinder (et kort mangler, eller et er læst to gange). Afklar det"
            " først på stikkets side:"
        ),
    },
    "enter_trick_waits_rosie": {
        "en": "Rosie won trick {trick}: answer who leads next (above), then enter this trick.",
        "es": (
            "Rosie ganó la baza {trick}: responde quién sale ahora (arriba) y luego anota esta"
            " baza."
        ),
        "it": (
            "Rosie ha vinto la presa {trick}: indica chi guida la prossima presa (qui sopra),"
            " poi inserisci questa presa."
        ),
        "da": (
            "Rosie vandt stik {trick}: svar på, hvem der spiller ud næste gang (ovenfor), og"
            " indtast så dette stik."
        ),
    },
    "enter_trick_rosie_unchosen": {
        "en": (
            "Rosie won trick {trick}, and her question of who leads next was dismissed: choose"
            " who leads on her trick's page, then enter this trick:"
        ),
        "es": (
            "Rosie ganó la baza {trick} y su pregunta de quién sale ahora se descartó: elige"
            " quién sale en la página de su baza y luego anota esta baza:"
        ),
        "it": (
            "Rosie ha vinto la presa {trick} e la sua domanda su chi guida la prossima presa è"
            " stata scartata: scegli chi guida nella pagina della sua presa, poi inserisci"
            " questa presa:"
        ),
        "da": (
            "Rosie vandt stik {trick}, og hendes spørgsmål om, hvem der spiller ud næste gang,"
            " blev afvist: vælg, hvem der spiller ud, på hendes stiks side, og indtast så dette"
            " stik:"
        ),
    },
    "enter_trick_last": {
        "en": "Last trick: round {round} trick {trick}, won by {name}.",
        "es": "Última baza: la {trick} de la ronda {round}, ganada por {name}.",
        "it": "Ultima presa: la {trick} del round {round}, vinta da {name}.",
        "da": "Seneste stik: stik {trick} i runde {round}, vundet af {name}.",
    },
    "enter_trick_bids_missing": {
        "en": "Not every bid of round {round} is in yet.",
        "es": "Aún faltan apuestas de la ronda {round}.",
        "it": "Mancano ancora puntate del round {round}.",
        "da": "Der mangler stadig bud i runde {round}.",
    },
    "final_scores": {
        "en": "Final scores",
        "es": "Puntuación final",
        "it": "Punteggi finali",
        "da": "Slutstilling",
    },
    "special_cards": {
        "en": "Special cards",
        "es": "Cartas especiales",
        "it": "Carte speciali",
        "da": "Specialkort",
    },
    "enter_trick_link": {
        "en": "Camera missed a trick? Enter it by hand",
        "es": "¿La cámara no vio una baza? Anótala a mano",
        "it": "La fotocamera non ha visto una presa? Inseriscila a mano",
        "da": "Så kameraet ikke et stik? Indtast det manuelt",
    },
    "missed_before_link": {
        "en": "Camera missed a trick before this one? Enter it by hand",
        "es": "¿La cámara no vio una baza antes de esta? Anótala a mano",
        "it": "La fotocamera ha perso una presa prima di questa? Inseriscila a mano",
        "da": "Overså kameraet et stik før dette? Indtast det manuelt",
    },
    "insert_trick_title": {
        "en": "Enter the trick the camera missed before round {round} trick {trick}",
        "es": "Anotar la baza que la cámara no vio antes de la baza {trick} de la ronda {round}",
        "it": (
            "Inserisci la presa che la fotocamera ha perso prima della presa {trick} del round"
            " {round}"
        ),
        "da": "Indtast stikket, kameraet overså før stik {trick} i runde {round}",
    },
    "insert_crosses_round": {
        "en": (
            "Round {round} has no free place: its trick {trick} becomes round {to_round} trick"
            " {to_trick}, and the tricks after it move on one place too."
        ),
        "es": (
            "La ronda {round} no tiene sitio libre: su baza {trick} pasa a ser la baza"
            " {to_trick} de la ronda {to_round}, y las bazas que la siguen también avanzan un"
            " puesto."
        ),
        "it": (
            "Il round {round} non ha posti liberi: la sua presa {trick} diventa la presa"
            " {to_trick} del round {to_round}, e anche le prese che la seguono avanzano di un"
            " posto."
        ),
        "da": (
            "Runde {round} har ingen ledig plads: dens stik {trick} bliver stik {to_trick} i"
            " runde {to_round}, og stikkene efter det rykker også én plads frem."
        ),
    },
    "remove_hint": {
        "en": "Entered by mistake? Remove it, and its place is free again.",
        "es": "¿Anotada por error? Quítala y su sitio vuelve a quedar libre.",
        "it": "Inserita per errore? Toglila e il suo posto torna libero.",
        "da": "Indtastet ved en fejl? Fjern det, så er pladsen ledig igen.",
    },
    "remove_hint_camera": {
        "en": "Entered by mistake? Remove it, and the trick as the camera read it, in the"
        " picture, takes its place.",
        "es": "¿Anotada por error? Quítala y ocupa su sitio la baza tal como la leyó la"
        " cámara, la de la imagen.",
        "it": "Inserita per errore? Toglila e al suo posto resta la presa come l'ha letta la"
        " fotocamera, quella dell'immagine.",
        "da": "Indtastet ved en fejl? Fjern det, så træder stikket, som kameraet læste det på"
        " billedet, i stedet.",
    },
    "remove_hint_moved": {
        "en": (
            "Entered in the wrong place? Remove it, and the tricks its entry moved on one place"
            " ({n}) go back."
        ),
        "es": (
            "¿Anotada en el sitio equivocado? Quítala y las bazas que avanzaron un puesto al"
            " anotarla ({n}) vuelven a donde estaban."
        ),
        "it": (
            "Inserita nel posto sbagliato? Toglila e le prese che aveva spostato avanti di un"
            " posto ({n}) tornano dov'erano."
        ),
        "da": (
            "Indtastet det forkerte sted? Fjern det, så rykker de stik, det skubbede én plads"
            " frem ({n}), tilbage igen."
        ),
    },
    # One trick moved on: "the tricks its entry moved on one place (1) go back" was said.
    "remove_hint_moved_one": {
        "en": (
            "Entered in the wrong place? Remove it, and the trick its entry moved on one place"
            " goes back."
        ),
        "es": (
            "¿Anotada en el sitio equivocado? Quítala y la baza que avanzó un puesto al"
            " anotarla vuelve a donde estaba."
        ),
        "it": (
            "Inserita nel posto sbagliato? Toglila e la presa che aveva spostato avanti di un"
            " posto torna dov'era."
        ),
        "da": (
            "Indtastet det forkerte sted? Fjern det, så rykker det stik, det skubbede én plads"
            " frem, tilbage igen."
        ),
    },
    "move_back_hint": {
        "en": "The camera moved this trick here from round {round} trick {trick}: the trick"
        " after it, led by its winner, looked like this round's second. Not so? Move it back.",
        "es": "La cámara movió esta baza aquí desde la baza {trick} de la ronda {round}: la"
        " baza siguiente, que abrió quien la ganó, parecía la segunda de esta ronda. ¿No es"
        " así? Devuélvela.",
        "it": "La fotocamera ha spostato qui questa presa dalla presa {trick} del round"
        " {round}: la presa dopo, aperta da chi l'ha vinta, sembrava la seconda di questo"
        " round. Non è così? Rimettila indietro.",
        "da": "Kameraet flyttede dette stik hertil fra stik {trick} i runde {round}: stikket"
        " efter det, spillet ud af den, der vandt det, lignede rundens andet. Passer det"
        " ikke? Flyt det tilbage.",
    },
    "move_back": {
        "en": "Move it back",
        "es": "Devolverla",
        "it": "Rimettila indietro",
        "da": "Flyt det tilbage",
    },
    "move_back_confirm": {
        "en": "Tap again to move it back",
        "es": "Pulsa otra vez para devolverla",
        "it": "Tocca di nuovo per rimetterla indietro",
        "da": "Tryk igen for at flytte det tilbage",
    },
    "remove_trick": {
        "en": "Remove this trick",
        "es": "Quitar esta baza",
        "it": "Togli questa presa",
        "da": "Fjern dette stik",
    },
    "remove_trick_confirm": {
        "en": "Tap again to remove it",
        "es": "Pulsa otra vez para quitarla",
        "it": "Tocca di nuovo per toglierla",
        "da": "Tryk igen for at fjerne det",
    },
    "entered_by_hand": {
        "en": "Entered by hand: no picture.",
        "es": "Anotada a mano: sin imagen.",
        "it": "Inserita a mano: nessuna immagine.",
        "da": "Indtastet manuelt: intet billede.",
    },
    "entered_by_hand_pictured": {
        "en": "Entered by hand. The picture is the camera's, taken as it completed the trick a"
        " moment later.",
        "es": "Anotada a mano. La imagen es la de la cámara, tomada al completar la baza un"
        " momento después.",
        "it": "Inserita a mano. L'immagine è quella della fotocamera, scattata quando ha"
        " completato la presa un attimo dopo.",
        "da": "Indtastet manuelt. Billedet er kameraets, taget da det så stikket færdigt et"
        " øjeblik senere.",
    },
    "audit_moved": {
        "en": "moved from {from_place} to {to_place}",
        "es": "movida de {from_place} a {to_place}",
        "it": "spostata: era {from_place}, ora è {to_place}",
        "da": "flyttet fra {from_place} til {to_place}",
    },
    "audit_place": {
        "en": "round {round} trick {trick}",
        "es": "la baza {trick} de la ronda {round}",
        "it": "la presa {trick} del round {round}",
        "da": "stik {trick} i runde {round}",
    },
    "audit_removed": {
        "en": "entered by hand, taken back",
        "es": "anotada a mano y luego quitada",
        "it": "inserita a mano e poi tolta",
        "da": "indtastet manuelt og fjernet igen",
    },
    # The first entry of an imported game's history (its tricks page), and when.
    "audit_imported": {
        "en": "Game imported from the file {file}",
        "es": "Partida importada del archivo {file}",
        "it": "Partita importata dal file {file}",
        "da": "Spillet er importeret fra filen {file}",
    },
    "audit_imported_unnamed": {
        "en": "Game imported from a game record file",
        "es": "Partida importada de un archivo de partida",
        "it": "Partita importata da un file di partita",
        "da": "Spillet er importeret fra en spilfil",
    },
    # The game-level entries of a game's history (its tricks page: web/game_history.py):
    # what changed, then when in the game ("before round 4").
    "history_rule": {
        "en": "House rule {change} {when}",
        "es": "Regla de la casa {change} {when}",
        "it": "Regola della casa {change} {when}",
        "da": "Husregel {change} {when}",
    },
    "history_rules": {
        "en": "House rules changed {when}: {changes}",
        "es": "Reglas de la casa cambiadas {when}: {changes}",
        "it": "Regole della casa cambiate {when}: {changes}",
        "da": "Husregler ændret {when}: {changes}",
    },
    "history_rule_on": {
        "en": "“{name}” turned on",
        "es": "«{name}» activada",
        "it": "«{name}» attivata",
        "da": "»{name}« slået til",
    },
    "history_rule_off": {
        "en": "“{name}” turned off",
        "es": "«{name}» desactivada",
        "it": "«{name}» disattivata",
        "da": "»{name}« slået fra",
    },
    "history_rule_changed": {
        "en": "“{name}” changed from {was} to {now}",
        "es": "«{name}» cambiada de {was} a {now}",
        "it": "«{name}» cambiata da {was} a {now}",
        "da": "»{name}« ændret fra {was} til {now}",
    },
    "history_finished": {
        "en": "Game finished by hand {when}",
        "es": "Partida terminada a mano {when}",
        "it": "Partita terminata a mano {when}",
        "da": "Spillet afsluttet manuelt {when}",
    },
    "history_resumed": {
        "en": "Game reopened {when}",
        "es": "Partida reanudada {when}",
        "it": "Partita ripresa {when}",
        "da": "Spillet genoptaget {when}",
    },
    # A status change nobody asked for (web/game_history.py; the store's STATUS_WHYS), and
    # another game taking the table: when the game ended, or why it stopped being current.
    "history_finished_last_trick": {
        "en": "Game finished by its last trick {when}",
        "es": "Partida terminada con su última baza {when}",
        "it": "Partita terminata con la sua ultima presa {when}",
        "da": "Spillet afsluttet af sit sidste stik {when}",
    },
    "history_finished_rounds": {
        "en": "Game finished, no round left to play, {when}",
        "es": "Partida terminada, sin rondas por jugar, {when}",
        "it": "Partita terminata, nessun round da giocare, {when}",
        "da": "Spillet afsluttet, ingen runder tilbage, {when}",
    },
    "history_reopened_removed": {
        "en": "Game reopened by a trick taken back {when}",
        "es": "Partida reabierta al retirar una baza {when}",
        "it": "Partita riaperta dal ritiro di una presa {when}",
        "da": "Spillet genåbnet, da et stik blev taget tilbage, {when}",
    },
    "history_reopened_rounds": {
        "en": "Game reopened, rounds left to play, {when}",
        "es": "Partida reabierta, con rondas por jugar, {when}",
        "it": "Partita riaperta, con round da giocare, {when}",
        "da": "Spillet genåbnet, runder tilbage, {when}",
    },
    "history_reopened_tie_break": {
        "en": "Game reopened for one more round for a tie {when}",
        "es": "Partida reabierta para una ronda más por empate {when}",
        "it": "Partita riaperta per un round in più per parità {when}",
        "da": "Spillet genåbnet til en runde mere ved uafgjort {when}",
    },
    "history_replaced": {
        "en": "Game {game} took the table {when}: this game is no longer being played",
        "es": "La partida {game} ocupó la mesa {when}: esta ya no se está jugando",
        "it": (
            "La partita {game} ha preso il posto al tavolo {when}: questa non si sta più giocando"
        ),
        "da": "Spil {game} overtog bordet {when}: dette spil spilles ikke længere",
    },
    "history_replaced_by_demo": {
        "en": "The demo took the table {when}: this game is no longer being played",
        "es": "La demo ocupó la mesa {when}: esta partida ya no se está jugando",
        "it": (
            "La demo ha preso il posto al tavolo {when}: questa partita non si sta più giocando"
        ),
        "da": "Demoen overtog bordet {when}: dette spil spilles ikke længere",
    },
    "history_before_play": {
        "en": "before the first trick",
        "es": "antes de la primera baza",
        "it": "prima della prima presa",
        "da": "før første stik",
    },
    "history_before_round": {
        "en": "before round {round}",
        "es": "antes de la ronda {round}",
        "it": "prima del round {round}",
        "da": "før runde {round}",
    },
    "history_during_round": {
        "en": "during round {round}, after trick {trick}",
        "es": "durante la ronda {round}, tras la baza {trick}",
        "it": "durante il round {round}, dopo la presa {trick}",
        "da": "i runde {round}, efter stik {trick}",
    },
    "history_after_round": {
        "en": "after round {round}",
        "es": "tras la ronda {round}",
        "it": "dopo il round {round}",
        "da": "efter runde {round}",
    },
    "audit_hand": {
        "en": "trick entered by hand",
        "es": "baza anotada a mano",
        "it": "presa inserita a mano",
        "da": "stik indtastet manuelt",
    },
    "add_missing": {
        "en": "Add the missing card",
        "es": "Añadir la carta que falta",
        "it": "Aggiungi la carta mancante",
        "da": "Tilføj det manglende kort",
    },
    "played_in_trick": {
        "en": "played in trick {trick}",
        "es": "se jugó en la baza {trick}",
        "it": "già nella presa {trick}",
        "da": "spillet i stik {trick}",
    },
    "cards_recorded": {
        "en": "{k} of {n} cards recorded",
        "es": "{k} de {n} cartas grabadas",
        "it": "{k} carte registrate su {n}",
        "da": "{k} af {n} kort registreret",
    },
    # A trick recorded with one card: Italian said "1 carte registrate su 3".
    "one_card_recorded": {
        "en": "1 of {n} cards recorded",
        "es": "1 de {n} cartas grabadas",
        "it": "1 carta registrata su {n}",
        "da": "1 af {n} kort registreret",
    },
    "image_missing": {
        "en": (
            "This trick's image, {file}, is missing, empty or damaged in the data folder: restore"
            " it from a backup to see the trick. The cards recorded are kept."
        ),
        "es": (
            "La imagen de esta baza, {file}, falta, está vacía o dañada en la carpeta de datos:"
            " restáurala de una copia de seguridad para ver la baza. Las cartas grabadas se"
            " conservan."
        ),
        "it": (
            "L'immagine di questa presa, {file}, manca, è vuota o danneggiata nella cartella dei"
            " dati:"
            " ripristinala da un backup per vedere la presa. Le carte registrate restano."
        ),
        "da": (
            "Billedet af dette stik, {file}, mangler, er tomt eller beskadiget i datamappen: gendan"
            " det fra en sikkerhedskopi for at se stikket. De optagne kort bevares."
        ),
    },
    "original_by_hand": {
        "en": "As entered by hand",
        "es": "Como se anotó a mano",
        "it": "Come inserito a mano",
        "da": "Som indtastet manuelt",
    },
    "original": {
        "en": "As recorded",
        "es": "Como se grabó",
        "it": "Come registrato",
        "da": "Som registreret",
    },
    "no_image": {
        "en": "No image recorded for this trick.",
        "es": "No hay imagen grabada de esta baza.",
        "it": "Nessuna immagine registrata per questa presa.",
        "da": "Intet billede optaget for dette stik.",
    },
    "tigress_as": {
        "en": "Tigress played as",
        "es": "Tigresa jugada como",
        "it": "Tigre giocata come",
        "da": "Tigress spillet som",
    },
    "as_pirate": {"en": "Pirate", "es": "Pirata", "it": "Pirata", "da": "Pirat"},
    "as_escape": {"en": "Escape", "es": "Huida", "it": "Fuga", "da": "Flugtkort"},
    "flagged": {
        "en": "Check this trick",
        "es": "Revisa esta baza",
        "it": "Controlla questa presa",
        "da": "Tjek dette stik",
    },
    "confirm": {"en": "Confirm", "es": "Confirmar", "it": "Conferma", "da": "Bekræft"},
    "prompts": {"en": "Questions", "es": "Preguntas", "it": "Domande", "da": "Spørgsmål"},
    "prompt_tigress": {
        "en": "{name}: Tigress as pirate or escape?",
        "es": "{name}: ¿Tigresa como Pirata o como Huida?",
        "it": "{name}: Tigre come Pirata o come Fuga?",
        "da": "{name}: Tigress som pirat eller flugtkort?",
    },
    "prompt_rosie": {
        "en": "{name} won with Rosie: who leads next?",
        "es": "{name} ganó con Rosie: ¿quién sale ahora?",
        "it": "{name} ha vinto con Rosie: chi guida la prossima presa?",
        "da": "{name} vandt med Rosie: hvem spiller ud næste gang?",
    },
    "prompt_rosie_read": {
        "en": "{name} won with Rosie, and {leader} led the next trick. Did {name} choose {leader}?",
        "es": (
            "{name} ganó con Rosie y {leader} salió en la baza siguiente. ¿Eligió {name} a"
            " {leader}?"
        ),
        "it": (
            "{name} ha vinto con Rosie e {leader} ha guidato la presa successiva. {name} ha"
            " scelto {leader}?"
        ),
        "da": (
            "{name} vandt med Rosie, og {leader} spillede ud i næste stik. Valgte {name} {leader}?"
        ),
    },
    "rosie_read_yes": {
        "en": "Yes: {leader}",
        "es": "Sí: {leader}",
        "it": "Sì: {leader}",
        "da": "Ja: {leader}",
    },
    "prompt_rascal_bet": {
        "en": "{name} won with Rascal: bet 0, 10 or 20?",
        "es": "{name} ganó con Rascal: ¿cuántos puntos se juega: 0, 10 o 20?",
        "it": "{name} ha vinto con il Furfante: scommetti 0, 10 o 20?",
        "da": "{name} vandt med Rascal: sats 0, 10 eller 20?",
    },
    "prompt_harry": {
        "en": "{name} won with Harry: change the bid by −1, 0 or +1?",
        "es": "{name} ganó con Harry: ¿cambiar la apuesta en −1, 0 o +1?",
        "it": "{name} ha vinto con Harry: cambiare la puntata di −1, 0 o +1?",
        "da": "{name} vandt med Harry: ændr buddet med −1, 0 eller +1?",
    },
    "prompt_flagged": {
        "en": "Round {round}, trick {trick} looks doubtful: confirm or correct it.",
        "es": "La baza {trick} de la ronda {round} parece dudosa: confírmala o corrígela.",
        "it": "La presa {trick} del round {round} sembra dubbia: confermala o correggila.",
        "da": "Stik {trick} i runde {round} ser tvivlsomt ud: bekræft eller ret det.",
    },
    # A trick that cannot be resolved (a card missing, one read twice): it cannot be confirmed,
    # and "confirm or correct it" sent the table to a Confirm the server refuses.
    "prompt_flagged_correct": {
        "en": "Round {round}, trick {trick} cannot be scored as recorded: correct it.",
        "es": (
            "La baza {trick} de la ronda {round} no se puede puntuar tal como se grabó: corrígela."
        ),
        "it": (
            "La presa {trick} del round {round} non si può contare così come è stata"
            " registrata: correggila."
        ),
        "da": "Stik {trick} i runde {round} kan ikke regnes ud, som det er registreret: ret det.",
    },
    # The same two on a data folder that cannot be written, where no one can confirm or correct
    # (no answer buttons; the notice at the page's top says why): the doubt, not a request.
    "prompt_flagged_open": {
        "en": "Round {round}, trick {trick} looks doubtful.",
        "es": "La baza {trick} de la ronda {round} parece dudosa.",
        "it": "La presa {trick} del round {round} sembra dubbia.",
        "da": "Stik {trick} i runde {round} ser tvivlsomt ud.",
    },
    # The pirates' and the Tigress's questions there: what is not recorded yet, not a question
    # no button answers (Rosie's read choice: what was seen, without "Did Ana choose Bo?").
    "prompt_tigress_open": {
        "en": "{name}: Tigress as pirate or escape is not recorded yet.",
        "es": "{name}: aún no consta si la Tigresa va como Pirata o como Huida.",
        "it": "{name}: non è ancora registrato se la Tigre va come Pirata o come Fuga.",
        "da": "{name}: det er ikke registreret endnu, om Tigress er pirat eller flugtkort.",
    },
    "prompt_rosie_open": {
        "en": "{name} won with Rosie: who leads next is not recorded yet.",
        "es": "{name} ganó con Rosie: aún no consta quién sale ahora.",
        "it": "{name} ha vinto con Rosie: non è ancora registrato chi guida la prossima presa.",
        "da": "{name} vandt med Rosie: hvem der spiller ud næste gang, er ikke registreret endnu.",
    },
    "prompt_rosie_read_open": {
        "en": "{name} won with Rosie, and {leader} led the next trick.",
        "es": "{name} ganó con Rosie y {leader} salió en la baza siguiente.",
        "it": "{name} ha vinto con Rosie e {leader} ha guidato la presa successiva.",
        "da": "{name} vandt med Rosie, og {leader} spillede ud i næste stik.",
    },
    "prompt_rascal_bet_open": {
        "en": "{name} won with Rascal: the bet (0, 10 or 20) is not recorded yet.",
        "es": "{name} ganó con Rascal: aún no consta cuántos puntos se juega (0, 10 o 20).",
        "it": (
            "{name} ha vinto con il Furfante: la scommessa (0, 10 o 20) non è ancora registrata."
        ),
        "da": "{name} vandt med Rascal: satsen (0, 10 eller 20) er ikke registreret endnu.",
    },
    "prompt_harry_open": {
        "en": "{name} won with Harry: the bid's change (−1, 0 or +1) is not recorded yet.",
        "es": "{name} ganó con Harry: aún no consta el cambio de la apuesta (−1, 0 o +1).",
        "it": (
            "{name} ha vinto con Harry: il cambio della puntata (−1, 0 o +1) non è ancora"
            " registrato."
        ),
        "da": "{name} vandt med Harry: ændringen af buddet (−1, 0 eller +1) er ikke registreret"
        " endnu.",
    },
    "prompt_flagged_correct_open": {
        "en": "Round {round}, trick {trick} cannot be scored as recorded.",
        "es": "La baza {trick} de la ronda {round} no se puede puntuar tal como se grabó.",
        "it": (
            "La presa {trick} del round {round} non si può contare così come è stata registrata."
        ),
        "da": "Stik {trick} i runde {round} kan ikke regnes ud, som det er registreret.",
    },
    "dismiss": {"en": "Dismiss", "es": "Ignorar", "it": "Ignora", "da": "Afvis"},
    "settings": {"en": "Settings", "es": "Ajustes", "it": "Impostazioni", "da": "Indstillinger"},
    "settings_recompute": {
        "en": "Changing a setting recomputes every round already played.",
        "es": "Cambiar un ajuste recalcula todas las rondas ya jugadas.",
        "it": "Cambiare un'impostazione ricalcola tutti i round già giocati.",
        "da": "Ændrer du en indstilling, bliver alle spillede runder regnet om.",
    },
    "saved": {"en": "Saved", "es": "Guardado", "it": "Salvato", "da": "Gemt"},
    "bid_saved": {
        "en": "Bid saved: {name}, {bid}",
        "es": "Apuesta guardada: {name}, {bid}",
        "it": "Puntata salvata: {name}, {bid}",
        "da": "Bud gemt: {name}, {bid}",
    },
    "history": {"en": "History", "es": "Historial", "it": "Storico", "da": "Historik"},
    "setup_sets_aside": {
        "en": (
            "Game {game} ({players}) is in progress, round {round} of {rounds}: a new game sets"
            " it aside; it stays in History."
        ),
        "es": (
            "La partida {game} ({players}) está en curso, ronda {round} de {rounds}: una partida"
            " nueva la deja aparte; sigue en el Historial."
        ),
        "it": (
            "La partita {game} ({players}) è in corso, round {round} di {rounds}: una nuova"
            " partita la mette da parte; resta nello Storico."
        ),
        "da": (
            "Spil {game} ({players}) er i gang, runde {round} af {rounds}: et nyt spil lægger det"
            " til side; det bliver i Historik."
        ),
    },
    "finished_games": {
        "en": "Games",
        "es": "Partidas",
        "it": "Partite",
        "da": "Spil",
    },
    "export_json": {
        "en": "Game record (JSON)",
        "es": "Registro (JSON)",
        "it": "Registro (JSON)",
        "da": "Spilregistrering (JSON)",
    },
    "export_csv": {
        "en": "Score sheet (CSV)",
        "es": "Hoja de puntuación (CSV)",
        "it": "Foglio punti (CSV)",
        "da": "Pointskema (CSV)",
    },
    "import": {
        "en": "Import a game record",
        "es": "Importar un registro",
        "it": "Importa un registro",
        "da": "Importér en spilregistrering",
    },
    "finished": {"en": "finished", "es": "terminada", "it": "finita", "da": "slut"},
    "in_progress": {"en": "in progress", "es": "en curso", "it": "in corso", "da": "i gang"},
    "pin": {"en": "Table PIN", "es": "PIN de la mesa", "it": "PIN del tavolo", "da": "Bordets PIN"},
    "pin_hint": {
        "en": "Enter the PIN shown where skullcam was started.",
        "es": "Escribe el PIN que muestra skullcam al arrancar.",
        "it": "Inserisci il PIN mostrato all'avvio di skullcam.",
        "da": "Indtast den PIN, skullcam viste ved start.",
    },
    "ok": {"en": "OK", "es": "OK", "it": "OK", "da": "OK"},
    "connection_lost": {
        "en": "Reconnecting…",
        "es": "Reconectando…",
        "it": "Riconnessione…",
        "da": "Genopretter forbindelse…",
    },
    "tv": {"en": "TV", "es": "TV", "it": "TV", "da": "TV"},
    "language": {"en": "Language", "es": "Idioma", "it": "Lingua", "da": "Sprog"},
    "yes": {"en": "Yes", "es": "Sí", "it": "Sì", "da": "Ja"},
    "no": {"en": "No", "es": "No", "it": "No", "da": "Nej"},
    "finish_game": {
        "en": "Finish game",
        "es": "Terminar partida",
        "it": "Termina partita",
        "da": "Afslut spillet",
    },
    "resume_game": {
        "en": "Resume game",
        "es": "Reanudar partida",
        "it": "Riprendi partita",
        "da": "Genoptag spillet",
    },
    # Offered for a game finished early by mistake, and for one whose tie-break round became
    # due while it was kept finished (another game had the table): "Finished by mistake?"
    # alone did not cover that one.
    "resume_hint": {
        "en": "Rounds left to play (finished by mistake, or one more round for a tie)?"
        " The camera records into it again.",
        "es": "¿Quedan rondas por jugar (terminada por error, o una ronda más por empate)?"
        " La cámara vuelve a grabar en ella.",
        "it": "Restano round da giocare (finita per sbaglio, o un round in più per parità)?"
        " La fotocamera torna a registrarla.",
        "da": "Er der runder tilbage (afsluttet ved en fejl, eller en runde mere ved uafgjort)?"
        " Kameraet optager det igen.",
    },
    "confirm_finish": {
        "en": (
            "Finish this game now? The camera stops recording into it (Settings can resume it)."
        ),
        "es": (
            "¿Terminar la partida ahora? La cámara deja de grabar en ella (se puede reanudar en"
            " Ajustes)."
        ),
        "it": (
            "Terminare la partita ora? La fotocamera smette di registrarla (si può riprendere da"
            " Impostazioni)."
        ),
        "da": (
            "Afslut spillet nu? Kameraet holder op med at optage det (det kan genoptages under"
            " Indstillinger)."
        ),
    },
    "choose_record": {
        "en": "choose a .json game record first",
        "es": "elige primero un registro de partida .json",
        "it": "scegli prima un registro di partita .json",
        "da": "vælg først en .json-spilfil",
    },
    "record_not_utf8": {
        "en": "{file} is not UTF-8 text: save it as UTF-8 and import it again",
        "es": "{file} no es texto UTF-8: guárdalo como UTF-8 e impórtalo de nuevo",
        "it": "{file} non è testo UTF-8: salvalo come UTF-8 e importalo di nuovo",
        "da": "{file} er ikke UTF-8-tekst: gem den som UTF-8 og importér den igen",
    },
    "previous_round": {
        "en": "previous round",
        "es": "ronda anterior",
        "it": "round precedente",
        "da": "forrige runde",
    },
    "next_round": {
        "en": "next round",
        "es": "ronda siguiente",
        "it": "round successivo",
        "da": "næste runde",
    },
    # Spoken only (aria-label, title, visually hidden text): what a sign or a bare button means.
    "previous_trick": {
        "en": "previous trick",
        "es": "baza anterior",
        "it": "presa precedente",
        "da": "forrige stik",
    },
    "next_trick": {
        "en": "next trick",
        "es": "baza siguiente",
        "it": "presa successiva",
        "da": "næste stik",
    },
    "correct_play": {
        "en": "Correct play {n} · {name}",
        "es": "Corregir jugada {n} · {name}",
        "it": "Correggi giocata {n} · {name}",
        "da": "Ret kort {n} · {name}",
    },
    "corrected": {"en": "corrected", "es": "corregida", "it": "corretta", "da": "rettet"},
    # The tricks page's faded ✎: a trick corrected and put back as the camera saw it.
    "corrected_taken_back": {
        "en": "corrected, then taken back",
        "es": "corregida y luego deshecha",
        "it": "corretta, poi annullata",
        "da": "rettet og siden fortrudt",
    },
    "trick_winner": {
        "en": "wins the trick",
        "es": "gana la baza",
        "it": "vince la presa",
        "da": "vinder stikket",
    },
    "over_bid": {
        "en": "more tricks than bid",
        "es": "más bazas que las apostadas",
        "it": "più prese della puntata",
        "da": "flere stik end buddet",
    },
    "score_error": {
        "en": "The scores cannot be computed until this is corrected:",
        "es": "Los puntos no se pueden calcular hasta corregir esto:",
        "it": "I punti non si possono calcolare finché non si corregge:",
        "da": "Pointene kan ikke regnes ud, før dette er rettet:",
    },
    "model": {"en": "Model", "es": "Modelo", "it": "Modello", "da": "Model"},
    "bids_missing": {
        "en": "Play has started without a bid from {names}: enter it now",
        "es": "Ya se juega la ronda sin la apuesta de {names}: anótala ahora",
        "it": "Il round è iniziato senza la puntata di {names}: inseriscila ora",
        "da": "Spillet er i gang uden bud fra {names}: indtast det nu",
    },
    # The bids page's top line while the score stops for bids never entered (app.js's
    # showScoreStop): the whole reason, under every player's buttons, went unseen on a phone.
    "score_stops_bids_of": {
        "en": "Round {round} has no bid from {names}: scores stop there until it is entered.",
        "es": (
            "En la ronda {round} falta la apuesta de {names}: la puntuación se detiene ahí"
            " hasta anotarla."
        ),
        "it": (
            "Nel round {round} manca la puntata di {names}: i punti si fermano lì finché non"
            " la inserite."
        ),
        "da": (
            "Runde {round} mangler bud fra {names}: pointene står stille der, til det er indtastet."
        ),
    },
    "score_stops_no_bids": {
        "en": "Round {round} has no bids: scores stop there until they are entered.",
        "es": ("La ronda {round} no tiene apuestas: la puntuación se detiene ahí hasta anotarlas."),
        "it": "Il round {round} non ha puntate: i punti si fermano lì finché non le inserite.",
        "da": "Runde {round} har ingen bud: pointene står stille der, til de er indtastet.",
    },
    "round_started": {
        "en": "Round {round} has started",
        "es": "Ha empezado la ronda {round}",
        "it": "È iniziato il round {round}",
        "da": "Runde {round} er begyndt",
    },
    "go_to_round": {
        "en": "Go to round {round}",
        "es": "Ir a la ronda {round}",
        "it": "Vai al round {round}",
        "da": "Gå til runde {round}",
    },
    "rosie_chooses": {
        "en": "{name} chooses (Rosie)",
        "es": "lo elige {name} (Rosie)",
        "it": "sceglie {name} (Rosie)",
        "da": "{name} vælger (Rosie)",
    },
    "change_a_bid": {
        "en": "Change a bid",
        "es": "Cambiar una apuesta",
        "it": "Cambia una puntata",
        "da": "Ret et bud",
    },
    "confirm_bid_after_game": {
        "en": "The game is over. Changing a bid now changes the final score (it is kept in the"
        " game's history). Change a bid?",
        "es": "La partida ha terminado. Cambiar ahora una apuesta cambia la puntuación final"
        " (queda en el historial de la partida). ¿Cambiar una apuesta?",
        "it": "La partita è finita. Cambiare ora una puntata cambia il punteggio finale (resta"
        " nella cronologia della partita). Cambiare una puntata?",
        "da": "Spillet er slut. Ændres et bud nu, ændres slutresultatet (det gemmes i spillets"
        " historik). Ret et bud?",
    },
    # As confirm_bid_after_game, while the score stops for bids never entered: there is no
    # final score for a bid to change (a game night read "changes the final score" there).
    "confirm_bid_unscored": {
        "en": "The game is over, but it has no final score until round {round}'s bids are in."
        " A bid changed now is kept in the game's history. Change a bid?",
        "es": "La partida ha terminado, pero no tiene puntuación final hasta anotar las apuestas"
        " de la ronda {round}. Una apuesta cambiada ahora queda en el historial de la partida."
        " ¿Cambiar una apuesta?",
        "it": "La partita è finita, ma non ha un punteggio finale finché mancano le puntate del"
        " round {round}. Una puntata cambiata ora resta nella cronologia della partita."
        " Cambiare una puntata?",
        "da": "Spillet er slut, men har intet slutresultat, før buddene i runde {round} er"
        " indtastet. Et bud, der ændres nu, gemmes i spillets historik. Ret et bud?",
    },
    "no_connection": {
        "en": "No connection to the table's server: check the phone's Wi-Fi and try again.",
        "es": "Sin conexión con el servidor de la mesa: revisa el wifi del móvil y vuelve a"
        " intentarlo.",
        "it": "Nessuna connessione con il server del tavolo: controlla il Wi-Fi del telefono e"
        " riprova.",
        "da": "Ingen forbindelse til bordets server: tjek telefonens wifi, og prøv igen.",
    },
    "record_not_json": {
        "en": "{file} is not a game record: it is not JSON",
        "es": "{file} no es un registro de partida: no es JSON",
        "it": "{file} non è un registro di partita: non è JSON",
        "da": "{file} er ikke en spilregistrering: det er ikke JSON",
    },
    "error_not_found": {
        "en": "not found: check the address",
        "es": "no encontrado: revisa la dirección",
        "it": "non trovato: controlla l'indirizzo",
        "da": "ikke fundet: tjek adressen",
    },
    "error_method": {
        "en": "method not allowed for this address",
        "es": "este método no está permitido en esta dirección",
        "it": "metodo non consentito per questo indirizzo",
        "da": "metoden er ikke tilladt på denne adresse",
    },
    "error_too_large": {
        "en": "upload too large (4 MB at most)",
        "es": "archivo demasiado grande (4 MB como máximo)",
        "it": "file troppo grande (al massimo 4 MB)",
        "da": "filen er for stor (højst 4 MB)",
    },
    # The demo's game, and why nothing records the table's game (skullcam run's camera).
    "demo_banner": {
        "en": "Demo: a recorded game replayed, no camera. Press New game to start yours.",
        "es": (
            "Demo: se reproduce una partida grabada; no hay cámara. Pulsa Nueva partida para"
            " empezar la tuya."
        ),
        "it": (
            "Demo: si riproduce una partita registrata; nessuna fotocamera collegata. Premi"
            " Nuova partita per iniziare la tua."
        ),
        "da": (
            "Demo: et optaget spil afspilles – der er intet kamera. Tryk på Nyt spil for at"
            " starte dit eget."
        ),
    },
    # The demo's game seen on a data folder that cannot be written ('skullcam run --camera
    # none'): nothing replays it now, and no New game can start there.
    "demo_banner_read_only": {
        "en": "Demo: a recorded game the demo replayed, with no camera; not the table's game.",
        "es": (
            "Demo: una partida grabada que la demo reprodujo, sin cámara; no es la partida de"
            " la mesa."
        ),
        "it": (
            "Demo: una partita registrata riprodotta dalla demo, senza fotocamera; non è la"
            " partita del tavolo."
        ),
        "da": (
            "Demo: et optaget spil, som demoen afspillede uden kamera; det er ikke bordets spil."
        ),
    },
    "camera_failed": {
        "en": (
            "The camera is not working: tricks are not being recorded. Check it; skullcam tries"
            " it again every few seconds."
        ),
        "es": (
            "La cámara no funciona: las bazas no se graban. Revísala; skullcam la vuelve a"
            " probar cada pocos segundos."
        ),
        "it": (
            "La fotocamera non funziona: le prese non vengono registrate. Controllala;"
            " skullcam riprova a intervalli di pochi secondi."
        ),
        "da": (
            "Kameraet virker ikke: stikkene optages ikke. Tjek det; skullcam prøver igen med få"
            " sekunders mellemrum."
        ),
    },
    "camera_frozen": {
        "en": (
            "The camera's picture has stopped changing: cards laid now are seen only once it"
            " moves again. Check the camera's cable and that nothing covers its lens."
        ),
        "es": (
            "La imagen de la cámara se ha congelado: las cartas que se jueguen ahora solo se"
            " verán cuando vuelva a moverse. Revisa el cable de la cámara y que nada tape el"
            " objetivo."
        ),
        "it": (
            "L'immagine della fotocamera si è bloccata: le carte giocate ora si vedranno solo"
            " quando tornerà a muoversi. Controlla il cavo della fotocamera e che niente copra"
            " l'obiettivo."
        ),
        "da": (
            "Kameraets billede står stille: kort, der lægges nu, ses først, når det bevæger sig"
            " igen. Tjek kameraets kabel, og at intet dækker linsen."
        ),
    },
    "camera_dark": {
        "en": (
            "The camera's picture is almost black: something covers its lens (a cap, a privacy"
            " shutter), or the light is off. Cards laid now may not be seen."
        ),
        "es": (
            "La imagen de la cámara está casi negra: algo cubre el objetivo (su tapa, una tapa"
            " deslizante de privacidad) o la luz está apagada. Puede que las cartas que se"
            " jueguen ahora no se vean."
        ),
        "it": (
            "L'immagine della fotocamera è quasi nera: qualcosa copre l'obiettivo (un tappo,"
            " uno sportellino per la privacy) oppure la luce è spenta. Le carte giocate ora"
            " potrebbero non vedersi."
        ),
        "da": (
            "Kameraets billede er næsten sort: noget dækker linsen (et linsedæksel, et"
            " webcamdæksel), eller lyset er slukket. Kort, der lægges nu, ses måske ikke."
        ),
    },
    "camera_blurred": {
        "en": (
            "The camera's picture is blurred: cards may be misread. Focus or clean the lens,"
            " and look over the tricks marked “Check this trick”."
        ),
        "es": (
            "La imagen de la cámara está borrosa: puede que alguna carta se lea mal. Enfoca o"
            " limpia el objetivo, y repasa las bazas marcadas con «Revisa esta baza»."
        ),
        "it": (
            "L'immagine della fotocamera è sfocata: alcune carte potrebbero essere lette male."
            " Metti a fuoco o pulisci l'obiettivo, e guarda le prese segnate con «Controlla"
            " questa presa»."
        ),
        "da": (
            "Kameraets billede er uskarpt: kort kan blive læst forkert. Stil skarpt eller rens"
            " linsen, og gennemgå de stik, der er markeret »Tjek dette stik«."
        ),
    },
    "camera_moved": {
        "en": (
            "The camera or the table has moved since the seats were calibrated: the seats follow"
            " the cards laid. Calibrate again before the next game (skullcam calibrate)."
        ),
        "es": (
            "La cámara o la mesa se han movido desde que se calibraron los asientos: los"
            " asientos se ajustan a dónde se juegan las cartas. Vuelve a calibrar antes de la"
            " próxima partida (skullcam calibrate)."
        ),
        "it": (
            "La fotocamera o il tavolo si sono spostati da quando i posti sono stati calibrati:"
            " i posti si adattano a dove vengono giocate le carte. Calibra di nuovo prima della"
            " prossima partita (skullcam calibrate)."
        ),
        "da": (
            "Kameraet eller bordet har flyttet sig, siden pladserne blev kalibreret: pladserne"
            " følger de lagte kort. Kalibrér igen før næste spil (skullcam calibrate)."
        ),
    },
    "camera_slow": {
        "en": (
            "Too few of the camera's pictures are read a second: cards laid and taken quickly"
            " can be missed. Look over each trick as it is recorded."
        ),
        "es": (
            "Se leen muy pocas imágenes de la cámara por segundo: las cartas que se jueguen y"
            " se retiren deprisa pueden pasarse por alto. Repasa cada baza al registrarse."
        ),
        "it": (
            "Vengono lette troppo poche immagini della fotocamera al secondo: le carte giocate"
            " e raccolte in fretta possono sfuggire. Controlla ogni presa quando viene"
            " registrata."
        ),
        "da": (
            "Der læses for få af kameraets billeder i sekundet: kort, der lægges og tages"
            " hurtigt, kan blive overset. Gennemgå hvert stik, når det bliver optaget."
        ),
    },
    "camera_slow_replay": {
        "en": (
            "The recording plays {speed} times as fast as the table played it, faster than this"
            " machine reads its pictures: cards laid and taken quickly can be missed. Play it at"
            " a lower speed (skullcam run --speed 1 is real time)."
        ),
        "es": (
            "La grabación se reproduce {speed} veces más rápido de lo que se jugó, más de lo que"
            " esta máquina alcanza a leer sus imágenes: las cartas que se jueguen y se retiren"
            " deprisa pueden pasarse por alto. Reprodúcela más despacio (skullcam run --speed 1"
            " es tiempo real)."
        ),
        "it": (
            "La registrazione scorre {speed} volte più veloce di come si è giocato, più di quanto"
            " questa macchina riesca a leggerne le immagini: le carte giocate e raccolte in"
            " fretta possono sfuggire. Riproducila più lentamente (skullcam run --speed 1 è il"
            " tempo reale)."
        ),
        "da": (
            "Optagelsen afspilles {speed} gange så hurtigt, som bordet spillede, hurtigere end"
            " denne maskine kan læse billederne: kort, der lægges og tages hurtigt, kan blive"
            " overset. Afspil den langsommere (skullcam run --speed 1 er realtid)."
        ),
    },
    # The camera_slow notice when the frames come from a file: no camera to mend.
    "camera_slow_recording": {
        "en": (
            "Too few of the recording's pictures are read a second: cards laid and taken"
            " quickly can be missed. Look over each trick as it is recorded."
        ),
        "es": (
            "Se leen muy pocas imágenes de la grabación por segundo: las cartas que se jueguen"
            " y se retiren deprisa pueden pasarse por alto. Repasa cada baza al registrarse."
        ),
        "it": (
            "Vengono lette troppo poche immagini della registrazione al secondo: le carte"
            " giocate e raccolte in fretta possono sfuggire. Controlla ogni presa quando viene"
            " registrata."
        ),
        "da": (
            "Der læses for få af optagelsens billeder i sekundet: kort, der lægges og tages"
            " hurtigt, kan blive overset. Gennemgå hvert stik, når det bliver optaget."
        ),
    },
    "camera_slow_demo": {
        "en": (
            "Too few of the demo's pictures are read a second: cards laid and taken quickly"
            " can be missed."
        ),
        "es": (
            "Se leen muy pocas imágenes de la demo por segundo: las cartas que se jueguen y se"
            " retiren deprisa pueden pasarse por alto."
        ),
        "it": (
            "Vengono lette troppo poche immagini della demo al secondo: le carte giocate e"
            " raccolte in fretta possono sfuggire."
        ),
        "da": (
            "Der læses for få af demoens billeder i sekundet: kort, der lægges og tages"
            " hurtigt, kan blive overset."
        ),
    },
    "camera_slow_demo_replay": {
        "en": (
            "The demo plays {speed} times as fast as the table played it, faster than this"
            " machine reads its pictures: cards laid and taken quickly can be missed. Play it at"
            " a lower speed (skullcam run --speed 1 is real time)."
        ),
        "es": (
            "La demo se reproduce {speed} veces más rápido de lo que se jugó, más de lo que"
            " esta máquina alcanza a leer sus imágenes: las cartas que se jueguen y se retiren"
            " deprisa pueden pasarse por alto. Reprodúcela más despacio (skullcam run --speed 1"
            " es tiempo real)."
        ),
        "it": (
            "La demo scorre {speed} volte più veloce di come si è giocato, più di quanto questa"
            " macchina riesca a leggerne le immagini: le carte giocate e raccolte in fretta"
            " possono sfuggire. Riproducila più lentamente (skullcam run --speed 1 è il tempo"
            " reale)."
        ),
        "da": (
            "Demoen afspilles {speed} gange så hurtigt, som bordet spillede, hurtigere end"
            " denne maskine kan læse billederne: kort, der lægges og tages hurtigt, kan blive"
            " overset. Afspil den langsommere (skullcam run --speed 1 er realtid)."
        ),
    },
    "camera_frames_ran_out": {
        "en": "The camera's frames ran out: nothing records tricks now.",
        "es": "Se acabaron los fotogramas de la cámara: ya no se graban las bazas.",
        "it": "I fotogrammi della fotocamera sono finiti: le prese non vengono più registrate.",
        "da": "Der er ikke flere billeder fra kameraet: stikkene optages ikke længere.",
    },
    "error_server": {
        "en": (
            "the server failed on this request (the details are in its log); try again, and"
            " report it if it keeps happening"
        ),
        "es": (
            "el servidor falló con esta petición (los detalles están en su registro); vuelve a"
            " intentarlo y avisa si sigue pasando"
        ),
        "it": (
            "il server ha fallito questa richiesta (i dettagli sono nel suo log); riprova e"
            " segnalalo se continua a succedere"
        ),
        "da": (
            "serveren fejlede på denne forespørgsel (detaljerne står i dens log); prøv igen, og"
            " meld det, hvis det bliver ved"
        ),
    },
    "error_disk_full": {
        "en": (
            "the disk of the computer running skullcam is full: this change was not saved, and"
            " nothing saved before it was lost; free some space on it, then try again"
        ),
        "es": (
            "el disco del ordenador que ejecuta skullcam está lleno: este cambio no se guardó,"
            " y no se perdió nada de lo guardado antes; libera espacio en él y vuelve a"
            " intentarlo"
        ),
        "it": (
            "il disco del computer su cui gira skullcam è pieno: questa modifica non è stata"
            " salvata, e nulla di quanto salvato prima è andato perso; libera spazio e riprova"
        ),
        "da": (
            "disken på computeren, der kører skullcam, er fuld: denne ændring blev ikke gemt,"
            " og intet, der var gemt før, gik tabt; frigør plads på den, og prøv igen"
        ),
    },
    "error_busy": {
        "en": (
            "the game database is busy (another program is writing to it); nothing was"
            " changed: try again in a moment"
        ),
        "es": (
            "la base de datos de la partida está ocupada (otro programa está escribiendo en"
            " ella); no se cambió nada: vuelve a intentarlo en un momento"
        ),
        "it": (
            "il database della partita è occupato (un altro programma ci sta scrivendo); non è"
            " cambiato nulla: riprova tra un momento"
        ),
        "da": (
            "spildatabasen er optaget (et andet program skriver i den); intet blev ændret:"
            " prøv igen om et øjeblik"
        ),
    },
    # Any other HTTP error Werkzeug answers itself (a Range past a file's end, 416; a request
    # it cannot read, 400): its English description stays the API's ``error``.
    "error_request": {
        "en": "the server could not answer this request (HTTP {code}); reload the page",
        "es": "el servidor no pudo atender esta petición (HTTP {code}); recarga la página",
        "it": "il server non ha potuto rispondere a questa richiesta (HTTP {code}); ricarica la"
        " pagina",
        "da": "serveren kunne ikke besvare denne forespørgsel (HTTP {code}); genindlæs siden",
    },
    # An event stream refused while too many pages follow the game (``SSE_MAX_STREAMS``).
    "error_too_many_pages": {
        "en": "too many pages are following the game; this page tries again in a few seconds",
        "es": (
            "demasiadas páginas siguen la partida; esta página lo vuelve a intentar en unos"
            " segundos"
        ),
        "it": (
            "troppe pagine stanno seguendo la partita; questa pagina riprova tra qualche secondo"
        ),
        "da": "for mange sider følger spillet; denne side prøver igen om et par sekunder",
    },
    # Settings labels (rules.md keys). Danish are the score sheet's own names.
    "set_rounds": {
        "en": "Number of rounds",
        "es": "Número de rondas",
        "it": "Numero di round",
        "da": "Antal runder",
    },
    "set_points_per_trick": {
        "en": "Points per trick on an exact bid",
        "es": "Puntos por baza con apuesta exacta",
        "it": "Punti per presa con puntata esatta",
        "da": "Point pr. stik ved holdt bud",
    },
    "set_miss_penalty_per_trick": {
        "en": "Penalty per trick off",
        "es": "Penalización por baza de diferencia",
        "it": "Penalità per presa di differenza",
        "da": "Straf pr. stik ved siden af",
    },
    "set_zero_bid_points": {
        "en": "Zero bid: points per card",
        "es": "Apuesta cero: puntos por carta",
        "it": "Puntata zero: punti per carta",
        "da": "Nul-bud, point pr. runde",
    },
    "set_zero_bid_mode": {
        "en": "Zero bid scoring",
        "es": "Cálculo de la apuesta cero",
        "it": "Calcolo della puntata zero",
        "da": "Regnemåde for nul-bud",
    },
    "set_keep_bonus_on_miss": {
        "en": "Keep bonuses on a missed bid",
        "es": "Conservar bonus con apuesta fallada",
        "it": "Tieni i bonus con puntata sbagliata",
        "da": "Behold bonusser ved misset bud",
    },
    "set_mermaid_captures_skull_king": {
        "en": "Mermaid captures Skull King",
        "es": "Una Sirena captura al Skull King",
        "it": "Sirena cattura il Re dei Teschi",
        "da": "Havfrue fanger Skull King",
    },
    "set_skull_king_captures_pirate": {
        "en": "Skull King captures a pirate",
        "es": "El Skull King captura a un Pirata",
        "it": "Re dei Teschi cattura un Pirata",
        "da": "Skull King fanger en pirat",
    },
    "set_pirate_captures_mermaid": {
        "en": "Pirate captures a mermaid",
        "es": "Un Pirata captura a una Sirena",
        "it": "Pirata cattura una Sirena",
        "da": "Pirat fanger en havfrue",
    },
    "set_fourteen_bonus": {
        "en": "Each coloured 14",
        "es": "Cada 14 de color",
        "it": "Ogni 14 colorato",
        "da": "Hver farvet 14'er",
    },
    "set_black_fourteen_bonus": {
        "en": "The black 14",
        "es": "El 14 negro",
        "it": "Il 14 nero",
        "da": "Den sorte 14'er",
    },
    "set_loot": {"en": "Loot cards", "es": "Cartas de Botín", "it": "Bottino", "da": "Byttekort"},
    "set_loot_alliance_bonus": {
        "en": "Loot alliance bonus",
        "es": "Bonus de alianza del Botín",
        "it": "Bonus alleanza del Bottino",
        "da": "Bonus for byttealliance",
    },
    "set_kraken_and_white_whale": {
        "en": "Kraken and White Whale",
        "es": "Kraken y Ballena Blanca",
        "it": "Kraken e Balena Bianca",
        "da": "Kraken og Den Hvide Hval",
    },
    "set_kraken_next_leader": {
        "en": "After the Kraken, who leads",
        "es": "Tras el Kraken, quién sale",
        "it": "Dopo il Kraken, chi guida",
        "da": "Efter Kraken: hvem spiller ud",
    },
    "set_pirate_abilities": {
        "en": "Pirate abilities",
        "es": "Habilidades de los Piratas",
        "it": "Abilità dei Pirati",
        "da": "Piraternes evner",
    },
    "set_scoring": {"en": "Scoring", "es": "Puntuación", "it": "Punteggio", "da": "Pointgivning"},
    "set_tie": {
        "en": "On a tie",
        "es": "En caso de empate",
        "it": "In caso di parità",
        "da": "Ved uafgjort",
    },
    # Setting choices.
    "opt_per_card": {
        "en": "times the cards dealt",
        "es": "por las cartas repartidas",
        "it": "per le carte distribuite",
        "da": "gang med antal givne kort (normalt rundenummeret)",
    },
    "opt_fixed": {"en": "fixed", "es": "fijo", "it": "fisso", "da": "fast"},
    "opt_would_have_won": {
        "en": "who would have won",
        "es": "quien habría ganado",
        "it": "chi avrebbe vinto",
        "da": "den, der ville have vundet",
    },
    "opt_left_of_kraken": {
        "en": "player left of the Kraken",
        "es": "el jugador a la izquierda del Kraken",
        "it": "il giocatore a sinistra del Kraken",
        "da": "spilleren til venstre for Kraken",
    },
    "opt_standard": {"en": "standard", "es": "estándar", "it": "standard", "da": "standard"},
    "opt_rascal": {
        "en": "Rascal's scoring",
        "es": "Puntuación de Rascal",
        "it": "Punteggio del Furfante",
        "da": "Rascal scoring",
    },
    "opt_no_bonus": {
        "en": "no bonuses",
        "es": "sin bonus",
        "it": "senza bonus",
        "da": "ingen bonusser",
    },
    "opt_shared": {
        "en": "shared win",
        "es": "victoria compartida",
        "it": "vittoria condivisa",
        "da": "delt sejr",
    },
    "opt_extra_round": {
        "en": "one more round",
        "es": "una ronda más",
        "it": "un round in più",
        "da": "en runde mere",
    },
}


def translate(key: str, lang: str, **fields: object) -> str:
    """The string ``key`` in ``lang`` (English when missing), with ``{fields}`` filled in."""
    entry = STRINGS.get(key)
    text = key if entry is None else entry.get(lang) or entry["en"]
    return text.format(**fields) if fields else text


def number_text(value: int) -> str:
    """A number as the pages show it: a negative one with the minus sign (U+2212), as a
    printed score sheet has it. Pages showed "-40" on some and "−40" on others. The page
    scripts' ``num`` (app.js) does the same; the CSV and JSON exports keep ASCII "-", since
    programs read them."""
    return f"\u2212{-value}" if value < 0 else str(value)


#: The card ids :func:`card_in_sentence` says with "a": no name tells which card they are.
UNNAMED = ("pirate", "mermaid")


def card_in_sentence(card_id: str, lang: str) -> str:
    """``card_id`` named in a sentence with no player beside it: an unnamed pirate or mermaid
    as one says a card whose name is not known ("+30 for capturing a Pirate", "por capturar
    a un Pirata", "for at fange en havfrue"), any other card by its name ("Harry the
    Giant"). The card's name alone read "per aver catturato Pirata". The TV's script gets
    its bonus items worded with it (``explain_i18n.bonus_items_for_script``)."""
    if card_id in UNNAMED:
        return translate(f"card_some_{card_id}", lang)
    return card_in_text(card_id, lang)


def js_strings(lang: str) -> dict[str, str]:
    """Every UI string in ``lang`` for the page scripts (rendered once into the page)."""
    return {key: translate(key, lang) for key in STRINGS}


def js_cards(lang: str) -> dict[str, str]:
    """Every card id's display name in ``lang`` (for the page scripts and correction menus)."""
    from skullcam.rules import CARD_IDS

    return {cid: card_name(cid, lang) for cid in CARD_IDS}
