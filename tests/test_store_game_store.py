"""GameStore: games, bids, tricks, live state, corrections with audit, prompts, events."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_support import plays, spec_example

from skullcam.errors import UserError
from skullcam.store import GameStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    s = GameStore(tmp_path / "data")
    yield s
    s.close()


def new_game(store: GameStore, settings: dict | None = None) -> int:
    return store.create_game(["Ana", "Ben", "Cai"], 0, settings or {})


def test_create_game_and_read_back(store: GameStore) -> None:
    gid = new_game(store, {"loot": True})
    game = store.game(gid)
    assert game.players == ["Ana", "Ben", "Cai"]
    assert game.settings == {"loot": True}
    assert game.status == "active"
    active = store.active_game()
    assert active is not None and active.id == gid
    assert set(store.remembered_names()) == {"Ana", "Ben", "Cai"}


@pytest.mark.parametrize(
    ("players", "dealer", "settings", "message"),
    [
        (["Ana"], 0, {}, "2 to 8 players"),
        ([f"P{i}" for i in range(9)], 0, {}, "2 to 8 players"),
        (["Ana", "ana"], 0, {}, "must differ"),
        (["Ana", " "], 0, {}, "needs a name"),
        # Zero-width and filler characters pass strip() and show as nothing.
        (["Ana", "\u200b"], 0, {}, "needs a name"),
        (["Ana", "\u3164"], 0, {}, "needs a name"),
        (["\u200d\u0301", "Ben"], 0, {}, "needs a name"),
        (["Ana", "Ben"], 2, {}, "first dealer"),
        (["Ana", "Ben"], 0, {"rounds": 11}, "invalid settings"),
        (["Ana", "Ben"], 0, {"colour": "red"}, "unknown setting"),
    ],
)
def test_create_game_rejects_bad_input(
    store: GameStore, players: list[str], dealer: int, settings: dict, message: str
) -> None:
    with pytest.raises(UserError, match=message):
        store.create_game(players, dealer, settings)


def test_a_null_setting_at_creation_is_its_default(store: GameStore) -> None:
    """As in a settings change (docs/web.md): null goes back to the default."""
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": None, "loot": False})
    assert store.game(gid).settings == {"loot": False}
    assert store.state(gid)["rounds"] == 10


def test_unknown_game(store: GameStore) -> None:
    with pytest.raises(UserError, match="no game 42"):
        store.game(42)


def test_bids_range_and_partial_entry(store: GameStore) -> None:
    gid = new_game(store)
    store.set_bid(gid, 2, 1, 2)
    assert store.bids(gid, 2) == [None, 2, None]
    with pytest.raises(UserError, match=r"round 2: .*bid must be 0\.\.2"):
        store.set_bid(gid, 2, 0, 3)
    with pytest.raises(UserError, match="whole number"):
        store.set_bid(gid, 2, 0, "1")  # type: ignore[arg-type]
    with pytest.raises(UserError, match="round must be"):
        store.set_bids(gid, 11, [0, 0, 0])
    with pytest.raises(UserError, match="needs 3 bids"):
        store.set_bids(gid, 1, [0, 0])
    with pytest.raises(UserError, match="player must be"):
        store.set_bid(gid, 1, 5, 0)


def test_record_trick_state_and_export(store: GameStore) -> None:
    gid = new_game(store)
    store.set_bids(gid, 1, [1, 0, 1])
    state = store.state(gid)
    assert (state["round"], state["dealer"], state["leader"], state["cards"]) == (1, 0, 1, 1)
    tid = store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "tigress:pirate"), (0, "escape")))
    trick = store.trick(gid, 1, 0)
    assert trick.id == tid
    assert trick.resolution["winner"] == 1
    assert "Cai" in trick.resolution["explanation"]
    record = store.export_record(gid)
    assert record == spec_example()
    state = store.state(gid)
    # Round 1 is done, so the state moves on to round 2: Ben deals, Cai leads.
    assert (state["round"], state["dealer"], state["leader"]) == (2, 1, 2)


def test_the_state_keeps_the_last_rounds_last_trick_until_the_next_round_has_one(
    store: GameStore,
) -> None:
    """The TV showed this round's last trick: at a round's start it had none, and how the
    round before ended left the screen with its last card (a review of screenshots)."""
    gid = new_game(store)
    assert store.state(gid)["last_trick"] is None
    store.set_bids(gid, 1, [1, 0, 1])
    first = plays((1, "green-5"), (2, "tigress:pirate"), (0, "escape"))
    store.record_trick(gid, 1, 0, first)
    store.set_bids(gid, 2, [0, 1, 1])
    state = store.state(gid)
    assert (state["round"], state["tricks"]) == (2, [])
    assert state["last_trick"] == {"round": 1, "trick": 0, "plays": first, "winner": 2}
    second = plays((2, "yellow-5"), (0, "yellow-2"), (1, "yellow-9"))
    store.record_trick(gid, 2, 0, second)
    assert store.state(gid)["last_trick"] == {"round": 2, "trick": 0, "plays": second, "winner": 1}


def test_bids_entered_ahead_do_not_stop_the_rounds_in_play_from_scoring(
    store: GameStore,
) -> None:
    # The demo (and a table that writes all bids down first) enters every round's bids before
    # play: a record may end with one unfinished round only, so the later ones wait.
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"rounds": 3})
    for r in (1, 2, 3):
        store.set_bids(gid, r, [0, 1, 0])
    assert store.score(gid)["ok"]
    assert len(store.export_record(gid)["rounds"]) == 1
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-2"), (0, "green-3")))
    store.record_trick(gid, 2, 0, plays((2, "yellow-5"), (0, "yellow-2"), (1, "yellow-9")))
    score = store.score(gid)
    assert score["ok"], score
    assert [r["bids"] for r in score["record"]["rounds"]] == [[0, 1, 0], [0, 1, 0]]
    assert score["score"]["totals"] == [10, 20, 10]


def test_record_trick_rejects_bad_tricks(store: GameStore) -> None:
    gid = new_game(store)
    with pytest.raises(UserError, match="at least one card"):
        store.record_trick(gid, 1, 0, [])
    with pytest.raises(UserError, match="at most 3 cards"):
        store.record_trick(
            gid, 1, 0, plays((1, "green-5"), (2, "escape"), (0, "escape"), (0, "loot"))
        )
    with pytest.raises(UserError, match="unknown card"):
        store.record_trick(gid, 1, 0, plays((1, "green-15"), (2, "escape"), (0, "escape")))
    with pytest.raises(UserError, match="plays twice"):
        store.record_trick(gid, 1, 0, plays((1, "green-5"), (1, "escape"), (0, "escape")))
    with pytest.raises(UserError, match=r"tricks 0\.\.0"):
        store.record_trick(gid, 1, 1, plays((1, "green-5"), (2, "escape"), (0, "escape")))
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "escape"), (0, "escape")))
    with pytest.raises(UserError, match="already recorded"):
        store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "escape"), (0, "escape")))


def test_live_is_replaced_and_cleared_by_recording(store: GameStore) -> None:
    gid = new_game(store)
    store.set_live(gid, 1, 0, plays((1, "green-5")), winner=1, leader=1)
    store.set_live(gid, 1, 0, plays((1, "green-5"), (2, "black-2")), winner=2, leader=1)
    live = store.live(gid)
    assert live is not None and live["winner"] == 2 and len(live["plays"]) == 2
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "black-2"), (0, "escape")))
    assert store.live(gid) is None


def test_the_camera_publishes_a_card_laid_at_its_place_without_the_pages_whole_state(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each card laid publishes the live trick at the place the pages show (after round 1's
    one trick: round 2, trick 0), with its winner so far. Reading the pages' whole state for
    that place (scores, prompts, bids) cost about 20 ms of the camera's time a card."""
    import numpy as np

    from skullcam.device.recorder import StoreRecorder
    from skullcam.device.sources import Frame

    gid = new_game(store)
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((0, "green-5"), (1, "green-9"), (2, "escape")))
    state = store.state(gid)
    assert store.round_in_play(gid) == (state["round"], state["next_trick"]) == (2, 0)
    recorder = StoreRecorder(store, gid, "m1", "test")

    def whole_state(game_id: int) -> dict:
        raise AssertionError("the live trick read the pages' whole state")

    monkeypatch.setattr(store, "state", whole_state)
    frame = Frame(np.zeros((48, 64, 3), np.uint8), 1.0, 10)
    recorder.on_live([{"player": 1, "card": "green-3"}, {"player": 2, "card": "green-7"}], 1, frame)
    live = store.live(gid)
    assert live is not None and (live["round"], live["trick"]) == (2, 0)
    assert (live["winner"], live["leader"]) == (2, 1)


