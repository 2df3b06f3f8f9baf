"""JSON API: the state pages render from, and every write (PIN-checked, validated here and in
the store). Pages call these with ``fetch``; a bad input answers 400 ``{"error": "..."}`` with a
one-line message the page shows as is.
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request, session

from skullcam import table_pin
from skullcam.errors import UserError, echo, phrased, whole_number
from skullcam.rules.explain import Arg
from skullcam.store import Trick
from skullcam.store.checks import cards_dealt
from skullcam.store.corrections import check_confirmable
from skullcam.store.refusals import refusal

from . import explain_i18n, i18n
from .app import check_pin, get_store, pin_refusal, try_pin, unlock_pins
from .flag_i18n import flag_text
from .refusal_i18n import REQUEST_ENGLISH

bp = Blueprint("api", __name__, url_prefix="/api")


JSON_MAX_DEPTH = 32
"""Levels of arrays and objects a request body may nest: a game record, the deepest the
pages send, has seven. The decoder takes nearly as many as Python's recursion limit, and a
check that quoted such a value back (its repr) then ran out of stack itself: a settings
change nested 980 levels deep answered 500 instead of saying what was wrong."""


def _nested_deeper(value: Any, limit: int) -> bool:
    """Whether ``value`` nests arrays and objects more than ``limit`` levels deep; walked
    without recursion, since the value may be nested almost as deep as the stack allows."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def _refused(key: str, **args: Arg) -> UserError:
    """A request the API cannot take, as ``REQUEST_ENGLISH[key]`` says it: the English
    ``error`` as before, and the reader's language as ``error_text`` (``refusal_text``)."""
    return phrased(UserError, REQUEST_ENGLISH, key, **args)


def _body() -> dict[str, Any]:
    """The request's JSON object, or UserError saying what was wrong with it."""
    data = _json()
    if not isinstance(data, dict):
        raise _refused("request_not_object")
    return data


def _json() -> Any:
    """The request's JSON value, or UserError saying what was wrong with the body."""
    if not request.is_json:
        raise _refused("request_not_json")
    try:
        # Strictly UTF-8 (RFC 8259): werkzeug's as_text would turn "Jos\xe9" in Latin-1 into
        # "Jos\ufffd" and store the broken name without a word.
        data = json.loads(request.get_data().decode("utf-8") or "null")
    except UnicodeDecodeError as err:
        raise _refused("request_not_utf8", byte=err.start) from err
    except json.JSONDecodeError as err:
        raise _refused(
            "request_malformed", why=str(err), line=err.lineno, column=err.colno
        ) from err
    except ValueError as err:  # json reads ints through int(), which caps their digits
        raise _refused("request_long_number") from err
    except RecursionError as err:  # '[' * 100000: the decoder recurses once per level
        raise _refused("request_too_deep") from err
    if _nested_deeper(data, JSON_MAX_DEPTH):
        raise _refused("request_too_deep")
    return data


def _int(data: dict[str, Any], key: str, *, optional: bool = False) -> int | None:
    """The body's whole number ``key`` (``whole_number``); None when optional and absent."""
    if key not in data or data[key] is None:
        if optional:
            return None
        raise _refused("request_key_missing", name=repr(key))
    return whole_number(data[key], repr(key), key=True)


@bp.before_request
def _guard_writes() -> None:
    if "pin" in session:  # a cookie from before the mark kept the PIN itself (a TV's, too)
        session.pop("pin")
    if request.method in ("POST", "PUT", "DELETE", "PATCH") and request.endpoint != "api.pin":
        check_pin()


@bp.post("/pin")
def pin() -> Any:
    """A phone proves it knows the table PIN once; the signed session cookie remembers it."""
    malformed = partial(_refused, "request_pin_not_text")
    return jsonify(table_pin.sign_in(_body().get("pin"), try_pin, pin_refusal, malformed))


