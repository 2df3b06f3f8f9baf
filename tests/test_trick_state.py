"""Trick state machine on scripted detections: play order, seats, completion, clearing, flags."""

from __future__ import annotations

import math

import numpy as np

from skullcam.device.scripted import card_detection
from skullcam.vision.seats import SeatLayout
from skullcam.vision.tracker import Tracker, _iou
from skullcam.vision.trick_state import (
    CardPlayed,
    CardTakenBack,
    MotionMeter,
    Phase,
    TableCleared,
    TrickAmended,
    TrickCompleted,
    TrickStateMachine,
)

FPS = 10.0
LAYOUT = SeatLayout.default(3)


def spot(seat: int, radius: float = 95.0) -> tuple[float, float]:
    a = LAYOUT.angles[seat]
    return (320 + radius * math.cos(a), 240 + radius * math.sin(a))


def det(card: str, seat: int, crosswise: bool = False, **kw):
    angle = LAYOUT.angles[seat] + (math.pi / 2 if crosswise else 0.0)
    return card_detection(card, spot(seat), angle=angle % math.pi, **kw)


class Bench:
    def __init__(
        self, leader: int = 0, seat_names: list[str] | None = None, fps: float = FPS
    ) -> None:
        self.tracker = Tracker()
        self.machine = TrickStateMachine(LAYOUT, leader=leader, seat_names=seat_names)
        self.t = 0.0
        self.fps = fps
        self.events: list = []

    def frames(self, dets: list, count: int = 1, motion: float | None = None) -> None:
        for _ in range(count):
            gone = self.tracker.update(dets, self.t)
            self.events.extend(self.machine.update(self.tracker, gone, self.t, motion))
            self.t += 1 / self.fps

    def completed(self) -> list:
        return [e.trick for e in self.events if isinstance(e, TrickCompleted)]


def test_three_cards_in_turn_complete_a_trick_then_table_clears() -> None:
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("black-2", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 3)
    assert b.completed() == []  # the last card has not settled yet
    b.frames([a, c, d], 6)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "black-2"]
    assert trick.players == (0, 1, 2)
    assert trick.flags == ()
    assert [e.index for e in b.events if isinstance(e, CardPlayed)] == [1, 2, 3]
    assert b.machine.phase is Phase.CLEARING
    b.frames([], 30)
    assert any(isinstance(e, TableCleared) for e in b.events)
    assert b.machine.phase is Phase.COLLECTING


def test_completion_waits_less_than_a_second_after_the_last_card_settles() -> None:
    b = Bench()
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    start = b.t
    b.frames([a, c, d], 15)
    (trick,) = b.completed()
    assert trick.completed_at - start < 1.0


def test_hand_hiding_earlier_cards_does_not_disturb_the_trick() -> None:
    b = Bench(leader=1)
    a, c, d = det("yellow-3", 1), det("yellow-7", 2), det("pirate-harry", 0)
    b.frames([a], 8)
    b.frames([c], 6)  # a hand over the first card while the second is laid
    b.frames([a, c], 4)
    b.frames([d], 5)  # and over both while the third is laid
    b.frames([a, c, d], 8)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["yellow-3", "yellow-7", "pirate-harry"]
    assert trick.players == (1, 2, 0)
    assert trick.flags == ()


def test_a_taken_back_card_leaves_the_trick_and_is_flagged() -> None:
    b = Bench(leader=0)
    a, wrong, right, d = det("green-5", 0), det("purple-4", 1), det("green-2", 1), det("kraken", 2)
    b.frames([a], 8)
    b.frames([a, wrong], 8)
    b.frames([a], 30)  # taken back: gone longer than the tracker's lost time
    assert [e.face for e in b.events if isinstance(e, CardTakenBack)] == ["purple-4"]
    b.frames([a, right], 8)
    b.frames([a, right, d], 8)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-2", "kraken"]
    assert any("taken back" in f and "purple-4" in f for f in trick.flags)


def test_a_card_taken_back_and_replaced_at_once_gives_way_to_the_new_one() -> None:
    """Ben's purple 4 lies in view most of a second; he takes it back and lays his green 2 in
    his seat a fifth of a second later. The purple 4, seen under a second ago, still counted
    as in view when the green 2 settled: the trick completed with both of Ben's cards,
    flagged "seats do not name every player once", and Cai's kraken went to the next trick.
    A card of a seat whose newer card settled after it was last seen was taken back."""
    b = Bench(leader=0)
    a, wrong, d = det("green-5", 0), det("purple-4", 1), det("kraken", 2)
    right = card_detection("green-2", spot(1, 150.0), angle=LAYOUT.angles[1] % math.pi)
    b.frames([a], 8)
    b.frames([a, wrong], 8)
    b.frames([a], 2)  # taken back, and another laid at once
    b.frames([a, right], 8)
    assert b.completed() == []  # Cai has not played yet
    b.frames([a, right, d], 8)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-2", "kraken"]
    assert trick.players == (0, 1, 2)
    assert trick.taken_back == ("purple-4",)
    assert [f for f in trick.flags if "taken back" not in f] == []


def test_a_card_hidden_while_another_settles_in_its_seat_plays_when_seen_again() -> None:
    """Cai's card lands where the layout reads Ben's seat while his arm hides Ben's card: it
    gives way, as a card taken back does; seen again, it lay there all along and is played,
    with no take-back flag."""
    b = Bench(leader=0)
    x, y = spot(1)
    a, c = det("green-5", 0), det("green-9", 1)
    d = card_detection("green-1", (x + 50, y - 30))
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, d], 8)  # an arm over Ben's card
    assert [e.face for e in b.events if isinstance(e, CardTakenBack)] == ["green-9"]
    b.frames([a, c, d], 8)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-1"]
    assert trick.taken_back == ()
    assert not any("taken back" in f for f in trick.flags)


def test_a_card_of_the_face_taken_back_laid_in_the_next_trick_takes_its_own_place() -> None:
    """Ben took an escape back in the first trick, and plays an escape on the same spot as the
    last card of the next, while the first trick's swept cards are still being given up. It
    was taken for the escape taken back, only missed: it went first in the next trick with
    that card's old arrival, and the trick was recorded led by Ben (synth game seed 202)."""
    b = Bench(leader=0)
    a, esc, c, d = det("green-5", 0), det("escape", 1), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, esc], 10)
    b.frames([a], 30)  # taken back
    b.frames([a, c], 8)
    b.frames([a, c, d], 10)
    (first,) = b.completed()
    assert first.taken_back == ("escape",)
    b.machine.set_leader(2)
    b.frames([], 3)  # swept
    lead, follow = det("purple-2", 2), det("purple-3", 0)
    b.frames([lead], 6)
    b.frames([lead, follow], 6)
    b.frames([lead, follow, esc], 30)
    second = b.completed()[1]
    assert [p.card for p in second.plays] == ["purple-2", "purple-3", "escape"]
    assert second.players == (2, 0, 1) and second.flags == ()


def test_nudged_card_keeps_its_place_in_the_order() -> None:
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    x, y = spot(0)
    nudged = card_detection("green-5", (x + 12, y - 10), angle=LAYOUT.angles[0] % math.pi)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([nudged, c], 8)
    b.frames([nudged, c, d], 8)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-1"]
    assert trick.flags == ()


def test_one_frame_wrong_class_and_missed_frames_do_not_change_the_trick() -> None:
    b = Bench(leader=2)
    a, c, d = det("mermaid-sirena", 2), det("skull-king", 0), det("pirate-bendt", 1)
    b.frames([a], 8)
    b.frames([a, c], 3)
    b.frames([a, det("skull-king", 0).__class__.from_corners("black-13", 0.99, c.corners)])
    b.frames([a, c], 4)
    b.frames([a, c, d], 2)
    b.frames([a, d], 1)  # a missed detection
    b.frames([a, c, d], 6)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["mermaid-sirena", "skull-king", "pirate-bendt"]
    assert trick.players == (2, 0, 1)


def test_order_and_seat_disagreement_is_flagged_and_plays_follow_seats() -> None:
    b = Bench(leader=0)
    a, c, d = det("green-5", 1), det("green-9", 0), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 8)
    (trick,) = b.completed()
    assert trick.arrival_seats == (1, 0, 2)
    assert trick.players == (0, 1, 2)
    assert [p.card for p in trick.plays] == ["green-9", "green-5", "green-1"]
    assert any("disagree" in f for f in trick.flags)


