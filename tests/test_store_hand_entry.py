"""A trick entered by hand: the camera missed it, or the table has none. It goes into the
game's next slot only, in play order from the rules' leader, and the record stays scoreable."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from store_support import hand, plays
from web_support import json_of, overlay_labels

from skullcam.errors import UserError
from skullcam.rules import Kind
from skullcam.rules.cards import EXPANSION_SETTINGS
from skullcam.store import GameStore, trick_moves
from skullcam.store.abilities import CARRIED_OVER


@pytest.fixture
def hand_store(tmp_path: Path) -> Iterator[GameStore]:
    s = GameStore(tmp_path / "data")
    yield s
    s.close()


def ready(round_number: int, trick: int, order: list[int]) -> dict[str, object]:
    """``next_trick`` for a trick whose leader is known: its place and play order."""
    return {
        "round": round_number,
        "trick": trick,
        "order": order,
        "waits_on": None,
        "waits_for": None,
    }


def three_players(store: GameStore, settings: dict | None = None) -> int:
    """Ana, Ben and Cai, Ana dealing: Ben leads round 1, Cai round 2."""
    return store.create_game(["Ana", "Ben", "Cai"], 0, settings or {})


def test_a_whole_game_entered_by_hand_scores_as_the_rules_say(hand_store: GameStore) -> None:
    gid = three_players(hand_store, {"rounds": 2})
    hand_store.set_bids(gid, 1, [0, 1, 0])
    assert hand_store.next_trick(gid) == ready(1, 0, [1, 2, 0])
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    # Cai won with the 9, but a round is led by the player left of its dealer: Ben deals
    # round 2, so Cai leads it.
    assert hand_store.next_trick(gid) == ready(2, 0, [2, 0, 1])
    hand_store.set_bids(gid, 2, [1, 0, 1])
    hand_store.enter_trick(gid, 2, 0, hand((2, "yellow-3"), (0, "yellow-8"), (1, "yellow-1")))
    assert hand_store.next_trick(gid) == ready(2, 1, [0, 1, 2])
    hand_store.enter_trick(gid, 2, 1, hand((0, "purple-2"), (1, "escape"), (2, "skull-king")))
    assert hand_store.next_trick(gid) is None
    assert hand_store.game(gid).status == "finished"
    score = hand_store.score(gid)
    assert score["ok"], score
    # Round 1: Ana 0 made (+10), Ben 1 missed (-10), Cai 0 missed (-10).
    # Round 2: Ana 1 made (+20), Ben 0 made (+20), Cai 1 made (+20).
    assert score["score"]["totals"] == [30, 10, 10]
    tricks = hand_store.tricks(gid)
    assert all(t.detections == {"source": "hand"} for t in tricks)
    assert all(t.completion_image is None for t in tricks)
    assert hand_store.table_changes_since(gid, 0)[0]  # a camera following it would see


def test_it_goes_after_the_cameras_tricks_and_is_audited(hand_store: GameStore) -> None:
    gid = three_players(hand_store)
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    changed, seen = hand_store.table_changes_since(gid, 0)
    assert not changed  # the camera's trick is not the table's change
    trick = hand_store.enter_trick(
        gid, 2, 0, hand((2, "black-3"), (0, "black-9"), (1, "escape")), note="camera off"
    )
    assert (trick.round, trick.trick) == (2, 0)
    assert [p["player"] for p in trick.plays] == [2, 0, 1]
    assert trick.original_plays == trick.plays  # what the table said is what was recorded
    assert hand_store.table_changes_since(gid, seen) == (True, hand_store.last_event_id())
    (entry,) = hand_store.audit(gid, trick.id)
    assert entry.kind == "hand"
    assert entry.note == "camera off"
    assert entry.after == {"plays": hand((2, "black-3"), (0, "black-9"), (1, "escape"))}


def test_only_the_next_trick_can_be_entered(hand_store: GameStore) -> None:
    gid = three_players(hand_store)
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    # The page showed round 1's trick, and the camera recorded it meanwhile: with the same
    # cards, nothing is lost; with another card, the page is told which, to check it.
    with pytest.raises(UserError, match=r"round 1 trick 1 was recorded meanwhile .* same cards"):
        hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "green-1")))
    with pytest.raises(
        UserError,
        match=r"round 1 trick 1 was recorded meanwhile .* with Cai's green-9, where this page"
        r" has green-10: check that trick",
    ):
        hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-10"), (0, "green-1")))
    # Plays no page sends (a card short): the slot is named, as for any other trick that is
    # not the next.
    with pytest.raises(UserError, match="round 1 trick 1 is not the next trick to enter: round 2"):
        hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9")))
    with pytest.raises(UserError, match="round 2 trick 2 is not the next"):
        hand_store.enter_trick(gid, 2, 1, hand((2, "black-3"), (0, "black-9"), (1, "escape")))
    assert len(hand_store.tricks(gid)) == 1


def test_the_last_trick_or_a_short_one_recorded_meanwhile_is_named(
    hand_store: GameStore,
) -> None:
    """Was: the last trick, recorded by the camera as a phone entered it, ended the game, and
    the phone heard "game 1 is finished" whatever the cards; a camera's trick a card short
    was "not the next trick"."""
    gid = three_players(hand_store, {"rounds": 1})
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    assert hand_store.game(gid).status == "finished"
    with pytest.raises(UserError, match=r"with Cai's green-9, where this page has green-10"):
        hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-10"), (0, "green-1")))
    with pytest.raises(UserError, match=r"meanwhile .* with these same cards"):
        hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "green-1")))
    short = three_players(hand_store, {"rounds": 2})
    hand_store.record_trick(short, 1, 0, plays((1, "green-5"), (2, "green-9")))
    with pytest.raises(
        UserError, match=r"by the camera without Ana's card: add green-1 there with \"Add the"
    ):
        hand_store.enter_trick(short, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "green-1")))
    assert len(hand_store.tricks(short)) == 1


def test_plays_go_clockwise_from_the_rules_leader(hand_store: GameStore) -> None:
    gid = three_players(hand_store)
    with pytest.raises(UserError, match="round 1 trick 1 is led by Ben, the player left of"):
        hand_store.enter_trick(gid, 1, 0, hand((0, "green-5"), (1, "green-9"), (2, "escape")))
    with pytest.raises(UserError, match="one card per player"):
        hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9")))
    assert hand_store.tricks(gid) == []


def test_a_card_the_round_used_up_is_refused(hand_store: GameStore) -> None:
    gid = three_players(hand_store)
    hand_store.set_bids(gid, 1, [0, 0, 1])
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    hand_store.enter_trick(gid, 2, 0, hand((2, "black-3"), (0, "black-9"), (1, "escape")))
    with pytest.raises(UserError, match=r"black-9 was already played in round 2.*Cai really"):
        hand_store.enter_trick(gid, 2, 1, hand((0, "green-1"), (1, "green-2"), (2, "black-9")))
    # Escapes come five to a deck: a second one in the round is fine.
    hand_store.enter_trick(gid, 2, 1, hand((0, "green-1"), (1, "escape"), (2, "green-3")))
    with pytest.raises(UserError, match="choose tigress:pirate or tigress:escape"):
        hand_store.enter_trick(gid, 3, 0, hand((0, "tigress"), (1, "green-2"), (2, "green-3")))


def test_the_leader_must_be_known(hand_store: GameStore) -> None:
    gid = three_players(hand_store, {"rounds": 3})
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    hand_store.record_trick(gid, 2, 0, plays((2, "black-3"), (0, "black-9")))  # a card missed
    assert hand_store.next_trick(gid) == {
        "round": 2,
        "trick": 1,
        "order": [],
        "waits_on": 0,
        "waits_for": "winner",
    }
    with pytest.raises(UserError, match="round 2 trick 2 is not known yet: trick 1 of the round"):
        hand_store.enter_trick(gid, 2, 1, hand((0, "green-1"), (1, "green-2"), (2, "green-3")))
    hand_store.add_play(gid, 2, 0, 1, "black-1")
    assert hand_store.next_trick(gid) == ready(2, 1, [0, 1, 2])


def test_a_pirate_choice_is_asked_as_for_a_cameras_trick(hand_store: GameStore) -> None:
    gid = three_players(hand_store, {"pirate_abilities": True})
    hand_store.set_bids(gid, 1, [0, 1, 0])
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    hand_store.enter_trick(gid, 2, 0, hand((2, "green-3"), (0, "pirate-rascal"), (1, "green-2")))
    asked = [(p.kind, p.round, p.trick, p.player) for p in hand_store.prompts(gid)]
    assert asked == [("rascal_bet", 2, 0, 0)]


def test_a_missed_trick_goes_before_the_one_the_camera_filed_in_its_place(
    hand_store: GameStore,
) -> None:
    """The camera missed round 2's first trick and filed the second in its place, led by the
    wrong player; the missed trick entered before it moves it up, its pirate's bet with it."""
    gid = three_players(hand_store, {"pirate_abilities": True})
    hand_store.set_bids(gid, 1, [0, 0, 1])
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    hand_store.set_bids(gid, 2, [1, 1, 0])
    # Really: Cai leads yellow-5, Ana's 9 wins; then Ana leads and Ben's Rascal wins.
    second = plays((0, "green-3"), (1, "pirate-rascal"), (2, "green-2"))
    flag = "Ana led, but the game expected Cai to lead"
    asks = [("flagged", None, {"flags": [flag]})]  # as the camera asks
    hand_store.record_trick(gid, 2, 0, second, flags=[flag], asks=asks)
    hand_store.choose_ability(gid, 2, 0, 10)  # Ben's bet, answered on the misfiled trick
    warned = hand_store.score(gid)["score"]["warnings"]
    assert warned and "Ana led, but by the rules Cai leads it" in warned[0]
    with pytest.raises(UserError, match="round 2 trick 1 is led by Cai, the player left of"):
        hand_store.insert_trick(gid, 2, 0, hand((0, "yellow-9"), (1, "yellow-1"), (2, "yellow-5")))
    hand_store.insert_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")))
    tricks = hand_store.tricks(gid, 2)
    assert [(t.trick, t.plays[0]["card"]) for t in tricks] == [(0, "yellow-5"), (1, "green-3")]
    moved = [{"id": tricks[1].id, "from": [2, 0], "to": [2, 1], "flags": [flag]}]
    assert tricks[0].detections == {"source": "hand", "moved": moved}
    assert hand_store.abilities(gid, 2) == [{"trick": 1, "pirate": "pirate-rascal", "choice": 10}]
    asked = [(p.kind, p.round, p.trick) for p in hand_store.prompts(gid, status=None)]
    assert asked == [("flagged", 2, 1), ("rascal_bet", 2, 1)]
    score = hand_store.score(gid)
    assert score["ok"] and score["score"].get("warnings", []) == []
    # Round 1: Ana 0 made +10, Ben 0 made +10, Cai 1 made +20. Round 2: Ana 1 made +20, Ben
    # 1 made +20 and Rascal's bet of 10 won, Cai 0 made +20.
    assert score["score"]["totals"] == [30, 40, 40]
    assert (
        hand_store.game(gid).status == "finished"
        or hand_store.next_trick(gid) is None
        or (
            hand_store.next_trick(gid)["round"] == 3  # type: ignore[index]
        )
    )


def test_a_missed_trick_moves_the_tricks_after_it_over_the_rounds_end(
    hand_store: GameStore,
) -> None:
    """The camera missed round 2's first trick and filed every later one a place early:
    round 3's first trick on round 2's last place. Entering the missed trick puts each back,
    drops the doubts the misfiling raised and Rosie's choice on the round's last trick, and
    the game ends on its last trick."""
    gid = three_players(hand_store, {"rounds": 3, "pirate_abilities": True})
    hand_store.set_bids(gid, 1, [0, 0, 1])
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    hand_store.set_bids(gid, 2, [1, 1, 0])
    hand_store.set_bids(gid, 3, [0, 2, 1])
    # Really: round 2 Cai leads the yellows (Ana's 9 wins), then Ana leads and Ben's Rosie wins
    # the round's last trick; round 3 Ana leads the blacks (Ben wins), Ben the purples (Cai
    # wins), Cai the yellows (Ben wins).
    misfiled = [
        ((2, 0), plays((0, "green-3"), (1, "pirate-rosie"), (2, "green-2")), "Ana", "Cai"),
        ((2, 1), plays((0, "black-5"), (1, "black-9"), (2, "black-1")), "Ana", "Ben"),
        ((3, 0), plays((1, "purple-3"), (2, "purple-7"), (0, "purple-1")), "Ben", "Ana"),
        ((3, 1), plays((2, "yellow-2"), (0, "yellow-3"), (1, "yellow-4")), None, None),
    ]
    for (r, t), cards, first, expected in misfiled:
        flags = [f"{first} led, but the game expected {expected} to lead"] if first else []
        hand_store.record_trick(gid, r, t, cards, flags=flags)
        if flags:
            hand_store.create_prompt(gid, "flagged", r, t, payload={"flags": flags})
        if (r, t) == (2, 0):
            hand_store.choose_ability(gid, 2, 0, 1)  # Rosie: Ben leads next, as asked
    assert hand_store.game(gid).status == "active"
    offer = hand_store.missed_before(gid, 2, 0)
    assert offer is not None and offer["order"] == [2, 0, 1]
    assert offer["crosses"] == {"round": 2, "trick": 1, "to_round": 3, "to_trick": 0}

    hand_store.insert_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")))

    placed = [(t.round, t.trick, t.plays[0]["card"], t.flags) for t in hand_store.tricks(gid)]
    assert placed == [
        (1, 0, "green-5", []),
        (2, 0, "yellow-5", []),
        (2, 1, "green-3", []),
        (3, 0, "black-5", []),
        (3, 1, "purple-3", []),
        (3, 2, "yellow-2", []),
    ]
    assert hand_store.abilities(gid, 2) == []  # Rosie on the round's last trick: no choice
    assert hand_store.prompts(gid) == []  # the phones no longer ask about the misfiled ones
    assert hand_store.game(gid).status == "finished"
    score = hand_store.score(gid)
    assert score["ok"] and score["score"].get("warnings", []) == [], score
    # Round 1: Ana 0 +10, Ben 0 +10, Cai 1 +20. Round 2: Ana 1 +20, Ben 1 +20, Cai 0 +20.
    # Round 3: Ana 0 +30, Ben 2 +40, Cai 1 +20.
    assert score["score"]["totals"] == [60, 70, 60]


