"""The referee files a trick that opens the next round there, after a trick the camera lost."""

from __future__ import annotations

from store_support import plays

from skullcam.device.recorder import referee_from_store
from skullcam.device.referee import Referee
from skullcam.rules import Settings
from skullcam.rules.table import led_unexpectedly
from skullcam.store import GameStore
from skullcam.vision.trick_state import PlayedCard, TrickObservation

LED_BY_CAI = led_unexpectedly("c", "b")
SWAPPED = "Ana's green-4 was swapped for green-2 after the trick completed"
"""A doubt on round 2's first trick: two tricks taken for one, the second's cards a swap."""


def seen(plays: list[tuple[int, str]], flags: tuple[str, ...] = ()) -> TrickObservation:
    """A whole trick as the camera hands it over: ``plays`` are (player, card) in play order."""
    cards = tuple(
        PlayedCard(k, card, card, 0.9, p, 0.1 * k, 1.0, (100.0 * p, 100.0), (0, 0, 9, 9), 0.0)
        for k, (p, card) in enumerate(plays)
    )
    players = tuple(p for p, _ in plays)
    return TrickObservation(cards, players, players[0], players, flags, (), 1.0, 1.2)


def in_round_two(doubt: tuple[str, ...] = (SWAPPED,)) -> Referee:
    """Three players, dealer Cai: round 1 is led by Ana, round 2 by Ben, round 3 by Cai. Round
    1 is played, and round 2's first trick (with ``doubt``), which Ben wins: he leads its
    second trick."""
    ref = Referee(["a", "b", "c"], first_dealer=2, settings=Settings(rounds=3))
    ref.add(seen([(0, "green-3"), (1, "green-5"), (2, "green-1")]))
    ref.add(seen([(1, "green-9"), (2, "green-2"), (0, "green-4")], doubt))
    assert (ref.round, ref.trick, ref.leader()) == (2, 1, 1)
    return ref


def test_a_trick_led_by_the_next_rounds_leader_out_of_turn_opens_that_round() -> None:
    """Round 2's second trick lost (taken for a swap on its first): Cai's lead is round 3's.
    Filed as round 2's last trick, it shifted every later trick of the game a place."""
    ref = in_round_two()
    outcome = ref.add(seen([(2, "purple-7"), (0, "purple-2"), (1, "purple-1")], (LED_BY_CAI,)))
    assert (outcome.round, outcome.trick) == (3, 0)
    assert outcome.winner == 2 and outcome.flags == ()  # Cai leads round 3, as the rules say
    lost = ref.rounds[1][1]
    assert lost.plays == () and lost.winner is None
    assert [len(r["tricks"]) for r in ref.record()["rounds"]] == [1, 2, 1]
    assert (ref.round, ref.trick, ref.leader()) == (3, 1, 2)


def test_a_trick_doubted_itself_led_by_the_next_rounds_leader_out_of_turn_opens_it() -> None:
    """Round 2's first trick undoubted, its second lost: Cai leads round 3's first trick out
    of turn, and the camera doubted that trick itself (swept before its cards lay all at
    once, frames lost around it). It opens round 3. Filed as round 2's last, it waited for
    round 3's second trick to move it (one frame in 6, 29 generated games: h11)."""
    swept = "the trick was swept away with 3 of 3 cards seen (never all at once)"
    ref = in_round_two(doubt=())
    outcome = ref.add(
        seen([(2, "purple-7"), (0, "purple-2"), (1, "purple-1")], (swept, LED_BY_CAI))
    )
    assert (outcome.round, outcome.trick, outcome.flags) == (3, 0, (swept,))
    assert ref.rounds[1][1].plays == ()


def test_a_card_dealt_again_with_the_next_rounds_leader_leading_opens_that_round() -> None:
    """Dealer Ben: Ben leads round 3, and having won round 2's first trick he leads its
    second too. His lead repeats a card of round 2, so the deck was dealt again: round 3."""
    ref = Referee(["a", "b", "c"], first_dealer=1, settings=Settings(rounds=3))
    ref.add(seen([(2, "green-3"), (0, "green-5"), (1, "green-1")]))
    ref.add(seen([(0, "green-9"), (1, "green-12"), (2, "green-4")], (SWAPPED,)))
    assert (ref.round, ref.trick, ref.leader()) == (2, 1, 1)
    outcome = ref.add(seen([(1, "green-9"), (2, "purple-2"), (0, "purple-1")]))
    assert (outcome.round, outcome.trick) == (3, 0)
    assert outcome.flags == ()