def test_two_cards_in_one_seat_zone_are_flagged_not_guessed() -> None:
    b = Bench(leader=0)
    x, y = spot(1)
    a, c = det("green-5", 0), det("green-9", 1)
    d = card_detection("green-1", (x + 50, y - 30))
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 8)
    (trick,) = b.completed()
    assert trick.players == (0, 1, 2)
    assert any("do not name every player" in f for f in trick.flags)


def test_tigress_crosswise_is_an_escape_and_lengthwise_a_pirate() -> None:
    for crosswise, expected in ((True, "tigress:escape"), (False, "tigress:pirate")):
        b = Bench(leader=0)
        a, c, d = det("green-5", 0), det("tigress", 1, crosswise=crosswise), det("green-1", 2)
        b.frames([a], 8)
        b.frames([a, c], 8)
        b.frames([a, c, d], 8)
        (trick,) = b.completed()
        assert trick.plays[1].card == expected
        assert trick.flags == ()


def test_a_unique_card_cannot_be_two_cards() -> None:
    b = Bench(leader=0)
    a = det("skull-king", 0)
    c = det("skull-king", 1, confidence=0.7)
    c_alt = c.__class__.from_corners("pirate-rascal", 0.6, c.corners)
    d = det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c_alt], 1)
    b.frames([a, c], 7)
    b.frames([a, c, d], 8)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["skull-king", "pirate-rascal", "green-1"]
    assert any("looked like skull-king" in f for f in trick.flags)


def test_escapes_may_appear_several_times() -> None:
    b = Bench(leader=0)
    a, c, d = det("escape", 0), det("escape", 1), det("escape", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 8)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["escape"] * 3 and trick.flags == ()


def test_scene_motion_holds_completion_until_still_or_max_wait() -> None:
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 8, motion=30.0)
    assert b.completed() == []
    b.frames([a, c, d], 1, motion=1.0)
    assert len(b.completed()) == 1
    b2 = Bench(leader=0)
    b2.frames([a], 8)
    b2.frames([a, c], 8)
    b2.frames([a, c, d], 25, motion=30.0)  # a restless scene: max_wait_s ends the wait
    assert len(b2.completed()) == 1


def test_next_trick_cards_laid_before_the_table_is_clear_join_the_next_trick() -> None:
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 8)
    assert len(b.completed()) == 1
    b.machine.set_leader(1)
    lead = det("purple-9", 1)
    x, y = spot(1)
    lead = card_detection("purple-9", (x - 30, y + 25), angle=LAYOUT.angles[1] % math.pi)
    b.frames([a, d, lead], 8)  # winner leads while two old cards are still there
    b.frames([lead], 30)
    assert any(isinstance(e, TableCleared) for e in b.events)
    _ben_leads_the_second_trick(b, lead, 8)


def _swept_leaving_the_early_lead(b: Bench, lead: object, frames: int) -> None:
    """The old trick is swept, ``lead`` alone left on the table for ``frames`` frames: the
    table is cleared, and the purple-8 laid before the sweep is the next trick's first card
    (played at index 1)."""
    b.frames([lead], frames)
    assert any(isinstance(e, TableCleared) for e in b.events)
    played = [e for e in b.events if isinstance(e, CardPlayed)]
    assert (played[-1].face, played[-1].index) == ("purple-8", 1)


def _ben_leads_the_second_trick(b: Bench, lead: object, frames: int) -> None:
    """Cai and Ana follow Ben's purple-9 lead, ``frames`` frames each: the second trick is
    his purple-9, Cai's purple-2 and Ana's purple-1, in that order."""
    e, f = det("purple-2", 2), det("purple-1", 0)
    b.frames([lead, e], frames)
    b.frames([lead, e, f], frames)
    second = b.completed()[1]
    assert [p.card for p in second.plays] == ["purple-9", "purple-2", "purple-1"]
    assert second.players == (1, 2, 0)


def test_more_cards_than_players_is_flagged() -> None:
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    x, y = spot(0)
    extra = card_detection("green-3", (x, y - 70))
    b.frames([a, extra, c, d], 8)  # e.g. the camera started with a trick on the table
    (trick,) = b.completed()
    assert any("more cards than players" in f for f in trick.flags)
    assert len(trick.plays) == 3


def test_motion_meter_sees_change_and_stillness() -> None:
    meter = MotionMeter()
    still = np.full((480, 640, 3), 90, dtype=np.uint8)
    moved = still.copy()
    moved[100:300, 100:400] = 250
    assert meter(still) == 0.0
    assert meter(still) == 0.0
    assert meter(moved) > 10.0


def test_a_consistent_trick_led_by_an_unexpected_seat_follows_the_camera_and_is_flagged() -> None:
    b = Bench(leader=0)  # e.g. the wrong --first-dealer was given
    a, c, d = det("green-5", 1), det("green-9", 2), det("green-1", 0)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 8)
    (trick,) = b.completed()
    assert trick.players == (1, 2, 0) and trick.leader == 1
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-1"]
    assert any("expected seat 0 to lead" in f for f in trick.flags)
    # With the table's names (as the pipeline gives them), the flag says who.
    named = Bench(leader=0, seat_names=["Ana", "Ben", "Cai"])
    named.frames([a], 8)
    named.frames([a, c], 8)
    named.frames([a, c, d], 8)
    (trick,) = named.completed()
    assert "Ben led, but the game expected Ana to lead" in trick.flags


def test_a_card_the_detector_missed_for_long_comes_back_in_its_place() -> None:
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a], 30)  # the second card unseen longer than the lost time
    assert any(isinstance(e, CardTakenBack) for e in b.events)
    b.frames([a, c], 5)  # ...but it is back, where it was
    b.frames([a, c, d], 8)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-1"]
    assert trick.flags == ()


def test_a_trick_swept_away_with_a_card_never_seen_is_reported_short_and_flagged() -> None:
    b = Bench(leader=0)
    a, c = det("green-5", 0), det("green-9", 1)  # the third card is never detected
    b.frames([a], 8)
    b.frames([a, c], 10)
    b.frames([], 5)  # swept
    lead = det("purple-2", 1)
    b.frames([lead], 30)  # the next trick starts before the sweep is noticed
    (short,) = b.completed()
    assert short.swept and short.players == (0, 1)
    assert [p.card for p in short.plays] == ["green-5", "green-9"]
    assert any("swept away with 2 of 3" in f for f in short.flags)
    assert b.machine.members  # the new lead belongs to the next trick


def test_a_played_card_nudged_and_misread_as_it_moves_stays_one_card() -> None:
    """A sleeve nudges Ana's played card a third of its diagonal; the moving card is misread
    (on one frame, or two at the camera's full rate), then read right where it now lies. It is
    still her one card: Cai's card completes the trick, at 2.5 frames a second and at 10."""
    diag = math.hypot(40.0, 62.0)

    def ana(card: str, shift: float) -> object:
        x, y = spot(0)
        return card_detection(card, (x + shift * diag, y), angle=LAYOUT.angles[0] % math.pi)

    for fps, misread in ((2.5, 1), (FPS, 1), (FPS, 2)):
        b = Bench(leader=0, fps=fps)
        c, d = det("green-9", 1), det("black-2", 2)
        b.frames([ana("green-5", 0.0)], int(fps * 1.5))
        b.frames([ana("green-5", 0.0), c], int(fps * 1.5))
        for k in range(misread):
            b.frames([ana("yellow-3", 0.35 * (k + 1) / misread), c])
        b.frames([ana("green-5", 0.35), c], int(fps))
        b.frames([ana("green-5", 0.35), c, d], int(fps * 3))
        (trick,) = b.completed()
        assert [p.card for p in trick.plays] == ["green-5", "green-9", "black-2"], (fps, misread)
        assert trick.players == (0, 1, 2) and not trick.flags