def test_a_card_flagged_as_played_twice_loses_the_flag_in_its_new_round(
    hand_store: GameStore,
) -> None:
    """The camera missed round 2's last trick and filed round 3's first in its place, where
    its Parrot 9 was flagged "already played this round" (Ana's, in round 2's first trick).
    Entering the missed trick moves it into round 3, a new deal: the flag was stale there and
    the phones went on asking the table to confirm it (an 8-player game night, round 5)."""
    gid = three_players(hand_store, {"rounds": 3})
    hand_store.set_bids(gid, 1, [0, 0, 1])
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-8"), (0, "escape")))
    hand_store.set_bids(gid, 2, [1, 1, 0])
    hand_store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-9"), (1, "green-2")))
    # Round 3's first trick, led by Ana (round 3's leader, and the winner of the trick before).
    flag = "green-9 already played this round"
    asks = [("flagged", None, {"flags": [flag]})]  # as the camera asks
    cards = plays((0, "green-9"), (1, "green-3"), (2, "green-1"))
    hand_store.record_trick(gid, 2, 1, cards, flags=[flag], asks=asks)

    hand_store.insert_trick(gid, 2, 1, hand((0, "yellow-5"), (1, "yellow-9"), (2, "yellow-1")))

    moved = hand_store.trick(gid, 3, 0)
    assert (moved.plays[0]["card"], moved.flags) == ("green-9", [])
    assert hand_store.prompts(gid) == []  # nothing left to confirm
    # Taken back, the trick returns to round 2 with its doubt, asked again.
    hand_store.remove_hand_trick(gid, 2, 1)
    assert hand_store.trick(gid, 2, 1).flags == [flag]
    assert [(p.kind, p.round, p.trick) for p in hand_store.prompts(gid)] == [("flagged", 2, 1)]


def test_rosie_moved_off_a_rounds_last_trick_is_asked_who_leads(hand_store: GameStore) -> None:
    """Round 1's only trick missed: round 2's first, won by Rosie, was filed as round 1's
    (its last trick: no choice asked). Moved to round 2, her choice is asked, and meanwhile
    read from who led the trick after it (Ben): that trick's doubt is settled, and the question
    stays open for the table to confirm."""
    gid = three_players(hand_store, {"rounds": 2, "pirate_abilities": True})
    hand_store.set_bids(gid, 1, [0, 0, 1])
    hand_store.set_bids(gid, 2, [1, 0, 1])
    flag = "Cai led, but the game expected Ben to lead"
    hand_store.record_trick(
        gid, 1, 0, plays((2, "green-3"), (0, "pirate-rosie"), (1, "green-2")), flags=[flag]
    )
    ben_led = "Ben led, but the game expected Cai to lead"  # round 2 as the camera saw it
    hand_store.record_trick(
        gid, 2, 0, plays((1, "black-5"), (2, "black-9"), (0, "black-1")), flags=[ben_led]
    )
    hand_store.create_prompt(gid, "flagged", 2, 0, payload={"flags": [ben_led]})
    hand_store.insert_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    asked = {(p.kind, p.round, p.trick, p.player) for p in hand_store.prompts(gid)}
    assert asked == {("rosie", 2, 0, 0)}
    assert hand_store.trick(gid, 2, 0).flags == []  # Cai leads round 2, as the rules say
    assert hand_store.trick(gid, 2, 1).flags == []  # Ben led it: Rosie's choice
    assert hand_store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 1}]
    assert hand_store.game(gid).status == "finished"
    rosie = next(p for p in hand_store.prompts(gid) if p.kind == "rosie")
    hand_store.answer_prompt(rosie.id, 1)  # Ana's Rosie: Ben leads next, as he did
    assert hand_store.prompts(gid) == []
    score = hand_store.score(gid)
    assert score["ok"] and score["score"].get("warnings", []) == [], score
    assert score["score"]["totals"] == [30, 30, 40]


def test_a_lead_doubt_names_the_leader_rosies_choice_expects_now(hand_store: GameStore) -> None:
    """Rosie's choice changed from Ben to Ana: the doubt on the trick Cai led says "expected
    Ana" (it said Ben, which no longer held); changed to Cai, it is settled."""
    gid = three_players(hand_store, {"rounds": 2, "pirate_abilities": True})
    hand_store.set_bids(gid, 2, [1, 0, 1])
    hand_store.record_trick(gid, 2, 0, plays((2, "green-3"), (0, "pirate-rosie"), (1, "green-2")))
    hand_store.choose_ability(gid, 2, 0, 1)
    doubt = "Cai led, but the game expected Ben to lead"
    hand_store.record_trick(
        gid, 2, 1, plays((2, "black-5"), (0, "black-9"), (1, "black-1")), flags=[doubt, "x"]
    )
    hand_store.create_prompt(gid, "flagged", 2, 1, payload={"flags": [doubt]})
    hand_store.choose_ability(gid, 2, 0, 0)
    assert hand_store.trick(gid, 2, 1).flags == ["Cai led, but the game expected Ana to lead", "x"]
    hand_store.choose_ability(gid, 2, 0, 2)
    assert hand_store.trick(gid, 2, 1).flags == ["x"]


def misfiled_over_a_rounds_end(store: GameStore, rounds: int = 2) -> int:
    """Round 1's only trick missed: round 2's first was filed as round 1's (flagged), round
    2's second as its first; the game (2 rounds) waits for a trick that was never played."""
    gid = three_players(store, {"rounds": rounds})
    store.set_bids(gid, 1, [0, 0, 1])
    store.set_bids(gid, 2, [1, 1, 0])
    flag = "Cai led, but the game expected Ben to lead"
    store.record_trick(
        gid, 1, 0, plays((2, "green-3"), (0, "green-8"), (1, "green-2")), flags=[flag]
    )
    store.record_trick(gid, 2, 0, plays((0, "black-5"), (1, "black-9"), (2, "black-1")))
    return gid


def places(store: GameStore, gid: int) -> list[tuple[int, int, str]]:
    return [(t.round, t.trick, t.plays[0]["card"]) for t in store.tricks(gid)]


def test_a_trick_inserted_in_the_wrong_place_is_taken_back(hand_store: GameStore) -> None:
    gid = misfiled_over_a_rounds_end(hand_store)
    before = places(hand_store, gid)
    # The table inserts round 1's missed trick before round 2's first recorded one, not
    # before round 1's: the wrong place.
    hand_store.insert_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")))
    assert hand_store.game(gid).status == "finished"  # its move filled the game's last place
    removed = hand_store.remove_hand_trick(gid, 2, 0, note="wrong place")
    assert removed == {
        "round": 2,
        "trick": 0,
        "plays": hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")),
        "moved_back": 1,
        "camera_kept": False,
    }
    assert places(hand_store, gid) == before
    assert hand_store.game(gid).status == "active"  # the game it finished is open again
    entry = [c for c in hand_store.audit(gid) if c.kind == "removed"]
    assert len(entry) == 1 and entry[0].before["plays"] == removed["plays"]
    assert entry[0].note == "wrong place" and entry[0].trick_id is None
    # Now in the right place: before round 1's trick, which moves into round 2.
    hand_store.insert_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    assert places(hand_store, gid) == [(1, 0, "green-5"), (2, 0, "green-3"), (2, 1, "black-5")]
    # Round 1: Cai's 9 wins (Ana 0 +10, Ben 0 +10, Cai 1 +20); round 2: Ana and Ben one each
    # (Ana 1 +20, Ben 1 +20, Cai 0 +20).
    assert hand_store.score(gid)["score"]["totals"] == [30, 30, 40]
    # A second phone sending the same trick is told it is in, not that its cards are used.
    with pytest.raises(UserError, match=r"round 1 trick 1 was recorded meanwhile .* same cards"):
        hand_store.insert_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    # Taken back, the moved trick's doubt comes back with it: the way to its missed trick.
    assert hand_store.trick(gid, 2, 0).flags == []
    hand_store.remove_hand_trick(gid, 1, 0)
    assert hand_store.trick(gid, 1, 0).flags == ["Cai led, but the game expected Ben to lead"]
    assert [(p.kind, p.round, p.trick) for p in hand_store.prompts(gid)] == [("flagged", 1, 0)]


def rosie_chose_then_a_trick_went_in_before_her(store: GameStore) -> int:
    """Ana's Rosie won round 2's first trick and Ana chose Ben to lead next; then a trick
    was inserted before it by mistake, moving it onto round 2's last place."""
    gid = three_players(store, {"rounds": 2, "pirate_abilities": True})
    store.set_bids(gid, 1, [0, 0, 1])
    store.set_bids(gid, 2, [1, 0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    store.record_trick(gid, 2, 0, plays((2, "green-3"), (0, "pirate-rosie"), (1, "green-2")))
    store.choose_ability(gid, 2, 0, 1)
    store.insert_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")))
    return gid


def test_each_moved_trick_says_so_in_its_history_and_why_its_choice_went(
    hand_store: GameStore,
) -> None:
    gid = rosie_chose_then_a_trick_went_in_before_her(hand_store)
    moved = hand_store.trick(gid, 2, 1)
    assert moved.plays[1]["card"] == "pirate-rosie"
    assert hand_store.abilities(gid, 2) == []  # the round's last trick: Rosie has no choice
    history = [(c.kind, c.before, c.after, c.note) for c in hand_store.audit(gid, moved.id)]
    assert history[1:] == [
        (
            "moved",
            {"round": 2, "trick": 0},
            {"round": 2, "trick": 1},
            "moved one place on: the missed trick was entered by hand as round 2 trick 1",
        ),
        (
            "ability",
            {"trick": 1, "pirate": "pirate-rosie", "choice": 1, "player": 0},
            None,
            "round 2 trick 2 is now the round's last: pirate-rosie's choice no longer counts",
        ),
    ]
    assert history[0][0] == "choice"  # Ana's choice, made before the move
    # The inserted trick itself has its own entry, and nothing about moving.
    inserted = hand_store.trick(gid, 2, 0)
    assert [c.kind for c in hand_store.audit(gid, inserted.id)] == ["hand"]


def test_taking_the_insert_back_moves_the_trick_back_with_its_choice(
    hand_store: GameStore,
) -> None:
    """The choice the table made comes back with its trick, not asked a second time."""
    gid = rosie_chose_then_a_trick_went_in_before_her(hand_store)
    hand_store.remove_hand_trick(gid, 2, 0)
    back = hand_store.trick(gid, 2, 0)
    assert back.plays[1]["card"] == "pirate-rosie"
    assert hand_store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 1}]
    assert [p.kind for p in hand_store.prompts(gid)] == []
    last = [(c.kind, c.before, c.after, c.note) for c in hand_store.audit(gid, back.id)][-2:]
    assert last == [
        (
            "moved",
            {"round": 2, "trick": 1},
            {"round": 2, "trick": 0},
            "moved back: the trick entered by hand as round 2 trick 1 was taken back",
        ),
        (
            "choice",
            None,
            {"pirate": "pirate-rosie", "choice": 1},
            "restored: it counts again at round 2 trick 1",
        ),
    ]


def test_the_choice_restored_is_the_one_the_last_move_dropped(hand_store: GameStore) -> None:
    gid = rosie_chose_then_a_trick_went_in_before_her(hand_store)
    hand_store.remove_hand_trick(gid, 2, 0)
    hand_store.choose_ability(gid, 2, 0, 2)  # Ana changes her mind: Cai leads next
    hand_store.insert_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")))
    hand_store.remove_hand_trick(gid, 2, 0)
    assert hand_store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 2}]


