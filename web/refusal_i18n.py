"""Why a change was refused, in Spanish, Italian and Danish, for the page that asked for it.

The store refuses a change with a phrase (``store/refusals.py``: a key and its values), and
the web its PIN checks and its refusal of a page asked for under another name the same way
(``PIN_ENGLISH``), and the API a request body it cannot take (``REQUEST_ENGLISH``: not JSON,
not an object, a key missing; a page older than its server sends one). A page's request
carries the reader's language, so the error answer says the refusal in it as ``error_text``
beside the English ``error`` that programs read. A refusal with no phrase, or a key a
language lacks, is shown in English.
"""

from __future__ import annotations

from dataclasses import replace

from skullcam.errors import UserError
from skullcam.rules import GameRecordError, RecordShapeError
from skullcam.rules.errors import SettingError
from skullcam.rules.explain import render
from skullcam.store.refusals import ENGLISH as STORE_ENGLISH
from skullcam.store.refusals import ExportRefused

from . import explain_i18n

PIN_ENGLISH: dict[str, str] = {
    "pin_not_set": "this table has no PIN set; restart skullcam run with --pin",
    "pin_header_wrong": (
        "wrong PIN in X-Skullcam-Pin: send the table's PIN shown where skullcam was started"
    ),
    "pin_missing": "wrong or missing PIN: enter the table's PIN shown where skullcam was started",
    "pin_typed_wrong": "wrong PIN",
    "pin_locked": "too many wrong PINs; wait {seconds} s and try again",
    "pin_table_locked": (
        "too many wrong PINs at this table in the last hour; wait {minutes} min, use a phone "
        "that already has the PIN, or ask the host to press 'Let phones in again' on the home "
        "page of the machine skullcam runs on"
    ),
    "pin_unlock_here": (
        "only the machine skullcam runs on can let phones enter the PIN again: open its home "
        "page there"
    ),
    # A scoreboard listening on this machine only, asked for under another name.
    "foreign_host": "this scoreboard listens on this machine only: open it as http://localhost:{port}/",
    "foreign_host_write": (
        "this scoreboard listens on this machine only: open it as http://localhost:{port}/ to"
        " change anything"
    ),
}

#: A request body the API cannot take (``web/api.py``): not JSON, not an object, a key missing
#: or of the wrong kind. The pages never send one, but a page older than the server it talks
#: to (a phone left open across an upgrade) can, and its reader saw these in English alone.
REQUEST_ENGLISH: dict[str, str] = {
    "request_not_json": "send JSON (Content-Type: application/json)",
    "request_not_utf8": (
        "the request body is not UTF-8 text (byte {byte}): send JSON encoded as UTF-8"
    ),
    "request_malformed": "malformed JSON: {why}",
    "request_long_number": "malformed JSON: a number has too many digits",
    "request_too_deep": "malformed JSON: nested too deeply",
    "request_not_object": "the request body must be a JSON object",
    "request_key_missing": "missing {name}",
    "request_bid_missing": "missing 'bid' (send null to clear a bid)",
    "request_bids_not_list": "bids must be a list, one per player",
    "request_cannonballs_not_list": (
        "with all bids, cannonball must be a list of true/false, one per player"
    ),
    "request_cannonball_not_bool": "cannonball must be true or false",
    "request_card_not_text": "unknown card {card}; use an id like green-7",
    "request_pin_not_text": "send 'pin', the table's PIN, as text",
    "request_nothing_to_correct": "say what to correct: a card, a player, or both",
    "request_plays_not_list": "plays must be a list of {{player, card}}, the leader's first",
    "request_settings_missing": ('send {{"settings": {{...}}}} with the settings to change'),
}