def test_with_sparse_frames_a_lead_laid_exactly_on_the_winners_card_leads_the_next_trick() -> None:
    """2 frames a second: Cai's card completes the trick on the frame where Ben, its winner,
    is first seen leading purple-9 exactly where his green-9 lies (read twice so far). The
    trick is Ana's, Ben's and Cai's cards; purple-9 is not green-9 misread but the next
    trick's lead."""
    b = Bench(leader=0, fps=2.0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    lead = det("purple-9", 1)
    b.frames([a], 3)
    b.frames([a, c])
    b.frames([a, c, d])
    b.frames([a, lead, d])  # Cai's card comes to rest; Ben leads on his own card
    (first,) = b.completed()
    assert [p.card for p in first.plays] == ["green-5", "green-9", "green-1"]
    b.machine.set_leader(1)
    b.frames([a, lead, d])
    b.frames([lead], 8)  # the trick swept, the lead left
    _ben_leads_the_second_trick(b, lead, 3)


def test_with_sparse_frames_a_card_misread_from_its_tricks_completion_to_the_sweep_stays() -> None:
    """2 frames a second: Ben's green-9 is read as purple-9 (a hand's shadow as the trick is
    picked up) from the frame Cai's card completes the trick until the sweep. The misread,
    first read a frame after green-9's last read, is no card laid there: it follows green-9 on
    the next frame, too soon for a swap, and goes with the trick. The trick keeps green-9."""
    b = Bench(leader=0, fps=2.0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 3)
    b.frames([a, c])
    b.frames([a, c, d])
    b.frames([a, det("purple-9", 1), d], 3)  # Cai's card comes to rest; green-9 misread
    b.frames([], 10)  # swept
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-1"]
    assert not [e for e in b.events if isinstance(e, TrickAmended)]


def test_with_sparse_frames_a_last_card_seen_once_at_rest_before_the_sweep_counts() -> None:
    """A busy machine keeps 2.5 frames a second: Cai's card is seen landing and once at rest
    (too briefly to count as played), then the hand sweeping the trick hides it. It was the
    trick's missing card: the trick is whole, in turn, and still flagged as swept (it was
    recorded a card short)."""
    b = Bench(leader=0, fps=2.5)
    a, c, d = det("green-5", 0), det("green-9", 1), det("black-2", 2)
    landing = card_detection("black-2", spot(2, radius=115.0), angle=LAYOUT.angles[2] % math.pi)
    b.frames([a], 3)
    b.frames([a, c], 3)
    b.frames([a, c, landing])
    b.frames([a, c, d])
    b.frames([a, c])  # the sweeping hand covers Cai's card first
    b.frames([], 10)  # swept
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "black-2"]
    assert trick.players == (0, 1, 2) and trick.swept
    assert any("swept away with 3 of 3" in f for f in trick.flags)


def test_with_sparse_frames_a_last_card_seen_only_once_before_the_sweep_counts() -> None:
    """At 2 frames a second Cai's card is seen once, at rest, while the whole trick lay there,
    and then the trick is swept: that one sighting, in the empty seat, was its card."""
    b = Bench(leader=0, fps=2.0)
    a, c = det("green-5", 0), det("green-9", 1)
    b.frames([a], 3)
    b.frames([a, c], 3)
    b.frames([a, c, det("black-2", 2)])
    b.frames([a, c], 2)  # the sweeping hand covers Cai's card first
    b.frames([], 10)  # swept
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "black-2"] and trick.swept


def test_with_sparse_frames_a_last_card_seen_once_on_its_tricks_last_frame_counts() -> None:
    """At 2 frames a second Cai's card is seen once, at rest, on the last frame the whole
    trick lay in view; the next frame shows the hand sweeping it, every card hidden. That
    sighting was its card (generated game q5 at one frame in 5: swept half a second after
    the last card came to rest). Asked to be seen before that frame, the trick was recorded
    a card short."""
    b = Bench(leader=0, fps=2.0)
    a, c = det("green-5", 0), det("green-9", 1)
    b.frames([a], 3)
    b.frames([a, c], 3)
    b.frames([a, c, det("black-2", 2)])
    b.frames([], 10)  # swept
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "black-2"] and trick.swept
    assert trick.players == (0, 1, 2)


def test_with_sparse_frames_a_last_card_seen_once_while_a_hand_hovers_over_the_lead_counts() -> (
    None
):
    """At 2 frames a second a hand hovers over Ana's lead for two seconds while Cai lays the
    last card, seen once at rest with Ben's card, and then the trick is swept. Ana's card
    was hidden, not swept, when Cai's showed up: the sweep began after that sighting, which
    was the trick's last card (generated game t206 at one frame in 5; counted from Ana's
    card, the sighting came after the sweep began and the trick was recorded short)."""
    b = Bench(leader=0, fps=2.0)
    a, c = det("green-5", 0), det("green-9", 1)
    b.frames([a], 3)
    b.frames([a, c], 1)
    b.frames([c], 3)  # the hand hovers over Ana's card
    b.frames([c, det("black-2", 2)])
    b.frames([], 10)  # swept
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "black-2"] and trick.swept
    assert trick.players == (0, 1, 2)


def test_a_lone_detection_amid_the_sweep_is_not_the_missing_card() -> None:
    """One detection in the empty seat once the sweep has begun (Ben's card already gone:
    a swept card dragged past, misread) is not a card with sparse frames; nor is one
    sighting at the camera's full rate, even with the whole trick in view: the trick swept
    a card short stays short."""
    for fps, seen_with, after in ((2.0, [0], 0), (FPS, [0, 1], 2)):
        b = Bench(leader=0, fps=fps)
        a, c = det("green-5", 0), det("green-9", 1)
        b.frames([a], int(fps * 1.5))
        b.frames([a, c], int(fps * 1.5))
        b.frames([[a, c][k] for k in seen_with] + [det("black-2", 2)])
        b.frames([a, c], after)
        b.frames([], int(fps * 5))  # swept
        (trick,) = b.completed()
        assert [p.card for p in trick.plays] == ["green-5", "green-9"] and trick.swept


def test_a_swept_card_dragged_across_the_empty_seat_is_not_the_missing_card() -> None:
    """Cai's card is never seen. The hand sweeping the trick drags Ana's card across Cai's
    seat, misread as yellow-3 on three frames: a card that showed up only once the sweep had
    begun is not Cai's. The trick stays short, flagged as a card missed."""
    b = Bench(leader=0)
    ana, ben = det("green-5", 0), det("green-9", 1)
    b.frames([ana], 15)
    b.frames([ana, ben], 15)
    x, y = spot(2)
    for dx in (0.0, 8.0, 16.0):  # Ana's card gone from her seat, dragged over Cai's
        dragged = card_detection("yellow-3", (x + dx, y), angle=LAYOUT.angles[2] % math.pi)
        b.frames([ben, dragged])
    b.frames([], 40)  # swept
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9"] and trick.swept
    assert any("a card was missed" in f for f in trick.flags)


def test_a_leaders_card_under_a_hovering_hand_still_completes_its_trick() -> None:
    """A hand hovers over Ana's lead while Ben and Cai play, so her card is out of sight for
    longer than a card counts as in view; then Ana, who wins, leads again at once on her own
    card. The trick waited for her card to be seen, the tracker gave it up under the new lead
    (taken back), the new lead completed the trick in its place, and every later trick of
    the round was recorded a place early (synth game seed 11, --habit hover)."""
    b = Bench(leader=0)
    a, c, d = det("pirate-harry", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([c], 6)  # a hand over Ana's card from here on
    b.frames([c, d], 9)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["pirate-harry", "green-9", "green-1"]
    assert trick.players == (0, 1, 2) and trick.flags == ()
    lead = det("purple-8", 0)  # laid on her pirate, which it hides
    b.frames([c, d, lead], 10)
    b.frames([lead], 30)  # the old trick is swept
    played = [e for e in b.events if isinstance(e, CardPlayed)]
    assert (played[-1].face, played[-1].index) == ("purple-8", 1)
    assert len(b.completed()) == 1


def test_with_sparse_frames_a_leaders_card_lost_under_a_hand_keeps_its_place() -> None:
    """2 frames a second: a hand hovers over Ana's lead for 3 s while Ben and Cai play, so
    the tracker gives her card up; then Ana, who wins, leads purple-8 on it. The lead came
    after every later player's card, out of turn: it is the next trick's, and the trick is
    her pirate, Ben's and Cai's cards. It used to take the pirate's place, and the next trick
    lacked its lead (generated game h11, --keep-every 5)."""
    b = Bench(leader=0, fps=2.0)
    a, c, d = det("pirate-harry", 0), det("green-9", 1), det("green-1", 2)
    lead = det("purple-8", 0)  # laid on her pirate, which it hides
    b.frames([a], 2)
    b.frames([c], 4)  # a hand over Ana's card from here on
    b.frames([c, d], 2)  # her card is given up
    b.frames([c, d, lead], 4)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["pirate-harry", "green-9", "green-1"]
    assert trick.players == (0, 1, 2) and trick.taken_back == ()
    b.machine.set_leader(0)
    _swept_leaving_the_early_lead(b, lead, 8)  # the old trick is swept
    b.frames([lead, det("purple-2", 1)], 4)
    b.frames([lead, det("purple-2", 1), det("purple-1", 2)], 4)
    second = b.completed()[1]
    assert [p.card for p in second.plays] == ["purple-8", "purple-2", "purple-1"]
    assert second.players == (0, 1, 2)


def test_a_card_taken_back_under_a_hand_and_replaced_in_turn_gives_way() -> None:
    """2 frames a second: Ana's card is lost and she lays another in its seat before Cai
    plays. That is a card taken back and replaced before the trick went on: the new card is
    hers, not the next trick's lead."""
    b = Bench(leader=0, fps=2.0)
    a, c, d = det("pirate-harry", 0), det("green-9", 1), det("green-1", 2)
    other = det("purple-8", 0)
    b.frames([a], 2)
    b.frames([c], 6)  # Ana's card is given up
    b.frames([c, other], 4)
    b.frames([c, other, d], 4)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["purple-8", "green-9", "green-1"]
    assert "pirate-harry" in trick.taken_back


def test_a_card_covered_a_moment_after_it_came_to_rest_is_played() -> None:
    """Ben's card is seen lying still for a fifth of a second before Ben's hand hovers over
    it until the trick is picked up. It never lay in sight for the tracker's settle time, so
    it never counted: the trick was swept a card short (synth game t204, a hand over the last
    card but one)."""
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 3)  # at rest, then a hand over it
    b.frames([a], 10)
    b.frames([a, d], 10)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-1"]
    assert trick.players == (0, 1, 2) and trick.flags == () and not trick.swept