def test_harrys_change_moved_into_a_round_where_it_does_not_fit_is_asked_again(
    hand_store: GameStore,
) -> None:
    """Round 1's trick missed: Ana's Harry (+1 on her bid of 0, filed in round 2) really won
    round 3's first trick, where she bid 3 of 3. Kept, +1 would stop the whole score."""
    gid = three_players(hand_store, {"rounds": 3, "pirate_abilities": True})
    for r, bids in ((1, [0, 0, 1]), (2, [0, 2, 0]), (3, [3, 0, 0])):
        hand_store.set_bids(gid, r, bids)
    flag = "Cai led, but the game expected Ben to lead"
    hand_store.record_trick(
        gid, 1, 0, plays((2, "green-3"), (0, "green-8"), (1, "green-2")), flags=[flag]
    )
    hand_store.record_trick(gid, 2, 0, plays((0, "black-5"), (1, "black-9"), (2, "black-1")))
    hand_store.record_trick(gid, 2, 1, plays((1, "yellow-3"), (2, "yellow-4"), (0, "pirate-harry")))
    hand_store.choose_ability(gid, 2, 1, 1)
    hand_store.insert_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    harry = hand_store.trick(gid, 3, 0)
    assert harry.plays[2]["card"] == "pirate-harry"
    assert hand_store.abilities(gid, 3) == []
    assert hand_store.score(gid)["ok"]
    asked = [(p.kind, p.round, p.trick, p.player) for p in hand_store.prompts(gid)]
    assert ("harry", 3, 0, 0) in asked
    dropped = hand_store.audit(gid, harry.id)[-1]
    assert (dropped.kind, dropped.before["choice"]) == ("ability", 1)
    assert (
        dropped.note
        == "moved to round 3: pirate-harry's change no longer fits the winner's bid there"
    )
    # Taken back, the trick is round 2's again, where +1 fits: the change comes back.
    hand_store.remove_hand_trick(gid, 1, 0)
    assert hand_store.abilities(gid, 2) == [{"trick": 1, "pirate": "pirate-harry", "choice": 1}]
    assert not [p for p in hand_store.prompts(gid) if p.kind == "harry"]


def test_the_replay_page_reads_a_moved_tricks_history_in_the_tables_language(
    client: FlaskClient, store: GameStore
) -> None:
    gid = rosie_chose_then_a_trick_went_in_before_her(store)

    def history(lang: str) -> str:
        page = client.get(f"/game/{gid}/round/2/trick/1?lang={lang}").get_data(as_text=True)
        listed = page[page.index('id="audit"') : page.index("</ol>", page.index('id="audit"'))]
        return " ".join(html.unescape(re.sub("<[^>]+>", " ", listed)).split())

    audit = history("en")
    assert "moved from round 2 trick 1 to round 2 trick 2" in audit
    assert "(moved one place on: the missed trick was entered by hand as round 2 trick 1)" in audit
    assert "is now the round's last: Rosie D' Laney's choice no longer counts" in audit
    audit = history("es")
    assert "movida de la baza 1 de la ronda 2 a la baza 2 de la ronda 2" in audit
    assert "(adelantada un puesto: la baza que faltaba se anotó a mano como baza 1" in audit
    assert "la baza 2 es ahora la última de la ronda 2: la elección de" in audit
    audit = history("it")
    assert "spostata: era la presa 1 del round 2, ora è la presa 2 del round 2" in audit
    assert "la presa 2 ora è l'ultima del round 2: la scelta di Rosie D'Laney" in audit


def test_the_tricks_page_keeps_a_trick_taken_back_in_the_games_history(
    client: FlaskClient, store: GameStore
) -> None:
    """Its cards are on no trick's page any more: the game's history lists them (between
    the game's end the insert made and its reopening)."""
    gid = misfiled_over_a_rounds_end(store)
    store.insert_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")))
    store.remove_hand_trick(gid, 2, 0, note="wrong place")
    page = client.get(f"/game/{gid}/tricks?lang=en").get_data(as_text=True)
    listed = re.search(r'<ol class="audit" id="game-changes">(.*?)</ol>', page, re.S)
    assert listed is not None
    text = " ".join(re.sub("<[^>]+>", " ", listed.group(1)).split())
    assert text == (
        "Game finished by its last trick after round 2 "
        "Round 2 · Trick 1, entered by hand, taken back: "
        "Cai Treasure Chest 5, Ana Treasure Chest 9, Ben Treasure Chest 1 (wrong place) "
        "Game reopened by a trick taken back during round 2, after trick 1"
    )


def test_a_trick_entered_by_hand_frees_its_place_when_removed(hand_store: GameStore) -> None:
    gid = three_players(hand_store, {"pirate_abilities": True})
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    hand_store.enter_trick(gid, 2, 0, hand((2, "green-3"), (0, "pirate-rascal"), (1, "green-2")))
    assert [p.kind for p in hand_store.prompts(gid)] == ["rascal_bet"]
    before = hand_store.last_event_id()
    hand_store.remove_hand_trick(gid, 2, 0)
    assert hand_store.prompts(gid) == []  # its question went with it
    assert hand_store.next_trick(gid) == ready(2, 0, [2, 0, 1])
    assert hand_store.table_changes_since(gid, before)[0]  # the camera sees it


def pictured_entry(
    store: GameStore, gid: int, place: tuple[int, int], entered: list, seen: list
) -> list[Path]:
    """A trick entered by hand at ``place`` a moment before the camera completed it, reading
    ``seen``: the camera's two pictures on disk, named by the place as the recorder names
    them, and kept with the entry as the recorder keeps them. Returns the pictures."""
    r, t = place
    folder = store.game_dir(gid)
    images = [folder / f"r{r:02d}t{t:02d}.jpg", folder / f"r{r:02d}t{t:02d}-boxes.jpg"]
    for image in images:
        image.write_bytes(b"jpeg")
    if entered:
        store.enter_trick(gid, r, t, entered)
    camera = {"source": "table.mp4", "image_size": [640, 480], "cards": [], "frame_index": 70}
    store.keep_camera_reading(
        gid,
        r,
        t,
        seen,
        completion_image=images[0],
        annotated_image=images[1],
        detections=camera,
        model_version="m1",
    )
    return images


def test_taking_back_a_hand_entry_the_camera_completed_too_leaves_the_cameras_trick(
    hand_store: GameStore,
) -> None:
    """The table typed Ana's green-8 where the camera, completing the trick a moment later,
    read green-9; the table takes its entry back. The entry went, and with it the only trick
    of that place: the camera, past it, never records it again, so the table had to type it
    in a second time, while the camera's pictures stayed in games/<id>/ with no trick
    referring to them. The camera's trick, as the camera gave it, now holds the place."""
    gid = three_players(hand_store)
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    seen = plays((2, "green-3"), (0, "green-9"), (1, "green-2"))
    images = pictured_entry(
        hand_store, gid, (2, 0), hand((2, "green-3"), (0, "green-8"), (1, "green-2")), seen
    )
    assert [p.kind for p in hand_store.prompts(gid)] == ["flagged"]  # the camera's doubt
    removed = hand_store.remove_hand_trick(gid, 2, 0)
    assert removed["camera_kept"] is True and removed["moved_back"] == 0
    kept = hand_store.trick(gid, 2, 0)
    assert not kept.by_hand and kept.detections["source"] == "table.mp4"
    assert kept.detections["frame_index"] == 70 and "camera_plays" not in kept.detections
    assert [(p["player"], p["card"], p["confidence"]) for p in kept.plays] == [
        (2, "green-3", 0.9),
        (0, "green-9", 0.9),
        (1, "green-2", 0.9),
    ]
    assert kept.resolution["winner"] == 1 and kept.model_version == "m1"  # Ana's green-9
    assert [hand_store.image_path(i) for i in (kept.completion_image, kept.annotated_image)] == (
        images
    )
    assert all(image.is_file() for image in images)
    assert not kept.flags and hand_store.prompts(gid) == []  # the doubt was the entry's
    assert hand_store.next_trick(gid) == ready(2, 1, [0, 1, 2])  # Ana won: she leads
    (audit,) = [c for c in hand_store.audit(gid) if c.kind == "removed"]
    assert [p["card"] for p in audit.before["plays"]] == ["green-3", "green-8", "green-2"]
    assert [p["card"] for p in audit.before["camera_plays"]] == ["green-3", "green-9", "green-2"]


def rascal_entry_answered(store: GameStore, seen: list) -> int:
    """Round 2's trick 1 entered by hand, Ana's Rascal winning it, her bet answered (10),
    and the camera's copy of it reading ``seen``, kept with the entry."""
    gid = three_players(store, {"pirate_abilities": True})
    store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    entered = hand((2, "green-3"), (0, "pirate-rascal"), (1, "green-2"))
    store.enter_trick(gid, 2, 0, entered)
    (asked,) = [p for p in store.prompts(gid) if p.kind == "rascal_bet"]
    store.answer_prompt(asked.id, 10)
    pictured_entry(store, gid, (2, 0), [], seen)
    return gid


def test_the_choice_answered_on_an_entry_taken_back_carries_over_to_the_cameras_trick(
    hand_store: GameStore,
) -> None:
    """The camera read Cai's green-3 as green-4, Ana's Rascal winning as on the entry: the
    table, taking the entry back, was asked Ana's bet again, which it had answered."""
    gid = rascal_entry_answered(
        hand_store, plays((2, "green-4"), (0, "pirate-rascal"), (1, "green-2"))
    )
    assert hand_store.remove_hand_trick(gid, 2, 0)["camera_kept"] is True
    assert hand_store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rascal", "choice": 10}]
    assert [p.kind for p in hand_store.prompts(gid)] == []
    kept = hand_store.trick(gid, 2, 0)
    (carried,) = [c for c in hand_store.audit(gid) if c.kind == "choice" and c.trick_id == kept.id]
    assert carried.before is None and carried.after == {"pirate": "pirate-rascal", "choice": 10}
    assert carried.note == CARRIED_OVER


@pytest.mark.parametrize(
    "seen",
    [
        plays((2, "green-3"), (0, "green-2"), (1, "pirate-rascal")),  # Ben's Rascal
        plays((2, "pirate-harry"), (0, "pirate-rascal"), (1, "green-2")),  # Cai's Harry
    ],
    ids=["another-winner", "another-pirate"],
)
def test_a_cameras_trick_won_otherwise_is_asked_its_choice_afresh(
    hand_store: GameStore, seen: list
) -> None:
    """Ana's bet was hers to make with her Rascal: where the camera saw Ben win with it, or
    Cai with Harry, the camera's winner is asked, and Ana's bet counts for nothing."""
    gid = rascal_entry_answered(hand_store, seen)
    hand_store.remove_hand_trick(gid, 2, 0)
    assert hand_store.abilities(gid, 2) == []
    winner = seen[2]["player"] if seen[2]["card"] == "pirate-rascal" else seen[0]["player"]
    kind = "rascal_bet" if winner == 1 else "harry"
    asked = [(p.kind, p.round, p.trick, p.player) for p in hand_store.prompts(gid)]
    assert asked == [(kind, 2, 0, winner)]


