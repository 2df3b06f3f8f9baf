"""A winning pirate's choice (Rosie, Rascal, Harry): refused where the rules cannot score
it, changeable after the fact from the replay page, and on the audit trail either way."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient
from store_support import BO_LEADS_AFTER_ROSIE, hand, plays, rosie_wins_round_2
from web_support import json_of

from skullcam.errors import UserError
from skullcam.store import GameStore


def harry_wins_round_2(store: GameStore, settings: dict | None = None) -> int:
    """Ana, Ben and Cai (Ana deals): round 2's first trick won by Ben's Harry; Ben bid 0."""
    on = {"pirate_abilities": True}
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, on if settings is None else settings)
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-9"), (2, "green-3"), (0, "green-4")))
    store.set_bids(gid, 2, [1, 0, 1])
    store.record_trick(gid, 2, 0, plays((2, "green-5"), (0, "green-6"), (1, "pirate-harry")))
    return gid


def test_harry_cannot_take_a_bid_below_zero(store: GameStore) -> None:
    gid = harry_wins_round_2(store)
    pid = store.create_prompt(gid, "harry", 2, 0, player=1)
    with pytest.raises(
        UserError,
        match=r"Ben bid 0 of 2 in round 2, and Harry changes it by -1 \(trick 1\): that makes -1",
    ):
        store.answer_prompt(pid, -1)
    assert store.prompt(pid).status == "open"
    assert store.abilities(gid, 2) == []
    store.answer_prompt(pid, 1)
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-harry", "choice": 1}]
    assert store.score(gid)["ok"]


def test_a_choice_is_changed_later_and_audited(store: GameStore) -> None:
    gid = harry_wins_round_2(store)
    (asked,) = store.prompts(gid)  # recording Harry's trick asked the table
    assert (asked.kind, asked.round, asked.trick, asked.player) == ("harry", 2, 0, 1)
    store.answer_prompt(asked.id, 0)
    trick = store.choose_ability(gid, 2, 0, 1, note="Ben said +1")
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-harry", "choice": 1}]
    trail = [(c.kind, c.before, c.after, c.note) for c in store.audit(gid, trick.id)]
    assert trail == [
        ("choice", None, {"pirate": "pirate-harry", "choice": 0}, f"prompt {asked.id}"),
        (
            "choice",
            {"pirate": "pirate-harry", "choice": 0},
            {"pirate": "pirate-harry", "choice": 1},
            "Ben said +1",
        ),
    ]


def test_a_choice_never_asked_is_given_and_its_question_closed(store: GameStore) -> None:
    gid = harry_wins_round_2(store, {})
    with pytest.raises(UserError, match="pirate abilities are off"):
        store.choose_ability(gid, 2, 0, 1)
    store.update_settings(gid, {"pirate_abilities": True})
    pid = store.create_prompt(gid, "harry", 2, 0, player=1)
    store.choose_ability(gid, 2, 0, 1)
    assert store.prompt(pid).status == "answered"
    assert store.prompts(gid) == []


@pytest.mark.parametrize(
    ("round_number", "trick", "choice", "message"),
    [
        (1, 0, 1, r"round 1 trick 1 is not won by Rosie, Rascal or Harry"),
        (2, 0, 2, r"Harry changes the bid by -1, 0 or \+1, not 2"),
        (2, 0, "1.5", r"Harry's bid change must be a whole number"),
        (2, 1, 0, r"no recorded trick 2 in round 2"),
        (3, 0, 0, r"round 3 trick 1 has a card missing: add it first"),
    ],
)
def test_choices_that_do_not_apply_are_refused(
    store: GameStore, round_number: int, trick: int, choice: object, message: str
) -> None:
    gid = harry_wins_round_2(store)
    store.set_bids(gid, 3, [0, 0, 0])
    store.record_trick(gid, 3, 0, plays((0, "pirate-harry"), (1, "green-3")))  # Cai's missed
    with pytest.raises(UserError, match=message):
        store.choose_ability(gid, round_number, trick, choice)
    assert store.abilities(gid, 2) == [] and store.audit(gid) == []


def test_rosie_on_a_rounds_last_trick_has_no_choice(store: GameStore) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1, 0])
    store.record_trick(gid, 1, 0, plays((1, "pirate-rosie"), (2, "green-3"), (0, "green-4")))
    with pytest.raises(UserError, match="Rosie won the last trick of round 1"):
        store.choose_ability(gid, 1, 0, 2)
    # A record that has one anyway (an older version's import) still scores, without it.
    record = store.export_record(gid)
    record["rounds"][0]["abilities"] = [{"trick": 0, "pirate": "pirate-rosie", "choice": 2}]
    answer = store.score(store.import_record(record))
    assert answer["ok"] and answer["score"]["warnings"] == [
        "round 1: Rosie's choice recorded on the round's last trick is ignored: the next round"
        " is led by the dealer's neighbour"
    ]


def test_a_correction_that_makes_rosie_win_a_rounds_last_trick_asks_nothing(
    store: GameStore,
) -> None:
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [1, 0, 0])
    store.record_trick(gid, 1, 0, plays((1, "green-1"), (2, "green-2"), (0, "green-3")))
    store.correct_play(gid, 1, 0, 2, card="pirate-rosie")  # Ana's card was Rosie
    assert store.prompts(gid) == []
    assert "warnings" not in store.score(gid)["score"]
    # Nor is an answer taken to a question asked so before this was fixed (an older store).
    from skullcam.store.prompts import insert_prompt

    with store._write() as conn:
        prompt_id = insert_prompt(conn, gid, "rosie", 1, 0, 0, {})
    with pytest.raises(UserError, match="Rosie won the last trick of round 1"):
        store.answer_prompt(prompt_id, 1)
    assert store.abilities(gid, 1) == [] and "warnings" not in store.score(gid)["score"]


def test_the_replay_page_shows_and_changes_the_choice(
    client: FlaskClient, store: GameStore
) -> None:
    gid = harry_wins_round_2(store)
    url = f"/game/{gid}/round/2/trick/0"
    page = client.get(url).get_data(as_text=True)
    assert "Ben won with Harry: change the bid by −1, 0 or +1?" in page
    assert '<option value="" selected>—</option>' in page  # not chosen yet
    offered = re.findall(r'<option value="(-?\d+)"', page.split('id="choice-value"')[1])
    assert offered == ["0", "1"]  # Ben bid 0: Harry cannot take one off
    res = client.post(f"/api/game/{gid}/round/2/trick/0/ability", json={"choice": 1})
    assert res.status_code == 200, res.json
    bad = client.post(f"/api/game/{gid}/round/2/trick/0/ability", json={"choice": -1})
    assert bad.status_code == 400 and "changes it by -1 (trick 1)" in json_of(bad)["error"]
    missing = client.post(f"/api/game/{gid}/round/2/trick/0/ability", json={})
    assert missing.status_code == 400 and "missing 'choice'" in json_of(missing)["error"]
    res = client.post(f"/api/game/{gid}/round/2/trick/0/ability", json={"choice": 0})
    assert res.status_code == 200
    page = client.get(url).get_data(as_text=True)
    assert '<option value="0" selected>0</option>' in page
    trail = re.search(r'<ol class="audit" id="audit">(.*?)</ol>', page, re.S)
    assert trail is not None
    entries = [" ".join(li.split()) for li in re.findall(r"<li>(.*?)</li>", trail[1], re.S)]
    assert [html.unescape(re.sub(r"<time[^>]*></time> ", "", e)) for e in entries] == [
        "pirate's choice, Harry the Giant: +1",
        "pirate's choice, Harry the Giant: +1 → 0",
    ]
    assert (
        client.get(f"/game/{gid}/round/1/trick/0").get_data(as_text=True).count("choice-form") == 0
    )


def test_a_bid_changed_after_play_is_on_the_audit_trail(
    client: FlaskClient, store: GameStore
) -> None:
    gid = harry_wins_round_2(store)
    store.set_bids(gid, 3, [1, 1, 1])  # before any trick of round 3: the game, not a change
    store.set_bid(gid, 2, 1, 1)  # after round 2's first trick: Ben's 0 was really 1
    store.set_bids(gid, 2, [1, 1, 1])  # the round's bids sent again, unchanged: no entry
    (change,) = [c for c in store.audit(gid) if c.kind == "bid"]
    assert (change.before, change.after) == (
        {"round": 2, "bids": [1, 0, 1]},
        {"round": 2, "bids": [1, 1, 1]},
    )
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    listed = re.search(r'<ol class="audit" id="game-changes">(.*?)</ol>', page, re.S)
    assert listed is not None and "Round 2, bids: Ben 0 → 1" in " ".join(listed[1].split())


def test_the_score_sheet_shows_the_bid_harry_made(client: FlaskClient, store: GameStore) -> None:
    gid = harry_wins_round_2(store)
    store.choose_ability(gid, 2, 0, 1)  # Ben's 0 becomes 1
    store.record_trick(gid, 2, 1, plays((1, "black-3"), (2, "green-2"), (0, "green-1")))
    rows = client.get(f"/game/{gid}/export.csv").get_data(as_text=True).splitlines()
    assert "2,1,Ben,1,2,0,-10,10,," in rows  # bid 1 (as scored), won 2: missed by one


def test_the_round_list_shows_the_bid_harry_made(client: FlaskClient, store: GameStore) -> None:
    """The tricks page's round table gave the bid as made beside points scored for Harry's
    bid: "Ana, bid 1, won 2, 40 points" read as a wrong score (helper J's game). It gives
    both now, as the score sheet gives the bid as scored."""
    gid = harry_wins_round_2(store)
    store.choose_ability(gid, 2, 0, 1)  # Ben's 0 becomes 1
    store.record_trick(gid, 2, 1, plays((1, "black-3"), (2, "green-2"), (0, "green-1")))
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    table = re.search(r'<table class="round-score" id="round-2-score".*?</table>', page, re.S)
    assert table is not None
    rows = [
        [
            html.unescape(re.sub(r"<[^>]+>", "", cell)).split()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", table[0], re.S)
    ]
    assert rows[2] == [["Ben"], ["0", "→", "1", "(Harry", "+1)"], ["2"], ["−10"]]
    assert rows[1] == [["Ana"], ["1"], ["0"], ["−10"]]  # no Harry: the bid alone


def test_the_score_sheet_shows_the_bid_harry_made_while_a_later_round_does_not_score(
    client: FlaskClient, store: GameStore
) -> None:
    """The rounds before the one that stops the score keep their rows, the bid as scored
    too: the recorded 0 beside points scored for a bid of 1 would not add up."""
    gid = harry_wins_round_2(store)
    store.choose_ability(gid, 2, 0, 1)  # Ben's 0 becomes 1
    store.record_trick(gid, 2, 1, plays((1, "black-3"), (2, "green-2"), (0, "green-1")))
    store.set_bids(gid, 3, [1, 1, 1])
    store.record_trick(gid, 3, 0, plays((2, "green-8"), (0, "green-7"), (1, "green-6")))
    store.correct_play(gid, 3, 0, 1, card="green-8")  # a card twice: round 3 stops the score
    res = client.get(f"/game/{gid}/export.csv")
    assert res.status_code == 200
    rows = res.get_data(as_text=True).splitlines()
    assert "2,1,Ben,1,2,0,-10,10,," in rows and "3,1,Ben,1,,,,,,1" in rows


def test_abilities_turned_on_after_play_ask_for_the_choices_not_made(store: GameStore) -> None:
    gid = harry_wins_round_2(store, {})
    store.update_settings(gid, {"pirate_abilities": True})
    (asked,) = store.prompts(gid)
    assert (asked.kind, asked.round, asked.trick, asked.player) == ("harry", 2, 0, 1)
    store.answer_prompt(asked.id, 1)
    store.update_settings(gid, {"pirate_abilities": False})
    store.update_settings(gid, {"pirate_abilities": True})  # the choice is kept: not asked again
    assert store.prompts(gid) == []


def test_abilities_turned_off_close_their_questions(store: GameStore) -> None:
    """They used to stay open on the phones and the TV, and an answer was stored, ignored."""
    gid = harry_wins_round_2(store, {})
    store.update_settings(gid, {"pirate_abilities": True})
    (asked,) = store.prompts(gid)
    store.update_settings(gid, {"pirate_abilities": False})
    assert store.prompts(gid) == []
    assert store.prompt(asked.id).status == "dismissed"
    late = store.create_prompt(gid, "harry", 2, 0, player=1)  # a phone's stale question
    with pytest.raises(UserError, match="pirate abilities are off"):
        store.answer_prompt(late, 1)
    store.update_settings(gid, {"pirate_abilities": True})  # on again: asked, once
    assert [p.id for p in store.prompts(gid)] == [late]
    store.answer_prompt(late, 1)
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-harry", "choice": 1}]


def test_a_bid_changes_freely_while_abilities_are_off(store: GameStore) -> None:
    """Harry's stored +1 moves no bid while the setting is off, so it no longer refuses a bid
    change then; turned on again, a choice the new bid cannot take is named by the score."""
    gid = harry_wins_round_2(store)
    store.choose_ability(gid, 2, 0, 1)  # Ben's 0 becomes 1
    store.update_settings(gid, {"pirate_abilities": False})
    store.set_bid(gid, 2, 1, 2)  # 2 + 1 would be 3 of 2 cards: refused while it counts
    assert store.bids(gid, 2) == [1, 2, 1] and store.score(gid)["ok"]
    store.update_settings(gid, {"pirate_abilities": True})
    assert "Harry cannot move Ben's bid to 3 (bids are 0..2)" in store.score(gid)["error"]
    store.choose_ability(gid, 2, 0, 0)
    assert store.score(gid)["ok"]


def test_cannonball_calls_changed_after_play_are_on_the_bids_history(
    client: FlaskClient, store: GameStore
) -> None:
    """They move points like a bid does; they used to change the score with no trace."""
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {"scoring": "rascal"})
    store.set_bids(gid, 1, [0, 1, 0], cannonball=[False, True, False])  # before play: the game
    store.record_trick(gid, 1, 0, plays((1, "green-3"), (2, "green-1"), (0, "green-2")))
    assert store.audit(gid) == []
    store.set_bid(gid, 1, 0, 0, cannonball=True)
    store.set_bids(gid, 1, [0, 1, 0], cannonball=[True, True, True])
    first, second = [c for c in store.audit(gid) if c.kind == "bid"]
    assert first.before == {"round": 1, "bids": [0, 1, 0], "cannonball": [False, True, False]}
    assert first.after == {"round": 1, "bids": [0, 1, 0], "cannonball": [True, True, False]}
    assert second.after["cannonball"] == [True, True, True]
    store.set_bids(gid, 1, [0, 1, 0])  # no calls sent: they stay, nothing changed
    assert len(store.audit(gid)) == 2
    page = client.get(f"/game/{gid}/tricks").get_data(as_text=True)
    listed = re.search(r'<ol class="audit" id="game-changes">(.*?)</ol>', page, re.S)
    assert listed is not None and "Ana Cannonball No → Yes" in " ".join(listed[1].split())


def test_a_choice_or_a_confirmation_sent_twice_is_written_once(store: GameStore) -> None:
    """A second tap of Save or Confirm wrote "+1 -> +1" and an empty "confirmed" row."""
    gid = harry_wins_round_2(store)
    store.choose_ability(gid, 2, 0, 1)
    store.choose_ability(gid, 2, 0, 1)
    assert [c.kind for c in store.audit(gid) if c.kind == "choice"] == ["choice"]
    store.record_trick(gid, 2, 1, plays((1, "black-3"), (2, "green-2"), (0, "green-1")))
    store.confirm_trick(gid, 2, 1)  # nothing in doubt: nothing to write
    assert [c.kind for c in store.audit(gid) if c.kind == "confirm"] == []


def rosie_then_bo_leads(store: GameStore) -> int:
    """Ana and Bo, abilities on: round 2's first trick won by Ana's Rosie, and the next led
    by Bo, as the camera records them (her question unanswered)."""
    gid = rosie_wins_round_2(store)
    store.record_trick(gid, 2, 1, BO_LEADS_AFTER_ROSIE)
    return gid


def test_the_trick_after_rosie_is_led_by_her_choice_while_her_question_is_open(
    store: GameStore,
) -> None:
    """Ana chose Bo, and Bo led: the TV warned "trick 2: Bo led, but by the rules Ana leads
    it" until the phones answered. Who led it is her choice, as the camera reads it; the
    question stays open to confirm it."""
    gid = rosie_then_bo_leads(store)
    score = store.score(gid)
    assert score["ok"] and "warnings" not in score["score"], score["score"].get("warnings")
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 1}]
    trick = store.trick(gid, 2, 0)
    assert [(c.kind, c.after, c.note) for c in store.audit(gid, trick.id)] == [
        ("choice", {"pirate": "pirate-rosie", "choice": 1}, "read from the lead: Bo led trick 2")
    ]
    (asked,) = store.prompts(gid)
    assert (asked.kind, asked.round, asked.trick) == ("rosie", 2, 0)
    store.answer_prompt(asked.id, 1)  # the table confirms: no second entry in the history
    assert len(store.audit(gid, trick.id)) == 1 and store.prompts(gid) == []


def test_a_choice_read_from_the_lead_comes_back_unconfirmed_when_its_drop_is_undone(
    store: GameStore,
) -> None:
    """Ana's Rosie corrected to a Green 1 and back: her choice, read from Bo's lead and never
    confirmed, came back as settled with no question left, as if the table had answered.
    It comes back as read, her question open again to confirm it."""
    gid = rosie_then_bo_leads(store)
    store.correct_play(gid, 2, 0, 0, card="green-1")
    assert store.abilities(gid, 2) == [] and store.prompts(gid) == []
    trick = store.correct_play(gid, 2, 0, 0, card="pirate-rosie")
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 1}]
    (asked,) = store.prompts(gid)
    assert (asked.kind, asked.round, asked.trick) == ("rosie", 2, 0)
    last = [c for c in store.audit(gid, trick.id) if c.kind == "choice"][-1]
    assert last.note == "read from the lead: Bo led trick 2"


def rosie_then_a_free_place(store: GameStore) -> int:
    """Ana and Bo, abilities on: Bo's Rosie won round 3's first trick, its second place is
    free (the store refused that trick while the camera went on), and the camera recorded
    the third, led by Ana. Rosie's question is open: nothing is read from trick 3."""
    gid = store.create_game(["Ana", "Bo"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((0, "black-13"), (1, "green-10")))
    store.set_bids(gid, 2, [1, 1])
    store.record_trick(gid, 2, 0, plays((0, "purple-7"), (1, "yellow-1")))
    store.record_trick(gid, 2, 1, plays((0, "green-3"), (1, "black-4")))
    store.set_bids(gid, 3, [1, 1])
    store.record_trick(gid, 3, 0, plays((1, "pirate-rosie"), (0, "purple-1")))
    store.record_trick(gid, 3, 2, plays((0, "green-6"), (1, "green-9")))
    assert store.abilities(gid, 3) == []
    return gid


def test_rosies_choice_is_not_read_across_the_free_place_after_her_trick(
    store: GameStore,
) -> None:
    """A trick inserted in round 2 moved Rosie's into the free place, and her choice was read
    from Ana's lead of the trick now after it. Taken back, Rosie's trick is back before the
    free place, and her choice stayed: read from trick 3, two tricks on, as if the trick
    missed right after hers had been led by Ana. Only the trick right after Rosie's is read:
    with its place free, the read choice goes (in her trick's history) and her question
    stays open, the hand-entry form waiting for it."""
    gid = rosie_then_a_free_place(store)
    store.insert_trick(gid, 2, 0, hand((0, "yellow-2"), (1, "yellow-11")))
    assert store.abilities(gid, 3) == [{"trick": 1, "pirate": "pirate-rosie", "choice": 0}]
    store.remove_hand_trick(gid, 2, 0)
    assert [t.trick for t in store.tricks(gid, 3)] == [0, 2]
    assert store.abilities(gid, 3) == []
    (asked,) = [p for p in store.prompts(gid) if p.kind == "rosie"]
    assert (asked.round, asked.trick, asked.player) == (3, 0, 1)
    rosie = store.trick(gid, 3, 0)
    dropped = store.audit(gid, rosie.id)[-1]
    assert (dropped.kind, dropped.after) == ("ability", None)
    assert dropped.before == {
        "trick": 0,
        "pirate": "pirate-rosie",
        "choice": 0,
        "player": 1,
        "read": True,
    }
    assert (
        dropped.note
        == "round 3 trick 2 is not recorded: pirate-rosie's choice is read from who leads it"
    )
    slot = store.next_trick(gid)
    assert slot is not None and (slot["round"], slot["trick"], slot["order"]) == (3, 1, [])
    assert slot["waits_for"] == "rosie"


def test_rosies_choice_read_from_a_trick_taken_back_goes_with_it(store: GameStore) -> None:
    """Abilities off, trick 2 entered by hand after Bo's Rosie, led by Bo; abilities turned
    on read her choice from that lead. Taking the entry back left its place free and the
    choice read from it standing."""
    gid = rosie_then_a_free_place(store)
    store.update_settings(gid, {"pirate_abilities": False})
    store.enter_trick(gid, 3, 1, hand((1, "yellow-5"), (0, "yellow-6")))
    store.update_settings(gid, {"pirate_abilities": True})
    assert store.abilities(gid, 3) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 1}]
    store.remove_hand_trick(gid, 3, 1)
    assert store.abilities(gid, 3) == []
    assert [(p.kind, p.round, p.trick) for p in store.prompts(gid)] == [("rosie", 3, 0)]