def test_correction_keeps_original_and_audits(store: GameStore) -> None:
    gid = new_game(store)
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    before = store.score(gid)
    assert before["ok"] and before["score"]["totals"] == [10, -10, -10]
    trick = store.correct_play(gid, 1, 0, 1, card="green-3", note="it was a 3")
    assert trick.plays[1]["card"] == "green-3"
    assert trick.original_plays[1]["card"] == "green-9"
    assert trick.corrected
    assert trick.resolution["winner"] == 0
    after = store.score(gid)
    assert after["score"]["totals"] == [10, 20, 10]
    (entry,) = store.audit(gid, trick.id)
    assert (entry.kind, entry.before["value"], entry.after["value"], entry.note) == (
        "card",
        "green-9",
        "green-3",
        "it was a 3",
    )
    with pytest.raises(UserError, match="unknown card"):
        store.correct_play(gid, 1, 0, 1, card="purple-99")
    with pytest.raises(UserError, match="play must be"):
        store.correct_play(gid, 1, 0, 7, card="green-1")


def test_correcting_a_winner_keeps_the_tricks_played_after_it_scoreable(
    store: GameStore,
) -> None:
    """A dispute settled after the fact: Ben's card was the Tigress as a pirate, so he won
    round 2's first trick, but Ana (the winner as read) had already led the second one."""
    gid = new_game(store)
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    store.set_bids(gid, 2, [0, 2, 0])
    store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-9"), (1, "green-2")))
    store.record_trick(gid, 2, 1, plays((0, "yellow-3"), (1, "yellow-7"), (2, "yellow-1")))
    assert store.score(gid)["score"]["totals"] == [0, 0, 30]
    store.correct_play(gid, 2, 0, 2, card="tigress:pirate", note="it was the Tigress")
    after = store.score(gid)
    assert after["ok"], after.get("error")
    assert after["score"]["totals"] == [40, 50, 30]
    assert after["score"]["warnings"] == [
        "round 2: trick 2: Ana led, but by the rules Ben leads it; scored as played"
    ]