def test_a_trick_led_in_turn_or_by_another_player_stays_in_its_round() -> None:
    """Only the next round's leader opens it: Ben leading as expected, or Ana out of turn
    (a misread seat, say), is round 2's second trick, flagged as before."""
    in_turn = in_round_two().add(seen([(1, "purple-7"), (2, "purple-2"), (0, "purple-1")]))
    assert (in_turn.round, in_turn.trick) == (2, 1)
    flag = led_unexpectedly("a", "b")
    other = in_round_two().add(seen([(0, "purple-7"), (1, "purple-2"), (2, "purple-1")], (flag,)))
    assert (other.round, other.trick, other.flags) == (2, 1, (flag,))


def test_a_lead_out_of_turn_in_a_round_without_a_doubt_stays_in_its_round() -> None:
    """Cai leads round 2's second trick out of turn where the camera doubted nothing: the
    table played it so (round 3 would need a trick the camera lost)."""
    ref = in_round_two(doubt=("pirate-harry ability: ask the table (recorded as no change)",))
    outcome = ref.add(seen([(2, "purple-7"), (0, "purple-2"), (1, "purple-1")], (LED_BY_CAI,)))
    assert (outcome.round, outcome.trick, outcome.flags) == (2, 1, (LED_BY_CAI,))


def test_a_lead_out_of_turn_with_more_tricks_left_than_doubts_stays_in_its_round() -> None:
    """Round 3 of 4 deals three tricks. After its first, doubted, Ana (who leads round 4)
    leads its second out of turn: two of its tricks are still to play, more than the one
    doubt could have lost. The table led out of turn by chance; filed as round 4's first
    trick, it lost round 3's last two places, and every later trick went a round early."""
    ref = Referee(["a", "b", "c"], first_dealer=2, settings=Settings(rounds=4))
    ref.add(seen([(0, "green-3"), (1, "green-5"), (2, "green-1")]))
    ref.add(seen([(1, "green-9"), (2, "green-2"), (0, "green-4")]))
    ref.add(seen([(1, "yellow-9"), (2, "yellow-2"), (0, "yellow-4")]))
    ref.add(seen([(2, "purple-3"), (0, "purple-2"), (1, "purple-9")], (SWAPPED,)))
    assert (ref.round, ref.trick, ref.leader()) == (3, 1, 1)
    flag = led_unexpectedly("a", "b")
    outcome = ref.add(seen([(0, "yellow-7"), (1, "yellow-3"), (2, "yellow-1")], (flag,)))
    assert (outcome.round, outcome.trick, outcome.flags) == (3, 1, (flag,))


def test_a_card_swapped_on_the_last_trick_does_not_open_the_next_round() -> None:
    """An amendment is the same trick with a card swapped: it keeps its place, whoever led."""
    ref = in_round_two()
    amended = ref.amend_last(seen([(2, "green-9"), (0, "green-2"), (1, "green-4")], (LED_BY_CAI,)))
    assert (amended.round, amended.trick) == (2, 0)
    assert amended.flags == (LED_BY_CAI,)


def test_the_last_rounds_tricks_never_open_another() -> None:
    """After the last round there is none to open: Cai out of turn stays in round 2 of 2."""
    ref = Referee(["a", "b", "c"], first_dealer=2, settings=Settings(rounds=2))
    ref.add(seen([(0, "green-3"), (1, "green-5"), (2, "green-1")]))
    ref.add(seen([(1, "green-9"), (2, "green-2"), (0, "green-4")], (SWAPPED,)))
    outcome = ref.add(seen([(2, "purple-7"), (0, "purple-2"), (1, "purple-1")], (LED_BY_CAI,)))
    assert (outcome.round, outcome.trick) == (2, 1)


def test_a_referee_taken_up_from_the_store_keeps_the_rounds_doubt(store: GameStore) -> None:
    """The camera restarted after round 2's doubted first trick (or the table changed the
    game, which takes the camera's referee up from the store again): Cai's lead is round 3's,
    as it was before. Taken up without the tricks' flags, the referee knew of no doubt and
    filed it as round 2's last trick, every later trick of the game a place early."""
    gid = store.create_game(["a", "b", "c"], 2, {"rounds": 3})
    store.record_trick(gid, 1, 0, plays((0, "green-3"), (1, "green-5"), (2, "green-1")))
    first = plays((1, "green-9"), (2, "green-2"), (0, "green-4"))
    store.record_trick(gid, 2, 0, first, flags=[SWAPPED])
    ref = referee_from_store(store, gid)
    assert (ref.round, ref.trick, ref.leader()) == (2, 1, 1)
    outcome = ref.add(seen([(2, "purple-7"), (0, "purple-2"), (1, "purple-1")], (LED_BY_CAI,)))
    assert (outcome.round, outcome.trick) == (3, 0)


