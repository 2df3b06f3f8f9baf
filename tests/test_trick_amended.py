"""A card swapped after its trick completed: the referee and the store follow the table."""

from __future__ import annotations

import dataclasses
import logging
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from recorded_tricks import held, trick

from skullcam.device.pipeline import Pipeline
from skullcam.device.recorder import StoreRecorder, referee_from_store
from skullcam.device.referee import Referee, TrickOutcome
from skullcam.device.scripted import ScriptedRecognizer, card_detection
from skullcam.device.sources import Frame
from skullcam.rules import Settings
from skullcam.store import GameStore
from skullcam.vision.detection import Detection
from skullcam.vision.seats import SeatLayout
from skullcam.vision.trick_state import TrickObservation


def test_the_referee_resolves_the_amended_trick_again() -> None:
    ref = Referee(players=["Ana", "Ben", "Cai"], settings=Settings(pirate_abilities=True))
    first = ref.add(trick(["green-5", "green-9", "pirate-rascal"]))
    assert first.winner == 2 and ref.round == 2  # round 1 has one trick
    assert ref.abilities[0] and ref.abilities[0][0]["pirate"] == "pirate-rascal"
    amended = ref.amend_last(trick(["green-5", "green-9", "green-1"]))
    assert amended.winner == 1 and amended.next_leader == 1
    assert (amended.round, amended.trick) == (1, 0) and ref.round == 2
    assert ref.abilities == [[]]  # Rascal no longer won: his bet is not the table's to make
    assert [o.plays for o in ref.rounds[0]] == [amended.plays]


def game(tmp_path: Path) -> tuple[GameStore, int, StoreRecorder, Referee, Frame]:
    store = GameStore(tmp_path)
    game_id = store.create_game(["Ana", "Ben", "Cai"], 2, {})
    ref = referee_from_store(store, game_id)
    recorder = StoreRecorder(store, game_id, "m1", "test")
    return store, game_id, recorder, ref, Frame(np.zeros((48, 64, 3), np.uint8), 1.2, 12)


def _cai_swaps_green_1_for_13(ref: Referee, recorder: StoreRecorder, frame: Frame) -> TrickOutcome:
    """The camera sees Cai swap his green-1 for green-13 on the last trick (Ana's green-5,
    Ben's green-9) before the pickup: the referee's amended trick, given to the recorder."""
    amended = ref.amend_last(trick(["green-5", "green-9", "green-13"]))
    recorder.on_amended(amended, frame, [], 2, "green-1")
    return amended


def _trick_and_swap_waited(tmp_path: Path) -> tuple[GameStore, int, StoreRecorder]:
    """Round 1's trick (Cai's green-1) and Cai's swap to green-13, both seen while another
    program held the database: they wait in the recorder and are kept on disk."""
    store, game_id, recorder, ref, frame = game(tmp_path)
    with held(store.path):
        recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"])), frame, [])
        _cai_swaps_green_1_for_13(ref, recorder, frame)
    return store, game_id, recorder


def test_the_store_takes_the_swapped_card_with_the_swap_in_its_history(tmp_path: Path) -> None:
    store, game_id, recorder, ref, frame = game(tmp_path)
    doubt = ("green-1 read with low confidence (0.40)",)
    recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"], doubt)), frame, [])
    (question,) = store.prompts(game_id)
    assert question.kind == "flagged"
    _cai_swaps_green_1_for_13(ref, recorder, frame)
    (recorded,) = store.tricks(game_id)
    assert [p["card"] for p in recorded.plays] == ["green-5", "green-9", "green-13"]
    assert recorded.resolution["winner"] == 2
    (entry,) = store.audit(game_id, recorded.id)
    assert entry.kind == "card" and entry.before["value"] == "green-1"
    assert "green-1 swapped for green-13" in entry.note
    said = "Cai's green-1 was swapped for green-13 after the trick completed"
    assert recorded.flags == [*doubt, said]
    assert [p.id for p in store.prompts(game_id)] == [question.id]  # asked once, still open
    assert recorder.recorded == 1


def test_the_recorded_trick_keeps_the_centre_its_seats_were_read_from(tmp_path: Path) -> None:
    """A person checking a seat on the image needs the centre the seats were measured from:
    after a knocked camera it is not the calibrated one."""
    store, game_id, recorder, ref, frame = game(tmp_path)
    seen = dataclasses.replace(trick(["green-5", "green-9", "green-1"]), seat_centre=(361.26, 244))
    recorder.on_trick(ref.add(seen), frame, [])
    (recorded,) = store.tricks(game_id)
    assert recorded.detections["seat_centre"] == [361.3, 244.0]