TEMPLATES: dict[str, dict[str, str]] = {
    "es": {
        "foreign_host": (
            "este marcador solo escucha en esta máquina: ábrelo como http://localhost:{port}/"
        ),
        "foreign_host_write": (
            "este marcador solo escucha en esta máquina: ábrelo como http://localhost:{port}/"
            " para cambiar algo"
        ),
        "player_count": "Skull King se juega de 2 a 8 jugadores; hay {count}",
        "name_control": (
            "el nombre del jugador {number} ({name}) tiene un carácter de control; escríbelo"
            " de nuevo"
        ),
        "name_missing": "cada jugador necesita un nombre",
        "name_too_long": "los nombres tienen como mucho {limit} caracteres",
        "name_twice": "los nombres deben ser distintos: «{name}» aparece dos veces",
        "names_alike": "los nombres deben ser distintos: «{first}» y «{second}» son el mismo",
        "players_not_list": "«players» debe ser una lista de 2 a 8 nombres, en orden de asiento",
        "name_not_text": "el nombre del jugador {number} debe ser un texto; se recibió {value}",
        "first_dealer_range": (
            "el primer repartidor debe ser un número de jugador de 0 a {last}; se recibió {value}"
        ),
        "settings_not_object": "«settings» debe ser un objeto JSON",
        "not_whole_number": "{what} debe ser un número entero; se recibió {value}",
        "number_far_out": "{what} está muy fuera de rango; se recibió {value}",
        "round_range": "la ronda debe ser de 1 a {rounds}; se recibió {value}",
        "bids_count": (
            "la ronda {round} necesita {players} apuestas, una por jugador; se recibieron {count}"
        ),
        "plays_count": "una baza necesita una carta por jugador ({players}); se recibieron {count}",
        "bid_not_whole": (
            "ronda {round}: la apuesta de {player} debe ser un número entero de 0 a {dealt};"
            " se recibió {bid}"
        ),
        "bid_out_of_range": (
            "ronda {round}: la apuesta de {player} va de 0 a {dealt} (las cartas repartidas"
            " en esta ronda); se recibió {bid}"
        ),
        "bid_cleared_after_play": (
            "la ronda {round} ya tiene bazas grabadas; cambia la apuesta de {player} en vez"
            " de borrarla"
        ),
        "bids_cleared_after_play": (
            "la ronda {round} ya tiene bazas grabadas; cambia las apuestas de {players} en"
            " vez de borrarlas"
        ),
        "harry_out_of_range": (
            "{player} apostó {bid} de {dealt} en la ronda {round}, y Harry la cambia en"
            " {change:+d} (baza {trick}): quedaría en {total}. Elige 0 o {undo:+d} para Harry"
            " en la página de esa baza, u otra apuesta"
        ),
        "cannonball_scoring": (
            "las balas de cañón solo se anuncian con la «Puntuación de Rascal»; cambia antes"
            " la puntuación en los ajustes de la partida"
        ),
        "trick_complete": (
            "la baza {trick} de la ronda {round} ya tiene una carta de cada jugador; corrige"
            " una carta en su lugar"
        ),
        "player_has_card": (
            "{player} ya tiene una carta en la baza {trick} de la ronda {round}; falta la"
            " carta de {names}"
        ),
        "leader_after_gap": (
            "no se sabe quién salió en la baza {trick} de la ronda {round} mientras la baza"
            " {free} no esté grabada: quien la ganó salió en esta, y esta carta pudo ser la"
            " salida. Anota primero la baza {free} a mano y luego añade esta carta"
        ),
        "leader_unknown": (
            "aún no se sabe quién salió en la baza {trick} de la ronda {round}: a una baza"
            " anterior de la ronda le falta una carta o falta la elección de Rosie; resuelve"
            " eso primero y luego añade esta carta"
        ),
        "hand_no_trick_left": (
            "todas las bazas de la partida {game} están grabadas: no queda ninguna por anotar"
        ),
        "hand_recorded_same": (
            "la baza {trick} de la ronda {round} se registró mientras tanto (desde otra página"
            " o con la cámara) con estas mismas cartas: no queda nada por anotar aquí. Recarga"
            " la página"
        ),
        "hand_recorded_other": (
            "la baza {trick} de la ronda {round} se registró mientras tanto (desde otra página"
            " o con la cámara) con la carta {card} de {player}, donde esta página tiene {mine}:"
            " revisa esa baza en su página y corrígela allí si esta página tiene razón; luego"
            " recarga esta página"
        ),
        "hand_recorded_short": (
            "la baza {trick} de la ronda {round} la registró mientras tanto la cámara sin la"
            " carta de {player}: añade allí {mine} con «Añadir la carta que falta» en la página"
            " de esa baza y luego recarga esta página"
        ),
        "insert_no_trick": (
            "la ronda {round} no tiene ninguna baza {trick} grabada, así que no se puede anotar"
            " otra antes de ella; anota la siguiente baza de la ronda"
        ),
        "remove_camera_trick": (
            "la baza {trick} de la ronda {round} la grabó la cámara y tiene imagen: corrige sus"
            " cartas en su página; solo se pueden quitar las bazas anotadas a mano"
        ),
        "move_back_none": (
            "la baza {trick} de la ronda {round} no puede volver atrás: la cámara no la movió"
            " aquí desde la ronda anterior, o ese sitio vuelve a tener una baza (anotada o"
            " movida después)"
        ),
        "remove_moved_since": (
            "no se puede quitar la baza {trick} de la ronda {round}: una de las bazas que se"
            " movieron al anotarla se ha vuelto a mover (se anotó o se quitó otra baza)."
            " Corrige las bazas en sus páginas"
        ),
        "insert_before_free": (
            "la ronda {round} no tiene grabada la baza {free}: una baza que la cámara no vio"
            " antes de la baza {trick} va en su lugar, sin mover nada; anótala ahí como la"
            " siguiente baza de la ronda"
        ),
        "insert_no_room": (
            "no hay sitio para anotar antes de la baza {trick} de la ronda {round} una baza que"
            " la cámara no vio: todas las bazas siguientes de la partida están grabadas. Corrige"
            " las cartas de las bazas en sus páginas"
        ),
        "hand_not_next": (
            "la baza {trick} de la ronda {round} no es la siguiente por anotar: lo es la baza"
            " {next_trick} de la ronda {next_round} (una cámara u otra página registró una"
            " mientras tanto). Recarga la página"
        ),
        "hand_game_finished": (
            "la partida {game} ha terminado; reanúdala en su página de Ajustes para anotar una baza"
        ),
        "hand_demo_game": (
            "la partida {game} es la partida grabada de la demo; crea una partida nueva para"
            " anotar tus bazas"
        ),
        "hand_replaced_game": (
            "la partida {game} ya no es la partida de la mesa: la partida {newer} la ha"
            " sustituido; las bazas se anotan y se quitan solo en la partida de la mesa"
        ),
        "hand_leader_unknown": (
            "aún no se sabe quién sale en la baza {trick} de la ronda {round}: la baza"
            " {waits_on} de la ronda todavía no tiene ganador (falta una carta o hay una leída"
            " dos veces); resuélvelo antes en la página de esa baza"
        ),
        "hand_waits_rosie": (
            "Rosie ganó la baza {waits_on} de la ronda {round}, así que quien la jugó elige"
            " quién sale en la baza {trick}: responde antes a la pregunta de Rosie (¿quién sale"
            " en la baza {trick} de la ronda {round}?) y luego anota esta baza"
        ),
        "hand_rosie_unchosen": (
            "Rosie ganó la baza {waits_on} de la ronda {round}, y no está anotado a quién eligió"
            " quien la jugó para salir en la baza {trick} (su pregunta se descartó): elígelo"
            " antes en la página de la baza {waits_on} y luego anota esta baza"
        ),
        "hand_first_lead": (
            "en la baza 1 de la ronda {round} sale {leader}, el jugador a la izquierda de quien"
            " reparte ({dealer}): anota las cartas en el orden en que se jugaron, empezando por"
            " la de {leader}"
        ),
        "hand_play_order": (
            "en la baza {trick} de la ronda {round} sale {leader} y el turno sigue en el sentido"
            " de las agujas del reloj: anota las cartas en este orden: {order}"
        ),
        "hand_order_changed": (
            "ahora sale {leader} en la baza {trick} de la ronda {round} (una corrección"
            " cambió quién ganó la baza anterior): recarga la página y anótala de nuevo"
        ),
        "hand_pirate_unnamed": (
            "elige qué Pirata jugó {player} (Rosie, Bendt, Rascal, Juanita o Harry): la baraja"
            " no tiene ningún Pirata sin nombre"
        ),
        "hand_mermaid_unnamed": (
            "elige qué Sirena jugó {player} (Alyra o Sirena): la baraja no tiene ninguna Sirena"
            " sin nombre"
        ),
        "hand_card_off": (
            "la carta {card} no está en la baraja de esta partida: el ajuste {setting} está"
            " desactivado. Elige la carta que {player} jugó realmente o activa antes el ajuste"
            " en Ajustes"
        ),
        "hand_card_twice": (
            "la carta {card} está elegida para {first} y para {player} en esta baza: elige la"
            " carta que jugó cada uno"
        ),
        "hand_card_used": (
            "la carta {card} ya se jugó en la ronda {round} y la baraja no tiene otra: elige la"
            " carta que {player} jugó realmente"
        ),
        "hand_cards_used": (
            "las {copies} cartas {card} de la baraja ya se jugaron en la ronda {round}: elige"
            " la carta que {player} jugó realmente"
        ),
        "tigress_undeclared": "di cómo se jugó la Tigresa: como Pirata o como Huida",
        "play_changed": (
            "ronda {round}, baza {trick}: la carta {play} es ahora {card} de {player}, no"
            " {was_card} de {was_player} como mostraba esta página: otra página corrigió la"
            " baza mientras tanto. Recarga la página y corrígela de nuevo"
        ),
        "no_tigress": "la baza {trick} de la ronda {round} no tiene Tigresa; corrige la carta",
        "confirm_short_trick": (
            "la baza {trick} de la ronda {round} tiene {cards} de {players} cartas; añade la"
            " carta que falta en vez de confirmar"
        ),
        "confirm_unresolved": (
            "la baza {trick} de la ronda {round} no se puede resolver tal como está (su página"
            " dice por qué): corrige sus cartas en vez de confirmar"
        ),
        "abilities_off": (
            "las habilidades de los Piratas están desactivadas en los ajustes de la partida;"
            " actívalas primero"
        ),
        "choice_card_missing": (
            "a la baza {trick} de la ronda {round} le falta una carta: añádela primero; así"
            " se sabrá quién la gana"
        ),
        "no_choice": (
            "la baza {trick} de la ronda {round} no la gana Rosie, Rascal ni Harry: no hay"
            " nada que elegir"
        ),
        "rascal_bet_value": "Rascal se juega 0, 10 o 20 puntos, no {bet}",
        "harry_change_value": "Harry cambia la apuesta en −1, 0 o +1, no {change}",
        "player_seat": "el jugador debe ser un número de 0 a {last}, no {value}",
        "rosie_last_trick": (
            "Rosie ganó la última baza de la ronda {round}: la siguiente ronda la empieza el"
            " vecino de quien reparte, así que no hay nada que elegir"
        ),
        "ability_not_won": (
            "la baza {trick} de la ronda {round} no la gana {pirate} tal como está grabada,"
            " así que su habilidad no cuenta; ignora esta pregunta (o corrige antes la baza)"
        ),
        "prompt_closed_meanwhile": "esta pregunta ya se cerró en otra página",
        "prompt_already_answered": "esta pregunta ya se respondió",
        "prompt_already_dismissed": "esta pregunta ya se ignoró",
        "dismiss_closed_answered": (
            "esta pregunta ya se respondió; no hay nada que ignorar (para cambiar lo que"
            " hizo, corrige la baza)"
        ),
        "dismiss_closed_dismissed": (
            "esta pregunta ya se ignoró; no hay nada que ignorar (para cambiar lo que"
            " hizo, corrige la baza)"
        ),
        "setting_range": "el ajuste {setting} va de {low} a {high}; se recibió {value}",
        "rounds_below_played": (
            "esta partida ya tiene bazas grabadas en la ronda {played}; no se puede poner"
            " {rounds} como número de rondas"
        ),
        "record_not_object": "un registro de partida es un objeto JSON con formato «{expected}»",
        "record_format": (
            "no es un registro de partida de skullcam (formato {found}; se esperaba «{expected}»)"
        ),
        "record_no_format": (
            "no es un registro de partida de skullcam (no indica formato; se esperaba «{expected}»)"
        ),
        "resume_not_finished": "la partida {game} no ha terminado: no hay nada que reanudar",
        "resume_played_out": (
            "todas las rondas de la partida {game} están jugadas; para jugar más, sube sus rondas"
            " en Ajustes"
        ),
        "resume_other_in_progress": (
            "la partida {playing} se está jugando en la mesa; termínala primero y luego reanuda"
            " la partida {game}"
        ),
        "no_game": "no existe la partida {game}; mira la lista de partidas",
        "no_trick": "la partida {game} no tiene grabada la baza {trick} de la ronda {round}",
        "read_only": (
            "no se puede grabar nada en {folder}: {file} no se puede escribir (un disco o una"
            " carpeta de solo lectura). Sus partidas se pueden ver y exportar; para grabar,"
            " hazla escribible o copia la carpeta de datos a un disco escribible y pasa ese"
            " --data"
        ),
        "no_prompt": "no existe la pregunta {prompt}; mira las preguntas abiertas de la partida",
        "pin_not_set": "esta mesa no tiene PIN; reinicia skullcam run con --pin",
        "pin_missing": "PIN incorrecto o ausente: escribe el PIN que muestra skullcam al arrancar",
        "pin_typed_wrong": "PIN incorrecto",
        "pin_locked": "demasiados PIN incorrectos; espera {seconds} s y vuelve a intentarlo",
        "pin_table_locked": (
            "demasiados PIN incorrectos en esta mesa en la última hora; espera {minutes} min, usa "
            "un móvil que ya tenga el PIN o pide al anfitrión que pulse 'Dejar entrar a los "
            "móviles de nuevo' en la página de inicio de la máquina en la que funciona skullcam"
        ),
        "pin_unlock_here": (
            "solo la máquina en la que funciona skullcam puede dejar que los móviles vuelvan a "
            "escribir el PIN: abre allí su página de inicio"
        ),
    },
    "it": {
        "foreign_host": (
            "questo segnapunti è in ascolto solo su questa macchina: aprilo come"
            " http://localhost:{port}/"
        ),
        "foreign_host_write": (
            "questo segnapunti è in ascolto solo su questa macchina: aprilo come"
            " http://localhost:{port}/ per cambiare qualcosa"
        ),
        "player_count": "Skull King si gioca da 2 a 8 giocatori; ce ne sono {count}",
        "name_control": (
            "il nome del giocatore {number} ({name}) contiene un carattere di controllo; riscrivilo"
        ),
        "name_missing": "ogni giocatore ha bisogno di un nome",
        "name_too_long": "i nomi hanno al massimo {limit} caratteri",
        "name_twice": "i nomi devono essere diversi: «{name}» compare due volte",
        "names_alike": "i nomi devono essere diversi: «{first}» e «{second}» sono lo stesso nome",
        "players_not_list": "«players» deve essere una lista da 2 a 8 nomi, in ordine di posto",
        "name_not_text": "il nome del giocatore {number} deve essere un testo; ricevuto {value}",
        "first_dealer_range": (
            "il primo mazziere deve essere un numero di giocatore da 0 a {last}; ricevuto {value}"
        ),
        "settings_not_object": "«settings» deve essere un oggetto JSON",
        "not_whole_number": "{what} deve essere un numero intero; ricevuto {value}",
        "number_far_out": "{what} è molto fuori intervallo; ricevuto {value}",
        "round_range": "il round deve essere da 1 a {rounds}; ricevuto {value}",
        "bids_count": (
            "il round {round} richiede {players} puntate, una per giocatore; ricevute {count}"
        ),
        "plays_count": "una presa richiede una carta per giocatore ({players}); ricevute {count}",
        "bid_not_whole": (
            "round {round}: la puntata di {player} deve essere un numero intero da 0 a"
            " {dealt}; ricevuto {bid}"
        ),
        "bid_out_of_range": (
            "round {round}: la puntata di {player} va da 0 a {dealt} (le carte distribuite"
            " in questo round); ricevuto {bid}"
        ),
        "bid_cleared_after_play": (
            "il round {round} ha già prese registrate; cambia la puntata di {player} invece"
            " di cancellarla"
        ),
        "bids_cleared_after_play": (
            "il round {round} ha già prese registrate; cambia le puntate di {players} invece"
            " di cancellarle"
        ),
        "harry_out_of_range": (
            "{player} ha puntato {bid} su {dealt} nel round {round}, e Harry la cambia di"
            " {change:+d} (presa {trick}): diventerebbe {total}. Scegli 0 o {undo:+d} per"
            " Harry nella pagina di quella presa, o un'altra puntata"
        ),
        "cannonball_scoring": (
            "le palle di cannone si dichiarano solo con il «Punteggio del Furfante»; cambia"
            " prima il punteggio nelle impostazioni della partita"
        ),
        "trick_complete": (
            "la presa {trick} del round {round} ha già una carta per giocatore; correggi"
            " invece una carta"
        ),
        "player_has_card": (
            "{player} ha già una carta nella presa {trick} del round {round}; manca la carta"
            " di {names}"
        ),
        "leader_after_gap": (
            "non si sa chi ha guidato la presa {trick} del round {round} finché la presa {free}"
            " non è registrata: chi l'ha vinta ha guidato questa, e questa carta può essere"
            " stata la prima. Inserisci prima a mano la presa {free}, poi aggiungi questa carta"
        ),
        "leader_unknown": (
            "non si sa ancora chi ha guidato la presa {trick} del round {round}: a una presa"
            " precedente del round manca una carta o manca la scelta di Rosie; sistema prima"
            " quello, poi aggiungi questa carta"
        ),
        "hand_no_trick_left": (
            "tutte le prese della partita {game} sono registrate: non ce n'è nessuna da inserire"
        ),
        "hand_recorded_same": (
            "la presa {trick} del round {round} è stata registrata nel frattempo (da un'altra"
            " pagina o dalla fotocamera) con queste stesse carte: qui non resta nulla da"
            " inserire. Ricarica la pagina"
        ),
        "hand_recorded_other": (
            "la presa {trick} del round {round} è stata registrata nel frattempo (da un'altra"
            " pagina o dalla fotocamera) con la carta {card} di {player}, dove questa pagina ha"
            " {mine}: controlla quella presa nella sua pagina e correggila lì se questa pagina"
            " ha ragione, poi ricarica questa pagina"
        ),
        "hand_recorded_short": (
            "la presa {trick} del round {round} è stata registrata nel frattempo dalla"
            " fotocamera senza la carta di {player}: aggiungi lì {mine} con «Aggiungi la carta"
            " mancante» nella pagina di quella presa, poi ricarica questa pagina"
        ),
        "insert_no_trick": (
            "il round {round} non ha nessuna presa {trick} registrata, quindi non se ne può"
            " inserire un'altra prima; inserisci invece la prossima presa del round"
        ),
        "remove_camera_trick": (
            "la presa {trick} del round {round} è stata registrata dalla fotocamera e ha la sua"
            " immagine: correggine invece le carte nella sua pagina; si possono togliere solo le"
            " prese inserite a mano"
        ),
        "move_back_none": (
            "la presa {trick} del round {round} non può tornare indietro: la fotocamera non"
            " l'ha spostata qui dal round precedente, o quel posto ha di nuovo una presa"
            " (inserita o spostata dopo)"
        ),
        "remove_moved_since": (
            "non si può togliere la presa {trick} del round {round}: da quando è stata"
            " inserita, una delle prese che aveva spostato si è spostata di nuovo (è stata"
            " inserita o tolta un'altra presa). Correggi invece le prese nelle loro pagine"
        ),
        "insert_before_free": (
            "nel round {round} la presa {free} non è registrata: una presa che la fotocamera non"
            " ha visto prima della presa {trick} va al suo posto, senza spostare nulla;"
            " inseriscila lì come prossima presa del round"
        ),
        "insert_no_room": (
            "non c'è posto per inserire prima della presa {trick} del round {round} una presa"
            " che la fotocamera non ha visto: tutte le prese successive della partita sono"
            " registrate. Correggi invece le carte delle prese nelle loro pagine"
        ),
        "hand_not_next": (
            "la presa {trick} del round {round} non è la prossima da inserire: lo è la presa"
            " {next_trick} del round {next_round} (una fotocamera o un'altra pagina ne ha"
            " registrata una nel frattempo). Ricarica la pagina"
        ),
        "hand_game_finished": (
            "la partita {game} è finita; riprendila dalla sua pagina Impostazioni per inserire"
            " una presa"
        ),
        "hand_demo_game": (
            "la partita {game} è la partita registrata della demo; crea una nuova partita per"
            " inserire le tue prese"
        ),
        "hand_replaced_game": (
            "la partita {game} non è più la partita del tavolo: la partita {newer} l'ha"
            " sostituita; le prese si inseriscono e si tolgono solo nella partita del tavolo"
        ),
        "hand_leader_unknown": (
            "non si sa ancora chi guida la presa {trick} del round {round}: la presa"
            " {waits_on} del round non ha ancora un vincitore (manca una carta o una è stata"
            " letta due volte); sistemala prima nella pagina di quella presa"
        ),
        "hand_waits_rosie": (
            "Rosie ha vinto la presa {waits_on} del round {round}, quindi chi l'ha giocata"
            " sceglie chi guida la presa {trick}: rispondi prima alla domanda di Rosie (chi"
            " guida la presa {trick} del round {round}?), poi inserisci questa presa"
        ),
        "hand_rosie_unchosen": (
            "Rosie ha vinto la presa {waits_on} del round {round}, e la scelta di chi guida la"
            " presa {trick} non è registrata (la sua domanda è stata scartata): sceglilo prima"
            " nella pagina della presa {waits_on}, poi inserisci questa presa"
        ),
        "hand_first_lead": (
            "la presa 1 del round {round} la guida {leader}, il giocatore alla sinistra del"
            " mazziere ({dealer}): inserisci le carte nell'ordine in cui sono state giocate, a"
            " partire da quella di {leader}"
        ),
        "hand_play_order": (
            "la presa {trick} del round {round} la guida {leader} e si gioca in senso orario:"
            " inserisci le carte in quest'ordine: {order}"
        ),
        "hand_order_changed": (
            "ora la presa {trick} del round {round} la guida {leader} (una correzione ha"
            " cambiato chi ha vinto la presa precedente): ricarica la pagina e inseriscila di"
            " nuovo"
        ),
        "hand_pirate_unnamed": (
            "scegli quale Pirata ha giocato {player} (Rosie, Bendt, Rascal, Juanita o Harry): il"
            " mazzo non ha Pirati senza nome"
        ),
        "hand_mermaid_unnamed": (
            "scegli quale Sirena ha giocato {player} (Alyra o Sirena): il mazzo non ha Sirene"
            " senza nome"
        ),
        "hand_card_off": (
            "la carta {card} non è nel mazzo di questa partita: l'impostazione {setting} è"
            " disattivata. Scegli la carta che {player} ha giocato davvero, oppure attiva prima"
            " l'impostazione in Impostazioni"
        ),
        "hand_card_twice": (
            "la carta {card} è stata scelta sia per {first} sia per {player} in questa presa:"
            " scegli la carta giocata da ciascuno"
        ),
        "hand_card_used": (
            "la carta {card} è già stata giocata nel round {round} e il mazzo non ne ha un'altra:"
            " scegli la carta che {player} ha giocato davvero"
        ),
        "hand_cards_used": (
            "tutte e {copies} le carte {card} del mazzo sono già state giocate nel round"
            " {round}: scegli la carta che {player} ha giocato davvero"
        ),
        "tigress_undeclared": "di' come è stata giocata la Tigre: come Pirata o come Fuga",
        "play_changed": (
            "round {round}, presa {trick}: la carta {play} ora è {card} di {player}, non"
            " {was_card} di {was_player} come mostrava questa pagina: un'altra pagina ha"
            " corretto la presa nel frattempo. Ricarica la pagina e correggila di nuovo"
        ),
        "no_tigress": "la presa {trick} del round {round} non ha la Tigre; correggi la carta",
        "confirm_short_trick": (
            "la presa {trick} del round {round} ha {cards} {cards:carta|carte} su {players};"
            " aggiungi la carta mancante invece di confermare"
        ),
        "confirm_unresolved": (
            "la presa {trick} del round {round} non si può risolvere così com'è (la sua pagina"
            " dice perché): correggi le carte invece di confermare"
        ),
        "abilities_off": (
            "le abilità dei Pirati sono disattivate nelle impostazioni della partita;"
            " attivale prima"
        ),
        "choice_card_missing": (
            "alla presa {trick} del round {round} manca una carta: aggiungila prima; così si"
            " saprà chi la vince"
        ),
        "no_choice": (
            "la presa {trick} del round {round} non è vinta da Rosie, dal Furfante o da Harry:"
            " non c'è niente da scegliere"
        ),
        "rascal_bet_value": "il Furfante scommette 0, 10 o 20, non {bet}",
        "harry_change_value": "Harry cambia la puntata di −1, 0 o +1, non {change}",
        "player_seat": "il giocatore deve essere un numero da 0 a {last}, non {value}",
        "rosie_last_trick": (
            "Rosie ha vinto l'ultima presa del round {round}: la prima presa del round"
            " successivo la guida il vicino del mazziere, quindi non c'è niente da scegliere"
        ),
        "ability_not_won": (
            "la presa {trick} del round {round} non è vinta da {pirate} come è registrata"
            " ora, quindi la sua abilità non vale; ignora questa domanda (o correggi prima la"
            " presa)"
        ),
        "prompt_closed_meanwhile": "questa domanda è già stata chiusa su un'altra pagina",
        "prompt_already_answered": "questa domanda ha già una risposta",
        "prompt_already_dismissed": "questa domanda è già stata ignorata",
        "dismiss_closed_answered": (
            "questa domanda ha già una risposta; non c'è niente da ignorare (per cambiare"
            " ciò che ha fatto, correggi la presa)"
        ),
        "dismiss_closed_dismissed": (
            "questa domanda è già stata ignorata; non c'è niente da ignorare (per cambiare"
            " ciò che ha fatto, correggi la presa)"
        ),
        "setting_range": "l'impostazione {setting} va da {low} a {high}; ricevuto {value}",
        "rounds_below_played": (
            "questa partita ha già prese registrate nel round {played}; il numero di round"
            " non può essere {rounds}"
        ),
        "record_not_object": "un registro di partita è un oggetto JSON con formato «{expected}»",
        "record_format": (
            "non è un registro di partita di skullcam (formato {found}; atteso «{expected}»)"
        ),
        "record_no_format": (
            "non è un registro di partita di skullcam (non indica un formato; atteso «{expected}»)"
        ),
        "resume_not_finished": "la partita {game} non è finita: non c'è niente da riprendere",
        "resume_played_out": (
            "tutti i round della partita {game} sono giocati; per giocarne altri, aumenta i round"
            " in Impostazioni"
        ),
        "resume_other_in_progress": (
            "la partita {playing} è in corso al tavolo; finiscila prima, poi riprendi la partita"
            " {game}"
        ),
        "no_game": "la partita {game} non esiste; guarda l'elenco delle partite",
        "no_trick": "la partita {game} non ha registrata la presa {trick} del round {round}",
        "read_only": (
            "in {folder} non si può registrare nulla: {file} non è scrivibile (un disco o una"
            " cartella di sola lettura). Le sue partite si possono vedere ed esportare; per"
            " registrare, rendila scrivibile o copia la cartella dei dati su un disco"
            " scrivibile e passa quel --data"
        ),
        "no_prompt": "la domanda {prompt} non esiste; guarda le domande aperte della partita",
        "pin_not_set": "questo tavolo non ha un PIN; riavvia skullcam run con --pin",
        "pin_missing": ("PIN errato o mancante: inserisci il PIN mostrato all'avvio di skullcam"),
        "pin_typed_wrong": "PIN errato",
        "pin_locked": "troppi PIN errati; aspetta {seconds} s e riprova",
        "pin_table_locked": (
            "troppi PIN errati a questo tavolo nell'ultima ora; aspetta {minutes} min, usa un "
            "telefono che ha già il PIN o chiedi a chi ospita di premere 'Fai entrare di nuovo i "
            "telefoni' nella pagina iniziale della macchina su cui gira skullcam"
        ),
        "pin_unlock_here": (
            "solo la macchina su cui gira skullcam può lasciare che i telefoni inseriscano di "
            "nuovo il PIN: aprine lì la pagina iniziale"
        ),
    },
    "da": {
        "foreign_host": (
            "denne pointtavle lytter kun på denne maskine: åbn den som http://localhost:{port}/"
        ),
        "foreign_host_write": (
            "denne pointtavle lytter kun på denne maskine: åbn den som http://localhost:{port}/"
            " for at ændre noget"
        ),
        "player_count": "Skull King spilles af 2 til 8 spillere; her er {count}",
        "name_control": (
            "spiller {number}s navn ({name}) indeholder et kontroltegn; skriv det igen"
        ),
        "name_missing": "hver spiller skal have et navn",
        "name_too_long": "et navn må højst have {limit} tegn",
        "name_twice": "navnene skal være forskellige: »{name}« står der to gange",
        "names_alike": "navnene skal være forskellige: »{first}« og »{second}« er det samme navn",
        "players_not_list": "»players« skal være en liste med 2 til 8 navne i siddeorden",
        "name_not_text": "spiller {number}s navn skal være tekst; ikke {value}",
        "first_dealer_range": (
            "første giver skal være et spillernummer fra 0 til {last}; ikke {value}"
        ),
        "settings_not_object": "»settings« skal være et JSON-objekt",
        "not_whole_number": "{what} skal være et helt tal; ikke {value}",
        "number_far_out": "{what} er langt uden for det tilladte; ikke {value}",
        "round_range": "runden skal være fra 1 til {rounds}; ikke {value}",
        "bids_count": "runde {round} skal have {players} bud, ét pr. spiller; ikke {count}",
        "plays_count": "et stik skal have ét kort pr. spiller ({players}); ikke {count}",
        "bid_not_whole": (
            "runde {round}: {player:gen} bud skal være et helt tal fra 0 til {dealt}; ikke {bid}"
        ),
        "bid_out_of_range": (
            "runde {round}: {player:gen} bud går fra 0 til {dealt} (kortene givet i denne"
            " runde); ikke {bid}"
        ),
        "bid_cleared_after_play": (
            "runde {round} har allerede optagne stik; ret {player:gen} bud i stedet for at"
            " slette det"
        ),
        "bids_cleared_after_play": (
            "runde {round} har allerede optagne stik; ret buddene fra {players} i stedet for"
            " at slette dem"
        ),
        "harry_out_of_range": (
            "{player} bød {bid} af {dealt} i runde {round}, og Harry ændrer buddet med"
            " {change:+d} (stik {trick}): det giver {total}. Vælg 0 eller {undo:+d} for Harry"
            " på det stiks side, eller et andet bud"
        ),
        "cannonball_scoring": (
            "kanonkugler meldes kun med »Rascal scoring«; skift først spillets pointgivning"
            " i indstillingerne"
        ),
        "trick_complete": (
            "stik {trick} i runde {round} har allerede et kort fra hver spiller; ret i stedet"
            " et kort"
        ),
        "player_has_card": (
            "{player} har allerede et kort i stik {trick} i runde {round}; det manglende kort"
            " er fra {names}"
        ),
        "leader_after_gap": (
            "det vides ikke, hvem der spillede ud i stik {trick} i runde {round}, så længe stik"
            " {free} ikke er registreret: dets vinder spillede ud i dette, og dette kort kan"
            " have været udspillet. Indtast først stik {free} manuelt, og tilføj så dette kort"
        ),
        "leader_unknown": (
            "det vides endnu ikke, hvem der spillede ud i stik {trick} i runde {round}: et"
            " tidligere stik i runden mangler et kort, eller Rosies valg mangler; afklar det"
            " først, og tilføj så dette kort"
        ),
        "hand_no_trick_left": (
            "alle stik i spil {game} er registreret: der er ikke flere stik at indtaste"
        ),
        "hand_recorded_same": (
            "stik {trick} i runde {round} blev registreret i mellemtiden (af en anden side eller"
            " kameraet) med de samme kort: der er intet mere at indtaste her. Genindlæs siden"
        ),
        "hand_recorded_other": (
            "stik {trick} i runde {round} blev registreret i mellemtiden (af en anden side eller"
            " kameraet) med {player:gen} {card:owned}, hvor denne side har {mine}: tjek det stik"
            " på dets side, og ret det dér, hvis denne side har ret; genindlæs så denne side"
        ),
        "hand_recorded_short": (
            "stik {trick} i runde {round} blev registreret i mellemtiden af kameraet uden"
            " {player:gen} kort: tilføj {mine} dér med »Tilføj det manglende kort« på stikkets"
            " side, og genindlæs så denne side"
        ),
        "insert_no_trick": (
            "runde {round} har intet registreret stik {trick}, så der kan ikke indtastes et"
            " overset stik før det; indtast rundens næste stik i stedet"
        ),
        "remove_camera_trick": (
            "stik {trick} i runde {round} blev registreret af kameraet og har et billede: ret i"
            " stedet kortene på stikkets side; kun stik, der er indtastet manuelt, kan fjernes"
        ),
        "move_back_none": (
            "stik {trick} i runde {round} kan ikke flyttes tilbage: kameraet flyttede det ikke"
            " hertil fra runden før, eller den plads har et stik igen (indtastet eller flyttet"
            " siden)"
        ),
        "remove_moved_since": (
            "stik {trick} i runde {round} kan ikke fjernes: et af de stik, der blev rykket, da"
            " det blev indtastet, er flyttet igen siden (et andet stik er indtastet eller"
            " fjernet). Ret i stedet stikkene på deres sider"
        ),
        "insert_before_free": (
            "runde {round} har intet registreret stik {free}: et stik, kameraet overså før stik"
            " {trick}, hører til på dets plads, uden at noget flyttes; indtast det dér som"
            " rundens næste stik"
        ),
        "insert_no_room": (
            "der er ikke plads til et overset stik før stik {trick} i runde {round}: alle"
            " spillets senere stik er registreret. Ret i stedet stikkenes kort på deres sider"
        ),
        "hand_not_next": (
            "stik {trick} i runde {round} er ikke det næste stik at indtaste: det er stik"
            " {next_trick} i runde {next_round} (et kamera eller en anden side har registreret et"
            " i mellemtiden). Genindlæs siden"
        ),
        "hand_game_finished": (
            "spil {game} er slut; genoptag det på siden Indstillinger for at indtaste et stik"
        ),
        "hand_demo_game": (
            "spil {game} er demoens optagede spil; opret et nyt spil for at indtaste jeres egne"
            " stik"
        ),
        "hand_replaced_game": (
            "spil {game} er ikke længere bordets spil: spil {newer} har afløst det; stik"
            " indtastes og fjernes kun i bordets spil"
        ),
        "hand_leader_unknown": (
            "det vides endnu ikke, hvem der spiller ud i stik {trick} i runde {round}: stik"
            " {waits_on} i runden har stadig ingen vinder (et kort mangler, eller et er læst to"
            " gange); afklar det først på det stiks side"
        ),
        "hand_waits_rosie": (
            "Rosie vandt stik {waits_on} i runde {round}, så den, der spillede hende, vælger,"
            " hvem der spiller ud i stik {trick}: svar først på Rosies spørgsmål (hvem spiller"
            " ud i stik {trick} i runde {round}?), og indtast så dette stik"
        ),
        "hand_rosie_unchosen": (
            "Rosie vandt stik {waits_on} i runde {round}, og valget af, hvem der spiller ud i"
            " stik {trick}, er ikke registreret (hendes spørgsmål blev afvist): vælg det først på"
            " siden for stik {waits_on}, og indtast så dette stik"
        ),
        "hand_first_lead": (
            "stik 1 i runde {round} spilles ud af {leader}, der sidder til venstre for giveren"
            " ({dealer}): indtast kortene i den rækkefølge, de blev spillet, med {leader:gen}"
            " kort først"
        ),
        "hand_play_order": (
            "stik {trick} i runde {round} spilles ud af {leader}, og der spilles med uret:"
            " indtast kortene i denne rækkefølge: {order}"
        ),
        "hand_order_changed": (
            "stik {trick} i runde {round} spilles nu ud af {leader} (en rettelse har ændret,"
            " hvem der vandt det forrige stik): genindlæs siden og indtast det igen"
        ),
        "hand_pirate_unnamed": (
            "vælg, hvilken pirat {player} spillede (Rosie, Bendt, Rascal, Juanita eller Harry):"
            " bunken har ingen pirat uden navn"
        ),
        "hand_mermaid_unnamed": (
            "vælg, hvilken havfrue {player} spillede (Alyra eller Sirena): bunken har ingen"
            " havfrue uden navn"
        ),
        "hand_card_off": (
            "{card:cap} er ikke med i dette spils bunke: indstillingen {setting} er slået fra. Vælg"
            " det kort, {player} faktisk spillede, eller slå først indstillingen til under"
            " Indstillinger"
        ),
        "hand_card_twice": (
            "{card:cap} er valgt til både {first} og {player} i dette stik: vælg hver spillers"
            " eget kort"
        ),
        "hand_card_used": (
            "{card:cap} er allerede spillet i runde {round}, og bunken har kun ét: vælg det"
            " kort, {player} faktisk spillede"
        ),
        "hand_cards_used": (
            "alle {copies} {card} i bunken er allerede spillet i runde {round}: vælg det"
            " kort, {player} faktisk spillede"
        ),
        "tigress_undeclared": "sig, hvordan Tigress blev spillet: som pirat eller som flugtkort",
        "play_changed": (
            "runde {round}, stik {trick}: kort {play} er nu {player:gen} {card:owned}, ikke"
            " {was_player:gen} {was_card:owned} som denne side viste: en anden side rettede stikket"
            " imens. Genindlæs siden og ret det igen"
        ),
        "no_tigress": "stik {trick} i runde {round} har ingen Tigress; ret kortet i stedet",
        "confirm_short_trick": (
            "stik {trick} i runde {round} har {cards} af {players} kort; tilføj det manglende"
            " kort i stedet for at bekræfte"
        ),
        "confirm_unresolved": (
            "stik {trick} i runde {round} kan ikke afgøres, som det står (stikkets side"
            " forklarer hvorfor): ret kortene i stedet for at bekræfte"
        ),
        "abilities_off": (
            "piraternes evner er slået fra i spillets indstillinger; slå dem til først"
        ),
        "choice_card_missing": (
            "stik {trick} i runde {round} mangler et kort: tilføj det først; så vides det,"
            " hvem der vinder stikket"
        ),
        "no_choice": (
            "stik {trick} i runde {round} vindes ikke af Rosie, Rascal eller Harry: der er"
            " intet at vælge"
        ),
        "rascal_bet_value": "Rascal satser 0, 10 eller 20, ikke {bet}",
        "harry_change_value": "Harry ændrer buddet med −1, 0 eller +1, ikke {change}",
        "player_seat": "spilleren skal være et tal fra 0 til {last}, ikke {value}",
        "rosie_last_trick": (
            "Rosie vandt sidste stik i runde {round}: næste runde spilles ud af giverens"
            " nabo, så der er intet at vælge"
        ),
        "ability_not_won": (
            "stik {trick} i runde {round} vindes ikke af {pirate}, som det er optaget nu, så"
            " evnen gælder ikke; afvis dette spørgsmål (eller ret stikket først)"
        ),
        "prompt_closed_meanwhile": "dette spørgsmål er allerede lukket på en anden side",
        "prompt_already_answered": "dette spørgsmål er allerede besvaret",
        "prompt_already_dismissed": "dette spørgsmål er allerede afvist",
        "dismiss_closed_answered": (
            "dette spørgsmål er allerede besvaret; der er intet at afvise (ret stikket for at"
            " ændre, hvad svaret gjorde)"
        ),
        "dismiss_closed_dismissed": (
            "dette spørgsmål er allerede afvist; der er intet at afvise (ret stikket for at"
            " ændre, hvad det gjorde)"
        ),
        "setting_range": "indstillingen {setting} går fra {low} til {high}; ikke {value}",
        "rounds_below_played": (
            "dette spil har allerede optagne stik i runde {played}; antallet af runder kan"
            " ikke sættes til {rounds}"
        ),
        "record_not_object": "en spilregistrering er et JSON-objekt med formatet »{expected}«",
        "record_format": (
            "det er ikke en spilregistrering fra skullcam (format {found}; forventet »{expected}«)"
        ),
        "record_no_format": (
            "det er ikke en spilregistrering fra skullcam (intet format angivet; forventet"
            " »{expected}«)"
        ),
        "resume_not_finished": "spil {game} er ikke slut: der er intet at genoptage",
        "resume_played_out": (
            "alle runder i spil {game} er spillet; hæv antallet af runder under Indstillinger for"
            " at spille flere"
        ),
        "resume_other_in_progress": (
            "spil {playing} spilles ved bordet; afslut det først, og genoptag så spil {game}"
        ),
        "no_game": "spil {game} findes ikke; se listen over spil",
        "no_trick": "spil {game} har intet optaget stik {trick} i runde {round}",
        "read_only": (
            "intet kan optages i {folder}: {file} kan ikke skrives (en skrivebeskyttet disk"
            " eller mappe). Dens spil kan ses og eksporteres; for at optage skal den gøres"
            " skrivbar, eller datamappen kopieres til en skrivbar disk og gives som --data"
        ),
        "no_prompt": "spørgsmål {prompt} findes ikke; se spillets åbne spørgsmål",
        "pin_not_set": "dette bord har ingen PIN; genstart skullcam run med --pin",
        "pin_missing": "forkert eller manglende PIN: indtast den PIN, skullcam viste ved start",
        "pin_typed_wrong": "forkert PIN",
        "pin_locked": "for mange forkerte PIN-koder; vent {seconds} s og prøv igen",
        "pin_table_locked": (
            "for mange forkerte PIN-koder ved dette bord den seneste time; vent {minutes} min, "
            "brug en telefon, der allerede har PIN-koden, eller bed værten trykke på 'Lad "
            "telefonerne komme ind igen' på startsiden på maskinen, som skullcam kører på"
        ),
        "pin_unlock_here": (
            "kun maskinen, som skullcam kører på, kan lade telefonerne indtaste PIN-koden igen: "
            "åbn dens startside dér"
        ),
    },
}


