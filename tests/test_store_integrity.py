"""GameStore keeps the recorded game whole: no lost bids or rounds, no lost concurrent edits,
no stale pirate abilities, imports that leave tonight's game alone, refused bad input."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from store_support import plays

from skullcam.errors import UserError
from skullcam.store import GameStore, checks


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    s = GameStore(tmp_path / "data")
    yield s
    s.close()


def new_game(store: GameStore, settings: dict[str, Any] | None = None) -> int:
    return store.create_game(["Ana", "Ben", "Cai"], 0, settings or {})


def two_rounds(store: GameStore, round1_bids: list[int | None]) -> int:
    """Rounds 1 and 2 played (Ana deals first, so Ben leads round 1 and Cai round 2)."""
    gid = new_game(store)
    store.set_bids(gid, 1, round1_bids)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-6"), (0, "green-7")))
    store.set_bids(gid, 2, [1, 0, 1])
    store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-6"), (1, "green-7")))
    store.record_trick(gid, 2, 1, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    return gid


# ------------------------------------------------------------------------ bids and rounds
def test_clearing_a_bid_of_a_played_round_is_refused_and_the_score_is_kept(
    store: GameStore,
) -> None:
    gid = two_rounds(store, [1, 0, 1])
    before = store.score(gid)
    assert before["ok"] and len(before["score"]["rounds"]) == 2
    with pytest.raises(UserError, match="round 1 has recorded tricks; change Ana's bid"):
        store.set_bid(gid, 1, 0, None)
    with pytest.raises(UserError, match="change the bids of Ana, Cai instead of clearing"):
        store.set_bids(gid, 1, [None, 0, None])
    assert store.bids(gid, 1) == [1, 0, 1]
    assert store.score(gid)["score"] == before["score"]
    assert len(store.export_record(gid)["rounds"]) == 2
    # Changing the bid is what the table means, and a round not played yet may be cleared.
    store.set_bid(gid, 1, 0, 0)
    assert store.bids(gid, 1) == [0, 0, 1]
    store.set_bid(gid, 3, 0, 2)
    store.set_bid(gid, 3, 0, None)
    assert store.bids(gid, 3) == [None, None, None]


def test_a_missing_bid_never_silently_drops_recorded_rounds(store: GameStore) -> None:
    gid = new_game(store)
    store.set_bids(gid, 1, [None, 0, 1])  # Ana never bid, but the round was played
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-6"), (0, "green-7")))
    score = store.score(gid)
    assert not score["ok"]
    assert score["error"] == (
        "round 1 has all its tricks recorded but no bid for Ana; "
        "enter the missing bid for round 1 to score it"
    )
    with pytest.raises(UserError, match="cannot export game 1: round 1 has all its tricks"):
        store.export_record(gid)
    store.set_bids(gid, 2, [1, 0, 1])
    store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-6"), (1, "green-7")))
    assert "round 2 has recorded tricks" in store.score(gid)["error"]
    assert "round 2 has recorded tricks" in store.state(gid)["score"]["error"]
    store.set_bid(gid, 1, 0, 1)
    after = store.score(gid)
    assert after["ok"] and len(after["score"]["rounds"]) == 2


def test_a_round_in_progress_without_all_bids_is_not_an_error(store: GameStore) -> None:
    gid = new_game(store)
    store.set_bids(gid, 1, [1, 0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-6"), (0, "green-7")))
    store.set_bid(gid, 2, 1, 0)
    store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-6"), (1, "green-7")))
    score = store.score(gid)
    assert score["ok"] and len(score["score"]["rounds"]) == 1


def test_cutting_rounds_to_those_played_finishes_the_game(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 2})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-3"), (0, "green-4")))
    assert store.game(gid).status == "active"
    store.update_settings(gid, {"rounds": 1})
    assert store.game(gid).status == "finished"
    assert store.active_game() is None
    assert store.state(gid)["leader"] is None


def test_adding_rounds_to_a_played_out_game_reopens_it(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 1})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-3"), (0, "green-4")))
    assert store.game(gid).status == "finished"
    store.update_settings(gid, {"rounds": 3})
    game = store.game(gid)
    assert (game.status, game.finished_at) == ("active", None)
    active = store.active_game()
    assert active is not None and active.id == gid
    assert store.state(gid)["round"] == 2
    store.set_bids(gid, 2, [0, 1])
    store.record_trick(gid, 2, 0, plays((0, "green-5"), (1, "green-6")))
    assert store.game(gid).status == "active"


def test_a_game_ended_early_stays_finished_when_rounds_change(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 3})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-3"), (0, "green-4")))
    store.finish_game(gid)  # the table stopped after round 1
    store.update_settings(gid, {"rounds": 2})
    assert store.game(gid).status == "finished"


# ---------------------------------------------------------------- concurrent corrections
class _SpyLock:
    """The store's write lock, saying when the thread named ``name`` starts waiting for it."""

    def __init__(self, lock: Any, name: str, waiting: threading.Event) -> None:
        self.lock, self.name, self.waiting = lock, name, waiting

    def __enter__(self) -> _SpyLock:
        if threading.current_thread().name == self.name:
            self.waiting.set()
        self.lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


