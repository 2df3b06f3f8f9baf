"""Seats after the camera was knocked: a trick is seated around its own cards, the live table
centre follows the tricks, and cards laid unseen in one seat go by their exact direction."""

from __future__ import annotations

import math

import pytest

from skullcam.device.scripted import card_detection
from skullcam.vision.seats import SeatLayout
from skullcam.vision.table_drift import TableDrift
from skullcam.vision.tracker import Tracker
from skullcam.vision.trick_state import CardPlayed, TrickCompleted, TrickStateMachine

FPS = 10.0
EIGHT = SeatLayout.default(8)
KNOCK = (50.0, 0.0)
"""A camera knocked sideways: every card 50 px to the right of where it lay before."""


def faces(suit: str) -> list[str]:
    """Eight cards of one suit: one deck, so no card comes back within a round."""
    return [f"{suit}-{k}" for k in range(1, 9)]


FACES = faces("green")


def spot(seat: int, shift: tuple[float, float] = (0.0, 0.0), radius: float = 110.0):
    a = EIGHT.angles[seat]
    return (320 + radius * math.cos(a) + shift[0], 240 + radius * math.sin(a) + shift[1])


class Table:
    def __init__(self, layout: SeatLayout = EIGHT, leader: int = 0) -> None:
        self.tracker = Tracker()
        self.machine = TrickStateMachine(layout, leader=leader)
        self.t = 0.0
        self.events: list = []

    def frames(self, dets: list, count: int = 1) -> None:
        for _ in range(count):
            gone = self.tracker.update(dets, self.t)
            self.events.extend(self.machine.update(self.tracker, gone, self.t))
            self.t += 1 / FPS

    def play_trick(self, faces: list[str], shift: tuple[float, float], leader: int = 0) -> None:
        """Each player in turn lays a card in front of them; then the trick is picked up."""
        down: list = []
        for k, face in enumerate(faces):
            seat = (leader + k) % len(faces)
            angle = EIGHT.angles[seat] % math.pi
            down.append(card_detection(face, spot(seat, shift), angle=angle))
            self.frames(down, 8)
        self.frames(down, 6)
        self.frames([], 30)

    def completed(self) -> list:
        return [e.trick for e in self.events if isinstance(e, TrickCompleted)]


def test_a_trick_laid_after_a_knock_is_seated_around_its_own_cards() -> None:
    # The fixed centre puts some of these cards in the next seat: the case is real.
    shifted = [spot(seat, KNOCK) for seat in range(8)]
    assert [EIGHT.seat_of(p) for p in shifted] != list(range(8))
    table = Table()
    table.play_trick(FACES, KNOCK)
    (trick,) = table.completed()
    assert trick.players == tuple(range(8))
    assert trick.arrival_seats == tuple(range(8))
    assert trick.flags == ()
    assert trick.seat_centre == pytest.approx((320 + KNOCK[0], 240 + KNOCK[1]), abs=1.0)


def test_the_live_centre_follows_the_tricks_so_cards_are_seated_as_they_land() -> None:
    table = Table()
    table.play_trick(FACES, KNOCK)
    assert table.machine.layout.centre == (320.0, 240.0)  # one trick could be a stray
    table.play_trick(faces("purple"), KNOCK)
    assert table.machine.layout.centre == pytest.approx((370.0, 240.0), abs=1.0)
    table.events.clear()
    table.play_trick(faces("yellow"), KNOCK)
    seats = [e.seat for e in table.events if isinstance(e, CardPlayed)]
    assert seats == list(range(8))
    assert all(t.flags == () for t in table.completed())


def test_two_cards_in_one_seat_are_still_flagged_not_explained_by_a_moved_centre() -> None:
    """Seat 2's card lies in seat 1's zone, seat 2's spot is empty: the mean of the cards
    moves towards seat 1, but the cards sit no squarer around it."""
    three = SeatLayout.default(3)
    machine = TrickStateMachine(three, leader=0)
    tracker = Tracker()

    def at(seat: int, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        a = three.angles[seat]
        return (320 + 95 * math.cos(a) + dx, 240 + 95 * math.sin(a) + dy)

    cards = [
        card_detection("green-5", at(0)),
        card_detection("green-9", at(1)),
        card_detection("green-1", at(1, 50, -30)),
    ]
    events: list = []
    t = 0.0
    for k in range(1, 4):
        for _ in range(8):
            events += machine.update(tracker, tracker.update(cards[:k], t), t)
            t += 0.1
    (trick,) = [e.trick for e in events if isinstance(e, TrickCompleted)]
    assert any("do not name every player" in f for f in trick.flags)
    assert trick.seat_centre == (320.0, 240.0)


def test_cards_laid_unseen_in_one_seat_go_clockwise_by_their_direction() -> None:
    """Ana led in view; the camera stalled while Ben and Cai played. Cai's card lies near
    Ben's side of his seat, so both read as Ben's seat; the detector confirmed Cai's first.
    Clockwise, Ben's card comes first: it is Ben's play, Cai's card is Cai's."""
    three = SeatLayout.default(3)
    machine = TrickStateMachine(three, leader=0)
    tracker = Tracker()
    events: list = []
    t = 0.0

    def run(dets: list, count: int) -> None:
        nonlocal t
        for _ in range(count):
            events.extend(machine.update(tracker, tracker.update(dets, t), t))
            t += 0.1

    def at(degrees: float) -> tuple[float, float]:
        a = math.radians(degrees)
        return (320 + 95 * math.cos(a), 240 + 95 * math.sin(a))

    # Seats: Ana 90 (bottom), Ben 210, Cai 330 degrees; a seat's zone is +-60 degrees.
    ana = card_detection("green-5", at(90))
    ben = card_detection("green-9", at(190))
    cai = card_detection("green-2", at(250))  # in Ben's zone, clockwise of Ben's card
    assert [three.seat_of(at(d)) for d in (190, 250)] == [1, 1]
    run([], 5)
    run([ana], 12)
    t += 2.0
    run([ana, cai], 2)
    run([ana, cai, ben], 12)
    (trick,) = [e.trick for e in events if isinstance(e, TrickCompleted)]
    assert [p.card for p in trick.plays] == ["green-5", "green-9", "green-2"]
    assert trick.players == (0, 1, 2)


def test_the_live_centre_is_the_median_of_recent_complete_tricks() -> None:
    drift = TableDrift(SeatLayout.default(4))
    square = [(0.0, 100.0), (-100.0, 0.0), (0.0, -100.0), (100.0, 0.0)]

    def trick(dx: float, dy: float) -> list[tuple[float, float]]:
        return [(320 + x + dx, 240 + y + dy) for x, y in square]

    drift.add_trick(trick(40, 0)[:3])  # a short trick says nothing of the centre
    assert drift.layout.centre == (320.0, 240.0)
    drift.add_trick(trick(40, 0))
    assert drift.layout.centre == (320.0, 240.0)  # the calibration still outvotes one trick
    drift.add_trick(trick(40, 0))
    assert drift.layout.centre == (360.0, 240.0) and drift.moved_px == 40.0
    tossed = trick(40, 0)
    tossed[0] = (tossed[0][0], tossed[0][1] + 400)  # one card far out: its trick is outvoted
    drift.add_trick(tossed)
    assert drift.layout.centre == (360.0, 240.0)
    assert drift.layout.angles == drift.calibrated.angles