def test_a_false_detection_seen_still_in_an_empty_seat_is_no_take_back() -> None:
    """A reflection in Ben's empty seat is read as a yellow-3, still, on three frames, and
    then never again. Counted as a card covered where it lay, it left the trick as taken back
    (gone for good, or giving way to Ben's card laid there) and the trick was flagged for the
    table to check a card nobody played."""
    for unseen in (30, 6):  # gone for good before Ben plays; Ben plays while it is held
        b = Bench(leader=0)
        a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
        b.frames([a], 8)
        b.frames([a, det("yellow-3", 1)], 3)
        b.frames([a], unseen)
        b.frames([a, c], 8)
        b.frames([a, c, d], 10)
        (trick,) = b.completed()
        assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-1"], unseen
        assert trick.taken_back == () and trick.flags == (), unseen


def test_a_false_detection_in_the_seat_to_play_next_does_not_complete_the_trick() -> None:
    """The same reflection in Cai's seat, the last to play: counted as his card covered, it
    completed the trick in place of the card Cai then laid, which became the next trick's
    lead. Nothing was played after it: the trick waits for Cai's card."""
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, det("yellow-3", 2)], 3)
    b.frames([a, c], 10)
    assert b.completed() == []
    b.frames([a, c, d], 10)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-1"]
    assert trick.players == (0, 1, 2) and trick.flags == ()


def test_a_card_shown_over_the_table_and_taken_back_gives_way_to_the_card_laid() -> None:
    """Cai holds his green-1 still over the table for a fifth of a second, takes it back and
    lays his green-3 a moment later, his hand moving all the while. Seen at rest and then out
    of sight, the green-1 counts as played, as a card covered where it lay does; the green-3
    laid in his seat since says it was not. It used to complete the trick as soon as the hand
    was still, and the green-3 went with the sweep: a wrong trick, unflagged. Seen lying for
    no longer than a false detection, the green-1 leaves without a take-back flag."""
    b = Bench(leader=0)
    a, c, laid = det("green-5", 0), det("green-9", 1), det("green-3", 2)
    shown = card_detection("green-1", spot(2, 150.0), angle=LAYOUT.angles[2] % math.pi)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, shown], 3, motion=20.0)
    b.frames([a, c], 3, motion=20.0)
    b.frames([a, c, laid], 3, motion=20.0)
    b.frames([a, c, laid], 15)
    b.frames([], 40)  # picked up
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-3"]
    assert trick.players == (0, 1, 2) and not trick.swept
    assert trick.taken_back == () and trick.flags == ()


def test_a_lead_laid_in_the_seat_of_a_card_never_seen_does_not_complete_a_swept_trick() -> None:
    """Cai's card was never seen and the trick was swept; Cai, who won, leads in his seat
    before the swept cards' tracks are given up: the unseen old cards are not hidden cards
    of a trick his lead completes (they were last seen before it came)."""
    _lead_in_the_unseen_seat_after_a_sweep(swept_frames=5)


def test_a_lead_laid_just_after_the_sweep_does_not_complete_the_swept_trick() -> None:
    """Cai's card was never seen and the trick was swept; Cai leads in his seat a moment
    later, while the swept cards still count as in view. His lead was first seen after both
    were last seen: laid on a cleared table, it does not complete their trick (it did when
    it came to rest within ``visible_s`` of the sweep)."""
    _lead_in_the_unseen_seat_after_a_sweep(swept_frames=2)


def _lead_in_the_unseen_seat_after_a_sweep(swept_frames: int) -> None:
    """Ana's and Ben's cards swept after ``swept_frames`` empty frames, Cai's never seen; Cai
    then leads purple-2 in his seat. The swept trick is reported short, and the lead alone
    starts the next."""
    b = Bench(leader=0)
    a, c = det("green-5", 0), det("green-9", 1)
    b.frames([a], 8)
    b.frames([a, c], 10)
    b.frames([], swept_frames)  # swept
    lead = det("purple-2", 2)
    b.frames([lead], 30)
    (short,) = b.completed()
    assert short.swept and [p.card for p in short.plays] == ["green-5", "green-9"]
    assert [b.tracker.tracks[m].card for m in b.machine.members] == ["purple-2"]


def test_a_last_card_laid_while_a_hand_hides_the_others_is_not_the_next_tricks() -> None:
    """A hand hides Ana's and Ben's cards from just before Cai's lands until the trick is
    picked up. Cai's card, first seen after the others were last seen, may be the next lead
    laid on a swept table, so the trick does not complete with it; when the hidden cards are
    given up it still lay there and stayed for the next trick, and went with the pickup as a
    card taken back from it: the next trick was flagged for a take-back nobody made. Gone in
    the seat the swept trick lacked a card for, soon after its cards were last seen, it went
    with that trick (recorded short, flagged: a swept trick is not amended)."""
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 10)
    b.frames([], 2)  # a hand over Ana's and Ben's cards from here on
    b.frames([d], 8)
    b.frames([], 40)  # picked up
    (first,) = b.completed()
    assert [p.card for p in first.plays] == ["green-5", "green-9"] and first.swept
    b.machine.set_leader(0)
    e, f, g = det("purple-2", 0), det("purple-3", 1), det("purple-4", 2)
    b.frames([e], 8)
    b.frames([e, f], 8)
    b.frames([e, f, g], 10)
    second = b.completed()[1]
    assert [p.card for p in second.plays] == ["purple-2", "purple-3", "purple-4"]
    assert second.taken_back == () and second.flags == ()


def test_the_next_lead_in_the_seat_a_swept_trick_lacked_goes_with_its_own_trick() -> None:
    """Cai's card of the first trick was never seen and the trick was swept; Cai leads the
    next in his seat at once and Ana follows; that trick too is swept, Cai's card first. The
    lead is that trick's, not the swept trick's last card (h11 at one frame in 4)."""
    b = Bench(leader=0)
    a, c = det("green-5", 0), det("green-9", 1)
    b.frames([a], 8)
    b.frames([a, c], 10)
    b.frames([], 2)  # swept
    lead, follow = det("purple-2", 2), det("purple-3", 0)
    b.frames([lead], 30)
    b.frames([lead, follow], 10)
    b.frames([follow], 5)  # the next trick swept, Cai's card first
    b.frames([], 40)
    first, second = b.completed()
    assert [p.card for p in first.plays] == ["green-5", "green-9"] and first.swept
    assert [p.card for p in second.plays] == ["purple-2", "purple-3"] and second.swept


def test_a_lead_laid_after_a_sweep_lying_a_while_and_taken_back_is_flagged() -> None:
    """Cai's card of the first trick was never seen and the trick was swept. Cai leads at
    once in his seat; the card lies face up four seconds, he takes it back, thinks three
    and leads another. A take-back the table is asked about, not the swept trick's last
    card: that one goes with the pickup, within moments of the cards it was laid with."""
    b = Bench(leader=0)
    a, c = det("green-5", 0), det("green-9", 1)
    b.frames([a], 8)
    b.frames([a, c], 10)
    b.frames([], 2)  # swept
    b.machine.set_leader(2)
    b.frames([det("purple-2", 2)], 40)
    b.frames([], 30)  # taken back; Cai thinks
    e, f, g = det("purple-9", 2), det("purple-3", 0), det("purple-4", 1)
    b.frames([e], 8)
    b.frames([e, f], 8)
    b.frames([e, f, g], 10)
    first, second = b.completed()
    assert [p.card for p in first.plays] == ["green-5", "green-9"] and first.swept
    assert [p.card for p in second.plays] == ["purple-9", "purple-3", "purple-4"]
    assert second.taken_back == ("purple-2",)
    assert second.flags == ("taken back before the trick completed: purple-2",)