def race(
    store: GameStore,
    monkeypatch: pytest.MonkeyPatch,
    owner: Any,
    planner: str,
    first: Callable[[], object],
    second: Callable[[], object],
) -> list[BaseException]:
    """Run ``first`` until it has planned its change (``owner.planner`` returned), start
    ``second`` and wait until it asks for the write lock, then let ``first`` go on.

    Planning outside the write transaction lets ``second`` commit in between and ``first``
    then writes what it read before: the lost update. Deterministic: no sleeps.
    """
    planned, go_on, second_waiting = threading.Event(), threading.Event(), threading.Event()
    original = getattr(owner, planner)

    def held(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        if threading.current_thread().name == "first":
            planned.set()
            assert go_on.wait(10)
        return result

    monkeypatch.setattr(owner, planner, held)
    lock = _SpyLock(store._shared.write_lock, "second", second_waiting)
    monkeypatch.setattr(store._shared, "write_lock", lock)
    errors: list[BaseException] = []

    def run(action: Callable[[], object]) -> None:
        try:
            action()
        except BaseException as err:  # reported to the test
            errors.append(err)

    one = threading.Thread(target=run, args=(first,), name="first")
    two = threading.Thread(target=run, args=(second,), name="second")
    one.start()
    assert planned.wait(10)
    two.start()
    assert second_waiting.wait(10)
    go_on.set()
    one.join(10)
    two.join(10)
    assert not one.is_alive() and not two.is_alive()
    return errors


def test_two_corrections_of_one_trick_at_once_both_land(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = new_game(store)
    store.set_bids(gid, 1, [1, 0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-6"), (0, "green-7")))
    errors = race(
        store,
        monkeypatch,
        GameStore,
        "_plan_correction",
        lambda: store.correct_play(gid, 1, 0, 0, card="green-1"),
        lambda: store.correct_play(gid, 1, 0, 2, card="green-2"),
    )
    assert errors == []
    trick = store.trick(gid, 1, 0)
    assert [p["card"] for p in trick.plays] == ["green-1", "green-6", "green-2"]
    assert trick.resolution["winner"] == 1
    assert sorted(c.after["value"] for c in store.audit(gid, trick.id)) == ["green-1", "green-2"]


def test_two_settings_changes_at_once_both_land(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = new_game(store)
    errors = race(
        store,
        monkeypatch,
        checks,
        "check_settings",
        lambda: store.update_settings(gid, {"loot": True}),
        lambda: store.update_settings(gid, {"points_per_trick": 30}),
    )
    assert errors == []
    assert store.game(gid).settings == {"loot": True, "points_per_trick": 30}


# ------------------------------------------------------------------------ pirate abilities
def rosie_game(store: GameStore) -> int:
    """Round 2, trick 0: Cai wins with Rosie and picks Ben to lead next."""
    gid = new_game(store, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-3"), (2, "green-4"), (0, "escape")))
    store.set_bids(gid, 2, [0, 1, 0])
    store.record_trick(gid, 2, 0, plays((2, "pirate-rosie"), (0, "green-3"), (1, "escape")))
    store.answer_prompt(store.create_prompt(gid, "rosie", 2, 0, player=2), 1)
    assert store.state(gid)["leader"] == 1
    return gid


def test_correction_drops_an_ability_its_pirate_no_longer_earns(store: GameStore) -> None:
    gid = rosie_game(store)
    trick = store.correct_play(gid, 2, 0, 0, card="green-9", note="it was the green 9")
    assert store.abilities(gid, 2) == []
    score = store.score(gid)
    assert score["ok"], score.get("error")
    assert store.state(gid)["leader"] == 2  # Cai won with the green 9 and leads
    dropped = [c for c in store.audit(gid, trick.id) if c.kind == "ability"]
    assert [(c.before, c.after) for c in dropped] == [
        ({"trick": 0, "pirate": "pirate-rosie", "choice": 1, "player": 2}, None)
    ]
    assert "no longer wins" in dropped[0].note
    event = store.events_since(0, game_id=gid)[-1]
    assert event.kind == "correction" and event.payload["abilities_dropped"] == [
        {"trick": 0, "pirate": "pirate-rosie", "choice": 1}
    ]


def test_a_correction_undone_puts_the_dropped_choice_back(store: GameStore) -> None:
    """Undoing the correction asked Rosie's choice again: the answer given was lost, and the
    score stood on the trick's winner leading until someone answered twice (a review)."""
    gid = rosie_game(store)
    store.correct_play(gid, 2, 0, 0, card="green-9")  # Rosie dropped: Cai's choice of Ben
    trick = store.correct_play(gid, 2, 0, 0, card="pirate-rosie")  # the correction undone
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 1}]
    assert store.prompts(gid) == [] and store.state(gid)["leader"] == 1
    restored = [c for c in store.audit(gid, trick.id) if c.kind == "choice"][-1]
    assert restored.note == "restored: the correction that dropped it was undone"
    # Rosie given to another player: that player's choice to make, so asked.
    store.correct_play(gid, 2, 0, 0, card="green-9")
    store.correct_play(gid, 2, 0, 1, card="pirate-rosie")  # now Ana's card wins
    assert store.abilities(gid, 2) == []
    (asked,) = store.prompts(gid)
    assert (asked.kind, asked.player) == ("rosie", 0)


@pytest.mark.parametrize("ana_card", ["yellow-5", "pirate-harry"])
def test_a_correction_that_gave_the_trick_away_undone_puts_the_choice_back(
    store: GameStore, ana_card: str
) -> None:
    """Cai's Rosie corrected to a yellow 1 gave the trick to Ana; back to Rosie, her choice
    (Ana leads) was asked again, and the score warned that Ana led trick 2 out of turn until
    someone answered twice (a review, session 42). With Ana's Harry winning meanwhile, the
    question it opened goes when Rosie wins again."""
    gid = new_game(store, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-3"), (2, "green-4"), (0, "escape")))
    store.set_bids(gid, 2, [1, 0, 1])
    store.record_trick(gid, 2, 0, plays((2, "pirate-rosie"), (0, ana_card), (1, "escape")))
    store.answer_prompt(store.create_prompt(gid, "rosie", 2, 0, player=2), 0)
    store.record_trick(gid, 2, 1, plays((0, "green-9"), (1, "green-2"), (2, "green-1")))
    store.correct_play(gid, 2, 0, 0, card="yellow-1")  # Ana's card wins: Cai's choice dropped
    assert store.abilities(gid, 2) == []
    asked = [(p.kind, p.player) for p in store.prompts(gid) if p.status == "open"]
    assert asked == ([("harry", 0)] if ana_card == "pirate-harry" else [])
    trick = store.correct_play(gid, 2, 0, 0, card="pirate-rosie")  # the correction undone
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 0}]
    assert [p for p in store.prompts(gid) if p.status == "open"] == []
    audit = store.audit(gid, trick.id)
    dropped = [c for c in audit if c.kind == "ability"]
    assert "is now won by another player" in dropped[-1].note
    assert [c for c in audit if c.kind == "choice"][-1].note == (
        "restored: the correction that dropped it was undone"
    )
    score = store.score(gid)
    assert score["ok"], score.get("error")
    assert not score["score"].get("warnings")


def test_rosie_leads_only_while_abilities_count(store: GameStore) -> None:
    gid = rosie_game(store)
    store.update_settings(gid, {"pirate_abilities": False})
    assert store.state(gid)["leader"] == 2  # the trick's winner, as the score has it
    store.update_settings(gid, {"pirate_abilities": True})
    assert store.state(gid)["leader"] == 1


def test_correction_reasks_for_the_new_winning_pirate(store: GameStore) -> None:
    gid = new_game(store, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "pirate-rosie"), (2, "green-3"), (0, "escape")))
    rosie = store.create_prompt(gid, "rosie", 1, 0, player=1)
    store.correct_play(gid, 1, 0, 0, card="pirate-harry")
    assert store.prompt(rosie).status == "dismissed"
    (harry,) = store.prompts(gid)
    assert (harry.kind, harry.round, harry.trick, harry.player) == ("harry", 1, 0, 1)
    store.answer_prompt(harry.id, -1)
    assert store.abilities(gid, 1) == [{"trick": 0, "pirate": "pirate-harry", "choice": -1}]
    assert store.score(gid)["ok"]


def test_a_declined_ability_is_not_asked_again_by_a_card_correction(store: GameStore) -> None:
    gid = new_game(store, {"pirate_abilities": True})
    store.record_trick(gid, 1, 0, plays((1, "pirate-rosie"), (2, "green-3"), (0, "escape")))
    store.dismiss_prompt(store.create_prompt(gid, "rosie", 1, 0, player=1))
    store.correct_play(gid, 1, 0, 1, card="green-4")  # Rosie still wins, still Ben's
    assert store.prompts(gid) == []


def test_a_seat_correction_asks_the_pirates_new_player(store: GameStore) -> None:
    """Harry was Cai's card, not Ben's: Ben's choice (and open question) were not his to
    make, and -1 may not even fit Cai's bid."""
    gid = new_game(store, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "pirate-harry"), (2, "green-3"), (0, "escape")))
    store.answer_prompt(store.create_prompt(gid, "harry", 1, 0, player=1), -1)
    trick = store.correct_play(gid, 1, 0, 0, player=2)
    assert store.abilities(gid, 1) == []
    (asked,) = store.prompts(gid)
    assert (asked.kind, asked.player) == ("harry", 2)
    dropped = [c for c in store.audit(gid, trick.id) if c.kind == "ability"]
    assert "round 1 trick 1 is now won by another player: pirate-harry's" in dropped[0].note
    assert store.score(gid)["ok"]