def test_a_swap_on_a_trick_read_cleanly_asks_the_table(tmp_path: Path) -> None:
    """A card changed after the trick completed may be a slip put right or a dispute: the
    trick is flagged and the phones ask "confirm or correct?"; confirming clears it."""
    store, game_id, recorder, ref, frame = game(tmp_path)
    recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"])), frame, [])
    assert store.prompts(game_id) == []
    _cai_swaps_green_1_for_13(ref, recorder, frame)
    (recorded,) = store.tricks(game_id)
    assert recorded.flags == ["Cai's green-1 was swapped for green-13 after the trick completed"]
    (question,) = store.prompts(game_id)
    assert (question.kind, question.round, question.trick) == ("flagged", 1, 0)
    store.answer_prompt(question.id, "confirm")
    assert store.tricks(game_id)[0].flags == [] and store.prompts(game_id) == []


def test_a_swap_waits_behind_its_trick_for_a_held_database(tmp_path: Path) -> None:
    store, game_id, recorder = _trick_and_swap_waited(tmp_path)
    assert len(recorder.pending) == 2  # the swap waits behind its trick
    assert recorder.flush()
    (recorded,) = store.tricks(game_id)
    assert [p["card"] for p in recorded.plays] == ["green-5", "green-9", "green-13"]


def test_the_pipeline_records_the_trick_as_the_table_left_it() -> None:
    """Round 2, trick 1 (Cai leads, Ben dealt): Ben lays green-1, the trick completes, he swaps
    it for green-13 before the pickup. The game's record, and who won, follow the swap; round
    1's one trick cannot be swapped (every hand is empty after it)."""
    layout = SeatLayout.default(3)

    def at(card: str, seat: int) -> Detection:
        a = layout.angles[seat]
        return card_detection(card, (320 + 95 * math.cos(a), 240 + 95 * math.sin(a)), a % math.pi)

    round_1 = [at("yellow-5", 1), at("yellow-9", 2), at("yellow-2", 0)]  # Ben leads
    script = [round_1[:1]] * 8 + [round_1[:2]] * 8 + [round_1] * 10 + [[]] * 40
    cai, ana = at("green-9", 2), at("green-5", 0)
    script += [[cai]] * 8 + [[cai, ana]] * 8 + [[cai, ana, at("green-1", 1)]] * 10
    script += [[cai, ana]] * 10 + [[cai, ana, at("green-13", 1)]] * 10 + [[]] * 40
    referee = Referee(players=["Ana", "Ben", "Cai"])
    pipeline = Pipeline(ScriptedRecognizer(script), referee, layout, motion=False)
    image = np.zeros((480, 640, 3), np.uint8)
    pipeline.run(Frame(image, k / 10, k) for k in range(len(script)))
    first, second = pipeline.outcomes
    assert first.plays == ((1, "yellow-5"), (2, "yellow-9"), (0, "yellow-2"))
    assert second.plays == ((2, "green-9"), (0, "green-5"), (1, "green-13"))
    assert second.winner == 1 and referee.leader() == 1
    assert "Ben's green-1 was swapped for green-13 after the trick completed" in second.flags
    assert referee.record()["rounds"][1]["tricks"][0]["plays"][2]["card"] == "green-13"


def test_a_swap_does_not_undo_a_correction_made_meanwhile(tmp_path: Path) -> None:
    """Someone fixed Cai's card on the trick's page before the camera's swap was written: the
    swap names a card no longer there, so it changes nothing (it used to change the first
    play that differed, putting a misread back)."""
    store, game_id, recorder, ref, frame = game(tmp_path)
    recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"])), frame, [])
    store.correct_play(game_id, 1, 0, 0, card="green-6", note="Ana's was the 6")
    amended = _cai_swaps_green_1_for_13(ref, recorder, frame)
    (recorded,) = store.tricks(game_id)
    assert [p["card"] for p in recorded.plays] == ["green-6", "green-9", "green-13"]
    store.correct_play(game_id, 1, 0, 2, card="green-12", note="no, the 12")
    recorder.on_amended(amended, frame, [], 2, "green-1")  # stale: green-1 is long gone
    (recorded,) = store.tricks(game_id)
    assert [p["card"] for p in recorded.plays] == ["green-6", "green-9", "green-12"]


