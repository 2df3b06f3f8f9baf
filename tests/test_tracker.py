"""Tracker unit tests on scripted detections: identity, voting, occlusion, nudges, take-backs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from skullcam.device.scripted import card_detection
from skullcam.vision.detection import Detection
from skullcam.vision.tracker import Tracker, TrackerConfig, centre_in_frame

FPS = 10.0


def run(tracker: Tracker, frames: list[list], t0: float = 0.0) -> list:
    gone = []
    for i, dets in enumerate(frames):
        gone.extend(tracker.update(dets, t0 + i / FPS))
    return gone


def test_a_still_card_becomes_stable_after_settle_time() -> None:
    tracker = Tracker(TrackerConfig(settle_s=0.35, min_hits=3))
    det = card_detection("green-7", (320, 340))
    run(tracker, [[det]] * 3)
    (track,) = tracker.tracks.values()
    assert not track.stable
    run(tracker, [[det]] * 2, t0=0.3)
    assert track.stable
    assert track.arrival == 0.0
    assert track.card == "green-7"


def test_a_card_covered_after_lying_still_a_while_becomes_stable_unseen() -> None:
    """Seen lying still for ``covered_rest_s`` and then hidden (a hand over it), a card is
    stable once it has lain ``settle_s``, arrived when it came to rest; seen still for less
    (a card held over the table a moment), it is not."""
    tracker = Tracker(TrackerConfig(settle_s=0.35, min_hits=3, covered_rest_s=0.2))
    run(tracker, [[card_detection("green-7", (320, 340))]] * 3 + [[]] * 2)
    (track,) = tracker.tracks.values()
    assert track.stable and track.arrival == 0.0 and track.stable_at == 0.4
    held = Tracker(TrackerConfig(settle_s=0.35, min_hits=3, covered_rest_s=0.25))
    run(held, [[card_detection("green-7", (320, 340))]] * 3 + [[]] * 5)
    assert not next(iter(held.tracks.values())).stable


def test_one_frame_wrong_class_is_outvoted() -> None:
    tracker = Tracker()
    good = card_detection("yellow-12", (300, 300))
    bad = card_detection("yellow-2", (300, 300), confidence=0.99)
    run(tracker, [[good]] * 4 + [[bad]] + [[good]] * 4)
    (track,) = tracker.tracks.values()
    assert track.card == "yellow-12"
    assert len(tracker.tracks) == 1


def test_two_boxes_on_one_card_are_one_card() -> None:
    tracker = Tracker()
    a = card_detection("purple-3", (300, 300), confidence=0.9)
    b = card_detection("purple-8", (302, 301), confidence=0.6)
    run(tracker, [[a, b]] * 6)
    assert len(tracker.tracks) == 1
    assert next(iter(tracker.tracks.values())).card == "purple-3"


def test_occlusion_shorter_than_lost_time_keeps_identity() -> None:
    tracker = Tracker(TrackerConfig(lost_s=1.5))
    det = card_detection("black-14", (320, 150))
    gone = run(tracker, [[det]] * 6 + [[]] * 12 + [[det]] * 3)
    assert gone == []
    (track,) = tracker.tracks.values()
    assert track.id == 1 and track.stable


def test_missed_frames_here_and_there_do_not_break_a_track() -> None:
    tracker = Tracker()
    det = card_detection("escape", (200, 240))
    frames = [[det] if i % 3 else [] for i in range(30)]
    assert run(tracker, frames) == []
    assert len(tracker.tracks) == 1


def test_card_removed_is_reported_gone_after_lost_time() -> None:
    tracker = Tracker(TrackerConfig(lost_s=1.0))
    det = card_detection("mermaid-alyra", (320, 330))
    gone = run(tracker, [[det]] * 6 + [[]] * 12)
    assert [tr.card for tr in gone] == ["mermaid-alyra"]
    assert tracker.tracks == {}


def test_one_frame_false_positive_never_becomes_a_track() -> None:
    tracker = Tracker()
    ghost = card_detection("kraken", (100, 100))
    gone = run(tracker, [[ghost]] + [[]] * 10)
    assert gone == [] and tracker.tracks == {}


def test_nudge_keeps_identity_and_arrival() -> None:
    tracker = Tracker()
    before = card_detection("skull-king", (320, 340))
    after = card_detection("skull-king", (335, 352))  # about a third of a card away
    run(tracker, [[before]] * 8)
    (track,) = tracker.tracks.values()
    arrival = track.arrival
    run(tracker, [[after]] * 8, t0=0.8)
    assert len(tracker.tracks) == 1
    assert track.arrival == arrival and track.nudges == 1


def test_nudge_while_hidden_keeps_identity() -> None:
    tracker = Tracker()
    before = card_detection("pirate-rosie", (320, 340))
    after = card_detection("pirate-rosie", (345, 360))
    run(tracker, [[before]] * 8 + [[]] * 5 + [[after]] * 5)
    assert list(tracker.tracks) == [1]


def test_two_neighbouring_cards_keep_their_own_identities() -> None:
    tracker = Tracker()
    a = card_detection("green-1", (300, 300))
    b = card_detection("green-2", (345, 300))
    run(tracker, [[a, b]] * 6 + [[b]] * 3 + [[a, b]] * 3)
    cards = sorted(tr.card for tr in tracker.tracks.values())
    assert cards == ["green-1", "green-2"]


def test_overlapping_cards_seen_on_one_frame_are_marked_two_cards() -> None:
    """A card laid half on another: both read on the same frames, so neither may later be
    taken for the other read another way. A card beside them, not touching, is not marked;
    nor is one read only after the other was gone."""
    tracker = Tracker()
    under = card_detection("yellow-14", (300, 240))
    on_top = card_detection("yellow-7", (330, 250))
    apart = card_detection("green-2", (450, 240))
    run(tracker, [[under]] * 3 + [[under, on_top, apart]] * 3)
    by_face = {tr.card: tr for tr in tracker.tracks.values()}
    assert by_face["yellow-14"].seen_with == {by_face["yellow-7"].id}
    assert by_face["yellow-7"].seen_with == {by_face["yellow-14"].id}
    assert by_face["green-2"].seen_with == set()
    later = card_detection("purple-3", (300, 240))
    run(tracker, [[later]] * 3, t0=1.0)
    assert by_face["yellow-14"].seen_with == {by_face["yellow-7"].id}
    tracker.merge(by_face["green-2"], by_face["yellow-7"].id)  # the yellow-7 was the green-2
    assert by_face["yellow-14"].seen_with == {by_face["green-2"].id}
    assert by_face["green-2"].seen_with == {by_face["yellow-14"].id}


def test_a_card_laid_on_a_still_card_does_not_take_over_its_track() -> None:
    """The next lead laid straight onto the leader's own card of the last trick: both were
    read on the frame the lead came down, so the lead's detection where the covered card lies
    is the lead (its own track), not the covered card misread."""
    tracker = Tracker()
    under = card_detection("black-8", (205, 185))
    run(tracker, [[under]] * 6)
    flying = card_detection("purple-11", (178, 158))
    landed = card_detection("purple-11", (205, 177))
    run(tracker, [[under, flying]] + [[landed]] * 10, t0=0.6)
    assert sorted(tr.card for tr in tracker.tracks.values()) == ["black-8", "purple-11"]


def test_arrival_order_is_when_cards_came_to_rest() -> None:
    tracker = Tracker()
    a = card_detection("green-1", (320, 380))
    b = card_detection("green-2", (200, 240))
    run(tracker, [[a]] * 5 + [[a, b]] * 6)
    order = [tr.card for tr in tracker.stable_tracks()]
    assert order == ["green-1", "green-2"]


def test_mean_angle_averages_over_half_turns() -> None:
    tracker = Tracker()
    frames = [[card_detection("tigress", (300, 300), angle=a)] for a in (0.02, math.pi - 0.02)]
    run(tracker, frames * 3)
    (track,) = tracker.tracks.values()
    assert min(track.mean_angle, math.pi - track.mean_angle) < 0.05


FRAME = (640, 480)
WHOLE_CUT_CARD = [(300, 437), (356, 437), (356, 524), (300, 524)]
"""A 56 x 87 px card across the frame's bottom edge, 43 px of it in view."""
PART_IN_VIEW = [(300, 437), (356, 437), (356, 480), (300, 480)]


