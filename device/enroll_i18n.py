"""The deck-enrollment page in English, Spanish, Italian and Danish.

The page picks its language as the table app does (``skullcam.i18n_core``: ``?lang=``, the
``lang`` cookie, the browser's Accept-Language) and names cards with the same words as the TV
and the phones in Spanish, Italian and Danish. English keeps the page's own names ("Green 7",
as the command line says them), so every English text is what it was.

Two tables: :data:`STRINGS`, the page's own words (key -> language -> text, all four), and
:data:`MESSAGES`, the other three languages of what the vision code says about a photo, a
self-check or the photos of real tricks (``vision.enroll_messages``, whose English table is the
command line's text). The tests check that every key has every language, with the same
``{placeholders}``. Terms follow the rule books and ``web/i18n.py``: *baza*, *baraja*;
*presa*, *mazzo*; *stik*, *kortsæt*.

While the model adapts, the page shows the running step (its progress bar's name, worded
through :data:`STEPS`) and the adaptation's progress lines (``SaidText``, worded from their
messages). What stays English, and why: the terminal (tqdm bars and printed lines are the
command line's text); a bar or a line that carries no key (a step added later shows its own
name rather than nothing); the values inside a line (a model folder's path and a file name are
what the disk calls them; numbers are only given the language's decimal mark); and what the
helper processes print (scene rendering and the detector's training run in a fresh interpreter
whose output goes to the terminal only, so the page never sees it).
"""

from __future__ import annotations

from typing import Any

from skullcam.i18n_core import LANGUAGES, card_in_text, decimal_mark
from skullcam.i18n_core import card_name as edition_card_name
from skullcam.vision.enroll_messages import (
    ENGLISH,
    Message,
    MessageError,
    Said,
    SaidText,
    Wording,
    card_name,
    render,
)

