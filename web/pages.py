"""HTML pages. Each page is rendered with its initial data and then kept live by
``static/app.js`` from the event stream; the replay page is rendered whole on the server."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, g, redirect, render_template, request, send_file, url_for

from skullcam.errors import UserError
from skullcam.rules import cards_dealt
from skullcam.rules.settings import Settings, setting_fields
from skullcam.rules.table import LED_UNEXPECTEDLY
from skullcam.store.audit import taken_back
from skullcam.store.checks import cards_dealt as dealt_in
from skullcam.store.checks import hand_cards
from skullcam.store.game_store import (
    choice_kind,
    harry_fits,
    resolution_json,
    result_waits,
)
from skullcam.store.rows import Game, Trick
from skullcam.store.verdicts import bonus_for, winner_player

from . import explain_i18n, game_history, i18n
from .api import confirmable, export_csv, export_json, worded_state
from .app import get_store, pin_for_host
from .flag_i18n import flag_text
from .refusal_i18n import refusal_text

bp = Blueprint("pages", __name__)

#: The i18n key naming a trick's capture bonus on the condition the table's rules pay it
#: (``GameStore.bonus_paid``); the TV's banner picks the same keys (``app.js``).
BONUS_NOTE = {"exact": "bonus_if_made", "always": "bonus_kept", "rascal": "bonus_rascal"}


def _bonus_note(items: Sequence[dict[str, Any]], game: Game, winner: int | None, paid: str) -> str:
    """A trick's capture bonus in the reader's language, with what it is for and who collects
    it: "+20 for the Jolly Roger 14 if Ana makes their bid", because "+20 bonus if bid made"
    does not say what it is for. ``items``: ``verdicts.bonus_for``; ``paid``:
    ``GameStore.bonus_paid``. The TV's banner words the trick's event the same way
    (``app.js``)."""
    what = ", ".join(
        explain_i18n.bonus_item_text(item["card"], item["captured"], item["points"], g.lang)
        for item in items
    )
    name = game.players[winner] if winner is not None else ""
    return i18n.translate(BONUS_NOTE[paid], g.lang, what=what, name=name)


#: How many of the newest games the history page gives a result (winner and totals) for.
HISTORY_RESULTS = 30

#: The setup and settings pages' fields: the rules engine's settings, in its order.
SETTING_FIELDS = setting_fields()


def _page(template: str, **context: Any) -> str:
    lang = g.lang
    store = get_store()
    game = context.get("game")
    # The demo's game says so on its pages (base.html): a table that never set up a game of
    # its own took the replay for a camera watching.
    context.setdefault("demo_game", isinstance(game, Game) and _is_demo(store, game))
    return render_template(
        template,
        strings=i18n.js_strings(lang),
        cards=i18n.js_cards(lang),
        # The page's live stream starts here, so a change made while it loads, or while it
        # waits in the browser's back/forward cache, still reaches it.
        last_event_id=store.last_event_id(),
        # A game's pages say when a newer game has taken the table (base.html).
        replaced_by=store.replaced_by(game.id) if isinstance(game, Game) else None,
        read_only=_read_only_notice(store, lang),
        **context,
    )


def _read_only_notice(store: Any, lang: str) -> str | None:
    """Why nothing can be recorded in this data folder, and what to do, in ``lang`` (the
    refusal every write gets, as a sentence), or None where it can be written. base.html
    says it once at every page's top and hides the controls that write (``.writes``); the
    pages showed bid buttons, the hand-entry form and Correct, and said so only once tapped."""
    reason = store.read_only_reason()
    if reason is None:
        return None
    text = refusal_text(reason, lang)
    return text[:1].upper() + text[1:]


def _tigress_as(plays: Sequence[dict[str, Any]]) -> str | None:
    """The trick's Tigress as declared ("pirate", "escape"), "" when undeclared, None when
    the trick has none."""
    for play in plays:
        card = str(play["card"])
        if card.startswith("tigress"):
            return card.partition(":")[2]
    return None


def _is_demo(store: Any, game: Game) -> bool:
    """Whether the demo made ``game``; a damaged game is not said to be (its page says why)."""
    return bool(store.made_by_demo(game))


def _defaults() -> dict[str, Any]:
    return Settings().to_dict()


def game_result(store: Any, game: Game) -> dict[str, Any]:
    """What a game came to, for the home page's last game and the history: ``stopped`` (why
    its score cannot be computed, in the reader's language), or ``unplayed`` (no round
    scored: no winner, not every player tied at 0), or ``standings`` (names and totals, best
    first) and, once the game is over, ``winners``, or ``waits`` while a question whose answer
    changes the score is open (``RESULT_KINDS``: a doubtful Tigress, Rascal's bet, Harry's
    change: the winner it would name could still change, a tie even reopen the game). A
    game the store cannot read (a damaged row) is ``stopped`` with the store's words, so
    one damaged game does not take Home, Setup and History down with it."""
    try:
        score = store.score(game.id)
    except UserError as err:
        return {"stopped": str(err)}
    if not score.get("ok"):
        return {"stopped": explain_i18n.score_error_text(score, g.lang)}
    scored = score["score"]
    if not any(not r.get("in_progress") for r in scored["rounds"]):
        return {"unplayed": True}
    totals = scored["totals"]
    order = sorted(range(len(game.players)), key=lambda p: (-totals[p], p))
    finished = game.status == "finished"
    waits = finished and result_waits(store.prompts(game.id))
    return {
        "standings": [(game.players[p], totals[p]) for p in order],
        "winners": [game.players[p] for p in scored["leaders"]] if finished and not waits else [],
        "waits": waits,
    }


@bp.get("/")
def home() -> Any:
    store = get_store()
    active = store.active_game()
    demo = active is not None and _is_demo(store, active)
    # Nothing in progress: the game the table played last, with its result, exports and open
    # questions, which were otherwise reached through History only. The demo in progress
    # too: 'skullcam run' with no camera (the morning after, to settle a dispute) starts it,
    # and the card for last night's game went with it.
    last = None if active is not None and not demo else _last_table_game(store)
    return _page(
        "home.html",
        active=active,
        demo_game=demo,
        last=last,
        last_result=game_result(store, last) if last is not None else None,
        last_open=len(store.prompts(last.id)) if last is not None else 0,
        host_pin=pin_for_host(),
    )


@bp.get("/setup")
def setup() -> Any:
    store = get_store()
    return _page(
        "setup.html",
        names=store.remembered_names(),
        fields=SETTING_FIELDS,
        defaults=_defaults(),
        last=_last_table(store),
        sets_aside=_game_set_aside_by_a_new_one(store),
    )


def _game_set_aside_by_a_new_one(store: Any) -> dict[str, Any] | None:
    """The table's game in progress, which a new game sets aside (not the demo's, which a
    new game is meant to replace): said on the form, since the TV and the camera switch
    to the new game at once."""
    game = store.active_game()
    if game is None or store.is_demo_game(game.id):
        return None
    state = store.state(game.id)
    players = ", ".join(game.players)
    return {"game": game.id, "players": players, "round": state["round"], "rounds": state["rounds"]}


def _last_table(store: Any) -> dict[str, Any] | None:
    """The last game the table played: a rematch fills the form with its players, first
    dealer and house rules, which a table otherwise typed again."""
    last = _last_table_game(store)
    if last is None:
        return None
    settings = {**_defaults(), **last.settings}
    return {"players": last.players, "first_dealer": last.first_dealer, "settings": settings}


def _last_table_game(store: Any) -> Game | None:
    """The last game the table played, not the demo's (:meth:`GameStore.last_table_game`).
    Not simply the newest game by id, because that may be an imported record, whose players
    are not this table's."""
    last: Game | None = store.last_table_game()
    return last