def test_a_cameras_copy_with_no_place_to_stand_leaves_no_picture_behind(
    hand_store: GameStore,
) -> None:
    """An insert taken back brings the trick it moved back into its place: the camera's copy
    kept with the insert has none, so its cards stay in the history of the removal and its
    pictures, which no trick refers to, are deleted (they lay in games/<id>/ for good). A
    picture another trick still refers to stays."""
    gid = misfiled_over_a_rounds_end(hand_store)
    hand_store.insert_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")))
    seen = plays((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1"))
    images = pictured_entry(hand_store, gid, (2, 0), [], seen)
    moved = hand_store.trick(gid, 2, 1)
    with hand_store._write() as conn:  # the trick moved on refers to one of the files
        conn.execute(
            "UPDATE tricks SET annotated_image = ? WHERE id = ?",
            (f"games/{gid}/{images[1].name}", moved.id),
        )
    removed = hand_store.remove_hand_trick(gid, 2, 0)
    assert removed["camera_kept"] is False and removed["moved_back"] == 1
    assert places(hand_store, gid) == [(1, 0, "green-3"), (2, 0, "black-5")]
    assert not images[0].exists() and images[1].is_file()
    (audit,) = [c for c in hand_store.audit(gid) if c.kind == "removed"]
    assert [p["card"] for p in audit.before["camera_plays"]] == ["yellow-5", "yellow-9", "yellow-1"]


def test_a_gap_left_by_a_trick_taken_back_is_the_hand_forms_not_the_tables_next(
    hand_store: GameStore,
) -> None:
    """Round 2 trick 1 entered by hand, trick 2 by the camera, then trick 1 taken back to
    enter it again: the table plays on after trick 2 (round 3, its first leader), led by
    trick 2's winner within a round; the form (and the bids page's button naming it) fills
    round 2's trick 1."""
    gid = three_players(hand_store, {"rounds": 4})
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-1"), (2, "green-5"), (0, "green-2")))
    hand_store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    hand_store.record_trick(gid, 2, 1, plays((0, "purple-3"), (1, "purple-7"), (2, "purple-1")))
    assert _where(hand_store.state(gid)) == ((3, 0), (3, 0))
    hand_store.remove_hand_trick(gid, 2, 0)
    state = hand_store.state(gid)
    assert _where(state) == ((3, 0), (2, 0))
    assert state["leader"] == 0  # Cai deals round 3: Ana leads it
    assert hand_store.next_trick(gid) == ready(2, 0, [2, 0, 1])
    # Round 3 (3 cards): trick 1 taken back, trick 2 recorded, Ben won it and leads trick 3.
    hand_store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    hand_store.enter_trick(gid, 3, 0, hand((0, "black-2"), (1, "black-3"), (2, "black-4")))
    hand_store.record_trick(gid, 3, 1, plays((2, "green-3"), (0, "green-6"), (1, "green-8")))
    hand_store.remove_hand_trick(gid, 3, 0)
    state = hand_store.state(gid)
    assert _where(state) == ((3, 2), (3, 0))
    assert state["leader"] == 1


def _where(state: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where the state says the table plays next, and which place the hand-entry form fills:
    ((round, trick), (round, trick)), tricks counted from 0."""
    return (state["round"], state["next_trick"]), (state["hand_round"], state["hand_trick"])


def test_a_gap_in_an_earlier_round_leaves_the_pages_on_the_round_being_played(
    hand_store: GameStore,
) -> None:
    """Round 2 trick 1 entered by hand, then the camera recorded round 2 trick 2 and round 3
    trick 1, and round 2 trick 1 was taken back to enter it again. The state (the TV, the
    bids page, the live trick the camera publishes) said round 2, 2 cards, dealer Ben, trick
    3 of 2, no leader, while the camera's referee and the table were at round 3 trick 2."""
    from skullcam.device.recorder import referee_from_store

    gid = three_players(hand_store, {"rounds": 4})
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-1"), (2, "green-5"), (0, "green-2")))
    hand_store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    hand_store.record_trick(gid, 2, 1, plays((0, "purple-3"), (1, "purple-7"), (2, "purple-1")))
    hand_store.record_trick(gid, 3, 0, plays((0, "black-3"), (1, "black-7"), (2, "black-1")))
    hand_store.remove_hand_trick(gid, 2, 0)
    hand_store.set_bids(gid, 3, [1, 1, 0])  # round 3's bids, while round 2 has its gap
    state = hand_store.state(gid)
    referee = referee_from_store(hand_store, gid)
    assert (referee.round, referee.trick, referee.leader()) == (3, 1, 1)
    assert _where(state) == ((3, 1), (2, 0))
    assert hand_store.round_in_play(gid) == (3, 1)  # where the camera publishes its live trick
    assert (state["cards"], state["dealer"], state["leader"]) == (3, 2, 1)  # Ben won trick 1
    assert state["bids"] == [1, 1, 0] and state["tricks_won"] == [0, 1, 0]
    assert [t["trick"] for t in state["tricks"]] == [0]
    assert hand_store.next_trick(gid) == ready(2, 0, [2, 0, 1])
    # Entered again, the form moves on to the table's next trick.
    hand_store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    assert _where(hand_store.state(gid)) == ((3, 1), (3, 1))


def test_the_bids_page_names_the_gap_to_enter_and_stays_on_the_round_being_played(
    client: FlaskClient, store: GameStore
) -> None:
    """The page as first drawn (before its script redraws it): a camera records, so the plain
    "Camera missed a trick?" link sat under the bids, naming nothing; a gap the camera never
    fills is named, in the reader's language."""
    gid = three_players(store, {"rounds": 2})
    store.enter_trick(gid, 1, 0, hand((1, "green-1"), (2, "green-5"), (0, "green-2")))
    page = client.get(f"/game/{gid}/bids").get_data(as_text=True)
    assert "Camera missed a trick? Enter it by hand" in page
    store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    store.record_trick(gid, 2, 1, plays((0, "purple-3"), (1, "purple-7"), (2, "purple-1")))
    store.remove_hand_trick(gid, 1, 0)
    es = client.get(f"/game/{gid}/bids", headers={"Accept-Language": "es"}).get_data(as_text=True)
    link = re.search(r'id="enter-by-hand"><a [^>]*class="button">([^<]*)</a>', es)
    assert link is not None and link.group(1) == "Anotar a mano la baza 1 de la ronda 1"
    state = json_of(client.get(f"/api/game/{gid}/state"))
    assert _where(state) == ((2, 2), (1, 0)) and state["leader"] is None


def test_a_trick_after_a_gap_is_warned_about_by_its_own_number(
    client: FlaskClient, store: GameStore
) -> None:
    """Round 2 trick 1 taken back, trick 2 kept: the score said trick 2 was led by the wrong
    player, and named it trick 1, as the record has no place for the gap. Trick 1's winner
    leads trick 2, so the warning is that trick 1 is missing. A card played twice after a
    gap names both tricks by their own numbers."""
    gid = three_players(store, {"rounds": 4})
    store.set_bids(gid, 1, [0, 0, 1])
    store.set_bids(gid, 2, [1, 0, 1])
    store.enter_trick(gid, 1, 0, hand((1, "green-1"), (2, "green-5"), (0, "green-2")))
    store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    store.record_trick(gid, 2, 1, plays((0, "purple-3"), (1, "purple-7"), (2, "purple-1")))
    store.remove_hand_trick(gid, 2, 0)
    score = store.score(gid)
    assert score["score"]["warnings"] == ["round 2: trick 1 is not recorded: enter it by hand"]
    worded = json_of(client.get(f"/api/game/{gid}/state", headers={"Accept-Language": "it"}))
    assert worded["score"]["warning_texts"] == [
        "round 2: la presa 1 non è registrata: inseriscila a mano"
    ]
    # Round 3's trick 3 repeats a card of trick 2: refused where the table sees it.
    store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    store.set_bids(gid, 3, [0, 1, 1])
    store.enter_trick(gid, 3, 0, hand((0, "black-2"), (1, "black-3"), (2, "black-4")))
    store.record_trick(gid, 3, 1, plays((2, "green-3"), (0, "green-6"), (1, "green-8")))
    store.record_trick(gid, 3, 2, plays((1, "green-6"), (2, "green-9"), (0, "green-10")))
    store.remove_hand_trick(gid, 3, 0)
    refused = store.score(gid)
    assert not refused["ok"] and refused["error"].startswith(
        "round 3, trick 3, play 1 (Ben): green-6 was already played this round, in trick 2 by"
    )


def test_a_gap_in_an_earlier_round_is_the_trick_the_score_asks_to_enter(
    client: FlaskClient, store: GameStore
) -> None:
    """Round 2 trick 1 taken back while round 3 is played: the rules engine cannot score a
    round before the last unfinished, and the TV and the pages said its words, "round 2: only
    1 of 2 tricks recorded; only the last round of a record may be unfinished", naming no
    trick to enter, up to the last round's end and after it (the game not over). They name
    the trick to enter by hand, the one the form fills."""
    gid = three_players(store, {"rounds": 3})
    for number, bids in enumerate(([0, 0, 1], [1, 0, 1], [1, 1, 1]), start=1):
        store.set_bids(gid, number, bids)
    store.enter_trick(gid, 1, 0, hand((1, "green-1"), (2, "green-5"), (0, "green-2")))
    store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    store.record_trick(gid, 2, 1, plays((0, "purple-3"), (1, "purple-7"), (2, "purple-1")))
    store.record_trick(gid, 3, 0, plays((1, "black-3"), (2, "black-7"), (0, "black-1")))
    store.remove_hand_trick(gid, 2, 0)
    for k, (p, c) in enumerate([(2, "green-3"), (2, "green-9")], start=1):
        cards = [(p, c), ((p + 1) % 3, c.replace("green", "yellow")), ((p + 2) % 3, "escape")]
        store.record_trick(gid, 3, k, plays(*cards))
    assert store.game(gid).status == "active"  # round 2 trick 1 is not in
    refused = store.score(gid)
    assert not refused["ok"] and refused["error"] == (
        "round 2: trick 1 is not recorded: enter it by hand"
    )
    for lang, said in [
        ("es", "ronda 2: la baza 1 no está grabada: anótala a mano"),
        ("da", "runde 2: stik 1 er ikke optaget: indtast det manuelt"),
    ]:
        state = json_of(client.get(f"/api/game/{gid}/state", headers={"Accept-Language": lang}))
        assert state["score"]["error_text"] == said
    store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    assert store.game(gid).status == "finished"
    assert store.score(gid)["ok"]


def test_a_gap_is_warned_about_whoever_led_the_trick_after_it(
    client: FlaskClient, store: GameStore
) -> None:
    """Round 3 trick 2 taken back, and trick 3 led by Cai, who won trick 1 as well: the
    trick 3 the rules expect after trick 1, so the score said nothing of the missing trick.
    It said it only where the trick after the gap was led by another player."""
    gid = _at_round_3(store)
    store.enter_trick(gid, 3, 1, hand((2, "yellow-9"), (0, "yellow-5"), (1, "yellow-2")))
    store.record_trick(gid, 3, 2, plays((2, "black-9"), (0, "black-5"), (1, "black-2")))
    store.remove_hand_trick(gid, 3, 1)
    score = store.score(gid)
    assert score["score"]["warnings"] == ["round 3: trick 2 is not recorded: enter it by hand"]
    worded = json_of(client.get(f"/api/game/{gid}/state", headers={"Accept-Language": "da"}))
    assert worded["score"]["warning_texts"] == [
        "runde 3: stik 2 er ikke optaget: indtast det manuelt"
    ]
    store.enter_trick(gid, 3, 1, hand((2, "yellow-9"), (0, "yellow-5"), (1, "yellow-2")))
    assert "warnings" not in store.score(gid)["score"]


def _at_round_3(store: GameStore) -> int:
    """A game of 4 rounds with every bid of rounds 1 to 3 in, rounds 1 and 2 entered by hand,
    and round 3's first trick (led by Ana, won by Cai's green 14)."""
    gid = three_players(store, {"rounds": 4})
    store.set_bids(gid, 1, [0, 0, 1])
    store.set_bids(gid, 2, [0, 1, 1])
    store.set_bids(gid, 3, [1, 1, 1])
    store.enter_trick(gid, 1, 0, hand((1, "green-1"), (2, "green-5"), (0, "green-2")))
    store.enter_trick(gid, 2, 0, hand((2, "green-1"), (0, "green-5"), (1, "green-2")))
    store.enter_trick(gid, 2, 1, hand((0, "green-7"), (1, "green-8"), (2, "green-9")))
    store.enter_trick(gid, 3, 0, hand((0, "green-1"), (1, "green-2"), (2, "green-14")))
    return gid


def test_who_led_the_trick_after_a_gap_is_its_own_first_card(
    client: FlaskClient, store: GameStore
) -> None:
    """Round 3 trick 1 (Cai won it) taken back, trick 2 kept: who led trick 2 was guessed from
    the tricks before the gap, none, so the round's first leader Ana: trick 2, led by Cai as
    the rules say, was said to be led by another player than expected, and Ana's card the
    camera missed in its middle went first. Nothing is known of trick 1's winner, so trick 2
    is led by its first card, Cai's; a missed card that may have been the lead waits for
    trick 1 to be entered again."""
    gid = _at_round_3(store)
    store.record_trick(gid, 3, 1, plays((2, "yellow-5"), (1, "yellow-2")))  # Ana's missed
    store.remove_hand_trick(gid, 3, 0)
    assert not store.led_otherwise(gid, 3, 1)
    trick = store.add_play(gid, 3, 1, 0, "yellow-9")
    assert [p["player"] for p in trick.plays] == [2, 0, 1]
    assert not store.led_otherwise(gid, 3, 1)
    # Ben's card missed after Cai's and Ana's: he may have led (trick 1 is not recorded) or
    # played last. Refused, in the page's language, until trick 1 is entered again.
    gid = _at_round_3(store)
    store.record_trick(gid, 3, 1, plays((2, "yellow-5"), (0, "yellow-9")))
    store.remove_hand_trick(gid, 3, 0)
    url = f"/api/game/{gid}/round/3/trick/1/add?lang=it"
    refused = client.post(url, json={"player": 1, "card": "yellow-2"})
    assert refused.status_code == 400
    assert json_of(refused)["error"] == (
        "who led round 3 trick 2 is not known while trick 1 is not recorded: its winner led"
        " this one, and this card may have been the lead. Enter trick 1 by hand first, then"
        " add this card"
    )
    assert json_of(refused)["error_text"].startswith(
        "non si sa chi ha guidato la presa 2 del round 3 finché la presa 1 non è registrata"
    )
    assert len(store.trick(gid, 3, 1).plays) == 2
    store.enter_trick(gid, 3, 0, hand((0, "green-1"), (1, "green-2"), (2, "green-14")))
    trick = store.add_play(gid, 3, 1, 1, "yellow-2")  # Cai won trick 1: Ben played last
    assert [p["player"] for p in trick.plays] == [2, 0, 1]


def test_a_revoke_after_a_gap_is_said_on_its_own_tricks(
    client: FlaskClient, store: GameStore
) -> None:
    """Round 3 trick 1 taken back: Ana's revoke on trick 2, proved on trick 3, was said as
    "trick 1 ... (trick 2)" on the TV and the tricks page (the record has no place for the
    gap), and trick 3's replay page, the proof's, did not say it at all."""
    gid = _at_round_3(store)
    store.record_trick(gid, 3, 1, plays((2, "yellow-5"), (0, "purple-4"), (1, "yellow-2")))
    store.record_trick(gid, 3, 2, plays((2, "yellow-9"), (0, "yellow-7"), (1, "yellow-3")))
    store.remove_hand_trick(gid, 3, 0)
    (revoke,) = store.score(gid)["score"]["revokes"]
    assert (revoke["trick"], revoke["proof_trick"]) == (1, 2)
    assert revoke["explanation"] == (
        "round 3, trick 2, play 2: Ana played the purple 4 when yellow was led, but later"
        " played the yellow 7 (trick 3): a revoke."
    )
    said = (
        "Round 3, trick 2: Ana played Treasure Map 4 when Treasure Chest was led, but later"
        " played Treasure Chest 7 (trick 3): a revoke"
    )
    assert said in json_of(client.get(f"/api/game/{gid}/state"))["score"]["warning_texts"]
    for trick in (1, 2):  # the revoke's trick and the one that proves it
        page = client.get(f"/game/{gid}/round/3/trick/{trick}").get_data(as_text=True)
        assert said in page, trick


def test_a_trick_missed_before_a_gap_goes_in_the_gap_not_after_it(
    client: FlaskClient, store: GameStore
) -> None:
    """Round 3 trick 2 taken back, trick 3 kept: its replay page offered to enter a missed
    trick before it, and doing so moved trick 3 over the round's end to round 4 and put the
    missed trick third, the gap left where it was. Its place is the gap: no offer, refused,
    and the round's next trick fills it."""
    gid = _at_round_3(store)
    store.enter_trick(gid, 3, 1, hand((2, "yellow-5"), (0, "purple-4"), (1, "yellow-2")))
    store.record_trick(gid, 3, 2, plays((2, "yellow-9"), (0, "yellow-7"), (1, "yellow-3")))
    store.remove_hand_trick(gid, 3, 1)
    before = places(store, gid)
    assert store.missed_before(gid, 3, 2) is None
    page = client.get(f"/game/{gid}/round/3/trick/2").get_data(as_text=True)
    assert 'id="missed-before"' not in page
    missed = hand((2, "yellow-5"), (0, "purple-4"), (1, "yellow-2"))
    with pytest.raises(UserError, match="round 3 has no trick 2 recorded: a trick missed before"):
        store.insert_trick(gid, 3, 2, missed)
    assert places(store, gid) == before
    assert store.next_trick(gid) == ready(3, 1, [2, 0, 1])


def test_a_pirates_choice_after_a_gap_counts_on_its_own_trick(store: GameStore) -> None:
    """Round 2 trick 1 taken back and trick 2, Rascal's, kept with his bet of 20: the record
    names the bet's trick by its place in the round's list, so the score goes on and Ana's
    bet counts. It stopped ("an ability names trick 1, but the round has only 1 trick(s)")."""
    gid = three_players(store, {"rounds": 4, "pirate_abilities": True})
    store.set_bids(gid, 1, [0, 0, 1])
    store.set_bids(gid, 2, [1, 0, 1])
    store.enter_trick(gid, 1, 0, hand((1, "green-1"), (2, "green-5"), (0, "green-2")))
    store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    store.record_trick(gid, 2, 1, plays((0, "pirate-rascal"), (1, "purple-7"), (2, "purple-1")))
    store.choose_ability(gid, 2, 1, 20)
    store.remove_hand_trick(gid, 2, 0)
    scored = store.score(gid)
    assert scored["ok"], scored.get("error")
    assert scored["record"]["rounds"][1]["abilities"] == [
        {"trick": 0, "pirate": "pirate-rascal", "choice": 20}
    ]
    assert store.abilities(gid, 2) == [{"trick": 1, "pirate": "pirate-rascal", "choice": 20}]
    # The round is not over (one trick of two is missing), so it is not scored yet; the bet
    # waits on its trick, and the round's first trick entered again puts the round back whole.
    store.enter_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    whole = store.score(gid)
    assert whole["ok"] and whole["record"]["rounds"][1]["abilities"][0]["trick"] == 1
    # Ana bid 1 and won both: -10, and Rascal's bet of 20 is lost with the bid.
    assert whole["score"]["rounds"][1]["points"][0] == -30


def test_only_a_hand_trick_not_moved_since_is_removed(hand_store: GameStore) -> None:
    gid = misfiled_over_a_rounds_end(hand_store, rounds=3)
    with pytest.raises(UserError, match="round 1 trick 1 was recorded by the camera"):
        hand_store.remove_hand_trick(gid, 1, 0)
    hand_store.insert_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")))
    hand_store.insert_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    # The first insert's trick is now round 2 trick 2, and the trick it moved went on again.
    with pytest.raises(UserError, match="round 2 trick 2 cannot be removed: a trick its entry"):
        hand_store.remove_hand_trick(gid, 2, 1)
    hand_store.remove_hand_trick(gid, 1, 0)  # the last one first: everything moves back
    hand_store.remove_hand_trick(gid, 2, 0)
    assert places(hand_store, gid) == [(1, 0, "green-3"), (2, 0, "black-5")]


def test_a_missed_trick_needs_a_recorded_trick_after_it(hand_store: GameStore) -> None:
    gid = three_players(hand_store)
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    with pytest.raises(UserError, match="round 2 has no trick 1 recorded"):
        hand_store.insert_trick(gid, 2, 0, hand((2, "green-4"), (0, "green-8"), (1, "green-1")))
    assert hand_store.missed_before(gid, 2, 0) is None
    assert len(hand_store.tricks(gid)) == 1


def test_the_moves_that_free_a_place_stop_at_the_first_free_one(hand_store: GameStore) -> None:
    gid = three_players(hand_store, {"rounds": 3})
    for r, t in [(1, 0), (2, 0), (2, 1), (3, 1)]:
        hand_store.record_trick(gid, r, t, plays((0, "escape")))
    game, tricks = hand_store.game(gid), hand_store.tricks(gid)
    moves = trick_moves.moves_to_free(game, tricks, (2, 0), rounds=3)
    assert moves == [((2, 1), (3, 0)), ((2, 0), (2, 1))]  # round 3's gap takes one
    assert trick_moves.moves_to_free(game, tricks, (1, 0), rounds=3) == [
        ((2, 1), (3, 0)),
        ((2, 0), (2, 1)),
        ((1, 0), (2, 0)),
    ]
    assert trick_moves.moves_to_free(game, tricks, (3, 1), rounds=2) is None


def test_the_replay_page_leads_to_the_trick_the_camera_missed_before_it(
    client: FlaskClient, store: GameStore
) -> None:
    gid = three_players(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    flag = "Ana led, but the game expected Cai to lead"
    store.record_trick(
        gid, 2, 0, plays((0, "green-3"), (1, "green-2"), (2, "green-1")), flags=[flag]
    )
    # Round 1 is full: nothing can go before its trick. Round 2 has a free place.
    assert 'id="missed-before"' not in client.get(f"/game/{gid}/round/1/trick/0").get_data(
        as_text=True
    )
    page = client.get(f"/game/{gid}/round/2/trick/0").get_data(as_text=True)
    link = f'href="/game/{gid}/tricks?round=2&amp;before=0#enter-trick"'
    assert f'<p class="warning writes" id="missed-before"><a {link}>' in page  # the flag's warning
    form = client.get(f"/game/{gid}/tricks?round=2&before=0").get_data(as_text=True)
    assert "Enter the trick the camera missed before round 2 trick 1" in form
    order = re.findall(r'(\d)\. (\w+) <select class="enter-card"', form)
    assert order == [("1", "Cai"), ("2", "Ana"), ("3", "Ben")]
    assert '"insert": true' in form and 'id="enter-last"' not in form
    res = client.post(
        f"/api/game/{gid}/round/2/trick/0/insert",
        json={"plays": hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1"))},
    )
    assert res.status_code == 201, res.get_data(as_text=True)
    assert [t.trick for t in store.tricks(gid, 2)] == [0, 1]
    assert store.trick(gid, 2, 1).plays[0]["card"] == "green-3"  # moved up
    # Round 2 is full now: one more missed trick before its second moves that into round 3.
    form = client.get(f"/game/{gid}/tricks?round=2&before=1").get_data(as_text=True)
    crosses = "Round 2 has no free place: its trick 2 becomes round 3 trick 1"
    assert f'<p class="warning" id="insert-crosses">{crosses}' in form
    refused = client.post(
        f"/api/game/{gid}/round/2/trick/2/insert",
        json={"plays": hand((0, "black-5"), (1, "black-9"), (2, "black-1"))},
        headers={"Accept-Language": "da"},
    )
    assert refused.status_code == 400
    assert "runde 2 har intet registreret stik 3" in json_of(refused)["error_text"]


def test_the_missed_trick_hint_is_on_the_round_being_played_not_the_gaps(
    client: FlaskClient, store: GameStore
) -> None:
    """Round 2's last trick taken back while round 3 is played. The hint "Camera missed a
    trick before this one?" went on the round of the hand-entry form's place, round 2: there
    it offered to move round 2's first trick into the gap, the trick the table took back
    (and knows), and round 3, where the camera records and may just have missed one, had
    none. It goes on the round being played, as the TV and the camera have it."""
    gid = three_players(store, {"rounds": 3})
    store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    store.record_trick(gid, 2, 0, plays((2, "green-3"), (0, "green-8"), (1, "green-2")))
    store.enter_trick(gid, 2, 1, hand((0, "yellow-5"), (1, "yellow-9"), (2, "yellow-1")))
    store.record_trick(gid, 3, 0, plays((0, "black-5"), (1, "black-9"), (2, "black-1")))
    store.remove_hand_trick(gid, 2, 1)
    state = store.state(gid)
    assert (state["round"], state["hand_round"], state["hand_trick"]) == (3, 2, 1)
    hint = '<p class="hint writes" id="missed-before">'
    assert hint not in client.get(f"/game/{gid}/round/2/trick/0").get_data(as_text=True)
    assert hint in client.get(f"/game/{gid}/round/3/trick/0").get_data(as_text=True)


def test_the_replay_page_warns_of_a_missed_trick_in_an_earlier_round(
    client: FlaskClient, store: GameStore
) -> None:
    """Round 1's only trick missed, round 2's first filed in its place (led by Cai, not Ben):
    its page warns, though round 1 is full; so does round 2's, led by Ana where the rules
    say Cai leads, though the camera did not flag it."""
    gid = three_players(store)
    flag = "Cai led, but the game expected Ben to lead"
    store.record_trick(
        gid, 1, 0, plays((2, "green-3"), (0, "green-8"), (1, "green-2")), flags=[flag]
    )
    store.record_trick(gid, 2, 0, plays((0, "black-5"), (1, "black-9"), (2, "black-1")))
    first = client.get(f"/game/{gid}/round/1/trick/0").get_data(as_text=True)
    assert '<p class="warning writes" id="missed-before">' in first
    second = client.get(f"/game/{gid}/round/2/trick/0").get_data(as_text=True)
    assert '<p class="warning writes" id="missed-before">' in second
    form = client.get(f"/game/{gid}/tricks?round=1&before=0").get_data(as_text=True)
    assert "Round 1 has no free place: its trick 1 becomes round 2 trick 1" in form
    # The trick moving to round 2 is another deal: its cards are not used up in round 1.
    assert '"used_up": []' in form
    plain = client.get(f"/game/{gid}/tricks").get_data(as_text=True)  # round 2's next trick
    used = re.search(r'"used_up": \[([^\]]*)\]', plain)
    assert used is not None and '"black-5"' in used.group(1)


def test_the_replay_page_offers_to_remove_a_trick_entered_by_hand(
    client: FlaskClient, store: GameStore
) -> None:
    gid = misfiled_over_a_rounds_end(store, rounds=3)
    camera = client.get(f"/game/{gid}/round/2/trick/0").get_data(as_text=True)
    assert 'id="remove-trick"' not in camera
    res = client.post(
        f"/api/game/{gid}/round/2/trick/0/insert",
        json={"plays": hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1"))},
    )
    assert res.status_code == 201
    page = client.get(f"/game/{gid}/round/2/trick/0").get_data(as_text=True)
    assert 'id="remove-trick"' in page
    assert "the trick its entry moved on one place goes back" in page  # not "tricks ... (1)"
    refused = client.post(
        f"/api/game/{gid}/round/2/trick/1/remove", json={}, headers={"Accept-Language": "es"}
    )
    assert refused.status_code == 400
    assert "la grabó la cámara" in json_of(refused)["error_text"]
    res = client.post(f"/api/game/{gid}/round/2/trick/0/remove", json={})
    assert res.status_code == 200, res.get_data(as_text=True)
    assert json_of(res)["removed"]["moved_back"] == 1
    assert [(t.round, t.trick) for t in store.tricks(gid)] == [(1, 0), (2, 0)]


def test_a_finished_game_takes_no_trick(hand_store: GameStore) -> None:
    gid = three_players(hand_store)
    hand_store.finish_game(gid)
    assert hand_store.next_trick(gid) is None
    with pytest.raises(UserError, match="is finished; resume it on its Settings page"):
        hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))


def test_the_api_enters_the_trick_and_says_why_it_refuses(
    client: FlaskClient, store: GameStore
) -> None:
    gid = three_players(store)
    url = f"/api/game/{gid}/round/1/trick/0/enter"
    body = {"plays": hand((1, "green-5"), (2, "green-9"), (0, "escape"))}
    res = client.post(url, json=body)
    assert res.status_code == 201, res.get_data(as_text=True)
    assert json_of(res)["trick"]["plays"][1]["card"] == "green-9"
    again = client.post(url, json=body, headers={"Accept-Language": "es"})
    assert again.status_code == 400
    refused = json_of(again)
    assert (
        "was recorded meanwhile (by another page or the camera) with these same"
        in (refused["error"])
    )
    assert refused["error_text"].startswith("la baza 1 de la ronda 1 se registró mientras")
    other = {"plays": hand((1, "green-5"), (2, "green-10"), (0, "escape"))}
    refused = json_of(client.post(url, json=other, headers={"Accept-Language": "es"}))
    assert "con la carta Loro 9 de Cai, donde esta página tiene Loro 10" in refused["error_text"]
    refused = json_of(client.post(url, json=other, headers={"Accept-Language": "en"}))
    assert "with Cai's green-9, where this page has green-10" in refused["error"]  # ids
    assert "with Cai's Parrot 9, where this page has Parrot 10" in refused["error_text"]
    bad = client.post(f"/api/game/{gid}/round/2/trick/0/enter", json={"plays": "green-5"})
    assert bad.status_code == 400
    assert "plays must be a list" in json_of(bad)["error"]
    state = json_of(client.get(f"/api/game/{gid}/state"))
    assert state["next_trick"] == 0 and state["round"] == 2


#: Cards the pages' menus never offer in a game with the default settings, and how Cai's is
#: refused when a request sends one.
OFF_THE_MENU = [
    ("pirate", "choose which pirate Cai played (Rosie, Bendt, Rascal, Juanita or Harry)"),
    ("mermaid", "choose which mermaid Cai played (Alyra or Sirena)"),
    ("loot", "loot is not in this game's deck: the 'loot' setting is off"),
    ("kraken", "kraken is not in this game's deck: the 'kraken_and_white_whale' setting"),
    ("white-whale", "white-whale is not in this game's deck: the 'kraken_and_white_whale'"),
]


@pytest.mark.parametrize(("card", "said"), OFF_THE_MENU)
def test_the_api_takes_only_the_cards_the_hand_menus_offer(
    client: FlaskClient, store: GameStore, card: str, said: str
) -> None:
    """The menus offer the five pirates and two mermaids by name, and the expansion cards only
    where the game's settings put them in the deck; the API took an unnamed pirate (Rosie's,
    Rascal's and Harry's abilities lost) and a Kraken in a game without one. Entered or
    inserted before a trick the camera filed in its place, nothing is recorded."""
    gid = three_players(store)
    trick = hand((1, "green-5"), (2, card), (0, "escape"))
    refused = client.post(f"/api/game/{gid}/round/1/trick/0/enter", json={"plays": trick})
    assert refused.status_code == 400 and said in json_of(refused)["error"]
    assert store.tricks(gid) == []
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    refused = client.post(f"/api/game/{gid}/round/1/trick/0/insert", json={"plays": trick})
    assert refused.status_code == 400 and said in json_of(refused)["error"]
    assert [t.plays[0]["card"] for t in store.tricks(gid)] == ["green-1"]


@pytest.mark.parametrize(("card", "said"), OFF_THE_MENU)
def test_a_correction_takes_only_the_cards_the_replay_menus_offer(
    client: FlaskClient, store: GameStore, card: str, said: str
) -> None:
    """The replay page's Correct and Add menus offer what hand entry does; the API took an
    unnamed pirate or a Kraken in a game without one as a correction or a missing card. The
    camera still names what it reads, and a play holding such a card keeps it while its
    player is corrected."""
    gid = three_players(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    url = f"/api/game/{gid}/round/1/trick/0"
    refused = client.post(f"{url}/correct", json={"play": 1, "card": card})
    assert refused.status_code == 400 and said in json_of(refused)["error"]
    store.record_trick(gid, 2, 0, plays((0, "green-3"), (1, "green-4")), flags=["short"])
    refused = client.post(f"/api/game/{gid}/round/2/trick/0/add", json={"player": 2, "card": card})
    assert refused.status_code == 400 and said in json_of(refused)["error"]
    assert [len(t.plays) for t in store.tricks(gid)] == [3, 2]
    assert store.trick(gid, 1, 0).plays[1]["card"] == "green-9"
    store.correct_play(gid, 1, 0, 1, card=card, by_hand=False)  # the camera saw a swap
    moved = client.post(f"{url}/correct", json={"play": 1, "player": 0})
    assert moved.status_code == 200
    assert {p["card"]: p["player"] for p in store.trick(gid, 1, 0).plays}[card] == 0  # Ana's


def test_an_unnamed_pirate_or_a_card_left_out_is_refused_in_the_tables_language(
    client: FlaskClient, store: GameStore
) -> None:
    gid = three_players(store)
    url = f"/api/game/{gid}/round/1/trick/0/enter?lang=es"
    trick = hand((1, "green-5"), (2, "pirate"), (0, "escape"))
    assert json_of(client.post(url, json={"plays": trick}))["error_text"] == (
        "elige qué Pirata jugó Cai (Rosie, Bendt, Rascal, Juanita o Harry): la baraja no tiene"
        " ningún Pirata sin nombre"
    )
    trick = hand((1, "green-5"), (2, "white-whale"), (0, "escape"))
    assert json_of(client.post(url, json={"plays": trick}))["error_text"] == (
        "la carta Ballena Blanca no está en la baraja de esta partida: el ajuste «Kraken y"
        " Ballena Blanca» está desactivado. Elige la carta que Cai jugó realmente o activa antes"
        " el ajuste en Ajustes"
    )
    assert store.tricks(gid) == []


def test_the_expansion_cards_are_entered_where_the_settings_deal_them(
    hand_store: GameStore,
) -> None:
    """Only hand entry is refused so: the camera reads each card by name, and records an
    expansion card it sees while its setting is off with a warning (rules.md)."""
    gid = three_players(hand_store, {"loot": True, "kraken_and_white_whale": True})
    hand_store.enter_trick(gid, 1, 0, hand((1, "loot"), (2, "kraken"), (0, "escape")))
    assert [p["card"] for p in hand_store.tricks(gid)[0].plays] == ["loot", "kraken", "escape"]
    gid = three_players(hand_store)
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "kraken"), (0, "escape")))
    assert hand_store.tricks(gid)[0].plays[1]["card"] == "kraken"


def test_the_tricks_page_offers_the_next_trick_in_play_order(
    client: FlaskClient, store: GameStore
) -> None:
    gid = three_players(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    assert "Enter round 2 trick 1 by hand" in page
    # Ben deals round 2, so Cai leads it, then Ana and Ben.
    order = re.findall(r'(\d)\. (\w+) <select class="enter-card" data-player="(\d)"', page)
    assert order == [("1", "Cai", "2"), ("2", "Ana", "0"), ("3", "Ben", "1")]
    assert (
        '"order": [2, 0, 1], "round": 2, "trick": 0, "used_up": [], "waits_for": null,'
        ' "waits_on": null}' in page
    )
    bids = client.get(f"/game/{gid}/bids").get_data(as_text=True)
    link = f'<a href="/game/{gid}/tricks#enter-trick">'
    assert f'<p class="hint writes" id="enter-by-hand">{link}' in bids


def test_a_trick_entered_by_hand_is_marked_so_in_the_list_and_its_audit(
    client: FlaskClient, store: GameStore
) -> None:
    """Was: in the tricks list a hand trick looked like the camera's, and its audit trail said
    "As recorded"."""
    gid = three_players(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    store.enter_trick(gid, 2, 0, hand((2, "black-3"), (0, "black-9"), (1, "escape")))
    store.correct_play(gid, 2, 0, 2, card="green-2")  # Ben's escape was a Parrot 2
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    marked = re.findall(r'/round/(\d)/trick/0" class="trick-link[^>]*>(.*?)</a>', page, re.S)
    assert [(r, "hand-mark" in body) for r, body in marked] == [("1", False), ("2", True)]
    assert 'title="trick entered by hand"' in page
    replay = client.get(f"/game/{gid}/round/2/trick/0").get_data(as_text=True)
    assert "As entered by hand:" in replay and "As recorded:" not in replay
    store.correct_play(gid, 1, 0, 2, card="green-3")  # the camera's trick says it was seen
    camera = client.get(f"/game/{gid}/round/1/trick/0").get_data(as_text=True)
    assert "As recorded:" in camera and "As entered by hand:" not in camera


def test_no_trick_is_offered_once_the_game_is_over_or_its_leader_unknown(
    client: FlaskClient, store: GameStore
) -> None:
    gid = three_players(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    store.record_trick(gid, 2, 0, plays((2, "black-3"), (0, "black-9")))  # a card missed
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    assert 'id="enter-leader-unknown"' in page and 'id="enter-form"' not in page
    store.finish_game(gid)
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    assert 'id="enter-trick"' not in page
    bids = client.get(f"/game/{gid}/bids").get_data(as_text=True)
    assert 'id="enter-by-hand" hidden' in bids


def test_the_replay_page_says_the_trick_was_entered_by_hand(
    client: FlaskClient, store: GameStore
) -> None:
    gid = three_players(store)
    store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    client.set_cookie("lang", "it")
    page = client.get(f"/game/{gid}/round/1/trick/0").get_data(as_text=True)
    assert "Inserita a mano: nessuna immagine." in page
    assert "presa inserita a mano" in page  # the audit trail's row


def test_rosies_choice_names_who_leads_the_trick_after_hers(hand_store: GameStore) -> None:
    gid = three_players(hand_store, {"pirate_abilities": True})
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    hand_store.enter_trick(gid, 2, 0, hand((2, "green-3"), (0, "pirate-rosie"), (1, "green-2")))
    (asked,) = hand_store.prompts(gid)
    assert (asked.kind, asked.player) == ("rosie", 0)
    assert hand_store.next_trick(gid) == {
        "round": 2,
        "trick": 1,
        "order": [],
        "waits_on": 0,
        "waits_for": "rosie",
    }
    hand_store.answer_prompt(asked.id, 1)  # Ana chose Ben to lead
    assert hand_store.next_trick(gid) == ready(2, 1, [1, 2, 0])


def rosie_won_round_two_trick_one(store: GameStore) -> int:
    """Four rounds, abilities on: Ana won round 2 trick 1 with Rosie, her question open."""
    gid = three_players(store, {"pirate_abilities": True, "rounds": 4})
    store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    store.enter_trick(gid, 2, 0, hand((2, "green-3"), (0, "pirate-rosie"), (1, "green-2")))
    return gid


def test_a_trick_after_rosies_is_refused_naming_her_question(hand_store: GameStore) -> None:
    """Was: "trick 1 of the round has no winner yet (...) or Rosie's choice of who leads is
    not made", one message for two causes; the trick has a winner, and the table is told
    the one thing to do. Her question dismissed, it is told where to choose instead."""
    gid = rosie_won_round_two_trick_one(hand_store)
    trick_two = hand((0, "black-1"), (1, "black-2"), (2, "black-3"))
    with pytest.raises(UserError) as refused:
        hand_store.enter_trick(gid, 2, 1, trick_two)
    assert str(refused.value) == (
        "Rosie won round 2 trick 1, so her player chooses who leads trick 2: answer Rosie's"
        " question first (who leads round 2 trick 2?), then enter this trick"
    )
    (asked,) = hand_store.prompts(gid)
    hand_store.dismiss_prompt(asked.id)
    with pytest.raises(UserError, match=r"not recorded \(her question was dismissed\): choose"):
        hand_store.enter_trick(gid, 2, 1, trick_two)
    hand_store.choose_ability(gid, 2, 0, 0)  # on trick 1's page: Ana leads
    hand_store.enter_trick(gid, 2, 1, trick_two)


def test_a_missed_trick_after_rosies_is_led_by_her_choice_read_from_the_lead(
    hand_store: GameStore,
) -> None:
    """The camera saw Cai lead the trick after Rosie's: that is her choice while the question
    is open, so a trick missed before it is offered led by Cai, not refused."""
    gid = rosie_won_round_two_trick_one(hand_store)
    hand_store.record_trick(gid, 2, 1, plays((2, "black-3"), (0, "black-1"), (1, "black-2")))
    assert [p.kind for p in hand_store.prompts(gid)] == ["rosie"]  # still open
    offer = hand_store.missed_before(gid, 2, 1)
    assert offer is not None and offer["order"] == [2, 0, 1]
    hand_store.insert_trick(gid, 2, 1, hand((2, "yellow-3"), (0, "yellow-8"), (1, "yellow-1")))
    assert hand_store.trick(gid, 2, 1).plays[0]["player"] == 2


def _entry_refused(
    client: FlaskClient, gid: int, place: tuple[int, int], plays: list[dict[str, Any]]
) -> Any:
    """The tricks page's entry of ``plays`` at ``place`` (round from 1, trick from 0, as the
    API's path numbers them), refused with a 400: the answer's JSON."""
    round_number, trick = place
    url = f"/api/game/{gid}/round/{round_number}/trick/{trick}/enter"
    res = client.post(url, json={"plays": plays})
    assert res.status_code == 400
    return json_of(res)


def test_the_refusal_to_enter_after_rosie_is_said_in_the_tables_language(
    client: FlaskClient, store: GameStore
) -> None:
    gid = rosie_won_round_two_trick_one(store)
    client.set_cookie("lang", "es")
    body = _entry_refused(client, gid, (2, 1), hand((0, "black-1"), (1, "black-2"), (2, "black-3")))
    assert body["error"].startswith("Rosie won round 2 trick 1")
    assert "responde antes a la pregunta de Rosie" in body["error_text"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "her question of who leads next was dismissed: choose who leads on her trick's"),
        ("es", "su pregunta de quién sale ahora se descartó: elige quién sale en la página"),
        ("it", "è stata scartata: scegli chi guida nella pagina della sua presa"),
        ("da", "blev afvist: vælg, hvem der spiller ud, på hendes stiks side"),
    ],
)
def test_the_tricks_page_sends_a_dismissed_rosie_to_her_tricks_page(
    client: FlaskClient, store: GameStore, lang: str, words: str
) -> None:
    """Her question dismissed on a phone, the page still said "answer who leads next
    (above)" with no question above it: the table had no way to where the choice is made.
    Now it names her trick's page and links it, as for a trick with no winner."""
    gid = rosie_won_round_two_trick_one(store)
    (asked,) = store.prompts(gid)
    store.dismiss_prompt(asked.id)
    assert store.next_trick(gid)["waits_for"] == "rosie_unchosen"  # type: ignore[index]
    client.set_cookie("lang", lang)
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    (warning,) = re.findall(r'<p class="warning" id="enter-leader-unknown">.*?</p>', page)
    assert words in html.unescape(warning)
    assert f'<a href="/game/{gid}/round/2/trick/0">' in warning
    store.choose_ability(gid, 2, 0, 1)  # there: Ben leads
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    assert 'id="enter-form"' in page and 'id="enter-leader-unknown"' not in page


def test_a_page_left_open_while_the_leader_changed_is_told_to_reload(
    client: FlaskClient, store: GameStore
) -> None:
    """The page drew Ana leading; another phone's correction made Ben win the trick before.
    Was: an English refusal naming player numbers, with no word of reloading."""
    gid = three_players(store)
    store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    store.enter_trick(gid, 2, 0, hand((2, "green-3"), (0, "green-9"), (1, "green-2")))
    shown = store.next_trick(gid)
    assert shown is not None and shown["order"] == [0, 1, 2]
    store.correct_play(gid, 2, 0, 2, card="green-12")  # Ben's 12 now beats Ana's 9
    client.set_cookie("lang", "da")
    body = _entry_refused(client, gid, (2, 1), hand((0, "black-1"), (1, "black-2"), (2, "black-3")))
    assert body["error"].startswith("round 2 trick 2 is led by Ben now")
    assert "genindlæs siden" in body["error_text"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "round 1 trick 1 is led by Ben, the player left of the dealer, Ana: enter its cards in"
            " play order, Ben's first",
        ),
        (
            "es",
            "en la baza 1 de la ronda 1 sale Ben, el jugador a la izquierda de quien reparte"
            " (Ana): anota las cartas en el orden en que se jugaron, empezando por la de Ben",
        ),
        (
            "it",
            "la presa 1 del round 1 la guida Ben, il giocatore alla sinistra del mazziere (Ana):"
            " inserisci le carte nell'ordine in cui sono state giocate, a partire da quella di"
            " Ben",
        ),
        (
            "da",
            "stik 1 i runde 1 spilles ud af Ben, der sidder til venstre for giveren (Ana):"
            " indtast kortene i den rækkefølge, de blev spillet, med Bens kort først",
        ),
    ],
)
def test_a_rounds_first_trick_led_by_another_is_said_led_by_the_dealers_neighbour(
    client: FlaskClient, store: GameStore, lang: str, said: str
) -> None:
    """Was: "round 1 trick 1 is led by Ben now (a correction changed who won the trick
    before)": the game's first trick has no trick before it; the player left of the dealer
    leads every round's first trick (rules.md)."""
    gid = three_players(store)
    client.set_cookie("lang", lang)
    body = _entry_refused(client, gid, (1, 0), hand((0, "green-5"), (1, "green-9"), (2, "escape")))
    assert body.get("error_text", body["error"]) == said
    assert store.tricks(gid) == []


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "round 2 trick 2 is led by Dag and play goes clockwise: enter its cards in this"
            " order: Dag, Ana, Ben, Cai",
        ),
        (
            "es",
            "en la baza 2 de la ronda 2 sale Dag y el turno sigue en el sentido de las agujas del"
            " reloj: anota las cartas en este orden: Dag, Ana, Ben, Cai",
        ),
        (
            "it",
            "la presa 2 del round 2 la guida Dag e si gioca in senso orario: inserisci le carte"
            " in quest'ordine: Dag, Ana, Ben, Cai",
        ),
        (
            "da",
            "stik 2 i runde 2 spilles ud af Dag, og der spilles med uret: indtast kortene i denne"
            " rækkefølge: Dag, Ana, Ben, Cai",
        ),
    ],
)
def test_the_right_leader_with_the_others_out_of_order_is_told_the_play_order(
    client: FlaskClient, store: GameStore, lang: str, said: str
) -> None:
    """Was: "round 2 trick 2 is led by Dag now (a correction changed who won the trick
    before)", where nobody corrected anything and Dag led: only the others were out of turn.
    A round's first trick was told to start with Ben's card, which it did."""
    gid = store.create_game(["Ana", "Ben", "Cai", "Dag"], 0, {})
    client.set_cookie("lang", lang)
    first = hand((1, "green-5"), (3, "green-9"), (2, "escape"), (0, "green-1"))
    res = client.post(f"/api/game/{gid}/round/1/trick/0/enter", json={"plays": first})
    assert json_of(res)["error"].endswith("in this order: Ben, Cai, Dag, Ana")
    store.enter_trick(
        gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (3, "escape"), (0, "green-1"))
    )
    store.enter_trick(
        gid, 2, 0, hand((2, "green-3"), (3, "green-9"), (0, "green-2"), (1, "green-1"))
    )
    shuffled = hand((3, "black-1"), (1, "black-2"), (0, "black-3"), (2, "black-4"))
    body = _entry_refused(client, gid, (2, 1), shuffled)
    assert body.get("error_text", body["error"]) == said
    assert len(store.tricks(gid)) == 2


