"""Trick resolution: one table row per rule of shared/spec/rules.md, each edge case named."""

from __future__ import annotations

import itertools

import pytest

from skullcam.rules import (
    Card,
    IllegalPlayError,
    Settings,
    Suit,
    TrickResult,
    WinReason,
    follow_suit,
    legal_plays,
    parse_card,
    resolve_trick,
)
from skullcam.rules import cards as deck

EXPANSION = Settings(loot=True, kraken_and_white_whale=True)


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


def resolve(text: str, settings: Settings = EXPANSION) -> TrickResult:
    return resolve_trick(cards(text), settings)


# (id, trick, winner, reason, bonus, next_leader, lead suit)
ROWS = [
    # Rule 6: numbers, trump, suit led.
    ("suit-led-highest", "green-3 green-9 green-5", 1, WinReason.SUIT_LED, 0, 1, "green"),
    ("off-suit-never-wins", "green-3 yellow-13 purple-12", 0, WinReason.SUIT_LED, 0, 0, "green"),
    ("off-suit-14-pays-the-winner", "green-3 yellow-14", 0, WinReason.SUIT_LED, 10, 0, "green"),
    ("trump-beats-suit-led", "green-14 black-1", 1, WinReason.TRUMP, 10, 1, "green"),
    ("highest-trump-wins", "black-3 green-5 black-9", 2, WinReason.TRUMP, 0, 2, "black"),
    ("black-14-bonus", "black-14 black-2", 0, WinReason.TRUMP, 20, 0, "black"),
    ("all-four-14s", "green-14 yellow-14 purple-14 black-14", 3, WinReason.TRUMP, 50, 3, "green"),
    # Following suit: escapes pass the lead on.
    (
        "escape-led-next-number-sets-suit",
        "escape yellow-4 green-12",
        1,
        WinReason.SUIT_LED,
        0,
        1,
        "yellow",
    ),
    (
        "tigress-escape-led",
        "tigress:escape purple-2 purple-8",
        2,
        WinReason.SUIT_LED,
        0,
        2,
        "purple",
    ),
    ("loot-led-sets-no-suit", "loot green-2 green-1", 1, WinReason.SUIT_LED, 0, 1, "green"),
    ("two-escapes-then-number", "escape escape black-1", 2, WinReason.TRUMP, 0, 2, "black"),
    # Rule 7: only escapes.
    ("only-escapes-first-wins", "escape escape escape", 0, WinReason.ONLY_ESCAPES, 0, 0, None),
    (
        "tigress-escape-first-of-escapes",
        "tigress:escape escape",
        0,
        WinReason.ONLY_ESCAPES,
        0,
        0,
        None,
    ),
    ("loot-first-of-escapes", "loot escape tigress:escape", 0, WinReason.ONLY_ESCAPES, 0, 0, None),
    # Rule 1: pirates.
    ("pirate-beats-numbers", "green-14 pirate-bendt black-14", 1, WinReason.PIRATE, 30, 1, "green"),
    ("pirate-captures-mermaid", "mermaid-alyra pirate-juanita", 1, WinReason.PIRATE, 20, 1, None),
    (
        "pirate-captures-two-mermaids",
        "mermaid-alyra mermaid-sirena pirate-rosie",
        2,
        WinReason.PIRATE,
        40,
        2,
        None,
    ),
    ("first-pirate-wins", "pirate-harry pirate-rosie", 0, WinReason.PIRATE, 0, 0, None),
    (
        "pirate-before-tigress",
        "green-2 pirate-rosie tigress:pirate",
        1,
        WinReason.PIRATE,
        0,
        1,
        "green",
    ),
    ("tigress-before-pirate", "tigress:pirate pirate-rosie", 0, WinReason.PIRATE, 0, 0, None),
    (
        "tigress-pirate-captures-mermaid",
        "mermaid-sirena tigress:pirate",
        1,
        WinReason.PIRATE,
        20,
        1,
        None,
    ),
    (
        "tigress-escape-loses-to-number",
        "green-2 tigress:escape",
        0,
        WinReason.SUIT_LED,
        0,
        0,
        "green",
    ),
    ("generic-pirate", "black-13 pirate", 1, WinReason.PIRATE, 0, 1, "black"),
    # Rule 2: Skull King.
    ("skull-king-beats-numbers", "black-14 skull-king", 1, WinReason.SKULL_KING, 20, 1, "black"),
    (
        "skull-king-captures-pirates",
        "pirate-rosie skull-king pirate-bendt",
        1,
        WinReason.SKULL_KING,
        60,
        1,
        None,
    ),
    (
        "skull-king-captures-tigress-pirate",
        "tigress:pirate skull-king",
        1,
        WinReason.SKULL_KING,
        30,
        1,
        None,
    ),
    (
        "skull-king-no-bonus-for-tigress-escape",
        "tigress:escape skull-king",
        1,
        WinReason.SKULL_KING,
        0,
        1,
        None,
    ),
    # Rule 3: mermaids.
    (
        "mermaid-captures-skull-king",
        "skull-king mermaid-sirena",
        1,
        WinReason.MERMAID_CAPTURES_SKULL_KING,
        40,
        1,
        None,
    ),
    (
        "mermaid-led-captures-skull-king",
        "mermaid-alyra green-4 skull-king",
        0,
        WinReason.MERMAID_CAPTURES_SKULL_KING,
        40,
        0,
        None,
    ),
    ("mermaid-beats-numbers", "black-14 mermaid-alyra", 1, WinReason.MERMAID, 20, 1, "black"),
    ("first-mermaid-wins", "mermaid-sirena mermaid-alyra", 0, WinReason.MERMAID, 0, 0, None),
    # Rule 4: all three.
    (
        "triple-first-of-two-mermaids",
        "mermaid-sirena pirate-rosie skull-king mermaid-alyra",
        0,
        WinReason.MERMAID_OVER_ALL,
        40,
        0,
        None,
    ),
    (
        "triple-14s-still-count",
        "pirate-rosie skull-king mermaid-alyra green-14",
        2,
        WinReason.MERMAID_OVER_ALL,
        50,
        2,
        None,
    ),
    (
        "triple-with-tigress-pirate",
        "tigress:pirate skull-king mermaid-alyra",
        2,
        WinReason.MERMAID_OVER_ALL,
        40,
        2,
        None,
    ),
    (
        "tigress-escape-is-no-pirate",
        "tigress:escape mermaid-alyra skull-king",
        1,
        WinReason.MERMAID_CAPTURES_SKULL_KING,
        40,
        1,
        None,
    ),
    # Rule 8: Kraken.
    ("kraken-destroys", "green-9 kraken green-12", None, WinReason.KRAKEN, 0, 2, "green"),
    ("kraken-no-14-bonus", "green-14 kraken", None, WinReason.KRAKEN, 0, 0, "green"),
    ("kraken-led-rest-sets-suit", "kraken yellow-3 green-13", None, WinReason.KRAKEN, 0, 1, None),
    (
        "kraken-would-have-won-specials",
        "kraken pirate-rosie skull-king",
        None,
        WinReason.KRAKEN,
        0,
        2,
        None,
    ),
    ("kraken-with-escapes-first-wins", "escape kraken escape", None, WinReason.KRAKEN, 0, 0, None),
    ("kraken-loot-no-alliance", "loot kraken green-3", None, WinReason.KRAKEN, 0, 2, None),
    # Rule 9: White Whale.
    (
        "whale-highest-number-any-suit",
        "green-3 white-whale yellow-9 black-5",
        2,
        WinReason.WHITE_WHALE_HIGHEST,
        0,
        2,
        "green",
    ),
    (
        "whale-tie-first-played",
        "green-9 white-whale yellow-9",
        0,
        WinReason.WHITE_WHALE_HIGHEST,
        0,
        0,
        "green",
    ),
    (
        "whale-strips-skull-king",
        "skull-king white-whale green-2",
        2,
        WinReason.WHITE_WHALE_HIGHEST,
        0,
        2,
        None,
    ),
    (
        "whale-no-character-bonus",
        "skull-king pirate-rosie white-whale green-1",
        3,
        WinReason.WHITE_WHALE_HIGHEST,
        0,
        3,
        None,
    ),
    (
        "whale-14s-count",
        "green-14 white-whale green-2",
        0,
        WinReason.WHITE_WHALE_HIGHEST,
        10,
        0,
        "green",
    ),
    (
        "whale-only-specials-discarded",
        "pirate-rosie white-whale mermaid-alyra",
        None,
        WinReason.WHITE_WHALE_DISCARDED,
        0,
        1,
        None,
    ),
    (
        "whale-led-only-escapes-discarded",
        "white-whale escape",
        None,
        WinReason.WHITE_WHALE_DISCARDED,
        0,
        0,
        None,
    ),
    # Rule 10: both.
    (
        "kraken-then-whale-whale-acts",
        "kraken white-whale green-3 yellow-9",
        3,
        WinReason.WHITE_WHALE_HIGHEST,
        0,
        3,
        None,
    ),
    (
        "whale-then-kraken-destroyed",
        "white-whale kraken green-3 yellow-9",
        None,
        WinReason.KRAKEN,
        0,
        2,
        None,
    ),
    ("whale-then-kraken-nothing-else", "white-whale kraken", None, WinReason.KRAKEN, 0, 0, None),
    # Without either, only the escape is left, and a trick of escapes goes to its first card:
    # the escape's player leads next, not the Whale's (rule 10).
    ("whale-then-kraken-escape", "white-whale escape kraken", None, WinReason.KRAKEN, 0, 1, None),
    (
        "whale-loot-escape-kraken",
        "white-whale loot escape kraken",
        None,
        WinReason.KRAKEN,
        0,
        1,
        None,
    ),
    (
        "whale-then-kraken-specials-decide",
        "white-whale kraken green-3 pirate-rosie",
        None,
        WinReason.KRAKEN,
        0,
        3,
        None,
    ),
]