#: :data:`REQUEST_ENGLISH` in each language. A malformed body says where the JSON broke
#: (``line``, ``column``) instead of the decoder's English reason.
_REQUEST_WORDS: dict[str, dict[str, str]] = {
    "es": {
        "request_not_json": "envía JSON (Content-Type: application/json)",
        "request_not_utf8": (
            "el cuerpo de la petición no es texto UTF-8 (byte {byte}): envía JSON en UTF-8"
        ),
        "request_malformed": "JSON mal formado (línea {line}, columna {column})",
        "request_long_number": "JSON mal formado: un número tiene demasiadas cifras",
        "request_too_deep": "JSON mal formado: anidado a demasiada profundidad",
        "request_not_object": "el cuerpo de la petición debe ser un objeto JSON",
        "request_key_missing": "falta {name}",
        "request_bid_missing": "falta 'bid' (envía null para borrar una apuesta)",
        "request_bids_not_list": "«bids» debe ser una lista, una apuesta por jugador",
        "request_cannonballs_not_list": (
            "con todas las apuestas, «cannonball» debe ser una lista de true/false, uno por jugador"
        ),
        "request_cannonball_not_bool": "«cannonball» debe ser true o false",
        "request_card_not_text": "carta desconocida {card}; usa un id como green-7",
        "request_pin_not_text": "envía «pin», el PIN de la mesa, como texto",
        "request_nothing_to_correct": "di qué corregir: una carta, un jugador o ambos",
        "request_plays_not_list": (
            "«plays» debe ser una lista de {{player, card}}, empezando por quien sale"
        ),
        "request_settings_missing": (
            'envía {{"settings": {{...}}}} con los ajustes que quieras cambiar'
        ),
    },
    "it": {
        "request_not_json": "invia JSON (Content-Type: application/json)",
        "request_not_utf8": (
            "il corpo della richiesta non è testo UTF-8 (byte {byte}): invia JSON in UTF-8"
        ),
        "request_malformed": "JSON non valido (riga {line}, colonna {column})",
        "request_long_number": "JSON non valido: un numero ha troppe cifre",
        "request_too_deep": "JSON non valido: annidato troppo in profondità",
        "request_not_object": "il corpo della richiesta deve essere un oggetto JSON",
        "request_key_missing": "manca {name}",
        "request_bid_missing": "manca 'bid' (invia null per cancellare una puntata)",
        "request_bids_not_list": "«bids» deve essere una lista, una puntata per giocatore",
        "request_cannonballs_not_list": (
            "con tutte le puntate, «cannonball» deve essere una lista di true/false, uno per"
            " giocatore"
        ),
        "request_cannonball_not_bool": "«cannonball» deve essere true o false",
        "request_card_not_text": "carta sconosciuta {card}; usa un id come green-7",
        "request_pin_not_text": "invia «pin», il PIN del tavolo, come testo",
        "request_nothing_to_correct": "di' cosa correggere: una carta, un giocatore o entrambi",
        "request_plays_not_list": (
            "«plays» deve essere una lista di {{player, card}}, a partire da chi apre la presa"
        ),
        "request_settings_missing": (
            'invia {{"settings": {{...}}}} con le impostazioni da cambiare'
        ),
    },
    "da": {
        "request_not_json": "send data som JSON (Content-Type: application/json)",
        "request_not_utf8": (
            "forespørgslens indhold er ikke UTF-8-tekst (byte {byte}): send JSON kodet som UTF-8"
        ),
        "request_malformed": "ugyldig JSON (linje {line}, kolonne {column})",
        "request_long_number": "ugyldig JSON: et tal har for mange cifre",
        "request_too_deep": "ugyldig JSON: indlejret for dybt",
        "request_not_object": "forespørgslens indhold skal være et JSON-objekt",
        "request_key_missing": "{name} mangler",
        "request_bid_missing": "'bid' mangler (send null for at slette et bud)",
        "request_bids_not_list": "»bids« skal være en liste med ét bud pr. spiller",
        "request_cannonballs_not_list": (
            "med alle bud skal »cannonball« være en liste med true/false, én pr. spiller"
        ),
        "request_cannonball_not_bool": "»cannonball« skal være true eller false",
        "request_card_not_text": "ukendt kort {card}; brug et id som green-7",
        "request_pin_not_text": "send »pin«, bordets PIN, som tekst",
        "request_nothing_to_correct": "sig, hvad der skal rettes: et kort, en spiller eller begge",
        "request_plays_not_list": (
            "»plays« skal være en liste med {{player, card}}, startende med den, der spiller ud"
        ),
        "request_settings_missing": (
            'send {{"settings": {{...}}}} med de indstillinger, der skal ændres'
        ),
    },
}
for _lang, _words in _REQUEST_WORDS.items():
    TEMPLATES[_lang].update(_words)