def test_a_cut_card_is_placed_at_the_middle_of_its_part_in_view() -> None:
    whole = Detection.from_corners("black-7", 0.9, np.array(WHOLE_CUT_CARD, float))
    part = Detection.from_corners("black-7", 0.9, np.array(PART_IN_VIEW, float))
    assert centre_in_frame(whole, FRAME) == pytest.approx([328.0, 458.5])
    assert centre_in_frame(part, FRAME) == pytest.approx([328.0, 458.5])
    assert centre_in_frame(whole, None) == pytest.approx([328.0, 480.5])


def test_a_card_in_view_keeps_its_own_centre() -> None:
    det = card_detection("green-7", (320, 240), angle=0.6)
    assert centre_in_frame(det, FRAME) == pytest.approx(det.center)


def test_a_turned_card_over_a_frame_corner_is_clipped_to_its_part_in_view() -> None:
    # A 20 x 20 square turned 45 degrees, centred on the frame's top-left corner: the part in
    # view is the quarter between the two edges, a right triangle with legs 10 * sqrt(2).
    r = 10 * math.sqrt(2)
    det = Detection.from_corners("escape", 0.9, np.array([(0, -r), (r, 0), (0, r), (-r, 0)]))
    assert centre_in_frame(det, FRAME) == pytest.approx([r / 3, r / 3])