def test_a_card_read_twice_earlier_hides_no_new_duplicate(hand_store: GameStore) -> None:
    """Was: the deck check looked at the round's first duplicate only, so once the camera had
    read a card twice, any card could be entered again."""
    gid = three_players(hand_store, {"rounds": 3})
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    hand_store.enter_trick(gid, 2, 0, hand((2, "black-3"), (0, "black-9"), (1, "escape")))
    hand_store.enter_trick(gid, 2, 1, hand((0, "green-1"), (1, "green-2"), (2, "black-1")))
    hand_store.record_trick(gid, 3, 0, plays((0, "green-3"), (1, "green-10"), (2, "green-4")))
    hand_store.record_trick(gid, 3, 1, plays((1, "green-3"), (2, "green-6"), (0, "green-7")))
    nxt = hand_store.next_trick(gid)  # the camera read green-3 in both: the score stops there
    assert nxt is not None and nxt["order"], nxt
    order = nxt["order"]
    cards = ["green-10", "yellow-1", "yellow-2"]  # green-10 was played in trick 1
    with pytest.raises(UserError, match="green-10 was already played in round 3"):
        hand_store.enter_trick(gid, 3, 2, hand(*zip(order, cards, strict=True)))
    # ... and the camera's own duplicate does not refuse cards played once.
    fresh = ["green-12", "yellow-1", "yellow-2"]
    hand_store.enter_trick(gid, 3, 2, hand(*zip(order, fresh, strict=True)))


