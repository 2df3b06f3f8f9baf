"""The table app against hostile or broken input: PIN guessing, the causes of 500s, stale
event ids, the replay overlay and the CSV export (a review's findings, one test each)."""

from __future__ import annotations

import csv
import html
import io
import re
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from store_support import plays
from web_support import json_of, overlay_labels

from skullcam.store import GameStore
from skullcam.web import create_app, get_store, i18n
from skullcam.web.app import MESSAGE_LIMIT, clip_message

REMOTE = {"REMOTE_ADDR": "192.168.1.50"}
BIG = "99999999999999999999"  # above 2**63: SQLite cannot even compare with it


@pytest.fixture
def gid(store: GameStore) -> int:
    return store.create_game(["Ana", "Ben", "Cai"], 0, {})


def trick_with(store: GameStore, gid: int, cards: list[tuple[int, str]], detections: Any) -> str:
    """Record round 1's trick with a completion image and ``detections``; its replay URL."""
    store.set_bids(gid, 1, [0, 1, 0])
    image = store.game_dir(gid) / "r01t00.jpg"
    image.write_bytes(b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9")
    store.record_trick(gid, 1, 0, plays(*cards), completion_image=image, detections=detections)
    return f"/game/{gid}/round/1/trick/0"


# ----------------------------------------------------------------------- 1. PIN guessing
def test_header_pin_guesses_lock_the_address(tmp_path: Path) -> None:
    app = create_app(tmp_path, pin="4821", require_pin=True)
    now = [1000.0]
    app.extensions["skullcam_clock"] = lambda: now[0]
    client = app.test_client()
    body = {"players": ["Ana", "Ben"]}

    def post(pin: str, remote: dict[str, str] = REMOTE) -> Any:
        return client.post(
            "/api/games", json=body, environ_base=remote, headers={"X-Skullcam-Pin": pin}
        )

    for guess in ["0000", "0001", "0002", "0003", "0004"]:
        wrong = post(guess)
        assert wrong.status_code == 403 and json_of(wrong)["pin"] is True
        assert "wrong PIN in X-Skullcam-Pin" in json_of(wrong)["error"]
    locked = post("4821")  # the right PIN, but this address is locked now
    assert locked.status_code == 403
    assert json_of(locked)["error"] == "too many wrong PINs; wait 30 s and try again"
    # The phone's PIN form at the same address counts in the same lock.
    typed = client.post("/api/pin", json={"pin": "4821"}, environ_base=REMOTE)
    assert typed.status_code == 403 and "too many wrong PINs" in json_of(typed)["error"]
    # Another address is not locked out.
    assert post("4821", {"REMOTE_ADDR": "192.168.1.51"}).status_code == 201
    now[0] += 29.5
    assert "wait 1 s" in json_of(post("4821"))["error"]
    now[0] += 1.0
    assert post("4821").status_code == 201
    assert get_store(app).games()[0].players == ["Ana", "Ben"]


def test_header_pin_failures_reset_after_a_right_one(tmp_path: Path) -> None:
    app = create_app(tmp_path, pin="4821", require_pin=True)
    app.extensions["skullcam_clock"] = lambda: 50.0
    client = app.test_client()
    headers = {"X-Skullcam-Pin": "1111"}
    for _ in range(4):
        client.post("/api/games", json={}, environ_base=REMOTE, headers=headers)
    ok = client.post(
        "/api/games",
        json={"players": ["Ana", "Ben"]},
        environ_base=REMOTE,
        headers={"X-Skullcam-Pin": "4821"},
    )
    assert ok.status_code == 201
    for _ in range(4):  # four more wrong ones: still under the limit, since the count restarted
        res = client.post("/api/games", json={}, environ_base=REMOTE, headers=headers)
        assert "wrong PIN" in json_of(res)["error"]


@pytest.mark.parametrize("pin", ["é", "4821é", "\u0661\u0662"])
def test_non_ascii_pin_is_just_wrong(tmp_path: Path, pin: str) -> None:
    app = create_app(tmp_path, pin="4821", require_pin=True)
    client = app.test_client()
    typed = client.post("/api/pin", json={"pin": pin}, environ_base=REMOTE)
    assert typed.status_code == 403 and typed.json == {"error": "wrong PIN", "pin": True}
    # HTTP headers arrive as latin-1 text: the UTF-8 bytes of 'é' read as 'Ã©'.
    header = pin.encode("utf-8").decode("latin-1")
    sent = client.post(
        "/api/games", json={}, environ_base=REMOTE, headers={"X-Skullcam-Pin": header}
    )
    assert sent.status_code == 403 and "wrong PIN" in json_of(sent)["error"]


def test_non_ascii_table_pin_still_matches(tmp_path: Path) -> None:
    client = create_app(tmp_path, pin="ñ42", require_pin=True).test_client()
    assert client.post("/api/pin", json={"pin": "ñ42"}, environ_base=REMOTE).status_code == 200


# ------------------------------------------------------------------- 2. 500s, and causes
def test_unexpected_error_answers_json_under_api_without_traceback(tmp_path: Path) -> None:
    app = create_app(tmp_path, test_config={"TESTING": False, "PROPAGATE_EXCEPTIONS": False})
    store = get_store(app)
    gid = store.create_game(["Ana", "Ben"], 0, {})

    def broken(game_id: int) -> dict[str, Any]:
        raise RuntimeError("secret detail /home/table/skullcam.db")

    store.state = broken  # type: ignore[method-assign]
    client = app.test_client()
    res = client.get(f"/api/game/{gid}/state")
    assert res.status_code == 500 and res.mimetype == "application/json"
    assert "try again" in json_of(res)["error"] and "log" in json_of(res)["error"]
    assert "secret" not in res.get_data(as_text=True)
    page = client.get(f"/game/{gid}/bids")
    assert page.status_code == 500 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert "try again" in text and "secret" not in text and "Traceback" not in text


def test_other_http_errors_answer_json_under_api(app: Flask, client: FlaskClient) -> None:
    from werkzeug.exceptions import ImATeapot

    def teapot() -> Any:
        raise ImATeapot()

    app.add_url_rule("/api/teapot", view_func=teapot)
    res = client.get("/api/teapot")
    assert res.status_code == 418 and res.mimetype == "application/json"
    assert "teapot" in json_of(res)["error"]


@pytest.mark.parametrize("balls", [True, 5, "yes", [True, "no", False]])
def test_all_bids_with_a_bad_cannonball(
    client: FlaskClient, store: GameStore, gid: int, balls: Any
) -> None:
    res = client.post(
        f"/api/game/{gid}/bids", json={"round": 1, "bids": [1, 0, 0], "cannonball": balls}
    )
    assert res.status_code == 400
    assert "cannonball must be a list of true/false, one per player" in json_of(res)["error"]
    assert store.bids(gid, 1) == [None, None, None]


@pytest.mark.parametrize(
    ("bid", "message"),
    [
        ("²", "'bid' must be a whole number, got '²'"),
        ("\u0661", "'bid' must be a whole number"),  # Arabic-Indic one: not read as 1
        ("9" * 5000, "'bid' is far out of range"),
        (10**30, "'bid' is far out of range"),
        ("1.5", "'bid' must be a whole number"),
        ("1 2", "'bid' must be a whole number"),
    ],
)
def test_bid_text_must_be_ascii_digits(
    client: FlaskClient, store: GameStore, gid: int, bid: Any, message: str
) -> None:
    res = client.post(f"/api/game/{gid}/bids", json={"round": 1, "player": 0, "bid": bid})
    assert res.status_code == 400 and message in json_of(res)["error"]
    assert len(json_of(res)["error"]) < 120  # the 5000 digits are not echoed back
    assert store.bids(gid, 1) == [None, None, None]


def test_ascii_digit_strings_still_read(client: FlaskClient, gid: int) -> None:
    res = client.post(f"/api/game/{gid}/bids", json={"round": "2", "player": " 1", "bid": "-0"})
    assert res.status_code == 200 and json_of(res)["bids"] == [None, 0, None]
    # A sign reads as it does everywhere else a number is typed (Harry's "+1" included).
    res = client.post(f"/api/game/{gid}/bids", json={"round": "2", "player": "0", "bid": "+2"})
    assert res.status_code == 200 and json_of(res)["bids"] == [2, 0, None]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", f"/api/game/{BIG}/state"),
        ("get", f"/api/game/1/round/{BIG}/bids"),
        ("get", "/api/game/\u0661/state"),  # Werkzeug's int took any Unicode digit
        ("post", f"/api/game/1/round/{BIG}/trick/0/correct"),
        ("post", f"/api/game/{BIG}/bids"),
        ("post", f"/api/prompt/{BIG}/answer"),
    ],
)
def test_ids_beyond_sqlite_are_not_found(
    client: FlaskClient, gid: int, method: str, path: str
) -> None:
    res = getattr(client, method)(path, json={"answer": 1, "play": 0, "card": "green-1"})
    assert res.status_code == 404
    assert res.json == {"error": "not found: check the address"}


