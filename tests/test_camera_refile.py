"""The camera moves a round's first trick it filed as the round before's last to its place
(``Referee._refile_first_trick``, ``GameStore.record_trick``'s ``refile_before``), and the
table can move it back from its page (``GameStore.move_back_refiled``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from flask.testing import FlaskClient
from recorded_tricks import held
from store_support import hand, plays
from test_referee_next_round import TAKEN_BACK, seen
from web_support import json_of

from skullcam.device.recorder import StoreRecorder, referee_from_store
from skullcam.device.referee import Referee
from skullcam.device.sources import Frame
from skullcam.device.trick_filing import TrickFiler
from skullcam.rules import Settings
from skullcam.rules.table import already_played, led_unexpectedly
from skullcam.store import GameStore
from skullcam.store.refiled import MOVED_BACK
from skullcam.store.tricks import REFILED


def _round_three_filed_in_round_two_stored(store: GameStore) -> tuple[int, Referee]:
    """:func:`round_three_first_filed_in_round_two` as the camera recorded it: round 3's first
    trick in round 2's last place, with its doubt; and the camera's referee, taken up."""
    gid = store.create_game(["a", "b", "c"], 2, {"rounds": 3})
    store.record_trick(gid, 1, 0, plays((0, "green-3"), (1, "green-5"), (2, "green-1")))
    store.record_trick(gid, 2, 0, plays((1, "green-9"), (2, "green-12"), (0, "green-4")))
    filed = plays((2, "purple-7"), (0, "purple-2"), (1, "purple-9"))
    store.record_trick(gid, 2, 1, filed, flags=[TAKEN_BACK])
    return gid, referee_from_store(store, gid)


def _file_the_second(store: GameStore, gid: int, ref: Referee) -> TrickFiler:
    """Round 3's second trick, Ben's lead, seen and filed as ``skullcam run`` files it."""
    second = seen(
        [(1, "yellow-9"), (2, "yellow-2"), (0, "yellow-4")], (led_unexpectedly("b", "c"),)
    )
    outcome = ref.add(second)
    filer = TrickFiler(store, gid)
    record = {"plays": outcome.plays_json(), "flags": list(outcome.flags)}
    filer.record(outcome, {**record, "refile_before": list(outcome.refiled_before or ())})
    return filer


def filed_and_moved_by_the_camera(store: GameStore) -> tuple[int, int, int]:
    """Round 3's first trick filed as round 2's last, then moved to round 3's first place as
    the camera recorded round 3's second: the game, the moved trick's id and the second's."""
    gid, ref = _round_three_filed_in_round_two_stored(store)
    moved_id = store.trick(gid, 2, 1).id
    _file_the_second(store, gid, ref)
    return gid, moved_id, store.trick(gid, 3, 1).id


def test_the_camera_moves_a_rounds_first_trick_filed_in_the_round_before(store: GameStore) -> None:
    """Round 3's second trick shows the trick filed as round 2's last to be round 3's first:
    the store moves it there as the second is recorded, audited as moved (its page says
    why), and round 2's last place, the trick lost, is left to enter by hand. The camera's
    referee and one taken up from the store agree. Without the move the table had to find
    the misfiled trick and move it by hand."""
    gid, ref = _round_three_filed_in_round_two_stored(store)
    moved_id = store.trick(gid, 2, 1).id
    filer = _file_the_second(store, gid, ref)
    assert [t.trick for t in store.tricks(gid, 2)] == [0]
    first = store.trick(gid, 3, 0)
    assert (first.id, first.flags) == (moved_id, [TAKEN_BACK])
    assert store.trick(gid, 3, 1).flags == []
    entry = [c for c in store.audit(gid, moved_id) if c.kind == "moved"]
    assert [(e.before, e.after, e.note) for e in entry] == [
        ({"round": 2, "trick": 1}, {"round": 3, "trick": 0}, REFILED)
    ]
    assert not filer.refile_refused
    assert referee_from_store(store, gid).record() == ref.record()
    assert store.next_trick(gid) is not None and store.next_trick(gid)["round"] == 2  # type: ignore[index]