@bp.post("/pin/unlock")
def pin_unlock() -> Any:
    """The host lifts every wrong-PIN lock, the whole table's included (this machine only).
    Its body is read, as every write's, so that it is JSON: a page on another site open in the
    host's browser could otherwise lift the locks with a plain form posted to localhost."""
    _body()
    unlock_pins()
    return jsonify({"ok": True})


@bp.get("/games")
def games() -> Any:
    store = get_store()
    return jsonify(
        {
            "games": [g.to_json() for g in store.games()],
            "active": (a.id if (a := store.active_game()) else None),
            "names": store.remembered_names(),
        }
    )


@bp.post("/games")
def create_game() -> Any:
    data = _body()
    players = data.get("players")
    if not isinstance(players, list):
        raise refusal("players_not_list")
    dealer = _int(data, "first_dealer", optional=True) or 0
    settings = data.get("settings")
    settings = {} if settings is None else settings
    if not isinstance(settings, dict):
        raise refusal("settings_not_object")
    game_id = get_store().create_game(players, dealer, settings)
    return jsonify({"id": game_id, "url": f"/game/{game_id}/bids"}), 201


def confirmable(trick: Trick, n: int) -> bool:
    """Whether "Confirm" can settle the trick's doubts: not with a card missing (it is added
    on the replay page) nor when the trick cannot be resolved (a card is corrected instead)."""
    try:
        check_confirmable(trick, n)
    except UserError:
        return False
    return True


def _word_flagged(store: Any, game_id: int, prompt: dict[str, Any], n: int) -> None:
    """What a flagged trick's question is about, on the question itself: its flags in the
    reader's language (``flag_texts``, because "looks doubtful: confirm or correct" alone
    asks for a blind Confirm) and whether Confirm can settle them (``confirmable``, so the
    phones offer Confirm only where the server will accept it)."""
    try:
        trick = store.trick(game_id, prompt["round"], prompt["trick"])
    except UserError:  # not recorded (yet): the question is asked without a reason
        prompt["flag_texts"], prompt["confirmable"] = [], True
        return
    prompt["flag_texts"] = [flag_text(str(f), g.lang) for f in trick.flags]
    prompt["confirmable"] = confirmable(trick, n)


def worded_state(game_id: int) -> dict[str, Any]:
    """The store's state of a game, with why its score stopped (if it did) in the reader's
    language as ``score.error_text``, and what a score that stands warns about (a trick
    scored as led, a tie-break round that does not count, ...) as ``score.warning_texts``:
    the TV and the bids page say it as the tricks page does, or the room reads totals whose
    caveat only the tricks page named. The last trick says why its winner won
    (``last_trick.why``, ``explain_i18n.why_text``), and, for a trick nobody wins, why in
    the words the TV's banner puts under its head (``last_trick.banner_why``). A flagged
    trick's question says what is in doubt (:func:`_word_flagged`), and Rosie's the next
    leader read meanwhile (``read_choice``, None before the trick after hers is recorded)."""
    store = get_store()
    out = store.state(game_id)
    for prompt in out.get("prompts") or []:
        if prompt.get("kind") == "flagged" and prompt.get("trick") is not None:
            _word_flagged(store, game_id, prompt, len(out["game"]["players"]))
        if prompt.get("kind") == "rosie" and prompt.get("trick") is not None:
            # The next leader read from who led the trick after hers (store/rosie_lead.py):
            # the question says it and offers it to confirm, instead of asking as if
            # nothing were known while play went on.
            prompt["read_choice"] = store.choice(game_id, prompt["round"], prompt["trick"], "rosie")
    last = out.get("last_trick")
    if last is not None:
        # Why its winner won, in a sentence the TV shows under the trick (the replay page
        # has the whole explanation): a star on a card did not say why that card won.
        verdict = store.verdict(game_id, last["plays"])
        last["why"] = explain_i18n.why_text(verdict, g.lang)
        # Under the banner's "Nobody wins this trick": the Kraken's sentence without its own
        # "nobody wins it", which the banner read twice. None for a trick someone wins.
        last["banner_why"] = (
            explain_i18n.why_text(verdict, g.lang, nobody_said=True)
            if last["winner"] is None
            else None
        )
    score = out.get("score")
    if isinstance(score, dict) and not score.get("ok"):
        score["error_text"] = explain_i18n.score_error_text(score, g.lang)
        score["missing_bids"] = missing_bids_stop(game_id, score)
    elif isinstance(score, dict):
        players = out["game"]["players"]
        score["warning_texts"] = explain_i18n.score_warning_texts(score, g.lang, players)
    return out