@bp.get("/tv")
def tv() -> Any:
    return _tv_page(None)


@bp.get("/game/<id:game_id>/tv")
def game_tv(game_id: int) -> Any:
    get_store().game(game_id)
    return _tv_page(game_id)


def _tv_page(game_id: int | None) -> Any:
    """The TV, with what its banner words in the page's language: each card's bonus item and
    the Loot alliance, as the replay page's explanation says them."""
    return _page(
        "tv.html",
        game_id=game_id,
        bonus_items=explain_i18n.bonus_items_for_script(g.lang),
        loot_alliance=explain_i18n.loot_alliance_for_script(g.lang),
    )


@bp.get("/game/<id:game_id>")
def game(game_id: int) -> Any:
    get_store().game(game_id)
    return redirect(url_for("pages.bids", game_id=game_id))


@bp.get("/game/<id:game_id>/bids")
def bids(game_id: int) -> Any:
    store = get_store()
    # Worded as the state API words it: the page's first render said why the score stopped
    # in English, and nothing of what it warns about, until its first refresh.
    return _page("bids.html", game=store.game(game_id), state=worded_state(game_id))


@bp.get("/game/<id:game_id>/prompts")
def prompts(game_id: int) -> Any:
    store = get_store()
    return _page("prompts.html", game=store.game(game_id), state=worded_state(game_id))