def test_flush_reports_an_unfinished_trick_at_the_end_of_a_recording() -> None:
    b = Bench(leader=2)
    b.frames([det("green-5", 2)], 8)
    assert b.machine.flush(b.tracker, b.t) == []  # one card is not a trick
    b.frames([det("green-5", 2), det("green-9", 0)], 8)
    (event,) = b.machine.flush(b.tracker, b.t)
    assert isinstance(event, TrickCompleted)
    assert event.trick.swept and event.trick.players == (2, 0)


def test_flush_counts_a_last_card_seen_once_at_rest_before_the_recording_ended() -> None:
    """A busy machine keeps 2.5 frames a second: Cai's card is seen landing and once at rest,
    the trick is swept, and the recording ends before the swept cards count as gone. Cai's
    card was the trick's missing card (as in a sweep noticed in time): the trick is whole,
    still flagged (synth game t202, one frame in 4)."""
    b = Bench(leader=0, fps=2.5)
    a, c = det("green-5", 0), det("green-9", 1)
    landing = card_detection("black-2", spot(2, radius=115.0), angle=LAYOUT.angles[2] % math.pi)
    b.frames([a], 3)
    b.frames([a, c], 3)
    b.frames([a, c, landing])
    b.frames([a, c, det("black-2", 2)])
    b.frames([a, c])  # the sweeping hand covers Cai's card first
    b.frames([], 3)  # swept; the recording ends
    assert b.completed() == []
    (event,) = b.machine.flush(b.tracker, b.t)
    assert isinstance(event, TrickCompleted)
    trick = event.trick
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "black-2"]
    assert trick.players == (0, 1, 2) and trick.swept
    assert any("ended with 3 of 3" in f for f in trick.flags)


def test_flush_does_not_count_a_lone_detection_in_the_empty_seat() -> None:
    """One detection in the empty seat on the last frame (a hand, a card dragged past) is no
    card at the camera's full rate: the trick at the end of the recording stays short."""
    b = Bench(leader=0)
    a, c = det("green-5", 0), det("green-9", 1)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, det("black-2", 2)])
    (event,) = b.machine.flush(b.tracker, b.t)
    assert isinstance(event, TrickCompleted)
    assert [p.card for p in event.trick.plays] == ["green-5", "green-9"]


def test_an_escape_played_on_the_spot_of_one_just_swept_starts_the_next_trick() -> None:
    """Ben played an escape, the trick was swept, and 2 s later he leads an escape on the same
    spot: that card used to continue the swept escape's track (same face, same place, within
    the 2.5 s a hidden card lives on), so the table never cleared and the next trick was
    lost behind the old one."""
    b = Bench(leader=1)
    esc, c, d = det("escape", 1), det("green-9", 2), det("black-2", 0)
    b.frames([esc], 8)
    b.frames([esc, c], 8)
    b.frames([esc, c, d], 10)
    (first,) = b.completed()
    assert [p.card for p in first.plays] == ["escape", "green-9", "black-2"]
    b.frames([], 20)  # swept: every card of it gone for 2 s
    b.machine.set_leader(1)
    b.frames([esc], 10)  # the next lead, an escape again, on the very spot
    assert any(isinstance(e, TableCleared) for e in b.events)
    played = [e for e in b.events if isinstance(e, CardPlayed)]
    assert (played[-1].face, played[-1].index) == ("escape", 1)
    b.frames([esc, det("green-3", 2)], 8)
    b.frames([esc, det("green-3", 2), det("green-1", 0)], 10)
    assert [[p.card for p in t.plays] for t in b.completed()] == [
        ["escape", "green-9", "black-2"],
        ["escape", "green-3", "green-1"],
    ]


def test_a_hand_over_part_of_a_finished_trick_does_not_make_its_cards_new() -> None:
    """Only a trick gone whole counts as swept: one card hidden by a hand for 2 s and seen
    again is still the old trick's card, not the next trick's lead."""
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("green-9", 1), det("black-2", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 10)
    assert len(b.completed()) == 1
    b.frames([c, d], 20)  # a hand over Ana's green-5
    b.frames([a, c, d], 10)
    assert b.machine.phase is Phase.CLEARING and b.machine.members == []


