"""A database another program holds, or one that is damaged: no trick lost, plain messages."""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
from pathlib import Path

import numpy as np
import pytest
from flask.testing import FlaskClient
from recorded_tricks import held, trick
from store_support import hand, type_next_trick

from skullcam.cli import main
from skullcam.device.recorder import StoreRecorder, referee_from_store
from skullcam.device.referee import Referee
from skullcam.device.sources import Frame
from skullcam.errors import UserError
from skullcam.store import GameStore
from skullcam.store.game_store import database_error, is_busy
from skullcam.store.tricks import WENT_ON
from skullcam.vision.trick_state import tigress_flag


def busy_error(path: Path) -> sqlite3.OperationalError:
    with held(path):
        conn = sqlite3.connect(path, timeout=0)
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            return err
        finally:
            conn.close()
    raise AssertionError("the database was not held")


def test_a_held_database_is_not_called_damaged(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    err = busy_error(store.path)
    assert is_busy(err)
    text = str(database_error(store.path, err))
    assert "in use by another program" in text and "Restore a backup" not in text
    readonly = str(database_error(store.path, sqlite3.OperationalError("unable to open database")))
    assert "cannot be opened for writing" in readonly and str(tmp_path) in readonly
    damaged = str(database_error(store.path, sqlite3.DatabaseError("malformed")))
    assert "Restore a backup" in damaged
    assert not is_busy(sqlite3.DatabaseError("database disk image is malformed"))
    full = str(database_error(store.path, sqlite3.OperationalError("database or disk is full")))
    assert "is full" in full and "free some space" in full and "Restore" not in full


def test_a_disk_io_error_on_a_full_disk_says_the_disk_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh database on a full disk gets SQLite's "disk I/O error": no backup to restore."""
    import shutil

    io_error = sqlite3.OperationalError("disk I/O error")
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda _: usage._replace(free=4096))
    assert "free some space" in str(database_error(tmp_path / "skullcam.db", io_error))
    monkeypatch.setattr(shutil, "disk_usage", lambda _: usage._replace(free=1 << 30))
    not_full = str(database_error(tmp_path / "skullcam.db", io_error))
    assert "check the disk" in not_full and "Restore a backup" not in not_full


def two_round_game(
    tmp_path: Path, first_dealer: int = 2
) -> tuple[GameStore, int, Referee, StoreRecorder]:
    """A three-player game with two rounds bid, its referee and the camera's recorder."""
    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], first_dealer, {})
    store.set_bids(game_id, 1, [0, 1, 0])
    store.set_bids(game_id, 2, [1, 1, 0])
    return (
        store,
        game_id,
        referee_from_store(store, game_id),
        StoreRecorder(store, game_id, "m1", "test"),
    )


def test_tricks_wait_for_a_held_database_and_are_recorded_in_order(tmp_path: Path) -> None:
    store, game_id, ref, recorder = two_round_game(tmp_path)
    frame = Frame(np.zeros((48, 64, 3), np.uint8), 1.2, 12)
    first = ref.add(trick(["green-3", "green-9", "green-5"]))
    second = ref.add(trick(["yellow-2", "yellow-4", "yellow-1"]))
    with held(store.path):
        recorder.on_trick(first, frame, [])  # returns after one short wait, not 10 s
        recorder.on_live([], None, frame)
        recorder.on_trick(second, frame, [])
        assert len(recorder.pending) == 2 and recorder.recorded == 0
        assert store.tricks(game_id) == []  # readers still read while the writer waits
        image = store.image_path(f"games/{game_id}/r02t00.jpg")
        assert image is not None and image.is_file()  # images first
    recorder.on_live([], None, frame)  # the next card on the table writes what waited
    assert not recorder.pending and recorder.recorded == 2
    rounds = [(t.round, t.trick, t.plays[0]["card"]) for t in store.tricks(game_id)]
    assert rounds == [(1, 0, "green-3"), (2, 0, "yellow-2")]