@pytest.mark.parametrize(
    ("trick", "winner", "reason", "bonus", "next_leader", "lead"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_rules_table(
    trick: str,
    winner: int | None,
    reason: WinReason,
    bonus: int,
    next_leader: int,
    lead: str | None,
) -> None:
    result = resolve(trick)
    assert (result.winner, result.reason, result.bonus) == (winner, reason, bonus)
    assert result.next_leader == next_leader
    assert result.lead_suit == (None if lead is None else Suit(lead))
    played = cards(trick)
    assert result.winning_card == (None if winner is None else played[winner])
    assert result.explanation


@pytest.mark.parametrize(
    "order", list(itertools.permutations(["pirate-rosie", "skull-king", "mermaid-alyra"]))
)
def test_pirate_king_and_mermaid_the_mermaid_wins_whatever_the_order(order: tuple[str]) -> None:
    result = resolve(" ".join(order))
    assert result.winner == order.index("mermaid-alyra")
    assert result.bonus == 40
    assert "+40 for capturing the Skull King" in result.explanation
    assert result.explanation.endswith("No bonus for capturing the pirate.")


def test_two_pirates_beside_the_king_and_a_mermaid_do_not_count_in_the_plural() -> None:
    """It said "The pirate does not count." with two pirates beaten (a review, session 40)."""
    result = resolve("pirate-rosie mermaid-alyra skull-king tigress:pirate")
    assert result.winner == 1 and result.bonus == 40
    assert result.explanation.endswith("No bonus for capturing the pirates.")


def test_no_pirate_is_said_left_out_of_a_bonus_when_none_is_paid() -> None:
    """With the Skull King's capture worth 0 nothing is paid, and "The pirate does not count."
    read as if the pirate did not count in the trick (a review, session 51)."""
    settings = Settings(mermaid_captures_skull_king=0)
    result = resolve("pirate-rosie skull-king mermaid-alyra", settings)
    assert result.winner == 2 and result.bonus == 0
    assert "pirate" not in result.explanation.split("the mermaid wins.")[1]


@pytest.mark.parametrize(
    ("trick", "winner", "words"),
    [
        ("loot escape", 0, "only escapes and Loot were played"),
        ("escape loot tigress:escape", 0, "only escapes and Loot were played"),
        ("escape tigress:escape", 0, "only escapes were played"),
    ],
)
def test_a_trick_of_loot_and_escapes_is_said_to_be_one(trick: str, winner: int, words: str) -> None:
    """Rule 7: escapes, Tigress-as-escape and Loot set no suit; "only escapes were played"
    named none of the Loot on the table (a review, session 40)."""
    result = resolve(trick)
    assert result.winner == winner and words in result.explanation


@pytest.mark.parametrize(
    ("trick", "alliances"),
    [
        ("loot green-2 green-1", [(0, 1)]),
        ("green-2 loot green-5 loot", [(1, 2), (3, 2)]),
        ("loot escape", []),  # the Loot's own player won: no alliance
        ("escape loot", [(1, 0)]),
        ("loot white-whale green-2", [(0, 2)]),  # a Loot under the Whale still allies
        ("loot kraken green-3", []),  # a Kraken trick makes no alliance
        ("loot white-whale pirate-rosie", []),  # discarded trick
    ],
)
def test_loot_alliances(trick: str, alliances: list[tuple[int, int]]) -> None:
    result = resolve(trick)
    assert list(result.loot_alliances) == alliances
    assert result.to_json()["loot_alliances"] == [list(pair) for pair in alliances]


@pytest.mark.parametrize(
    ("trick", "next_leader"),
    [
        ("green-9 kraken green-12", 2),
        ("green-9 green-12 kraken", 0),
        ("kraken green-9", 1),
        ("white-whale kraken green-3 yellow-9", 2),
    ],
)
def test_kraken_left_of_kraken_setting(trick: str, next_leader: int) -> None:
    settings = Settings(kraken_and_white_whale=True, kraken_next_leader="left_of_kraken")
    result = resolve(trick, settings)
    assert result.winner is None
    assert result.next_leader == next_leader
    assert "left of the Kraken's player" in result.explanation


def test_house_rule_bonus_values_are_used() -> None:
    settings = Settings(
        mermaid_captures_skull_king=50,
        skull_king_captures_pirate=10,
        pirate_captures_mermaid=0,
        fourteen_bonus=5,
        black_fourteen_bonus=30,
    )
    assert resolve("skull-king mermaid-alyra", settings).bonus == 50
    assert resolve("pirate-rosie skull-king green-14", settings).bonus == 15
    assert resolve("mermaid-alyra pirate-rosie black-14", settings).bonus == 30
    assert "capturing" not in resolve("mermaid-alyra pirate-rosie", settings).explanation


def test_no_bonus_scoring_pays_no_capture_bonus() -> None:
    result = resolve("skull-king mermaid-alyra green-14", Settings(scoring="no_bonus"))
    assert result.winner == 1
    assert (result.bonus, result.bonus_for) == (0, ())
    assert "No capture bonus" in result.explanation


def test_the_result_says_what_its_bonus_is_for() -> None:
    """The TV's banner names it: a 14, whoever played it, and each capture."""
    result = resolve("mermaid-alyra skull-king black-14 green-14")
    assert [(p, str(c), captured) for p, c, captured in result.bonus_for] == [
        (20, "black-14", False),
        (10, "green-14", False),
        (40, "skull-king", True),
    ]
    assert result.bonus == 70


def test_no_bonus_scoring_promises_no_loot_alliance() -> None:
    """The scorer pays no alliance under no-bonus scoring, so the explanation names none."""
    result = resolve("loot green-14 pirate-rosie", Settings(scoring="no_bonus", loot=True))
    assert result.loot_alliances == ((0, 2),)  # formed, as the JSON says, but not paid
    assert "Loot alliance" not in result.explanation
    assert "No capture bonus under no-bonus scoring" in result.explanation


@pytest.mark.parametrize(
    ("settings", "condition"),
    [
        (Settings(), "(if the bid is exact)"),
        (Settings(keep_bonus_on_miss=True), "(paid whether the bid is exact or not)"),
        (Settings(scoring="rascal"), "half if it is off by one"),
    ],
)
def test_the_bonus_is_promised_as_the_scorer_pays_it(settings: Settings, condition: str) -> None:
    assert condition in resolve("skull-king pirate-rosie", settings).explanation


def test_two_mermaids_and_the_skull_king_say_which_mermaid_captures() -> None:
    text = resolve("mermaid-alyra mermaid-sirena skull-king").explanation
    assert "captures the Skull King" in text
    assert "among the mermaids the first played wins" in text


def test_a_kraken_beside_the_whale_alone_says_no_card_is_left() -> None:
    """The White Whale was played (it plays as an escape here): "no other card was played"
    was untrue."""
    text = resolve("white-whale kraken", EXPANSION).explanation
    assert "No other card is left that could have won it: play 0 leads again." in text


def test_explanations_read_at_the_table() -> None:
    text = resolve_trick(cards("pirate-rosie skull-king"), players=["Ana", "Ben"]).explanation
    assert text.startswith("The Skull King (Ben) wins")
    assert "+30 for capturing Rosie D' Laney" in text
    assert "Kraken destroys the trick" in resolve("kraken green-3").explanation
    whale = resolve("green-9 white-whale yellow-9").explanation
    assert "strips every special card" in whale and "first of the tied 9s" in whale
    both = resolve("kraken white-whale green-3").explanation
    assert "the one played second, the White Whale, takes effect" in both


def test_expansion_cards_resolve_with_their_setting_off_but_warn() -> None:
    off = resolve_trick(cards("loot kraken green-3"))
    assert off.winner is None
    assert len(off.warnings) == 2
    assert "'loot' setting is off" in off.warnings[0]
    assert "'kraken_and_white_whale' setting is off" in off.warnings[1]
    assert off.to_json()["warnings"] == list(off.warnings)
    assert resolve("loot kraken green-3").warnings == ()
    assert "warnings" not in resolve("loot kraken green-3").to_json()


def test_to_json_is_the_documented_object() -> None:
    assert resolve_trick(cards("pirate-rosie skull-king")).to_json() == {
        "winner": 1,
        "winning_card": "skull-king",
        "lead_suit": None,
        "next_leader": 1,
        "bonus": 30,
        "loot_alliances": [],
        "explanation": "The Skull King (play 1) wins: the Skull King beats every pirate and"
        " every numbered card. +30 for capturing Rosie D' Laney (if the bid is exact).",
    }
    assert resolve("tigress:pirate green-2").to_json()["winning_card"] == "tigress:pirate"
    assert resolve("escape yellow-2").to_json()["lead_suit"] == "yellow"


@pytest.mark.parametrize(
    ("trick", "message"),
    [
        ("green-3", "a trick has one card per player, 2 to 8, got 1"),
        (" ".join(f"green-{r}" for r in range(1, 10)), "got 9"),
        ("green-3 green-3", "play 1 (green-3): green-3 is already in this trick"),
        ("escape " * 6, "play 5 (escape): one escape too many"),
        ("tigress:pirate tigress:escape", "play 1 (tigress:escape): tigress is already"),
        ("green-3 tigress", "play 1: the Tigress must be declared"),
        ("mermaid-alyra mermaid mermaid", "one mermaid too many"),
        # A named card first seen after its group ran out: the group is what is short.
        (
            "pirate pirate-rosie pirate-bendt pirate-rascal pirate-juanita pirate-harry",
            "play 5 (pirate-harry): one pirate too many",
        ),
        ("mermaid mermaid-alyra mermaid-sirena", "play 2 (mermaid-sirena): one mermaid too many"),
        ("pirate-harry pirate-harry", "play 1 (pirate-harry): pirate-harry is already"),
    ],
)
def test_impossible_tricks_are_refused(trick: str, message: str) -> None:
    with pytest.raises(IllegalPlayError) as info:
        resolve(trick)
    assert message in str(info.value)


def test_a_face_the_deck_holds_several_of_is_counted_by_its_copies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A card added with two copies (here the Skull King): a third in a trick is one more than
    the deck holds, not "already in this trick (the deck has one)"."""
    monkeypatch.setitem(deck._COPIES, "skull-king", 2)
    with pytest.raises(IllegalPlayError) as info:
        resolve("skull-king skull-king skull-king")
    said = "play 2 (skull-king): skull-king: one more than the deck holds this round (it has 2)"
    assert said in str(info.value)


# (id, hand, trick so far, legal)
LEGAL = [
    ("must-follow", "green-3 yellow-5 escape", "green-9", "green-3 escape"),
    ("void-plays-anything", "yellow-5 black-2 escape", "green-9", "yellow-5 black-2 escape"),
    ("no-trump-while-holding-suit", "green-1 black-14", "green-9", "green-1"),
    ("trump-led-must-follow-black", "black-2 green-5 tigress", "black-9", "black-2 tigress"),
    (
        "specials-always-legal",
        "green-1 pirate-rosie skull-king loot kraken",
        "green-9",
        "green-1 pirate-rosie skull-king loot kraken",
    ),
    ("character-led-no-suit", "green-3 yellow-5", "pirate-rosie green-9", "green-3 yellow-5"),
    ("kraken-led-no-suit", "green-3 yellow-5", "kraken green-9", "green-3 yellow-5"),
    ("whale-led-no-suit", "green-3 yellow-5", "white-whale green-9", "green-3 yellow-5"),
    ("escape-led-no-suit-yet", "green-3 yellow-5", "escape", "green-3 yellow-5"),
    ("escape-then-number-sets-suit", "green-3 yellow-5", "escape yellow-2", "yellow-5"),
    ("loot-then-number-sets-suit", "green-3 yellow-5", "loot tigress:escape green-2", "green-3"),
    ("whale-mid-trick-keeps-obligation", "green-5 yellow-2", "green-3 white-whale", "green-5"),
    ("leading-anything", "green-5 yellow-2 mermaid-alyra", "", "green-5 yellow-2 mermaid-alyra"),
]


@pytest.mark.parametrize(
    ("hand", "trick", "legal"), [row[1:] for row in LEGAL], ids=[row[0] for row in LEGAL]
)
def test_legal_plays(hand: str, trick: str, legal: str) -> None:
    assert legal_plays(cards(hand), cards(trick)) == cards(legal)


def test_follow_suit_is_fixed_as_cards_land() -> None:
    assert follow_suit(cards("escape loot tigress:escape purple-3 green-9")) is Suit.PURPLE
    assert follow_suit(cards("escape mermaid-alyra green-9")) is None
    assert follow_suit([]) is None