def test_a_lead_laid_on_the_leaders_own_card_before_the_sweep_starts_the_next_trick() -> None:
    """Ana won and leads at once, on top of her own card of the finished trick (it still lies
    there, hidden under the new one). The new card's detections used to continue the hidden
    card's track (unseen under half a second, so any face could), the old trick never
    cleared, and every later trick of the game went one place early."""
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("black-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 10)
    (first,) = b.completed()
    assert first.players == (0, 1, 2)
    b.machine.set_leader(1)  # Ben won with black-9
    lead = det("purple-8", 1)  # on the very spot of his black-9, which it hides
    b.frames([a, d], 2)  # his hand comes in over the card
    b.frames([a, d, lead], 10)
    _swept_leaving_the_early_lead(b, lead, 30)  # the old trick is swept
    b.frames([lead, det("purple-2", 2)], 8)
    b.frames([lead, det("purple-2", 2), det("purple-1", 0)], 10)
    second = b.completed()[1]
    assert [p.card for p in second.plays] == ["purple-8", "purple-2", "purple-1"]
    assert second.players == (1, 2, 0) and not second.swept


def test_a_lead_in_flight_when_the_trick_completes_starts_the_next_trick() -> None:
    """Ben won and brings his lead down while the finished trick is still being judged: the
    card, moving, was counted with the old trick's cards, so it never joined the next trick
    and the old trick never cleared (every later trick of the round went a place off)."""
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("black-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 3)  # the last card has settled, the trick is not yet complete
    b.machine.set_leader(1)
    angle = LAYOUT.angles[1] % math.pi
    for radius in range(300, 170, -8):  # the lead still coming down as the trick completes
        b.frames([a, c, d, card_detection("purple-8", spot(1, radius), angle=angle)])
    assert len(b.completed()) == 1
    lead = card_detection("purple-8", spot(1, 170), angle=angle)
    b.frames([a, c, d, lead], 10)
    _swept_leaving_the_early_lead(b, lead, 30)  # the old trick is swept


def test_a_lead_laid_after_the_sweep_and_then_covered_stays_the_lead() -> None:
    """Ben's lead is laid on a table already swept, before the tracker has given up the old
    trick's cards, and a hand hovers over it as they are given up. It used to count as a card
    that went with the old trick (unseen then, last seen within 3 s of it): the next trick
    lost its lead and was recorded short (synth game seed 213, --habit hover)."""
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("black-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 10)
    assert len(b.completed()) == 1
    b.machine.set_leader(1)
    b.frames([], 6)  # swept
    lead = det("purple-8", 1)
    b.frames([lead], 6)
    b.frames([], 18)  # a hand over it while the old cards are given up
    assert any(isinstance(e, TableCleared) for e in b.events)
    b.frames([lead], 5)
    b.frames([lead, det("purple-2", 2)], 8)
    b.frames([lead, det("purple-2", 2), det("purple-1", 0)], 10)
    second = b.completed()[1]
    assert [p.card for p in second.plays] == ["purple-8", "purple-2", "purple-1"]
    assert second.players == (1, 2, 0) and not second.swept


def test_two_cards_taken_back_one_at_a_time_are_not_a_swept_trick() -> None:
    """Ana and then Ben each take a card back, seconds apart: two cards of the trick gone, but
    not swept together, so the trick goes on (it used to be reported short, and the rest of
    it counted as the next trick)."""
    b = Bench(leader=0)
    b.frames([det("skull-king", 0)], 10)
    b.frames([], 30)  # Ana takes her Skull King back...
    a = det("green-5", 0)
    b.frames([a], 10)
    b.frames([a, det("escape", 1)], 10)
    b.frames([a], 30)  # ...and Ben his escape, 4 s later
    c, d = det("green-9", 1), det("green-1", 2)
    b.frames([a, c], 10)
    b.frames([a, c, d], 10)
    (trick,) = b.completed()
    assert not trick.swept
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-1"]
    assert trick.taken_back == ("skull-king", "escape")


def test_a_finished_trick_pushed_aside_face_up_is_not_the_next_lead() -> None:
    """The winner pushes the trick to his edge as a face-up pile and leaves it there while the
    next trick starts. The pile's top card, come to rest in a new place, used to count as the
    next trick's first card; one deck holds one black-9, so it is the old one moved."""
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("black-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 10)
    assert len(b.completed()) == 1
    b.machine.set_leader(1)
    pile = card_detection("black-9", spot(1, radius=190.0), angle=LAYOUT.angles[1] % math.pi)
    b.frames([], 3)  # a hand gathers the cards...
    b.frames([pile], 20)  # ...and leaves them at Ben's edge, black-9 on top
    e, f = det("purple-8", 1), det("purple-2", 2)
    b.frames([pile, e], 10)
    b.frames([pile, e, f], 10)
    b.frames([e, f], 30)  # the pile is taken away
    b.frames([e, f, det("purple-1", 0)], 10)
    second = b.completed()[1]
    assert [p.card for p in second.plays] == ["purple-8", "purple-2", "purple-1"]
    assert second.players == (1, 2, 0) and not second.flags


def test_the_next_rounds_deal_may_bring_a_face_of_the_trick_just_swept() -> None:
    """The round's last trick held black-9; it is swept, the cards dealt again, and black-9
    is led at once: a new card, not the old one moved."""
    b = Bench(leader=0)
    a, c, d = det("green-5", 0), det("black-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 10)
    b.machine.set_leader(2)
    b.machine.round_continues = False  # the pipeline says: that was the round's last trick
    b.frames([], 15)  # swept, and a quick deal
    b.frames([det("black-9", 2)], 20)
    played = [e for e in b.events if isinstance(e, CardPlayed)]
    assert (played[-1].face, played[-1].seat, played[-1].index) == ("black-9", 2, 1)


def test_a_swept_short_trick_opening_a_round_forgets_the_last_rounds_faces() -> None:
    """Round 1's last trick held black-9 and completed; round 2's first trick is swept a card
    short; black-9, dealt again, is played in round 2's second trick. It is a new play, not
    round 1's card dragged aside. Was: the swept trick left round 1's faces standing as 'the
    trick just cleared', and black-9 was never played (an 8-player replay, session 49: the
    trick swept a card short too)."""
    b = Bench(leader=0)
    b.frames([det("green-5", 0)], 8)
    b.frames([det("green-5", 0), det("black-9", 1)], 8)
    b.frames([det("green-5", 0), det("black-9", 1), det("green-1", 2)], 10)
    b.machine.round_continues = False  # the pipeline says: that was the round's last trick
    b.frames([], 30)  # swept, and the next round dealt
    b.frames([det("yellow-3", 0)], 8)  # round 2, trick 1: Cai's card is never seen
    b.frames([det("yellow-3", 0), det("yellow-9", 1)], 10)
    b.frames([], 30)  # swept a card short
    assert len(b.completed()) == 2 and b.completed()[1].swept
    b.machine.round_continues = True  # the pipeline says so once round 2's first is recorded
    b.frames([det("purple-4", 1)], 8)
    b.frames([det("purple-4", 1), det("black-9", 2)], 8)
    b.frames([det("purple-4", 1), det("black-9", 2), det("purple-7", 0)], 10)
    third = b.completed()[2]
    assert [p.card for p in third.plays] == ["purple-4", "black-9", "purple-7"]
    assert third.players == (1, 2, 0) and not third.swept


def test_a_card_taken_back_before_a_short_sweep_may_be_played_later_in_the_round() -> None:
    """Ben lays purple-4 and takes it back (his next card is never read); the trick is swept
    a card short, recorded with the purple-4 in his seat. He still holds it, and leads it in
    the next trick: a new play, not the swept trick's card seen again (a review, session 49:
    the swept trick's faces had included it, and the next trick never completed)."""
    b = Bench(leader=0)
    a = det("green-5", 0)
    b.frames([a], 8)
    b.frames([a, det("purple-4", 1)], 8)
    b.frames([a], 40)  # taken back
    b.frames([a, det("green-1", 2)], 10)
    b.frames([], 40)  # swept a card short
    assert b.completed()[0].swept
    b.machine.set_leader(1)
    b.frames([det("purple-4", 1)], 8)
    b.frames([det("purple-4", 1), det("purple-9", 2)], 8)
    b.frames([det("purple-4", 1), det("purple-9", 2), det("purple-1", 0)], 10)
    second = b.completed()[1]
    assert [p.card for p in second.plays] == ["purple-4", "purple-9", "purple-1"]


def _first_trick(b: Bench) -> tuple:
    a, c, d = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, c], 8)
    b.frames([a, c, d], 10)
    assert len(b.completed()) == 1
    b.machine.set_leader(1)  # Ben won with green-9
    return a, c, d


def test_a_card_swapped_after_the_trick_completed_amends_the_trick() -> None:
    """Cai sees he could follow suit after all: he takes his green-1 back and lays green-2
    before the trick is picked up. When green-2 goes with the trick, the trick is amended (it
    used to keep green-1, silently)."""
    b = Bench(leader=0)
    a, c, _ = _first_trick(b)
    b.frames([a, c], 10)  # Cai's card is gone for a second...
    b.frames([a, c, det("green-2", 2)], 10)  # ...and another lies in its place
    assert not [e for e in b.events if isinstance(e, TrickAmended)]  # the sweep will tell
    b.frames([], 30)  # swept, the new card with the rest
    (amended,) = [e for e in b.events if isinstance(e, TrickAmended)]
    assert (amended.index, amended.before) == (2, "green-1")
    assert [p.card for p in amended.trick.plays] == ["green-5", "green-9", "green-2"]
    assert amended.trick.players == (0, 1, 2) and amended.trick.leader == 0
    assert amended.trick.flags == (
        "seat 2's green-1 was swapped for green-2 after the trick completed",
    )
    cleared = next(k for k, e in enumerate(b.events) if isinstance(e, TableCleared))
    assert b.events.index(amended) < cleared and b.machine.members == []


def test_a_card_hidden_then_misread_is_not_a_swap() -> None:
    """A hand hides Cai's green-1 for 0.7 s; as it leaves, the card reads green-7 for half a
    second, then green-1 again: the card never left, so the trick stands."""
    b = Bench(leader=0)
    a, c, d = _first_trick(b)
    b.frames([a, c], 7)
    b.frames([a, c, det("green-7", 2)], 5)
    b.frames([a, c, d], 10)
    b.frames([], 30)
    assert not [e for e in b.events if isinstance(e, TrickAmended)]


def test_the_next_trick_laid_in_a_seat_picked_up_early_is_not_a_swap() -> None:
    """The table picks the old trick up one card at a time, and Cai follows the new lead where
    his old card was taken: his card stays when the rest is gone, so it is the next trick's
    (it used to amend the old trick and lose the new one)."""
    b = Bench(leader=0)
    a, c, _ = _first_trick(b)
    lead = card_detection(
        "purple-8", (spot(1)[0] + 45, spot(1)[1]), angle=LAYOUT.angles[1] % math.pi
    )
    b.frames([a, c, lead], 10)  # Ben leads beside his green-9; Cai's green-1 is picked up
    follow = det("purple-2", 2)
    b.frames([a, c, lead, follow], 10)  # Cai follows on its spot
    b.frames([lead, follow], 30)  # the rest of the old trick is picked up
    assert not [e for e in b.events if isinstance(e, TrickAmended)]
    b.frames([lead, follow, det("purple-1", 0)], 12)
    second = b.completed()[1]
    assert [p.card for p in second.plays] == ["purple-8", "purple-2", "purple-1"]


def test_no_card_is_swapped_after_a_rounds_last_trick() -> None:
    """Every hand is empty after a round's last trick: a card laid in a seat whose card was
    taken is the next round's, never a swap."""
    b = Bench(leader=0)
    a, c, _ = _first_trick(b)
    b.machine.round_continues = False  # the pipeline says the round is over
    b.frames([a, c], 10)
    b.frames([a, c, det("green-2", 2)], 10)
    b.frames([], 30)
    assert not [e for e in b.events if isinstance(e, TrickAmended)]


def test_a_misread_of_a_finished_card_is_not_a_swap() -> None:
    """Under a hand, Cai's green-1 reads as green-7 for a second: no gap where the card was
    gone, so the trick stands."""
    b = Bench(leader=0)
    a, c, _ = _first_trick(b)
    b.frames([a, c, det("green-7", 2)], 10)
    b.frames([a, c, det("green-1", 2)], 10)
    assert not [e for e in b.events if isinstance(e, TrickAmended)]


def test_a_swap_by_the_next_leader_is_told_from_his_lead_by_the_sweep() -> None:
    """Ben's black-9 won; he takes it back and lays green-2 in its place. A winner leading at
    once on his own card looks the same, so the sweep tells: this card goes with the trick,
    so it was a swap (it used to stay recorded as black-9, silently)."""
    b = Bench(leader=0)
    a, d = det("green-5", 0), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, det("black-9", 1)], 8)
    b.frames([a, det("black-9", 1), d], 10)
    b.machine.set_leader(1)  # Ben won with black-9
    b.frames([a, d], 10)  # he takes it back...
    b.frames([a, det("green-2", 1), d], 10)  # ...and lays green-2
    assert not [e for e in b.events if isinstance(e, TrickAmended)]  # a swap or his lead?
    b.frames([a, d], 10)  # swept, green-2 first and the rest a second later: a swap
    b.frames([], 30)
    (amended,) = [e for e in b.events if isinstance(e, TrickAmended)]
    assert [p.card for p in amended.trick.plays] == ["green-5", "green-2", "green-1"]
    assert amended.trick.flags == (
        "seat 1's black-9 was swapped for green-2 after the trick completed",
    )  # not "taken back": green-2 was never a card of the next trick
    cleared = next(k for k, e in enumerate(b.events) if isinstance(e, TableCleared))
    assert b.events.index(amended) < cleared and b.machine.members == []


def test_a_lead_on_the_leaders_own_card_after_a_pause_stays_the_lead() -> None:
    """Ben's hand hides his black-9 for a second before he leads purple-8 on it: the same
    sight as a swap until the sweep, which leaves purple-8 on the table."""
    b = Bench(leader=0)
    a, d = det("green-5", 0), det("green-1", 2)
    b.frames([a], 8)
    b.frames([a, det("black-9", 1)], 8)
    b.frames([a, det("black-9", 1), d], 10)
    b.machine.set_leader(1)
    lead = det("purple-8", 1)
    b.frames([a, d], 10)
    b.frames([a, lead, d], 10)
    b.frames([lead], 30)  # the old trick swept; the lead stays
    assert not [e for e in b.events if isinstance(e, TrickAmended)]
    played = [e for e in b.events if isinstance(e, CardPlayed)]
    assert (played[-1].face, played[-1].index) == ("purple-8", 1)


def test_a_swapped_card_pushed_aside_with_its_trick_amends_it() -> None:
    """Cai swaps his green-1 for green-2, then the trick is pushed aside face up with green-2
    on top, and it stays there while Ben leads: green-2 moved with the trick, so it was a swap
    (it used to be taken for the next trick's first card)."""
    b = Bench(leader=0)
    a, c, _ = _first_trick(b)
    b.frames([a, c], 10)
    b.frames([a, c, det("green-2", 2)], 10)
    x, y = spot(2)
    for k in range(1, 11):  # gathered under green-2 and pushed to Cai's edge
        b.frames(
            [card_detection("green-2", (x + 12 * k, y + 8 * k), angle=LAYOUT.angles[2] % math.pi)]
        )
    pile = card_detection("green-2", (x + 120, y + 80), angle=LAYOUT.angles[2] % math.pi)
    lead = det("purple-8", 1)
    b.frames([pile], 30)
    b.frames([pile, lead], 10)
    b.frames([lead], 30)  # the pile is taken away
    (amended,) = [e for e in b.events if isinstance(e, TrickAmended)]
    assert [p.card for p in amended.trick.plays] == ["green-5", "green-9", "green-2"]
    b.frames([lead, det("purple-2", 2)], 10)
    b.frames([lead, det("purple-2", 2), det("purple-1", 0)], 12)
    assert [p.card for p in b.completed()[1].plays] == ["purple-8", "purple-2", "purple-1"]


def test_misreads_under_the_sweeping_hand_are_not_a_trick() -> None:
    """Under a sleeve, Ana's and Cai's cards read green-6 and green-7 for a second as the trick
    is picked up, a moment longer than the real cards are seen: those readings went with the
    trick, and are neither the next trick's cards nor a swept trick of their own (which
    would put every later trick one place off)."""
    b = Bench(leader=0)
    a, c, d = _first_trick(b)
    b.machine.set_leader(1)
    b.frames([a, c, d], 5)
    b.frames([det("green-6", 0), c, det("green-7", 2)], 10)
    b.frames([det("green-6", 0), det("green-7", 2)], 2)
    b.frames([], 30)
    lead = det("purple-8", 1)
    b.frames([lead], 10)
    b.frames([lead, det("purple-2", 2)], 10)
    b.frames([lead, det("purple-2", 2), det("purple-1", 0)], 12)
    assert [[p.card for p in t.plays] for t in b.completed()] == [
        ["green-5", "green-9", "green-1"],
        ["purple-8", "purple-2", "purple-1"],
    ]


def test_a_card_taken_back_and_replaced_is_not_in_the_trick_swept_short() -> None:
    """Ana plays the Skull King, takes it back and plays green-5; Ben plays green-9; Cai's card
    is never seen and the trick is swept: Ana's card in it is green-5 alone (the Skull King
    used to be in it too, as a third card from her seat)."""
    b = Bench(leader=0)
    b.frames([det("skull-king", 0)], 10)
    b.frames([], 30)
    a, c = det("green-5", 0), det("green-9", 1)
    b.frames([a], 10)
    b.frames([a, c], 10)
    b.frames([], 30)
    (short,) = b.completed()
    assert short.swept and [p.card for p in short.plays] == ["green-5", "green-9"]
    assert short.taken_back == ("skull-king",)


def test_two_players_each_swap_a_card_before_the_pickup() -> None:
    """Ana swaps green-5 for green-3, then Cai green-1 for green-2: both swaps stand, and the
    trick says nothing was taken back (Cai's swap used to be lost, and the amended trick said
    green-2 was taken back). Then both at once."""
    for at_once in (False, True):
        b = Bench(leader=0)
        _, c, d = _first_trick(b)
        a2 = det("green-3", 0)
        if at_once:
            b.frames([c], 10)
            b.frames([a2, c], 10)
        else:
            b.frames([c, d], 10)
            b.frames([a2, c, d], 10)
            b.frames([a2, c], 10)
        b.frames([a2, c, det("green-2", 2)], 10)
        b.frames([], 30)
        last = [e for e in b.events if isinstance(e, TrickAmended)][-1]
        assert [p.card for p in last.trick.plays] == ["green-3", "green-9", "green-2"], at_once
        assert last.trick.taken_back == ()


def test_a_swap_while_the_arm_hides_a_neighbours_card_stands() -> None:
    """Cai's arm hides Ben's green-9 for over a second while he swaps green-1 for green-2."""
    b = Bench(leader=0)
    a, c, _ = _first_trick(b)
    b.frames([a], 10)  # Cai takes his card back, his arm over Ben's...
    b.frames([a, det("green-2", 2)], 8)  # ...and lays green-2, still over Ben's
    b.frames([a, c, det("green-2", 2)], 10)
    b.frames([], 30)
    (amended,) = [e for e in b.events if isinstance(e, TrickAmended)]
    assert [p.card for p in amended.trick.plays] == ["green-5", "green-9", "green-2"]


def _sparse_first_trick() -> tuple:
    """2 frames a second: Ana's green-5, Ben's green-9 and Cai's green-1 complete a trick,
    which Ben won."""
    b = Bench(leader=0, fps=2.0)
    cards = det("green-5", 0), det("green-9", 1), det("green-1", 2)
    b.frames(list(cards[:1]), 3)
    b.frames(list(cards[:2]), 3)
    b.frames(list(cards), 4)
    assert len(b.completed()) == 1
    b.machine.set_leader(1)
    return b, cards


def test_with_sparse_frames_a_card_swapped_in_and_seen_once_before_the_sweep_amends() -> None:
    """2 frames a second: Cai takes his green-1 back and lays green-2 in its place half a
    second before the pickup; green-2 is seen once, at rest, on the last frame the whole
    trick lies in view (in flight the frame before, under the sweeping hand the frame
    after). Seen once, green-2 never counted, and the trick kept green-1 (generated game t206
    at one frame in 5). So too where Ben swaps his green-9 and then leads purple-8 on that
    spot while the swept cards are still held: the lead counts, green-2 goes with the trick."""
    for seat, lead in ((2, None), (1, det("purple-8", 1))):
        b, cards = _sparse_first_trick()
        rest = [card for k, card in enumerate(cards) if k != seat]
        b.frames(rest, 4)  # the card is gone...
        b.frames([*rest, det("green-2", seat)])  # ...and green-2 seen once in its place
        b.frames([], 2)  # the sweeping hand
        b.frames([lead] if lead is not None else [], 12)
        (amended,) = [e for e in b.events if isinstance(e, TrickAmended)]
        before = cards[seat].card
        assert (amended.index, amended.before) == (seat, before), seat
        plays = ["green-5", "green-9", "green-1"]
        plays[seat] = "green-2"
        assert [p.card for p in amended.trick.plays] == plays
        assert amended.trick.flags == (
            f"seat {seat}'s {before} was swapped for green-2 after the trick completed",
        )
        if lead is not None:
            played = [e for e in b.events if isinstance(e, CardPlayed)]
            assert (played[-1].face, played[-1].index) == ("purple-8", 1)


def test_with_sparse_frames_a_card_misread_once_while_hidden_is_not_a_swap() -> None:
    """2 frames a second: a hand hides Cai's green-1 for two seconds, it reads green-7 on one
    frame, and it is seen again before the sweep: the card never left."""
    b, (a, c, d) = _sparse_first_trick()
    b.frames([a, c], 4)
    b.frames([a, c, det("green-7", 2)])
    b.frames([a, c, d], 2)
    b.frames([], 12)
    assert not [e for e in b.events if isinstance(e, TrickAmended)]


def test_cards_already_down_when_the_camera_starts_go_clockwise_from_the_leader() -> None:
    """The camera takes up a trick half played (a restart, or a trick entered by hand just
    now): Cai's card and Ben's lay there before its first frame, Ben's confirmed later (a
    detector's first miss). Their arrival says nothing of the play order: Ben, who the game
    expects to lead, led; Ana played after."""
    b = Bench(leader=1, seat_names=["Ana", "Ben", "Cai"])
    ben, cai, ana = det("purple-5", 1), det("yellow-13", 2), det("purple-1", 0)
    b.frames([cai], 2)
    b.frames([cai, ben], 12)
    b.frames([cai, ben, ana], 10)
    (trick,) = b.completed()
    assert trick.players == (1, 2, 0) and trick.leader == 1
    assert [p.card for p in trick.plays] == ["purple-5", "yellow-13", "purple-1"]
    assert trick.flags == ()
    # Played in front of the camera, the same order of arrival is a doubt worth a flag.
    _seen_arriving_is_flagged(1, [([], 12), ([cai], 12), ([cai, ben], 12), ([cai, ben, ana], 10)])


def test_cards_played_while_the_frames_stopped_go_clockwise_on() -> None:
    """Ana led in view; then the camera stalled for 2 s (frames dropped on a busy machine),
    and Ben and Cai played meanwhile. The detector confirmed Cai's card first: no reason to
    doubt a trick played in turn."""
    b = Bench(leader=0, seat_names=["Ana", "Ben", "Cai"])
    ana, ben, cai = det("green-5", 0), det("green-9", 1), det("green-2", 2)
    b.frames([], 5)
    b.frames([ana], 12)
    b.t += 2.0
    b.frames([ana, cai], 2)
    b.frames([ana, cai, ben], 12)
    (trick,) = b.completed()
    assert trick.players == (0, 1, 2) and trick.flags == ()
    # Seen arriving so, with no gap, the same order is a doubt worth a flag.
    _seen_arriving_is_flagged(0, [([], 5), ([ana], 12), ([ana, cai], 12), ([ana, cai, ben], 12)])


def _seen_arriving_is_flagged(leader: int, frames: list[tuple[list, int]]) -> None:
    """Cards arriving out of turn in front of the camera (``frames``: what each run of frames
    shows, and how many): the trick they complete is flagged, its play order and seats
    disagreeing."""
    watched = Bench(leader=leader)
    for dets, count in frames:
        watched.frames(dets, count)
    (seen,) = watched.completed()
    assert any("play order and seats disagree" in f for f in seen.flags)


def test_one_card_read_two_ways_in_turn_is_one_play() -> None:
    """A soft-focus camera reads Ana's black 5 as a black 1 after a hand hid it: a second
    track on the same spot. Both seen in turn, they are one card, and the trick waits for
    Cai's card instead of closing with two of Ana's."""
    b = Bench(leader=0, seat_names=["Ana", "Ben", "Cai"])
    five, one = det("black-5", 0), det("black-1", 0)
    b.frames([], 5)
    b.frames([five], 12)
    b.frames([], 7)  # a hand over it for 0.7 s
    for _ in range(6):
        b.frames([one], 2)
        b.frames([five], 1)
    ben = det("black-9", 1)
    for _ in range(4):
        b.frames([one, ben], 2)
        b.frames([five, ben], 1)
    assert b.completed() == []  # two cards down, not three
    b.frames([five, ben, det("black-2", 2)], 12)
    (trick,) = b.completed()
    assert trick.players == (0, 1, 2) and trick.flags == ()
    assert [p.card for p in trick.plays][1:] == ["black-9", "black-2"]


def test_a_card_swapped_on_the_same_spot_is_not_joined_to_the_old_one() -> None:
    """Ana takes her black 5 back and lays a black 1 where it lay: the black 5 is not seen
    again, so the black 1 is her play."""
    b = Bench(leader=0, seat_names=["Ana", "Ben", "Cai"])
    b.frames([], 5)
    b.frames([det("black-5", 0)], 12)
    b.frames([], 7)
    one = det("black-1", 0)
    b.frames([one], 30)
    b.frames([one, det("black-9", 1), det("black-2", 2)], 12)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["black-1", "black-9", "black-2"]


def test_a_card_laid_on_another_seen_together_is_not_joined_to_it() -> None:
    """A crowded middle: Ben lays his yellow-7 nearly on Ana's yellow-14, and both are read
    while it lands, then the yellow-14 is hidden. Two cards seen on one frame are two plays,
    not one card read two ways. Was: the yellow-7 joined the yellow-14's track, Ana's card
    was lost and the trick swept a card short (an 8-player replay, session 49)."""
    b = Bench(leader=0, seat_names=["Ana", "Ben", "Cai"])
    under = card_detection("yellow-14", spot(0, radius=5), angle=0.3)
    landing = card_detection("yellow-7", spot(1, radius=14), angle=0.3)
    on_top = card_detection("yellow-7", spot(1, radius=5), angle=0.3)
    assert _iou(under.box, on_top.box) > b.tracker.config.merge_iou  # one spot, it seems...
    b.frames([], 5)
    b.frames([under], 12)
    b.frames([under, landing], 6)  # ...but both read while the yellow-7 lands
    b.frames([on_top], 10)  # on the yellow-14, which it hides
    b.frames([on_top, det("yellow-2", 2)], 40)
    b.frames([], 40)  # swept
    played = [(e.face, e.seat) for e in b.events if isinstance(e, CardPlayed)]
    assert played[:2] == [("yellow-14", 0), ("yellow-7", 1)]
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["yellow-14", "yellow-7", "yellow-2"]
    assert trick.players == (0, 1, 2)


def test_a_card_caught_in_the_hand_by_a_frozen_picture_is_not_taken_back() -> None:
    """The picture froze for 2 s with Ben's card still in his hand, above the table: read
    there, it came to rest as a play. When the picture moved again it lay 60 px on, where he
    laid it. One deck: the same card, moved unseen, not taken back and played again."""
    b = Bench(leader=0, seat_names=["Ana", "Ben", "Cai"])
    ana, cai = det("green-5", 0), det("green-2", 2)
    x, y = spot(1)
    in_hand = card_detection("green-9", (x - 45, y - 40), angle=LAYOUT.angles[1] % math.pi)
    b.frames([], 5)
    b.frames([ana], 12)
    frozen_at = b.t
    b.frames([ana, in_hand], 20)  # the repeated picture: read as it was
    gone = b.tracker.update([ana, det("green-9", 1)], b.t)
    b.events.extend(b.machine.update(b.tracker, gone, b.t, stale_since=frozen_at))
    b.t += 1 / FPS
    b.frames([ana, det("green-9", 1)], 25)
    b.frames([ana, det("green-9", 1), cai], 12)
    (trick,) = b.completed()
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-2"]
    assert trick.players == (0, 1, 2)
    assert trick.taken_back == () and trick.flags == ()
