"""A tie after the last round under ``tie=extra_round``: the table plays one more round, and
the store, the scoreboard and the camera's referee follow it (they used to refuse it and name
both players winners)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from recorded_tricks import trick
from store_support import plays

from skullcam.device.recorder import referee_from_store
from skullcam.device.referee import Referee
from skullcam.errors import UserError
from skullcam.rules import Settings
from skullcam.store import GameStore
from skullcam.vision.trick_state import TrickObservation

TIE = {"rounds": 1, "tie": "extra_round"}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    s = GameStore(tmp_path / "data")
    yield s
    s.close()


def tied_after_round_1(store: GameStore) -> int:
    """Ana and Ben each bid and miss: -10 apiece, tied (Ben leads, the first escape wins)."""
    gid = store.create_game(["Ana", "Ben"], 0, TIE)
    store.set_bids(gid, 1, [1, 0])
    store.record_trick(gid, 1, 0, plays((1, "escape"), (0, "escape")))
    return gid


def test_a_tie_after_the_last_round_calls_for_one_more(store: GameStore) -> None:
    gid = tied_after_round_1(store)
    assert store.game(gid).status == "active" and store.rounds_due(gid) == 2
    state = store.state(gid)
    assert (state["round"], state["rounds"], state["cards"]) == (2, 2, 1)
    assert state["leader"] == 0 and not state["finished"]  # dealer Ben: Ana leads round 2
    store.set_bids(gid, 2, [1, 0])
    with pytest.raises(Exception, match=r"round must be 1\.\.2, got 3"):
        store.set_bids(gid, 3, [0, 0])
    store.record_trick(gid, 2, 0, plays((0, "green-3"), (1, "green-2")))
    assert store.game(gid).status == "finished"
    score = store.score(gid)["score"]
    assert score["totals"] == [10, 0] and score["leaders"] == [0]
    exported = store.export_record(gid)
    assert [r["bids"] for r in exported["rounds"]] == [[1, 0], [1, 0]]
    again = store.import_record(exported)  # the tie-break round imports too
    assert store.game(again).status == "finished"
    assert store.export_record(again)["rounds"] == exported["rounds"]


def test_a_tie_broken_by_a_tie_again_goes_on(store: GameStore) -> None:
    gid = tied_after_round_1(store)
    store.set_bids(gid, 2, [0, 0])  # both bid 0, Ana wins the trick: -10 and +10
    store.record_trick(gid, 2, 0, plays((0, "green-3"), (1, "green-2")))
    assert store.score(gid)["score"]["totals"] == [-20, 0]
    assert store.game(gid).status == "finished"
    gid = tied_after_round_1(store)
    store.set_bids(gid, 2, [0, 1])  # Ana wins on a 0 bid, Ben bid 1: -10 each, tied again
    store.record_trick(gid, 2, 0, plays((0, "escape"), (1, "escape")))
    assert store.game(gid).status == "active" and store.rounds_due(gid) == 3


def test_an_unfinished_tied_record_imports_as_the_game_in_progress(store: GameStore) -> None:
    gid = tied_after_round_1(store)
    record = store.export_record(gid)
    store.finish_game(gid)
    again = store.import_record(record)
    assert store.game(again).status == "active" and store.rounds_due(again) == 2


def test_the_camera_plays_the_tie_break_round_from_the_stored_bids(store: GameStore) -> None:
    """The referee is built from the store while the game is on: it must not call the game
    over after the last regular round while the lead is tied."""
    gid = tied_after_round_1(store)
    referee = referee_from_store(store, gid)
    assert referee.round == 2 and not referee.finished
    assert referee.leader() == 0
    store.set_bids(gid, 2, [1, 0])
    outcome = referee.add_plays([(0, "green-3"), (1, "green-2")])
    assert (outcome.round, outcome.winner) == (2, 0)
    assert referee.finished
    shared = store.create_game(["Ana", "Ben"], 0, {"rounds": 1})
    store.set_bids(shared, 1, [1, 0])
    store.record_trick(shared, 1, 0, plays((1, "escape"), (0, "escape")))
    assert referee_from_store(store, shared).finished  # a shared win: over


def test_settings_that_tie_or_untie_the_lead_reopen_or_finish_the_game(store: GameStore) -> None:
    gid = tied_after_round_1(store)
    store.update_settings(gid, {"tie": "shared"})  # a shared win: over
    assert store.game(gid).status == "finished" and store.rounds_due(gid) == 1
    store.update_settings(gid, {"tie": "extra_round"})  # tied again: play it out
    assert store.game(gid).status == "active" and store.rounds_due(gid) == 2
    store.update_settings(gid, {"points_per_trick": 30})  # still -10 each: nothing moves
    assert store.game(gid).status == "active"
    store.finish_game(gid)  # the table stops here, tie or not: not reopened by a setting
    store.update_settings(gid, {"points_per_trick": 20})
    assert store.game(gid).status == "finished"


def test_a_correction_that_ties_the_lead_after_the_end_reopens_the_game(
    store: GameStore,
) -> None:
    """A card corrected after the last trick ties the lead: the tie-break is due, so the game
    is in progress again (it stayed finished, and the camera never recorded the round)."""
    gid = store.create_game(["Ana", "Ben"], 0, TIE)
    store.set_bids(gid, 1, [1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-2"), (0, "green-3")))  # Ana 20, Ben 10
    assert store.game(gid).status == "finished"
    store.correct_play(gid, 1, 0, 1, card="escape")  # Ana's escape: Ben wins, both missed
    assert store.game(gid).status == "active" and store.rounds_due(gid) == 2
    assert store.events_since(0)[-1].kind in ("correction", "reopened")
    assert "reopened" in [e.kind for e in store.events_since(0)]
    active = store.active_game()
    assert active is not None and active.id == gid


def test_a_correction_that_unties_the_lead_sets_the_tie_break_bids_aside(
    store: GameStore,
) -> None:
    """The tie-break's bids were in, no trick yet: untied, the round is not due and the game
    is over, but the bids stay stored (they were deleted, unaudited), so a correction undone
    brings the round back with them."""
    gid = tied_after_round_1(store)
    store.set_bids(gid, 2, [1, 0])
    store.correct_play(gid, 1, 0, 1, card="green-3")  # Ana's green-3 under Ben's escape lead
    assert store.rounds_due(gid) == 1 and store.game(gid).status == "finished"
    assert store.score(gid)["ok"] and store.export_record(gid)["rounds"][1:] == []
    assert "warning_phrases" not in store.score(gid)  # only bid: nothing to warn about
    store.correct_play(gid, 1, 0, 1, card="escape")  # taken back: tied again
    assert store.rounds_due(gid) == 2 and store.game(gid).status == "active"
    assert store.bids(gid, 2) == [1, 0]
    assert [r["bids"] for r in store.export_record(gid)["rounds"]] == [[1, 0], [1, 0]]


def test_a_correction_that_unties_the_lead_after_the_tie_break_was_played(
    store: GameStore,
) -> None:
    """The tie-break round was under way when a correction of round 1 untied the lead: the
    game was over after round 1, so the round counts for nothing (its trick stays recorded),
    the game finishes and exports, instead of refusing every score from then on."""
    gid = tied_after_round_1(store)
    store.set_bids(gid, 2, [1, 0])
    store.record_trick(gid, 2, 0, plays((0, "green-3"), (1, "green-2")))  # Ana: +20
    assert store.game(gid).status == "finished"
    store.correct_play(gid, 1, 0, 1, card="green-3")  # Ana wins round 1 after all: 20 to 10
    answer = store.score(gid)
    assert answer["ok"], answer
    assert answer["score"]["totals"] == [20, 10] and len(answer["score"]["rounds"]) == 1
    assert answer["score"]["warnings"] == [
        "the lead is not tied after round 1, so round 2, played as a tie-break, does not count"
    ]
    assert store.rounds_due(gid) == 1 and store.game(gid).status == "finished"
    assert len(store.tricks(gid)) == 2  # the tie-break's trick is kept
    exported = store.export_record(gid)
    assert len(exported["rounds"]) == 2  # what was played, for the record
    store.correct_play(gid, 1, 0, 1, card="escape")  # undone: tied, round 2 counts again
    assert store.score(gid)["score"]["totals"] == [10, 0]


def test_a_late_fix_that_ties_an_older_game_leaves_the_table_to_the_game_in_play(
    store: GameStore,
) -> None:
    """Last game's bid fixed on its page while tonight's game is played: the fix makes a
    tie-break due, and the scores say so, but the older game stays finished. It was reopened,
    took the table (TV, phones, camera) from tonight's game and told it it was replaced."""
    old = store.create_game(["Ana", "Ben"], 0, TIE)
    store.set_bids(old, 1, [1, 1])
    store.record_trick(old, 1, 0, plays((1, "escape"), (0, "escape")))  # Ben's: -10, 20
    tonight = store.create_game(["Cai", "Dan"], 0, TIE)
    store.set_bids(old, 1, [1, 0])  # Ben bid 0 after all: -10 each, tied
    assert store.score(old)["score"]["totals"] == [-10, -10]
    assert store.game(old).status == "finished" and store.rounds_due(old) == 2
    active = store.active_game()
    assert active is not None and active.id == tonight
    assert store.replaced_by(tonight) is None and store.replaced_by(old) == tonight
    assert "reopened" not in [e.kind for e in store.events_since(0, old)]
    store.set_bids(old, 1, [1, 1])  # and back: untied, still finished
    assert store.game(old).status == "finished" and store.rounds_due(old) == 1