def test_an_ability_answer_for_a_trick_its_pirate_lost_is_refused(store: GameStore) -> None:
    gid = new_game(store, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-3"), (2, "green-4"), (0, "escape")))
    pid = store.create_prompt(gid, "rosie", 1, 0, player=2)
    with pytest.raises(UserError, match=r"not won by pirate-rosie.*dismiss this question"):
        store.answer_prompt(pid, 0)
    assert store.abilities(gid, 1) == []
    store.dismiss_prompt(pid)
    assert store.score(gid)["ok"]


@pytest.mark.parametrize("answer", [1.7, 1.0, True, "1.5", "²", None, [1]])
def test_ability_answers_must_be_whole_numbers(store: GameStore, answer: object) -> None:
    gid = new_game(store, {"pirate_abilities": True})
    pid = store.create_prompt(gid, "rosie", 1, 0, player=1)
    with pytest.raises(UserError, match="Rosie's next leader must be a whole number"):
        store.answer_prompt(pid, answer)
    assert store.abilities(gid, 1) == []
    store.answer_prompt(pid, " 2 ")
    assert store.abilities(gid, 1) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 2}]


@pytest.mark.parametrize("answer", ["9" * 5000, 10**30])
def test_an_ability_answer_far_out_of_range_is_refused_as_such(
    store: GameStore, answer: object
) -> None:
    gid = new_game(store, {"pirate_abilities": True})
    pid = store.create_prompt(gid, "harry", 1, 0, player=1)
    with pytest.raises(UserError, match="Harry's bid change is far out of range") as err:
        store.answer_prompt(pid, answer)
    assert len(str(err.value)) < 100
    store.answer_prompt(pid, "+1")  # what a player types for "one more"
    assert store.abilities(gid, 1) == [{"trick": 0, "pirate": "pirate-harry", "choice": 1}]