@bp.get("/game/<id:game_id>/settings")
def settings(game_id: int) -> Any:
    store = get_store()
    game = store.game(game_id)
    values = {**_defaults(), **game.settings}
    return _page(
        "settings.html",
        game=game,
        fields=SETTING_FIELDS,
        values=values,
        resumable=store.resumable(game_id),
    )


@bp.get("/game/<id:game_id>/tricks")
def tricks(game_id: int) -> Any:
    store = get_store()
    game = store.game(game_id)
    rounds: dict[int, list[dict[str, Any]]] = {}
    recorded = store.tricks(game_id)
    trail = store.audit(game_id)
    for trick in recorded:
        res = store.resolve(game_id, trick.plays)
        winner = res.get("winner")
        rounds.setdefault(trick.round, []).append(
            {
                "trick": trick,
                "winner": trick.plays[winner]["player"] if isinstance(winner, int) else None,
            }
        )
    score = store.score(game_id)
    n = len(game.players)
    nxt = _next_trick_by_hand(store, game, _missed_before_asked())
    last = next(iter(reversed([i for items in rounds.values() for i in items])), None)
    worded = game_history.worded_entries(game, trail, recorded, g.lang)
    return _page(
        "tricks.html",
        game=game,
        rounds=rounds,
        # A round still being played has no points yet: "(Points: 0, 0, 0)" read as scored.
        played_out={r: len(items) >= dealt_in(r, n, game.settings) for r, items in rounds.items()},
        next_trick=nxt,
        # What the hand-entry section shows around its form: the trick just recorded (the
        # page reloads there, and the form alone said nothing of it), the round's missing
        # bids, and the open questions (Rosie's choice names the next leader).
        last_item=None if nxt is not None and nxt.get("insert") else last,
        bids_missing=nxt is not None and None in store.bids(game_id, nxt["round"]),
        state=worded_state(game_id) if nxt is not None else None,
        hand_cards=hand_cards(dict(game.settings)),
        # The game's own history: its import (from which file), bids changed after play,
        # hand tricks taken back (their cards are on no trick's page any more), and the
        # house rules changed, the game finished or reopened (by hand or by itself), another
        # game taking the table, with when (worded).
        game_changes=[c for c in trail if c.kind in ("import", "bid", "removed") or c.id in worded],
        worded=worded,
        # Corrected, then put back as the camera saw them: still marked, as their history is.
        taken_back=taken_back(recorded, trail),
        score=score,
        score_error_text=explain_i18n.score_error_text(score, g.lang),
        score_warnings=explain_i18n.score_warning_texts(score, g.lang, game.players),
    )