def test_a_cut_card_read_on_both_outlines_in_turn_comes_to_rest() -> None:
    """The first look reports a cut card on its part in view, the edge look on the whole card
    (vision/frame_edge.py); a card read either way on alternate frames must still settle."""
    whole = Detection.from_corners("black-7", 0.9, np.array(WHOLE_CUT_CARD, float))
    part = Detection.from_corners("black-7", 0.9, np.array(PART_IN_VIEW, float))
    frames = [[whole], [part]] * 5
    told = Tracker()
    for i, dets in enumerate(frames):
        told.update(dets, i / FPS, FRAME)
    (track,) = told.tracks.values()
    assert track.stable and track.arrival == 0.0
    untold = Tracker()  # without the frame's size the two centres lie 0.2 diagonals apart
    run(untold, frames)
    (track,) = untold.tracks.values()
    assert not track.stable


def test_a_card_wholly_outside_the_frame_keeps_its_own_centre() -> None:
    det = card_detection("green-7", (800, 240))
    assert centre_in_frame(det, FRAME) == pytest.approx(det.center)


def _every(step: float, frames: list[list[Detection]], t0: float = 0.0) -> Tracker:
    """A tracker fed ``frames`` ``step`` seconds apart (a camera thinned by a busy machine)."""
    tracker = Tracker()
    for i, dets in enumerate(frames):
        tracker.update(dets, t0 + i * step)
    return tracker


def test_a_card_seen_twice_at_rest_between_sparse_frames_is_played() -> None:
    """One frame in 3 of a 10 frames/s camera: the last card, laid 0.7 s before the sweep, is
    seen at rest on two frames 0.3 s apart. It lay still about 0.45 s and is played; counted
    in frames (3 sightings, 0.35 s from the first) it never was, and the trick was short."""
    card = card_detection("green-7", (320, 340))
    tracker = _every(0.3, [[], [], [], [card], [card]])
    (track,) = tracker.tracks.values()
    assert tracker.sparse and track.stable and track.arrival == pytest.approx(0.9)


def test_sparse_frames_keep_an_unconfirmed_card_through_one_missed_frame() -> None:
    card = card_detection("green-7", (320, 340))
    tracker = _every(0.4, [[], [], [card], [], [card], [card]])
    (track,) = tracker.tracks.values()
    assert track.hits == 3 and track.stable


def test_at_full_rate_two_sightings_confirm_nothing_and_one_never_does() -> None:
    """The frame counts hold at a camera's own rate (10 frames/s): two sightings are not a
    card; and at any rate a card seen on one frame only is not one (a false positive)."""
    card = card_detection("green-7", (320, 340))
    full = _every(0.1, [[], [], [], [card], [card]])
    (track,) = full.tracks.values()
    assert not full.sparse and not full.confirmed(track) and not track.stable
    sparse = _every(0.3, [[], [], [], [card], []])
    (track,) = sparse.tracks.values()
    assert sparse.sparse and not sparse.confirmed(track)
    assert _every(0.3, [[], [], [], [card], [], [], []]).tracks == {}


def test_one_stalled_frame_does_not_make_the_frames_sparse() -> None:
    card = card_detection("green-7", (320, 340))
    tracker = Tracker()
    for i in range(8):
        tracker.update([], i / FPS)
    tracker.update([card], 2.0)  # a 1.3 s stall
    tracker.update([card], 2.1)
    assert not tracker.sparse
    (track,) = tracker.tracks.values()
    assert not tracker.confirmed(track)