def _led_by(lead: int, cards: list[str]) -> TrickObservation:
    """Three players' trick led by ``lead``, clockwise."""
    seen = trick(cards)
    players = tuple((lead + k) % 3 for k in range(3))
    return dataclasses.replace(seen, players=players, leader=lead)


def test_rosies_choice_follows_an_amendment_both_ways() -> None:
    """Rosie won round 2's first trick, so her player chooses who leads next; the swap takes
    the win from her, so the rules' leader (the winner) leads again, and the other way
    round."""
    ref = Referee(players=["Ana", "Ben", "Cai"], settings=Settings(pirate_abilities=True))
    ref.add(trick(["green-5", "green-9", "green-1"]))  # round 1
    lead = ref.leader()
    assert lead is not None
    ref.add(_led_by(lead, ["pirate-rosie", "green-3", "green-2"]))
    assert ref.leader() is None  # Rosie's player will choose
    amended = ref.amend_last(_led_by(lead, ["green-4", "green-3", "green-2"]))
    assert amended.winner == lead and ref.leader() == lead
    assert ref.abilities[1] == []  # no choice of Rosie's is waiting, nor made up
    ref.amend_last(_led_by(lead, ["pirate-rosie", "green-3", "green-2"]))
    assert ref.leader() is None
    chosen = (lead + 2) % 3
    ref.add(_led_by(chosen, ["yellow-3", "yellow-5", "yellow-7"]))
    assert ref.abilities[1] == [{"trick": 0, "pirate": "pirate-rosie", "choice": chosen}]
    assert "error" not in ref.score()


def _three_seats() -> tuple[SeatLayout, Any]:
    layout = SeatLayout.default(3)

    def at(card: str, seat: int) -> Detection:
        a = layout.angles[seat]
        return card_detection(card, (320 + 95 * math.cos(a), 240 + 95 * math.sin(a)), a % math.pi)

    return layout, at


def _resumed(script: list[list[Detection]], recorded: list[list[tuple[int, str]]]) -> Pipeline:
    """A restart: the referee holds the tricks recorded so far, the last of them still lies
    on the table (the resume guard), and the camera sees ``script``."""
    layout, _ = _three_seats()
    referee = Referee(players=["Ana", "Ben", "Cai"])
    for plays in recorded:
        referee.add_plays(plays)
    pipeline = Pipeline(ScriptedRecognizer(script), referee, layout, motion=False)
    pipeline.resume_cards = [[card for _, card in recorded[-1]]]
    image = np.zeros((480, 640, 3), np.uint8)
    pipeline.run(Frame(image, k / 10, k) for k in range(len(script)))
    return pipeline


def test_after_a_restart_the_next_rounds_first_trick_may_hold_a_card_of_the_last() -> None:
    """Round 1's one trick, recorded before the restart, still lies there; round 2 starts with
    Cai's yellow-5, a card of that trick dealt again. It was taken for round 1's card seen
    again ("not a new play"), and round 2's first trick lost it."""
    _, at = _three_seats()
    round_1 = [(1, "yellow-5"), (2, "yellow-9"), (0, "yellow-2")]
    lying = [at(card, seat) for seat, card in round_1]
    cai, ana, ben = at("yellow-5", 2), at("green-5", 0), at("green-1", 1)
    script = [lying] * 10 + [[]] * 40 + [[cai]] * 8 + [[cai, ana]] * 8 + [[cai, ana, ben]] * 10
    pipeline = _resumed(script + [[]] * 40, [round_1])
    (outcome,) = pipeline.outcomes
    assert outcome.plays == ((2, "yellow-5"), (0, "green-5"), (1, "green-1"))


def test_after_a_restart_a_swap_on_the_trick_lying_there_is_recorded() -> None:
    """The restart came between the trick's completion and Ben's swap: the swap used to be
    dropped (only a trick recorded by this run could be amended)."""
    _, at = _three_seats()
    round_1 = [(1, "yellow-5"), (2, "yellow-9"), (0, "yellow-2")]
    round_2 = [(2, "green-9"), (0, "green-5"), (1, "green-1")]
    cai, ana = at("green-9", 2), at("green-5", 0)
    script = [[cai, ana, at("green-1", 1)]] * 10 + [[cai, ana]] * 10
    script += [[cai, ana, at("green-13", 1)]] * 10 + [[]] * 40
    pipeline = _resumed(script, [round_1, round_2])
    (amended,) = pipeline.outcomes
    assert amended.plays == ((2, "green-9"), (0, "green-5"), (1, "green-13"))
    assert pipeline.referee.record()["rounds"][1]["tricks"][0]["plays"][2]["card"] == "green-13"