STRINGS: dict[str, dict[str, str]] = {
    # The page itself.
    "title": {
        "en": "skullcam: enroll {name}",
        "es": "skullcam: registrar {name}",
        "it": "skullcam: registra {name}",
        "da": "skullcam: registrér {name}",
    },
    "heading": {
        "en": "Enroll deck “{name}”",
        "es": "Registrar la baraja «{name}»",
        "it": "Registra il mazzo «{name}»",
        "da": "Registrér kortsættet »{name}«",
    },
    "prompt": {
        "en": "place the {card} face up in the frame",
        "es": "coloca la carta {card} boca arriba dentro del encuadre",
        "it": "metti la carta {card} scoperta nell'inquadratura",
        "da": "læg kortet {card} med forsiden opad, så det er i billedet",
    },
    "prompt_done": {
        "en": "all faces are in: adapt the recognizer to your deck",
        "es": "ya están todas las cartas: adapta el reconocedor a tu baraja",
        "it": "ci sono tutte le carte: adatta il riconoscitore al tuo mazzo",
        "da": "alle kort er med: tilpas kortgenkendelsen til dit kortsæt",
    },
    "alt_camera": {
        "en": "camera view",
        "es": "vista de la cámara",
        "it": "vista della fotocamera",
        "da": "kameraets billede",
    },
    "alt_preview": {
        "en": "rectified card",
        "es": "carta enderezada",
        "it": "carta raddrizzata",
        "da": "rettet kort",
    },
    "capture": {"en": "Capture", "es": "Capturar", "it": "Scatta", "da": "Tag billede"},
    "accept": {"en": "Accept", "es": "Aceptar", "it": "Accetta", "da": "Godkend"},
    "force": {
        "en": "It really is this card",
        "es": "De verdad es esta carta",
        "it": "È davvero questa carta",
        "da": "Det er virkelig dette kort",
    },
    "retake": {"en": "Retake", "es": "Repetir", "it": "Rifai", "da": "Tag igen"},
    "adapt": {
        "en": "Adapt the recognizer to this deck",
        "es": "Adaptar el reconocedor a esta baraja",
        "it": "Adatta il riconoscitore a questo mazzo",
        "da": "Tilpas kortgenkendelsen til dette kortsæt",
    },
    "tap_to_retake": {
        "en": "Tap a face to retake it:",
        "es": "Toca una carta para volver a fotografiarla:",
        "it": "Tocca una carta per rifarne la foto:",
        "da": "Tryk på et kort for at tage det igen:",
    },
    "tricks": {
        "en": "Check on real tricks",
        "es": "Comprobar con bazas reales",
        "it": "Verifica su prese reali",
        "da": "Tjek på rigtige stik",
    },
    "tricks_hint": {
        "en": (
            "Lay out a real trick, photograph it (or upload a photo) and tap any card whose name"
            " is wrong. The active model ({model}) reads the photo."
        ),
        "es": (
            "Coloca una baza real, fotografíala (o sube una foto) y toca cada carta cuyo nombre"
            " esté mal. El modelo activo ({model}) lee la foto."
        ),
        "it": (
            "Disponi una presa reale, fotografala (o carica una foto) e tocca ogni carta con il"
            " nome sbagliato. Il modello attivo ({model}) legge la foto."
        ),
        "da": (
            "Læg et rigtigt stik, fotografér det (eller upload et billede), og tryk på hvert"
            " kort, hvis navn er forkert. Den aktive model ({model}) læser billedet."
        ),
    },
    "trick_capture": {
        "en": "Photo from the camera",
        "es": "Foto desde la cámara",
        "it": "Foto dalla fotocamera",
        "da": "Billede fra kameraet",
    },
    "trick_upload": {
        "en": "Upload a photo",
        "es": "Subir una foto",
        "it": "Carica una foto",
        "da": "Upload et billede",
    },
    "alt_trick": {
        "en": "photo of a trick",
        "es": "foto de una baza",
        "it": "foto di una presa",
        "da": "billede af et stik",
    },
    "done": {"en": "Done", "es": "Listo", "it": "Fatto", "da": "Færdig"},
    "missed": {
        "en": "Cards it missed:",
        "es": "Cartas que no encontró:",
        "it": "Carte che non ha trovato:",
        "da": "Kort, den ikke fandt:",
    },
    "add_missed": {
        "en": "Add a card it missed",
        "es": "Añadir una carta que no encontró",
        "it": "Aggiungi una carta che non ha trovato",
        "da": "Tilføj et kort, den ikke fandt",
    },
    "save": {"en": "Save", "es": "Guardar", "it": "Salva", "da": "Gem"},
    "discard": {"en": "Discard", "es": "Descartar", "it": "Scarta", "da": "Kassér"},
    "recheck": {
        "en": "Check the saved photos again",
        "es": "Volver a comprobar las fotos guardadas",
        "it": "Ricontrolla le foto salvate",
        "da": "Tjek de gemte billeder igen",
    },
    "not_a_card": {
        "en": "not a card",
        "es": "no es una carta",
        "it": "non è una carta",
        "da": "ikke et kort",
    },
    # Written by the page's script (its placeholders filled in there).
    "count": {
        "en": "{done} of {total} faces",
        "es": "{done} de {total} cartas",
        "it": "{done} di {total} carte",
        "da": "{done} af {total} kort",
    },
    "found": {
        "en": "Found and straightened: accept it?",
        "es": "Encontrada y enderezada: ¿la aceptas?",
        "it": "Trovata e raddrizzata: la accetti?",
        "da": "Fundet og rettet op: godkend det?",
    },
    "step": {
        "en": "{what}: {done} of {total}",
        "es": "{what}: {done} de {total}",
        "it": "{what}: {done} di {total}",
        "da": "{what}: {done} af {total}",
    },
    "step_seconds": {
        "en": ", about {n} s left in this step",
        "es": ", quedan unos {n} s de este paso",
        "it": ", mancano circa {n} s a questo passo",
        "da": ", cirka {n} s tilbage af dette trin",
    },
    "step_minutes": {
        "en": ", about {n} min left in this step",
        "es": ", quedan unos {n} min de este paso",
        "it": ", mancano circa {n} min a questo passo",
        "da": ", cirka {n} min tilbage af dette trin",
    },
    # The running step's name (the tqdm bar's ``desc``, mapped by :data:`STEPS`). English is
    # the bar's own text, as the terminal shows it.
    "step_working": {
        "en": "working",
        "es": "trabajando",
        "it": "elaborazione in corso",
        "da": "arbejder",
    },
    "step_scenes": {
        "en": "scenes",
        "es": "creando escenas",
        "it": "creazione delle scene",
        "da": "laver scener",
    },
    "step_crops_train": {
        "en": "crops (train)",
        "es": "recortando las cartas para entrenar",
        "it": "ritaglio delle carte per l'addestramento",
        "da": "klipper kort ud til træningen",
    },
    "step_crops_val": {
        "en": "crops (val)",
        "es": "recortando las cartas para validar",
        "it": "ritaglio delle carte per la verifica",
        "da": "klipper kort ud til kontrollen",
    },
    "step_detector_crops": {
        "en": "detector crops (train)",
        "es": "recortando donde el detector ve cartas",
        "it": "ritaglio dove il rilevatore vede le carte",
        "da": "klipper ud, hvor detektoren ser kort",
    },
    "step_fine_tuning": {
        "en": "fine-tuning",
        "es": "aprendiendo tus cartas",
        "it": "apprendimento delle tue carte",
        "da": "lærer dine kort",
    },
    "step_corner_patches": {
        "en": "corner patches",
        "es": "recortando las esquinas de las cartas",
        "it": "ritaglio degli angoli delle carte",
        "da": "klipper korthjørner ud",
    },
    "step_corner_reader": {
        "en": "corner reader",
        "es": "aprendiendo las esquinas de las cartas",
        "it": "apprendimento degli angoli delle carte",
        "da": "lærer korthjørnerne",
    },
    "step_corner_weight": {
        "en": "corner weight",
        "es": "ajustando cuánto cuentan las esquinas",
        "it": "taratura del peso degli angoli",
        "da": "afvejer, hvor meget hjørnerne tæller",
    },
    "step_evaluating": {
        "en": "evaluating",
        "es": "comprobando el modelo nuevo",
        "it": "verifica del nuovo modello",
        "da": "tjekker den nye model",
    },
    "model_active": {
        "en": "The new model is active.",
        "es": "El nuevo modelo está activo.",
        "it": "Il nuovo modello è attivo.",
        "da": "Den nye model er aktiv.",
    },
    "not_activated": {
        "en": "Not activated: retake the weakest faces.",
        "es": "No activado: repite las fotos de las cartas más débiles.",
        "it": "Non attivato: rifai le foto delle carte più deboli.",
        "da": "Ikke aktiveret: tag billederne af de svageste kort igen.",
    },
    "not_activated_named": {
        "en": "Not activated: retake the weakest faces ({names}).",
        "es": "No activado: repite las fotos de las cartas más débiles ({names}).",
        "it": "Non attivato: rifai le foto delle carte più deboli ({names}).",
        "da": "Ikke aktiveret: tag billederne af de svageste kort igen ({names}).",
    },
    "retake_named": {
        "en": " Retake the photos of {names}: the self-check names them right on under half of"
        " their cards (cut off at the edge, another card, or blurred?).",
        "es": " Repite las fotos de {names}: la comprobación las reconoce en menos de la mitad de"
        " sus cartas (¿cortadas por el borde, otra carta o movidas?).",
        "it": " Rifai le foto di {names}: il controllo le riconosce in meno della metà delle loro"
        " carte (tagliate dal bordo, un'altra carta o mosse?).",
        "da": " Tag billederne af {names} igen: selvtjekket genkender dem i under halvdelen af"
        " deres kort (skåret af ved kanten, et andet kort eller uskarpe?).",
    },
    # More faces read badly than bad photos explain (enroll_check.TOO_MANY_TO_RETAKE): the
    # command line's advice, with the page's button for the longer run in place of its flags.
    "not_activated_longer": {
        "en": "Not activated.",
        "es": "No activado.",
        "it": "Non attivato.",
        "da": "Ikke aktiveret.",
    },
    "too_little": {
        "en": " {n} faces are named right on under half of their cards: too many for bad photos;"
        " the model learned too little: run it again with a longer plan.",
        "es": " {n} cartas se reconocen en menos de la mitad de sus apariciones: demasiadas para"
        " ser fotos malas; el modelo aprendió demasiado poco: vuelve a adaptarlo con un plan"
        " más largo.",
        "it": " {n} carte sono riconosciute in meno della metà delle loro apparizioni: troppe per"
        " essere foto sbagliate; il modello ha imparato troppo poco: adattalo di nuovo con un"
        " piano più lungo.",
        "da": " {n} kort genkendes i under halvdelen af deres forekomster: for mange til at være"
        " dårlige billeder; modellen lærte for lidt: tilpas den igen med en længere plan.",
    },
    "adapt_longer": {
        "en": "Run again with a longer plan ({scenes} scenes, {epochs} epochs, no time limit)",
        "es": (
            "Volver a adaptar con un plan más largo ({scenes} escenas, {epochs} pasadas, sin"
            " límite de tiempo)"
        ),
        "it": (
            "Adatta di nuovo con un piano più lungo ({scenes} scene, {epochs} passate, senza"
            " limite di tempo)"
        ),
        "da": (
            "Tilpas igen med en længere plan ({scenes} scener, {epochs} gennemløb, uden tidsgrænse)"
        ),
    },
    # The longer run's button with how long it takes here (EnrollSession._longer_offer): it
    # has no time limit, and the 20 minutes of the default plan do not hold for it.
    "adapt_longer_minutes": {
        "en": "Run again with a longer plan ({scenes} scenes, {epochs} epochs, no time limit:"
        " about {minutes} minutes on this machine)",
        "es": "Volver a adaptar con un plan más largo ({scenes} escenas, {epochs} pasadas, sin"
        " límite de tiempo: unos {minutes} minutos en este equipo)",
        "it": "Adatta di nuovo con un piano più lungo ({scenes} scene, {epochs} passate, senza"
        " limite di tempo: circa {minutes} minuti su questo computer)",
        "da": "Tilpas igen med en længere plan ({scenes} scener, {epochs} gennemløb, uden"
        " tidsgrænse: omkring {minutes} minutter på denne maskine)",
    },
    "adapt_longer_hours": {
        "en": "Run again with a longer plan ({scenes} scenes, {epochs} epochs, no time limit:"
        " about {hours:g} hours on this machine)",
        "es": "Volver a adaptar con un plan más largo ({scenes} escenas, {epochs} pasadas, sin"
        " límite de tiempo: unas {hours:g} horas en este equipo)",
        "it": "Adatta di nuovo con un piano più lungo ({scenes} scene, {epochs} passate, senza"
        " limite di tempo: circa {hours:g} ore su questo computer)",
        "da": "Tilpas igen med en længere plan ({scenes} scener, {epochs} gennemløb, uden"
        " tidsgrænse: omkring {hours:g} timer på denne maskine)",
    },
    "failed": {
        "en": "Failed: {error}",
        "es": "Error: {error}",
        "it": "Non riuscito: {error}",
        "da": "Mislykkedes: {error}",
    },
    "adapting": {
        "en": "Adapting…",
        "es": "Adaptando…",
        "it": "Adattamento in corso…",
        "da": "Tilpasser…",
    },
    "read_label": {
        "en": "{name} (read {read})",
        "es": "{name} (se leyó {read})",
        "it": "{name} (lettura: {read})",
        "da": "{name} (læst som {read})",
    },
    "picking": {
        "en": "Card {n} (read as {name}) is:",
        "es": "La carta {n} (leída como {name}) es:",
        "it": "La carta {n} (letta come {name}) è:",
        "da": "Kort {n} (læst som {name}) er:",
    },
    "missed_none": {"en": "none", "es": "ninguna", "it": "nessuna", "da": "ingen"},
    # Spoken by a screen reader (or shown next to the chips): what the page's buttons and
    # progress bars are, beyond their visible text.
    "remove_missed": {
        "en": "Remove missed card {name}",
        "es": "Quitar la carta no encontrada {name}",
        "it": "Rimuovi la carta non trovata {name}",
        "da": "Fjern det ikke fundne kort {name}",
    },
    "progress_faces": {
        "en": "Faces enrolled",
        "es": "Cartas registradas",
        "it": "Carte registrate",
        "da": "Registrerede kort",
    },
    "progress_step": {
        "en": "Progress of this step",
        "es": "Progreso de este paso",
        "it": "Avanzamento di questo passo",
        "da": "Fremskridt i dette trin",
    },
    "enrolled_key": {
        "en": "✓ enrolled",
        "es": "✓ registrada",
        "it": "✓ registrata",
        "da": "✓ registreret",
    },
    "face_enrolled": {
        "en": "{name}: enrolled",
        "es": "{name}: registrada",
        "it": "{name}: registrata",
        "da": "{name}: registreret",
    },
    "face_missing": {
        "en": "{name}: not yet",
        "es": "{name}: todavía no",
        "it": "{name}: non ancora",
        "da": "{name}: ikke endnu",
    },
    "trick_cards": {
        "en": "Cards found in the photo",
        "es": "Cartas encontradas en la foto",
        "it": "Carte trovate nella foto",
        "da": "Kort fundet på billedet",
    },
    "trick_card": {
        "en": "Card {n}: {label}",
        "es": "Carta {n}: {label}",
        "it": "Carta {n}: {label}",
        "da": "Kort {n}: {label}",
    },
    "trick_found": {
        "en": "{n} cards found. Tap a card to correct its name.",
        "es": "{n} cartas encontradas. Toca una carta para corregir su nombre.",
        "it": "{n} carte trovate. Tocca una carta per correggerne il nome.",
        "da": "{n} kort fundet. Tryk på et kort for at rette dets navn.",
    },
    "trick_found_one": {
        "en": "{n} card found. Tap the card to correct its name.",
        "es": "{n} carta encontrada. Toca la carta para corregir su nombre.",
        "it": "{n} carta trovata. Tocca la carta per correggerne il nome.",
        "da": "{n} kort fundet. Tryk på kortet for at rette dets navn.",
    },
    "trick_found_none": {
        "en": "No card found: add the cards of the trick below.",
        "es": "No se encontró ninguna carta: añade abajo las cartas de la baza.",
        "it": "Nessuna carta trovata: aggiungi qui sotto le carte della presa.",
        "da": "Intet kort fundet: tilføj stikkets kort nedenfor.",
    },
    "trick_result": {
        "en": "{sentence} (model {model})",
        "es": "{sentence} (modelo {model})",
        "it": "{sentence} (modello {model})",
        "da": "{sentence} (model {model})",
    },
    "trick_stale": {
        "en": ". Checked with another model or before the last photo: check again.",
        "es": ". Comprobado con otro modelo o antes de la última foto: vuelve a comprobarlo.",
        "it": ". Controllato con un altro modello o prima dell'ultima foto: ricontrolla.",
        "da": ". Tjekket med en anden model eller før det seneste billede: tjek igen.",
    },
    "trick_saved": {
        "en": "{n} photos saved.",
        "es": "{n} fotos guardadas.",
        "it": "{n} foto salvate.",
        "da": "{n} billeder gemt.",
    },
    "trick_saved_one": {
        "en": "{n} photo saved.",
        "es": "{n} foto guardada.",
        "it": "{n} foto salvata.",
        "da": "{n} billede gemt.",
    },
    "reading": {
        "en": "Reading the photo…",
        "es": "Leyendo la foto…",
        "it": "Lettura della foto…",
        "da": "Læser billedet…",
    },
    # What the page's own requests answer when they cannot do what was asked.
    "err_all_enrolled": {
        "en": "every face is enrolled already; choose one to retake first",
        "es": "ya están registradas todas las cartas; elige primero una para repetirla",
        "it": "tutte le carte sono già registrate; scegline prima una da rifare",
        "da": "alle kort er allerede registreret; vælg først et, der skal tages igen",
    },
    "err_recording_ended": {
        "en": (
            "the recording has no frames left: start skullcam enroll again with a camera"
            " (--camera), or enroll from a folder of photos"
        ),
        "es": (
            "a la grabación no le quedan fotogramas: vuelve a iniciar skullcam enroll con"
            " una cámara (--camera) o registra la baraja desde una carpeta de fotos"
        ),
        "it": (
            "la registrazione non ha più fotogrammi: riavvia skullcam enroll con una"
            " fotocamera (--camera) o registra il mazzo da una cartella di foto"
        ),
        "da": (
            "optagelsen har ikke flere billeder: start skullcam enroll igen med et kamera"
            " (--camera), eller registrér kortene fra en mappe med billeder"
        ),
    },
    "err_no_picture": {
        "en": "the camera gave no picture; check it is connected and retry",
        "es": "la cámara no dio ninguna imagen; comprueba que está conectada y vuelve a intentarlo",
        "it": "la fotocamera non ha dato nessuna immagine; controlla che sia collegata e riprova",
        "da": "kameraet gav intet billede; tjek, at det er tilsluttet, og prøv igen",
    },
    "err_adapting": {
        "en": "the recognizer is being adapted to the faces: wait until it is done",
        "es": "el reconocedor se está adaptando a las cartas: espera a que termine",
        "it": "il riconoscitore si sta adattando alle carte: aspetta che finisca",
        "da": "kortgenkendelsen er ved at blive tilpasset kortene: vent, til den er færdig",
    },
    # Adapt pressed again after a finished adaptation, with the same photos: it would only
    # make the same model again.
    "err_same_photos": {
        "en": "these photos already made the model shown: retake a face first (tap its name"
        " below), then adapt again",
        "es": "estas fotos ya hicieron el modelo que se muestra: vuelve a fotografiar una carta"
        " primero (toca su nombre abajo) y adapta de nuevo",
        "it": "queste foto hanno già fatto il modello mostrato: rifai prima la foto di una carta"
        " (tocca il suo nome qui sotto), poi adatta di nuovo",
        "da": "disse billeder har allerede lavet den viste model: tag først et kort igen (tryk"
        " på dets navn nedenfor), og tilpas så igen",
    },
    "err_same_photos_longer": {
        "en": "these photos already made the model shown, and the same plan would make it"
        " again: press 'Run again with a longer plan' below",
        "es": "estas fotos ya hicieron el modelo que se muestra, y el mismo plan lo haría igual:"
        " pulsa «Volver a adaptar con un plan más largo» abajo",
        "it": "queste foto hanno già fatto il modello mostrato, e lo stesso piano lo rifarebbe"
        " uguale: premi «Adatta di nuovo con un piano più lungo» qui sotto",
        "da": "disse billeder har allerede lavet den viste model, og samme plan ville lave den"
        " igen: tryk på »Tilpas igen med en længere plan« nedenfor",
    },
    # After a restart: a longer run was going when the program stopped (it may have been
    # what stopped it: out of memory), so it could not say how it ended.
    "err_longer_run_stopped": {
        "en": "the run with a longer plan did not finish: the program stopped during it. Run"
        " it again: it goes on from the work it saved",
        "es": "la adaptación con un plan más largo no terminó: el programa se detuvo durante"
        " ella. Vuelve a lanzarla: sigue desde el trabajo que guardó",
        "it": "l'adattamento con un piano più lungo non è finito: il programma si è fermato"
        " durante l'adattamento. Rilancialo: riprende dal lavoro che ha salvato",
        "da": "kørslen med en længere plan blev ikke færdig: programmet stoppede undervejs."
        " Kør den igen: den fortsætter fra det arbejde, den gemte",
    },
    "err_nothing_captured": {
        "en": "nothing captured yet: capture the card first",
        "es": "aún no hay ninguna captura: captura primero la carta",
        "it": "ancora nessuno scatto: scatta prima la carta",
        "da": "intet billede taget endnu: tag først et billede af kortet",
    },
    "err_unusable": {
        "en": "this capture cannot be used ({reason})",
        "es": "esta captura no se puede usar ({reason})",
        "it": "questo scatto non si può usare ({reason})",
        "da": "dette billede kan ikke bruges ({reason})",
    },
    "err_unknown_card": {
        "en": "unknown card {face}",
        "es": "carta desconocida {face}",
        "it": "carta sconosciuta {face}",
        "da": "ukendt kort {face}",
    },
    "err_missing": {
        "en": "{n} faces still missing",
        "es": "aún faltan {n} cartas",
        "it": "mancano ancora {n} carte",
        "da": "der mangler stadig {n} kort",
    },
    "err_missing_one": {
        "en": "{n} face still missing",
        "es": "aún falta {n} carta",
        "it": "manca ancora {n} carta",
        "da": "der mangler stadig {n} kort",
    },
    "err_source_stopped": {
        "en": (
            "the camera stopped giving pictures: the next capture opens it again (the terminal"
            " running skullcam enroll says why)"
        ),
        "es": (
            "la cámara dejó de dar imágenes: la próxima captura la vuelve a abrir (la terminal"
            " donde funciona skullcam enroll dice por qué)"
        ),
        "it": (
            "la fotocamera ha smesso di dare immagini: il prossimo scatto la riapre (il"
            " terminale dove gira skullcam enroll dice perché)"
        ),
        "da": (
            "kameraet holdt op med at give billeder: næste billede åbner det igen (terminalen,"
            " der kører skullcam enroll, siger hvorfor)"
        ),
    },
    "err_cannot_reopen": {
        "en": "the camera failed and cannot be opened again here: restart the page",
        "es": "la cámara falló y no se puede volver a abrir desde aquí: reinicia la página",
        "it": "la fotocamera si è interrotta e non si può riaprire da qui: riavvia la pagina",
        "da": "kameraet fejlede og kan ikke åbnes igen herfra: genstart siden",
    },
    "err_reopen_failed": {
        "en": (
            "the camera failed and could not be opened again: check that it is plugged in and"
            " retry when it is back (the terminal running skullcam enroll says why)"
        ),
        "es": (
            "la cámara falló y no se pudo volver a abrir: comprueba que está conectada y vuelve"
            " a intentarlo cuando esté disponible (la terminal donde funciona skullcam enroll"
            " dice por qué)"
        ),
        "it": (
            "la fotocamera si è interrotta e non si è potuta riaprire: controlla che sia"
            " collegata e riprova quando è di nuovo disponibile (il terminale dove gira"
            " skullcam enroll dice perché)"
        ),
        "da": (
            "kameraet fejlede og kunne ikke åbnes igen: tjek, at det er tilsluttet, og prøv"
            " igen, når det er tilbage (terminalen, hvor skullcam enroll kører, siger hvorfor)"
        ),
    },
    "err_source_stopped_folder": {
        "en": (
            "the folder of pictures stopped giving pictures: the next capture opens it again"
            " (the terminal running skullcam enroll says why)"
        ),
        "es": (
            "la carpeta de imágenes dejó de dar imágenes: la próxima captura la vuelve a abrir"
            " (la terminal donde funciona skullcam enroll dice por qué)"
        ),
        "it": (
            "la cartella di immagini ha smesso di dare immagini: il prossimo scatto la riapre"
            " (il terminale dove gira skullcam enroll dice perché)"
        ),
        "da": (
            "billedmappen holdt op med at give billeder: næste billede åbner den igen"
            " (terminalen, der kører skullcam enroll, siger hvorfor)"
        ),
    },
    "err_source_stopped_video": {
        "en": (
            "the video stopped giving pictures: the next capture opens it again (the terminal"
            " running skullcam enroll says why)"
        ),
        "es": (
            "el vídeo dejó de dar imágenes: la próxima captura lo vuelve a abrir (la terminal"
            " donde funciona skullcam enroll dice por qué)"
        ),
        "it": (
            "il video ha smesso di dare immagini: il prossimo scatto lo riapre (il terminale"
            " dove gira skullcam enroll dice perché)"
        ),
        "da": (
            "videoen holdt op med at give billeder: næste billede åbner den igen (terminalen,"
            " der kører skullcam enroll, siger hvorfor)"
        ),
    },
    # A folder's frame the source refused (too large to open): skipped, the next capture
    # reads the one after it.
    "err_frame_skipped": {
        "en": (
            "a picture in the folder could not be read and was skipped: capture again for the"
            " next one (the terminal running skullcam enroll says which)"
        ),
        "es": (
            "una imagen de la carpeta no se pudo leer y se saltó: vuelve a capturar para la"
            " siguiente (la terminal donde funciona skullcam enroll dice cuál)"
        ),
        "it": (
            "un'immagine della cartella non si può leggere ed è saltata: scatta di nuovo per"
            " la successiva (il terminale dove gira skullcam enroll dice quale)"
        ),
        "da": (
            "et billede i mappen kunne ikke læses og blev sprunget over: tag et nyt billede"
            " for det næste (terminalen, der kører skullcam enroll, siger hvilket)"
        ),
    },
    "err_cannot_reopen_folder": {
        "en": "the folder of pictures failed and cannot be opened again here: restart the page",
        "es": (
            "la carpeta de imágenes falló y no se puede volver a abrir desde aquí: reinicia la"
            " página"
        ),
        "it": (
            "la cartella di immagini si è interrotta e non si può riaprire da qui: riavvia la"
            " pagina"
        ),
        "da": "billedmappen fejlede og kan ikke åbnes igen herfra: genstart siden",
    },
    "err_cannot_reopen_video": {
        "en": "the video failed and cannot be opened again here: restart the page",
        "es": "el vídeo falló y no se puede volver a abrir desde aquí: reinicia la página",
        "it": "il video si è interrotto e non si può riaprire da qui: riavvia la pagina",
        "da": "videoen fejlede og kan ikke åbnes igen herfra: genstart siden",
    },
    "err_reopen_failed_folder": {
        "en": (
            "the folder of pictures failed and could not be opened again: check that it is"
            " still there and retry (the terminal running skullcam enroll says why)"
        ),
        "es": (
            "la carpeta de imágenes falló y no se pudo volver a abrir: comprueba que sigue ahí"
            " y vuelve a intentarlo (la terminal donde funciona skullcam enroll dice por qué)"
        ),
        "it": (
            "la cartella di immagini si è interrotta e non si è potuta riaprire: controlla che"
            " ci sia ancora e riprova (il terminale dove gira skullcam enroll dice perché)"
        ),
        "da": (
            "billedmappen fejlede og kunne ikke åbnes igen: tjek, at den stadig findes, og prøv"
            " igen (terminalen, hvor skullcam enroll kører, siger hvorfor)"
        ),
    },
    "err_reopen_failed_video": {
        "en": (
            "the video failed and could not be opened again: check that the file is still there"
            " and complete, and retry (the terminal running skullcam enroll says why)"
        ),
        "es": (
            "el vídeo falló y no se pudo volver a abrir: comprueba que el archivo sigue ahí y"
            " está completo, y vuelve a intentarlo (la terminal donde funciona skullcam enroll"
            " dice por qué)"
        ),
        "it": (
            "il video si è interrotto e non si è potuto riaprire: controlla che il file ci sia"
            " ancora e sia completo, e riprova (il terminale dove gira skullcam enroll dice"
            " perché)"
        ),
        "da": (
            "videoen fejlede og kunne ikke åbnes igen: tjek, at filen stadig findes og er hel,"
            " og prøv igen (terminalen, hvor skullcam enroll kører, siger hvorfor)"
        ),
    },
    "err_no_preview": {
        "en": "no preview: capture a card first",
        "es": "no hay vista previa: captura primero una carta",
        "it": "nessuna anteprima: scatta prima una carta",
        "da": "ingen forhåndsvisning: tag først et billede af et kort",
    },
    "err_not_enrolled": {
        "en": "{face} is not enrolled",
        "es": "falta registrar {face}",
        "it": "la carta {face} non è registrata",
        "da": "{face} er ikke registreret",
    },
    "err_no_trick_photo": {
        "en": "no photo to save: take or upload a photo of a trick first",
        "es": "no hay ninguna foto que guardar: primero haz o sube una foto de una baza",
        "it": "nessuna foto da salvare: prima scatta o carica una foto di una presa",
        "da": "intet billede at gemme: tag eller upload først et billede af et stik",
    },
    "err_no_trick_image": {
        "en": "no photo: take or upload a photo of a trick first",
        "es": "no hay ninguna foto: primero haz o sube una foto de una baza",
        "it": "nessuna foto: prima scatta o carica una foto di una presa",
        "da": "intet billede: tag eller upload først et billede af et stik",
    },
    "err_upload_large": {
        "en": "the upload is larger than {limit} MB: send a smaller photo",
        "es": "el archivo supera los {limit} MB: envía una foto más pequeña",
        "it": "il file supera i {limit} MB: invia una foto più piccola",
        "da": "filen er større end {limit} MB: send et mindre billede",
    },
    "err_request_large": {
        "en": "the request is larger than {limit} MB, more than the page ever sends",
        "es": "la petición supera los {limit} MB, más de lo que la página envía nunca",
        "it": "la richiesta supera i {limit} MB, più di quanto la pagina invii mai",
        "da": "forespørgslen er større end {limit} MB, mere end siden nogensinde sender",
    },
    # A request the page's script never sends (a script's, or a garbled one).
    "err_not_object": {
        "en": "the request is not a JSON object: send {example}",
        "es": "la petición no es un objeto JSON: envía {example}",
        "it": "la richiesta non è un oggetto JSON: invia {example}",
        "da": "forespørgslen er ikke et JSON-objekt: send {example}",
    },
    "err_not_face_id": {
        "en": 'face must be a face id such as "green-7", or left out, not {value}',
        "es": 'face debe ser un id de carta como "green-7", u omitirse, no {value}',
        "it": 'face deve essere l\'id di una carta come "green-7", oppure mancare, non {value}',
        "da": 'face skal være et kort-id som "green-7" eller udelades, ikke {value}',
    },
    # Two examples of a request, as err_not_object quotes them.
    "either_example": {
        "en": "{a} or {b}",
        "es": "{a} o {b}",
        "it": "{a} o {b}",
        "da": "{a} eller {b}",
    },
    "err_not_boolean": {
        "en": "{field} must be true or false, not {value}",
        "es": "{field} debe ser true o false, no {value}",
        "it": "{field} deve essere true o false, non {value}",
        "da": "{field} skal være true eller false, ikke {value}",
    },
    "err_no_photo_field": {
        "en": "no photo in the request: send the image as the form field 'photo'",
        "es": "no hay ninguna foto en la petición: envía la imagen en el campo 'photo'",
        "it": "nessuna foto nella richiesta: invia l'immagine nel campo 'photo'",
        "da": "intet billede i forespørgslen: send billedet i feltet 'photo'",
    },
    "err_labels": {
        "en": (
            "labels: expected a list of {n} face ids or 'none', one per found card in order,"
            " got {value}"
        ),
        "es": (
            "labels: se esperaba una lista de {n} ids de carta o 'none', una por cada carta"
            " encontrada y en orden, no {value}"
        ),
        "it": (
            "labels: serve una lista di {n} id di carta o 'none', uno per ogni carta trovata e"
            " in ordine, non {value}"
        ),
        "da": (
            "labels: der skal være en liste med {n} kort-id'er eller 'none', ét for hvert"
            " fundet kort i rækkefølge, ikke {value}"
        ),
    },
    "err_missed": {
        "en": "missed: expected a list of face ids, got {value}",
        "es": "missed: se esperaba una lista de ids de carta, no {value}",
        "it": "missed: serve una lista di id di carta, non {value}",
        "da": "missed: der skal være en liste med kort-id'er, ikke {value}",
    },
    # Errors no route words itself (``enroll_web.add_error_answers``).
    "err_not_found": {
        "en": "not found: check the address",
        "es": "no encontrado: revisa la dirección",
        "it": "non trovato: controlla l'indirizzo",
        "da": "ikke fundet: tjek adressen",
    },
    "err_method": {
        "en": "method not allowed for this address",
        "es": "este método no está permitido en esta dirección",
        "it": "metodo non consentito per questo indirizzo",
        "da": "metoden er ikke tilladt på denne adresse",
    },
    "err_request": {
        "en": "the page could not answer this request (HTTP {code}); reload the page",
        "es": "la página no pudo atender esta petición (HTTP {code}); recarga la página",
        "it": "la pagina non ha potuto rispondere a questa richiesta (HTTP {code}); ricarica la"
        " pagina",
        "da": "siden kunne ikke besvare denne forespørgsel (HTTP {code}); genindlæs siden",
    },
    "err_files": {
        "en": (
            "a file on this machine could not be read or written ({error}): check that the"
            " data folder's disk has room and can be written to, then try again; the photos"
            " accepted so far are kept"
        ),
        "es": (
            "no se pudo leer o escribir un archivo en esta máquina ({error}): comprueba que el"
            " disco de la carpeta de datos tiene espacio y permite escribir, y vuelve a"
            " intentarlo; las fotos aceptadas hasta ahora se conservan"
        ),
        "it": (
            "non è stato possibile leggere o scrivere un file su questa macchina ({error}):"
            " controlla che il disco della cartella dei dati abbia spazio e sia scrivibile, poi"
            " riprova; le foto accettate finora restano salvate"
        ),
        "da": (
            "en fil på denne maskine kunne ikke læses eller skrives ({error}): tjek, at"
            " datamappens disk har plads og kan skrives til, og prøv igen; de billeder, der er"
            " godkendt indtil nu, er gemt"
        ),
    },
    "err_server": {
        "en": (
            "the page failed on this request (the terminal shows the details); try again; the"
            " photos accepted so far are kept"
        ),
        "es": (
            "la página falló con esta petición (la terminal muestra los detalles); vuelve a"
            " intentarlo; las fotos aceptadas hasta ahora se conservan"
        ),
        "it": (
            "la pagina ha fallito questa richiesta (il terminale mostra i dettagli); riprova; le"
            " foto accettate finora restano salvate"
        ),
        "da": (
            "siden fejlede på denne forespørgsel (terminalen viser detaljerne); prøv igen; de"
            " billeder, der er godkendt indtil nu, er gemt"
        ),
    },
    # The PIN, beyond localhost (``skullcam.table_pin``, as on the table app).
    "pin_prompt": {
        "en": "The table's PIN (shown where skullcam enroll was started):",
        "es": "El PIN de la mesa (lo muestra skullcam enroll al arrancar):",
        "it": "Il PIN del tavolo (mostrato all'avvio di skullcam enroll):",
        "da": "Bordets PIN (vises, hvor skullcam enroll blev startet):",
    },
    "pin_missing": {
        "en": "wrong or missing PIN: enter the table's PIN shown where skullcam enroll was started",
        "es": "PIN incorrecto o ausente: escribe el PIN que muestra skullcam enroll al arrancar",
        "it": "PIN errato o mancante: inserisci il PIN mostrato all'avvio di skullcam enroll",
        "da": "forkert eller manglende PIN: indtast den PIN, skullcam enroll viste ved start",
    },
    "pin_not_set": {
        "en": "this page has no PIN set; restart skullcam enroll with --pin",
        "es": "esta página no tiene PIN; reinicia skullcam enroll con --pin",
        "it": "questa pagina non ha un PIN; riavvia skullcam enroll con --pin",
        "da": "denne side har ingen PIN; genstart skullcam enroll med --pin",
    },
    # A /api/pin body with no "pin", or one that is no text: the page's script never sends it.
    "err_pin_not_text": {
        "en": "send 'pin', the table's PIN, as text",
        "es": "envía «pin», el PIN de la mesa, como texto",
        "it": "invia «pin», il PIN del tavolo, come testo",
        "da": "send »pin«, bordets PIN, som tekst",
    },
    "pin_typed_wrong": {
        "en": "wrong PIN",
        "es": "PIN incorrecto",
        "it": "PIN errato",
        "da": "forkert PIN",
    },
    "pin_header_wrong": {
        "en": "wrong PIN in X-Skullcam-Pin: send the PIN shown where skullcam enroll was started",
        "es": "PIN incorrecto en X-Skullcam-Pin: envía el PIN que muestra skullcam enroll",
        "it": "PIN errato in X-Skullcam-Pin: invia il PIN mostrato da skullcam enroll",
        "da": "forkert PIN i X-Skullcam-Pin: send den PIN, skullcam enroll viste",
    },
    "pin_locked": {
        "en": "too many wrong PINs; wait {seconds} s and try again",
        "es": "demasiados PIN incorrectos; espera {seconds} s y vuelve a intentarlo",
        "it": "troppi PIN errati; aspetta {seconds} s e riprova",
        "da": "for mange forkerte PIN-koder; vent {seconds} s og prøv igen",
    },
    "pin_table_locked": {
        "en": "too many wrong PINs in the last hour; wait {minutes} min",
        "es": "demasiados PIN incorrectos en la última hora; espera {minutes} min",
        "it": "troppi PIN errati nell'ultima ora; aspetta {minutes} min",
        "da": "for mange forkerte PIN-koder den seneste time; vent {minutes} min",
    },
    "err_not_from_page": {
        "en": (
            "send this from the enrollment page, or as JSON or with the header X-Skullcam-Page"
            " from a script (a form posted from elsewhere is refused)"
        ),
        "es": (
            "envíalo desde la página de registro, o como JSON o con la cabecera X-Skullcam-Page"
            " desde un script (se rechaza un formulario enviado desde otro sitio)"
        ),
        "it": (
            "invialo dalla pagina di registrazione, o come JSON o con l'intestazione"
            " X-Skullcam-Page da uno script (un modulo inviato da altrove è rifiutato)"
        ),
        "da": (
            "send det fra registreringssiden, eller som JSON eller med headeren X-Skullcam-Page"
            " fra et script (en formular sendt andetsteds fra afvises)"
        ),
    },
    "err_foreign_host": {
        "en": "this page listens on this machine only: open it as http://localhost:{port}/",
        "es": "esta página solo escucha en esta máquina: ábrela como http://localhost:{port}/",
        "it": "questa pagina ascolta solo su questa macchina: aprila come http://localhost:{port}/",
        "da": "denne side lytter kun på denne maskine: åbn den som http://localhost:{port}/",
    },
}