def test_escapes_run_out_at_five(hand_store: GameStore) -> None:
    gid = hand_store.create_game(["Ana", "Ben", "Cai", "Dag", "Eve", "Fay"], 0, {"rounds": 2})
    hand_store.enter_trick(
        gid,
        1,
        0,
        hand(
            (1, "green-1"),
            (2, "green-2"),
            (3, "green-3"),
            (4, "green-4"),
            (5, "green-5"),
            (0, "green-6"),
        ),
    )
    six = hand(
        (2, "escape"), (3, "escape"), (4, "escape"), (5, "escape"), (0, "escape"), (1, "escape")
    )
    with pytest.raises(
        UserError, match=r"all 5 escape cards of the deck were already played in round 2.*Ben"
    ):
        hand_store.enter_trick(gid, 2, 0, six)


def test_a_gap_left_by_the_camera_is_the_next_trick(hand_store: GameStore) -> None:
    """A trick refused while the camera wrote the next one leaves a gap: it is the one to
    enter, led as the tricks before it say (was: the slot after the last, already taken)."""
    gid = three_players(hand_store, {"rounds": 3})
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    hand_store.record_trick(gid, 2, 1, plays((0, "black-3"), (1, "black-9"), (2, "black-1")))
    assert hand_store.next_trick(gid) == ready(2, 0, [2, 0, 1])
    hand_store.enter_trick(gid, 2, 0, hand((2, "yellow-3"), (0, "yellow-8"), (1, "yellow-1")))
    assert [t.trick for t in hand_store.tricks(gid, 2)] == [0, 1]
    assert hand_store.next_trick(gid) == ready(3, 0, [0, 1, 2])