def _missed_before_asked() -> tuple[int, int] | None:
    """``?round=R&before=T``: the replay page's way to a trick the camera missed before
    trick T of round R (T counted from 0, as in the trick's address)."""
    r, t = request.args.get("round", type=int), request.args.get("before", type=int)
    return (r, t) if r is not None and t is not None else None


def _takes_hand_tricks(store: Any, game: Game) -> bool:
    """Not the demo's game (a recording replayed into it), nor one another game has replaced
    at the table (its pages say so; the camera follows the new one)."""
    return not _is_demo(store, game) and store.replaced_by(game.id) is None


def _missed_before_offer(store: Any, game: Game, trick: Trick) -> str | None:
    """How the replay page offers to enter a trick the camera missed before this one:
    ``"warning"`` on a trick led by a player the game did not expect (the camera often filed
    it a place early), ``"hint"`` on the round being played, else None (nor where no place
    after it is free). A hint on every earlier trick would invite moving a whole game. The
    round being played is the camera's and the TV's (``round_in_play``), not the hand-entry
    form's: with a trick taken back from an earlier round, the hint sat on that round,
    offering to move its tricks into the gap the table knows, and not on the round where the
    camera records and may just have missed one."""
    if not _takes_hand_tricks(store, game):
        return None
    if store.missed_before(game.id, trick.round, trick.trick) is None:
        return None
    if any(LED_UNEXPECTEDLY.fullmatch(f) for f in trick.flags) or store.led_otherwise(
        game.id, trick.round, trick.trick
    ):
        return "warning"
    played, _ = store.round_in_play(game.id)
    return "hint" if played == trick.round else None


def _next_trick_by_hand(
    store: Any, game: Game, before: tuple[int, int] | None = None
) -> dict[str, Any] | None:
    """The trick the table may enter by hand (``store.next_trick``, or with ``before`` the
    one the camera missed before that trick: ``store.missed_before``), with the cards the
    round has used up, or None where the game takes none (:func:`_takes_hand_tricks`)."""
    if not _takes_hand_tricks(store, game):
        return None
    nxt = store.missed_before(game.id, *before) if before else store.next_trick(game.id)
    if nxt is not None:
        nxt["used_up"] = store.used_up(game.id, nxt["round"], nxt.get("leaving", ()))
    return nxt