def test_a_trick_the_table_moved_meanwhile_is_not_moved_again(store: GameStore) -> None:
    """The table inserted round 2's lost trick by hand before the camera recorded round 3's
    second (the misfiled trick moved on to round 3's first place): the camera's move is not
    made again, nothing the table entered moves, and the camera takes the game up from the
    store (``refile_refused``)."""
    gid, ref = _round_three_filed_in_round_two_stored(store)
    lost = hand((2, "green-1"), (0, "green-6"), (1, "green-2"))
    store.insert_trick(gid, 2, 1, lost)
    filer = _file_the_second(store, gid, ref)
    assert store.trick(gid, 2, 1).by_hand
    assert [p["card"] for p in store.trick(gid, 3, 0).plays] == ["purple-7", "purple-2", "purple-9"]
    assert [p["card"] for p in store.trick(gid, 3, 1).plays] == ["yellow-9", "yellow-2", "yellow-4"]
    assert filer.refile_refused


def test_the_table_moves_the_cameras_move_back_from_the_tricks_page(
    client: FlaskClient, store: GameStore
) -> None:
    """A table that led round 3 out of turn after a doubted round 2 is taken for a lost
    trick: the moved trick's page says the camera moved it and offers to move it back (in
    the table's language); moved back, it is round 2's last again, audited, the trick after
    it is round 3's first again, and a camera following the game takes it up again (a
    table's change)."""
    gid, ref = _round_three_filed_in_round_two_stored(store)
    moved_id = store.trick(gid, 2, 1).id
    _file_the_second(store, gid, ref)
    page = client.get(f"/game/{gid}/round/3/trick/0").get_data(as_text=True)
    assert 'id="move-back"' in page and "from round 2 trick 2" in page
    es = client.get(f"/game/{gid}/round/3/trick/0", headers={"Accept-Language": "es"})
    assert "Devuélvela" in es.get_data(as_text=True)
    assert 'id="move-back"' not in client.get(f"/game/{gid}/round/3/trick/1").get_data(as_text=True)
    since = store.last_event_id()
    res = client.post(f"/api/game/{gid}/round/3/trick/0/move-back", json={})
    assert res.status_code == 200 and json_of(res)["moved_to"] == {"round": 2, "trick": 1}
    assert store.trick(gid, 2, 1).id == moved_id
    assert [t.trick for t in store.tricks(gid, 3)] == [0]
    last = [c for c in store.audit(gid, moved_id) if c.kind == "moved"][-1]
    assert (last.before, last.after, last.note) == (
        {"round": 3, "trick": 0},
        {"round": 2, "trick": 1},
        MOVED_BACK,
    )
    assert store.table_changes_since(gid, since)[0]
    again = client.post(
        f"/api/game/{gid}/round/2/trick/1/move-back", json={}, headers={"Accept-Language": "es"}
    )
    assert again.status_code == 400 and "no puede volver" in json_of(again)["error_text"]


def test_a_cameras_move_whose_old_place_was_entered_is_not_offered_back(store: GameStore) -> None:
    """The table entered round 2's lost trick in the place the camera's move left: the moved
    trick cannot go back there (it would take the entry's place), and is not offered to."""
    gid, ref = _round_three_filed_in_round_two_stored(store)
    _file_the_second(store, gid, ref)
    store.enter_trick(gid, 2, 1, hand((2, "green-1"), (0, "green-6"), (1, "green-2")))
    assert store.refiled_from(gid, store.trick(gid, 3, 0)) is None


def test_a_move_waiting_for_a_held_database_is_kept_and_made_by_the_next_run(
    tmp_path: Path,
) -> None:
    """The second trick, the move with it, waits while another program holds the database,
    and the run stops: the list kept on disk holds the move, and the next run makes it as it
    records the trick. Nothing moved meanwhile, and nothing is lost."""
    store = GameStore(tmp_path)
    gid, ref = _round_three_filed_in_round_two_stored(store)
    moved_id = store.trick(gid, 2, 1).id
    second = ref.add(seen([(1, "yellow-9"), (2, "yellow-2"), (0, "yellow-4")]))
    recorder = StoreRecorder(store, gid, "m1", "test")
    frame = Frame(np.zeros((48, 64, 3), np.uint8), 1.2, 12)
    with held(store.path):
        recorder.on_trick(second, frame, [])
        assert len(recorder.pending) == 1
    assert store.trick(gid, 2, 1).id == moved_id  # not moved while the trick waits
    StoreRecorder(store, gid, "m1", "test").take_kept()  # the next run
    assert store.trick(gid, 3, 0).id == moved_id
    assert [t.trick for t in store.tricks(gid, 2)] == [0]
    assert referee_from_store(store, gid).record() == ref.record()