def test_only_an_open_prompt_can_be_dismissed(store: GameStore) -> None:
    gid = new_game(store, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "pirate-rascal"), (2, "green-3"), (0, "escape")))
    answered = store.create_prompt(gid, "rascal_bet", 1, 0, player=1)
    store.answer_prompt(answered, 20)
    with pytest.raises(UserError, match="already answered; there is nothing to dismiss"):
        store.dismiss_prompt(answered)
    assert store.prompt(answered).status == "answered"
    assert store.abilities(gid, 1) == [{"trick": 0, "pirate": "pirate-rascal", "choice": 20}]
    mistake = store.create_prompt(gid, "flagged", 1, 0)
    store.dismiss_prompt(mistake)
    with pytest.raises(UserError, match="already dismissed"):
        store.dismiss_prompt(mistake)


# -------------------------------------------------------------------------- corrections
def test_correcting_to_an_undeclared_tigress_is_refused(store: GameStore) -> None:
    gid = new_game(store)
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "tigress:pirate"), (0, "escape")))
    for card in ("tigress", "TIGRESS"):
        with pytest.raises(UserError, match="choose tigress:pirate or tigress:escape"):
            store.correct_play(gid, 1, 0, 1, card=card)
    assert store.trick(gid, 1, 0).plays[1]["card"] == "tigress:pirate"
    assert store.audit(gid) == []
    assert store.score(gid)["ok"]
    with pytest.raises(UserError, match="say how the Tigress was played"):
        store.redeclare_tigress(gid, 1, 0, None)  # type: ignore[arg-type]