def test_after_a_restart_the_last_trick_swept_away_is_not_recorded_again() -> None:
    """The camera came back as the last recorded trick was being picked up: two of its cards
    were seen, then swept. That was recorded as a new, short trick (the next round's first),
    and every later trick went one place down."""
    _, at = _three_seats()
    round_1 = [(1, "yellow-5"), (2, "yellow-9"), (0, "yellow-2")]
    round_2 = [(2, "green-9"), (0, "green-5"), (1, "green-1")]
    sweeping = [at("green-9", 2), at("green-5", 0)]
    ana, ben, cai = at("black-3", 0), at("black-7", 1), at("black-9", 2)
    script = [sweeping] * 6 + [[]] * 40
    script += [[cai]] * 8 + [[cai, ana]] * 8 + [[cai, ana, ben]] * 10 + [[]] * 40  # Cai won
    pipeline = _resumed(script, [round_1, round_2])
    (outcome,) = pipeline.outcomes
    assert outcome.plays == ((2, "black-9"), (0, "black-3"), (1, "black-7"))
    assert not outcome.flags
    assert (outcome.round, outcome.trick) == (2, 1)


def test_the_winner_leading_the_card_he_swapped_out_on_top_of_the_one_he_swapped_in() -> None:
    """Ben laid purple-1 by mistake, swapped it for Rosie and won; he then led purple-1 on top
    of Rosie before the trick was picked up. purple-1 took back its old identity, as if it had
    only been hidden: the trick never cleared, the next trick's cards were read as swaps
    into it, and every later trick went one place down (a review's generated game: 1 of 10
    tricks right)."""
    layout, at = _three_seats()
    cai, ana, p1, rosie = (
        at("green-9", 2),
        at("green-5", 0),
        at("purple-1", 1),
        at("pirate-rosie", 1),
    )
    script: list[list[Detection]] = [[]] * 5
    r1 = [at("yellow-5", 1), at("yellow-9", 2), at("yellow-2", 0)]  # Ben leads, Cai wins
    script += [r1[:1]] * 8 + [r1[:2]] * 8 + [r1] * 12 + [[]] * 40
    script += [[cai]] * 8 + [[cai, ana]] * 8 + [[cai, ana, p1]] * 12  # complete, purple-1
    script += [[cai, ana]] * 10 + [[cai, ana, rosie]] * 15  # purple-1 taken, Rosie laid
    script += [[cai, ana, p1]] * 15  # Ben leads purple-1 on top of Rosie
    script += [[p1]] * 40  # the old trick is picked up; the lead stays
    follow = [p1, at("green-3", 2), at("green-4", 0)]
    script += [follow[:2]] * 8 + [follow] * 12 + [[]] * 40
    referee = Referee(players=["Ana", "Ben", "Cai"])
    pipeline = Pipeline(ScriptedRecognizer(script), referee, layout, motion=False)
    image = np.zeros((480, 640, 3), np.uint8)
    pipeline.run(Frame(image, k / 10, k) for k in range(len(script)))
    rounds = referee.record()["rounds"]
    plays = [[(p["player"], p["card"]) for p in t["plays"]] for t in rounds[1]["tricks"]]
    assert plays == [
        [(2, "green-9"), (0, "green-5"), (1, "pirate-rosie")],
        [(1, "purple-1"), (2, "green-3"), (0, "green-4")],
    ]