def test_a_page_on_another_site_cannot_move_a_trick_back(
    client: FlaskClient, store: GameStore
) -> None:
    """``POST .../move-back`` took any body: a page on another site, open in a browser at the
    table, could post a plain HTML form (no preflight) and move the camera's trick back, the
    round's first place left empty. Like every other write it takes JSON only."""
    gid, ref = _round_three_filed_in_round_two_stored(store)
    moved_id = store.trick(gid, 2, 1).id
    _file_the_second(store, gid, ref)
    form = client.post(
        f"/api/game/{gid}/round/3/trick/0/move-back",
        data="x=1",
        content_type="application/x-www-form-urlencoded",
    )
    assert form.status_code == 400
    assert json_of(form)["error"] == "send JSON (Content-Type: application/json)"
    assert store.trick(gid, 3, 0).id == moved_id


def test_moved_back_the_round_after_is_in_its_places_again(store: GameStore) -> None:
    """The table says no: round 2's last trick was where the camera filed it, and round 3 was
    led out of turn. Moved back, the trick after it, filed as round 3's second, is its first
    again (with the trick the camera recorded after it), so the rest of round 3 has its
    places: left a place late, round 3's first place stayed empty with no trick to enter
    there, and round 3's last trick found no place (the game over), lost."""
    gid, ref = _round_three_filed_in_round_two_stored(store)
    moved_id = store.trick(gid, 2, 1).id
    _file_the_second(store, gid, ref)
    second_id = store.trick(gid, 3, 1).id
    third = ref.add(seen([(1, "black-3"), (2, "black-1"), (0, "black-2")]))
    store.record_trick(gid, 3, third.trick, third.plays_json())
    third_id = store.trick(gid, 3, 2).id
    assert store.move_back_refiled(gid, 3, 0) == {"round": 2, "trick": 1}
    assert store.trick(gid, 2, 1).id == moved_id
    assert [(t.trick, t.id) for t in store.tricks(gid, 3)] == [(0, second_id), (1, third_id)]
    back = [c for c in store.audit(gid, second_id) if c.kind == "moved"][-1]
    assert (back.before, back.after) == ({"round": 3, "trick": 1}, {"round": 3, "trick": 0})
    camera = referee_from_store(store, gid)
    assert (camera.round, camera.trick) == (3, 2)
    last = camera.add(seen([(1, "purple-1"), (2, "purple-3"), (0, "purple-4")]))
    assert (last.round, last.trick) == (3, 2)


def test_moved_back_a_trick_is_doubted_as_at_its_place_again(store: GameStore) -> None:
    """The camera doubted round 2's last trick (Sky's green-12, read again after round 2's
    first trick held it) and moved it to round 3's first place, where the doubt held no more.
    Moved back, the doubt holds again and the phones ask about it (the score stops on the
    repeated card), and the trick after it, round 3's first again, was led by Ben where the
    game expected Cai: said again as the camera said it. Left without them, the score
    stopped on round 2 with nothing on the page asking why."""
    gid = store.create_game(["a", "b", "c"], 2, {"rounds": 3})
    store.record_trick(gid, 1, 0, plays((0, "green-3"), (1, "green-5"), (2, "green-1")))
    store.record_trick(gid, 2, 0, plays((1, "green-9"), (2, "green-12"), (0, "green-4")))
    repeated = already_played("green-12")
    filed = plays((2, "purple-7"), (0, "green-12"), (1, "purple-9"))
    store.record_trick(gid, 2, 1, filed, flags=[repeated])
    _file_the_second(store, gid, referee_from_store(store, gid))
    assert store.trick(gid, 3, 0).flags == []  # the doubt held at its old place only
    store.move_back_refiled(gid, 3, 0)
    back = store.trick(gid, 2, 1)
    assert back.flags == [repeated]
    first = store.trick(gid, 3, 0)
    assert first.flags == [led_unexpectedly("b", "c")]
    asked = [(p.round, p.trick) for p in store.prompts(gid) if p.kind == "flagged"]
    assert (2, 1) in asked and (3, 0) in asked