def test_a_correction_that_makes_rosie_win_reads_her_choice_from_the_next_lead(
    store: GameStore,
) -> None:
    """The camera read Ana's Rosie as a Green 12, so Bo's lead of trick 2 was flagged as out
    of turn. Corrected to Rosie, her choice is asked and read from who led meanwhile: Bo,
    and the flag goes. Once the table answered, its choice stands: another correction of
    the trick after hers leaves it, and a trick led otherwise is warned about."""
    gid = store.create_game(["Ana", "Bo"], 0, {"pirate_abilities": True})
    store.set_bids(gid, 1, [0, 1])
    store.record_trick(gid, 1, 0, plays((1, "green-9"), (0, "green-3")))
    store.set_bids(gid, 2, [1, 1])
    store.record_trick(gid, 2, 0, plays((0, "green-12"), (1, "green-7")))
    doubt = "Bo led, but the game expected Ana to lead"
    store.record_trick(gid, 2, 1, plays((1, "black-3"), (0, "green-2")), flags=[doubt])
    store.correct_play(gid, 2, 0, 0, card="pirate-rosie")
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 1}]
    assert store.trick(gid, 2, 1).flags == []
    assert "warnings" not in store.score(gid)["score"]
    (asked,) = store.prompts(gid)
    assert (asked.kind, asked.round, asked.trick) == ("rosie", 2, 0)
    store.answer_prompt(asked.id, 0)  # the table says: Ana chose herself
    store.correct_play(gid, 2, 1, 1, card="green-5")  # Ana's Green 2 was a 5
    assert store.abilities(gid, 2) == [{"trick": 0, "pirate": "pirate-rosie", "choice": 0}]
    assert store.score(gid)["score"]["warnings"] == [
        "round 2: trick 2: Bo led, but by the rules Ana leads it; scored as played"
    ]


