"""Round scoring and whole-game records: the seeds' worked examples, variants, bad records."""

from __future__ import annotations

import json
from typing import Any

import pytest
from repo_paths import REPO
from store_support import spec_example

from skullcam.rules import (
    GameRecord,
    GameRecordError,
    OutOfTurnError,
    RulesError,
    Settings,
    cards_dealt,
    dealer_of_round,
    first_leader,
    name_clash,
    parse_card,
    readable_names,
    resolve_trick,
    score_bid,
    score_game,
)

# (id, settings, bid, won, dealt, capture, points, bonus paid)
BID_ROWS = [
    ("round5-bid2-made-40", {}, 2, 2, 5, 0, 40, 0),
    ("round5-bid2-won4-minus20", {}, 2, 4, 5, 0, -20, 0),
    ("round5-zero-made-50", {}, 0, 0, 5, 0, 50, 0),
    ("round5-zero-missed-minus50", {}, 0, 1, 5, 0, -50, 0),
    ("round7-zero-made-70", {}, 0, 0, 7, 0, 70, 0),
    ("round9-zero-missed-by-2-minus90", {}, 0, 2, 9, 0, -90, 0),
    ("round10-zero-made-100", {}, 0, 0, 10, 0, 100, 0),
    ("bid3-made-60", {}, 3, 3, 3, 0, 60, 0),
    ("bid4-won2-minus20", {}, 4, 2, 6, 0, -20, 0),
    ("bid4-made-80", {}, 4, 4, 10, 0, 80, 0),
    ("eight-players-round10-capped-zero-80", {}, 0, 0, cards_dealt(10, 8), 0, 80, 0),
    ("bonus-paid-on-exact", {}, 2, 2, 5, 30, 70, 30),
    ("bonus-lost-on-miss", {}, 2, 3, 5, 30, -10, 0),
    ("keep-bonus-on-miss", {"keep_bonus_on_miss": True}, 2, 3, 5, 30, 20, 30),
    ("points-per-trick-30", {"points_per_trick": 30}, 2, 2, 5, 0, 60, 0),
    ("miss-penalty-5", {"miss_penalty_per_trick": 5}, 1, 4, 5, 0, -15, 0),
    ("miss-penalty-0", {"miss_penalty_per_trick": 0}, 1, 4, 5, 0, 0, 0),
    ("zero-points-20-per-card", {"zero_bid_points": 20}, 0, 0, 3, 0, 60, 0),
    ("zero-fixed-made", {"zero_bid_mode": "fixed"}, 0, 0, 9, 0, 10, 0),
    ("zero-fixed-missed", {"zero_bid_mode": "fixed", "zero_bid_points": 30}, 0, 3, 9, 0, -30, 0),
    ("no-bonus-scoring", {"scoring": "no_bonus"}, 2, 2, 5, 40, 40, 0),
    ("rascal-exact", {"scoring": "rascal"}, 3, 3, 10, 30, 130, 30),
    ("rascal-zero-exact", {"scoring": "rascal"}, 0, 0, 4, 0, 40, 0),
    ("rascal-off-by-one-half", {"scoring": "rascal"}, 3, 4, 10, 30, 65, 15),
    ("rascal-off-by-two-nothing", {"scoring": "rascal"}, 3, 5, 10, 30, 0, 0),
]

EXAMPLES = REPO / "datasets" / "examples"


@pytest.mark.parametrize(
    ("settings", "bid", "won", "dealt", "capture", "points", "paid"),
    [row[1:] for row in BID_ROWS],
    ids=[row[0] for row in BID_ROWS],
)
def test_score_bid(
    settings: dict[str, Any],
    bid: int,
    won: int,
    dealt: int,
    capture: int,
    points: int,
    paid: int,
) -> None:
    base, bonus, working = score_bid(bid, won, dealt, capture, Settings(**settings))
    assert (base + bonus, bonus) == (points, paid)
    assert working