def test_a_harrys_change_that_does_not_fit_its_new_round_is_asked_again(store: GameStore) -> None:
    """Ben won round 2's last trick, as filed, with Harry and took his bid of 1 down to 0;
    the camera moved the trick to round 3's first place, where Ben bid 0: his change, -1,
    went with it and stopped the whole score there ("Harry cannot move b's bid to -1") once
    round 2's lost trick was entered. As a trick moved by an insert, the change that no
    longer fits is dropped (kept in the trick's history) and the table is asked again."""
    gid = store.create_game(["a", "b", "c"], 2, {"rounds": 3, "pirate_abilities": True})
    for number, bids in enumerate(([0, 0, 0], [0, 1, 0], [1, 0, 1]), start=1):
        store.set_bids(gid, number, bids)
    store.record_trick(gid, 1, 0, plays((0, "green-3"), (1, "green-5"), (2, "green-1")))
    store.record_trick(gid, 2, 0, plays((1, "green-9"), (2, "green-12"), (0, "green-4")))
    harry = plays((2, "purple-7"), (0, "purple-2"), (1, "pirate-harry"))
    store.record_trick(gid, 2, 1, harry, flags=[TAKEN_BACK])
    store.choose_ability(gid, 2, 1, -1)
    _file_the_second(store, gid, referee_from_store(store, gid))
    store.enter_trick(gid, 2, 1, hand((2, "black-1"), (0, "black-2"), (1, "black-3")))
    assert store.abilities(gid, 3) == []
    asked = [(p.kind, p.round, p.trick) for p in store.prompts(gid)]
    assert ("harry", 3, 0) in asked
    assert store.score(gid)["ok"]


def test_rosies_choice_read_from_the_moved_trick_goes_with_it(store: GameStore) -> None:
    """Cai won round 2's first trick with Rosie; her choice was read from who led the trick
    after (Cai), the trick the camera then moved to round 3's first place. Read from a trick
    no longer after hers, the choice named the leader of the lost trick, which nobody knows:
    the form to enter it started from Cai. It goes, her question still open, as when any
    trick after hers moves off: the form waits for her choice."""
    gid = store.create_game(["a", "b", "c"], 2, {"rounds": 3, "pirate_abilities": True})
    store.record_trick(gid, 1, 0, plays((0, "green-3"), (1, "green-5"), (2, "green-1")))
    store.record_trick(gid, 2, 0, plays((1, "green-9"), (2, "pirate-rosie"), (0, "green-4")))
    filed = plays((2, "purple-7"), (0, "purple-2"), (1, "purple-9"))
    store.record_trick(gid, 2, 1, filed, flags=[TAKEN_BACK])
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 2}]
    _file_the_second(store, gid, referee_from_store(store, gid))
    assert [t.trick for t in store.tricks(gid, 2)] == [0]
    assert store.abilities(gid, 2) == []
    assert [(p.kind, p.round, p.trick) for p in store.prompts(gid)] == [("rosie", 2, 0)]
    lost = store.next_trick(gid)
    assert lost is not None and (lost["order"], lost["waits_for"]) == ([], "rosie")


def test_a_trick_filed_before_the_camera_learns_of_the_move_back_goes_a_place_back(
    store: GameStore,
) -> None:
    """The camera learns of the table's changes once a second: its next trick, filed after
    round 3's second as it had it, goes in a place back, where the move back left the round's
    next place, not a place late with a gap before it."""
    gid, ref = _round_three_filed_in_round_two_stored(store)
    _file_the_second(store, gid, ref)
    store.move_back_refiled(gid, 3, 0)
    third = ref.add(seen([(1, "black-3"), (2, "black-1"), (0, "black-2")]))
    assert (third.round, third.trick) == (3, 2)
    TrickFiler(store, gid).record(third, {"plays": third.plays_json(), "flags": []})
    assert [(t.trick, t.plays[0]["card"]) for t in store.tricks(gid, 3)] == [
        (0, "yellow-9"),
        (1, "black-3"),
    ]