def test_the_camera_goes_on_after_a_trick_taken_back_from_the_middle_of_a_round(
    tmp_path: Path,
) -> None:
    """Round 4's trick 2, entered by hand, taken back after the camera recorded trick 3: the
    camera's referee is taken up again from the store, and the table's next trick is trick 4,
    led by trick 3's winner. It stopped at the gap, and filed that trick as trick 2."""
    store, game_id, recorder, ref, frame = game(tmp_path)
    for number, bids in enumerate(([0, 0, 1], [1, 0, 1], [1, 1, 1], [1, 1, 2]), start=1):
        store.set_bids(game_id, number, bids)
    deck = iter(f"{suit}-{rank}" for suit in ("green", "yellow", "purple") for rank in range(1, 15))
    for number in (1, 2, 3):
        for _ in range(number):
            recorder.on_trick(ref.add(trick([next(deck) for _ in range(3)])), frame, [])
    recorder.on_trick(ref.add(trick(["black-1", "black-2", "black-3"])), frame, [])
    leader = ref.leader()
    assert leader is not None
    hand = [(leader + k) % 3 for k in range(3)]
    store.enter_trick(
        game_id,
        4,
        1,
        [
            {"player": p, "card": c}
            for p, c in zip(hand, ["black-4", "black-5", "black-6"], strict=True)
        ],
    )
    ref = referee_from_store(store, game_id)
    recorder.on_trick(ref.add(trick(["black-7", "black-8", "black-14"])), frame, [])
    store.remove_hand_trick(game_id, 4, 1)

    ref = referee_from_store(store, game_id)
    assert (ref.round, ref.trick) == (4, 3)
    assert ref.leader() == 2  # Cai's black-14 won trick 3
    recorder.on_trick(ref.add(trick(["black-9", "black-10", "black-11"])), frame, [])
    assert [(t.round, t.trick) for t in store.tricks(game_id) if t.round == 4] == [
        (4, 0),
        (4, 2),
        (4, 3),
    ]


def _entered_first(store: GameStore, game_id: int, cards: list[str]) -> list[dict[str, Any]]:
    """Round 1's trick as the table enters it by hand, Ana leading (the camera's order)."""
    typed = [{"player": p, "card": c} for p, c in enumerate(cards)]
    store.enter_trick(game_id, 1, 0, typed)
    return typed


def _the_table_keeps_its_cards_and_is_asked_once(store: GameStore, game_id: int) -> None:
    """Cai's green-1, entered by hand, stays after the camera saw it swapped for green-13;
    the swap is one doubt on the entry, asked once, and the camera's copy kept with the
    entry follows the swap: taken back, the camera's trick stands as the table left it."""
    entered = store.trick(game_id, 1, 0)
    assert [p["card"] for p in entered.plays] == ["green-5", "green-9", "green-1"]
    assert [a.kind for a in store.audit(game_id, entered.id)] == ["hand"]  # no card changed
    said = "Cai's green-1 was swapped for green-13 after the trick completed"
    assert entered.flags == [said]
    (asked,) = store.prompts(game_id)
    assert (asked.kind, asked.round, asked.trick) == ("flagged", 1, 0)
    kept = [p["card"] for p in entered.source_info["camera_plays"]]
    assert kept == ["green-5", "green-9", "green-13"]
    store.remove_hand_trick(game_id, 1, 0)
    stands = store.trick(game_id, 1, 0)
    assert not stands.by_hand and [p["card"] for p in stands.plays] == kept
    assert stands.flags == [said] and [q.kind for q in store.prompts(game_id)] == ["flagged"]


def test_a_swap_on_a_trick_the_table_entered_by_hand_first_is_asked_not_applied(
    tmp_path: Path,
) -> None:
    """The table enters the trick a moment before the camera completes it (its copy is kept
    with the entry), then the camera sees Cai swap green-1 for green-13 before the pickup.
    The swap went to the entry as a card correction, the table's typed card replaced by the
    camera without a word in its history beyond an audit line."""
    store, game_id, recorder, ref, frame = game(tmp_path)
    _entered_first(store, game_id, ["green-5", "green-9", "green-1"])
    recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"])), frame, [])
    assert store.prompts(game_id) == []  # the camera agreed at completion
    amended = _cai_swaps_green_1_for_13(ref, recorder, frame)
    recorder.on_amended(amended, frame, [], 2, "green-1")  # seen again: nothing more
    _the_table_keeps_its_cards_and_is_asked_once(store, game_id)


def test_a_kept_swap_on_a_trick_entered_by_hand_since_is_asked_not_applied(
    tmp_path: Path,
) -> None:
    """The trick and its swap waited for a held database and the run stopped; the table
    entered the trick by hand before the next start. The kept swap, replayed after the
    kept trick (whose copy goes with the entry), corrected the entry's card."""
    store, game_id, _ = _trick_and_swap_waited(tmp_path)
    assert (store.game_dir(game_id) / "unrecorded.json").is_file()
    _entered_first(store, game_id, ["green-5", "green-9", "green-1"])
    StoreRecorder(store, game_id, "m1", "test").take_kept()
    _the_table_keeps_its_cards_and_is_asked_once(store, game_id)