#: An imported record the rules refuse: the reason is the rules engine's phrases.
INVALID_RECORD = {
    "es": "registro de partida no válido: {why}",
    "it": "registro di partita non valido: {why}",
    "da": "ugyldig spilregistrering: {why}",
}

#: An imported file whose JSON is not a game record's shape (``RecordShapeError``): where,
#: and which key, as the rules engine's phrases.
UNREADABLE_RECORD = {
    "es": "este archivo no es un registro de partida que skullcam pueda leer: {why}",
    "it": "questo file non è un registro di partita che skullcam sappia leggere: {why}",
    "da": "filen er ikke en spilregistrering, som skullcam kan læse: {why}",
}


#: A record that cannot be exported yet (``ExportRefused``): why, as the score's error says it.
EXPORT_REFUSED = {
    "es": "no se puede exportar la partida {game}: {why}",
    "it": "impossibile esportare la partita {game}: {why}",
    "da": "spil {game} kan ikke eksporteres endnu: {why}",
}

#: A setting the rules refuse (``SettingError``: a key that is no setting, a value of the wrong
#: kind), sent by hand to a new game or the settings: the rules' phrase, which names the key
#: as it was sent ("«loot»"), after what the English says first ("invalid settings: ").
INVALID_SETTINGS = {
    "es": "ajustes no válidos: {why}",
    "it": "impostazioni non valide: {why}",
    "da": "ugyldige indstillinger: {why}",
}