#: What the vision code says (``vision.enroll_messages.ENGLISH``) in the other languages.
MESSAGES: dict[str, dict[str, str]] = {
    "es": {
        "photo_ok": "ok",
        "photo_edge_unclear": (
            "el borde de la carta no se distingue de la superficie: ponla sobre una superficie"
            " lisa de otro color y repite la foto"
        ),
        "photo_washed_out": (
            "un reflejo borra la imagen: inclina la carta o mueve la luz y repite la foto"
        ),
        "photo_no_card": (
            "no se encuentra ninguna carta: pon la carta boca arriba sobre una superficie lisa"
            " que contraste, con toda la carta en la imagen, no te muevas y repite la foto"
        ),
        "photo_glare_cut": (
            "un reflejo corta el contorno de la carta: inclina la carta o mueve la luz y repite"
            " la foto"
        ),
        "photo_cards": "hay {n} cartas en la imagen: fotografía las cartas de una en una",
        "photo_picture_too_small": (
            "la imagen solo mide {width} x {height} px, demasiado poco para una carta legible:"
            " haz la foto con la cámara a tamaño completo"
        ),
        "photo_too_small": (
            "la carta solo mide {width:.0f} px de ancho en la imagen: acércate para que ocupe"
            " más del encuadre"
        ),
        "photo_blurred": (
            "la carta está borrosa (nitidez {sharpness:.2f}, necesita {needed:.2f}): no te"
            " muevas, enfoca la carta y repite la foto"
        ),
        "photo_glare": (
            "un reflejo borra el {share:.0%} de la carta: inclina la carta o mueve la luz y"
            " repite la foto"
        ),
        "photo_wrong_card": (
            "{label} parece {best_name}, no {face_name}: revisa la carta y repite la foto,"
            " o acéptala si de verdad es esa carta"
        ),
        "this_card": "esta carta",
        "times_1": "una vez",
        "times_2": "dos veces",
        "times": "{n} veces",
        "check_right": "{recall:.1%} de cartas acertadas en {scenes} escenas de prueba",
        "check_confused": "; {a} y {b} se confundieron {times}",
        "check_not_found": "; {n} cartas no encontradas",
        "check_not_found_one": "; {n} carta no encontrada",
        "false_alarms": "; {n} falsas alarmas",
        "false_alarms_one": "; {n} falsa alarma",
        "tricks_none": "aún no se ha comprobado ninguna foto de bazas reales",
        "tricks_photos": "en {n} fotos de bazas reales: ",
        "tricks_photos_one": "en {n} foto de bazas reales: ",
        "tricks_right": "{right} de {n} cartas acertadas",
        "tricks_right_one": "{right} de {n} carta acertada",
        "tricks_misread": "; {true} se leyó como {read} {times}",
        "tricks_other_misreads": "; {n} lecturas erróneas más",
        "tricks_other_misreads_one": "; {n} lectura errónea más",
        "tricks_not_found": "; {n} cartas no encontradas ({names})",
        "tricks_not_found_one": "; {n} carta no encontrada ({names})",
        "state_rebuilt": (
            "{why}: el registro sigue con las fotos de sus cartas aceptadas ({n} de {total})"
        ),
        "state_damaged": "{state} estaba dañado y se conserva como {kept}",
        "state_missing": "{state} faltaba",
        "upload_empty": "el archivo subido está vacío: elige una foto (JPEG o PNG)",
        "upload_unreadable": (
            "el archivo subido no es una imagen legible (no es JPEG ni PNG, o está incompleto):"
            " elige una foto"
        ),
        "upload_too_small": (
            "la foto solo mide {width} x {height} px: una baza necesita al menos {min} px"
        ),
        "log_rendering": "creando {n} escenas con tu baraja",
        "log_detector_kept": "el detector se queda como está: {model} no tiene {file}",
        "log_detector": "entrenando el detector de cartas con {scenes} escenas, {n} pasadas",
        "log_detector_one": "entrenando el detector de cartas con {scenes} escenas, {n} pasada",
        "log_detector_resuming": (
            "entrenando el detector de cartas con {scenes} escenas, {n} pasadas (sigue"
            " donde se quedó)"
        ),
        "log_detector_resuming_one": (
            "entrenando el detector de cartas con {scenes} escenas, {n} pasada (sigue"
            " donde se quedó)"
        ),
        "log_crops": "recortando las cartas de las escenas",
        "log_detector_crops": "recortando donde el detector ve cartas",
        "log_classifier": "aprendiendo tus cartas con {crops} recortes, {n} pasadas",
        "log_classifier_one": "aprendiendo tus cartas con {crops} recortes, {n} pasada",
        "log_classifier_cut": (
            "el tiempo previsto acabó el aprendizaje de tus cartas tras {done:g} de sus {n}"
            " pasadas (--minutes 0 las hace todas, si hay tiempo)"
        ),
        "log_classifier_cut_one": (
            "el tiempo previsto acabó el aprendizaje de tus cartas tras {done:g} de su {n}"
            " pasada (--minutes 0 la hace entera, si hay tiempo)"
        ),
        "log_classifier_budget": (
            "aprendiendo tus cartas con {crops} recortes, {n} pasadas o {minutes:g} min,"
            " lo que acabe antes"
        ),
        "log_classifier_budget_one": (
            "aprendiendo tus cartas con {crops} recortes, {n} pasada o {minutes:g} min,"
            " lo que acabe antes"
        ),
        "log_corner_reader": (
            "aprendiendo las esquinas de las cartas con {patches} recortes, {n} pasadas"
        ),
        "log_corner_reader_one": (
            "aprendiendo las esquinas de las cartas con {patches} recortes, {n} pasada"
        ),
        "log_corner_reader_budget": (
            "aprendiendo las esquinas de las cartas con {patches} recortes, {n} pasadas o"
            " {minutes:g} min, lo que acabe antes"
        ),
        "log_corner_reader_budget_one": (
            "aprendiendo las esquinas de las cartas con {patches} recortes, {n} pasada o"
            " {minutes:g} min, lo que acabe antes"
        ),
        "log_self_check": "autocomprobación: creando {n} escenas de prueba nuevas con tu baraja",
        "log_choosing_weight": (
            "eligiendo cuánto cuentan las esquinas, con las escenas de validación"
        ),
        "log_corner_weight": (
            "peso de las esquinas: {weight:g}, elegido con {scenes} escenas de validación"
            " (escenas bien leídas con cada peso: {tried})"
        ),
        "log_weight_score": "{weight:g} → {right}",
        "log_tricks_recheck": (
            "comprobando las fotos guardadas de bazas reales con el modelo activo"
        ),
    },
    "it": {
        "photo_ok": "ok",
        "photo_edge_unclear": (
            "il bordo della carta non si distingue dalla superficie: mettila su una superficie"
            " liscia di un altro colore e rifai la foto"
        ),
        "photo_washed_out": (
            "un riflesso sbianca l'immagine: inclina la carta o sposta la luce e rifai la foto"
        ),
        "photo_no_card": (
            "nessuna carta trovata: metti la carta scoperta su una superficie liscia e"
            " contrastante, con tutta la carta nell'immagine, stai fermo e rifai la foto"
        ),
        "photo_glare_cut": (
            "un riflesso interrompe il contorno della carta: inclina la carta o sposta la luce e"
            " rifai la foto"
        ),
        "photo_cards": "ci sono {n} carte nell'immagine: fotografa una carta alla volta",
        "photo_picture_too_small": (
            "l'immagine è solo {width} x {height} px, troppo piccola per una carta leggibile:"
            " scatta la foto con la fotocamera a piena risoluzione"
        ),
        "photo_too_small": (
            "la carta è larga solo {width:.0f} px nell'immagine: avvicinati perché riempia di più"
            " l'inquadratura"
        ),
        "photo_blurred": (
            "la carta è sfocata (nitidezza {sharpness:.2f}, serve {needed:.2f}): stai fermo,"
            " metti a fuoco la carta e rifai la foto"
        ),
        "photo_glare": (
            "un riflesso sbianca il {share:.0%} della carta: inclina la carta o sposta la luce e"
            " rifai la foto"
        ),
        "photo_wrong_card": (
            "{label} sembra {best_name}, non {face_name}: controlla la carta e rifai la"
            " foto, oppure accettala se è davvero quella carta"
        ),
        "this_card": "questa carta",
        "times_1": "una volta",
        "times_2": "due volte",
        "times": "{n} volte",
        "check_right": "{recall:.1%} di carte giuste su {scenes} scene di prova",
        "check_confused": "; {a} e {b} scambiate {times}",
        "check_not_found": "; {n} carte non trovate",
        "check_not_found_one": "; {n} carta non trovata",
        "false_alarms": "; {n} falsi allarmi",
        "false_alarms_one": "; {n} falso allarme",
        "tricks_none": "nessuna foto di prese reali ancora controllata",
        "tricks_photos": "su {n} foto di prese reali: ",
        "tricks_photos_one": "su {n} foto di prese reali: ",
        "tricks_right": "{right} su {n} carte giuste",
        "tricks_right_one": "{right} su {n} carta giusta",
        "tricks_misread": "; la carta {true} letta come {read} {times}",
        "tricks_other_misreads": "; altre {n} letture sbagliate",
        "tricks_other_misreads_one": "; {n} altra lettura sbagliata",
        "tricks_not_found": "; {n} carte non trovate ({names})",
        "tricks_not_found_one": "; {n} carta non trovata ({names})",
        "state_rebuilt": (
            "{why}: la registrazione continua dalle foto delle sue carte accettate ({n} di {total})"
        ),
        "state_damaged": "{state} era danneggiato ed è conservato come {kept}",
        "state_missing": "{state} mancava",
        "upload_empty": "il file caricato è vuoto: scegli una foto (JPEG o PNG)",
        "upload_unreadable": (
            "il file caricato non è un'immagine leggibile (non è JPEG o PNG, oppure è troncato):"
            " scegli una foto"
        ),
        "upload_too_small": (
            "la foto è solo {width} x {height} px: una presa richiede almeno {min} px"
        ),
        "log_rendering": "creazione di {n} scene con il tuo mazzo",
        "log_detector_kept": "il rilevatore resta com'è: {model} non ha {file}",
        "log_detector": "addestramento del rilevatore di carte su {scenes} scene, {n} passate",
        "log_detector_one": "addestramento del rilevatore di carte su {scenes} scene, {n} passata",
        "log_detector_resuming": (
            "addestramento del rilevatore di carte su {scenes} scene, {n} passate"
            " (riprende da dove si era fermato)"
        ),
        "log_detector_resuming_one": (
            "addestramento del rilevatore di carte su {scenes} scene, {n} passata"
            " (riprende da dove si era fermato)"
        ),
        "log_crops": "ritaglio delle carte dalle scene",
        "log_detector_crops": "ritaglio dove il rilevatore vede le carte",
        "log_classifier": "apprendimento delle tue carte su {crops} ritagli, {n} passate",
        "log_classifier_one": "apprendimento delle tue carte su {crops} ritagli, {n} passata",
        "log_classifier_cut": (
            "il tempo previsto ha chiuso l'apprendimento delle tue carte dopo {done:g} delle"
            " sue {n} passate (--minutes 0 le fa tutte, se c'è tempo)"
        ),
        "log_classifier_cut_one": (
            "il tempo previsto ha chiuso l'apprendimento delle tue carte dopo {done:g} della"
            " sua {n} passata (--minutes 0 la fa tutta, se c'è tempo)"
        ),
        "log_classifier_budget": (
            "apprendimento delle tue carte su {crops} ritagli, {n} passate o {minutes:g} min,"
            " quello che finisce prima"
        ),
        "log_classifier_budget_one": (
            "apprendimento delle tue carte su {crops} ritagli, {n} passata o {minutes:g} min,"
            " quello che finisce prima"
        ),
        "log_corner_reader": (
            "apprendimento degli angoli delle carte su {patches} ritagli, {n} passate"
        ),
        "log_corner_reader_one": (
            "apprendimento degli angoli delle carte su {patches} ritagli, {n} passata"
        ),
        "log_corner_reader_budget": (
            "apprendimento degli angoli delle carte su {patches} ritagli, {n} passate o"
            " {minutes:g} min, quello che finisce prima"
        ),
        "log_corner_reader_budget_one": (
            "apprendimento degli angoli delle carte su {patches} ritagli, {n} passata o"
            " {minutes:g} min, quello che finisce prima"
        ),
        "log_self_check": "autoverifica: creazione di {n} nuove scene di prova con il tuo mazzo",
        "log_choosing_weight": "scelta di quanto contano gli angoli, sulle scene di validazione",
        "log_corner_weight": (
            "peso degli angoli {weight:g}, scelto su {scenes} scene di validazione (scene lette"
            " bene con ogni peso: {tried})"
        ),
        "log_weight_score": "{weight:g} → {right}",
        "log_tricks_recheck": "controllo delle foto salvate di prese reali con il modello attivo",
    },
    "da": {
        "photo_ok": "ok",
        "photo_edge_unclear": (
            "kortets kant skiller sig ikke ud fra underlaget: læg det på et ensfarvet underlag i"
            " en anden farve, og tag billedet igen"
        ),
        "photo_washed_out": (
            "et genskin gør billedet udvasket: vip kortet eller flyt lyset, og tag billedet igen"
        ),
        "photo_no_card": (
            "intet kort fundet: læg kortet med forsiden opad på et ensfarvet underlag, der"
            " skiller sig ud, med hele kortet i billedet, hold stille, og tag billedet igen"
        ),
        "photo_glare_cut": (
            "et genskin bryder kortets omrids: vip kortet eller flyt lyset, og tag billedet igen"
        ),
        "photo_cards": "{n} kort i billedet: fotografér ét kort ad gangen",
        "photo_picture_too_small": (
            "billedet er kun {width} x {height} px, for lille til et læseligt kort: tag"
            " billedet med kameraet i fuld størrelse"
        ),
        "photo_too_small": (
            "kortet er kun {width:.0f} px bredt i billedet: gå tættere på, så det fylder mere af"
            " billedet"
        ),
        "photo_blurred": (
            "kortet er uskarpt (skarphed {sharpness:.2f}, kræver {needed:.2f}): hold stille,"
            " fokusér på kortet, og tag billedet igen"
        ),
        "photo_glare": (
            "et genskin udvasker {share:.0%} af kortet: vip kortet eller flyt lyset, og tag"
            " billedet igen"
        ),
        "photo_wrong_card": (
            "{label} ligner {best_name}, ikke {face_name}: tjek kortet, og tag billedet"
            " igen, eller godkend det, hvis det virkelig er det kort"
        ),
        "this_card": "dette kort",
        "times_1": "én gang",
        "times_2": "to gange",
        "times": "{n} gange",
        "check_right": "{recall:.1%} af kortene rigtige på {scenes} testscener",
        "check_confused": "; {a} og {b} forvekslet {times}",
        "check_not_found": "; {n} kort ikke fundet",
        "check_not_found_one": "; {n} kort ikke fundet",
        "false_alarms": "; {n} falske alarmer",
        "false_alarms_one": "; {n} falsk alarm",
        "tricks_none": "ingen billeder af rigtige stik tjekket endnu",
        "tricks_photos": "på {n} billeder af rigtige stik: ",
        "tricks_photos_one": "på {n} billede af rigtige stik: ",
        "tricks_right": "{right} af {n} kort rigtige",
        "tricks_right_one": "{right} af {n} kort rigtigt",
        "tricks_misread": "; {true} læst som {read} {times}",
        "tricks_other_misreads": "; {n} andre fejllæsninger",
        "tricks_other_misreads_one": "; {n} anden fejllæsning",
        "tricks_not_found": "; {n} kort ikke fundet ({names})",
        "tricks_not_found_one": "; {n} kort ikke fundet ({names})",
        "state_rebuilt": (
            "{why}: registreringen fortsætter med billederne af de godkendte kort ({n} af {total})"
        ),
        "state_damaged": "{state} var beskadiget og er gemt som {kept}",
        "state_missing": "{state} manglede",
        "upload_empty": "den uploadede fil er tom: vælg et billede (JPEG eller PNG)",
        "upload_unreadable": (
            "den uploadede fil er ikke et læsbart billede (ikke JPEG eller PNG, eller afkortet):"
            " vælg et billede"
        ),
        "upload_too_small": (
            "billedet er kun {width} x {height} px: et stik kræver mindst {min} px"
        ),
        "log_rendering": "laver {n} scener med dit kortsæt",
        "log_detector_kept": "detektoren beholdes, som den er: {model} har ingen {file}",
        "log_detector": "træner kortdetektoren på {scenes} scener, {n} gennemløb",
        "log_detector_one": "træner kortdetektoren på {scenes} scener, {n} gennemløb",
        "log_detector_resuming": (
            "træner kortdetektoren på {scenes} scener, {n} gennemløb (fortsætter, hvor den slap)"
        ),
        "log_detector_resuming_one": (
            "træner kortdetektoren på {scenes} scener, {n} gennemløb (fortsætter, hvor den slap)"
        ),
        "log_crops": "klipper kortene ud af scenerne",
        "log_detector_crops": "klipper ud, hvor detektoren ser kort",
        "log_classifier": "lærer dine kort på {crops} udsnit, {n} gennemløb",
        "log_classifier_one": "lærer dine kort på {crops} udsnit, {n} gennemløb",
        "log_classifier_cut": (
            "tidsrammen stoppede indlæringen af dine kort efter {done:g} af {n} gennemløb"
            " (--minutes 0 kører dem alle, når der er tid)"
        ),
        "log_classifier_cut_one": (
            "tidsrammen stoppede indlæringen af dine kort efter {done:g} af {n} gennemløb"
            " (--minutes 0 kører det helt, når der er tid)"
        ),
        "log_classifier_budget": (
            "lærer dine kort på {crops} udsnit, {n} gennemløb eller {minutes:g} min,"
            " hvad der slutter først"
        ),
        "log_classifier_budget_one": (
            "lærer dine kort på {crops} udsnit, {n} gennemløb eller {minutes:g} min,"
            " hvad der slutter først"
        ),
        "log_corner_reader": "lærer korthjørnerne på {patches} udsnit, {n} gennemløb",
        "log_corner_reader_one": "lærer korthjørnerne på {patches} udsnit, {n} gennemløb",
        "log_corner_reader_budget": (
            "lærer korthjørnerne på {patches} udsnit, {n} gennemløb eller {minutes:g} min,"
            " hvad der slutter først"
        ),
        "log_corner_reader_budget_one": (
            "lærer korthjørnerne på {patches} udsnit, {n} gennemløb eller {minutes:g} min,"
            " hvad der slutter først"
        ),
        "log_self_check": "selvtjek: laver {n} nye testscener med dit kortsæt",
        "log_choosing_weight": "afvejer, hvor meget hjørnerne tæller, på valideringsscenerne",
        "log_corner_weight": (
            "hjørnernes vægt {weight:g}, valgt på {scenes} valideringsscener (scener læst"
            " rigtigt pr. vægt: {tried})"
        ),
        "log_weight_score": "{weight:g} → {right}",
        "log_tricks_recheck": "tjekker de gemte billeder af rigtige stik med den aktive model",
    },
}