MISSING_BID_PHRASES = frozenset({"missing_bid_before_tricks", "missing_bid_all_tricks"})
"""The store's reasons for a score that stops at a round whose bids were never entered."""


def missing_bids_stop(game_id: int, score: Mapping[str, Any]) -> dict[str, Any] | None:
    """``{"round": r, "players": [seat, ...]}`` where the score stops because round ``r`` has
    no bid from those players, else None. The bids page says it at the top, with the way to
    that round: below seven players' bid buttons, the whole reason went unseen on a phone on
    the round being played (a game night), and the bids of a finished game are entered
    there without unlocking them, as no final score stands yet."""
    for phrase in score.get("error_phrases") or []:
        if phrase.get("key") in MISSING_BID_PHRASES:
            r = int(phrase["args"]["round"])
            bids = get_store().bids(game_id, r)
            return {"round": r, "players": [p for p, b in enumerate(bids) if b is None]}
    return None


class StateCache:
    """Each game's state as last sent, in each language, with the database's version it was
    worked out at (:meth:`version`).

    Every change the table makes (a bid, a trick, a correction) is an event after which every
    open page (the TV, each phone's bids page) fetches the same state, all in the process whose
    interpreter the camera's live loop needs: without this, ten pages work the same state out
    ten times (``benchmarks/bench_state_fetches.py``). The first fetch works it out and the
    others, asking at the same version, are sent the same text; one that comes while it is
    being worked out waits for it (:attr:`STRIPES`) rather than working it out too. Any commit
    to the database, by this process or another, with or without an event, changes the
    version, so a page is never sent a state older than its request. The state depends on the
    caller only through the language: neither the PIN nor read-only mode changes it.
    """

    KEEP = 32
    """(game, language) pairs kept: a table follows one game at a time, in a few languages."""
    STRIPES = 8
    """Locks a state is worked out under, one per (game, language) pair with the same hash:
    as many as pairs asked for at once, never one per id a request names."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sent: OrderedDict[tuple[int, str], tuple[tuple[int, int], bytes]] = OrderedDict()
        self._working = [threading.Lock() for _ in range(self.STRIPES)]

    @staticmethod
    def version() -> tuple[int, int]:
        """The database's version: SQLite's data version (any commit changes it) and the
        newest event id (which changes where the file itself was replaced under the server).
        Read before the state, so a state kept under it is never older than it."""
        store = get_store()
        return store.data_version(), store.last_event_id()

    def body(
        self, key: tuple[int, str], version: tuple[int, int], work: Callable[[], bytes]
    ) -> bytes:
        """The text kept for ``key`` at ``version``, else ``work()``'s, kept for the next."""
        with self._working[hash(key) % self.STRIPES]:
            with self._lock:
                kept = self._sent.get(key)
            if kept is not None and kept[0] == version:
                return kept[1]
            text = work()
            with self._lock:
                self._sent[key] = (version, text)
                self._sent.move_to_end(key)
                while len(self._sent) > self.KEEP:
                    self._sent.popitem(last=False)
            return text


def state_cache(app: Flask) -> StateCache:
    """The app's :class:`StateCache`, made on the first state fetch."""
    cache: StateCache | None = app.extensions.get("skullcam_state_cache")
    if cache is None:  # two first fetches at once: one's cache is kept, both are right
        cache = app.extensions.setdefault("skullcam_state_cache", StateCache())
    return cache


