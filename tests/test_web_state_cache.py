"""The game's state, worked out once per change however many pages fetch it (``StateCache``),
and never sent older than the change a page fetches it after."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from flask import Flask
from store_support import plays
from web_support import json_of

from skullcam.store import GameStore


@pytest.fixture
def counted(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The game ids ``store.state`` is asked for, one per time its state is worked out."""
    asked: list[int] = []
    inner = store.state

    def state(game_id: int) -> dict[str, Any]:
        asked.append(game_id)
        return inner(game_id)

    monkeypatch.setattr(store, "state", state)
    return asked


def game_in_round_1(store: GameStore) -> int:
    """Ana, Ben and Cai; round 1's bids entered, its one trick not played."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [0, 1, 0])
    return gid


def test_pages_fetching_after_one_change_share_one_state(
    app: Flask, store: GameStore, counted: list[int]
) -> None:
    gid = game_in_round_1(store)
    tv, phone = app.test_client(), app.test_client()
    assert json_of(tv.get("/api/tv/state"))["bids"] == [0, 1, 0]
    assert json_of(phone.get(f"/api/game/{gid}/state"))["bids"] == [0, 1, 0]
    assert counted == [gid]

    res = phone.post(f"/api/game/{gid}/bids", json={"round": 1, "player": 0, "bid": 1})
    assert res.status_code == 200
    # Both pages see the change, though nothing else happened since the state was kept.
    assert json_of(tv.get("/api/tv/state"))["bids"] == [1, 1, 0]
    assert json_of(phone.get(f"/api/game/{gid}/state"))["bids"] == [1, 1, 0]
    assert counted == [gid, gid]


def test_a_change_with_no_event_is_seen_too(
    app: Flask, store: GameStore, counted: list[int]
) -> None:
    """Another program writing the database without an event (here the camera's notice, as
    a plain SQL write) still makes the next fetch work the state out again."""
    gid = game_in_round_1(store)
    page = app.test_client()
    assert json_of(page.get(f"/api/game/{gid}/state"))["camera_notice"] is None
    events = store.last_event_id()
    with sqlite3.connect(store.path) as other:
        other.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('camera_notice', ?)",
            ('{"why": "frozen"}',),
        )
    assert store.last_event_id() == events
    assert json_of(page.get(f"/api/game/{gid}/state"))["camera_notice"] == {"why": "frozen"}
    assert counted == [gid, gid]


def test_each_language_gets_the_state_in_its_own_words(
    app: Flask, store: GameStore, counted: list[int]
) -> None:
    gid = game_in_round_1(store)
    store.record_trick(gid, 1, 0, plays((0, "green-5"), (1, "green-9"), (2, "green-2")))
    page = app.test_client()
    english = json_of(page.get(f"/api/game/{gid}/state?lang=en"))["last_trick"]["why"]
    spanish = json_of(page.get(f"/api/game/{gid}/state?lang=es"))["last_trick"]["why"]
    again = json_of(page.get(f"/api/game/{gid}/state?lang=en"))["last_trick"]["why"]
    assert english != spanish and again == english
    assert counted == [gid, gid]


def test_a_game_that_is_not_there_is_still_refused(app: Flask, store: GameStore) -> None:
    page = app.test_client()
    assert page.get("/api/game/999/state").status_code == 404
    gid = game_in_round_1(store)
    assert page.get(f"/api/game/{gid}/state").status_code == 200