def refusal_text(err: UserError, lang: str) -> str:
    """``err`` said in ``lang``: its phrase in that language's words where the language has
    them, or (an imported record the rules refuse, or a file of no record's shape) the rules
    engine's phrases; else its English message."""
    phrase = err.phrase
    templates = TEMPLATES.get(lang, {})
    cause = err.__cause__
    record = isinstance(cause, GameRecordError) and bool(cause.phrases)
    if phrase is None and record and lang in INVALID_RECORD:
        assert isinstance(cause, GameRecordError)
        lead = UNREADABLE_RECORD if isinstance(cause, RecordShapeError) else INVALID_RECORD
        return lead[lang].format(why=explain_i18n.explain(cause.phrases, lang))
    if phrase is None and isinstance(cause, SettingError) and lang in INVALID_SETTINGS:
        why = explain_i18n.explain([cause.phrase], lang)
        return INVALID_SETTINGS[lang].format(why=why)
    if isinstance(err, ExportRefused) and lang in EXPORT_REFUSED:
        why = explain_i18n.explain(err.phrases, lang)
        return EXPORT_REFUSED[lang].format(game=err.game_id, why=why)
    if lang == "en" and phrase is not None and phrase.key in STORE_ENGLISH:
        # The English page names cards as its menus do ("Parrot 9"); ``error`` keeps the
        # ids for programs, because "green-9" beside a menu's "Parrot 9" reads as two cards.
        templates = STORE_ENGLISH
    if phrase is None or phrase.key not in templates:
        return str(err)
    return render([phrase], replace(explain_i18n.wording(lang), templates=templates))