@bp.get("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick_index>")
def replay(game_id: int, round_number: int, trick_index: int) -> Any:
    store = get_store()
    game = store.game(game_id)
    # No such trick answers 404 with the store's words; a damaged one says it is damaged.
    trick = store.trick(game_id, round_number, trick_index)
    verdict = store.verdict(game_id, trick.plays)
    resolution = resolution_json(verdict)  # what store.resolve gives, without resolving twice
    winner_index = resolution.get("winner")
    winner_index = winner_index if isinstance(winner_index, int) else None
    winner = winner_player(trick.plays, resolution)
    score = store.score(game_id)
    neighbours = [t for t in store.tricks(game_id)]
    position = next(i for i, t in enumerate(neighbours) if t.id == trick.id)
    prev_trick = neighbours[position - 1] if position > 0 else None
    next_trick = neighbours[position + 1] if position + 1 < len(neighbours) else None
    flags = [flag_text(flag, g.lang) for flag in trick.flags]
    offered = hand_cards(dict(game.settings))
    kept = _kept_cards(offered, trick)
    return _page(
        "replay.html",
        game=game,
        trick=trick,
        confirmable=confirmable(trick, len(game.players)),
        resolution=resolution,
        bonus_note=_bonus_note(
            bonus_for(verdict), game, winner, store.bonus_paid(game_id, trick.round, winner)
        ),
        # Why the trick went that way, or why no deck could produce it, in the reader's
        # language: a dispute is settled at the table, not in English.
        explanation=explain_i18n.verdict_text(verdict, trick.plays, game.players, g.lang),
        warnings=[
            # A rules warning the camera copied into the trick's flags is in the box above.
            *(w for w in explain_i18n.warning_texts(verdict, g.lang) if w not in flags),
            *filter(None, [explain_i18n.not_counted_text(score, trick.round, g.lang)]),
            *explain_i18n.led_otherwise_texts(score, (trick.round, trick.trick), g.lang),
            *explain_i18n.revoke_texts(score, game.players, g.lang, (trick.round, trick.trick)),
        ],
        winner_index=winner_index,
        overlay=_overlay(trick, winner_index),
        audit=store.audit(game_id, trick.id),
        # A correction can leave the game unscoreable (a card twice in a round, a play out of
        # turn): said here, where it was made, and not only on the TV.
        score=score,
        score_error_text=explain_i18n.score_error_text(score, g.lang),
        prev_trick=prev_trick,
        next_trick=next_trick,
        # The Tigress row's buttons show what she was declared as (aria-pressed): the
        # card's name said it, but two alike buttons read as "not yet declared".
        tigress_as=_tigress_as(trick.plays),
        flags=flags,
        choice=_choice(store, game, trick),
        image_kind=(kind := _image_kind(store, trick)),
        missing_image=None if kind is not None else _missing_image(store, trick),
        # The Correct menu's cards, those the round's other tricks used up marked with the
        # trick that played them (marked, not refused: fixing two misread cards can pass
        # through a state with one card twice).
        menu_cards=offered + kept,
        kept_cards=kept,
        played_elsewhere=store.played_elsewhere(game_id, trick.round, trick.trick),
        # A camera that missed a trick files the next one in its place, often led by a
        # player the game did not expect: the way to enter the missed one before it.
        missed_before=_missed_before_offer(store, game, trick),
        # A trick entered by hand can be taken back (in the wrong place, or not missed).
        removable=_takes_hand_tricks(store, game) and trick.by_hand,
        # A trick the camera moved to a round's first place can go back where it filed it.
        refiled_from=store.refiled_from(game_id, trick)
        if _takes_hand_tricks(store, game)
        else None,
    )


def _kept_cards(offered: Sequence[str], trick: Any) -> list[str]:
    """The trick's cards a person cannot enter, those not ``offered`` (``hand_cards``: an
    unnamed pirate, Loot with its setting off). The Correct menu holds them too, so each
    stays selected on its own play, and offers them to no other play, since the store
    refuses them as a new card (``refuse_off_the_menu``)."""
    return [c for c in dict.fromkeys(str(p["card"]) for p in trick.plays) if c not in offered]


def _choice(store: Any, game: Any, trick: Any) -> dict[str, Any] | None:
    """The winning pirate's choice, for the page to show and change: its prompt kind, the
    winner, the choice recorded (None before one) and the values it may take; None when the
    trick gives no choice."""
    try:
        kind = choice_kind(game, trick)
    except UserError:
        return None
    options: list[tuple[int, str]] = {
        "rosie": list(enumerate(game.players)),
        "rascal_bet": [(0, "0"), (10, "10"), (20, "20")],
        "harry": [(-1, "−1"), (0, "0"), (1, "+1")],
    }[kind]
    winner = store.resolve(game.id, trick.plays).get("winner")
    player = trick.plays[winner]["player"] if isinstance(winner, int) else None
    bid = None if player is None else store.bids(game.id, trick.round)[player]
    if kind == "harry" and bid is not None:  # only the changes the rules can score
        dealt = cards_dealt(trick.round, len(game.players))
        options = [(change, label) for change, label in options if harry_fits(bid, change, dealt)]
    return {
        "kind": kind,
        "player": player,
        "value": store.choice(game.id, trick.round, trick.trick, kind),
        "options": options,
    }


