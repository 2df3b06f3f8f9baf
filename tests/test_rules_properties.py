"""Exhaustive and property tests: the engine never has two answers, or none, or crashes."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skullcam.rules import (
    CARD_IDS,
    Card,
    GameRecord,
    Kind,
    Settings,
    Suit,
    find_duplicate,
    legal_plays,
    parse_card,
    resolve_trick,
    score_game,
)
from skullcam.rules.settings import setting_fields
from skullcam.rules.simulate import random_game

EXPANSION = Settings(loot=True, kraken_and_white_whale=True)
PLAYABLE = [parse_card(i) for i in CARD_IDS if i != "tigress"]  # a played Tigress is declared
# One card of each behaviour for exhaustive triples: numbers differ only by suit and rank order.
REPRESENTATIVES = [
    parse_card(i)
    for i in [
        "green-2",
        "green-14",
        "yellow-9",
        "yellow-14",
        "black-1",
        "black-14",
        "escape",
        "pirate-rosie",
        "pirate-bendt",
        "tigress:pirate",
        "tigress:escape",
        "skull-king",
        "mermaid-alyra",
        "mermaid-sirena",
        "loot",
        "kraken",
        "white-whale",
    ]
]


def check_one_outcome(cards: list[Card], settings: Settings = EXPANSION) -> None:
    """Exactly one verdict: a winner among the plays or nobody, and a leader among the plays."""
    result = resolve_trick(cards, settings)
    if result.winner is None:
        assert result.winning_card is None and result.bonus == 0 and not result.loot_alliances
        assert any(c.kind in (Kind.KRAKEN, Kind.WHITE_WHALE) for c in cards)
    else:
        assert 0 <= result.winner < len(cards)
        assert result.winning_card == cards[result.winner]
        assert result.next_leader == result.winner
    assert 0 <= result.next_leader < len(cards)
    assert result.bonus >= 0
    assert result.explanation
    assert resolve_trick(list(cards), settings) == result  # deterministic


def test_every_pair_has_exactly_one_outcome() -> None:
    count = 0
    for a, b in itertools.product(PLAYABLE, repeat=2):
        if find_duplicate([a, b]) is None:
            check_one_outcome([a, b])
            count += 1
    assert count > 5000


def test_every_triple_of_representatives_has_exactly_one_outcome() -> None:
    for trick in itertools.product(REPRESENTATIVES, repeat=3):
        if find_duplicate(trick) is None:
            check_one_outcome(list(trick))


tricks = st.integers(2, 8).flatmap(
    lambda n: st.lists(st.sampled_from(PLAYABLE), min_size=n, max_size=n).filter(
        lambda cards: find_duplicate(cards) is None
    )
)


@settings(max_examples=150, deadline=None)
@given(tricks)
def test_random_tricks_have_exactly_one_outcome(cards: list[Card]) -> None:
    check_one_outcome(cards)


_SWAP = {Suit.GREEN: Suit.YELLOW, Suit.YELLOW: Suit.PURPLE, Suit.PURPLE: Suit.GREEN}


def _rotate_suits(card: Card) -> Card:
    if card.suit is None or card.suit is Suit.BLACK:
        return card
    return Card(Kind.NUMBER, _SWAP[card.suit], card.rank)


@settings(max_examples=100, deadline=None)
@given(tricks, st.permutations(["Ana", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal"]))
def test_resolution_depends_only_on_order_and_cards(cards: list[Card], names: list[str]) -> None:
    plain = resolve_trick(cards, EXPANSION)
    named = resolve_trick(cards, EXPANSION, names[: len(cards)])
    assert (named.winner, named.next_leader, named.bonus, named.loot_alliances) == (
        plain.winner,
        plain.next_leader,
        plain.bonus,
        plain.loot_alliances,
    )
    # The three plain suits are interchangeable: renaming them changes nobody's fate.
    rotated = resolve_trick([_rotate_suits(c) for c in cards], EXPANSION)
    assert (rotated.winner, rotated.next_leader, rotated.bonus) == (
        plain.winner,
        plain.next_leader,
        plain.bonus,
    )


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(PLAYABLE), min_size=1, max_size=10, unique=True), tricks)
def test_legal_plays_is_a_nonempty_subset_that_keeps_specials(
    hand: list[Card], trick: list[Card]
) -> None:
    legal = legal_plays(hand, trick[:-1])
    assert legal and all(card in hand for card in legal)
    assert all(card in legal for card in hand if card.is_special)


@pytest.mark.parametrize("text", CARD_IDS)
def test_parse_str_round_trip(text: str) -> None:
    assert parse_card(str(parse_card(text))) == parse_card(text)


def _values(kind: str, spec: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    if kind == "int":
        return st.integers(*spec)
    return st.sampled_from(spec) if kind == "choice" else st.booleans()


# Every setting over its whole range, drawn from the engine's own list: a new house rule is
# played through random games here without this test being edited.
SETTINGS = st.builds(Settings, **{key: _values(kind, spec) for key, kind, spec in setting_fields()})


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 8), SETTINGS)
def test_random_legal_games_score_without_crashing(seed: int, n: int, rules: Settings) -> None:
    players = [f"P{i}" for i in range(n)]
    record = random_game(random.Random(seed), players, rules, first_dealer=seed % n)
    score = score_game(record)
    # A game's score is the sum of its rounds.
    for seat in range(n):
        assert score.totals[seat] == sum(r.points[seat] for r in score.rounds)
    for rnd in score.rounds:
        destroyed = sum(1 for t in rnd.tricks if t.winner is None)
        assert sum(rnd.tricks_won) + destroyed == rnd.cards_dealt
    assert score.revokes == ()  # players who follow suit never revoke
    assert score.finished == (rules.tie == "shared" or len(score.leaders) == 1)
    # The record survives JSON and validates; a prefix of rounds scores as the prefix sum.
    again = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert score_game(again) == score
    k = len(record.rounds) // 2
    if k:
        prefix = score_game(
            GameRecord(record.players, record.rounds[:k], rules, record.first_dealer)
        )
        assert prefix.rounds == score.rounds[:k]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6))
def test_scores_change_with_settings_but_never_the_trick_winners(seed: int, n: int) -> None:
    record = random_game(random.Random(seed), [f"P{i}" for i in range(n)], Settings(rounds=5))
    base = score_game(record)
    other = score_game(record, Settings(rounds=5, points_per_trick=50, scoring="no_bonus"))
    assert [r.tricks_won for r in base.rounds] == [r.tricks_won for r in other.rounds]
    assert all(b == 0 for r in other.rounds for b in r.bonus)