def test_close_says_which_tricks_a_still_held_database_kept_out(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game_id = store.create_game(["a", "b", "c"], 2, {})
    store.set_bids(game_id, 1, [0, 1, 0])
    ref = referee_from_store(store, game_id)
    recorder = StoreRecorder(store, game_id, "m1", "test")
    recorder.CLOSE_WAIT_S = 0.5
    with held(store.path):
        recorder.on_trick(ref.add(trick(["green-3", "green-9", "green-5"])), _frame(), [])
        kept = store.game_dir(game_id) / "unrecorded.json"
        said = "1 trick from round 1 trick 1 on is not recorded yet; it is kept in "
        with pytest.raises(UserError, match=said + re.escape(str(kept))):
            recorder.close()
    recorder.close()  # free again: written now
    assert len(store.tricks(game_id)) == 1
    assert not kept.exists()


def test_one_kept_trick_waiting_again_is_said_in_the_singular(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The next run, finding the database held again as it records the one trick an earlier
    run kept, said "1 trick from round 1 trick 1 waits to be recorded; they go in first: the
    table is watched once they are in"."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    with held(store.path):
        recorder.on_trick(ref.add(trick(["green-3", "green-9", "green-5"])), _frame(), [])
        stop = threading.Event()
        stop.set()  # stopped while it waits: one try, said once
        caplog.clear()  # the first run's own "waits to be recorded; the camera keeps watching"
        with caplog.at_level(logging.WARNING, logger="skullcam.device.recorder"):
            StoreRecorder(store, game_id, "m2").take_kept(stop)
    said = [r.getMessage() for r in caplog.records if "waits to be recorded" in r.getMessage()]
    assert len(said) == 1
    assert said[0].endswith("; it goes in first: the table is watched once it is in"), said[0]


def test_tricks_left_waiting_by_a_stopped_run_are_recorded_by_the_next(tmp_path: Path) -> None:
    """A run stopped (or killed) while another program held the database lost the tricks
    waiting in memory, and the advice, "correct them on the web page", could not be followed:
    no page adds a whole trick."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    tigress = ref.add(trick(["tigress:pirate", "green-9", "green-5"], flags=(tigress_flag(45),)))
    second = ref.add(trick(["yellow-2", "yellow-4", "yellow-1"]))
    with held(store.path):
        recorder.on_trick(tigress, _frame(), [])
        recorder.on_trick(second, _frame(), [])
    # Killed here: nothing was written to the database, the waiting tricks are on disk.
    assert store.tricks(game_id) == []
    kept = store.game_dir(game_id) / "unrecorded.json"
    assert kept.is_file()
    StoreRecorder(store, game_id, "m2").take_kept()  # what the next run does first
    rounds = [(t.round, t.trick, t.plays[0]["card"]) for t in store.tricks(game_id)]
    assert rounds == [(1, 0, "tigress:pirate"), (2, 0, "yellow-2")]
    assert store.tricks(game_id)[0].model_version == "m1"  # as the first run saw them
    assert [p.kind for p in store.prompts(game_id)] == ["tigress"]  # the table is still asked
    assert not kept.exists()
    StoreRecorder(store, game_id, "m2").take_kept()  # nothing left: nothing twice
    assert len(store.tricks(game_id)) == 2


def test_a_kept_trick_the_database_already_has_is_not_recorded_twice(tmp_path: Path) -> None:
    """Killed after a waiting trick went in but before the kept list was written again."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    first = ref.add(trick(["green-3", "green-9", "green-5"]))
    second = ref.add(trick(["yellow-2", "yellow-4", "yellow-1"]))
    with held(store.path):
        recorder.on_trick(first, _frame(), [])
        recorder.on_trick(second, _frame(), [])
    kept = store.game_dir(game_id) / "unrecorded.json"
    text = kept.read_text()
    recorder.flush()
    kept.write_text(text)  # as a crash between the two writes would leave it
    StoreRecorder(store, game_id, "m2").take_kept()
    assert [(t.round, t.trick) for t in store.tricks(game_id)] == [(1, 0), (2, 0)]
    assert not kept.exists()


def test_a_kept_trick_the_table_entered_by_hand_meanwhile_keeps_the_cameras_reading(
    tmp_path: Path,
) -> None:
    """A run stopped while its trick waited for the database; the table then entered that
    trick by hand, typing b's green-8 where b laid green-9. The next run skipped the kept
    trick because its place was taken: the camera's picture and reading were lost without a
    word, while the same trick entered a moment before the camera recorded it keeps them
    (``keep_camera_reading``). Now both go the same way."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    with held(store.path):
        recorder.on_trick(ref.add(trick(["green-3", "green-9", "green-5"])), _frame(), [])
    # Stopped here; the table enters the trick by hand before the next run.
    store.enter_trick(game_id, 1, 0, hand((0, "green-3"), (1, "green-8"), (2, "green-5")))
    kept = store.game_dir(game_id) / "unrecorded.json"
    StoreRecorder(store, game_id, "m2").take_kept()
    (entered,) = store.tricks(game_id)
    assert entered.by_hand and [p["card"] for p in entered.plays] == [
        "green-3",
        "green-8",
        "green-5",
    ]  # the table's cards stand
    for stored in (entered.completion_image, entered.annotated_image):
        picture = store.image_path(stored)
        assert picture is not None and picture.is_file()
    assert entered.model_version == "m1"  # the camera's, as the first run saw it
    assert entered.flags == ["the camera read b's green-9 where the table entered green-8"]
    assert [(p.kind, p.round, p.trick) for p in store.prompts(game_id)] == [("flagged", 1, 0)]
    assert not kept.exists()
    StoreRecorder(store, game_id, "m3").take_kept()  # nothing left: not asked twice
    assert len(store.prompts(game_id)) == 1


def test_the_kept_list_follows_what_waits_not_only_how_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first trick went in, a new one came and the next was refused again: two waited
    before and two after, so the kept list (the first two) was not written again, and a kill
    then lost the new trick (a review's sequence)."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    a = ref.add(trick(["green-3", "green-9", "green-5"]))
    b = ref.add(trick(["yellow-2", "yellow-4", "yellow-1"]))
    c = ref.add(trick(["purple-2", "purple-4", "purple-1"]))
    with held(store.path):
        recorder.on_trick(a, _frame(), [])
        recorder.on_trick(b, _frame(), [])
    real = store.record_trick
    calls = 0

    def once_then_busy(*args: object, **kwargs: object) -> int:
        nonlocal calls
        calls += 1
        if calls > 1:
            raise sqlite3.OperationalError("database is locked")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "record_trick", once_then_busy)
    recorder.on_trick(c, _frame(), [])  # a goes in, b is refused: b and c wait
    assert [(o.round, o.trick) for o, _ in recorder.pending] == [(2, 0), (2, 1)]
    monkeypatch.setattr(store, "record_trick", real)
    # Killed here; the next run records what the file says.
    StoreRecorder(store, game_id, "m2").take_kept()
    got = [(t.round, t.trick, t.plays[0]["card"]) for t in store.tricks(game_id)]
    assert got == [(1, 0, "green-3"), (2, 0, "yellow-2"), (2, 1, "purple-2")]


def test_kept_images_are_found_where_the_data_folder_now_is(tmp_path: Path) -> None:
    """Kept by full path, a data folder moved between runs recorded its tricks pointing at
    the old place, their images missing."""
    import shutil

    store, game_id, ref, recorder = two_round_game(tmp_path / "old")
    with held(store.path):
        recorder.on_trick(ref.add(trick(["green-3", "green-9", "green-5"])), _frame(), [])
    store.close()
    shutil.move(tmp_path / "old", tmp_path / "new")
    moved = GameStore(tmp_path / "new")
    StoreRecorder(moved, game_id, "m2").take_kept()
    (recorded,) = moved.tricks(game_id)
    image = moved.image_path(recorded.completion_image)
    assert image is not None and image.is_file() and tmp_path / "new" in image.parents


def test_tricks_that_could_not_be_kept_are_said_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not "kept ... run again, which records them" when writing the list failed."""
    from skullcam.device import unrecorded

    def cannot(folder: Path, waiting: list) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(unrecorded, "keep", cannot)
    store, _, ref, recorder = two_round_game(tmp_path)
    recorder.CLOSE_WAIT_S = 0.3
    with held(store.path):
        recorder.on_trick(ref.add(trick(["green-3", "green-9", "green-5"])), _frame(), [])
        with pytest.raises(UserError, match=r"kept on disk either.*: it is lost; its images"):
            recorder.close()


def test_a_damaged_kept_list_is_named_with_what_to_do(tmp_path: Path) -> None:
    store, game_id, _, _ = two_round_game(tmp_path)
    (store.game_dir(game_id) / "unrecorded.json").write_text('{"format": "other"}')
    with pytest.raises(UserError, match=r"unrecorded\.json is not a list of tricks.*move it aside"):
        StoreRecorder(store, game_id, "m2").take_kept()


def _frame() -> Frame:
    return Frame(np.zeros((48, 64, 3), np.uint8), 1.2, 12)


def test_a_web_write_to_a_held_database_is_a_503_to_retry(
    client: FlaskClient, store: GameStore
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    store._conn().execute("PRAGMA busy_timeout=100")  # the test client runs on this thread
    with held(store.path):
        res = client.post(f"/api/game/{gid}/bids", json={"round": 1, "bids": [0, 1, 0]})
    assert res.status_code == 503 and res.headers["Retry-After"] == "5"
    assert "busy" in res.get_json()["error"]
    again = client.post(f"/api/game/{gid}/bids", json={"round": 1, "bids": [0, 1, 0]})
    assert again.status_code == 200


def test_a_damaged_page_found_mid_run_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = GameStore(tmp_path)
    for _ in range(30):
        store.create_game(["a", "b", "c"], 0, {})
    store._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    root = store._conn().execute("SELECT rootpage FROM sqlite_master WHERE name='games'")
    page = int(root.fetchone()[0])
    store.close()
    with open(store.path, "r+b") as db:  # the games table's page, after the schema opened fine
        db.seek((page - 1) * 4096)
        db.write(b"\xab" * 4096)
    code = main(["run", "--data", str(tmp_path), "--no-web", "--speed", "0", "--exit-when-done"])
    err = capsys.readouterr().err
    assert code == 2
    assert "cannot be read (database disk image is malformed)" in err
    assert "Traceback" not in err


def test_the_live_views_busy_warning_does_not_silence_the_waiting_tricks_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Each thing waiting on a held database is said once per ``WARN_EVERY_S``: the live view's
    warning came first and used to silence the one saying that tricks wait to be recorded."""
    store, _, ref, recorder = two_round_game(tmp_path)
    caplog.set_level("WARNING", logger="skullcam.device.recorder")
    with held(store.path):
        recorder.on_live([], None, _frame())
        recorder.on_trick(ref.add(trick(["green-3", "green-9", "green-5"])), _frame(), [])
        recorder.on_trick(ref.add(trick(["yellow-2", "yellow-4", "yellow-1"])), _frame(), [])
        recorder.on_live([], None, _frame())
    said = [r.getMessage() for r in caplog.records]
    live = [m for m in said if m.startswith("live trick not published")]
    waiting = [m for m in said if "to be recorded" in m]
    assert len(live) == 1 and "in use" in live[0]
    assert len(waiting) == 1  # said once, not on every trick while the lock lasts
    assert "1 trick from round 1 trick 1 waits" in waiting[0]


def _yellow_then_green(ref: Referee, recorder: StoreRecorder) -> None:
    """Round 1's one trick and round 2's first, as the camera recorded them."""
    recorder.on_trick(ref.add(trick(["yellow-5", "yellow-9", "yellow-2"])), _frame(), [])
    recorder.on_trick(ref.add(trick(["green-5", "green-9", "green-1"])), _frame(), [])


def _black_then_swapped(ref: Referee, recorder: StoreRecorder) -> None:
    """Round 2's second trick as the camera completed it, then c's black-1 swapped for
    black-13 before the pickup."""
    recorder.on_trick(ref.add(trick(["black-5", "black-9", "black-1"])), _frame(), [])
    amended = ref.amend_last(trick(["black-5", "black-9", "black-13"]))
    recorder.on_amended(amended, _frame(), [], 2, "black-1")


def test_tricks_waiting_for_a_held_database_go_on_a_place_after_a_missed_trick_inserted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two tricks and a swap on the first waited for a held database while the table inserted
    a missed trick before the camera's round 2 trick 1, which moved on to trick 2: the first
    waiting trick, numbered trick 2, was refused as already recorded and lost with an error
    in the log (the second went into its place, a trick early), and the swap with it."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    _two_waited_while_the_missed_trick_was_inserted(store, game_id, ref, recorder)
    with caplog.at_level(logging.INFO, logger="skullcam.device.recorder"):
        assert recorder.flush()
    assert "not recorded" not in caplog.text and "not amended" not in caplog.text
    _black_and_purple_went_on(store, game_id)
    assert recorder.recorded == 4


def _missed_green_entered(store: GameStore, game_id: int) -> None:
    """The table inserts the trick the camera missed before its round 2 trick 1 (green-5)."""
    store.insert_trick(game_id, 2, 0, hand((1, "green-3"), (2, "green-2"), (0, "green-4")))


# Round 1's trick, the missed trick the table inserted and the camera's green trick moved a
# place on by it: (round, trick, first card, entered by hand), as ``_placed`` gives them.
_UP_TO_THE_MISSED_TRICK = [
    (1, 0, "yellow-5", False),
    (2, 0, "green-3", True),
    (2, 1, "green-5", False),
]


def _placed(store: GameStore, game_id: int) -> list[tuple[int, int, str, bool]]:
    """Each recorded trick's place, first card and whether the table entered it by hand."""
    return [(t.round, t.trick, t.plays[0]["card"], t.by_hand) for t in store.tricks(game_id)]


def _two_waited_while_the_missed_trick_was_inserted(
    store: GameStore, game_id: int, ref: Referee, recorder: StoreRecorder
) -> None:
    """Round 1's trick and round 2's first recorded; round 2's second (with its swap) and
    round 3's first wait for a held database while the table inserts the missed trick."""
    _yellow_then_green(ref, recorder)
    with held(store.path):
        _black_then_swapped(ref, recorder)
        recorder.on_trick(ref.add(trick(["purple-5", "purple-9", "purple-1"])), _frame(), [])
    _missed_green_entered(store, game_id)


def _black_and_purple_went_on(store: GameStore, game_id: int) -> None:
    """Round 2's second trick (c's black-1 swapped for black-13) and round 3's first, filed
    a place early as the missed trick was inserted, are in a place on."""
    assert _placed(store, game_id) == [
        *_UP_TO_THE_MISSED_TRICK,
        (3, 0, "black-5", False),
        (3, 1, "purple-5", False),
    ]
    swapped = store.trick(game_id, 3, 0)
    assert [p["card"] for p in swapped.plays] == ["black-5", "black-9", "black-13"]


def _held_again_at(store: GameStore, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The other program takes the database again just as the store's ``name`` is called
    the first time: that call meets it held (and waits for it as the caller says)."""
    real = getattr(store, name)
    calls = 0

    def held_the_first_time(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls > 1:
            return real(*args, **kwargs)
        with held(store.path):
            return real(*args, **kwargs)

    monkeypatch.setattr(store, name, held_the_first_time)


def test_tricks_kept_after_one_that_went_in_a_place_on_follow_it_in_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Round 2's second trick, its swap and round 3's first waited for a held database while
    the table inserted the missed trick before round 2's first. Once free, the second went
    in a place on, as round 3 trick 1, and the other program took the database again before
    the swap; the run stopped with the swap and round 3's first kept. The next run found the
    camera's round 3 trick 1 at the kept trick's place, recorded there and not moved there:
    round 3's first was dropped as already recorded ('not recorded'), and the swap went to
    nothing ('not amended'). Only the run that moved the trick on knew it had."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    _two_waited_while_the_missed_trick_was_inserted(store, game_id, ref, recorder)
    _held_again_at(store, monkeypatch, "correct_play")
    assert not recorder.flush()
    assert [(o.round, o.trick) for o, _ in recorder.pending] == [(2, 1), (3, 0)]
    # Stopped here: the next run records what the file says.
    with caplog.at_level(logging.INFO, logger="skullcam.device.recorder"):
        StoreRecorder(store, game_id, "m2").take_kept()
    assert "not recorded" not in caplog.text and "not amended" not in caplog.text
    _black_and_purple_went_on(store, game_id)
    black = store.trick(game_id, 3, 0)
    moved = [
        (c.before, c.after, c.note) for c in store.audit(game_id, black.id) if c.kind == "moved"
    ]
    assert moved == [({"round": 2, "trick": 1}, {"round": 3, "trick": 0}, WENT_ON)]


def test_a_refusal_after_a_trick_went_in_a_place_on_stands_where_nothing_moved(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Once one waiting trick had gone in a place on, the recorder sent every later trick
    refused as already recorded a place on, whatever lay at its place: a copy of round 1's
    trick given to it again (a recording shown again, as in
    test_a_trick_the_store_refuses_leaves_the_recorded_tricks_pictures_as_they_were) went
    in as round 3 trick 3, a trick recorded twice. Nothing moved onto round 1 trick 1: the
    refusal stands."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    again = referee_from_store(store, game_id).add(trick(["yellow-5", "yellow-9", "yellow-2"]))
    _two_waited_while_the_missed_trick_was_inserted(store, game_id, ref, recorder)
    assert recorder.flush()
    with caplog.at_level(logging.INFO, logger="skullcam.device.recorder"):
        recorder.on_trick(again, _frame(), [])
    assert "round 1 trick 1 not recorded: round 1 trick 1 is already recorded" in caplog.text
    _black_and_purple_went_on(store, game_id)


def test_a_trick_gone_in_a_place_on_keeps_no_doubt_its_first_place_raised(
    tmp_path: Path,
) -> None:
    """The camera missed round 2's first trick and filed the table's round 2 trick 1 in its
    place; round 3's first trick, waiting for a held database, was filed as round 2's second
    with the doubts that place gave it: Ana led where the game expected Ben (green's
    winner), and green-9 played twice in round 2 (a new deal in fact). The table inserted the
    missed trick meanwhile and the waiting trick went in as round 3 trick 1, led by Ana as the
    rules say, its green-9 the round's first: it kept both doubts, and the phones asked the
    table to confirm a trick nothing is wrong with (a trick the insert moved loses them)."""
    store, game_id, ref, recorder = two_round_game(tmp_path, first_dealer=0)  # Ana leads round 3
    _yellow_then_green(ref, recorder)
    led = "a led, but the game expected b to lead"
    with held(store.path):
        new_deal = trick(["black-5", "green-9", "black-1"], flags=(led,))
        recorder.on_trick(ref.add(new_deal), _frame(), [])
    store.insert_trick(game_id, 2, 0, hand((2, "green-3"), (0, "green-2"), (1, "green-4")))
    assert recorder.flush()
    went_in = store.trick(game_id, 3, 0)
    assert [p["card"] for p in went_in.plays] == ["black-5", "green-9", "black-1"]
    assert went_in.flags == []
    assert [p for p in store.prompts(game_id) if p.round == 3] == []
    store.remove_hand_trick(game_id, 2, 0)  # the insert taken back: the way to it comes back
    assert led in store.trick(game_id, 2, 1).flags


def test_taking_the_missed_trick_back_moves_the_tricks_that_went_on_back_too(
    tmp_path: Path,
) -> None:
    """The insert that sent round 2's second trick and round 3's first a place on, taken
    back (a slip): the camera's round 2 trick 1 it moved went back, the two that went on
    stayed in round 3, and round 2 trick 2 was left free, the table asked to enter it by
    hand and round 3 holding round 2's trick."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    _two_waited_while_the_missed_trick_was_inserted(store, game_id, ref, recorder)
    assert recorder.flush()
    assert store.remove_hand_trick(game_id, 2, 0)["moved_back"] == 3
    placed = [(t.round, t.trick, t.plays[0]["card"]) for t in store.tricks(game_id)]
    assert placed == [(1, 0, "yellow-5"), (2, 0, "green-5"), (2, 1, "black-5"), (3, 0, "purple-5")]


def test_a_kept_trick_goes_on_a_place_after_a_missed_trick_inserted_before_the_next_run(
    tmp_path: Path,
) -> None:
    """The run stopped with round 2's second trick waiting for a held database; before the
    next run the table inserted the missed trick before the camera's round 2 trick 1, which
    moved on into the kept trick's place. The next run took the kept trick for one it had
    recorded before the stop (a camera's trick lay at its place) and dropped it."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    _yellow_then_green(ref, recorder)
    with held(store.path):
        _black_then_swapped(ref, recorder)
    _missed_green_entered(store, game_id)
    StoreRecorder(store, game_id, "m2").take_kept()
    assert _placed(store, game_id) == [*_UP_TO_THE_MISSED_TRICK, (3, 0, "black-5", False)]
    assert [p["card"] for p in store.trick(game_id, 3, 0).plays][2] == "black-13"
    assert not (store.game_dir(game_id) / "unrecorded.json").exists()


def test_a_kept_trick_the_table_typed_before_inserting_a_missed_one_is_kept_with_its_entry(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The run stopped with round 2's second trick waiting for a held database. Before the
    next run (the pages served with '--camera none') the table typed that trick by hand,
    not recorded, then inserted the trick the camera had missed before round 2's first,
    which moved the entry on to round 3 trick 1 and the camera's round 2 trick 1 into the
    kept trick's place. The next run sent the kept trick to the first free place, round 3
    trick 2: the same trick recorded twice. It goes with the table's entry of it, as a trick
    entered a moment before the camera's is recorded does. The kept trick after it, round 3's
    first, met the entry moved into its place and was taken for its copy: its cards were
    asked about as the camera's reading of the entry, and the trick was lost."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    _yellow_then_green(ref, recorder)
    with held(store.path):
        recorder.on_trick(ref.add(trick(["black-5", "black-9", "black-1"])), _frame(), [])
        recorder.on_trick(ref.add(trick(["purple-5", "purple-9", "purple-1"])), _frame(), [])
    store.enter_trick(game_id, 2, 1, hand((1, "black-9"), (2, "black-1"), (0, "black-5")))
    _missed_green_entered(store, game_id)
    with caplog.at_level(logging.INFO, logger="skullcam.device.recorder"):
        StoreRecorder(store, game_id, "m2").take_kept()
    assert "round 3 trick 1 was entered by hand meanwhile" in caplog.text
    assert _placed(store, game_id) == [
        *_UP_TO_THE_MISSED_TRICK,
        (3, 0, "black-9", True),
        (3, 1, "purple-5", False),
    ]
    entry = store.trick(game_id, 3, 0)
    assert entry.completion_image  # the camera's picture, kept with it
    assert entry.flags == []  # the camera read the cards the table typed


def test_two_kept_tricks_typed_then_a_missed_one_inserted_before_both_keep_their_entries(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The run stopped with round 2's second trick and round 3's first waiting for a held
    database. Before the next run the table typed both by hand, then inserted the trick the
    camera had missed before the first of them, which moved both entries on a place. The
    next run kept the first waiting trick's picture and reading with the missed trick
    inserted at its place, every card of it asked about as misread ("the camera read a's
    black-5 where the table entered green-4"), and the entry of that trick, a place on, had
    no picture. The camera goes on after them once the kept tricks are in."""
    store, game_id, ref, recorder = two_round_game(tmp_path)
    _yellow_then_green(ref, recorder)
    black, purple = ["black-5", "black-9", "black-1"], ["purple-5", "purple-9", "purple-1"]
    with held(store.path):
        recorder.on_trick(ref.add(trick(black)), _frame(), [])
        recorder.on_trick(ref.add(trick(purple)), _frame(), [])
    type_next_trick(store, game_id, black)
    type_next_trick(store, game_id, purple)
    slot = store.missed_before(game_id, 2, 1)
    assert slot is not None
    missed = ["green-3", "green-2", "green-4"]
    store.insert_trick(game_id, 2, 1, hand(*[(p, missed[p]) for p in slot["order"]]))
    with caplog.at_level(logging.INFO, logger="skullcam.device.recorder"):
        StoreRecorder(store, game_id, "m2").take_kept()  # the next run's start
    assert "not recorded" not in caplog.text
    camera = referee_from_store(store, game_id)
    StoreRecorder(store, game_id, "m2", "test").on_trick(
        camera.add(trick(["yellow-3", "yellow-7", "yellow-1"])), _frame(), []
    )
    placed = [
        (t.round, t.trick, sorted(p["card"] for p in t.plays), t.by_hand, bool(t.completion_image))
        for t in store.tricks(game_id)
    ]
    assert placed == [
        (1, 0, ["yellow-2", "yellow-5", "yellow-9"], False, True),
        (2, 0, ["green-1", "green-5", "green-9"], False, True),
        (2, 1, ["green-2", "green-3", "green-4"], True, False),  # the missed trick
        (3, 0, ["black-1", "black-5", "black-9"], True, True),  # the camera's picture
        (3, 1, ["purple-1", "purple-5", "purple-9"], True, True),
        (3, 2, ["yellow-1", "yellow-3", "yellow-7"], False, True),
    ]
    assert [t.flags for t in store.tricks(game_id)] == [[]] * 6
    assert not (store.game_dir(game_id) / "unrecorded.json").exists()