def test_player_correction_swaps_seats(store: GameStore) -> None:
    gid = new_game(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    trick = store.correct_play(gid, 1, 0, 1, player=0)  # the green 9 was Ana's
    assert [p["player"] for p in trick.plays] == [1, 2, 0]  # still clockwise from Ben
    assert [p["card"] for p in trick.plays] == ["green-5", "escape", "green-9"]
    [change] = store.audit(gid, trick.id)
    assert change.kind == "player"
    assert change.before == {"play": 1, "value": 2}
    assert change.after == {"play": 1, "value": 0, "card": "green-9", "swapped_card": "escape"}


def test_a_player_given_a_card_in_a_short_trick_swaps_nothing(store: GameStore) -> None:
    gid = new_game(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9")), flags=["short"])
    trick = store.correct_play(gid, 1, 0, 1, player=0)
    [change] = store.audit(gid, trick.id)
    assert change.after == {"play": 1, "value": 0, "card": "green-9"}


def test_a_correction_from_a_page_made_out_of_date_is_refused_and_loses_no_card(
    store: GameStore,
) -> None:
    """Two phones on one trick: A says the escape was Cai's, which swaps Cai's green 9 and
    Ana's escape. B, still showing the old order, corrects "Cai's green 9" at place 1: applied
    to what is there now, it overwrote the escape and the green 9 stayed, Ana's."""
    gid = new_game(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    store.correct_play(gid, 1, 0, 2, player=2, expect={"card": "escape", "player": 0})
    with pytest.raises(UserError) as refused:
        store.correct_play(gid, 1, 0, 1, card="green-8", expect={"card": "green-9", "player": 2})
    assert str(refused.value) == (
        "round 1 trick 1: card 2 is now Cai's escape, not Cai's green-9 as this page showed:"
        " another page corrected the trick meanwhile. Reload the page and correct it again"
    )
    trick = store.trick(gid, 1, 0)
    assert [(p["player"], p["card"]) for p in trick.plays] == [
        (1, "green-5"),
        (2, "escape"),
        (0, "green-9"),
    ]
    assert [c.kind for c in store.audit(gid)] == ["player"]
    with pytest.raises(UserError, match=r"expect's player must be a whole number, got 'xxxxx"):
        store.correct_play(
            gid, 1, 0, 1, card="green-8", expect={"card": "green-9", "player": "x" * 500}
        )
    with pytest.raises(UserError, match=r"card 2 is now Cai's escape, not Cai's green-9"):
        store.correct_play(gid, 1, 0, 1, card="green-8", expect={"card": "green-9", "player": "2"})
    # A page showing the trick as it is lands, its seat as text too (as a correction's own
    # player is read); so does one that sends no expectation.
    store.correct_play(gid, 1, 0, 2, card="green-8", expect={"card": "GREEN-9", "player": "0"})
    store.correct_play(gid, 1, 0, 0, card="green-4")
    assert [p["card"] for p in store.trick(gid, 1, 0).plays] == ["green-4", "escape", "green-8"]


@pytest.mark.parametrize(
    "expect",
    [
        "green-9",
        {"card": "green-9", "seat": 2},
        ["green-9", 2],
        {},
        {"card": None},
        {"player": None},
        {"player": True},
        {"player": 2.0},
    ],
    ids=repr,
)
def test_an_expectation_not_shaped_as_a_play_is_refused(store: GameStore, expect: object) -> None:
    gid = new_game(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    with pytest.raises(UserError, match=r"expect must be .* the page showed|expect's player"):
        store.correct_play(gid, 1, 0, 1, card="green-8", expect=expect)
    assert store.audit(gid) == []


def test_tigress_prompt_redeclares(store: GameStore) -> None:
    gid = new_game(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "tigress:pirate"), (0, "escape")))
    pid = store.create_prompt(gid, "tigress", 1, 0, player=2)
    assert [p.id for p in store.prompts(gid)] == [pid]
    with pytest.raises(UserError, match="'pirate' or 'escape'"):
        store.answer_prompt(pid, "maybe")
    store.answer_prompt(pid, "escape")
    assert store.trick(gid, 1, 0).plays[1]["card"] == "tigress:escape"
    assert store.prompts(gid) == []
    with pytest.raises(UserError, match="already answered"):
        store.answer_prompt(pid, "pirate")
    assert [c.kind for c in store.audit(gid)] == ["tigress"]


def test_a_tigress_question_closes_when_the_card_is_corrected_to_another(
    store: GameStore,
) -> None:
    """It used to stay open, and answering it was refused ("no Tigress; correct the card")."""
    gid = new_game(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "tigress:pirate"), (0, "escape")))
    pid = store.create_prompt(gid, "tigress", 1, 0, player=2)
    store.correct_play(gid, 1, 0, 0, card="green-7")  # another card: the question stands
    assert [p.id for p in store.prompts(gid)] == [pid]
    store.correct_play(gid, 1, 0, 1, card="green-9")
    assert store.prompts(gid) == []
    assert store.prompt(pid).status == "dismissed"


def test_ability_prompts_write_round_abilities(store: GameStore) -> None:
    gid = new_game(store, {"pirate_abilities": True})
    pid = store.create_prompt(gid, "rascal_bet", 1, 0, player=1)
    with pytest.raises(UserError, match="0, 10 or 20"):
        store.answer_prompt(pid, 5)
    store.answer_prompt(pid, "10")
    assert store.abilities(gid, 1) == [{"trick": 0, "pirate": "pirate-rascal", "choice": 10}]
    harry = store.create_prompt(gid, "harry", 1, 0, player=1)
    with pytest.raises(UserError, match="-1, 0 or \\+1"):
        store.answer_prompt(harry, 2)
    rosie = store.create_prompt(gid, "rosie", 1, 0, player=1)
    with pytest.raises(UserError, match="player must be"):
        store.answer_prompt(rosie, 9)
    store.answer_prompt(rosie, 2)
    assert {a["pirate"] for a in store.abilities(gid, 1)} == {"pirate-rascal", "pirate-rosie"}
    with pytest.raises(UserError, match="unknown prompt kind"):
        store.create_prompt(gid, "bendt", 1)