@pytest.mark.parametrize(
    ("bid", "won", "points", "paid"), [(2, 2, 90, 15), (2, 3, 0, 0), (2, 1, 0, 0)]
)
def test_rascal_cannonball(bid: int, won: int, points: int, paid: int) -> None:
    base, bonus, _ = score_bid(bid, won, 5, 15, Settings(scoring="rascal"), cannonball=True)
    assert (base + bonus, bonus) == (points, paid)


def test_score_bid_refuses_impossible_counts() -> None:
    with pytest.raises(RulesError, match=r"0\.\.5"):
        score_bid(6, 0, 5)


@pytest.mark.parametrize(
    ("round_number", "players", "dealt"),
    [(1, 2, 1), (10, 2, 10), (10, 7, 10), (8, 8, 8), (9, 8, 8), (10, 8, 8), (5, 6, 5)],
)
def test_cards_dealt_is_capped_by_the_base_deck(
    round_number: int, players: int, dealt: int
) -> None:
    assert cards_dealt(round_number, players) == dealt


def test_seating() -> None:
    assert first_leader(0, 3) == 1
    assert first_leader(2, 3) == 0
    assert [dealer_of_round(1, r, 3) for r in (1, 2, 3, 4)] == [1, 2, 0, 1]
    for bad in ((1, 1), (1, 9), (0, 4)):
        with pytest.raises(RulesError):
            cards_dealt(*bad)
    with pytest.raises(RulesError, match=r"seat 0\.\.2"):
        first_leader(3, 3)