@pytest.mark.parametrize(
    "path",
    [f"/game/{BIG}/bids", f"/game/1/round/{BIG}/trick/0", f"/game/1/trick/{BIG}/image/completion"],
)
def test_pages_with_ids_beyond_sqlite_are_not_found(
    client: FlaskClient, gid: int, path: str
) -> None:
    res = client.get(path)
    assert res.status_code == 404 and "not found" in res.get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        (f"?game={BIG}", 404, f"no game {BIG}"),
        ("?game=²", 400, "game must be a number, got '²'"),
        ("?game=\u0661", 400, "game must be a number"),
        ("?last_event_id=²", 400, "Last-Event-ID must be a number"),
    ],
)
def test_sse_bad_numbers(
    client: FlaskClient, gid: int, query: str, status: int, message: str
) -> None:
    res = client.get("/events" + query)
    assert res.status_code == status
    assert message in json_of(res)["error"]


@pytest.mark.parametrize("body", ["[" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000])
def test_deeply_nested_json_is_malformed(client: FlaskClient, body: str) -> None:
    res = client.post("/api/games", data=body, content_type="application/json")
    assert res.status_code == 400
    assert res.json == {"error": "malformed JSON: nested too deeply"}


def test_json_nested_just_within_the_decoders_reach_is_refused(
    client: FlaskClient, gid: int
) -> None:
    """The decoder takes nesting up to about the recursion limit; a check that quoted such a
    value back ran out of stack: a settings change nested 980 levels deep answered 500."""
    answers = set()
    for depth in range(900, sys.getrecursionlimit()):
        body = '{"settings": {"rounds": ' + "[" * depth + "1" + "]" * depth + "}}"
        res = client.post(f"/api/game/{gid}/settings", data=body, content_type="application/json")
        answers.add((res.status_code, json_of(res)["error"]))
    assert answers == {(400, "malformed JSON: nested too deeply")}


def test_json_number_with_too_many_digits(client: FlaskClient) -> None:
    body = '{"players": ["Ana", "Ben"], "first_dealer": ' + "9" * 5000 + "}"
    res = client.post("/api/games", data=body, content_type="application/json")
    assert res.status_code == 400
    assert res.json == {"error": "malformed JSON: a number has too many digits"}


@pytest.mark.parametrize(
    "detections",
    [
        {"image_size": [640, None], "cards": [{"card": "green-5", "box": [1, 2, 30, 40]}]},
        {"image_size": ["wide", 480], "cards": []},
        {"image_size": [0, 480], "cards": []},
        {"image_size": [640, 480, 3], "cards": []},
        {"image_size": [640, 480], "cards": "none"},
        ["not", "a", "dict"],
    ],
)
def test_replay_renders_without_overlay_for_a_bad_image_size(
    client: FlaskClient, store: GameStore, gid: int, detections: Any
) -> None:
    url = trick_with(store, gid, [(1, "green-5"), (2, "green-9"), (0, "green-2")], detections)
    res = client.get(url)
    assert res.status_code == 200
    page = res.get_data(as_text=True)
    assert "/image/completion" in page and '<svg class="overlay"' not in page


def test_replay_skips_malformed_boxes(client: FlaskClient, store: GameStore, gid: int) -> None:
    detections = {
        "image_size": [640, 480],
        "cards": [
            {"card": "green-5", "box": [None, 1, 2, 3], "player": 1},
            {"card": "green-5", "box": [1, 2, "x", 4], "player": 1},
            {"card": "green-5", "box": [1, 2, 1e400, 4], "player": 1},
            {"card": "green-5", "box": [50, 50, 10, 10], "player": 1},  # x2 < x1
            {"card": "green-5", "box": [True, 2, 3, 4], "player": 1},
            {"card": "green-9", "box": [200, 20, 300, 170], "player": 2, "confidence": "high"},
            {"card": "green-2", "box": [400, 20, 500, 170], "player": 0, "confidence": 0.5},
        ],
    }
    url = trick_with(store, gid, [(1, "green-5"), (2, "green-9"), (0, "green-2")], detections)
    res = client.get(url)
    assert res.status_code == 200
    page = res.get_data(as_text=True)
    assert page.count("<rect") == 2
    labels = overlay_labels(page)
    assert "2. Parrot 9 ★ / Cai" in labels  # a confidence that is not a number is left out
    assert "3. Parrot 2 / Ana 50%" in labels


# -------------------------------------------------------------------- 3. stale event ids
@pytest.mark.parametrize("last_seen", ["500", BIG])
def test_sse_last_event_id_above_newest_starts_from_now(
    client: FlaskClient, store: GameStore, gid: int, last_seen: str
) -> None:
    newest = store.last_event_id()
    res = client.get(f"/events?game={gid}", headers={"Last-Event-ID": last_seen}, buffered=False)
    chunks = res.iter_encoded()  # res.response, each chunk as bytes (typed so)
    assert next(chunks).decode() == f"retry: 2000\n: connected at event {newest}\n\n"
    store.set_bid(gid, 1, 0, 1)  # after the page connected (the TV open across a reset)
    rest = b"".join(chunks).decode()
    res.close()
    assert f"id: {newest + 1}\nevent: bids\n" in rest


# -------------------------------------------------------------------- 4. overlay players
def test_replay_overlay_labels_repeated_cards_with_their_own_players(
    client: FlaskClient, store: GameStore, gid: int
) -> None:
    detections = {
        "image_size": [640, 480],
        "cards": [
            {"card": "escape", "confidence": 0.9, "box": [0, 0, 100, 150]},
            {"card": "green-6", "confidence": 0.9, "box": [200, 0, 300, 150]},
            {"card": "escape", "confidence": 0.8, "box": [400, 0, 500, 150]},
        ],
    }
    url = trick_with(store, gid, [(1, "escape"), (2, "green-6"), (0, "escape")], detections)
    page = client.get(url).get_data(as_text=True)
    assert overlay_labels(page) == [
        "1. Escape / Ben 90%",
        "2. Parrot 6 ★ / Cai 90%",
        "3. Escape / Ana 80%",
    ]


def test_replay_labels_start_inside_the_picture(
    client: FlaskClient, store: GameStore, gid: int
) -> None:
    """A label runs from the box edge nearer the picture's middle, and a cut card's box (the
    edge look reports its whole outline, past the picture) starts it at the picture's edge."""
    detections = {
        "image_size": [640, 480],
        "cards": [
            {"card": "green-5", "confidence": 0.9, "box": [-60, 170, 50, 310]},
            {"card": "green-9", "confidence": 0.9, "box": [200, 20, 300, 170]},
            {"card": "green-2", "confidence": 0.9, "box": [560, 170, 700, 310]},
        ],
    }
    url = trick_with(store, gid, [(1, "green-5"), (2, "green-9"), (0, "green-2")], detections)
    labels = re.findall(
        r'<text x="([-\d.]+)" text-anchor="(\w+)"', client.get(url).get_data(as_text=True)
    )
    assert [(float(x), anchor) for x, anchor in labels] == [
        (3.0, "start"),
        (203.0, "start"),
        (637.0, "end"),
    ]


def test_replay_labels_shorten_long_player_names(client: FlaskClient, store: GameStore) -> None:
    name = "Hanne-Marie Kristoffersen-Lindqvist"
    gid = store.create_game(["Ana", name, "Cai"], 0, {})
    detections = {
        "image_size": [640, 480],
        "cards": [{"card": "green-5", "confidence": 0.9, "box": [10, 170, 110, 310]}],
    }
    url = trick_with(store, gid, [(1, "green-5"), (2, "green-9"), (0, "green-2")], detections)
    page = client.get(url).get_data(as_text=True)
    assert overlay_labels(page) == ["1. Parrot 5 / Hanne-Marie K… 90%"]
    assert name in page  # the play-order table keeps the whole name