def test_the_demos_game_takes_no_trick_by_hand(hand_store: GameStore) -> None:
    from skullcam.store.tricks import DEMO_MARK

    gid = three_players(hand_store)
    (hand_store.game_dir(gid) / DEMO_MARK).write_text("")
    with pytest.raises(UserError, match="is the demo's recorded game; set up a new game"):
        hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))


def test_a_replaced_game_takes_no_trick_by_hand_nor_gives_one_back(
    hand_store: GameStore,
) -> None:
    """A phone still on last game's page: taking its last trick back would reopen it and take
    the table (the TV, the camera) from the game being played."""
    old = hand_store.create_game(["Ana", "Ben"], 0, {"rounds": 1})
    hand_store.set_bids(old, 1, [1, 0])
    hand_store.enter_trick(old, 1, 0, hand((1, "green-3"), (0, "green-9")))
    assert hand_store.game(old).status == "finished"
    new = three_players(hand_store)
    with pytest.raises(UserError, match=f"game {old} is no longer the table's game: game {new}"):
        hand_store.remove_hand_trick(old, 1, 0)
    assert hand_store.game(old).status == "finished" and len(hand_store.tricks(old)) == 1
    active = hand_store.active_game()
    assert active is not None and active.id == new and hand_store.replaced_by(new) is None
    set_aside = three_players(hand_store)  # the new game left unfinished for another
    with pytest.raises(UserError, match=f"game {new} is no longer the table's game"):
        hand_store.enter_trick(new, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    active = hand_store.active_game()
    assert hand_store.tricks(new) == [] and active is not None and active.id == set_aside


def test_the_menus_offer_named_cards_and_only_the_expansions_in_play() -> None:
    from skullcam.store.checks import hand_cards

    every = hand_cards({"loot": True, "kraken_and_white_whale": True})
    assert "tigress" not in every and "pirate" not in every and "mermaid" not in every
    assert {"tigress:pirate", "tigress:escape", "pirate-rosie", "mermaid-alyra"} <= set(every)
    assert every[0] == "green-1"  # the deck's order
    # Numbers, pirates, mermaids, the Tigress both ways, escape, Skull King, the expansions.
    assert len(every) == 14 * 4 + 5 + 2 + 2 + 2 + 3
    plain = hand_cards({})  # the expansions are off unless set
    assert set(every) - set(plain) == {"loot", "kraken", "white-whale"}


@pytest.mark.parametrize("kind", list(EXPANSION_SETTINGS))
def test_an_expansion_card_is_offered_and_refused_by_its_own_setting(kind: Kind) -> None:
    """The menus and the refusal of a card they do not offer read the setting from the rules'
    one table of expansion cards (``EXPANSION_SETTINGS``), as the deck dealt does."""
    from skullcam.store.checks import hand_cards, refuse_off_the_menu

    card, key = kind.value, EXPANSION_SETTINGS[kind]
    assert card in hand_cards({key: True}) and card not in hand_cards({})
    refuse_off_the_menu({key: True}, ["Ana", "Ben"], [{"player": 0, "card": card}])
    with pytest.raises(UserError, match=f"the '{key}' setting is off"):
        refuse_off_the_menu({}, ["Ana", "Ben"], [{"player": 0, "card": card}])


def test_a_gap_filled_in_the_last_round_ends_the_game(hand_store: GameStore) -> None:
    gid = three_players(hand_store, {"rounds": 2})
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    hand_store.record_trick(gid, 2, 1, plays((0, "black-3"), (1, "black-9"), (2, "black-1")))
    assert hand_store.game(gid).status == "active"
    hand_store.enter_trick(gid, 2, 0, hand((2, "yellow-3"), (0, "yellow-8"), (1, "yellow-1")))
    assert hand_store.game(gid).status == "finished"


def test_the_game_ends_once_every_round_is_in_gaps_in_earlier_rounds_too(
    hand_store: GameStore,
) -> None:
    """Only the last round's tricks were counted. Round 1's trick taken back, then the
    camera's last trick: the game ended with round 1 free, and entering it was refused
    ("game 1 is finished; resume it"). Taken back once all were in and entered again: the
    game stayed open with every trick in, and the TV never named a winner."""
    gid = three_players(hand_store, {"rounds": 2})
    first = hand((1, "green-1"), (2, "green-5"), (0, "green-2"))
    hand_store.enter_trick(gid, 1, 0, first)
    hand_store.record_trick(gid, 2, 0, plays((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-2")))
    hand_store.remove_hand_trick(gid, 1, 0)
    hand_store.record_trick(gid, 2, 1, plays((0, "purple-3"), (1, "purple-7"), (2, "purple-1")))
    assert hand_store.game(gid).status == "active"
    state = hand_store.state(gid)
    assert _where(state) == ((2, 2), (1, 0)) and state["leader"] is None
    hand_store.enter_trick(gid, 1, 0, first)
    assert hand_store.game(gid).status == "finished"
    hand_store.remove_hand_trick(gid, 1, 0)
    assert hand_store.game(gid).status == "active"
    hand_store.enter_trick(gid, 1, 0, first)
    assert hand_store.game(gid).status == "finished"


def test_the_cards_the_round_used_up_are_named_for_the_page(hand_store: GameStore) -> None:
    gid = hand_store.create_game(["Ana", "Ben", "Cai"], 0, {"loot": True})
    hand_store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "loot"), (0, "escape")))
    assert hand_store.used_up(gid, 1) == ["green-5"]  # one loot and one escape left at least
    hand_store.enter_trick(gid, 2, 0, hand((2, "tigress:escape"), (0, "loot"), (1, "escape")))
    assert hand_store.used_up(gid, 2) == ["tigress:pirate", "tigress:escape"]
    assert hand_store.used_up(gid, 1) == ["green-5"]  # another round, another deal


def test_a_card_chosen_twice_in_the_trick_names_both_players(hand_store: GameStore) -> None:
    gid = three_players(hand_store)
    twice = hand((1, "purple-9"), (2, "purple-9"), (0, "escape"))
    with pytest.raises(UserError, match="purple-9 is chosen for both Ben and Cai in this trick"):
        hand_store.enter_trick(gid, 1, 0, twice)


def test_the_form_says_what_came_before_and_what_is_missing(
    client: FlaskClient, store: GameStore
) -> None:
    gid = three_players(store, {"pirate_abilities": True})
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    assert 'id="enter-last"' not in page  # nothing recorded yet
    assert 'id="enter-bids-missing">Not every bid of round 1 is in yet.' in page
    store.set_bids(gid, 1, [0, 1, 0])
    store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    store.set_bids(gid, 2, [1, 0, 1])
    store.enter_trick(gid, 2, 0, hand((2, "green-3"), (0, "pirate-rosie"), (1, "green-2")))
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    assert "Last trick: round 2 trick 1, won by Ana." in page
    assert 'id="enter-bids-missing"' not in page
    # Rosie's choice waits: the page says so and carries the question to answer there.
    assert "Rosie won trick 1: answer who leads next (above)" in page
    assert 'id="enter-form"' not in page
    assert '"kind": "rosie"' in page
    # Round 2 is being played: no score for it yet; round 1's stands.
    assert 'id="round-1-score"' in page
    assert 'id="round-2-score"' not in page


def test_the_tricks_page_of_a_finished_game_says_it_is_over(
    client: FlaskClient, store: GameStore
) -> None:
    gid = three_players(store, {"rounds": 1})
    store.set_bids(gid, 1, [0, 1, 0])
    store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "escape")))
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    assert 'id="enter-trick"' not in page
    assert f'id="tricks-game-over">Game over · <a href="/game/{gid}/tv">Final scores</a>' in page