def test_flagged_prompt_confirm_clears_flags(store: GameStore) -> None:
    gid = new_game(store)
    store.record_trick(
        gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")), flags=["low_confidence"]
    )
    pid = store.create_prompt(gid, "flagged", 1, 0)
    store.answer_prompt(pid, "confirm")
    assert store.trick(gid, 1, 0).flags == []
    assert store.audit(gid)[0].kind == "confirm"


def test_a_trick_corrected_by_hand_settles_its_question_on_the_phones(
    store: GameStore,
) -> None:
    """The phones' "Correct" only opens the trick's page; the question closes once the trick is
    corrected there, not when a player backs out."""
    gid = new_game(store)
    store.record_trick(
        gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")), flags=["low_confidence"]
    )
    pid = store.create_prompt(gid, "flagged", 1, 0)
    store.correct_play(gid, 1, 0, 0, card="green-6")
    assert (store.prompt(pid).status, store.prompt(pid).answer) == ("answered", "correct")
    assert store.trick(gid, 1, 0).flags == ["low_confidence"]  # until the table confirms the rest


def test_a_tigress_answered_on_a_phone_leaves_the_tricks_other_doubts_open(
    store: GameStore,
) -> None:
    gid = new_game(store)
    store.record_trick(
        gid, 1, 0, plays((1, "green-5"), (2, "tigress:pirate"), (0, "green-2")), flags=["low"]
    )
    doubt = store.create_prompt(gid, "flagged", 1, 0)
    store.answer_prompt(store.create_prompt(gid, "tigress", 1, 0, player=2), "escape")
    assert store.trick(gid, 1, 0).plays[1]["card"] == "tigress:escape"
    assert store.prompt(doubt).status == "open"


DOUBT = "Tigress laid at 47 degrees: pirate or escape?"


def _doubtful_tigress(store: GameStore) -> int:
    """Cai's Tigress laid askew, as the recorder records it: its doubt in the trick's flags,
    beside another (``low``), and the phones asked about her with the doubt she stands for."""
    gid = new_game(store)
    doubtful = plays((1, "green-5"), (2, "tigress:pirate"), (0, "green-2"))
    store.record_trick(
        gid, 1, 0, doubtful, flags=[DOUBT, "low"], asks=[("tigress", 2, {"flag": DOUBT})]
    )
    return gid


@pytest.mark.parametrize("answer", ["escape", "pirate"])
def test_a_tigress_answered_on_a_phone_takes_her_doubt_off_the_trick(
    store: GameStore, answer: str
) -> None:
    """Was: answered, the trick's page still read "Check this trick: Tigress laid at 47
    degrees: pirate or escape?" (helper J's game). The answer settles that doubt, the
    declaration kept ("pirate") as well as changed; the trick's other doubts stay."""
    gid = _doubtful_tigress(store)
    (asked,) = store.prompts(gid)
    store.answer_prompt(asked.id, answer)
    assert store.trick(gid, 1, 0).plays[1]["card"] == f"tigress:{answer}"
    assert store.trick(gid, 1, 0).flags == ["low"]


@pytest.mark.parametrize("answer", ["escape", "pirate"])
def test_a_tigress_declared_on_her_trick_page_answers_the_phones_question(
    store: GameStore, answer: str
) -> None:
    """Was: declared with the trick page's buttons, the phones and the TV went on asking
    "Cai: Tigress as pirate or escape?", and the page kept her doubt."""
    gid = _doubtful_tigress(store)
    (asked,) = store.prompts(gid)
    store.redeclare_tigress(gid, 1, 0, answer)
    assert store.prompts(gid) == []
    assert (store.prompt(asked.id).status, store.prompt(asked.id).answer) == ("answered", answer)
    assert store.trick(gid, 1, 0).flags == ["low"]


@pytest.mark.parametrize("asked", ["dismissed", "without its doubt"])
def test_a_tigress_declared_on_her_trick_page_takes_her_doubt_off_whatever_asked(
    store: GameStore, asked: str
) -> None:
    """Was: with her question dismissed on a phone, or asked before questions named the doubt
    they stand for (payload {}), the trick's page went on asking "Tigress laid at 47 degrees:
    pirate or escape?" after she was declared on it."""
    gid = new_game(store)
    doubtful = plays((1, "green-5"), (2, "tigress:pirate"), (0, "green-2"))
    payload: dict[str, str] = {} if asked == "without its doubt" else {"flag": DOUBT}
    store.record_trick(gid, 1, 0, doubtful, flags=[DOUBT, "low"], asks=[("tigress", 2, payload)])
    if asked == "dismissed":
        (question,) = store.prompts(gid)
        store.dismiss_prompt(question.id)
    store.redeclare_tigress(gid, 1, 0, "escape")
    assert store.prompts(gid) == []
    assert store.trick(gid, 1, 0).flags == ["low"]