def test_a_kept_swap_replayed_after_it_went_in_is_said_taken_not_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The kept trick and swap went in beside the table's entry, but the run stopped before
    unrecorded.json was cleared; the next start replays them. The log said "Cai's green-1
    swapped for green-13, but that trick was entered by hand; not amended", as if the swap
    had been lost: it was taken the first time."""
    store, game_id, _ = _trick_and_swap_waited(tmp_path)
    kept = store.game_dir(game_id) / "unrecorded.json"
    left = kept.read_bytes()
    _entered_first(store, game_id, ["green-5", "green-9", "green-1"])
    StoreRecorder(store, game_id, "m1", "test").take_kept()
    kept.write_bytes(left)  # as if the run stopped before clearing it
    with caplog.at_level(logging.INFO, logger="skullcam.device.recorder"):
        StoreRecorder(store, game_id, "m1", "test").take_kept()
    assert "not amended" not in caplog.text
    assert "swapped for green-13 after the trick completed; taken already" in caplog.text
    _the_table_keeps_its_cards_and_is_asked_once(store, game_id)


def test_a_swap_to_the_card_the_table_entered_asks_nothing_more(tmp_path: Path) -> None:
    """The table typed green-13, the camera read green-1 (asked) and then saw the swap to
    green-13: the entry is what lies there, so the swap adds no doubt, and the camera's copy
    follows it."""
    store, game_id, recorder, ref, frame = game(tmp_path)
    _entered_first(store, game_id, ["green-5", "green-9", "green-13"])
    recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"])), frame, [])
    _cai_swaps_green_1_for_13(ref, recorder, frame)
    entered = store.trick(game_id, 1, 0)
    assert [p["card"] for p in entered.plays] == ["green-5", "green-9", "green-13"]
    assert entered.flags == ["the camera read Cai's green-1 where the table entered green-13"]
    assert len(store.prompts(game_id)) == 1
    kept = [p["card"] for p in entered.source_info["camera_plays"]]
    assert kept == ["green-5", "green-9", "green-13"]


def test_a_swap_on_an_entry_the_camera_took_up_is_asked_not_applied(tmp_path: Path) -> None:
    """The camera took up a trick entered by hand with its cards still on the table (no copy
    of its own kept with it), then saw Cai swap green-1 for green-13: the swap replaced the
    entry's green-1. The entry stays as typed, and the swap is one doubt, asked once."""
    store, game_id, recorder, ref, frame = game(tmp_path)
    _entered_first(store, game_id, ["green-5", "green-9", "green-1"])
    ref = referee_from_store(store, game_id)
    amended = _cai_swaps_green_1_for_13(ref, recorder, frame)
    recorder.on_amended(amended, frame, [], 2, "green-1")  # seen again: nothing more
    entered = store.trick(game_id, 1, 0)
    assert [p["card"] for p in entered.plays] == ["green-5", "green-9", "green-1"]
    assert entered.flags == ["Cai's green-1 was swapped for green-13 after the trick completed"]
    assert len(store.prompts(game_id)) == 1 and "camera_plays" not in entered.source_info


@pytest.mark.parametrize(
    ("before", "leader"), [((2, 0), 1), ((1, 0), 0)], ids=["at-its-place", "a-round-earlier"]
)
def test_a_swap_waiting_for_a_held_database_follows_its_trick_moved_by_an_insert(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, before: tuple[int, int], leader: int
) -> None:
    """The camera missed a trick and filed round 2's in its place; Cai swapped green-1 for
    green-13 on it while another program held the database, and the table inserted the
    missed trick (there, or before round 1's) before the swap went in, moving the camera's
    trick on a place. The swap went to the place it was seen at, now the table's entry or
    round 1's trick, and was dropped with "not amended": the camera's trick kept green-1."""
    store, game_id, recorder, ref, frame = game(tmp_path)
    recorder.on_trick(ref.add(trick(["yellow-5", "yellow-9", "yellow-2"])), frame, [])
    recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"])), frame, [])
    with held(store.path):
        _cai_swaps_green_1_for_13(ref, recorder, frame)
    hand = [(leader + k) % 3 for k in range(3)]
    missed = [{"player": p, "card": f"black-{p + 1}"} for p in hand]
    store.insert_trick(game_id, *before, missed)
    with caplog.at_level(logging.INFO, logger="skullcam.device.recorder"):
        assert recorder.flush()
    assert "not amended" not in caplog.text
    entered = store.trick(game_id, *before)
    assert entered.by_hand and [p["card"] for p in entered.plays] == [p["card"] for p in missed]
    assert entered.flags == [] and [a.kind for a in store.audit(game_id, entered.id)] == ["hand"]
    moved = store.tricks(game_id, 2)[-1]
    assert (moved.round, moved.trick) == (2, 1)
    assert [p["card"] for p in moved.plays] == ["green-5", "green-9", "green-13"]
    assert "Cai's green-1 was swapped for green-13 after the trick completed" in moved.flags