def _image_file(store: Any, stored: str | None) -> Path | None:
    """A recorded image's file, when it is still there (inside the data folder), not emptied
    (a crash or a full disk) and whole: an empty file was served as a blank picture, and a
    damaged one as a broken-image icon under collapsed boxes."""
    path = store.image_path(stored)
    if path is None:
        return None
    resolved = path.resolve()
    inside = Path(store.data_dir).resolve() in resolved.parents
    try:
        usable = inside and resolved.is_file() and _looks_whole(resolved)
    except OSError:
        usable = False
    return resolved if usable else None


#: How a whole file of each kind the recorder writes begins and ends: a JPEG with its
#: start-of-image and end-of-image markers, a PNG with its signature and its IEND chunk.
_WHOLE_IMAGE = {".jpg": (b"\xff\xd8\xff", b"\xff\xd9"), ".png": (b"\x89PNG\r\n", b"IEND\xaeB`\x82")}


def _looks_whole(path: Path) -> bool:
    """Whether ``path`` begins and ends as its kind does: a cheap check (two short reads, no
    decoding) that catches an overwritten or cut file. A kind not listed passes if not empty.
    The end marker may be followed by a little padding, as some encoders write."""
    size = path.stat().st_size
    start, end = _WHOLE_IMAGE.get(path.suffix.lower(), (b"", b""))
    if size <= len(start) + len(end):
        return size > 0 and not start
    with path.open("rb") as f:
        head = f.read(len(start))
        f.seek(max(0, size - 64))
        tail = f.read()
    return head == start and end in tail


def _image_kind(store: Any, trick: Any) -> str | None:
    """Prefer the plain completion frame (boxes are drawn live from the current plays, so a
    correction shows at once); fall back to the pipeline's annotated image, also when the
    completion frame's file is gone."""
    if _image_file(store, trick.completion_image) is not None:
        return "completion"
    if _image_file(store, trick.annotated_image) is not None:
        return "annotated"
    return None


def _missing_image(store: Any, trick: Any) -> str | None:
    """For a trick none of whose images shows: the recorded image whose file is gone or empty
    (moved, deleted, a folder restored without ``games/``, a crash), to name on the page
    instead of a broken picture; None when none was recorded."""
    stored = trick.completion_image or trick.annotated_image
    path = store.image_path(stored)
    return None if path is None or _image_file(store, stored) is not None else str(path)


LABEL_INSET = 3
"""How far inside its box's edge a replay label starts, in picture pixels."""


def _overlay(trick: Any, winner: int | None) -> dict[str, Any] | None:
    """Boxes to draw over the completion frame, labelled with the *current* card of each play,
    its place in the play order and, for the play at ``winner``, the winner's mark: the
    picture said which card was whose, and only the list beside it in what order and who won.

    Detections are stored as any JSON (the recorder's), so a malformed box is skipped and an
    unusable image size drops the overlay: the replay page still renders, with the image.
    """
    det = trick.detections
    if not trick.completion_image or not isinstance(det, dict):
        return None
    size = det.get("image_size")
    cards = det.get("cards")
    if not (isinstance(size, list) and len(size) == 2 and isinstance(cards, list)):
        return None
    width, height = (_number(v) for v in size)
    if width is None or height is None or width <= 0 or height <= 0:
        return None
    boxes = []
    matched: set[int] = set()
    for d in cards:
        if not isinstance(d, dict) or not isinstance(d.get("box"), list) or len(d["box"]) != 4:
            continue
        x1, y1, x2, y2 = (_number(v) for v in d["box"])
        if x1 is None or y1 is None or x2 is None or y2 is None or x2 <= x1 or y2 <= y1:
            continue
        index = _match_play(d, trick.original_plays, matched)
        place = _showing(trick.plays, index) if index is not None else None
        play = trick.plays[place] if place is not None else None
        # A label runs from its box's left edge rightwards, or, for a box in the picture's
        # right half, from its right edge leftwards: a long name on a card at the right edge
        # otherwise ran past the picture, and past a phone's screen.
        right_half = x1 + x2 > width
        boxes.append(
            {
                "x": x1,
                "y": y1,
                "w": x2 - x1,
                "h": y2 - y1,
                # A card cut by the picture's edge has its whole outline as its box (the edge
                # look): its label starts at the picture's edge, not past it.
                "label_x": min(x2, width) - LABEL_INSET if right_half else max(x1, 0) + LABEL_INSET,
                "label_anchor": "end" if right_half else "start",
                "card": play["card"] if play else str(d.get("card")),
                "player": play["player"] if play else None,
                "order": place + 1 if place is not None else None,
                "winner": place is not None and place == winner,
                "confidence": _number(d.get("confidence")),
                "corrected": play is not None and play["card"] != d.get("card"),
                # What the picture shows under a corrected label: a swap the camera saw after
                # the trick completed leaves the picture contradicting the label.
                "seen": str(d.get("card")),
            }
        )
    return {"width": width, "height": height, "boxes": boxes}