def test_a_tie_break_due_in_a_replaced_game_is_played_once_the_table_is_free(
    store: GameStore,
) -> None:
    """Last game's late fix made a tie-break due while tonight's game was played: it stays
    finished (the table is tonight's), and once tonight's game is over it is resumed to play
    the tie-break. It was refused for good: "game 2 has been set up since game 1; only the
    table's latest game can be resumed", and the tie-break could never be played."""
    old, tonight = _tie_break_due_while_another_game_is_played(store)
    assert not store.resumable(old)
    with pytest.raises(UserError, match=f"game {tonight} is being played at the table; finish"):
        store.resume_game(old)
    store.set_bids(tonight, 1, [0, 1])
    store.record_trick(tonight, 1, 0, plays((1, "escape"), (0, "escape")))  # tonight's over
    assert store.game(tonight).status == "finished" and store.active_game() is None
    assert store.resumable(old) and not store.resumable(tonight)
    store.resume_game(old)
    active = store.active_game()
    assert active is not None and active.id == old
    assert store.replaced_by(old) is None and store.replaced_by(tonight) == old
    assert store.events_since(0, tonight)[-1].kind == "replaced"  # its pages say so
    state = store.state(old)
    assert (state["round"], state["cards"], state["leader"]) == (2, 1, 0)
    store.set_bids(old, 2, [1, 0])
    store.record_trick(old, 2, 0, plays((0, "green-3"), (1, "green-2")))
    assert store.game(old).status == "finished"
    assert store.score(old)["score"]["leaders"] == [0]