def test_the_cards_the_rounds_other_tricks_used_up_name_their_trick(
    hand_store: GameStore,
) -> None:
    gid = hand_store.create_game(["Ana", "Ben", "Cai"], 0, {"loot": True, "rounds": 3})
    hand_store.record_trick(gid, 3, 0, plays((0, "loot"), (1, "green-10"), (2, "tigress:pirate")))
    hand_store.record_trick(gid, 3, 1, plays((2, "loot"), (0, "green-10"), (1, "green-4")))
    hand_store.record_trick(gid, 3, 2, plays((0, "yellow-1"), (1, "yellow-2"), (2, "yellow-3")))
    # Trick 2 played the second Loot; the camera read green-10 twice, and trick 1 holds it.
    assert hand_store.played_elsewhere(gid, 3, 2) == {
        "green-10": 1,
        "tigress": 1,
        "tigress:pirate": 1,
        "tigress:escape": 1,
        "loot": 2,
        "green-4": 2,
    }
    # This trick's own cards are set aside: one Loot is left, and green-10 is trick 2's too.
    assert hand_store.played_elsewhere(gid, 3, 0) == {
        "green-10": 2,
        "green-4": 2,
        "yellow-1": 3,
        "yellow-2": 3,
        "yellow-3": 3,
    }
    assert hand_store.played_elsewhere(gid, 2, 0) == {}  # another round, another deal


def _page_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="page-data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None, page[-500:]
    data = json.loads(found.group(1))
    assert isinstance(data, dict)
    return data


def test_the_replay_pages_correct_menu_marks_cards_played_in_other_tricks(
    client: FlaskClient, store: GameStore
) -> None:
    """Was: the menu offered every id (the unnamed pirate and mermaid, Loot with its setting
    off) and said nothing of the round's other tricks, so a correction picked a card played in
    another trick and the whole score stopped."""
    gid = three_players(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    store.record_trick(gid, 2, 0, plays((2, "black-3"), (0, "pirate"), (1, "black-1")))
    store.record_trick(gid, 2, 1, plays((0, "green-2"), (1, "green-9"), (2, "escape")))
    data = _page_data(client.get(f"/game/{gid}/round/2/trick/0").get_data(as_text=True))
    cards = data["cards"]
    assert {"pirate-rosie", "mermaid-alyra", "tigress:pirate", "green-9"} <= set(cards)
    assert "mermaid" not in cards and "tigress" not in cards and "loot" not in cards
    assert "pirate" in cards  # the trick's own unnamed pirate, so it stays selected
    # Trick 2 played green-2 and green-9 (round 1's green-9 is another deal); escapes remain.
    assert data["played_elsewhere"] == {"green-2": 2, "green-9": 2}
    other = _page_data(client.get(f"/game/{gid}/round/2/trick/1").get_data(as_text=True))
    assert "pirate" not in other["cards"]
    assert other["played_elsewhere"] == {"black-1": 1, "black-3": 1}
    client.set_cookie("lang", "da")
    page = client.get(f"/game/{gid}/round/2/trick/1").get_data(as_text=True)
    assert '"played_in_trick": "spillet i stik {trick}"' in page


def test_the_cameras_picture_of_a_trick_entered_by_hand_is_on_its_page(
    client: FlaskClient, store: GameStore
) -> None:
    """The camera completed the trick a moment after the table entered it, reading Cai's
    Parrot 10 where the table typed Parrot 9 (device/recorder.py keeps its copy so). The
    replay page shows the camera's picture labelled with the cards entered and what the
    picture shows, says the trick was entered by hand, asks about the card in the reader's
    language, and can still take the entry back. Was: "Entered by hand: no picture."."""
    gid = three_players(store)
    store.enter_trick(gid, 1, 0, hand((1, "green-5"), (2, "green-9"), (0, "green-3")))
    image = store.game_dir(gid) / "r01t00.jpg"
    image.write_bytes(b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9")
    read = [(1, "green-5", 10), (2, "green-10", 200), (0, "green-3", 400)]
    detections = {
        "image_size": [640, 480],
        "cards": [
            {"player": p, "card": c, "confidence": 0.9, "box": [x, 100, x + 80, 220]}
            for p, c, x in read
        ],
        "source": "/dev/video0",
    }
    asked = store.keep_camera_reading(
        gid,
        1,
        0,
        plays(*[(p, c) for p, c, _ in read]),
        completion_image=image,
        detections=detections,
    )
    assert asked == ["the camera read Cai's green-10 where the table entered green-9"]
    trick = store.trick(gid, 1, 0)
    assert [p["card"] for p in trick.plays] == ["green-5", "green-9", "green-3"]  # as typed
    assert trick.by_hand and trick.detections["camera_source"] == "/dev/video0"
    page = client.get(f"/game/{gid}/round/1/trick/0?lang=es").get_data(as_text=True)
    assert 'id="trick-image"' in page and 'id="remove-trick"' in page
    assert "Anotada a mano. La imagen es la de la cámara" in page
    # Taken back, the camera's trick takes its place (not "its place is free again").
    assert "Quítala y ocupa su sitio la baza tal como la leyó la cámara" in page
    assert "la cámara leyó Loro 10 de Cai donde la mesa anotó Loro 9" in page
    assert "2. Loro 9 ★ / Cai / en la imagen: Loro 10" in overlay_labels(page)  # third line
    # Asked once: the camera's copy kept again (a retry after a busy database) asks nothing.
    again = store.keep_camera_reading(gid, 1, 0, plays(*[(p, c) for p, c, _ in read]))
    assert again == [] and len(store.prompts(gid)) == 1
    assert store.trick(gid, 1, 0).completion_image == trick.completion_image


def test_the_camera_keeps_no_reading_of_a_trick_it_recorded_itself(hand_store: GameStore) -> None:
    """Only a hand entry takes a camera's copy: one the camera recorded twice stays refused."""
    gid = three_players(hand_store)
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-3")))
    again = plays((1, "green-5"), (2, "green-10"), (0, "green-3"))
    assert hand_store.keep_camera_reading(gid, 1, 0, again) is None
    assert hand_store.trick(gid, 1, 0).flags == [] and not hand_store.prompts(gid)


def _camera_game_with_rosie(store: GameStore) -> int:
    """Ana, Ben and Cai with the pirates' abilities on: the camera's round 1 (Cai's 9 wins)
    and round 2's first trick, won by Ana's Rosie, her choice of who leads next asked."""
    gid = three_players(store, {"pirate_abilities": True, "rounds": 3})
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    store.record_trick(gid, 2, 0, plays((2, "black-3"), (0, "pirate-rosie"), (1, "escape")))
    assert [p.kind for p in store.prompts(gid)] == ["rosie"]
    return gid


TABLE_CHANGES: dict[str, Any] = {
    "a camera's card corrected": lambda s, g: s.correct_play(g, 1, 0, 1, card="green-10"),
    "a player corrected": lambda s, g: s.correct_play(g, 2, 0, 2, player=0),
    "Rosie's question answered": lambda s, g: s.answer_prompt(s.prompts(g)[0].id, 1),
    "Rosie's choice made on her page": lambda s, g: s.choose_ability(g, 2, 0, 2),
    "a house rule changed": lambda s, g: s.update_settings(g, {"pirate_abilities": False}),
    "a trick entered by hand": lambda s, g: (
        s.choose_ability(g, 2, 0, 1),
        s.enter_trick(g, 2, 1, hand((1, "green-3"), (2, "green-4"), (0, "green-2"))),
    ),
}

CAMERAS_OWN: dict[str, Any] = {
    "the camera's next trick": lambda s, g: s.record_trick(
        g, 2, 1, plays((1, "green-3"), (2, "green-4"), (0, "green-2"))
    ),
    "a swap the camera saw": lambda s, g: s.correct_play(
        g, 1, 0, 1, card="green-10", by_hand=False, flag="Cai's green-9 swapped for green-10"
    ),
    "a trick confirmed as recorded": lambda s, g: (
        s.record_trick(g, 2, 1, plays((1, "green-3"), (2, "green-4"), (0, "green-2")), flags=["?"]),
        s.confirm_trick(g, 2, 1),
    ),
    "Rosie's question dismissed": lambda s, g: s.dismiss_prompt(s.prompts(g)[0].id),
}


@pytest.mark.parametrize("action", [*TABLE_CHANGES, *CAMERAS_OWN])
def test_a_camera_following_the_game_learns_of_every_change_the_table_makes(
    hand_store: GameStore, action: str
) -> None:
    """A camera's referee follows the tricks it recorded and the store's changes by the
    table: a card corrected on a replay page (the winner put right), a seat corrected,
    Rosie's choice, a house rule. It learned only of a new trick entered by hand (the
    newest one's id), and flagged its next trick as led by the wrong player, a doubt the
    table had settled. Its own tricks and swaps, and a confirmed trick, change nothing it
    does not know: not rebuilding for them keeps the trick being played on the table."""
    gid = _camera_game_with_rosie(hand_store)
    changed, seen = hand_store.table_changes_since(gid, 0)
    assert not changed and seen == hand_store.last_event_id()
    {**TABLE_CHANGES, **CAMERAS_OWN}[action](hand_store, gid)
    now = hand_store.table_changes_since(gid, seen)
    assert now == (action in TABLE_CHANGES, hand_store.last_event_id())
    assert hand_store.table_changes_since(gid, now[1]) == (False, now[1])  # asked once


def test_taking_back_a_hand_entry_under_a_newer_one_is_a_change_the_camera_learns_of(
    hand_store: GameStore,
) -> None:
    """The missed trick inserted before the camera's round 2 trick moved it on; the table
    entered the next trick by hand, then took the insert back: the camera's trick went back
    to its place. The newest entry stayed the same, and the camera was not told."""
    gid = three_players(hand_store)
    hand_store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "green-1")))
    hand_store.record_trick(gid, 2, 0, plays((0, "black-3"), (1, "black-9"), (2, "escape")))
    hand_store.insert_trick(gid, 2, 0, hand((2, "yellow-5"), (0, "yellow-9"), (1, "yellow-1")))
    hand_store.enter_trick(gid, 3, 0, hand((0, "purple-5"), (1, "purple-9"), (2, "purple-1")))
    seen = hand_store.last_event_id()
    hand_store.remove_hand_trick(gid, 2, 0)
    assert [(t.round, t.trick) for t in hand_store.tricks(gid)] == [(1, 0), (2, 0), (3, 0)]
    assert hand_store.table_changes_since(gid, seen)[0]