def test_the_score_so_far_stands_while_a_finished_round_waits_for_a_bid(
    store: GameStore,
) -> None:
    """Was: every total on the TV dropped to 0 until the forgotten bid was entered."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    store.set_bids(gid, 2, [0, None, 1])
    store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-9"), (1, "green-2")))
    store.record_trick(gid, 2, 1, plays((0, "yellow-5"), (1, "yellow-9"), (2, "yellow-2")))
    score = store.score(gid)
    assert not score["ok"] and "no bid for Ben" in score["error"]
    assert score["so_far"]["totals"] == [20, 10, 10] and len(score["so_far"]["rounds"]) == 1
    store.set_bids(gid, 2, [0, 1, 1])
    assert store.score(gid)["ok"] and "so_far" not in store.score(gid)


def test_the_score_so_far_stands_while_a_card_is_to_be_corrected(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    store.set_bids(gid, 2, [0, 1, 1])
    store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-9"), (1, "green-2")))
    store.correct_play(gid, 2, 0, 1, card="green-5")  # a card twice in one trick
    score = store.score(gid)
    assert not score["ok"] and score["so_far"]["totals"] == [20, 10, 10]


def test_settings_change_recomputes_scores(store: GameStore) -> None:
    gid = new_game(store)
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    assert store.score(gid)["score"]["totals"] == [10, -10, -10]
    store.update_settings(gid, {"zero_bid_points": 20, "miss_penalty_per_trick": 5})
    assert store.score(gid)["score"]["totals"] == [20, -5, -20]
    store.update_settings(gid, {"zero_bid_points": None})
    assert store.game(gid).settings == {"miss_penalty_per_trick": 5}
    with pytest.raises(UserError, match="invalid settings"):
        store.update_settings(gid, {"points_per_trick": 500})
    assert [c.kind for c in store.audit(gid)] == ["settings", "settings"]


def test_settings_cannot_cut_rounds_already_played(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {})
    store.set_bids(gid, 1, [0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (0, "green-9")))
    store.set_bids(gid, 2, [0, 0])
    store.record_trick(gid, 2, 0, plays((1, "green-1"), (0, "green-2")))
    with pytest.raises(UserError, match="round 2"):
        store.update_settings(gid, {"rounds": 1})


def test_import_export_round_trip_and_finish(store: GameStore) -> None:
    record = {
        "format": "skullcam-game/1",
        "players": ["Ana", "Ben"],
        "settings": {"rounds": 1},
        "first_dealer": 1,
        "rounds": [
            {
                "bids": [1, 0],
                "tricks": [
                    {"plays": [{"player": 0, "card": "black-3"}, {"player": 1, "card": "green-14"}]}
                ],
            }
        ],
    }
    gid = store.import_record(record)
    assert store.export_record(gid) == record
    assert store.game(gid).status == "finished"
    # Ana leads (left of dealer Ben), trumps the green 14: 20 + 10 bonus.
    assert store.score(gid)["score"]["totals"] == [30, 10]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "JSON object"),
        ({"format": "other"}, "not a skullcam game record"),
        ({"format": "skullcam-game/1", "players": ["A"], "rounds": []}, "invalid game record"),
        (
            {
                "format": "skullcam-game/1",
                "players": ["A", "B"],
                "rounds": [{"bids": [9, 0], "tricks": []}],
            },
            "invalid game record",
        ),
        (  # kept while abilities were off, it broke the score when they were turned on
            {
                "format": "skullcam-game/1",
                "players": ["A", "B"],
                "settings": {"rounds": 1, "pirate_abilities": False},
                "rounds": [
                    {
                        "bids": [1, 0],
                        "tricks": [
                            {
                                "plays": [
                                    {"player": 0, "card": "pirate-rosie"},
                                    {"player": 1, "card": "green-3"},
                                ]
                            }
                        ],
                        "abilities": [{"trick": 10**20, "pirate": "pirate-rosie", "choice": 1}],
                    }
                ],
            },
            r"round 1: an ability names trick 100000000000000000000, but the round has only 1",
        ),
    ],
)
def test_import_rejects_bad_records(store: GameStore, record: object, message: str) -> None:
    with pytest.raises(UserError, match=message):
        store.import_record(record)
    assert store.games() == []


def test_last_trick_finishes_game(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 1})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (0, "green-9")))
    assert store.game(gid).status == "finished"
    assert store.active_game() is None
    assert store.events_since(0)[-1].kind == "game_finished"


def test_events_strictly_increase_and_filter_by_game(store: GameStore) -> None:
    a = new_game(store)
    b = new_game(store)
    store.set_bid(a, 1, 0, 1)
    store.set_bid(b, 1, 0, 0)
    events = store.events_since(0)
    ids = [e.id for e in events]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert {e.game_id for e in store.events_since(0, game_id=a)} == {a}
    assert store.events_since(ids[-1]) == []
    assert store.last_event_id() == ids[-1]


def test_wait_for_event_wakes_on_write_from_other_thread(store: GameStore) -> None:
    gid = new_game(store)
    last = store.last_event_id()
    threading.Timer(0.05, lambda: store.set_bid(gid, 1, 0, 1)).start()
    assert store.wait_for_event(last, timeout=5.0)
    assert store.events_since(last)[0].kind == "bids"
    assert not store.wait_for_event(store.last_event_id(), timeout=0.01)


def test_second_store_on_same_folder_sees_writes(tmp_path: Path) -> None:
    one = GameStore(tmp_path)
    two = GameStore(tmp_path)
    gid = one.create_game(["Ana", "Ben"], 1)
    assert two.game(gid).first_dealer == 1
    assert (tmp_path / "skullcam.db").exists()
    one.close()
    two.close()


def test_concurrent_writers_from_threads(store: GameStore) -> None:
    gid = store.create_game([f"P{i}" for i in range(8)], 0, {})
    errors: list[BaseException] = []

    def bid(player: int) -> None:
        try:
            for _ in range(10):
                store.set_bid(gid, 1, player, 1)
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=bid, args=(p,)) for p in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert store.bids(gid, 1) == [1] * 8
    assert len(store.events_since(0, game_id=gid)) == 1 + 80


def test_game_dir_and_relative_image_paths(store: GameStore) -> None:
    gid = new_game(store)
    folder = store.game_dir(gid)
    assert folder == store.data_dir / "games" / str(gid) and folder.is_dir()
    image = folder / "r1t0.jpg"
    image.write_bytes(b"jpeg")
    store.record_trick(
        gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")), completion_image=image
    )
    stored = store.trick(gid, 1, 0).completion_image
    assert stored == f"games/{gid}/r1t0.jpg"
    assert store.image_path(stored) == image


def test_abilities_follow_the_setting(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [1, 0])
    store.record_trick(gid, 1, 0, plays((1, "pirate-rascal"), (0, "green-2")))
    store.answer_prompt(store.create_prompt(gid, "rascal_bet", 1, 0, player=1), 20)
    assert store.export_record(gid)["rounds"][0]["abilities"] == [
        {"trick": 0, "pirate": "pirate-rascal", "choice": 20}
    ]
    with_bet = store.score(gid)["score"]["totals"]
    store.update_settings(gid, {"pirate_abilities": False})
    assert "abilities" not in store.export_record(gid)["rounds"][0]
    assert store.score(gid)["ok"]
    store.update_settings(gid, {"pirate_abilities": True})
    assert store.score(gid)["score"]["totals"] == with_bet


def test_cannonball_kept_with_bids(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {"scoring": "rascal"})
    store.set_bid(gid, 1, 0, 1, cannonball=True)
    store.set_bid(gid, 1, 1, 0)
    assert store.cannonball(gid, 1) == [True, False]
    assert store.export_record(gid)["rounds"][0]["cannonball"] == [True, False]
    with pytest.raises(UserError, match="cannonball"):
        store.set_bids(gid, 1, [1, 0], cannonball=[True])


def test_a_cannonball_is_called_only_under_rascals_scoring(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {})
    with pytest.raises(UserError, match="only under Rascal's scoring; this game scores 'standard'"):
        store.set_bid(gid, 1, 0, 1, cannonball=True)
    with pytest.raises(UserError, match="only under Rascal's scoring"):
        store.set_bids(gid, 1, [1, 0], cannonball=[False, True])
    assert store.cannonball(gid, 1) is None
    store.set_bids(gid, 1, [1, 0], cannonball=[False, False])  # no call: nothing to refuse
    store.update_settings(gid, {"scoring": "rascal"})
    store.set_bid(gid, 1, 0, 1, cannonball=True)
    assert store.cannonball(gid, 1) == [True, False]


def test_a_recorded_trick_is_synced_to_disk_and_the_live_view_is_not(store: GameStore) -> None:
    """SQLite's ``synchronous`` level of each write: FULL (2) survives a power cut, NORMAL (1)
    may lose the last commits, which only the live view, redrawn at every card, can afford."""
    gid = store.create_game(["a", "b", "c"], 0, {})
    level = store._conn().execute
    store.set_live(gid, 1, 0, [{"player": 1, "card": "green-3"}])
    assert level("PRAGMA synchronous").fetchone()[0] == 1
    store.set_bids(gid, 1, [0, 1, 0])
    assert level("PRAGMA synchronous").fetchone()[0] == 2


def test_a_prompt_in_a_status_the_store_never_writes_is_refused_by_name(
    store: GameStore,
) -> None:
    """A hand-edited database: answering or dismissing it is a clear refusal, not a 500."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    pid = store.create_prompt(gid, "rascal_bet", 1, 0, player=1)
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE prompts SET status = 'expired' WHERE id = ?", (pid,))
    conn.close()
    with pytest.raises(UserError, match=f"prompt {pid} is expired, not open"):
        store.answer_prompt(pid, 10)
    with pytest.raises(UserError, match=f"prompt {pid} is expired, not open"):
        store.dismiss_prompt(pid)