def build(
    players: list[str],
    rounds: list[tuple[list[int], list[str]]],
    settings: dict[str, Any] | None = None,
    first_dealer: int = 0,
    abilities: dict[int, list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """A record from bids and tricks written as card lists in play order; seats are derived."""
    n = len(players)
    rules = Settings.from_dict(settings or {})
    out = []
    for number, (bids, tricks) in enumerate(rounds, start=1):
        leader = first_leader(dealer_of_round(first_dealer, number, n), n)
        recorded = []
        choices = {a["trick"]: a for a in (abilities or {}).get(number, [])}
        for t, text in enumerate(tricks):
            ids = text.split()
            seats = [(leader + k) % n for k in range(n)]
            recorded.append(
                {"plays": [{"player": s, "card": c} for s, c in zip(seats, ids, strict=True)]}
            )
            result = resolve_trick([parse_card(c) for c in ids], rules)
            leader = seats[result.next_leader]
            if t in choices and choices[t]["pirate"] == "pirate-rosie":
                leader = choices[t]["choice"]
        rnd: dict[str, Any] = {"bids": bids, "tricks": recorded}
        if abilities and number in abilities:
            rnd["abilities"] = abilities[number]
        out.append(rnd)
    return {
        "format": "skullcam-game/1",
        "players": players,
        "settings": settings or {},
        "first_dealer": first_dealer,
        "rounds": out,
    }


SPEC_EXAMPLE = spec_example({"loot": True, "kraken_and_white_whale": True})


def test_interfaces_example_scores_exactly_as_documented() -> None:
    score = score_game(GameRecord.from_dict(SPEC_EXAMPLE))
    assert score.to_json() == {
        "rounds": [{"points": [-10, 10, 20], "tricks_won": [0, 0, 1], "bonus": [0, 0, 0]}],
        "totals": [-10, 10, 20],
        "leaders": [2],
    }


def test_bonuses_count_only_for_exact_bids() -> None:
    # Round 1, 2 players: Ben leads. Round 2: Ana leads.
    record = build(
        ["Ana", "Ben"],
        [
            ([1, 0], ["pirate-rosie skull-king"]),
            ([1, 1], ["green-14 green-2", "yellow-3 yellow-9"]),
        ],
    )
    score = score_game(GameRecord.from_dict(record))
    r1, r2 = score.rounds
    assert r1.tricks_won == (1, 0) and r1.points == (50, 10) and r1.bonus == (30, 0)
    assert r2.tricks_won == (1, 1) and r2.points == (30, 20) and r2.bonus == (10, 0)
    assert score.totals == (80, 30)
    missed = build(["Ana", "Ben"], [([0, 0], ["pirate-rosie skull-king"])])
    assert score_game(GameRecord.from_dict(missed)).rounds[0].points == (-10, 10)


@pytest.mark.parametrize(
    ("bids", "points", "bonus"),
    [([1, 0], (40, 30), (20, 20)), ([0, 0], (-10, 10), (0, 0)), ([1, 1], (20, -10), (0, 0))],
    ids=["both-exact-both-paid", "winner-missed-nobody-paid", "loot-player-missed"],
)
def test_loot_alliance_pays_both_only_if_both_bids_are_exact(
    bids: list[int], points: tuple[int, int], bonus: tuple[int, int]
) -> None:
    record = build(["Ana", "Ben"], [(bids, ["loot green-3"])], {"loot": True})
    rnd = score_game(GameRecord.from_dict(record)).rounds[0]
    assert rnd.tricks_won == (1, 0)
    assert (rnd.points, rnd.bonus) == (points, bonus)


def test_loot_with_setting_off_is_reported_not_silent() -> None:
    record = build(["Ana", "Ben"], [([1, 0], ["loot green-3"])])
    score = score_game(GameRecord.from_dict(record))
    assert any("'loot' setting is off" in w for w in score.warnings)
    assert score.to_json()["warnings"]


def test_kraken_trick_is_won_by_nobody() -> None:
    record = build(
        ["Ana", "Ben", "Cai"],
        [([0, 1, 0], ["green-5 kraken green-9"])],
        {"kraken_and_white_whale": True},
    )
    rnd = score_game(GameRecord.from_dict(record)).rounds[0]
    assert rnd.tricks_won == (0, 0, 0)
    assert rnd.points == (10, -10, 10)
    assert rnd.tricks[0].next_leader == 0  # Ana played green-9, she would have won


def test_changing_a_setting_recomputes_the_whole_game() -> None:
    record = GameRecord.from_dict(
        build(
            ["Ana", "Ben"],
            [
                ([1, 0], ["pirate-rosie skull-king"]),
                ([2, 0], ["green-9 green-2", "black-14 escape"]),
            ],
        )
    )
    standard = score_game(record)
    richer = score_game(
        record,
        Settings(points_per_trick=30, skull_king_captures_pirate=50, black_fourteen_bonus=40),
    )
    assert standard.totals == (20 + 30 + 40 + 20, 10 + 20)
    assert richer.totals == (30 + 50 + 60 + 40, 10 + 20)
    assert score_game(record.with_settings(Settings(scoring="no_bonus"))).totals == (60, 30)


def test_pirate_abilities_rosie_rascal_harry() -> None:
    abilities = {
        2: [
            {"trick": 0, "pirate": "pirate-rosie", "choice": 1},
            {"trick": 1, "pirate": "pirate-rascal", "choice": 20},
        ]
    }
    rounds = [
        ([0, 1], ["green-1 green-2"]),
        ([2, 0], ["pirate-rosie green-5", "yellow-3 pirate-rascal"]),
    ]
    record = build(["Ana", "Ben"], rounds, {"pirate_abilities": True}, abilities=abilities)
    r2 = score_game(GameRecord.from_dict(record)).rounds[1]
    assert r2.tricks[1].leader == 1  # Rosie chose Ben
    assert r2.points == (40 + 20, 20)  # the bet is in the points, not the bonus
    assert r2.bonus == (0, 0)
    lost = build(
        ["Ana", "Ben"],
        [*rounds[:1], ([1, 0], rounds[1][1])],
        {"pirate_abilities": True},
        abilities=abilities,
    )
    assert score_game(GameRecord.from_dict(lost)).rounds[1].points == (-10 - 20, 20)
    harry = build(
        ["Ana", "Ben"],
        [([0, 0], ["pirate-harry green-2"])],
        {"pirate_abilities": True},
        abilities={1: [{"trick": 0, "pirate": "pirate-harry", "choice": 1}]},
    )
    rnd = score_game(GameRecord.from_dict(harry)).rounds[0]
    assert rnd.bids == (0, 1) and rnd.points == (10, 20)


def test_abilities_with_the_setting_off_are_ignored_with_a_warning() -> None:
    record = build(
        ["Ana", "Ben"],
        [([1, 0], ["green-1 pirate-rascal"])],
        abilities={1: [{"trick": 0, "pirate": "pirate-rascal", "choice": 20}]},
    )
    score = score_game(GameRecord.from_dict(record))
    assert score.rounds[0].points == (20, 10)
    assert any("pirate_abilities" in w for w in score.warnings)


def test_rascal_scoring_with_cannonball_through_a_record() -> None:
    record = build(["Ana", "Ben"], [([1, 0], ["green-1 green-2"])], {"scoring": "rascal"})
    record["rounds"][0]["cannonball"] = [True, False]
    rnd = score_game(GameRecord.from_dict(record)).rounds[0]
    assert rnd.points == (15, 10)


def test_cannonball_calls_outside_rascals_scoring_warn_only_when_made() -> None:
    """A phone that ticked a cannonball and unticked it stores calls of all False: no call,
    so no "declarations are ignored" warning (it used to stay on the round for good)."""
    record = build(["Ana", "Ben"], [([1, 0], ["green-1 green-2"])])
    record["rounds"][0]["cannonball"] = [False, False]
    assert score_game(GameRecord.from_dict(record)).warnings == ()
    record["rounds"][0]["cannonball"] = [False, True]
    (warning,) = score_game(GameRecord.from_dict(record)).warnings
    assert "cannonball declarations are ignored" in warning


def test_proven_revoke_is_reported() -> None:
    # Round 2, 2 players: Ana leads green-5, Ben throws yellow-3, then Ben plays green-7.
    record = build(
        ["Ana", "Ben"],
        [([0, 1], ["green-1 green-2"]), ([1, 1], ["green-5 yellow-3", "yellow-9 green-7"])],
    )
    score = score_game(GameRecord.from_dict(record))
    assert len(score.revokes) == 1
    revoke = score.revokes[0]
    assert (revoke.round, revoke.trick, revoke.play, revoke.player) == (2, 0, 1, 1)
    assert str(revoke.card) == "yellow-3" and str(revoke.proof_card) == "green-7"
    assert "Ben played the yellow 3 when green was led" in revoke.explanation
    assert score.to_json()["revokes"][0]["proof_card"] == "green-7"


def test_off_suit_without_proof_is_not_a_revoke() -> None:
    record = build(
        ["Ana", "Ben"],
        [([0, 1], ["green-1 green-2"]), ([1, 1], ["green-5 yellow-3", "yellow-9 purple-7"])],
    )
    assert score_game(GameRecord.from_dict(record)).revokes == ()


def test_round_in_progress_scores_zero_until_it_ends() -> None:
    record = build(["Ana", "Ben"], [([1, 0], ["green-1 green-2"]), ([1, 1], ["green-5 green-3"])])
    score = score_game(GameRecord.from_dict(record))
    assert not score.rounds[1].complete
    assert score.rounds[1].points == (0, 0)
    assert score.to_json()["rounds"][1]["in_progress"] is True
    assert score.totals == (20, 10)


def test_a_one_card_round_in_progress_counts_its_trick_in_the_singular() -> None:
    """Round 1 deals one card: its line said "0 of 1 tricks played"."""
    one = score_game(GameRecord.from_dict(build(["Ana", "Ben"], [([1, 0], [])])))
    assert one.rounds[0].explanations == ("Round 1 in progress: 0 of 1 trick played.",)
    record = build(["Ana", "Ben"], [([1, 0], ["green-1 green-2"]), ([1, 1], [])])
    two = score_game(GameRecord.from_dict(record))
    assert two.rounds[1].explanations == ("Round 2 in progress: 0 of 2 tricks played.",)


def test_tie_shared_or_extra_round() -> None:
    tied = build(
        ["Ana", "Ben"], [([1, 0], ["green-1 green-2"])], {"rounds": 1, "zero_bid_points": 20}
    )
    shared = score_game(GameRecord.from_dict(tied))
    assert shared.leaders == (0, 1) and shared.finished
    extra = build(
        ["Ana", "Ben"],
        [([1, 0], ["green-1 green-2"]), ([1, 0], ["green-3 green-4"])],
        {"rounds": 1, "tie": "extra_round", "zero_bid_points": 20},
    )
    # Round 2 is the extra round, dealt like the last regular round (1 card).
    score = score_game(GameRecord.from_dict(extra))
    assert score.rounds[1].cards_dealt == 1
    assert score.finished and len(score.leaders) == 1
    still_tied = score_game(GameRecord.from_dict({**extra, "rounds": extra["rounds"][:1]}))
    assert not still_tied.finished
    assert (shared.rounds_due, still_tied.rounds_due, score.rounds_due) == (1, 2, 2)
    with pytest.raises(GameRecordError, match="round 2: the game has 1 round "):
        GameRecord.from_dict({**extra, "settings": {"rounds": 1}})


def test_record_round_trips_through_json() -> None:
    record = GameRecord.from_dict(SPEC_EXAMPLE)
    again = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record


@pytest.mark.parametrize("name", ["game.json", "rascal-game.json"])
def test_shipped_examples_score(name: str) -> None:
    data = json.loads((EXAMPLES / name).read_text())
    score = score_game(GameRecord.from_dict(data))
    assert len(score.rounds) == 10 and score.finished
    assert score.totals == tuple(map(sum, zip(*(r.points for r in score.rounds), strict=True)))
    assert score.revokes == ()


def _mutated(path: str, value: Any) -> dict[str, Any]:
    data = json.loads(
        json.dumps(
            build(
                ["Ana", "Ben", "Cai"],
                [
                    ([1, 0, 1], ["green-5 tigress:pirate escape"]),
                    ([1, 1, 0], ["yellow-2 yellow-5 escape", "green-3 green-4 escape"]),
                ],
            )
        )
    )
    target: Any = data
    keys = path.split("/")
    for key in keys[:-1]:
        target = target[int(key) if key.isdigit() else key]
    last = keys[-1]
    if value is _DELETE:
        del target[int(last) if last.isdigit() else last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return data


_DELETE = object()

# (id, path to change, new value, message)
BAD_RECORDS = [
    ("wrong-format", "format", "skullcam-game/2", "not a skullcam-game/1 record"),
    ("no-format", "format", _DELETE, "it has no 'format' (expected 'skullcam-game/1')"),
    ("one-player", "players", ["Ana"], "'players' must list 2 to 8"),
    ("unknown-setting", "settings", {"lot": True}, "settings: unknown setting 'lot'"),
    ("setting-out-of-range", "settings", {"points_per_trick": 90}, "must be 5..50"),
    ("dealer-out-of-range", "first_dealer", 3, "'first_dealer' must be a seat 0..2"),
    (
        "bid-out-of-range",
        "rounds/0/bids/2",
        2,
        "round 1: Cai's bid 2 is out of range: bids are 0..1",
    ),
    ("negative-bid", "rounds/1/bids/0", -1, "round 2: Ana's bid -1 is out of range"),
    ("bids-missing", "rounds/0/bids", _DELETE, "round 1: 'bids' must be 3 whole numbers"),
    (
        "unknown-card",
        "rounds/1/tricks/1/plays/2/card",
        "green-15",
        "round 2, trick 2, play 3 (Cai): unknown card 'green-15'",
    ),
    (
        "card-played-twice-in-round",
        "rounds/1/tricks/1/plays/0/card",
        "yellow-5",
        "round 2, trick 2, play 1 (Ana): yellow-5 was already played this round, in trick 1 by",
    ),
    (
        "out-of-turn",
        "rounds/1/tricks/1/plays/0/player",
        2,
        "round 2, trick 2, play 1: Cai played out of turn; it was Ana's turn (Ana leads",
    ),
    (
        "missing-play",
        "rounds/1/tricks/1/plays/2",
        _DELETE,
        "round 2, trick 2: 2 plays, expected one per player (3)",
    ),
    (
        "settings-a-list",
        "settings",
        [],
        "'settings' must be a JSON object of setting names and values, got a list",
    ),
    (
        "undeclared-tigress",
        "rounds/0/tricks/0/plays/1/card",
        "tigress",
        "round 1, trick 1, play 2 (Cai): the Tigress must be declared",
    ),
    (
        "too-many-tricks",
        "rounds/0/tricks",
        [{"plays": []}, {"plays": []}],
        "round 1: 2 tricks recorded but only 1",
    ),
    ("unfinished-middle-round", "rounds/0/tricks", [], "round 1: only 0 of 1 trick recorded"),
    (
        "player-not-a-seat",
        "rounds/0/tricks/0/plays/0/player",
        7,
        "round 1, trick 1, play 1: 'player' must be a seat 0..2",
    ),
    ("unknown-key", "rounds/0/bid", [1], "round 1: unknown key 'bid'"),
    (
        "bad-ability",
        "rounds/0/abilities",
        [{"trick": 0, "pirate": "pirate-rascal", "choice": 15}],
        "Rascal of Roatan bets 0, 10 or 20",
    ),
    ("rounds-not-a-list", "rounds", {}, "'rounds' must be a list"),
]


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [row[1:] for row in BAD_RECORDS],
    ids=[row[0] for row in BAD_RECORDS],
)
def test_bad_records_are_refused_naming_round_trick_play(
    path: str, value: Any, message: str
) -> None:
    with pytest.raises(GameRecordError) as info:
        GameRecord.from_dict(_mutated(path, value))
    assert message in str(info.value)


def _disputed_round() -> dict[str, Any]:
    """Round 2 as the table played it: Ana took trick 1 and led trick 2. The dispute settles
    that Ben's card was the Tigress played as a pirate, so Ben won trick 1 and, by the rules,
    should have led trick 2, which was already played."""
    record = build(
        ["Ana", "Ben", "Cai"],
        [
            ([1, 0, 0], ["green-1 green-2 green-3"]),
            ([0, 2, 0], ["green-5 green-9 green-2", "yellow-3 yellow-7 yellow-1"]),
        ],
    )
    assert [p["player"] for p in record["rounds"][1]["tricks"][1]["plays"]] == [0, 1, 2]
    record["rounds"][1]["tricks"][0]["plays"][2]["card"] = "tigress:pirate"
    return record


def test_a_trick_led_out_of_turn_is_refused_unless_scored_as_played() -> None:
    record = _disputed_round()
    with pytest.raises(OutOfTurnError, match="round 2, trick 2, play 1: Ana played out of turn"):
        GameRecord.from_dict(record)
    score = score_game(GameRecord.from_dict(record, as_played=True), as_played=True)
    assert score.rounds[1].tricks_won == (0, 2, 0)
    assert score.rounds[1].points == (20, 40, 20)
    assert score.rounds[1].tricks[1].leader == 0
    assert score.warnings == (
        "round 2: trick 2: Ana led, but by the rules Ben leads it; scored as played",
    )


def test_scoring_as_played_still_refuses_a_trick_that_is_not_clockwise() -> None:
    record = _disputed_round()
    plays = record["rounds"][1]["tricks"][1]["plays"]
    plays[1]["player"], plays[2]["player"] = 2, 1  # Ana, Cai, Ben: nobody's clockwise order
    with pytest.raises(GameRecordError, match="round 2, trick 2, play 1: Ana played out of turn"):
        GameRecord.from_dict(record, as_played=True)


def test_ability_must_match_the_trick_winner() -> None:
    record = build(["Ana", "Ben"], [([0, 1], ["green-1 pirate-bendt"])], {"pirate_abilities": True})
    record["rounds"][0]["abilities"] = [{"trick": 0, "pirate": "pirate-rosie", "choice": 0}]
    with pytest.raises(GameRecordError, match="round 1, trick 1: an ability of pirate-rosie"):
        GameRecord.from_dict(record)


def test_not_an_object_is_refused() -> None:
    with pytest.raises(GameRecordError, match="a game record is a JSON object, got a list"):
        GameRecord.from_dict([])


def test_bendt_draw_voids_a_later_proof_of_revoke() -> None:
    # Round 4: Ben revokes green in trick 1, wins trick 2 with Bendt (draws 2), then shows green.
    rounds = [
        ([1, 0], ["green-1 green-2"]),
        ([1, 1], ["green-3 green-4", "green-5 green-6"]),
        ([2, 1], ["purple-1 purple-2", "purple-3 purple-4", "purple-5 purple-6"]),
        (
            [2, 2],
            ["green-8 yellow-9", "yellow-3 pirate-bendt", "green-11 green-10", "escape black-1"],
        ),
    ]
    plain = score_game(GameRecord.from_dict(build(["Ana", "Ben"], rounds)))
    assert [(r.round, r.trick, r.player) for r in plain.revokes] == [(4, 0, 1)]
    with_bendt = score_game(
        GameRecord.from_dict(build(["Ana", "Ben"], rounds, {"pirate_abilities": True}))
    )
    assert with_bendt.revokes == ()


def test_abilities_appear_in_the_round_explanation() -> None:
    record = build(
        ["Ana", "Ben"],
        [([1, 0], ["green-1 pirate-rascal"])],
        {"pirate_abilities": True},
        abilities={1: [{"trick": 0, "pirate": "pirate-rascal", "choice": 10}]},
    )
    lines = score_game(GameRecord.from_dict(record)).rounds[0].explanations
    assert lines[0] == "Trick 1: Ana bets 10 with Rascal of Roatan."
    assert "Rascal of Roatan bet +10" in lines[1]


def test_an_out_of_turn_play_is_a_game_record_error_of_its_own_kind() -> None:
    # Its own kind, so a caller can tell the one rule a table may knowingly break.
    record = _disputed_round()
    with pytest.raises(GameRecordError) as caught:
        GameRecord.from_dict(record)
    assert isinstance(caught.value, OutOfTurnError)
    record["rounds"][1]["tricks"][1]["plays"][0]["card"] = "green-99"
    with pytest.raises(RulesError) as other:
        GameRecord.from_dict(record)
    assert not isinstance(other.value, OutOfTurnError)


def test_a_sixth_escape_in_a_round_is_one_more_than_the_deck_holds() -> None:
    """Escapes (5) and loot (2) come more than once a round; the sixth escape is not "a card
    played twice" but one more than the deck has."""

    def trick(cards: list[str], seats: tuple[int, ...] = (2, 0, 1)) -> dict[str, Any]:
        return {"plays": [{"player": p, "card": c} for p, c in zip(seats, cards, strict=True)]}

    first = {"bids": [0, 0, 0], "tricks": [trick(["green-1", "green-2", "green-3"], (1, 2, 0))]}
    tricks = [trick(["escape"] * 3), trick(["escape"] * 3)]
    second = {"bids": [0, 0, 0], "tricks": tricks}
    game = {
        "format": "skullcam-game/1",
        "players": ["Ana", "Ben", "Cai"],
        "rounds": [first, second],
    }
    with pytest.raises(GameRecordError) as info:  # from_dict scores the record it reads
        GameRecord.from_dict(game)
    assert str(info.value) == (
        "round 2, trick 2, play 3 (Ben): escape: one more than the deck holds this round (it has 5)"
    )
    # Five escapes in the round are fine.
    tricks[1] = trick(["escape", "escape", "green-9"])
    assert score_game(GameRecord.from_dict(game)).totals


@pytest.mark.parametrize(
    ("players", "clash"),
    [(["Ana", "Ana", "Cai"], "'Ana' appears twice"), (["Ana", "Ben", "ana "], "'Ana' and 'ana '")],
)
def test_a_record_whose_players_share_a_name_is_refused(players: list[str], clash: str) -> None:
    """ "Ana leads with 20" must say which Ana: the web and --names refuse such tables too."""
    with pytest.raises(GameRecordError, match=f"'players' must differ: {clash}"):
        GameRecord.from_dict({"format": "skullcam-game/1", "players": players, "rounds": []})


@pytest.mark.parametrize(
    "names",
    [
        ["Be\u0301n", "B\u00e9n"],  # the accent typed as a combining mark, and precomposed
        ["Ben", "Ben\u200b"],  # a zero-width space
        ["Ben", "\uff22\uff45\uff4e"],  # full-width letters
    ],
)
def test_names_a_reader_cannot_tell_apart_clash(names: list[str]) -> None:
    assert name_clash(names) == (names[0], names[1])


def test_names_that_differ_do_not_clash() -> None:
    assert name_clash(["Ana", "Anna", "Åna", "\U0001f468\u200d\U0001f469", "\U0001f468"]) is None


@pytest.mark.parametrize(
    ("stored", "read"),
    [
        # Names stored today read as they are.
        (["Ana", "Zoë", "\u2764\ufe0f", "\u0645\u06cc\u200c\u0646\u0627"], None),
        # An older skullcam's: the invisible characters go, NFC composes.
        (["Ana\u200b", "Be\u0301n", "\u00adCai"], ["Ana", "B\u00e9n", "Cai"]),
        # Two names the table reads as one: the later seat is numbered, past a name taken.
        (["Ana", "Ana\ufe0f", "Ana 2", "ana\u200b"], ["Ana", "Ana 3", "Ana 2", "ana 4"]),
        # Nothing visible left (U+FFF0, unassigned, passed the old check): kept as stored.
        (["\ufff0", "Ben"], None),
    ],
)
def test_stored_names_read_as_the_table_reads_them(
    stored: list[str], read: list[str] | None
) -> None:
    names = readable_names(stored)
    assert names == (stored if read is None else read)
    assert name_clash(names) is None


@pytest.mark.parametrize(
    ("tricks", "message"),
    [
        (
            ["yellow-5 green-2", "yellow-5 green-3"],
            "round 2, trick 2, play 1 (Ana): yellow-5 was already played this round, in trick 1"
            " by Ana",
        ),
        (
            ["tigress:pirate green-2", "tigress:escape green-3"],
            "round 2, trick 2, play 1 (Ana): tigress was already played this round, in trick 1"
            " by Ana",
        ),
        # A group overflows at a face not played before: the message names the group, not
        # the refused play as where the face was played first.
        (
            ["mermaid mermaid-alyra", "mermaid-sirena green-2"],
            "round 2, trick 2, play 1 (Ana): mermaid: one more than the deck holds this round"
            " (it has 2)",
        ),
        (
            ["pirate pirate-rosie", "pirate-bendt pirate-rascal", "pirate-juanita pirate-harry"],
            "round 3, trick 3, play 2 (Ana): pirate: one more than the deck holds this round"
            " (it has 5)",
        ),
    ],
)
def test_a_card_more_than_the_deck_holds_says_where_it_was_played_first(
    tricks: list[str], message: str
) -> None:
    rounds = [
        ([0, 0], [f"black-{i + 1} black-{i + 8}" for i in range(r)]) for r in range(1, len(tricks))
    ]
    record = build(["Ana", "Ben"], [*rounds, ([0, 0], tricks)])
    with pytest.raises(GameRecordError) as refused:
        score_game(GameRecord.from_dict(record))
    assert str(refused.value).startswith(message)