def test_the_cameras_referee_follows_an_entry_that_kept_its_card_over_a_swap(
    tmp_path: Path,
) -> None:
    """The table entered round 2's first trick by hand (Ben's green-1, Cai's green-9 won);
    the camera took it up lying there and saw Ben swap green-1 for green-13. The entry kept
    green-1, the swap a doubt on it, but the camera's referee took green-13: Ben won there and
    was to lead the next trick, and Cai's lead was recorded with "Cai led, but the game
    expected Ben to lead", though the record had Cai win and lead."""
    store, game_id, recorder, _, _ = game(tmp_path)
    _entered_first(store, game_id, ["yellow-5", "yellow-9", "yellow-2"])  # Ben won
    typed = [(1, "green-1"), (2, "green-9"), (0, "green-5")]  # Ben leads; Cai's 9 wins
    store.enter_trick(game_id, 2, 0, [{"player": p, "card": c} for p, c in typed])
    layout, at = _three_seats()
    ben, cai, ana = at("green-1", 1), at("green-9", 2), at("green-5", 0)
    script = [[ben, cai, ana]] * 10 + [[cai, ana]] * 10 + [[at("green-13", 1), cai, ana]] * 10
    script += [[]] * 40 + [[at("black-2", 2)]] * 8 + [[at("black-2", 2), at("black-5", 0)]] * 8
    script += [[at("black-2", 2), at("black-5", 0), at("black-9", 1)]] * 10 + [[]] * 40
    referee = referee_from_store(store, game_id)
    pipeline = Pipeline(ScriptedRecognizer(script), referee, layout, recorder, motion=False)
    pipeline.resume_cards = [[card for _, card in typed]]
    image = np.zeros((480, 640, 3), np.uint8)
    pipeline.run(Frame(image, k / 10, k) for k in range(len(script)))
    entered = store.trick(game_id, 2, 0)
    assert [(p["player"], p["card"]) for p in entered.plays] == typed
    assert entered.flags == ["Ben's green-1 was swapped for green-13 after the trick completed"]
    last = store.trick(game_id, 2, 1)
    assert [(p["player"], p["card"]) for p in last.plays] == [
        (2, "black-2"),
        (0, "black-5"),
        (1, "black-9"),
    ]
    assert not [f for f in last.flags if "led, but" in f]
    plays = pipeline.referee.record()["rounds"][1]["tricks"][0]["plays"]
    assert [(p["player"], p["card"]) for p in plays] == typed


def test_a_kept_swap_already_written_is_not_written_again_at_the_next_run(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A trick and its swap waited for a held database and were kept on disk; both went in,
    and the run was killed before the kept list was written again. The next run applied the
    swap a second time, found green-1 gone and logged "the recorded trick was changed
    meanwhile; not amended" though nothing had changed but the swap itself."""
    store, game_id, recorder = _trick_and_swap_waited(tmp_path)
    kept = store.game_dir(game_id) / "unrecorded.json"
    text = kept.read_text()
    assert recorder.flush()
    kept.write_text(text)  # as a kill between the writes and the kept list's would leave it
    caplog.clear()
    with caplog.at_level(logging.INFO):
        StoreRecorder(store, game_id, "m2").take_kept()
    (recorded,) = store.tricks(game_id)
    assert [p["card"] for p in recorded.plays] == ["green-5", "green-9", "green-13"]
    assert len(store.audit(game_id, recorded.id)) == 1  # the one swap, once
    assert not [r.getMessage() for r in caplog.records]  # nothing was left to record
    assert not kept.exists()