#: The adaptation's steps as its tqdm bars name them (``desc``) -> the page's string for each.
#: The bars keep their English words on the terminal; a bar not listed here is shown as named.
STEPS: dict[str, str] = {
    "working": "step_working",  # a bar with no name
    "scenes": "step_scenes",  # datasets.dataset.write_scenes, when it renders in this process
    "crops (train)": "step_crops_train",  # vision.adapt._crops
    "crops (val)": "step_crops_val",
    "detector crops (train)": "step_detector_crops",  # vision.adapt._detector_crops
    "fine-tuning": "step_fine_tuning",  # vision.adapt.fine_tune
    "corner patches": "step_corner_patches",  # vision.adapt.adapt_corner_reader
    "corner reader": "step_corner_reader",  # vision.training.fit_corner_reader
    "corner weight": "step_corner_weight",  # vision.reading_choice.choose_corner_weight
    "evaluating": "step_evaluating",  # vision.evaluate.evaluate, run by the self-check
}


def step_name(desc: str, lang: str) -> str:
    """The running step's name in ``lang``: its tqdm ``desc`` looked up in :data:`STEPS`, or
    the desc itself for a step the table does not know (a new bar still shows its name)."""
    key = STEPS.get(desc)
    return t(key, lang) if key is not None else desc