def test_a_note_must_be_text(store: GameStore) -> None:
    gid = new_game(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    with pytest.raises(UserError, match=r"a note must be text, got \{'a': 1\}"):
        store.correct_play(gid, 1, 0, 0, card="green-3", note={"a": 1})  # type: ignore[arg-type]
    with pytest.raises(UserError, match="a note must be text"):
        store.update_settings(gid, {"loot": True}, note=["x"])  # type: ignore[arg-type]
    assert store.trick(gid, 1, 0).plays[0]["card"] == "green-5"
    assert store.game(gid).settings == {}
    assert store.audit(gid) == []


def test_errors_name_bad_input_once_and_briefly(store: GameStore) -> None:
    gid = new_game(store)
    store.record_trick(gid, 1, 0, plays((1, "green-5"), (2, "green-9"), (0, "escape")))
    with pytest.raises(UserError) as unknown:
        store.correct_play(gid, 1, 0, 0, card="green-99")
    assert str(unknown.value) == "unknown card 'green-99': numbered cards run green-1 .. green-14"
    with pytest.raises(UserError) as long_card:
        store.correct_play(gid, 1, 0, 0, card="x" * 5000)
    with pytest.raises(UserError) as long_round:
        store.set_bid(gid, 10**400, 0, 1)
    for err in (long_card, long_round):
        assert len(str(err.value)) < 120 and "…" in str(err.value)


# ------------------------------------------------------------------------------ players
@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ana", None], "player 2's name must be text, got None"),
        (["Ana", {"x": 1}], "player 2's name must be text"),
        (["Ana", 123], "player 2's name must be text, got 123"),
        (["Ana\u0000", "Ben"], "control character"),
        (["Ana", "B\nen"], "control character"),
        (["Ana", "\ud800"], "control character"),
        (["Ana", "Ben\u202e"], "control character"),  # a right-to-left override
    ],
)
def test_player_names_must_be_plain_text(
    store: GameStore, players: list[Any], message: str
) -> None:
    with pytest.raises(UserError, match=message):
        store.create_game(players)
    assert store.games() == []


# ------------------------------------------------------------------------------- import
def record(rounds: list[dict[str, Any]], settings: dict[str, Any] | None = None) -> dict:
    return {
        "format": "skullcam-game/1",
        "players": ["Ana", "Ben", "Cai"],
        "settings": settings or {},
        "first_dealer": 0,
        "rounds": rounds,
    }


def test_import_stores_canonical_card_ids(store: GameStore) -> None:
    seats = (1, 2, 0)
    cards = ("GREEN-5", "TIGRESS:PIRATE", "Escape")
    trick = {"plays": [{"player": p, "card": c} for p, c in zip(seats, cards, strict=True)]}
    gid = store.import_record(record([{"bids": [1, 0, 1], "tricks": [trick]}]))
    assert [p["card"] for p in store.trick(gid, 1, 0).plays] == [
        "green-5",
        "tigress:pirate",
        "escape",
    ]
    exported = store.export_record(gid)["rounds"][0]["tricks"][0]["plays"]
    assert [p["card"] for p in exported] == ["green-5", "tigress:pirate", "escape"]
    store.redeclare_tigress(gid, 1, 0, "escape")
    assert store.trick(gid, 1, 0).plays[1]["card"] == "tigress:escape"