def test_a_missing_camera_is_kept_shown_in_the_state_and_announced(store: GameStore) -> None:
    gid = new_game(store)
    assert not store.camera_missing() and store.state(gid)["camera_missing"] is False
    before = store.last_event_id()
    store.set_camera_missing(True)
    store.set_camera_missing(True)  # said again (a camera tried again): no second event
    assert store.camera_missing() and store.state(gid)["camera_missing"] is True
    assert GameStore(store.data_dir).camera_missing()  # kept in the database, not in memory
    assert store.state(gid)["camera_missing_why"] == "no_camera"
    store.set_camera_missing(False)
    assert not store.camera_missing() and store.state(gid)["camera_missing_why"] is None
    assert [(e.kind, e.payload) for e in store.events_since(before, gid)] == [
        ("camera", {"missing": True, "why": "no_camera"}),
        ("camera", {"missing": False}),
    ]


def test_why_no_camera_records_the_game_is_kept_and_announced(store: GameStore) -> None:
    """A recording played as the camera that ran out of frames mid-game left the pages
    showing a normal round: the state said a camera was recording. Why nothing records is
    kept, and a change of reason is announced like the flag itself."""
    gid = new_game(store)
    before = store.last_event_id()
    store.set_camera_missing(True, "frames_ended")
    store.set_camera_missing(True, "frames_ended")  # said again: no second event
    state = store.state(gid)
    assert state["camera_missing"] is True and state["camera_missing_why"] == "frames_ended"
    assert GameStore(store.data_dir).camera_missing_why() == "frames_ended"
    store.set_camera_missing(True, "camera_failed")
    assert store.camera_missing_why() == "camera_failed"
    store.set_camera_missing(False)  # a camera plays again
    assert [e.payload for e in store.events_since(before, gid) if e.kind == "camera"] == [
        {"missing": True, "why": "frames_ended"},
        {"missing": True, "why": "camera_failed"},
        {"missing": False},
    ]
    with pytest.raises(ValueError, match="why must be one of"):
        store.set_camera_missing(True, "asleep")
    # The flag as an older skullcam kept it (no reason): no camera at all.
    with sqlite3.connect(store.path) as conn:
        conn.execute("INSERT INTO meta (key, value) VALUES ('camera_missing', '1')")
    conn.close()
    assert store.state(gid)["camera_missing_why"] == "no_camera"