TAKEN_BACK = "taken back before the trick completed: green-1, green-6"
"""A doubt on round 2's last trick as filed: the cards of a trick swept before it completed."""


def round_three_first_filed_in_round_two(doubt: tuple[str, ...] = (TAKEN_BACK,)) -> Referee:
    """Three players, dealer Cai (round 3 is Cai's to lead). Round 2's first trick is won by
    Cai; its second, Cai's lead, is lost (swept between two frames). Round 3's first trick,
    which Cai leads and Ben wins, is filed in its place, with ``doubt``: Cai led it in turn,
    and no card of it was played in round 2, so it does not open round 3."""
    ref = Referee(["a", "b", "c"], first_dealer=2, settings=Settings(rounds=3))
    ref.add(seen([(0, "green-3"), (1, "green-5"), (2, "green-1")]))
    ref.add(seen([(1, "green-9"), (2, "green-12"), (0, "green-4")]))
    ref.add(seen([(2, "purple-7"), (0, "purple-2"), (1, "purple-9")], doubt))
    assert (ref.round, ref.trick, ref.leader()) == (3, 0, 2)
    return ref


def test_a_rounds_first_trick_led_by_the_last_tricks_winner_follows_a_lost_first() -> None:
    """Ben, who won round 2's last trick as filed, leads out of turn where round 3's first
    trick goes: that filed trick was round 3's first, so this is its second. Filed as the
    first, every trick of round 3 went a place early; now the filed trick moves to round 3's
    first place, led in turn there, and round 2's last place, the trick lost, is left to
    enter."""
    ref = round_three_first_filed_in_round_two()
    filed = ref.rounds[1][-1]
    flag = led_unexpectedly("b", "c")
    outcome = ref.add(seen([(1, "yellow-9"), (2, "yellow-2"), (0, "yellow-4")], (flag,)))
    assert (outcome.round, outcome.trick, outcome.refiled_before) == (3, 1, (2, 1))
    assert outcome.flags == ()  # led by the first trick's winner, as the rules say
    lost, first = ref.rounds[1][-1], ref.rounds[2][0]
    assert lost.plays == () and lost.winner is None
    assert (first.round, first.trick, first.plays) == (3, 0, filed.plays)
    assert first.winner == filed.winner == 1 and first.flags == (TAKEN_BACK,)
    assert [len(r["tricks"]) for r in ref.record()["rounds"]] == [1, 2, 2]
    assert (ref.round, ref.trick, ref.leader()) == (3, 2, 1)


def test_a_rounds_first_trick_out_of_turn_after_a_round_without_a_doubt_keeps_its_place() -> None:
    """The same plays, but the camera doubted nothing in round 2: the table led round 3 out
    of turn, and its first trick is this one."""
    ref = round_three_first_filed_in_round_two(doubt=())
    flag = led_unexpectedly("b", "c")
    outcome = ref.add(seen([(1, "yellow-9"), (2, "yellow-2"), (0, "yellow-4")], (flag,)))
    assert (outcome.round, outcome.trick, outcome.flags) == (3, 0, (flag,))


def test_a_rounds_first_trick_led_by_another_than_the_last_winner_keeps_its_place() -> None:
    """Ana leads round 3 out of turn after the doubted round 2, but Ben won its last trick:
    that trick and this one do not follow each other, so nothing says a trick was lost."""
    ref = round_three_first_filed_in_round_two()
    flag = led_unexpectedly("a", "c")
    outcome = ref.add(seen([(0, "yellow-9"), (1, "yellow-2"), (2, "yellow-4")], (flag,)))
    assert (outcome.round, outcome.trick, outcome.flags) == (3, 0, (flag,))


def test_a_rounds_empty_first_place_is_kept_by_a_referee_taken_up_from_the_store(
    store: GameStore,
) -> None:
    """The store holds round 3's second trick, its first place empty: a restarted camera's
    referee goes on after it, at round 3's third trick, led by its winner."""
    gid = store.create_game(["a", "b", "c"], 2, {"rounds": 3})
    store.record_trick(gid, 1, 0, plays((0, "green-3"), (1, "green-5"), (2, "green-1")))
    store.record_trick(gid, 2, 0, plays((1, "green-9"), (2, "green-12"), (0, "green-4")))
    store.record_trick(gid, 2, 1, plays((2, "purple-7"), (0, "purple-2"), (1, "purple-9")))
    store.record_trick(gid, 3, 1, plays((1, "yellow-9"), (2, "yellow-2"), (0, "yellow-4")))
    ref = referee_from_store(store, gid)
    assert (ref.round, ref.trick, ref.leader()) == (3, 2, 1)