def test_import_does_not_take_over_the_game_in_progress(store: GameStore) -> None:
    tonight = new_game(store)
    store.set_bids(tonight, 1, [0, 1, 0])
    old = store.import_record(record([{"bids": [0, 1, 0], "tricks": []}]))
    active = store.active_game()
    assert active is not None and active.id == tonight
    assert store.game(old).status == "finished"
    (note,) = store.audit(old)
    assert note.kind == "import" and f"game {tonight} was in progress" in note.note
    assert note.after == {"file": None, "rounds": 1, "status": "finished"}
    assert store.export_record(old)["rounds"] == [{"bids": [0, 1, 0], "tricks": []}]


def test_an_unfinished_import_resumes_when_no_game_is_in_progress(store: GameStore) -> None:
    gid = store.import_record(record([{"bids": [0, 1, 0], "tricks": []}]))
    active = store.active_game()
    assert active is not None and active.id == gid
    (note,) = store.audit(gid)
    assert (note.kind, note.after, note.note) == (
        "import",
        {"file": None, "rounds": 1, "status": "active"},
        "",
    )


def test_an_imported_game_says_so_in_its_audit_trail(store: GameStore) -> None:
    """A referee settling a dispute from an imported record found no trace of the import:
    the trail was empty, as if the game had been played here. It starts with an 'import'
    entry (when: its ``at``) naming the file, without the folders a browser or a path may
    give, its rounds and how the game stands."""
    gid = store.import_record(
        record([{"bids": [0, 1, 0], "tricks": []}]), file_name="C:\\fakepath\\tuesday.json"
    )
    (note,) = store.audit(gid)
    assert (note.kind, note.trick_id, note.before) == ("import", None, None)
    assert note.after == {"file": "tuesday.json", "rounds": 1, "status": "active"}
    other = store.import_record(record([]), file_name="/home/ana/games/\x00old game.json")
    assert store.audit(other)[0].after["file"] == "old game.json"
    blank = store.import_record(record([]), file_name="  ")
    assert store.audit(blank)[0].after["file"] is None


def test_a_game_set_aside_for_a_newer_one_does_not_come_back(store: GameStore) -> None:
    """Game 1 left unfinished, game 2 set up and played to its end: nothing is in progress
    (the camera waits for the next game), and the TV keeps game 2's final scores. Game 1 used
    to become the game in progress again, and the camera recorded the next game into it."""
    abandoned = new_game(store, {"rounds": 2})
    tonight = new_game(store, {"rounds": 1})
    store.finish_game(tonight)
    assert store.game(abandoned).status == "active"
    assert store.active_game() is None
    shown = store.table_game()
    assert shown is not None and shown.id == tonight


def test_an_older_game_reopened_by_raising_its_rounds_takes_the_table(store: GameStore) -> None:
    """Both games over; the first one's rounds raised to play on: it is the game in progress
    (it was 'active' but out of the camera's and the TV's reach)."""
    first = store.create_game(["Ana", "Ben"], 0, {"rounds": 1})
    store.set_bids(first, 1, [1, 0])
    store.record_trick(first, 1, 0, plays((1, "green-2"), (0, "green-3")))
    second = new_game(store, {"rounds": 1})
    store.finish_game(second)
    store.update_settings(first, {"rounds": 2})
    active = store.active_game()
    assert active is not None and active.id == first
    assert "reopened" in [e.kind for e in store.events_since(0)]


def replacements(store: GameStore) -> list[tuple[int | None, int]]:
    """The ``replaced`` events so far: (the game replaced, the game at the table now)."""
    return [(e.game_id, e.payload["by"]) for e in store.events_since(0) if e.kind == "replaced"]


def test_a_game_replaced_at_the_table_is_told_on_its_own_events(store: GameStore) -> None:
    """A phone left on game 1's bids page follows game 1's events only: it must hear there
    that game 2 has taken the table, or it goes on taking bids as if game 1 were played."""
    first = new_game(store)
    assert store.replaced_by(first) is None and store.state(first)["replaced_by"] is None
    second = new_game(store)
    assert replacements(store) == [(first, second)]
    assert [e.kind for e in store.events_since(0, first)][-1] == "replaced"
    assert store.replaced_by(first) == second and store.state(first)["replaced_by"] == second
    assert store.replaced_by(second) is None
    store.finish_game(second)  # a finished game keeps the table: nothing new is told
    third = new_game(store)
    assert replacements(store) == [(first, second), (second, third)]
    assert store.replaced_by(first) == third  # the table's game now, read when asked


