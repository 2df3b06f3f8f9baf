"""Reading the table app's answers in Flask test-client tests, and games they read."""

from __future__ import annotations

import re
from typing import Any

from store_support import plays
from werkzeug.test import TestResponse

from skullcam.store import GameStore


def json_of(res: TestResponse) -> Any:
    """The response's JSON body. ``TestResponse.json`` is ``Any | None`` (None when the answer is
    not JSON): this fails the test there, with what came back, instead of a ``None[...]``."""
    body = res.json
    assert body is not None, f"not a JSON answer ({res.status}): {res.data[:200]!r}"
    return body


def overlay_labels(page: str) -> list[str]:
    """The replay page's labels over its picture, each as it reads, its lines joined by " / ":
    its markup (the winner's star) left out, its spaces collapsed."""
    return [
        " / ".join(
            " ".join(re.sub(r"<[^>]*>", "", line).split())
            for line in re.split(r'<tspan class="line"[^>]*>', label)
            if line.strip()
        )
        for label in re.findall(r"<text [^>]*>(.*?)</text>", page, re.S)
    ]


def game_with_round_2_led_by_the_read_winner(store: GameStore) -> int:
    """Ana, Ben and Cai (dealer Ana), two rounds. Round 2's first trick is read as Cai's
    green-5, Ana's green-9 and Ben's green-2, so Ana wins it and leads the second. Correcting
    Ben's card (play 2 of round 2, trick 0) to ``tigress:pirate`` makes him that trick's
    winner, who by the rules should have led the trick the table has already played: a dispute
    settled after the fact."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    store.set_bids(gid, 2, [0, 2, 0])
    store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-9"), (1, "green-2")))
    store.record_trick(gid, 2, 1, plays((0, "yellow-3"), (1, "yellow-7"), (2, "yellow-1")))
    return gid


def page_client(app: Any) -> Any:
    """A test client of the enrollment page that says, as the page's script does, that its
    posts come from the page (a cross-site form or beacon cannot)."""
    client = app.test_client()
    client.environ_base["HTTP_X_SKULLCAM_PAGE"] = "enroll"
    return client