#: A choice the trick's pirate does not take, said in each language (refusal_i18n): Rascal's
#: 10 sent for Harry, then for Rosie.
_OTHER_PIRATES_CHOICE = {
    "en": ("Harry changes the bid by -1, 0 or +1, not 10", "player must be a number 0..2"),
    "es": (
        "Harry cambia la apuesta en −1, 0 o +1, no 10",
        "el jugador debe ser un número de 0 a 2",
    ),
    "it": ("Harry cambia la puntata di −1, 0 o +1, non 10", "il giocatore deve essere un numero"),
    "da": ("Harry ændrer buddet med −1, 0 eller +1, ikke 10", "spilleren skal være et tal fra 0"),
}


@pytest.mark.parametrize("lang", sorted(_OTHER_PIRATES_CHOICE))
def test_a_choice_from_a_page_another_phone_corrected_is_refused_in_its_language(
    client: FlaskClient, store: GameStore, lang: str
) -> None:
    """A replay page showing Rascal's bets, left open while another phone corrected the card
    to Harry (or Rosie), sends Rascal's 10: refused in English whatever the page's language."""
    gid = harry_wins_round_2(store)
    store.correct_play(gid, 2, 0, 2, card="pirate-rascal")
    page = client.get(f"/game/{gid}/round/2/trick/0?lang={lang}").get_data(as_text=True)
    assert '<option value="10"' in page  # Rascal's bets, as this page offers them
    url = f"/api/game/{gid}/round/2/trick/0/ability?lang={lang}"
    for card, said in zip(
        ("pirate-harry", "pirate-rosie"), _OTHER_PIRATES_CHOICE[lang], strict=True
    ):
        store.correct_play(gid, 2, 0, 2, card=card)  # another phone, meanwhile
        res = client.post(url, json={"choice": 10})
        body = json_of(res)
        assert res.status_code == 400
        assert body.get("error_text", body["error"]).startswith(said), body
    english = _OTHER_PIRATES_CHOICE["en"][1]
    assert json_of(client.post(url, json={"choice": 10}))["error"].startswith(english)
    assert store.abilities(gid, 2) == []