def state_response(game_id: int) -> Response:
    """:func:`worded_state` as JSON, in the reader's language, from the app's
    :class:`StateCache` where nothing has changed since it was worked out."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    version = StateCache.version()

    def work() -> bytes:
        return jsonify(worded_state(game_id)).get_data()

    text = state_cache(app).body((game_id, g.lang), version, work)
    return app.response_class(text, mimetype="application/json")


@bp.get("/game/<id:game_id>/state")
def state(game_id: int) -> Any:
    return state_response(game_id)


@bp.get("/tv/state")
def tv_state() -> Any:
    """The state of the game in progress, or of the last one played (the TV follows the
    table: an imported record does not take it over, nor does a game set aside, nor the
    demo's game while nothing plays it)."""
    store = get_store()
    shown = store.tv_game()  # once tonight's game is over, its final scores
    if shown is None:  # only imported records
        latest = store.games()
        if not latest:
            return jsonify({"game": None, "last_event_id": store.last_event_id()})
        shown = latest[0]
    return state_response(shown.id)


@bp.post("/game/<id:game_id>/bids")
def bids(game_id: int) -> Any:
    """``{"round": r, "player": p, "bid": b}`` for one player, or ``{"round": r, "bids": [...]}``;
    ``cannonball`` (bool, or a list for all) for Rascal's scoring; one player's cannonball
    without ``bid`` keeps the bid stored."""
    data = _body()
    store = get_store()
    round_number = _int(data, "round")
    assert round_number is not None
    if "bids" in data:
        bids = data["bids"]
        if not isinstance(bids, list):
            raise _refused("request_bids_not_list")
        # Read as the one-player form reads its bid: digits as text count ("1"), null is
        # "not bid yet"; the store checks each against the cards dealt.
        bids = [None if b is None else whole_number(b, f"bid {k}") for k, b in enumerate(bids)]
        balls = data.get("cannonball")
        if balls is not None and not (
            isinstance(balls, list) and all(isinstance(b, bool) for b in balls)
        ):
            raise _refused("request_cannonballs_not_list")
        store.set_bids(game_id, round_number, bids, balls)
    else:
        player = _int(data, "player")
        assert player is not None
        ball = data.get("cannonball")
        if ball is not None and not isinstance(ball, bool):
            raise _refused("request_cannonball_not_bool")
        if "bid" in data:
            store.set_bid(game_id, round_number, player, _int(data, "bid", optional=True), ball)
        elif ball is not None:  # the cannonball box alone: the bid stays as stored
            store.set_cannonball(game_id, round_number, player, ball)
        else:
            # Only an explicit null clears a bid: a body that leaves "bid" out (a typo such
            # as "bd") must not wipe the one made.
            raise _refused("request_bid_missing")
    return jsonify(
        {
            "ok": True,
            "bids": store.bids(game_id, round_number),
            "cannonball": store.cannonball(game_id, round_number),
        }
    )


@bp.get("/game/<id:game_id>/round/<id:round_number>/bids")
def round_bids(game_id: int, round_number: int) -> Any:
    store = get_store()
    bids = store.bids(game_id, round_number)  # refuses a round the game does not have
    game = store.game(game_id)
    return jsonify(
        {
            "round": round_number,
            "cards": cards_dealt(round_number, len(game.players), game.settings),
            "bids": bids,
            "cannonball": store.cannonball(game_id, round_number),
        }
    )


@bp.post("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick>/correct")
def correct(game_id: int, round_number: int, trick: int) -> Any:
    """``{"play": i, "card": "green-7"}`` and/or ``{"player": p}``; ``note`` optional;
    ``expect`` (``{"card", "player"}``, what the page showed at ``play``) refuses a correction
    from a page another page's correction has made out of date."""
    data = _body()
    play = _int(data, "play")
    assert play is not None
    card = data.get("card")
    if card is not None and not isinstance(card, str):
        raise _refused("request_card_not_text", card=echo(card))
    player = _int(data, "player", optional=True)
    if card is None and player is None:
        raise _refused("request_nothing_to_correct")
    # Passed as sent: the store refuses a note that is not text (str() would store a repr).
    note = data.get("note") or ""
    updated = get_store().correct_play(
        game_id,
        round_number,
        trick,
        play,
        card=card,
        player=player,
        note=note,
        expect=data.get("expect"),
    )
    return _corrected(game_id, updated)


def _corrected(game_id: int, updated: Trick) -> Any:
    """The trick as corrected, and why the game does not score, if it does not. Kept even
    then: fixing two misread cards can pass through a state with one card twice."""
    score = get_store().score(game_id)
    answer: dict[str, Any] = {"ok": True, "trick": updated.to_json()}
    if not score["ok"]:
        answer["score_error"] = explain_i18n.score_error_text(score, g.lang)
    return jsonify(answer)


@bp.post("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick>/add")
def add_play(game_id: int, round_number: int, trick: int) -> Any:
    """``{"player": p, "card": "green-7"}``: the card the camera missed; ``note`` optional."""
    data = _body()
    player = _int(data, "player")
    if "card" not in data:
        raise _refused("request_key_missing", name=repr("card"))
    note = data.get("note") or ""
    updated = get_store().add_play(game_id, round_number, trick, player, data["card"], note)
    return _corrected(game_id, updated)


@bp.post("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick>/enter")
def enter_trick(game_id: int, round_number: int, trick: int) -> Any:
    """``{"plays": [{"player": p, "card": "green-7"}, ...]}``, the leader first: the game's
    next trick, entered by hand (the camera missed it, or there is none); ``note`` optional."""
    plays, note = _hand_plays()
    entered = get_store().enter_trick(game_id, round_number, trick, plays, note)
    return _corrected(game_id, entered), 201


@bp.post("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick>/insert")
def insert_trick(game_id: int, round_number: int, trick: int) -> Any:
    """As ``enter``, for a trick the camera missed *before* recorded trick ``trick`` (the
    camera filed the next one in its place): that trick and the later ones up to the game's
    first free place move on one place, over round ends too."""
    plays, note = _hand_plays()
    inserted = get_store().insert_trick(game_id, round_number, trick, plays, note)
    return _corrected(game_id, inserted), 201


@bp.post("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick>/remove")
def remove_trick(game_id: int, round_number: int, trick: int) -> Any:
    """``{}`` (``note`` optional): take back a trick entered by hand; the tricks its entry
    moved go back. ``{"ok", "removed": {"round", "trick", "plays", "moved_back"}}``."""
    note = _body().get("note") or ""
    removed = get_store().remove_hand_trick(game_id, round_number, trick, note)
    return jsonify({"ok": True, "removed": removed})


@bp.post("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick>/move-back")
def move_back_trick(game_id: int, round_number: int, trick: int) -> Any:
    """``{}``: move a trick the camera moved to a round's first place back to the round
    before, where it filed it. ``{"ok", "moved_to": {"round", "trick"}}``."""
    _body()  # JSON only, as every write: a plain form posted from another site is refused
    moved_to = get_store().move_back_refiled(game_id, round_number, trick)
    return jsonify({"ok": True, "moved_to": moved_to})


def _hand_plays() -> tuple[list[Any], str]:
    """A trick entered by hand, as the page sends it: its plays and the optional note."""
    data = _body()
    plays = data.get("plays")
    if not isinstance(plays, list):
        raise _refused("request_plays_not_list")
    return plays, data.get("note") or ""


@bp.post("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick>/tigress")
def tigress(game_id: int, round_number: int, trick: int) -> Any:
    """``{"as": "pirate" | "escape"}``: re-declare the Tigress."""
    data = _body()
    # Any JSON value (or none) goes through: the store checks it and says what was wrong.
    # TODO(store split): redeclare_tigress says `as_: str` but validates any value; widen it to
    # `object` there and drop this ignore.
    updated = get_store().redeclare_tigress(
        game_id,
        round_number,
        trick,
        data.get("as"),  # type: ignore[arg-type]
    )
    return jsonify({"ok": True, "trick": updated.to_json()})


@bp.post("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick>/ability")
def ability(game_id: int, round_number: int, trick: int) -> Any:
    """``{"choice": c}``: the winning pirate's choice, set or changed; ``note`` optional."""
    data = _body()
    if "choice" not in data:
        raise _refused("request_key_missing", name=repr("choice"))
    note = data.get("note") or ""
    updated = get_store().choose_ability(game_id, round_number, trick, data["choice"], note)
    return _corrected(game_id, updated)


@bp.post("/game/<id:game_id>/round/<id:round_number>/trick/<id:trick>/confirm")
def confirm(game_id: int, round_number: int, trick: int) -> Any:
    _body()
    get_store().confirm_trick(game_id, round_number, trick)
    return jsonify({"ok": True})


@bp.post("/game/<id:game_id>/settings")
def settings(game_id: int) -> Any:
    """``{"settings": {key: value, ...}}``: only the keys to change (null = default)."""
    data = _body()
    changes = data.get("settings")
    if not isinstance(changes, dict):
        raise _refused("request_settings_missing")
    clean = get_store().update_settings(game_id, changes)
    return jsonify({"ok": True, "settings": clean})


@bp.post("/game/<id:game_id>/finish")
def finish(game_id: int) -> Any:
    _body()
    get_store().finish_game(game_id)
    return jsonify({"ok": True})


@bp.post("/game/<id:game_id>/resume")
def resume(game_id: int) -> Any:
    """Give a finished game with rounds left back to the table ("Resume game"): refused
    while another game is being played there."""
    _body()
    get_store().resume_game(game_id)
    return jsonify({"ok": True})


@bp.post("/prompt/<id:prompt_id>/answer")
def answer(prompt_id: int) -> Any:
    data = _body()
    if "answer" not in data:
        raise _refused("request_key_missing", name=repr("answer"))
    prompt = get_store().answer_prompt(prompt_id, data["answer"])
    return jsonify({"ok": True, "prompt": prompt.to_json()})


@bp.post("/prompt/<id:prompt_id>/dismiss")
def dismiss(prompt_id: int) -> Any:
    _body()
    get_store().dismiss_prompt(prompt_id)
    return jsonify({"ok": True})


@bp.post("/import")
def import_record() -> Any:
    """The body is a ``skullcam-game/1`` record (the JSON export). Any JSON reaches the
    store, which refuses a file of another kind in the page's language (a list of records
    was refused in English only, as any request that is no JSON object). ``?file=`` names
    the file it came from, for the game's audit trail (the body is the record itself)."""
    record = _json()
    game_id = get_store().import_record(record, file_name=request.args.get("file"))
    return jsonify({"id": game_id, "url": f"/game/{game_id}/tricks"}), 201


@bp.get("/game/<id:game_id>/audit")
def audit(game_id: int) -> Any:
    store = get_store()
    store.game(game_id)
    return jsonify({"audit": [c.to_json() for c in store.audit(game_id)]})


# ------------------------------------------------------------------------------ exports
#: A spreadsheet runs a text cell starting with one of these as a formula ("CSV injection"),
#: and a cell starts at the line's start or, where a spreadsheet splits on ``;`` (the
#: default in Spanish, Italian and Danish ones), after any ``;`` in a name.
_FORMULA_CELL = re.compile(r"(^|;)(?=[=+\-@\t\r])")


def _csv_cell(value: Any) -> Any:
    """Text that a spreadsheet would run as a formula (a player named ``=HYPERLINK(...)``,
    or ``Ana;=1+1``) gets a ``'`` before it, the usual neutraliser; numbers stay numbers."""
    if isinstance(value, str):
        return _FORMULA_CELL.sub(lambda m: m.group(1) + "'", value)
    return value


#: The score sheet's columns (docs/web.md), then the round's tricks entered by hand and
#: corrected, after them: a reader of the first eight reads them as before.
_CSV_SCORE_COLUMNS = ("round", "player", "name", "bid", "tricks_won", "bonus", "points", "total")
_CSV_TRICK_COLUMNS = ("tricks_by_hand", "tricks_corrected")


def _round_tricks_marked(tricks: Sequence[Trick], round_number: int) -> list[str]:
    """The round's tricks entered by hand, and those corrected (a card or a seat other than
    as recorded now, the tricks page's ✎), each as their numbers from 1 ("1 3"), as the
    pages count them: a referee filtering the sheet sees which rounds the camera did not
    score alone. A correction put back (the faded ✎) is not listed: that trick scores as
    recorded. The same on each player's row of the round."""
    own = [t for t in tricks if t.round == round_number]
    return [
        " ".join(str(t.trick + 1) for t in own if t.by_hand),
        " ".join(str(t.trick + 1) for t in own if t.corrected),
    ]


def export_json(game_id: int) -> Response:
    record = get_store().export_record(game_id)
    body = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="skullcam-game-{game_id}.json"'},
    )