# -------------------------------------------------------------------------- 5. CSV export
def test_csv_export_neutralises_formulas(client: FlaskClient, store: GameStore) -> None:
    names = ['=HYPERLINK("http://evil.example","x")', "@Ben", "-Cai", "+Dan", "Eve;=1+1;"]
    gid = store.create_game(names, 0, {})
    store.set_bids(gid, 1, [0, 0, 0, 1, 0])
    store.record_trick(
        gid,
        1,
        0,
        plays((1, "green-5"), (2, "green-9"), (3, "green-2"), (4, "green-1"), (0, "green-3")),
    )
    text = client.get(f"/game/{gid}/export.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    # A spreadsheet splitting on ';' (Spanish, Italian, Danish defaults) sees Eve's "=1+1"
    # as a cell of its own.
    assert [r[2] for r in rows[1:]] == ["'" + n for n in names[:4]] + ["Eve;'=1+1;"]
    # Cai's green 9 won: a missed zero bid, whose -10 stays a number.
    assert rows[3][2:] == ["'-Cai", "0", "1", "0", "-10", "-10", "", ""]


# ------------------------------------------------------------ 6. round range, long echoes
def test_bids_of_a_round_the_game_does_not_have(
    client: FlaskClient, store: GameStore, gid: int
) -> None:
    for r in (0, 11, 99):
        res = client.get(f"/api/game/{gid}/round/{r}/bids")
        assert res.status_code == 400 and res.json == {"error": f"round must be 1..10, got {r}"}
    short = store.create_game(["Dee", "Eve"], 0, {"rounds": 3})
    assert client.get(f"/api/game/{short}/round/3/bids").status_code == 200
    assert "round must be 1..3" in json_of(client.get(f"/api/game/{short}/round/4/bids"))["error"]


@pytest.mark.parametrize(
    ("path", "body", "start"),
    [
        ("/settings", {"settings": {"scoring": "x" * 5000}}, "invalid settings: setting 'scoring'"),
        ("/settings", {"settings": {"x" * 5000: 1}}, "invalid settings: unknown setting 'xxx"),
        ("/bids", {"round": 1, "player": 0, "bid": "x" * 5000}, "'bid' must be a whole number"),
        ("/bids", {"round": "9" * 3000, "player": 0, "bid": 0}, "'round' is far out of range"),
        ("/round/1/trick/0/correct", {"play": 0, "card": "x" * 10_000}, "unknown card 'xxx"),
    ],
)
def test_long_user_input_is_not_echoed_whole(
    client: FlaskClient, store: GameStore, gid: int, path: str, body: dict, start: str
) -> None:
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-2")))
    res = client.post(f"/api/game/{gid}{path}", json=body)
    assert res.status_code == 400
    error = json_of(res)["error"]
    assert error.startswith(start) and len(error) <= MESSAGE_LIMIT
    assert "x" * 41 not in error and "9" * 41 not in error  # the input is cut, with "…"


def test_clip_message_keeps_the_advice() -> None:
    message = "round must be 1..10, got " + "9" * 3000 + " - pick a round of this game"
    clipped = clip_message(message)
    assert clipped == "round must be 1..10, got " + "9" * 40 + "… - pick a round of this game"
    assert len(clip_message("word " * 1000)) == MESSAGE_LIMIT
    assert clip_message("two\nlines") == "two lines"


# ------------------------------------------------------------ 7. values passed as sent
def test_tigress_and_note_reach_the_store_as_sent(
    client: FlaskClient, store: GameStore, gid: int
) -> None:
    trick_with(store, gid, [(1, "green-5"), (2, "tigress:escape"), (0, "green-7")], [])
    base = f"/api/game/{gid}/round/1/trick/0"
    missing = client.post(f"{base}/tigress", json={})
    assert missing.status_code == 400
    assert "say how the Tigress was played" in json_of(missing)["error"]
    note = client.post(f"{base}/correct", json={"play": 0, "card": "green-8", "note": {"x": 1}})
    assert note.status_code == 400 and "a note must be text" in json_of(note)["error"]
    assert store.trick(gid, 1, 0).plays[0]["card"] == "green-5"  # nothing applied


def test_serve_names_a_port_in_use(tmp_path: Path) -> None:
    import socket

    from skullcam.errors import UserError
    from skullcam.web import create_app
    from skullcam.web.app import serve

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(UserError, match=f"cannot listen on 127.0.0.1:{port}: .*another --port"):
            serve(create_app(tmp_path / "data"), "127.0.0.1", port)


def test_serve_names_an_address_that_is_not_this_machines(tmp_path: Path) -> None:
    from skullcam.errors import UserError
    from skullcam.web import create_app
    from skullcam.web.app import serve

    # 192.0.2.0/24 is reserved for documentation: never an address of a real machine.
    with pytest.raises(UserError, match=r"192\.0\.2\.7 is not an address of this machine"):
        serve(create_app(tmp_path / "data"), "192.0.2.7", 8000)


def test_event_streams_beyond_the_limit_are_refused_until_one_closes(
    app: Flask, client: FlaskClient
) -> None:
    # Each open page's stream holds a server thread: past the limit a page is told to try
    # again (its script does, after 5 s), and the threads left serve every other request.
    app.config["SSE_MAX_STREAMS"] = 2
    first, second = client.get("/events"), client.get("/events")
    assert first.status_code == second.status_code == 200
    refused = client.get("/events")
    assert refused.status_code == 503 and "tries again" in json_of(refused)["error"]
    assert client.get("/api/games").status_code == 200
    first.close()
    again = client.get("/events")
    assert again.status_code == 200
    for response in (second, again):
        response.close()
    assert app.extensions["skullcam_streams"].open == 0


def test_requests_that_name_this_machine_any_way_are_answered(tmp_path: Path) -> None:
    """The refusal of reads under a foreign name also caught an HTTP/1.0 request with no Host
    (a health check: waitress names itself waitress.invalid then), "localhost." and 0.0.0.0,
    none of them a browser's DNS rebinding (a review's reproductions)."""
    import socket

    from skullcam.web.app import make_server
    from skullcam.web.server_thread import PagesThread

    client = create_app(tmp_path).test_client()
    for host in ("localhost.:8000", "0.0.0.0:8000", "[::1]:8000", "LOCALHOST"):
        assert client.get("/api/games", headers={"Host": host}).status_code == 200, host
    assert client.get("/api/games", headers={"Host": "localhost.evil.example"}).status_code == 400
    pages = PagesThread(make_server(create_app(tmp_path / "b"), "127.0.0.1", 0))
    pages.start()
    try:
        port = pages.server.effective_port
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /api/games HTTP/1.0\r\n\r\n")
            answer = b""
            while chunk := sock.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.0 200"), answer[:200]
    finally:
        pages.close()


def test_one_address_cannot_take_every_event_stream(app: Flask, client: FlaskClient) -> None:
    """80 streams from one guest's laptop left every other page, the TV's too, answered 503
    (a review's reproduction); each address now has its own share."""
    app.config["SSE_MAX_STREAMS_PER_ADDRESS"] = 2
    guest = {"REMOTE_ADDR": "192.168.1.66"}
    held = [client.get("/events", environ_base=guest) for _ in range(2)]
    assert [r.status_code for r in held] == [200, 200]
    assert client.get("/events", environ_base=guest).status_code == 503
    tv = client.get("/events")  # the TV on the Pi, and every other phone, still follow
    phone = client.get("/events", environ_base={"REMOTE_ADDR": "192.168.1.20"})
    assert tv.status_code == phone.status_code == 200
    held[0].close()
    again = client.get("/events", environ_base=guest)
    assert again.status_code == 200
    for response in (held[1], again, tv, phone):
        response.close()
    assert app.extensions["skullcam_streams"].open == 0
    assert not app.extensions["skullcam_streams"].by_address


def test_open_event_streams_share_one_reader_of_the_store(
    app: Flask, client: FlaskClient, store: GameStore, gid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each open page's stream polled the store itself, 12 SQL statements a second idle and
    about 20 with live events: 40 pages ran nearly 800 a second beside the camera on a Pi.
    One watcher now reads each new event once and every stream takes it from memory; the
    watcher ends, its connection closed, when the last page closes."""
    import threading

    app.config["SSE_MAX_SECONDS"] = None  # open until closed here
    pages = [client.get(f"/events?game={gid}", buffered=False) for _ in range(3)]
    tv = client.get("/events", buffered=False)
    streams = [page.iter_encoded() for page in [*pages, tv]]
    for chunks in streams:
        assert next(chunks).startswith(b"retry: 2000")
    readers: list[str] = []
    events_since = store.events_since

    def reading(*args: Any, **kwargs: Any) -> Any:
        readers.append(threading.current_thread().name)
        return events_since(*args, **kwargs)

    monkeypatch.setattr(store, "events_since", reading)
    store.set_bid(gid, 1, 0, 1)
    for chunks in streams:
        assert b"event: bids\n" in next(chunks)
    assert readers and set(readers) == {"events"}  # the watcher's thread, not each stream's
    feed = app.extensions["skullcam_feed"]
    watcher, connections = feed.thread, len(store._connections)
    assert watcher is not None
    for response in [*pages, tv]:
        response.close()
    watcher.join(10)
    assert not watcher.is_alive() and feed.thread is None
    assert len(store._connections) == connections - 1  # the watcher's, closed with it


def test_a_page_back_after_more_events_than_the_feed_keeps_reads_them_from_the_store(
    app: Flask, client: FlaskClient, store: GameStore, gid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The feed keeps the last ``FEED_KEEP`` events; a page that saw fewer gets the rest from
    the store, in order, as before the feed."""
    from skullcam.web import events as events_module

    monkeypatch.setattr(events_module, "FEED_KEEP", 2)
    app.config["SSE_MAX_SECONDS"] = None
    tv = client.get("/events", buffered=False)
    live = tv.iter_encoded()
    next(live)
    first = store.last_event_id()
    for bid in range(4):
        store.set_bid(gid, 1, 0, bid % 2)
    assert b"event: bids" in next(live)
    feed = app.extensions["skullcam_feed"]
    while feed.last < first + 4:  # the feed has read them all (and kept the last 2)
        feed.wait(feed.last, 1.0)
    assert feed.floor > first
    app.config["SSE_MAX_SECONDS"] = 0.3
    back = client.get(f"/events?game={gid}", headers={"Last-Event-ID": str(first)})
    ids = re.findall(r"^id: (\d+)$", back.get_data(as_text=True), re.MULTILINE)
    assert [int(i) for i in ids] == [first + 1, first + 2, first + 3, first + 4]
    tv.close()


def test_the_feed_follows_a_database_restored_under_the_running_server(
    app: Flask, client: FlaskClient, store: GameStore, gid: int, tmp_path: Path
) -> None:
    """A backup restored into the data folder's database while the server ran (``.restore``,
    SQLite's backup onto the live file) starts the event ids over, below the feed's newest:
    the feed waited for an id past the old database's newest, and no open page heard of a
    change until a restart. The feed starts over with the store, the open stream ends (its
    page reconnects and reads the state again) and the new database's events reach the pages."""
    from skullcam.web import events as events_module

    for bid in range(4):
        store.set_bid(gid, 1, 0, bid % 2)
    app.config["SSE_MAX_SECONDS"] = None
    tv = client.get("/events", buffered=False)
    live = tv.iter_encoded()
    next(live)
    feed = events_module.feed_of(app)
    old_newest = store.last_event_id()
    backup = GameStore(tmp_path / "backup")
    backup_game = backup.create_game(["Dag", "Eve"], 0, {})
    backup.close()
    source = sqlite3.connect(tmp_path / "backup" / "skullcam.db")
    target = sqlite3.connect(store.path)
    source.backup(target)
    source.close()
    target.close()
    restored = store.last_event_id()
    assert restored < old_newest
    deadline = time.monotonic() + 30  # a bound on a busy machine, not a timing
    while feed.restarts == 0 and time.monotonic() < deadline:
        feed.wait(feed.last, 0.2)
    assert feed.restarts == 1 and feed.last == restored
    store.set_bid(backup_game, 1, 0, 1)
    newest = store.last_event_id()
    while feed.last != newest and time.monotonic() < deadline:
        feed.wait(feed.last, 0.2)
    assert feed.last == newest
    held = feed.since(restored, None)
    assert held is not None and [e.kind for e in held[0]] == ["bids"]
    assert b"".join(live).count(b"event: ") == 0  # the stream ended, with no old event
    tv.close()
    app.config["SSE_MAX_SECONDS"] = 0.3
    back = client.get("/events", headers={"Last-Event-ID": str(old_newest)})
    assert f": connected at event {newest}".encode() in back.get_data()


def test_the_feed_reads_a_failing_store_once_a_wait_not_as_fast_as_it_can(
    app: Flask, store: GameStore, gid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read of the store that failed (here a disk error) was tried again at once: this
    process's newer write made the wait return at once, so the watcher read the store as fast
    as it could, a core of a Pi beside the camera for as long as a page was open."""
    import sqlite3
    import threading

    from skullcam.web import events as events_module

    feed = events_module.feed_of(app)
    failures: list[int] = []
    pauses: list[float] = []

    def reading(*args: Any, **kwargs: Any) -> Any:
        failures.append(1)
        if len(failures) == 3:
            feed.unsubscribe()  # the last page closes: the watcher ends
        raise sqlite3.OperationalError("disk I/O error")

    real_sleep = time.sleep

    def sleeping(seconds: float) -> None:
        if threading.current_thread().name == "events":
            pauses.append(seconds)
        else:
            real_sleep(seconds)

    monkeypatch.setattr(store, "events_since", reading)
    monkeypatch.setattr(time, "sleep", sleeping)
    feed.subscribe()
    watcher = feed.thread
    assert watcher is not None
    store.set_bids(gid, 1, [0, 1, 0])  # a newer event: the wait returns at once
    watcher.join(30)
    assert not watcher.is_alive()
    assert len(failures) == 3
    assert len(pauses) >= 2 and min(pauses) == float(app.config["SSE_WAIT_SECONDS"])


def _damage_an_event(store: GameStore, gid: int) -> int:
    """A record a failing disk leaves: an event whose payload is not JSON; its id."""
    with store._write() as conn:
        cur = conn.execute(
            "INSERT INTO events (game_id, kind, payload, at) VALUES (?, 'bids', '{not json', 0)",
            (gid,),
        )
        return int(cur.lastrowid or 0)


def test_one_damaged_event_does_not_stop_the_events_after_it(
    app: Flask, store: GameStore, gid: int, caplog: pytest.LogCaptureFixture
) -> None:
    """The feed reads every game's events for every open page: stopped at an event it could
    not decode, it tried that event again and again, and no page of any game heard of a change
    until a restart. It skips the damaged event, says so, and goes on."""
    from skullcam.web import events as events_module

    feed = events_module.feed_of(app)
    feed.subscribe()
    try:
        damaged = _damage_an_event(store, gid)
        store.set_bids(gid, 1, [0, 1, 0])
        after = store.last_event_id()
        assert after > damaged
        deadline = time.monotonic() + 10
        while feed.last < after and time.monotonic() < deadline:
            feed.wait(feed.last, 0.2)
        held = feed.since(damaged - 1, gid)
        assert held is not None
        events, seen = held
        assert seen == after
        assert [e.id for e in events] == list(range(damaged + 1, after + 1))
        assert f"skipping event {damaged}" in caplog.text
    finally:
        feed.unsubscribe()


def test_a_feed_hit_by_an_unforeseen_fault_goes_on_for_the_pages_already_open(
    app: Flask,
    store: GameStore,
    gid: int,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A fault other than the store's ended the watcher but left it marked as running: no
    page heard of a change until a restart. It is logged once, and the feed goes on, for the
    pages already open."""
    from skullcam.web import events as events_module

    feed = events_module.feed_of(app)
    events_since = store.events_since
    faults: list[int] = []

    def failing(*args: Any, **kwargs: Any) -> Any:
        if len(faults) < 3:
            faults.append(1)
            raise ZeroDivisionError("a fault nobody foresaw")
        return events_since(*args, **kwargs)

    monkeypatch.setattr(store, "events_since", failing)
    feed.subscribe()
    try:
        store.set_bids(gid, 1, [0, 1, 0])
        after = store.last_event_id()
        deadline = time.monotonic() + 30
        while feed.last < after and time.monotonic() < deadline:
            feed.wait(feed.last, 0.2)
        assert len(faults) == 3
        assert feed.last == after
        assert feed.thread is not None and feed.thread.is_alive()
        said = [r for r in caplog.records if "event feed failed" in r.getMessage()]
        assert len(said) == 1
    finally:
        feed.unsubscribe()


def test_a_store_the_feed_cannot_open_for_a_moment_is_waited_for(
    app: Flask, store: GameStore, gid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watcher of the first page to open could not open the database for a moment (too
    many files open, the disk busy): the store says so as a UserError, which the feed took
    for a damaged event; looking for the way past it failed the same way and ended the
    watcher, and the open pages heard of no change until another page opened. It waits and
    reads the store again, as for any store that fails to read."""
    import sqlite3
    import threading

    from skullcam.store.database import database_error
    from skullcam.web import events as events_module

    feed = events_module.feed_of(app)
    failures: list[int] = []
    real_open = store._open

    def opening() -> sqlite3.Connection:
        if threading.current_thread().name == "events" and len(failures) < 3:
            failures.append(1)
            raise database_error(store.path, sqlite3.OperationalError("unable to open database"))
        return real_open()

    monkeypatch.setattr(store, "_open", opening)
    feed.subscribe()
    try:
        store.set_bids(gid, 1, [0, 1, 0])
        after = store.last_event_id()
        deadline = time.monotonic() + 30  # a bound on a busy machine, not a timing
        while feed.last < after and time.monotonic() < deadline:
            feed.wait(feed.last, 0.2)
        assert len(failures) == 3
        assert feed.last == after and feed.thread is not None and feed.thread.is_alive()
    finally:
        feed.unsubscribe()


def test_an_event_after_a_moment_the_store_failed_is_not_skipped_as_damaged(
    app: Flask, store: GameStore, gid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store failed to read twice (a UserError, as a database it cannot open says) and
    then read again: the feed took the next event, whole, for a damaged one and skipped it,
    and no page heard of the bids. It is skipped only where the store reads and the event
    still cannot be decoded."""
    import sqlite3
    import threading

    from skullcam.store.database import database_error
    from skullcam.web import events as events_module

    feed = events_module.feed_of(app)
    feed.subscribe()
    try:
        before = store.last_event_id()
        failures: list[int] = []
        events_since = store.events_since

        def reading(*args: Any, **kwargs: Any) -> Any:
            if threading.current_thread().name == "events" and len(failures) < 2:
                failures.append(1)
                raise database_error(store.path, sqlite3.OperationalError("disk I/O error"))
            return events_since(*args, **kwargs)

        monkeypatch.setattr(store, "events_since", reading)
        store.set_bids(gid, 1, [0, 1, 0])
        after = store.last_event_id()
        deadline = time.monotonic() + 30  # a bound on a busy machine, not a timing
        while feed.last < after and time.monotonic() < deadline:
            feed.wait(feed.last, 0.2)
        held = feed.since(before, gid)
        assert len(failures) == 2 and held is not None
        assert [e.kind for e in held[0]] == ["bids"]
    finally:
        feed.unsubscribe()


# ------------------------------------------------- a review's findings (session 27)
def test_a_body_not_in_utf8_is_refused_not_stored_broken(
    client: FlaskClient, store: GameStore, gid: int
) -> None:
    """'Jos\\xe9' sent as Latin-1 would be stored as 'Jos\\ufffd' if decoded leniently."""
    body = '{"players": ["José", "Ben"]}'.encode("latin-1")
    res = client.post("/api/games", data=body, content_type="application/json; charset=latin-1")
    assert res.status_code == 400
    error, where = json_of(res)["error"], body.index("é".encode("latin-1"))
    assert "not UTF-8" in error and f"byte {where}" in error
    assert [g.id for g in store.games()] == [gid]
    assert "Jos\ufffd" not in store.remembered_names()
    # The same name in UTF-8 is welcome.
    ok = client.post(
        "/api/games", data=body.decode("latin-1").encode(), content_type="application/json"
    )
    assert ok.status_code == 201 and "José" in store.remembered_names()


def test_a_one_player_bid_without_bid_keeps_the_bid(
    client: FlaskClient, store: GameStore, gid: int
) -> None:
    url = f"/api/game/{gid}/bids"
    assert client.post(url, json={"round": 1, "bids": [1, 0, 1]}).status_code == 200
    for body in ({"round": 1, "player": 1}, {"round": 1, "player": 1, "bd": 2}):
        res = client.post(url, json=body)
        assert res.status_code == 400 and "missing 'bid'" in json_of(res)["error"]
    assert store.bids(gid, 1) == [1, 0, 1]
    # An explicit null is how a bid is cleared.
    cleared = client.post(url, json={"round": 1, "player": 1, "bid": None})
    assert cleared.status_code == 200 and json_of(cleared)["bids"] == [1, None, 1]


def test_a_cannonball_call_alone_keeps_a_bid_another_phone_changed(
    client: FlaskClient, store: GameStore
) -> None:
    """The cannonball box used to resend the bid its page last saw: a stale page undid Ben's
    new bid without a word. The call alone leaves the stored bid as it is."""
    game = client.post(
        "/api/games",
        json={
            "players": ["Ana", "Ben", "Cai"],
            "first_dealer": 0,
            "settings": {"scoring": "rascal"},
        },
    )
    url = f"/api/game/{json_of(game)['id']}/bids"
    assert client.post(url, json={"round": 1, "bids": [1, 1, 1]}).status_code == 200
    assert client.post(url, json={"round": 1, "player": 1, "bid": 0}).status_code == 200
    called = client.post(url, json={"round": 1, "player": 1, "cannonball": True})
    assert called.status_code == 200 and json_of(called)["bids"] == [1, 0, 1]
    assert json_of(called)["cannonball"] == [False, True, False]  # the page draws the box so
    assert store.cannonball(json_of(game)["id"], 1) == [False, True, False]
    wrong = client.post(url, json={"round": 1, "player": 1, "cannonball": "yes"})
    assert wrong.status_code == 400 and "true or false" in json_of(wrong)["error"]


def test_an_unknown_prompt_is_not_found(client: FlaskClient, gid: int) -> None:
    for action in ("answer", "dismiss"):
        res = client.post(f"/api/prompt/999/{action}", json={"answer": "pirate"})
        assert res.status_code == 404 and "no prompt 999" in json_of(res)["error"]


# ------------------------------------------------------ damaged or missing recorded data
FOR = "+20 for the Jolly Roger 14, +30 for capturing Harry the Giant"


@pytest.mark.parametrize(
    ("settings", "cannonball", "paid", "note"),
    [
        ({}, False, "exact", f"{FOR} if Ben makes their bid"),
        (
            {"keep_bonus_on_miss": True},
            False,
            "always",
            f"{FOR}, whether or not Ben makes their bid",
        ),
        (
            {"scoring": "rascal"},
            False,
            "rascal",
            f"{FOR} if Ben makes their bid, half if off by one",
        ),
        ({"scoring": "rascal"}, True, "exact", f"{FOR} if Ben makes their bid"),  # all or nothing
    ],
)
def test_the_replay_page_and_the_trick_event_name_the_bonus_on_the_tables_condition(
    client: FlaskClient,
    store: GameStore,
    settings: dict[str, Any],
    cannonball: bool,
    paid: str,
    note: str,
) -> None:
    """It said "if bid made" under every table's rules, below an explanation saying the
    bonus was paid either way; and Rascal's half for a winner who had called a cannonball.
    "+50 bonus if bid made" did not say what for, nor whose bid (a review of screenshots):
    it names the 14 and the capture, and the winner. The TV's banner reads the condition and
    what the bonus is for from the trick's event."""
    game = store.create_game(["Ana", "Ben", "Cai"], 0, settings)
    if cannonball:
        store.set_cannonball(game, 1, 1, True)  # Ben, who takes the trick
    url = trick_with(store, game, [(1, "skull-king"), (2, "pirate-harry"), (0, "black-14")], None)
    page = client.get(url).get_data(as_text=True)
    assert f'<p id="bonus-note">{note}</p>' in page
    (event,) = [e for e in store.events_since(0, game) if e.kind == "trick"]
    assert event.payload["bonus_paid"] == paid
    assert event.payload["bonus_for"] == [
        {"points": 20, "card": "black-14", "captured": False},
        {"points": 30, "card": "pirate-harry", "captured": True},
    ]
    spanish = client.get(url + "?lang=es").get_data(as_text=True)
    assert "+20 por el Jolly Roger 14, +30 por capturar a Harry el Gigante" in spanish


def test_a_bonus_names_its_card_as_the_explanation_above_it_does(
    client: FlaskClient, store: GameStore
) -> None:
    """The replay page's explanation said "+40 por capturar al Skull King" and the bonus line
    under it "+40 por capturar a Skull King"; the TV's banner as the line (a game-night
    journey). Both now take the explanation's wording, the TV's from the page's data."""
    from skullcam.web.explain_i18n import bonus_items_for_script

    game = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    url = trick_with(store, game, [(1, "mermaid-alyra"), (2, "skull-king"), (0, "green-3")], None)
    for lang, said in [
        ("es", "+40 por capturar al Skull King si Ben cumple su apuesta"),
        ("it", "+40 per aver catturato il Re dei Teschi se Ben indovina la puntata"),
        ("en", "+40 for capturing the Skull King if Ben makes their bid"),
    ]:
        page = html.unescape(client.get(f"{url}?lang={lang}").get_data(as_text=True))
        assert f'<p id="bonus-note">{said}</p>' in page, lang
        what = said.split(" si ")[0].split(" se ")[0].split(" if ")[0]
        assert what in page[: page.index('<p id="bonus-note">')], lang  # in the explanation
        assert bonus_items_for_script(lang)["skull-king"][1].replace("{points}", "40") == what
    tv = html.unescape(client.get("/tv?lang=es").get_data(as_text=True))
    assert '"black-14": ["+{points} por el Jolly Roger 14"' in tv


@pytest.mark.parametrize(
    ("settings", "alliances"),
    [
        ({"loot": True, "loot_alliance_bonus": 30}, [{"loot": 2, "winner": 1, "points": 30}]),
        ({"loot": True, "scoring": "no_bonus"}, []),  # the scorer pays none
    ],
)
def test_the_trick_event_names_the_loot_alliance_for_the_tvs_banner(
    client: FlaskClient, store: GameStore, settings: dict[str, Any], alliances: list[Any]
) -> None:
    """The TV's banner said "Trick won by Ben" and nothing of the alliance Cai's Loot made
    with him, which pays both as much as a capture (a game night with the expansion cards,
    where the replay page's explanation said it). The trick's event names it by seat, and the
    TV's page words it in its language as that explanation does."""
    game = store.create_game(["Ana", "Ben", "Cai"], 0, settings)
    trick_with(store, game, [(1, "skull-king"), (2, "loot"), (0, "green-3")], None)
    (event,) = [e for e in store.events_since(0, game) if e.kind == "trick"]
    assert event.payload["loot_alliances"] == alliances
    tv = html.unescape(client.get(f"/game/{game}/tv?lang=it").get_data(as_text=True))
    assert (
        '"loot_alliance": "Alleanza del Bottino: {loot_player} e {winner_player}'
        ' (+{points} ciascuno se entrambe le puntate sono esatte)."'
    ) in tv


@pytest.mark.parametrize(
    ("lang", "winner", "note"),
    [
        ("en", "Ben's Pirate wins", "+20 for capturing a Mermaid if Ben makes their bid"),
        ("es", "Gana el Pirata de Ben", "+20 por capturar a una Sirena si Ben cumple su apuesta"),
        ("it", "Vince il Pirata di Ben", "+20 per aver catturato una Sirena se Ben indovina"),
        ("da", "Bens pirat vinder", "Ben får +20 for at fange en havfrue, hvis buddet holder"),
    ],
)
def test_an_unnamed_pirate_or_mermaid_is_said_as_a_card_whose_name_is_not_known(
    client: FlaskClient, store: GameStore, lang: str, winner: str, note: str
) -> None:
    """The camera or a record may leave a pirate or mermaid unnamed. Named alone it read
    "+20 for capturing Mermaid", "por capturar a Sirena sin nombre", "per aver catturato
    Sirena senza nome", "for at fange Havfrue" (the bonus note and the Danish explanation),
    and "la Sirena sin nombre de Cai" read "without Cai's name"."""
    game = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    url = trick_with(store, game, [(1, "pirate"), (2, "mermaid"), (0, "green-3")], None)
    page = html.unescape(client.get(f"{url}?lang={lang}").get_data(as_text=True))
    assert f'<p id="bonus-note">{note}' in page
    why = re.search(r'id="explanation">(.*?)</p>', page, re.S)
    assert why is not None and why[1].startswith(winner), why
    captured = i18n.card_in_sentence("mermaid", lang)  # the same words as the note
    assert captured in why[1] and captured in note
    assert "sin nombre" not in page and "senza nome" not in page


@pytest.mark.parametrize("damage", ["deleted", "emptied", "overwritten", "cut short"])
def test_a_trick_image_gone_from_the_data_folder_is_named_not_a_broken_picture(
    client: FlaskClient, store: GameStore, gid: int, damage: str
) -> None:
    """An emptied image (a crash, a full disk) was served as a blank 200 picture, and a
    damaged one (random bytes, a JPEG cut short) as a broken-image icon (a review)."""
    url = trick_with(store, gid, [(1, "green-5"), (2, "green-9"), (0, "green-2")], None)
    image = store.game_dir(gid) / "r01t00.jpg"
    whole = image.read_bytes()
    if damage == "deleted":
        image.unlink()
    elif damage == "emptied":
        image.write_bytes(b"")
    elif damage == "overwritten":
        image.write_bytes(bytes(range(256)) * 2)
    else:
        image.write_bytes(whole[: len(whole) // 2])
    page = client.get(url).get_data(as_text=True)
    assert "/image/completion" not in page
    assert 'id="image-missing"' in page and str(image) in page
    assert "restore it from a backup" in page
    trick_id = store.trick(gid, 1, 0).id
    assert client.get(f"/game/{gid}/trick/{trick_id}/image/completion").status_code == 404


def test_the_annotated_image_stands_in_for_a_missing_completion_frame(
    client: FlaskClient, store: GameStore, gid: int
) -> None:
    store.set_bids(gid, 1, [0, 1, 0])
    folder = store.game_dir(gid)
    (folder / "r01t00-boxes.jpg").write_bytes(b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9")
    cards = plays((1, "green-5"), (2, "green-9"), (0, "green-2"))
    store.record_trick(
        gid,
        1,
        0,
        cards,
        completion_image=folder / "r01t00.jpg",  # never written
        annotated_image=folder / "r01t00-boxes.jpg",
    )
    page = client.get(f"/game/{gid}/round/1/trick/0").get_data(as_text=True)
    assert "/image/annotated" in page and 'id="image-missing"' not in page
    assert 'id="picture-as-read"' not in page
    # Corrected since, the picture (its labels and winner drawn at the time) is said to be
    # the camera's reading: it contradicted the list beside it with no word (a review).
    store.correct_play(gid, 1, 0, 1, card="green-12")
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=es").get_data(as_text=True)
    assert "/image/annotated" in page
    assert "La imagen muestra las cartas como las leyó la cámara" in page


def test_a_replay_page_of_a_damaged_trick_says_damaged_not_not_found(
    client: FlaskClient, store: GameStore, gid: int
) -> None:
    url = trick_with(store, gid, [(1, "green-5"), (2, "green-9"), (0, "green-2")], None)
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE tricks SET plays = '{' WHERE game_id = ?", (gid,))
    conn.close()
    res = client.get(url)
    assert res.status_code == 400
    assert "is damaged" in res.get_data(as_text=True)
    missing = client.get(f"/game/{gid}/round/1/trick/5")
    assert missing.status_code == 404
    assert f"game {gid} has no recorded trick 6 in round 1" in missing.get_data(as_text=True)


def test_a_database_found_damaged_mid_request_names_the_file_and_what_to_do(
    app: Flask, client: FlaskClient, store: GameStore, gid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: "the server failed on this request ... report it", sending a table with a bad
    sector to the bug tracker instead of to its backup."""

    def malformed(*args: object, **kwargs: object) -> Any:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(store, "state", malformed)
    res = client.get(f"/api/game/{gid}/state")
    assert res.status_code == 500
    error = json_of(res)["error"]
    assert "cannot be read (database disk image is malformed)" in error
    assert "Restore a backup" in error and "report it" not in error


def test_a_full_disk_mid_request_says_so_and_loses_nothing(
    client: FlaskClient, store: GameStore, gid: int
) -> None:
    """Was: the generic 500 "the server failed on this request ... report it", with the
    traceback of `COMMIT ... database or disk is full` in the log."""
    conn = store._conn()  # the test client runs on this thread: its requests use this one
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count={pages}")  # SQLite's own "database or disk is full"
    statuses = []
    for i in range(200):
        res = client.post("/api/games", json={"players": [f"Ana {i}", f"Ben {i}"]})
        statuses.append(res.status_code)
        if res.status_code != 201:
            break
    assert res.status_code == 507, statuses
    body = json_of(res)
    assert body["error"].startswith("this change was not saved: the disk holding")
    assert "is full (database or disk is full); free some space" in body["error"]
    assert "free some space" in body["error_text"] and "report it" not in body["error_text"]
    made = len(statuses) - 1
    conn.execute("PRAGMA max_page_count=1073741823")
    assert len(store.games()) == made + 1  # the fixture's game and every one answered 201
    assert client.post("/api/games", json={"players": ["Ana", "Ben"]}).status_code == 201


@pytest.mark.parametrize(
    "error",
    [
        sqlite3.IntegrityError("UNIQUE constraint failed: tricks.game_id"),
        sqlite3.ProgrammingError("Cannot operate on a closed database."),
    ],
)
def test_a_database_error_that_is_not_damage_does_not_say_restore_a_backup(
    client: FlaskClient,
    store: GameStore,
    gid: int,
    monkeypatch: pytest.MonkeyPatch,
    error: sqlite3.DatabaseError,
) -> None:
    """A constraint failure or a closed connection is a bug to report, not a damaged file:
    telling a table to restore a backup would have it give up a healthy game."""
    error_text = _state_error(client, store, gid, monkeypatch, error)
    assert "report it" in error_text and "backup" not in error_text


def _state_error(
    client: FlaskClient,
    store: GameStore,
    gid: int,
    monkeypatch: pytest.MonkeyPatch,
    error: sqlite3.Error,
) -> str:
    """The error a page's state request answers (a 500) when reading the game raises ``error``."""

    def fails(*args: object, **kwargs: object) -> Any:
        raise error

    monkeypatch.setattr(store, "state", fails)
    res = client.get(f"/api/game/{gid}/state")
    assert res.status_code == 500
    return str(json_of(res)["error"])


def test_a_disk_io_error_on_a_page_sends_the_table_to_check_the_disk(
    client: FlaskClient, store: GameStore, gid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failing SD card or a file size limit is not a bug to report (the generic 500), nor
    damage to restore from a backup: the command line already said to check the disk."""
    err = sqlite3.OperationalError("disk I/O error")
    err.sqlite_errorcode = 10  # SQLITE_IOERR
    said = _state_error(client, store, gid, monkeypatch, err)
    assert "report it" not in said and "disk" in said and "move it aside" not in said


def test_each_further_lock_of_an_address_is_twice_as_long(tmp_path: Path) -> None:
    """With a fixed 30 s lock one address found any 4-digit PIN within a day."""
    app = create_app(tmp_path, pin="4821", require_pin=True)
    now = [1000.0]
    app.extensions["skullcam_clock"] = lambda: now[0]
    client = app.test_client()

    def typed(pin: str) -> Any:
        return client.post("/api/pin", json={"pin": pin}, environ_base=REMOTE)

    for wait in (30, 60, 120):
        for guess in range(5):
            assert json_of(typed(f"{guess:04d}"))["error"] == "wrong PIN"
        assert f"wait {wait} s" in json_of(typed("4821"))["error"]
        now[0] += wait
    assert typed("4821").status_code == 200
    # A right PIN forgives: the next wrong five lock for 30 s again.
    for guess in range(5):
        typed(f"{guess:04d}")
    assert "wait 30 s" in json_of(typed("4821"))["error"]


def test_the_table_takes_fifty_wrong_pins_an_hour_from_all_addresses(tmp_path: Path) -> None:
    """Per-address locks alone let a guesser with many addresses through."""
    app = create_app(tmp_path, pin="4821", require_pin=True)
    now = [1000.0]
    app.extensions["skullcam_clock"] = lambda: now[0]
    client = app.test_client()
    phone = app.test_client()  # a phone that entered the PIN before the guessing
    assert phone.post("/api/pin", json={"pin": "4821"}, environ_base=REMOTE).status_code == 200
    for n in range(50):
        address = {"REMOTE_ADDR": f"10.0.0.{n // 4 + 1}"}  # 4 a address: under its own lock
        client.post("/api/pin", json={"pin": f"{n:04d}"}, environ_base=address)
    fresh = {"REMOTE_ADDR": "10.0.1.1"}
    refused = client.post("/api/pin", json={"pin": "4821"}, environ_base=fresh)
    assert refused.status_code == 403
    assert json_of(refused)["error"] == (
        "too many wrong PINs at this table in the last hour; wait 60 min, use a phone that "
        "already has the PIN, or ask the host to press 'Let phones in again' on the home page "
        "of the machine skullcam runs on"
    )
    for lang in ("es", "it", "da"):  # the host's button, named as its home page names it
        told = client.post(f"/api/pin?lang={lang}", json={"pin": "4821"}, environ_base=fresh)
        assert f"'{i18n.STRINGS['host_pin_unlock'][lang]}'" in json_of(told)["error_text"]
    made = phone.post("/api/games", json={"players": ["Ana", "Ben"]}, environ_base=REMOTE)
    assert made.status_code == 201
    now[0] += 3600
    assert client.post("/api/pin", json={"pin": "4821"}, environ_base=fresh).status_code == 200


def test_the_host_lets_phones_in_again_from_its_home_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Fifty wrong PINs locked the table for an hour, and only a restart of skullcam (the
    camera's too, mid-game) let a new phone in; the PIN itself was only in the terminal. The
    home page on this machine shows the PIN and the lock, and lifts it; no other machine
    sees the PIN or may lift the lock, a phone that knows the PIN included."""
    app = create_app(tmp_path, pin="4821", require_pin=True)
    now = [1000.0]
    app.extensions["skullcam_clock"] = lambda: now[0]
    host, guesser, phone = app.test_client(), app.test_client(), app.test_client()
    assert phone.post("/api/pin", json={"pin": "4821"}, environ_base=REMOTE).status_code == 200
    home = host.get("/").get_data(as_text=True)
    assert _pin_on_request(home) == "4821" and 'id="pin-unlock"' not in home
    for n in range(50):
        address = {"REMOTE_ADDR": f"10.0.0.{n // 4 + 1}"}
        guesser.post("/api/pin", json={"pin": f"{n:04d}"}, environ_base=address)
    fresh = {"REMOTE_ADDR": "10.0.1.1"}
    assert guesser.post("/api/pin", json={"pin": "4821"}, environ_base=fresh).status_code == 403
    assert "'Let phones in again' on the home page on this machine" in caplog.text
    home = host.get("/").get_data(as_text=True)
    assert "no new phone can sign in for 60 min" in home and 'id="pin-unlock"' in home
    phones_home = phone.get("/", environ_base=REMOTE).get_data(as_text=True)
    assert "4821" not in phones_home and "pin-unlock" not in phones_home
    refused = phone.post("/api/pin/unlock", json={}, environ_base=REMOTE)
    assert refused.status_code == 400
    assert json_of(refused)["error"] == (
        "only the machine skullcam runs on can let phones enter the PIN again: open its home "
        "page there"
    )
    unsigned = guesser.post("/api/pin/unlock", json={}, environ_base=fresh)
    assert unsigned.status_code == 403 and json_of(unsigned)["pin"] is True
    assert guesser.post("/api/pin", json={"pin": "4821"}, environ_base=fresh).status_code == 403
    unlocked = host.post("/api/pin/unlock", json={})
    assert unlocked.status_code == 200 and json_of(unlocked) == {"ok": True}
    assert guesser.post("/api/pin", json={"pin": "4821"}, environ_base=fresh).status_code == 200
    assert 'id="pin-unlock"' not in host.get("/").get_data(as_text=True)
    unset = create_app(tmp_path / "unset", require_pin=True).test_client().get("/")
    assert 'id="host-pin"' not in unset.get_data(as_text=True)  # no PIN to show: not "None"


def _pin_on_request(page: str) -> str | None:
    """The PIN a home page holds folded away (in the closed ``#host-pin-show``), or None: it
    fails the test if the page holds the PIN anywhere a glance at the screen would see it."""
    folded = re.search(r'<details id="host-pin-show">(.*?)</details>', page, re.S)
    if folded is None:
        return None
    value = re.search(r'<p id="host-pin-value">(\d+)</p>', folded.group(1))
    assert value is not None, folded.group(1)
    assert value.group(1) not in page.replace(folded.group(0), ""), "the PIN is shown unasked"
    return value.group(1)


def test_the_host_pin_is_shown_only_when_asked(tmp_path: Path) -> None:
    """The home page on this machine showed the table PIN in its heading: the TV is often this
    machine's own screen, so whoever had the home page on it showed the PIN to the whole room.
    It is folded under "Show the PIN" now, in every language, and opened only by a tap."""
    host = create_app(tmp_path, pin="4821", require_pin=True).test_client()
    for lang in ("en", "es", "it", "da"):
        home = host.get(f"/?lang={lang}").get_data(as_text=True)
        assert _pin_on_request(home) == "4821"
        assert f"<summary>{i18n.STRINGS['host_pin_show'][lang]}</summary>" in home


def test_a_page_on_another_site_cannot_let_phones_in_again(tmp_path: Path) -> None:
    """``POST /api/pin/unlock`` took any body: a page on another site, open in the host's
    browser on this machine, could post a plain HTML form to http://localhost:8000/api/pin/unlock
    (from loopback, naming this machine: no preflight) and lift the locks that hold a guesser
    back. Like every other write it takes JSON only, which such a form cannot send."""
    app = create_app(tmp_path, pin="4821", require_pin=True)
    now = [1000.0]
    app.extensions["skullcam_clock"] = lambda: now[0]
    host, guesser = app.test_client(), app.test_client()
    for n in range(50):
        guesser.post(
            "/api/pin",
            json={"pin": f"{n:04d}"},
            environ_base={"REMOTE_ADDR": f"10.0.0.{n // 4 + 1}"},
        )
    fresh = {"REMOTE_ADDR": "10.0.1.1"}
    form = host.post(
        "/api/pin/unlock", data="x=1", content_type="application/x-www-form-urlencoded"
    )
    assert form.status_code == 400
    assert json_of(form)["error"] == "send JSON (Content-Type: application/json)"
    assert guesser.post("/api/pin", json={"pin": "4821"}, environ_base=fresh).status_code == 403
    assert host.post("/api/pin/unlock", json={}).status_code == 200
    assert guesser.post("/api/pin", json={"pin": "4821"}, environ_base=fresh).status_code == 200


def test_one_guest_guessing_from_two_addresses_does_not_lock_the_table(tmp_path: Path) -> None:
    """A guest's phone and laptop, each guessing as fast as its own lock lets it (about 35
    wrong PINs each in the first hour), spent the table's 50 and kept every new phone out for
    the hour. Each address now counts at most 10 towards the table's: its own lock is what
    holds it back, and the table's budget is a backstop against many addresses."""
    app = create_app(tmp_path, pin="4821", require_pin=True)
    now = [1000.0]
    app.extensions["skullcam_clock"] = lambda: now[0]
    client = app.test_client()
    guest = [{"REMOTE_ADDR": "192.168.1.66"}, {"REMOTE_ADDR": "192.168.1.67"}]
    wrong = 0
    while now[0] < 1000.0 + 3500:
        waits = []
        for address in guest:
            said = json_of(client.post("/api/pin", json={"pin": "0000"}, environ_base=address))
            wrong += said["error"] == "wrong PIN"
            waits += [int(w) for w in re.findall(r"wait (\d+) s", said["error"])]
        now[0] += max(waits, default=1)
    assert wrong >= 60  # each address had its own lock's worth: the table's never stopped them
    fresh = {"REMOTE_ADDR": "192.168.1.20"}
    assert client.post("/api/pin", json={"pin": "4821"}, environ_base=fresh).status_code == 200
    # This machine needs no PIN, the table's lock or not.
    assert client.post("/api/games", json={"players": ["Ana", "Ben"]}).status_code == 201


def test_the_session_cookie_does_not_carry_the_pin(tmp_path: Path) -> None:
    """The cookie is signed, not encrypted: anyone who saw it read the PIN."""
    import base64

    client = create_app(tmp_path, pin="4821", require_pin=True).test_client()
    with client.session_transaction() as old:  # a phone signed in before the mark
        old["pin"] = "4821"
    assert client.post("/api/pin", json={"pin": "4821"}, environ_base=REMOTE).status_code == 200
    cookie = client.get_cookie("session")
    assert cookie is not None
    payload = cookie.value.lstrip(".").split(".")[0]
    text = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    if cookie.value.startswith("."):  # compressed
        import zlib

        text = zlib.decompress(text)
    assert b"4821" not in text and b"pin_mark" in text
    made = client.post("/api/games", json={"players": ["Ana", "Ben"]}, environ_base=REMOTE)
    assert made.status_code == 201


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "192.168.1.9"])
def test_a_loopback_request_under_a_foreign_host_name_needs_the_pin(
    tmp_path: Path, host: str
) -> None:
    """A web page in a browser on the Pi itself (DNS rebinding) arrives from loopback."""
    client = create_app(tmp_path, pin="4821", require_pin=True).test_client()
    body = {"players": ["Ana", "Ben"]}
    foreign = client.post("/api/games", json=body, headers={"Host": host})
    assert foreign.status_code == 403 and json_of(foreign)["pin"] is True
    for local in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
        assert client.post("/api/games", json=body, headers={"Host": local}).status_code == 201


def test_a_localhost_only_scoreboard_refuses_writes_under_another_name(tmp_path: Path) -> None:
    """Without a PIN (listening on 127.0.0.1) every caller is this machine, but a web page in
    its browser can reach the app under a name of its own (DNS rebinding)."""
    client = create_app(tmp_path).test_client()
    body = {"players": ["Ana", "Ben"]}
    rebound = client.post(
        "/api/games",
        json=body,
        base_url="http://localhost:8000",  # the port it listens on
        headers={"Host": "rebound.example"},
    )
    # A plain refusal: a PIN refusal made the page ask for a PIN there is none of.
    assert rebound.status_code == 400 and "pin" not in rebound.get_json()
    assert json_of(rebound)["error"] == (
        "this scoreboard listens on this machine only: open it as http://localhost:8000/ to "
        "change anything"
    )
    # Nor read: the page could read every game, its exports and its trick images.
    read = client.get("/api/games", headers={"Host": "rebound.example:8000"})
    assert read.status_code == 400 and "open it as http://localhost" in json_of(read)["error"]
    page = client.get("/", headers={"Host": "rebound.example:8000"})
    assert page.status_code == 400 and page.headers["X-Frame-Options"] == "DENY"
    assert client.get("/api/games", headers={"Host": "localhost:8000"}).status_code == 200
    assert (
        client.post("/api/games", json=body, headers={"Host": "localhost:8000"}).status_code == 201
    )


def test_a_closed_page_is_not_said_on_the_terminal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every page closed (a phone locked, the TV's browser reloading) printed "waitress:
    Client disconnected while serving /events" on the terminal the table reads, as if
    something had gone wrong. That message goes; waitress's others stay."""
    import logging
    import socket
    import time

    from skullcam.web.app import make_server
    from skullcam.web.server_thread import PagesThread

    app = create_app(tmp_path, test_config={"SSE_KEEPALIVE_SECONDS": 0.05})
    pages = PagesThread(make_server(app, "127.0.0.1", 0, threads=4))
    pages.start()
    server = pages.server
    streams = app.extensions["skullcam_streams"]
    request = f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{server.effective_port}\r\n\r\n"
    try:
        with caplog.at_level(logging.INFO, logger="waitress"):
            for _ in range(2):
                with socket.create_connection(("127.0.0.1", server.effective_port), 10) as sock:
                    sock.sendall(request.encode())
                    assert sock.recv(64).startswith(b"HTTP/1.1 200")
            # The streams end when the keepalive finds the page gone: then waitress logs it.
            deadline = time.monotonic() + 10
            while streams.open and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not streams.open
            time.sleep(0.2)
            waitress = logging.getLogger("waitress")
            waitress.info("Client disconnected while serving /api/game/1/state")
            waitress.warning("Task queue depth is 4")
    finally:
        pages.close()
    said = [r.getMessage() for r in caplog.records if r.name == "waitress"]
    assert said == ["Client disconnected while serving /api/game/1/state", "Task queue depth is 4"]
