"""Whose card is whose in a completed trick: the seats its cards lie in, the layout they are read
with (the live one, or the trick's own when it reads them better), and the play order, with the
cards laid while the camera saw nothing put in turn.

:class:`~skullcam.vision.trick_state.TrickStateMachine` builds each trick's observation with it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from functools import partial

from skullcam.vision.blind_stretches import BlindStretches
from skullcam.vision.seats import TAU, SeatLayout, angle_of, centroid
from skullcam.vision.table_drift import TableDrift, fitted_turn
from skullcam.vision.tracker import Track


class TrickSeating:
    """Reads a trick's seats and play order from the live layout (which follows the table's
    drift) or from the trick's own centre and turn."""

    def __init__(self, drift: TableDrift, n_players: int, blind: BlindStretches) -> None:
        self.drift = drift
        self.n_players = n_players
        self.blind = blind

    @property
    def layout(self) -> SeatLayout:
        """The seats as read now (:attr:`TableDrift.layout`)."""
        return self.drift.layout

    def seating(
        self, tracks: Sequence[Track], centres: Sequence[tuple[float, float]], leader: int | None
    ) -> tuple[SeatLayout, list[int]]:
        """The layout to read this trick's seats with, and its cards' play order (indices).

        The live layout, unless the trick is complete and its own centre (the mean of its
        cards: one in front of each player) and own turn (:func:`fitted_turn`) read it better
        (every player once, then in turn) and seat its cards more squarely (the card farthest
        from its seat's direction nearer to it). A camera knocked or turned mid-trick, before
        the live layout has followed it, turned cards near a seat's edge into the next seat;
        the trick's own centre and turn move with the picture. Two cards laid in one seat pull
        the mean towards them but sit no squarer around it, so they are still flagged, not
        explained away. Nor is a trick read in turn but led from another seat than the
        expected leader's: a turn of half a seat reads every card one seat round as well as
        in place, and the live layout's reading (flagged) is the safer one."""
        live_seats, live_order, live_skew = self._seated(self.layout, tracks, centres, leader)
        if len(tracks) != self.n_players:
            return self.layout, live_order
        live_fit = self._fit(live_seats, leader)
        moved = dataclasses.replace(self.layout, centre=centroid(centres))
        turn = fitted_turn(moved, centres)
        for own_layout in ([] if turn is None else [moved.turned(turn)]) + [moved]:
            seats, order, skew = self._seated(own_layout, tracks, centres, leader)
            fit = self._fit(seats, leader)
            led_elsewhere = fit == (True, True) and leader is not None and seats[0] != leader
            if fit > live_fit and skew < live_skew and not led_elsewhere:
                return own_layout, order
        return self.layout, live_order

    def _seated(
        self,
        layout: SeatLayout,
        tracks: Sequence[Track],
        centres: Sequence[tuple[float, float]],
        leader: int | None,
    ) -> tuple[list[int], list[int], float]:
        """Seats from ``layout``: the cards' seats in play order, the play order (indices), and
        how far the least square card lies from its seat's direction (radians)."""
        seats = [layout.seat_of(c) for c in centres]
        order = self._unseen_in_turn(seats, tracks, leader, layout, centres)
        skew = max(layout.seat_offset(c) for c in centres)
        return [seats[i] for i in order], order, skew

    def _fit(self, arrival_seats: Sequence[int], leader: int | None) -> tuple[bool, bool]:
        """How well seats in arrival order read as a trick: every player once, then in turn
        (clockwise from the leader, or from the first card)."""
        n, seats = self.n_players, list(arrival_seats)
        every = len(set(seats)) == len(seats) == n
        starts = {seats[0]} if leader is None else {seats[0], leader}
        in_turn = any(seats == [(s + k) % n for k in range(len(seats))] for s in starts)
        return every, in_turn

    def _unseen_in_turn(
        self,
        seats: Sequence[int],
        tracks: Sequence[Track],
        leader: int | None,
        layout: SeatLayout,
        centres: Sequence[tuple[float, float]],
    ) -> list[int]:
        """The play order of ``tracks`` (indices; they come in arrival order, sitting in
        ``seats``) with the cards played while the camera saw nothing (before its first frame,
        or in a gap) in turn: clockwise on from the card before them, from ``leader`` when
        none came before. Their arrival is when the detector first confirmed each, not when
        each was played: in that order, a trick half played when the camera takes up a trick
        entered by hand would be led by whoever came first, or flagged "play order and seats
        disagree". Two such cards named one seat go by their exact direction, clockwise, since
        their arrival order says nothing of them."""
        seen_in = [self.blind.window(tr) for tr in tracks]
        groups: dict[int, list[int]] = {}
        for i, k in enumerate(seen_in):
            if k is not None:
                groups.setdefault(k, []).append(i)
        arrival = list(range(len(tracks)))
        if all(len(group) < 2 for group in groups.values()):
            return arrival
        n = self.n_players

        def clockwise_from(start: int, i: int) -> tuple[int, float]:
            off = (angle_of(centres[i], layout.centre) - layout.angles[seats[i]] + math.pi) % TAU
            return (seats[i] - start) % n, off

        ordered: list[int] = []
        for i, k in zip(arrival, seen_in, strict=True):
            if k is None or len(groups[k]) < 2:
                ordered.append(i)
            elif i == groups[k][0]:  # the group goes where its first card arrived
                start = (seats[ordered[-1]] + 1) % n if ordered else leader
                group = groups[k]
                if start is not None:
                    group = sorted(group, key=partial(clockwise_from, start))
                ordered += group
        return ordered