def _tie_break_due_while_another_game_is_played(store: GameStore) -> tuple[int, int]:
    """Last game (Ana and Ben, one round) and tonight's (Cai and Dan, one round, not played
    yet), set up after it; then last game's bids fixed so that its lead is tied and a
    tie-break round is due in it. Returns (last game, tonight's)."""
    old = store.create_game(["Ana", "Ben"], 0, TIE)
    store.set_bids(old, 1, [1, 1])
    store.record_trick(old, 1, 0, plays((1, "escape"), (0, "escape")))
    tonight = store.create_game(["Cai", "Dan"], 0, {"rounds": 1})
    store.set_bids(old, 1, [1, 0])  # tied: a tie-break is due
    return old, tonight


def test_the_settings_page_offers_resuming_for_a_tie_break_in_words_that_say_so(
    client: FlaskClient, store: GameStore
) -> None:
    """Its hint read "Finished by mistake?": a tie-break due in a game another game replaced
    is no mistake, and the table did not know the button was meant for it."""
    old, tonight = _tie_break_due_while_another_game_is_played(store)
    store.finish_game(tonight)
    page = client.get(f"/game/{old}/settings?lang=da").get_data(as_text=True)
    assert 'id="resume-game"' in page
    assert "(afsluttet ved en fejl, eller en runde mere ved uafgjort)?" in page