def test_a_game_reopened_or_imported_onto_the_table_tells_the_one_it_replaces(
    store: GameStore,
) -> None:
    first = store.create_game(["Ana", "Ben"], 0, {"rounds": 1})
    store.set_bids(first, 1, [1, 0])
    store.record_trick(first, 1, 0, plays((1, "green-2"), (0, "green-3")))
    second = new_game(store, {"rounds": 1})
    store.finish_game(second)
    store.update_settings(first, {"rounds": 2})  # game 1 takes the table back
    assert replacements(store)[-1] == (second, first)
    assert store.replaced_by(second) == first and store.replaced_by(first) is None
    store.finish_game(first)
    imported = store.import_record(record([{"bids": [0, 1, 0], "tricks": []}]))
    assert replacements(store)[-1] == (first, imported)


def test_an_old_record_kept_finished_replaces_nothing_and_was_never_at_the_table(
    store: GameStore,
) -> None:
    tonight = new_game(store)
    old = store.import_record(record([{"bids": [0, 1, 0], "tricks": []}]))
    assert replacements(store) == []
    assert store.replaced_by(tonight) is None and store.replaced_by(old) is None


def test_an_old_record_imported_after_tonights_game_leaves_the_table_to_it(
    store: GameStore,
) -> None:
    tonight = new_game(store, {"rounds": 1})
    store.finish_game(tonight)
    old = store.import_record(record([{"bids": [0, 1, 0], "tricks": []}], {"rounds": 2}))
    shown = store.table_game()
    assert shown is not None and shown.id == old  # unfinished, nothing in progress: resumed
    complete = {
        "bids": [0, 1, 0],
        "tricks": [
            {
                "plays": [
                    {"player": 1, "card": "green-5"},
                    {"player": 2, "card": "green-9"},
                    {"player": 0, "card": "green-1"},
                ]
            }
        ],
    }
    done = store.import_record(record([complete], {"rounds": 1}))
    assert store.game(done).status == "finished"
    shown = store.table_game()
    assert shown is not None and shown.id == old  # a complete record never takes the table
    active = store.active_game()
    assert active is not None and active.id == old


def test_reading_a_round_the_game_does_not_have_is_refused(store: GameStore) -> None:
    gid = new_game(store, {"rounds": 3})
    assert store.bids(gid, 3) == [None, None, None]
    for read in (store.bids, store.cannonball):
        with pytest.raises(UserError, match=r"round must be 1\.\.3, got 4"):
            read(gid, 4)


def test_a_game_finished_by_mistake_is_resumed_and_both_are_audited(store: GameStore) -> None:
    """One confirmed tap on "Finish game" stopped the recording for good, with no trace."""
    gid = store.create_game(["Ana", "Ben"], 0, {"rounds": 2})
    store.set_bids(gid, 1, [1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-2"), (0, "green-3")))
    store.finish_game(gid)
    store.finish_game(gid)  # a second tap changes nothing and is not audited again
    assert store.active_game() is None
    store.resume_game(gid)
    active = store.active_game()
    assert active is not None and active.id == gid and store.state(gid)["round"] == 2
    assert [(c.kind, c.after) for c in store.audit(gid)] == [
        ("finish", {"status": "finished"}),
        ("resume", {"status": "active"}),
    ]
    assert [e.kind for e in store.events_since(0)][-2:] == ["game_finished", "reopened"]


def test_resuming_is_refused_where_it_would_not_give_the_game_back(store: GameStore) -> None:
    played = store.create_game(["Ana", "Ben"], 0, {"rounds": 1})
    with pytest.raises(UserError, match=f"game {played} is not finished"):
        store.resume_game(played)
    store.set_bids(played, 1, [1, 0])
    store.record_trick(played, 1, 0, plays((1, "green-2"), (0, "green-3")))  # finishes it
    with pytest.raises(UserError, match="to play more, raise its rounds in Settings"):
        store.resume_game(played)
    stopped = new_game(store, {"rounds": 2})
    store.finish_game(stopped)
    tonight = new_game(store, {"rounds": 2})
    with pytest.raises(UserError, match=f"game {tonight} is being played at the table; finish"):
        store.resume_game(stopped)
    active = store.active_game()
    assert active is not None and active.id == tonight
