"""The camera's recorder beside the table's own hand entries, inserts and take-backs made
within the one second the camera takes to learn of them."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest
from recorded_tricks import trick
from store_support import hand, type_next_trick

from skullcam.device.recorder import StoreRecorder, referee_from_store
from skullcam.device.referee import Referee
from skullcam.device.sources import Frame
from skullcam.store import GameStore
from skullcam.store.camera_reading import shares_a_card
from skullcam.store.tricks import AFTER_AN_ENTRY, WENT_BACK


def _frame() -> Frame:
    return Frame(np.zeros((48, 64, 3), np.uint8), 1.2, 12)


def _game(tmp_path: Path) -> tuple[GameStore, int, Referee, StoreRecorder]:
    """Three players, three rounds bid, its referee and the camera's recorder."""
    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], 2, {})
    for r, bids in enumerate(([0, 1, 0], [1, 1, 0], [1, 0, 1]), start=1):
        store.set_bids(game_id, r, bids)
    return store, game_id, referee_from_store(store, game_id), StoreRecorder(store, game_id, "m1")


def _placed(store: GameStore, game_id: int) -> list[tuple[int, int, str, bool]]:
    return [(t.round, t.trick, t.plays[0]["card"], t.by_hand) for t in store.tricks(game_id)]


def test_a_trick_filed_after_an_insert_taken_back_within_the_watch_goes_in_its_place(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The table inserted a trick before the camera's round 2 trick 1, and the camera, which
    learns of it within a second, went on after it (its referee rebuilt: next round 3 trick
    1). The table took the insert back (it had been a slip) and, before the camera learned of
    that too, the camera completed round 2's second trick: filed as round 3 trick 1, with
    round 2 trick 2, where it was played, left free for the table to enter again."""
    store, game_id, ref, recorder = _game(tmp_path)
    recorder.on_trick(ref.add(trick(["yellow-5", "yellow-9", "yellow-2"])), _frame(), [])
    recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"])), _frame(), [])
    store.insert_trick(game_id, 2, 0, hand((1, "green-3"), (2, "green-2"), (0, "green-4")))
    ref, recorder = referee_from_store(store, game_id), StoreRecorder(store, game_id, "m1")
    assert (ref.round, ref.trick) == (3, 0)
    store.remove_hand_trick(game_id, 2, 0)  # within the second: the camera still at round 3
    black = ref.add(trick(["black-5", "black-9", "black-1"]))
    with caplog.at_level(logging.INFO, logger="skullcam.device.recorder"):
        recorder.on_trick(black, _frame(), [])
    assert _placed(store, game_id) == [
        (1, 0, "yellow-5", False),
        (2, 0, "green-5", False),
        (2, 1, "black-5", False),
    ]
    assert "round 3 trick 1 went in as round 2 trick 2" in caplog.text
    went_back = store.trick(game_id, 2, 1)
    moved = [(c.before, c.after, c.note) for c in store.audit(game_id, went_back.id)]
    assert moved == [({"round": 3, "trick": 0}, {"round": 2, "trick": 1}, WENT_BACK)]
    recorder.on_amended(
        ref.amend_last(trick(["black-5", "black-9", "black-13"])), _frame(), [], 2, "black-1"
    )
    assert [p["card"] for p in store.trick(game_id, 2, 1).plays] == [
        "black-5",
        "black-9",
        "black-13",
    ]
    following = referee_from_store(store, game_id)  # the watch's rebuild a moment later
    assert (following.round, following.trick) == (3, 0)


def test_a_cameras_trick_with_no_card_of_the_entry_at_its_place_goes_in_after_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The camera missed round 2's first trick; the table entered it by hand, and before the
    camera learned of the entry it completed round 2's second trick, filed as the first. It
    was kept as the entry's camera reading, every card asked about as misread ("the camera
    read a's black-5 where the table entered green-13"), its picture shown as the entry's,
    and the trick itself was lost. A reading that shares no card with the entry is another
    trick: it goes in the place after it."""
    store, game_id, ref, recorder = _game(tmp_path)
    recorder.on_trick(ref.add(trick(["yellow-5", "yellow-9", "yellow-2"])), _frame(), [])
    type_next_trick(store, game_id, ["green-13", "green-9", "green-1"])  # a wins it, and leads next
    with caplog.at_level(logging.INFO, logger="skullcam.device.recorder"):
        recorder.on_trick(ref.add(trick(["black-5", "black-9", "black-1"])), _frame(), [])
    assert _placed(store, game_id) == [
        (1, 0, "yellow-5", False),
        (2, 0, "green-9", True),
        (2, 1, "black-5", False),
    ]
    entry = store.trick(game_id, 2, 0)
    assert entry.flags == [] and entry.completion_image is None
    assert store.trick(game_id, 2, 1).completion_image
    assert "round 2 trick 1 went in as round 2 trick 2" in caplog.text
    went_on = store.trick(game_id, 2, 1)
    moved = [(c.before, c.after, c.note) for c in store.audit(game_id, went_on.id)]
    assert moved == [({"round": 2, "trick": 0}, {"round": 2, "trick": 1}, AFTER_AN_ENTRY)]
    assert [p for p in store.prompts(game_id) if p.round == 2] == []
    following = referee_from_store(store, game_id)  # the watch's rebuild a moment later
    assert (following.round, following.trick) == (3, 0)


def test_a_cameras_reading_sharing_a_card_with_the_entry_stays_with_it(tmp_path: Path) -> None:
    """The same trick read with one card otherwise is still the entry's camera reading."""
    store, game_id, ref, recorder = _game(tmp_path)
    recorder.on_trick(ref.add(trick(["yellow-5", "yellow-9", "yellow-2"])), _frame(), [])
    type_next_trick(store, game_id, ["green-13", "green-9", "green-1"])
    recorder.on_trick(ref.add(trick(["green-13", "green-8", "green-1"])), _frame(), [])
    assert _placed(store, game_id) == [(1, 0, "yellow-5", False), (2, 0, "green-9", True)]
    entry = store.trick(game_id, 2, 0)
    assert entry.flags == ["the camera read b's green-8 where the table entered green-9"]
    assert entry.completion_image


def test_a_swap_kept_for_the_next_run_finds_a_trick_gone_a_place_back(tmp_path: Path) -> None:
    """As in the test above, the camera's trick went in a place back; the swap it then saw
    on it waited for a held database, and the run stopped. The next run looked for the trick
    at the place the camera had filed it, found nothing there, and dropped the swap ("not
    amended")."""
    from recorded_tricks import held

    store, game_id, ref, recorder = _game(tmp_path)
    recorder.on_trick(ref.add(trick(["yellow-5", "yellow-9", "yellow-2"])), _frame(), [])
    recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"])), _frame(), [])
    store.insert_trick(game_id, 2, 0, hand((1, "green-3"), (2, "green-2"), (0, "green-4")))
    ref, recorder = referee_from_store(store, game_id), StoreRecorder(store, game_id, "m1")
    store.remove_hand_trick(game_id, 2, 0)
    recorder.on_trick(ref.add(trick(["black-5", "black-9", "black-1"])), _frame(), [])
    amended = ref.amend_last(trick(["black-5", "black-9", "black-13"]))
    with held(store.path):
        recorder.on_amended(amended, _frame(), [], 2, "black-1")
    StoreRecorder(store, game_id, "m1").take_kept()  # the next run's start
    swapped = store.trick(game_id, 2, 1)
    assert [p["card"] for p in swapped.plays] == ["black-5", "black-9", "black-13"]
    assert not (store.game_dir(game_id) / "unrecorded.json").exists()


def test_a_cameras_next_trick_sharing_only_an_escape_with_the_entry_goes_in_after_it(
    tmp_path: Path,
) -> None:
    """The trick after the entry holds an escape, as the entry does: a round plays several,
    so the escape proves nothing, and the camera's trick goes in after the entry instead of
    being kept as its reading (every card asked about as misread, the trick lost)."""
    store, game_id, ref, recorder = _game(tmp_path)
    recorder.on_trick(ref.add(trick(["yellow-5", "yellow-9", "yellow-2"])), _frame(), [])
    type_next_trick(store, game_id, ["green-13", "escape", "green-1"])  # a wins it, and leads next
    recorder.on_trick(ref.add(trick(["black-5", "escape", "black-1"])), _frame(), [])
    assert _placed(store, game_id)[1:] == [(2, 0, "escape", True), (2, 1, "black-5", False)]
    assert store.trick(game_id, 2, 0).flags == []


def test_the_entrys_trick_misread_in_every_card_and_led_as_it_was_stays_with_it(
    tmp_path: Path,
) -> None:
    """The camera missed round 1's trick, and the table entered it (Ana led, Ben won); the
    camera then completed the same trick with every card misread. Led by Ana, it is not
    the trick after (round 2's, which Ben leads): it stays with the entry, each card asked,
    instead of going in as round 2's first trick, which no one can take back, and every
    later trick a place late."""
    store, game_id, ref, recorder = _game(tmp_path)
    type_next_trick(store, game_id, ["green-5", "green-9", "green-2"])
    assert referee_from_store(store, game_id).leader() == 1  # Ben leads round 2
    recorder.on_trick(ref.add(trick(["green-6", "green-8", "green-3"])), _frame(), [])
    assert _placed(store, game_id) == [(1, 0, "green-5", True)]
    entry = store.trick(game_id, 1, 0)
    assert len(entry.flags) == 3 and entry.completion_image


def test_only_a_one_of_a_kind_card_proves_a_reading_the_entrys() -> None:
    """An escape is in several tricks of a round; a Tigress declared at the table is the
    Tigress the camera reads."""
    entry = hand((0, "tigress:escape"), (1, "escape"), (2, "green-2"))
    assert not shares_a_card(entry, hand((0, "green-7"), (1, "escape"), (2, "black-1")))
    assert shares_a_card(entry, hand((0, "tigress"), (1, "green-8"), (2, "black-1")))
    assert shares_a_card(hand((0, "escape"), (1, "loot")), hand((0, "escape"), (1, "loot")))