def test_harrys_choice_can_tie_or_untie_the_lead(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {**TIE, "pirate_abilities": True})
    store.set_bids(gid, 1, [1, 0])
    store.record_trick(gid, 1, 0, plays((1, "pirate-harry"), (0, "green-3")))  # Ben wins
    assert store.game(gid).status == "active" and store.rounds_due(gid) == 2  # -10 each
    store.choose_ability(gid, 1, 0, 1)  # Ben's 0 becomes 1: made, +20, the lead untied
    assert store.score(gid)["score"]["totals"] == [-10, 20]
    assert store.game(gid).status == "finished" and store.rounds_due(gid) == 1
    store.choose_ability(gid, 1, 0, 0)  # no change after all: tied again, the game goes on
    assert store.game(gid).status == "active" and store.rounds_due(gid) == 2


def test_settings_but_the_rounds_still_change_during_a_tie_break(store: GameStore) -> None:
    """Tie-break rounds count as rounds played: a setting like points per trick was refused
    ("rounds cannot be set to 1") once one had a trick."""
    gid = tied_after_round_1(store)
    store.set_bids(gid, 2, [0, 1])
    store.record_trick(gid, 2, 0, plays((0, "escape"), (1, "escape")))  # tied again
    assert store.rounds_due(gid) == 3
    store.update_settings(gid, {"points_per_trick": 30})
    assert store.rounds_due(gid) == 3 and store.game(gid).status == "active"
    with pytest.raises(UserError, match="already has tricks in round 2"):
        store.update_settings(gid, {"tie": "shared"})  # round 2 was played as a tie-break


def test_the_camera_follows_a_swap_that_unties_the_lead() -> None:
    """The referee's count of rounds was kept per number of tricks: a swap (the same number)
    that untied the lead left it waiting for a tie-break round that was not due."""
    referee = Referee(players=["Ana", "Ben"], settings=Settings(rounds=1, tie="extra_round"))
    referee.bids = [[1, 0]]

    def ben_leads(cards: list[str]) -> TrickObservation:
        return dataclasses.replace(trick(cards), players=(1, 0), leader=1, arrival_seats=(1, 0))

    referee.add(ben_leads(["escape", "escape"]))  # Ben's escape wins: -10 each
    assert referee.rounds_due() == 2 and not referee.finished
    referee.amend_last(ben_leads(["escape", "green-3"]))  # Ana's green-3 wins: untied
    assert referee.rounds_due() == 1 and referee.finished


def test_the_camera_counts_harrys_stored_choice(store: GameStore) -> None:
    """The referee scored every pirate's choice as none: with Harry's +1 stored the store
    said the game was over and the referee waited for a tie-break round."""
    gid = store.create_game(["Ana", "Ben"], 0, {**TIE, "pirate_abilities": True})
    store.set_bids(gid, 1, [1, 0])
    store.record_trick(gid, 1, 0, plays((1, "pirate-harry"), (0, "green-3")))
    store.choose_ability(gid, 1, 0, 1)  # Ben's 0 becomes 1: made, the lead untied
    assert store.rounds_due(gid) == 1
    assert referee_from_store(store, gid).finished