def _match_play(detection: dict[str, Any], plays: list[Any], matched: set[int]) -> int | None:
    """The index of the play a detection shows: by player when the camera named one, else by
    the card it saw. Each play is matched once, so two Escapes (Ben's and Ana's) label two
    players, not the first one twice."""
    player, card = detection.get("player"), detection.get("card")
    for i, orig in enumerate(plays):
        if i in matched:
            continue
        same = orig["player"] == player if player is not None else orig["card"] == card
        if same:
            matched.add(i)
            return i
    return None


def _showing(plays: list[Any], seen: int) -> int | None:
    """Where the play that now holds the camera's play ``seen`` is: a correction that moves
    cards between plays (a seat misjudged, a missed card added) marks each play with the
    camera's play it shows; until one does, each play is in its own place."""
    for i, play in enumerate(plays):
        if play.get("seen", i) == seen:
            return i
    return None


def _number(value: Any) -> float | None:
    """A finite float from stored JSON, or None (null, text, true/false, NaN, 1e400)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


@bp.get("/game/<id:game_id>/trick/<id:trick_id>/image/<kind>")
def trick_image(game_id: int, trick_id: int, kind: str) -> Any:
    store = get_store()
    match = [t for t in store.tricks(game_id) if t.id == trick_id]
    if not match or kind not in ("completion", "annotated"):
        abort(404)
    stored = match[0].completion_image if kind == "completion" else match[0].annotated_image
    resolved = _image_file(store, stored)
    if resolved is None:
        abort(404)
    return send_file(resolved, max_age=86400)


@bp.get("/history")
def history() -> Any:
    """Every game with how it stands: a finished game's result (its winners and totals, or
    no rounds played), or in progress, or not finished (set aside for a newer game), or the
    demo's (a recorded game replayed: "not finished" read as a table's abandoned game)."""
    store = get_store()
    active = store.active_game()
    rows = []
    for n, game in enumerate(store.games()):
        if game.status == "finished":
            # Scored for the newest games only: every finished game scored on every load
            # took 1.7 s with 200 of them here, more on a Pi (older ones keep their exports).
            shown = n < HISTORY_RESULTS
            status, result = "finished", game_result(store, game) if shown else None
        elif _is_demo(store, game):
            status, result = "demo_game", None
        else:
            in_progress = active is not None and active.id == game.id
            status, result = ("in_progress" if in_progress else "set_aside"), None
        rows.append({"game": game, "status": status, "result": result})
    return _page("history.html", rows=rows)


@bp.get("/game/<id:game_id>/export.json")
def game_export_json(game_id: int) -> Any:
    return export_json(game_id)


@bp.get("/game/<id:game_id>/export.csv")
def game_export_csv(game_id: int) -> Any:
    return export_csv(game_id)