def test_a_camera_that_sees_badly_is_kept_in_the_state_and_announced(store: GameStore) -> None:
    """A frozen or blurred picture is said on the TV: kept in the database (another process
    serves the pages), announced once a change, and not said while no camera records at all."""
    gid = new_game(store)
    assert store.state(gid)["camera_notice"] is None
    before = store.last_event_id()
    store.set_camera_notice({"why": "blurred", "sharpness": 0.083})
    store.set_camera_notice({"why": "blurred", "sharpness": 0.083})  # the same: no event
    assert GameStore(store.data_dir).state(gid)["camera_notice"] == {
        "why": "blurred",
        "sharpness": 0.083,
    }
    store.set_camera_notice({"why": "frozen"})
    store.set_camera_missing(True, "camera_failed")  # the camera failed: that is what is said
    assert store.state(gid)["camera_notice"] is None
    store.set_camera_missing(False)
    assert store.state(gid)["camera_notice"] == {"why": "frozen"}
    store.set_camera_notice(None)
    store.set_camera_notice(None)
    assert store.camera_notice() is None
    notices = [e.payload for e in store.events_since(before, gid) if "notice" in e.payload]
    assert notices == [
        {"notice": {"why": "blurred", "sharpness": 0.083}},
        {"notice": {"why": "frozen"}},
        {"notice": None},
    ]
    with pytest.raises(ValueError, match="why must be one of frozen, dark, blurred"):
        store.set_camera_notice({"why": "sleepy"})
    with sqlite3.connect(store.path) as conn:  # damaged: no notice, not a broken page
        conn.execute("INSERT INTO meta (key, value) VALUES ('camera_notice', '{\"why\":')")
    conn.close()
    assert store.state(gid)["camera_notice"] is None


def test_the_state_says_whether_the_demo_made_the_game(store: GameStore) -> None:
    """The pages say the demo's game is one (skullcam run with no camera replays a recorded
    game): by its mark, or for a game made before marks, by its tricks' source."""
    from skullcam.store.tricks import DEMO_MARK, DEMO_SOURCE

    table = new_game(store)
    assert store.state(table)["demo"] is False and not store.is_demo_game(table)
    marked = store.create_game(
        ["Ana", "Ben", "Cai"], 0, {}, lambda g: (store.game_dir(g) / DEMO_MARK).touch()
    )
    assert store.state(marked)["demo"] is True and store.is_demo_game(marked)
    older = new_game(store)
    assert store.state(older)["demo"] is False
    store.record_trick(
        older,
        1,
        0,
        plays((0, "green-3"), (1, "green-5"), (2, "green-9")),
        detections={"source": DEMO_SOURCE, "frame_index": 12},
    )
    assert store.state(older)["demo"] is True and store.is_demo_game(older)


@pytest.mark.parametrize(
    "name",
    [
        "Zoë",
        "José",
        "😀",
        "李",
        "عليّ",
        # Joiners and presentation selectors that shape what is drawn: a family, a pirate
        # flag, a red heart, the Sinhala "Sri", a Persian name's letters kept apart.
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",
        "\U0001f3f4\u200d\u2620\ufe0f",
        "\u2764\ufe0f",
        "\u0dc1\u0dca\u200d\u0dbb\u0dd3",
        "\u0645\u06cc\u200c\u0646\u0627",
    ],
)
def test_names_that_show_something_are_kept(store: GameStore, name: str) -> None:
    gid = store.create_game([name, "Ben"], 0, {})
    assert store.game(gid).players == [name, "Ben"]


INVISIBLE = [
    "\ufe0f",  # variation selector 16
    "\u034f",  # combining grapheme joiner
    "\u115f",  # Hangul choseong filler
    "\u2800",  # the blank Braille pattern
    "\u200b",  # zero-width space
    "\u200c",  # zero-width non-joiner
    "\u200d",  # zero-width joiner
    "\u2060",  # word joiner
    "\ufeff",  # byte order mark
    "\u00ad",  # soft hyphen
]


@pytest.mark.parametrize("invisible", INVISIBLE)
def test_a_character_that_draws_nothing_is_no_part_of_a_name(
    store: GameStore, invisible: str
) -> None:
    """ "Ana" and "Ana" with a variation selector were two players the TV showed as two Anas;
    the character is dropped before the names are compared and stored."""
    with pytest.raises(UserError, match="'Ana' appears twice"):
        store.create_game(["Ana", f"Ana{invisible}"], 0, {})
    gid = store.create_game([f"A{invisible}na{invisible}", "Ben"], 0, {})
    assert store.game(gid).players == ["Ana", "Ben"]
    with pytest.raises(UserError, match="needs a name"):
        store.create_game(["Ana", invisible * 3], 0, {})