def log_line(line: str, lang: str) -> str:
    """One line of the adaptation's log in ``lang``: a :class:`SaidText` worded from its
    message; any other text (a line nothing gave a message) as it was said."""
    return say(line.said, lang) if isinstance(line, SaidText) else str(line)


def face_name(face: str, lang: str) -> str:
    """A face as the page names it: the TV's and phones' name in Spanish, Italian and Danish
    ("Loro 7"); in English the command line's ("Green 7"), as the page always said it."""
    return (
        card_name(face) if lang not in LANGUAGES or lang == "en" else edition_card_name(face, lang)
    )


def face_in_text(face: str, lang: str) -> str:
    """A face as the page's sentences name it: :func:`face_name`, but a Danish colour or card
    type in lower case, as the table app's sentences write it (``card_in_text``: "læg kortet
    grøn 1 med forsiden opad", "grøn 7 læst som grøn 1 én gang", where the page said "Grøn 7"
    mid-sentence). The chips and menus keep the name as a label ("Grøn 7")."""
    return card_in_text(face, lang) if lang in LANGUAGES and lang != "en" else face_name(face, lang)


def wording(lang: str) -> Wording:
    """How the page words the page's strings and the vision code's messages in ``lang``."""
    lang = lang if lang in LANGUAGES else "en"
    templates = {key: texts[lang] for key, texts in STRINGS.items()}
    templates |= ENGLISH if lang == "en" else ENGLISH | MESSAGES[lang]
    return Wording(
        templates=templates,
        card=lambda face: face_in_text(face, lang),
        decimal=decimal_mark(lang),
    )


def say(said: Said, lang: str) -> str:
    """A message (or the pieces of one sentence) from the vision code or the page, in ``lang``."""
    return render(said, wording(lang))


def t(key: str, lang: str, **fields: Any) -> str:
    """The page's string ``key`` in ``lang``, its ``{fields}`` filled in (a field may be a
    message or a card, worded in ``lang`` too)."""
    return say(Message(key, fields), lang)


def js_strings(lang: str) -> dict[str, str]:
    """The page's strings in ``lang``, unfilled, for the page's script."""
    lang = lang if lang in LANGUAGES else "en"
    return {key: texts[lang] for key, texts in STRINGS.items()}


def page_error(key: str, **fields: Any) -> MessageError:
    """A UserError saying the page's string ``key``: English on the command line and in the
    log, worded in the reader's language on the page."""
    return MessageError(Message(key, fields), t(key, "en", **fields))


def error_text(err: Exception, lang: str) -> str:
    """What the page shows for an error: a message worded in ``lang``, other errors as said."""
    return say(err.said, lang) if isinstance(err, MessageError) else str(err)