def test_with_sparse_frames_a_card_rests_from_the_middle_of_the_gap_before_it_was_seen() -> None:
    """Frames 0.2 s apart but for a 0.4 s gap (a busy machine drops frames at random) just as
    the last card lands: seen at rest 3 times in 0.2 s, it has lain still about 0.4 s (since
    the middle of the gap), and is played; by the usual gap it had lain 0.3 s, and the sweep
    took it first."""
    card = card_detection("escape", (320, 340))
    times = [0.0, 0.2, 0.4, 0.6, 0.8, 1.2, 1.3, 1.4]
    tracker = Tracker()
    for t in times:
        tracker.update([card] if t >= 1.2 else [], t)
    (track,) = tracker.tracks.values()
    assert tracker.frame_interval == pytest.approx(0.2) and track.stable


def test_with_sparse_frames_a_lead_laid_on_a_played_card_is_a_card_of_its_own() -> None:
    """2.5 frames/s: the next lead is first seen already down on a played card, which was
    still seen on the frame before and is hidden from then on. The lead, a fifth of a
    diagonal off where the card lies, is a new card: the played card keeps its face."""
    played = card_detection("green-12", (300, 300))
    lead = card_detection("purple-8", (312, 290), confidence=0.9)
    tracker = _every(0.4, [[played]] * 3 + [[lead]] * 4)
    by_face = {tr.card: tr for tr in tracker.tracks.values()}
    assert sorted(by_face) == ["green-12", "purple-8"]
    assert by_face["green-12"].arrival == 0.0 and by_face["purple-8"].stable


def test_with_sparse_frames_a_played_card_misread_where_it_lies_stays_one_card() -> None:
    """A played card read as green-10 and green-14 in turn where it lies is one card, not a
    second card laid on it."""
    ten = card_detection("green-10", (300, 300))
    fourteen = card_detection("green-14", (301, 299), confidence=0.9)
    tracker = _every(0.4, [[ten]] * 3 + [[fourteen], [fourteen], [ten], [fourteen]])
    (track,) = tracker.tracks.values()
    assert track.card == "green-10" and track.stable


def test_a_card_of_the_completed_trick_is_held_to_the_faces_read_before_its_last_own_read() -> None:
    """2 frames a second, the trick complete (its cards ``closing``): green-10 read as green-14
    between two reads as itself is one card misread, still; purple-8 first read after green-12
    was last read is a card laid on it (the next lead), a track of its own."""
    ten, fourteen = card_detection("green-10", (300, 300)), card_detection("green-14", (300, 300))
    misread = Tracker()
    for i, dets in enumerate([[ten]] * 2 + [[fourteen], [ten]]):
        misread.update(dets, i * 0.5)
    misread.closing = frozenset(misread.tracks)
    misread.update([fourteen], 2.0)
    (card,) = misread.tracks.values()
    assert card.card == "green-10" and card.last_seen == 2.0
    played = card_detection("green-12", (300, 300))
    lead = card_detection("purple-8", (300, 300))
    laid_on = Tracker()
    for i, dets in enumerate([[played]] * 3 + [[lead]]):
        laid_on.update(dets, i * 0.5)
    laid_on.closing = frozenset(laid_on.tracks)
    laid_on.update([lead], 2.0)
    by_face = {tr.card: tr for tr in laid_on.tracks.values()}
    assert sorted(by_face) == ["green-12", "purple-8"] and by_face["green-12"].last_seen == 1.5


def test_at_a_cameras_rate_a_card_of_the_completed_trick_misread_late_stays_one_card() -> None:
    """10 frames a second: a lead is seen arriving, a track of its own, so a card of the
    complete trick read as another face only from its last frames on (a hand's shadow) is that
    card misread, not a new card laid on it (which would be a phantom lead)."""
    played = card_detection("green-12", (300, 300))
    misread = card_detection("purple-8", (300, 300))
    tracker = Tracker()
    for i, dets in enumerate([[played]] * 8 + [[misread]] * 3):
        tracker.update(dets, i * 0.1)
    tracker.closing = frozenset(tracker.tracks)
    tracker.update([misread], 1.1)
    (card,) = tracker.tracks.values()
    assert card.card == "green-12" and card.last_seen == 1.1