def test_moved_back_after_the_next_round_began_its_tricks_go_back_a_place_too(
    store: GameStore,
) -> None:
    """The table moves the trick back only once round 4 has begun: the camera, a place late
    all along, filed round 3's last trick as round 4's first and round 4's first as its
    second. Moved back, they go back a place too, over the round's end, as the camera's
    tricks moved on by an insert do: stopped at round 3's end, round 3's last place was left
    empty (the table entered that trick again by hand, counted twice) and round 4's first
    place kept round 3's last trick."""
    gid = store.create_game(["a", "b", "c"], 2, {"rounds": 4})
    store.record_trick(gid, 1, 0, plays((0, "green-3"), (1, "green-5"), (2, "green-1")))
    store.record_trick(gid, 2, 0, plays((1, "green-9"), (2, "green-12"), (0, "green-4")))
    filed = plays((2, "purple-7"), (0, "purple-2"), (1, "purple-9"))
    store.record_trick(gid, 2, 1, filed, flags=[TAKEN_BACK])
    moved_id = store.trick(gid, 2, 1).id
    ref = referee_from_store(store, gid)
    _file_the_second(store, gid, ref)
    rest = (
        [(1, "black-3"), (2, "black-1"), (0, "black-2")],  # round 3's third as filed
        [(1, "purple-1"), (2, "purple-3"), (0, "purple-4")],  # round 3's last, as round 4's
        [(0, "green-2"), (1, "green-6"), (2, "green-7")],  # round 4's first, as its second
    )
    for cards in rest:
        outcome = ref.add(seen(cards))
        TrickFiler(store, gid).record(outcome, {"plays": outcome.plays_json(), "flags": []})
    assert [(t.round, t.trick) for t in store.tricks(gid)][-2:] == [(4, 0), (4, 1)]
    ids = [t.id for t in store.tricks(gid) if t.round >= 3]
    assert store.move_back_refiled(gid, 3, 0) == {"round": 2, "trick": 1}
    assert store.trick(gid, 2, 1).id == moved_id
    assert [(t.round, t.trick, t.id) for t in store.tricks(gid) if t.round >= 3] == [
        (3, 0, ids[1]),
        (3, 1, ids[2]),
        (3, 2, ids[3]),
        (4, 0, ids[4]),
    ]
    back = [c for c in store.audit(gid, ids[3]) if c.kind == "moved"][-1]
    assert (back.before, back.after) == ({"round": 4, "trick": 0}, {"round": 3, "trick": 2})
    camera = referee_from_store(store, gid)
    assert (camera.round, camera.trick) == (4, 1)


def test_a_camera_that_moved_a_trick_after_rosies_agrees_with_the_store(store: GameStore) -> None:
    """The camera saw Cai win round 2's first trick with Rosie and read her choice from who
    led the trick after it (Cai), the trick it then moved to round 3's first place. The store
    drops that choice (it named the lost trick's leader, which nobody knows); the camera's
    referee kept it, so its record and score said Rosie chose Cai where the store, and a
    referee taken up from it, ask the table."""
    gid = store.create_game(["a", "b", "c"], 2, {"rounds": 3, "pirate_abilities": True})
    ref = Referee(["a", "b", "c"], 2, Settings(rounds=3, pirate_abilities=True))
    filer = TrickFiler(store, gid)
    for trick, doubt in [
        ([(0, "green-3"), (1, "green-5"), (2, "green-1")], ()),
        ([(1, "green-9"), (2, "pirate-rosie"), (0, "green-4")], ()),
        ([(2, "purple-7"), (0, "purple-2"), (1, "purple-9")], (TAKEN_BACK,)),
        ([(1, "yellow-9"), (2, "yellow-2"), (0, "yellow-4")], (led_unexpectedly("b", "c"),)),
    ]:
        outcome = ref.add(seen(trick, doubt))
        record: dict[str, object] = {"plays": outcome.plays_json(), "flags": list(outcome.flags)}
        if outcome.refiled_before is not None:
            record["refile_before"] = list(outcome.refiled_before)
        filer.record(outcome, record)
    assert store.trick(gid, 3, 0).plays[0]["card"] == "purple-7"
    assert store.abilities(gid, 2) == []
    assert ref.record() == referee_from_store(store, gid).record()
    assert ref.record()["rounds"][1].get("abilities", []) == store.abilities(gid, 2) == []