def _stored_the_old_way(data: Path, players: list[str], remembered: list[str]) -> int:
    """A game as a skullcam before names lost their invisible characters stored it: the same
    schema, the names' text as typed in its players column and in the remembered names. Made
    here with today's store and then written as that one wrote them (its b456eef^ code was run
    once to check the bytes match: '["Ana","Ana\ufe0f","Ben"]')."""
    old = GameStore(data)
    gid = old.create_game(["P1", "P2", "P3"], 0, {})
    old.set_bids(gid, 1, [0, 1, 0])
    old.record_trick(gid, 1, 0, plays((0, "green-5"), (1, "green-9"), (2, "green-2")))
    old.close()
    with sqlite3.connect(data / "skullcam.db") as conn:
        conn.execute("UPDATE games SET players = ? WHERE id = ?", (json.dumps(players), gid))
        conn.execute("DELETE FROM player_names")
        for when, name in enumerate(remembered):
            conn.execute("INSERT INTO player_names (name, last_used) VALUES (?, ?)", (name, when))
    conn.close()
    return gid


def test_names_stored_with_characters_that_draw_nothing_read_as_the_table_reads_them(
    tmp_path: Path,
) -> None:
    """A game stored before names lost their invisible characters kept them: "Ana" and "Ana"
    + U+FE0F showed as two Anas, and its score stopped ("'players' must differ: 'Ana' and
    'Ana️' are one name; rename one", and no page renames a player). The names are read as the
    table sees them, the second Ana numbered, so the game scores and exports again; the
    stored text is not touched."""
    data = tmp_path / "data"
    stored = ["Ana", "Ana\ufe0f", "Ben\u200b"]
    gid = _stored_the_old_way(data, stored, ["ana\u200b", "Ana", "Ana\ufe0f", "Ben\u200b"])
    store = GameStore(data)
    try:
        assert store.game(gid).players == ["Ana", "Ana 2", "Ben"]
        score = store.score(gid)
        assert score["ok"], score.get("error")
        assert store.export_record(gid)["players"] == ["Ana", "Ana 2", "Ben"]
        assert store.remembered_names() == ["Ben", "Ana"]  # most recent first, once each
    finally:
        store.close()
    with sqlite3.connect(data / "skullcam.db") as conn:
        row = conn.execute("SELECT players FROM games WHERE id = ?", (gid,)).fetchone()
    conn.close()
    assert json.loads(row[0]) == stored


def test_a_games_names_are_read_once_however_often_the_game_is_read(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page's state reads the game six times and the camera three times a card: the names'
    Unicode work is done once per list of names, and each read still gets its own list."""
    from skullcam.store import rows

    asked: list[list[str]] = []
    readable = rows.readable_names

    def counted(names: list[str]) -> list[str]:
        asked.append(list(names))
        return readable(names)

    monkeypatch.setattr(rows, "readable_names", counted)
    names = ["Ana", "Ben", "Read Once"]  # read in no other test
    gid = store.create_game(names, 0, {})
    first = store.game(gid).players
    first.append("Dee")  # a caller's own list: the next read does not see it
    assert [store.game(gid).players for _ in range(3)] == [names] * 3
    store.state(gid)
    assert asked in ([], [names])  # none where this process read these names before


def test_a_name_keeps_its_accents_but_not_a_pile_of_them(store: GameStore) -> None:
    """A letter under 39 combining marks smeared over the TV's head and the rows below (a
    review's screenshot); a name typed with a separate accent clashed with nothing though it
    looks like the same name typed on another phone."""
    gid = store.create_game(["Z" + "\u0336" * 39 + "oe", "Jose\u0301", "Nguyê\u0303n"], 0, {})
    assert store.game(gid).players == ["Z" + "\u0336" * 3 + "oe", "José", "Nguyễn"]
    with pytest.raises(UserError, match="twice"):
        store.create_game(["José", "Jose\u0301"], 0, {})


def test_a_tricks_questions_are_recorded_with_it_or_not_at_all(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked after the trick, in a write of their own, the questions were lost to a crash
    between the two (a kill -9 after round 3 trick 1: its Rosie question never came), and a
    restart asks nothing of a trick already recorded."""
    import skullcam.store.tricks as tricks_module

    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-3"), (2, "green-2"), (0, "green-1")))
    rosie = plays((2, "green-3"), (0, "pirate-rosie"), (1, "tigress:escape"))
    asks = [("tigress", 1, {}), ("flagged", None, {"flags": ["a card seen late"]})]

    def crash(*_: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")  # the process dies here

    with monkeypatch.context() as patch:
        patch.setattr(tricks_module, "ask_and_follow", crash)
        with pytest.raises(sqlite3.OperationalError):
            store.record_trick(gid, 2, 0, rosie, asks=asks)
    assert store.tricks(gid, 2) == [] and store.prompts(gid) == []
    store.record_trick(gid, 2, 0, rosie, asks=asks)  # the restart records it again
    asked = [(p.kind, p.player, p.payload) for p in store.prompts(gid)]
    assert asked == [
        ("tigress", 1, {}),
        ("flagged", None, {"flags": ["a card seen late"]}),
        ("rosie", 0, {}),
    ]
    with pytest.raises(UserError, match="unknown prompt kind 'guess'"):
        store.record_trick(gid, 2, 1, rosie, asks=[("guess", None, {})])
    assert len(store.tricks(gid, 2)) == 1