def export_csv(game_id: int) -> Response:
    """One row per player per round: bid (as scored, after Harry's change), tricks won, bonus,
    points, running total (a round still being played: its tricks won so far, the rest empty,
    as the tricks page shows no points for it).

    While the score stops (a card corrected into one already played, a bid missing) the sheet
    still gives the record, as the JSON export does: a table settling that dispute needs it
    most then. The rounds that score have their rows; a later recorded round has its bids as
    entered and its other cells empty (no score is made up); a last row says why the score
    stops, as the tricks page says it."""
    store = get_store()
    game = store.game(game_id)
    result = store.score(game_id)
    record = result["record"]
    if result["ok"]:
        score, scored_bids = result["score"], result.get("bids") or []
    else:
        score = result.get("so_far") or {"rounds": []}
        scored_bids = result.get("so_far_bids") or []
    tricks = store.tricks(game_id)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*_CSV_SCORE_COLUMNS, *_CSV_TRICK_COLUMNS])
    running = [0] * len(game.players)
    for r, rnd in enumerate(score["rounds"], start=1):
        # As scored: after Harry's change, so a row's bid, tricks and points agree.
        bids = scored_bids[r - 1] if r <= len(scored_bids) else record["rounds"][r - 1]["bids"]
        for p, name in enumerate(game.players):
            row: list[Any] = [r, p, name, bids[p], rnd["tricks_won"][p]]
            if rnd.get("in_progress"):  # tricks won so far; its points come when it ends
                row += ["", "", ""]
            else:
                running[p] += rnd["points"][p]
                row += [rnd["bonus"][p], rnd["points"][p], running[p]]
            writer.writerow([_csv_cell(v) for v in [*row, *_round_tricks_marked(tricks, r)]])
    # The record stops before a short trick's round (its format holds no missing card): that
    # round and any recorded after it give their bids as stored.
    last = max([len(record["rounds"]), *(t.round for t in tricks)])
    for r in range(len(score["rounds"]) + 1, last + 1):
        entered = (
            record["rounds"][r - 1]["bids"]
            if r <= len(record["rounds"])
            else store.bids(game_id, r)
        )
        for p, name in enumerate(game.players):
            cells = [r, p, name, "" if entered[p] is None else entered[p], "", "", "", ""]
            cells += _round_tricks_marked(tricks, r)
            writer.writerow([_csv_cell(v) for v in cells])
    if not result["ok"]:
        why = explain_i18n.score_error_text(result, g.lang)
        writer.writerow([_csv_cell(f"{i18n.translate('score_error', g.lang)} {why}")])
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="skullcam-game-{game_id}.csv"'},
    )
