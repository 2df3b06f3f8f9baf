"""The trick state machine: stable tracks in, played cards and completed tricks out.

Phases, one trick at a time:

``COLLECTING``
    Every track that becomes stable (see :mod:`skullcam.vision.tracker`) is a played card; its
    arrival (when it came to rest) gives the play order. A played card that disappears for good
    before the trick completes was *taken back*: it leaves the trick and the event says so; so
    was one whose seat holds a newer card that came to rest while it still counted as in
    view (within ``visible_s`` of its last sighting). Not a card the game went on past whose
    seat's newer card came to rest after every later player's: that one is the winner's
    early lead, laid on his card hidden under a hand, and joins the next trick.
    The trick is complete when as many cards as players are played, each is in view (or, one in
    front of each player, only covered since a card of them in view was laid) and has not
    moved for ``still_s``, and the scene is still (frame motion under ``motion_threshold``; after
    ``max_wait_s`` a restless scene no longer holds the trick back).
``CLEARING``
    Every card on the table at completion belongs to the finished trick. When all of them are gone
    the table is clear and the next trick starts. Cards played for the next trick before the old
    ones are all gone are kept and join it in their arrival order.

Seats check order: the leader is known (from the game), play goes clockwise, and each card's
position gives its seat (:class:`~skullcam.vision.seats.SeatLayout`). When arrival order and
seats disagree the trick is *flagged*; the plays follow the seats when they name every player
exactly once (positions are what a person checks on the annotated image), else arrival order.
Nothing is silently guessed: every such choice leaves a flag on the trick.

What the machine reports (phases, tuning, tricks, events) is in
:mod:`~skullcam.vision.trick_events`; a trick's seats and play order are read by
:class:`~skullcam.vision.trick_seating.TrickSeating`, and the stretches the camera saw nothing
are kept by :class:`~skullcam.vision.blind_stretches.BlindStretches`; what tells a trick swept
before it completed, by :class:`~skullcam.vision.sweep_memory.SweepMemory`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence

import numpy as np

from skullcam.rules.table import led_unexpectedly
from skullcam.rules.table import tigress_flag as tigress_flag
from skullcam.vision.blind_stretches import BlindStretches
from skullcam.vision.motion_meter import MotionMeter as MotionMeter
from skullcam.vision.seats import SeatLayout, crosswise_degrees, turn_between
from skullcam.vision.sweep_memory import SweepMemory
from skullcam.vision.table_drift import TableDrift
from skullcam.vision.tracker import Track, Tracker
from skullcam.vision.trick_events import COPIES as COPIES
from skullcam.vision.trick_events import RECENT_KEPT as RECENT_KEPT
from skullcam.vision.trick_events import CardPlayed as CardPlayed
from skullcam.vision.trick_events import CardTakenBack as CardTakenBack
from skullcam.vision.trick_events import Event as Event
from skullcam.vision.trick_events import Phase as Phase
from skullcam.vision.trick_events import PlayedCard as PlayedCard
from skullcam.vision.trick_events import TableCleared as TableCleared
from skullcam.vision.trick_events import TrickAmended as TrickAmended
from skullcam.vision.trick_events import TrickCompleted as TrickCompleted
from skullcam.vision.trick_events import TrickConfig as TrickConfig
from skullcam.vision.trick_events import TrickObservation as TrickObservation
from skullcam.vision.trick_events import rounded_point as rounded_point
from skullcam.vision.trick_events import swap_flag as swap_flag
from skullcam.vision.trick_seating import TrickSeating


def assign_faces(tracks: Sequence[Track]) -> tuple[list[str], list[str]]:
    """Voted faces for tracks of one trick, so that no unique card is claimed twice.

    The track with the stronger vote keeps a contested face; the other falls back to its
    best uncontested runner-up face. Returns the faces and a flag per contest.
    """
    faces = [tr.card for tr in tracks]
    flags: list[str] = []
    order = sorted(range(len(tracks)), key=lambda i: -tracks[i].votes[faces[i]])
    taken: dict[str, int] = {}
    for i in order:
        face = faces[i]
        if taken.get(face, 0) < COPIES.get(face, 1):
            taken[face] = taken.get(face, 0) + 1
            continue
        for alt, vote in tracks[i].ranked_faces():
            if vote > 0 and taken.get(alt, 0) < COPIES.get(alt, 1):
                flags.append(f"two cards looked like {face}; the weaker one read as {alt}")
                faces[i] = alt
                taken[alt] = taken.get(alt, 0) + 1
                break
        else:
            flags.append(f"{face} seen twice in one trick")
    return faces, flags


class TrickStateMachine:
    """Turns tracker state into trick events; one instance follows a whole game."""

    def __init__(
        self,
        layout: SeatLayout,
        config: TrickConfig | None = None,
        leader: int | None = 0,
        seat_names: Sequence[str] | None = None,
    ) -> None:
        self.drift = TableDrift(layout)
        self.seat_names = list(seat_names) if seat_names is not None else None
        """Who sits at each seat, for the flags a person reads ("Ana led, but the game
        expected Ben to lead"); without them, seats by number, from 0 as calibration counts."""
        self.n_players = layout.n_players
        self.config = config or TrickConfig()
        self.phase = Phase.COLLECTING
        self.leader = leader
        self.members: list[int] = []
        self.previous: set[int] = set()
        self._taken: list[Track] = []
        """Cards of this trick gone or given way since they counted as played
        (:attr:`taken_back`)."""
        self.sweeps = SweepMemory(self.drift, self.n_players, self.config)
        """The cards kept to tell a trick swept off before it completed (:meth:`update`)."""
        self._settled: dict[int, float] = {}
        self._finished: dict[str, Track] = {}
        """The trick being cleared, by unique face (a deck holds one of each)."""
        self._last: tuple[TrickObservation, list[Track]] | None = None
        """The trick being cleared and its cards' tracks in play order (a swap amends it)."""
        self._clearing: dict[int, Track] = {}
        """Everything that lay on the table when the trick completed, and its cards moved
        since: when the last of it was seen is when the trick was swept."""
        self._maybe_swapped: dict[int, tuple[Track, int, np.ndarray]] = {}
        """Cards laid in a seat after its card of the trick being cleared was taken away (track
        id -> the card, the play it would replace, where it was laid): a swap if it goes with
        the trick (swept, or pushed aside with it), the next trick's if it stays."""
        self._glimpsed_swaps: dict[int, tuple[Track, int]] = {}
        """Cards seen once, with sparse frames, where a card of the trick being cleared was
        taken away (track id -> the card, the play it would replace): a swap too, if it went
        with the trick (:meth:`_note_glimpsed_swaps`)."""
        self.blind = BlindStretches(self.config)
        """Where the camera last saw nothing (its first frame, gaps in the frames)."""
        self.seating = TrickSeating(self.drift, self.n_players, self.blind)
        """Reads each trick's seats and play order (:meth:`_observe`)."""
        self.round_continues = True
        """False after a round's last trick (the pipeline says so): every hand is empty, so no
        card can be swapped, and the next deal may bring the trick's faces back."""

    @property
    def layout(self) -> SeatLayout:
        """The seats as read now: the calibration, its centre and directions following the
        tricks laid and the camera's measured moves."""
        return self.drift.layout

    @property
    def taken_back(self) -> list[str]:
        """The faces of the cards taken back from this trick, for its flag: not a card counted
        only while out of sight (:func:`_counted_unseen`). Seen lying still a fifth of a second
        and never again, it may be a false detection (a reflection in an empty seat) as well
        as a card shown over the table or laid and covered: gone, or giving way to the card
        laid in its seat, it leaves the trick, and the table is not asked about a card nobody
        may have played."""
        return [tr.card for tr in self._taken if _seen_played(tr)]

    def _seat(self, seat: int) -> str:
        if self.seat_names is not None and 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"seat {seat}"

    def _seats(self, seats: Sequence[int]) -> str:
        return ", ".join(self._seat(s) for s in seats)

    def set_leader(self, leader: int | None) -> None:
        """The leader of the next (or current) trick; ``None``: read it from the first card."""
        self.leader = leader

    def update(
        self,
        tracker: Tracker,
        gone: Sequence[Track],
        t: float,
        motion: float | None = None,
        stale_since: float | None = None,
    ) -> list[Event]:
        """Advance on one frame: ``gone`` is what ``tracker.update`` just returned.

        ``stale_since``: the frames before this one repeated a picture taken then (a frozen
        camera); the table was unseen since, as over a gap in the frames."""
        if tracker.picture_moved is not None:  # the camera moved: measured on the cards
            self.drift.follow(tracker.picture_moved)
        self.blind.note_frame(t, stale_since)
        events: list[Event] = []
        gone_ids = {tr.id for tr in gone}
        for tr in gone:
            if tr.id in self.previous:
                self.previous.discard(tr.id)
            elif tr.id in self.members:
                self.members.remove(tr.id)
                if not self.sweeps.went_with_the_sweep(tr, self.members, self._taken):
                    self._taken.append(tr)
                events.append(CardTakenBack(tr.id, tr.card))
            elif not tr.stable and self.phase is Phase.COLLECTING:
                self.sweeps.note_unsettled(tr)
        self.previous &= set(tracker.tracks)
        if self.phase is Phase.COLLECTING:
            self._revive(tracker, events)
            self.sweeps.glimpse(tracker)
        if self.phase is Phase.CLEARING and not self.previous:
            events.extend(self._went_with_the_trick(tracker, t))
            self.phase = Phase.COLLECTING
            self._last = None
            self._clearing, self._maybe_swapped, self._glimpsed_swaps = {}, {}, {}
            self._taken = []
            events.append(TableCleared())
            for k, tid in enumerate(self.members):  # played early, before the table was clear
                tr = tracker.tracks[tid]
                events.append(CardPlayed(tid, tr.card, self.layout.seat_of(tr.center), k + 1))
        for tr in tracker.stable_tracks():
            if tr.id in self.previous or tr.id in self.members or tr.id in gone_ids:
                continue
            if self.phase is Phase.COLLECTING and self._played_this_round(tr):
                continue  # a card of the trick just cleared, still (or again) in view
            if self._still_given_way(tracker, tr):
                continue  # taken back, its track not yet dropped
            moved = self._moved_from(tracker, tr)
            if moved is not None:
                self.previous.add(tr.id)
                self._clearing[tr.id] = tr
                events.extend(self._went_along(tracker, moved, t))
                continue
            index = self._swapped_play(tracker, tr, t)
            if index is not None:
                self._maybe_swapped[tr.id] = (tr, index, tr.center.copy())  # the sweep tells
            self.members.append(tr.id)
            self._settled[tr.id] = t
            self.members.sort(key=lambda i: (tracker.tracks[i].arrival or 0.0, i))
            if self.phase is Phase.COLLECTING:
                events.append(
                    CardPlayed(tr.id, tr.card, self.layout.seat_of(tr.center), len(self.members))
                )
        self._join_twins(tracker, events)
        if self.phase is Phase.COLLECTING:
            self._displace_shown(tracker, events)
        swept = self._swept(tracker) if self.phase is Phase.COLLECTING else []
        if swept:
            # Everything was swept off before the trick completed: a card the camera never
            # saw (or lost). Reported as a short, flagged trick so the game stays in step.
            tracks = self._last_per_seat(self._taken)
            taken_back = [tr.card for tr in self._taken if tr not in tracks and _seen_played(tr)]
            missing = self.sweeps.seen_before_sweep(tracker, tracks, self.members)
            tracks = self._last_per_seat([*tracks, *missing])
            self._taken = []
            seats = {self.layout.seat_of(tr.center) for tr in tracks}
            self.sweeps.swept_off(max(tr.last_seen for tr in swept), seats)
            trick = self._observe(tracker, t, tracks, taken_back=taken_back)
            flag = f"the trick was swept away with {len(tracks)} of {self.n_players} cards seen" + (
                ": a card was missed" if len(tracks) < self.n_players else " (never all at once)"
            )
            trick = dataclasses.replace(trick, flags=(flag, *trick.flags), swept=True)
            events.append(TrickCompleted(trick))
            # Its cards now, not the last round's last trick (nor one taken back before it).
            self._finished = _unique_faces(trick, swept)
        if self.phase is Phase.COLLECTING and self._complete(tracker, t, motion):
            tracks, early = self._completed_tracks(tracker)
            trick = self._observe(tracker, t, tracks)
            events.append(TrickCompleted(trick))
            self.drift.add_trick([p.center for p in trick.plays], trick.players)
            self.phase = Phase.CLEARING
            # What lies still is the trick's (or left over); a card still in flight is the
            # next trick's lead, laid before this one is picked up: it joins that trick.
            self.previous = {i for i, tr in tracker.tracks.items() if tr.stable} - set(early)
            self._clearing = {i: tr for i, tr in tracker.tracks.items() if i not in early}
            by_id = {tr.id: tr for tr in tracks}
            played = [by_id[p.track_id] for p in trick.plays]
            self._finished = _unique_faces(trick, played)
            self._last = (trick, played)
            self.members = early
            self.sweeps.forget()
            self._settled = {k: v for k, v in self._settled.items() if k in tracker.tracks}
        clearing = self.phase is Phase.CLEARING
        if clearing:
            events.extend(self._pushed_along(tracker, t))
            self._note_glimpsed_swaps(tracker, t)
        tracker.closing = frozenset(self.previous) if clearing else frozenset()
        # A card maybe swapped into the trick keeps its face like the trick's own cards: the
        # winner's lead laid on it must not take it over before the sweep tells which it was.
        tracker.locked = frozenset(self._maybe_swapped) if clearing else frozenset()
        tracker.retired = frozenset(self._replaced()) if clearing else frozenset()
        return events

    def _replaced(self) -> Iterator[int]:
        """The tracks of the trick's cards another card may have been swapped in for."""
        if self._last is not None:
            for _, index, _ in self._maybe_swapped.values():
                yield self._last[1][index].id

    def flush(self, tracker: Tracker, t: float) -> list[Event]:
        """The recording ended: a trick of two or more cards still being collected is reported
        as a short, flagged trick (what was seen is better kept than dropped). Its missing card
        may have been seen too briefly to count, as in a trick swept a card short
        (:meth:`SweepMemory.seen_before_sweep`): the trick is then whole, still flagged."""
        if self.phase is not Phase.COLLECTING:
            return []
        tracks = self._last_per_seat([tracker.tracks[m] for m in self.members] + self._taken)
        if len(tracks) < 2 or len(self.members) >= self.n_players:
            return []
        missing = self.sweeps.seen_before_sweep(tracker, tracks, self.members, ended=True)
        tracks = self._last_per_seat([*tracks, *missing])
        trick = self._observe(tracker, t, tracks)
        flag = f"the recording ended with {len(tracks)} of {self.n_players} cards seen"
        self.members, self._taken = [], []
        return [TrickCompleted(dataclasses.replace(trick, flags=(flag, *trick.flags), swept=True))]

    def _played_this_round(self, track: Track) -> bool:
        """Is this a unique card of the trick last completed, seen anew while the round goes
        on? One deck: it cannot be played twice in a round, so it is that card, dragged aside
        or hidden a while before it was picked up (its vote is asked again every frame, so a
        new card misread as it for a moment still joins the next trick once read right)."""
        return self.round_continues and track.card in self._finished

    def _moved_from(self, tracker: Tracker, track: Track) -> Track | None:
        """The card of the trick being cleared (or maybe swapped into it) that this new card
        is, moved (the trick pushed aside face up), if it is one.

        One deck: a unique card of that trick that shows up elsewhere just after it vanished
        from where it was last seen (within ``moved_within_s``) is that card, not the next lead.
        A card of that face seen later comes from the next round's deal.
        """
        if self.phase is not Phase.CLEARING or track.card in COPIES:
            return None
        olds = [*self._finished.values(), *(tr for tr, _, _ in self._maybe_swapped.values())]
        for old in olds:
            if old.card != track.card or old.id == track.id:
                continue
            moved = old.diagonals_to(track.center)
            gap = track.first_seen - old.last_seen
            if moved > tracker.config.match_distance and 0 < gap <= self.config.moved_within_s:
                return old
        return None

    def _swapped_play(self, tracker: Tracker, track: Track, t: float) -> int | None:
        """The play of the trick being cleared that ``track``'s card may have replaced.

        A player swapping his card takes it back (gone at least ``swap_gap_s``, and more than
        a frame gap, before the new card showed up: a misread of a card still there follows
        its last reading on the next frame, half a second later at 2 frames a second) and
        lays another in its seat, while the rest of the trick still lies as it was and before
        the next trick has a card (a player who follows the lead while the old trick is picked
        up lays the next trick's card). The next leader's lead, laid at once on his own card,
        looks the same, and so does a card hidden a while and then misread: the sweep decides
        (:meth:`_went_with_the_trick`).
        """
        if self.phase is not Phase.CLEARING or self._last is None or not self.round_continues:
            return None
        if any(m not in self._maybe_swapped for m in self.members):
            return None  # the next trick is under way: a card laid now is one of it
        trick, tracks = self._last
        seat = self.layout.seat_of(track.center)
        index = next((k for k, p in enumerate(trick.plays) if p.seat == seat), None)
        if index is None:
            return None
        old = tracks[index]
        gap = track.first_seen - old.last_seen
        next_frame = gap < 1.5 * tracker.frame_interval  # a frame gap, give or take jitter
        if old.card == track.card or gap < self.config.swap_gap_s or next_frame:
            return None
        return index

    def _note_glimpsed_swaps(self, tracker: Tracker, t: float) -> None:
        """Note the cards first seen on this sparse frame that may have replaced a play of the
        trick being cleared (:meth:`_swapped_play`), laid where that card lay, of a face the
        trick's other cards do not show.

        At one frame in 5 a card swapped in half a second before the pickup is seen once at
        rest: the frame before, it was in flight (less than half of it in view), the frame
        after, under the sweeping hand. Seen once, its track is never confirmed, never counts,
        and the trick kept the card taken back (generated game t206: an escape and a purple-11
        each swapped for a pirate). The sweep tells whether it went with the trick
        (:meth:`_went_with_the_trick`)."""
        if not tracker.sparse or self._last is None:
            return
        trick, tracks = self._last
        for tr in tracker.tracks.values():
            if tr.hits != 1 or tr.first_seen < t or tr.id in self._maybe_swapped:
                continue
            index = self._swapped_play(tracker, tr, t)
            if index is None:
                continue
            others = [p.card for k, p in enumerate(trick.plays) if k != index]
            laid_there = tracks[index].diagonals_to(tr.center) <= tracker.config.match_distance
            if laid_there and (tr.card in COPIES or tr.card not in others):
                self._glimpsed_swaps[tr.id] = (tr, index)

    def _glimpses_gone_with_the_trick(self) -> list[Track]:
        """The glimpsed swaps (:attr:`_glimpsed_swaps`) never seen again (a card seen twice is
        tracked as any other), as cards maybe swapped in: asked after the cards that counted,
        so a swap seen longer amends the trick first, and a glimpse before it is no swap
        (:meth:`_swap_seen`)."""
        glimpses = []
        for tr, index in self._glimpsed_swaps.values():
            if tr.hits == 1:
                self._maybe_swapped[tr.id] = (tr, index, tr.center.copy())
                glimpses.append(tr)
        return glimpses

    def _amend(self, tracker: Tracker, track: Track, index: int, t: float) -> TrickAmended:
        """The trick just completed, with ``track``'s card in place of play ``index``."""
        assert self._last is not None
        trick, tracks = self._last
        old, before = tracks[index], trick.plays[index].card
        tracks = [track if k == index else tr for k, tr in enumerate(tracks)]
        amended = self._observe(
            tracker, t, tracks, leader=trick.leader, taken_back=list(trick.taken_back)
        )
        who = self._seat(trick.plays[index].seat)
        flags = (swap_flag(who, before, track.card), *amended.flags)
        amended = dataclasses.replace(amended, completed_at=trick.completed_at, flags=flags)
        self._last = (amended, tracks)
        self._finished.pop(old.card, None)
        if track.card not in COPIES:
            self._finished[track.card] = track
        return TrickAmended(amended, index, before)

    def _swap_seen(self, index: int, track: Track) -> bool:
        """Did ``track``'s card replace play ``index``'s while the rest of the trick lay there?

        The old card out of sight since the new one showed up (seen again, it was only hidden
        and the new one a misread), and every other card of the trick seen after it showed up
        (not a card laid while the trick was being picked up; the swapping arm may hide a
        neighbour's card for a while, so that is judged now, not when it was laid)."""
        if self._last is None:
            return False
        tracks, since = self._last[1], track.first_seen
        if tracks[index].last_seen >= since:
            return False
        # A card seen once (:meth:`_note_glimpsed_swaps`) was seen with the cards on its frame.
        seen_with = track.hits == 1

        def lay_there(k: int) -> bool:  # play k's card, or one swapped in for it meanwhile
            stand_ins = [c for c, i, _ in self._maybe_swapped.values() if i == k]
            return any(
                tr.last_seen > since or (seen_with and tr.last_seen == since)
                for tr in (tracks[k], *stand_ins)
            )

        return all(lay_there(k) for k in range(len(tracks)) if k != index)

    def _went_with_the_trick(self, tracker: Tracker, t: float) -> list[Event]:
        """The trick has been swept: cards laid meanwhile that went with it were not the next
        trick's (see :meth:`_went_along`).

        Went with it: unseen now, and last seen within ``sweep_window_s`` of the last sight of
        the trick's own cards or of everything cleared with them (a pile pushed aside may be
        taken long after its cards were moved). Not a card first seen after all of those were
        last seen: it was laid on a table already swept, and is only covered (a hand hovering
        over the next lead while the tracker still held the swept cards; was: the next trick
        lost its lead and was recorded short, synth game seed 213).
        """
        own = self._last[1] if self._last is not None else []
        times = [
            max((tr.last_seen for tr in cards), default=t)
            for cards in (own, self._clearing.values())
        ]
        recent = tracker.config.nudge_recent_s
        window = self.config.sweep_window_s
        events: list[Event] = []
        glimpses = self._glimpses_gone_with_the_trick()
        for tr in [*(tracker.tracks[m] for m in self.members), *self._taken, *glimpses]:
            near = any(abs(tr.last_seen - at) <= window for at in times)
            laid_after = tr.first_seen > max(times)
            if t - tr.last_seen > recent and near and not laid_after:
                events.extend(self._went_along(tracker, tr, t))
        return events

    def _went_along(self, tracker: Tracker, track: Track, t: float) -> list[Event]:
        """``track``'s card went with the trick being cleared (swept or pushed aside with it),
        so it is not the next trick's. Laid in the seat of a card taken away, it was a swap
        and amends the trick, unless that card was seen again since (it was only hidden, and
        this one a misread); any other was part of the old trick (a misread under the hand)."""
        if track.id in tracker.tracks:
            self.previous.add(track.id)  # the old trick's, however long it is still tracked
        if track.id in self.members:
            self.members.remove(track.id)
        elif track in self._taken:  # not taken back from the next trick: never in it
            self._taken.remove(track)
        swapped = self._maybe_swapped.pop(track.id, None)
        if swapped is None or self._last is None or not self._swap_seen(swapped[1], track):
            return []
        if self._hidden_only(tracker, swapped[1], track, t):
            return []
        return [self._amend(tracker, track, swapped[1], t)]

    def _hidden_only(self, tracker: Tracker, index: int, track: Track, t: float) -> bool:
        """Was play ``index``'s card only hidden while ``track`` was read in its seat? Its
        card laid there again after ``track`` showed up is a new track (the tracker retires
        the old one): swept with the trick, it was that card all along and ``track`` a
        misread; still lying there after the sweep, it is the next trick's lead, laid on
        the card swapped in."""
        assert self._last is not None
        old = self._last[1][index]
        recent = tracker.config.nudge_recent_s
        return any(
            tr.card == old.card
            and tr.id != old.id
            and tr.first_seen >= track.first_seen
            and t - tr.last_seen > recent
            and old.diagonals_to(tr.center) <= tracker.config.match_distance
            for tr in [*tracker.tracks.values(), *self._taken]  # swept: gone, or going
        )

    def _pushed_along(self, tracker: Tracker, t: float) -> list[Event]:
        """A card maybe swapped in that moved away from where it was laid (farther than a nudge)
        went with the trick being pushed aside: nobody moves the next trick's lead so."""
        events: list[Event] = []
        for track, _, at in list(self._maybe_swapped.values()):
            if track.diagonals_to(at) > 2 * tracker.config.match_distance:
                self._clearing[track.id] = track
                events.extend(self._went_along(tracker, track, t))
        return events

    def _last_per_seat(self, tracks: Sequence[Track]) -> list[Track]:
        """The last card laid in each seat, in arrival order: a card taken back and replaced
        before the trick was swept is not one of it."""
        last: dict[int, Track] = {}
        for tr in sorted(tracks, key=lambda tr: (tr.arrival or 0.0, tr.id)):
            last[self.layout.seat_of(tr.center)] = tr
        return sorted(last.values(), key=lambda tr: (tr.arrival or 0.0, tr.id))

    def _swept(self, tracker: Tracker) -> list[Track]:
        """The cards of this trick taken away together, two or more, nothing of it left; else
        none.

        A sweep takes the cards within moments of each other; cards taken back one at a time
        (two players each changing their mind) leave gaps longer than ``sweep_window_s``, and
        the rest of their trick is still to come. Cards on the table that arrived after the
        swept cards were last seen belong to the next trick (its leader may play while the
        sweep is still being noticed).
        """
        if len(self._taken) < 2:
            return []
        last = max(tr.last_seen for tr in self._taken)
        together = [tr for tr in self._taken if last - tr.last_seen <= self.config.sweep_window_s]
        if len(together) < 2:
            return []
        vanished = min(tr.last_seen for tr in together)
        later = all((tracker.tracks[m].arrival or 0.0) > vanished for m in self.members)
        return together if later else []

    def _join_twins(self, tracker: Tracker, events: list[Event]) -> None:
        """Two cards of this trick on one spot, the first seen again after the second came,
        are one card read two ways (a blurred black 1 and black 5 in turn): the second joins
        the first, which keeps its place in the order; otherwise a soft-focus camera makes two
        plays in one seat, the trick completes a card early and the last card is lost. A card
        swapped on the same spot is not one: the card taken back is not seen again. Nor are
        two seen on one frame: the second was laid on the first (in a crowded middle a
        yellow-7 laid on a yellow-14 would take it over, and the trick be swept a card
        short). A unique card first seen just after a gap in the frames, where the same card
        lay before it, is that card moved unseen (a frozen picture caught it in the hand
        laying it)."""
        for young_id in sorted(self.members, key=lambda i: -tracker.tracks[i].first_seen):
            young = tracker.tracks[young_id]
            for old_id in self.members:
                old = tracker.tracks[old_id]
                read_two_ways = (
                    old.first_seen < young.first_seen < old.last_seen
                    and young_id not in old.seen_with
                )
                if (read_two_ways and tracker.same_spot(old, young)) or self._moved_unseen(
                    old, young
                ):
                    tracker.merge(old, young_id)
                    self.members.remove(young_id)
                    self._settled.pop(young_id, None)
                    seat = self.layout.seat_of(old.center)
                    index = self.members.index(old_id) + 1
                    events.append(CardPlayed(old.id, old.card, seat, index))
                    break

    def _revive(self, tracker: Tracker, events: list[Event]) -> None:
        """A card of this trick thought taken back reappears where it lay, named the same: the
        detector had only missed it. It returns with its original arrival (its place in the
        order) and the take-back is forgotten. Only while its trick is collected: once it
        completed without the card, a card of that face laid there is the next trick's, with
        an arrival of its own (was: a player's escape taken back and his escape of the next
        trick, laid on the same spot, went first in that trick with the old one's arrival;
        synth game seed 202, --habit take-back)."""
        for old in list(self._taken):
            for tr in list(tracker.tracks.values()):
                if (
                    tr.id in self.members
                    or tr.id in self.previous
                    or tr.first_seen <= old.last_seen
                ):
                    continue
                dist = old.diagonals_to(tr.center)
                if tr.card == old.card and dist <= tracker.config.match_distance:
                    tracker.revive(old, tr.id)
                    self._taken.remove(old)
                    self.members.append(old.id)
                    self.members.sort(key=lambda i: (tracker.tracks[i].arrival or 0.0, i))
                    seat = self.layout.seat_of(old.center)
                    events.append(CardPlayed(old.id, old.card, seat, len(self.members)))
                    break

    def _moved_unseen(self, old: Track, young: Track) -> bool:
        """Is ``young`` the unique card ``old``, moved while the camera saw nothing? First seen
        after ``old`` was last seen, just after a gap in the frames: one deck holds one of it."""
        return (
            young.card == old.card
            and old.card not in COPIES
            and old.last_seen < young.first_seen
            and self.blind.window(young) is not None
        )

    def _complete(self, tracker: Tracker, t: float, motion: float | None) -> bool:
        cfg = self.config
        if len(self.members) < self.n_players:
            return False
        tracks = [tracker.tracks[tid] for tid in self.members]
        if any(t - tr.still_since < cfg.still_s for tr in tracks):
            return False
        if self._laid_on_a_cleared_table(tracks):
            return False
        if any(self._laid_since(tracker, tr) for tr in tracks if _counted_unseen(tr)):
            return False
        if any(not self._played_past(tracks, tr) for tr in tracks if _counted_unseen(tr)):
            return False
        hidden = [tr for tr in tracks if t - tr.last_seen > cfg.visible_s]
        if hidden and not self._hidden_in_place(tracks, hidden):
            return False
        if motion is None or motion <= cfg.motion_threshold:
            return True
        last = max(self._settled.get(tid, t) for tid in self.members)
        return t - last >= cfg.max_wait_s

    def _completed_tracks(self, tracker: Tracker) -> tuple[list[Track], list[int]]:
        """The cards of the trick completing now, in arrival order, and the ids of those of
        the next trick among the members: its lead, laid early on a card of this trick the
        tracker gave up (:meth:`_lead_on_a_lost_card`), which this trick gets back."""
        tracks = [tracker.tracks[m] for m in self.members]
        found = self._lead_on_a_lost_card(tracker, tracks)
        if found is None:
            return tracks, []
        lost, lead = found
        self._taken.remove(lost)
        tracks = [lost if tr is lead else tr for tr in tracks]
        return sorted(tracks, key=lambda tr: (tr.arrival or 0.0, tr.id)), [lead.id]

    def _lead_on_a_lost_card(
        self, tracker: Tracker, tracks: Sequence[Track]
    ) -> tuple[Track, Track] | None:
        """The card of this trick the tracker gave up under a hand, and the next trick's lead
        laid on it, when the last card to arrive is that lead: (lost card, lead), else None.

        So when the last card came to rest in the seat of a lost card (its track dropped, not
        one that gave way: no other card of the trick lies in that seat) that kept its place
        in turn (every player after it in turn laid his card after it came) and that the game
        went on past (one of them laid his after it was last seen, :meth:`_played_past`). A
        player who takes his card back lays the other at once, before the next player
        (:meth:`_gave_way`); one laid after every later player's card is out of turn: the
        winner's early lead on his own card, hidden until then. At 2 frames a second a hand
        hovering 3 s over the leader's card hid it longer than the tracker's ``lost_s``, and
        the lead laid on it took its place in the trick (generated game h11, seed 11)."""
        if self.leader is None or not self._taken:
            return None
        seat, n = self.layout.seat_of, self.n_players
        lead = max(tracks, key=lambda tr: (tr.arrival or 0.0, tr.id))
        where = seat(lead.center)
        if any(seat(tr.center) == where for tr in tracks if tr is not lead):
            return None
        turn = (where - self.leader) % n
        later = [tr for tr in tracks if (seat(tr.center) - self.leader) % n > turn]
        if not later:
            return None
        for lost in self._taken:
            if (
                lost.id not in tracker.tracks
                and _seen_played(lost)
                and seat(lost.center) == where
                and lost.last_seen < lead.first_seen
                and all((tr.arrival or 0.0) > (lost.arrival or 0.0) for tr in later)
                and self._played_past(tracks, lost)
            ):
                return lost, lead
        return None

    def _played_past(self, tracks: Sequence[Track], track: Track) -> bool:
        """Did a card of a player after ``track``'s in turn come to rest after ``track`` was
        last seen?

        For a card counted while out of sight (:func:`_counted_unseen`): the game went on past
        it, so it lay there under a hand (a hand over the last card but one, synth game t204).
        Seen a fifth of a second and nothing played after it, it may be a false detection in
        the seat to play next (a reflection): counted, it completed the trick in place of the
        card that player then laid, which became the next trick's lead. Nor does a card of a
        player before it in turn say so: that player plays before it whatever lies there."""
        seat = self.layout.seat_of
        arrived = sorted(tracks, key=lambda tr: (tr.arrival or 0.0, tr.id))
        leader = self.leader if self.leader is not None else seat(arrived[0].center)
        turn = (seat(track.center) - leader) % self.n_players
        return any(
            (other.arrival or 0.0) > track.last_seen
            and (seat(other.center) - leader) % self.n_players > turn
            for other in tracks
            if other is not track
        )

    def _laid_since(self, tracker: Tracker, track: Track) -> list[Track]:
        """The cards of this trick, or still coming to rest, in ``track``'s seat and first
        seen after it was last seen.

        For a card counted while out of sight (:func:`_counted_unseen`): it may be a card
        held over the table a moment and taken back to the hand, not one covered where it
        lay; another card laid in its seat says so (:meth:`_displace_shown`). A stable card
        outside the trick (one of the last trick, seen again) says nothing of it."""
        seat = self.layout.seat_of(track.center)
        return [
            tr
            for tr in tracker.tracks.values()
            if tr.id != track.id
            and (tr.id in self.members or not tr.stable)
            and tr.first_seen > track.last_seen
            and self.layout.seat_of(tr.center) == seat
        ]

    def _displace_shown(self, tracker: Tracker, events: list[Event]) -> None:
        """A card of this trick that gave way to a newer card in its seat
        (:meth:`_gave_way`) was taken back: it leaves the trick, and the newer card is the
        player's. Kept, it would complete the trick with two cards of one player and the last
        player's card would open the next trick; or, shown for a fifth of a second
        (:func:`_counted_unseen`), complete it once the hand was still, and the card laid go
        with the sweep, unrecorded. Only a card seen lying after it counted is flagged
        (:attr:`taken_back`)."""
        for tid in list(self.members):
            track = tracker.tracks[tid]
            if self._gave_way(tracker, track):
                self.members.remove(tid)
                self._taken.append(track)
                events.append(CardTakenBack(tid, track.card))

    def _still_given_way(self, tracker: Tracker, track: Track) -> bool:
        """Is ``track`` a card that gave way in its seat (:meth:`_displace_shown`) and has not
        been seen since? The tracker holds it until it is lost, and counted again it would
        give way again on every frame. Seen again, it lay there after all (a hand hid it while
        a neighbour laid a card read in its seat): its take-back is forgotten and it plays."""
        taken = next((tr for tr in self._taken if tr.id == track.id), None)
        if taken is None:
            return False
        if self._gave_way(tracker, track):
            return True
        self._taken.remove(taken)
        return False

    def _gave_way(self, tracker: Tracker, track: Track) -> bool:
        """Was ``track`` replaced in its seat? So when a newer card of this trick in its seat
        came to rest after it was last seen, while it still counted as in view (within
        ``visible_s``: a player who changed his mind lays his other card at once). A card
        unseen longer already holds the trick back, and a newer card in its seat may be the
        next lead laid after a sweep, which the cards' going tells (:meth:`_swept`; counted
        as take-backs, the cards of a trick swept while the next lead is laid in their seats
        miss the sweep: 3 tricks of generated game t212 from its true detections). Or, for a
        card counted while out of sight, when any card was laid in its seat after it was last
        seen (it was held over the table and taken back to the hand, or a false detection)."""
        seat = self.layout.seat_of(track.center)
        arrived = track.arrival or 0.0
        if any(
            tid != track.id
            and (tracker.tracks[tid].arrival or 0.0) > arrived
            and 0.0 < self._settled.get(tid, 0.0) - track.last_seen <= self.config.visible_s
            and self.layout.seat_of(tracker.tracks[tid].center) == seat
            for tid in self.members
        ):
            return True
        if not _counted_unseen(track):
            return False
        return bool({tr.id for tr in self._laid_since(tracker, track)} & set(self.members))

    @staticmethod
    def _laid_on_a_cleared_table(tracks: Sequence[Track]) -> bool:
        """Was a card of these first seen after every other one was last seen?

        Then it was laid on a table already swept of them (the next trick's lead, laid while
        the cards it would complete were being picked up): they are going, and the sweep
        tells what they were (:meth:`_swept`). Without this, a lead that came to rest within
        ``visible_s`` of the sweep, the swept cards still counting as in view, would complete
        their trick in the seat of its card the camera missed."""
        return any(
            tr.first_seen > max(other.last_seen for other in tracks if other is not tr)
            for tr in tracks
        )

    def _hidden_in_place(self, tracks: Sequence[Track], hidden: Sequence[Track]) -> bool:
        """Are the ``hidden`` cards of this trick (out of sight longer than ``visible_s``)
        still lying where they were, only covered (a hand hovering over one)?

        So when the trick's cards lie one in front of each player, and each hidden card was
        last seen alongside a card of the trick that is in view now. A card taken back is
        replaced in its own seat (its player named twice until the new card comes to rest:
        :meth:`_gave_way`); a trick
        swept away leaves only cards laid after it vanished (the next trick's lead, laid in
        the seat of a card the camera never saw). Requiring every card to be seen within
        ``visible_s`` would let a leader's card half under a hovering hand hold its trick back
        until the next leader's early lead, laid on it, took its place, and every later trick
        of the round would be recorded a place early (a generated stress game, seed 11)."""
        seats = sorted(self.layout.seat_of(tr.center) for tr in tracks)
        if seats != list(range(self.n_players)):
            return False
        hidden_ids = {h.id for h in hidden}
        in_view = [tr for tr in tracks if tr.id not in hidden_ids]
        return all(any(tr.first_seen <= h.last_seen for tr in in_view) for h in hidden)

    def _observe(
        self,
        tracker: Tracker,
        t: float,
        tracks: list[Track] | None = None,
        leader: int | None = None,
        taken_back: list[str] | None = None,
    ) -> TrickObservation:
        """The trick of ``tracks`` (default: the members) in arrival order, led by ``leader``
        (default: the one the game expects now), with ``taken_back`` (default: this trick's
        take-backs so far)."""
        cfg = self.config
        n = self.n_players
        if tracks is None:
            tracks = [tracker.tracks[tid] for tid in self.members]
        flags: list[str] = []
        if len(tracks) > n:
            extra = ", ".join(tr.card for tr in tracks[n:])
            flags.append(f"more cards than players: {len(tracks)} cards (ignored: {extra})")
            tracks = tracks[:n]
        faces, face_flags = assign_faces(tracks)
        flags.extend(face_flags)
        centres = [(float(tr.center[0]), float(tr.center[1])) for tr in tracks]
        leader = leader if leader is not None else self.leader
        layout, order = self.seating.seating(tracks, centres, leader)
        plays: list[PlayedCard] = []
        for tr, face, center in zip(tracks, faces, centres, strict=True):
            card = face
            if face == "tigress":
                degrees = crosswise_degrees(tr.mean_angle, center, layout.centre)
                card = "tigress:escape" if degrees > 45.0 else "tigress:pirate"
                if abs(degrees - 45.0) < cfg.tigress_doubt_degrees:
                    flags.append(tigress_flag(degrees))
            confidence = tr.confidence if face == tr.card else 0.0
            if confidence < cfg.low_confidence:
                flags.append(f"{card} read with low confidence ({confidence:.2f})")
            plays.append(
                PlayedCard(
                    track_id=tr.id,
                    card=card,
                    face=face,
                    confidence=confidence,
                    seat=layout.seat_of(center),
                    arrival=float(tr.arrival or 0.0),
                    settled_at=self._settled.get(tr.id, t),
                    center=center,
                    box=tuple(float(v) for v in tr.box),  # type: ignore[arg-type]
                    angle=tr.mean_angle,
                    alternatives=tuple(tr.ranked_faces()[1:3]),
                )
            )
        plays = [plays[i] for i in order]
        arrival_seats = tuple(p.seat for p in plays)
        leader = leader if leader is not None else arrival_seats[0]
        expected = tuple((leader + k) % n for k in range(len(plays)))
        clockwise = tuple((arrival_seats[0] + k) % n for k in range(len(plays)))
        if len(set(arrival_seats)) == n == len(plays) and arrival_seats == clockwise != expected:
            # Order and seats agree with each other, only not with the expected leader (a wrong
            # dealer given, a correction upstream): the camera's consistent view wins, flagged.
            flags.append(led_unexpectedly(self._seat(arrival_seats[0]), self._seat(leader)))
            leader = arrival_seats[0]
            plays_out = tuple(plays)
            players = arrival_seats
        elif len(set(arrival_seats)) == n == len(plays):
            ordered = sorted(plays, key=lambda p: (p.seat - leader) % n)
            if arrival_seats != expected:
                flags.append(
                    "play order and seats disagree: cards arrived from "
                    f"{self._seats(arrival_seats)}, clockwise from {self._seat(leader)} the order "
                    f"is {self._seats(expected)}; plays follow the seats"
                )
            plays_out = tuple(ordered)
            players = tuple(p.seat for p in ordered)
        elif len(plays) < n and len(set(arrival_seats)) == len(plays):
            plays_out = tuple(plays)  # a short trick: each card's own seat, in arrival order
            players = arrival_seats
        else:
            if len(plays) == n:
                flags.append(
                    f"the cards' seats ({self._seats(arrival_seats)}) do not name every player "
                    "once; plays follow the arrival order"
                )
            plays_out = tuple(plays)
            players = expected
        if len(plays) < n:
            flags.append(f"only {len(plays)} cards for {n} players")
        taken_back = self.taken_back if taken_back is None else taken_back
        if taken_back:
            flags.append("taken back before the trick completed: " + ", ".join(taken_back))
        return TrickObservation(
            plays=plays_out,
            players=players,
            leader=leader,
            arrival_seats=arrival_seats,
            flags=tuple(flags),
            taken_back=tuple(taken_back),
            last_settled_at=max(p.settled_at for p in plays),
            completed_at=t,
            seat_centre=layout.centre,
            seat_turn=math.degrees(turn_between(layout.angles[0], self.drift.calibrated.angles[0])),
        )


def _counted_unseen(track: Track) -> bool:
    """Was ``track`` counted as played while out of sight, and not seen since (a card seen
    at rest a moment and then hidden: the tracker's ``covered_rest_s``)?"""
    return track.stable_at is not None and track.last_seen < track.stable_at


def _seen_played(track: Track) -> bool:
    """Was ``track`` seen after it counted as played (not only counted while out of sight)?"""
    return not _counted_unseen(track)


def _unique_faces(trick: TrickObservation, tracks: Sequence[Track]) -> dict[str, Track]:
    """The plays of ``trick`` among ``tracks`` by the face each was read with, for the faces a
    deck holds one of: such a card seen again while its round goes on is that card, not a new
    play."""
    by_id = {tr.id: tr for tr in tracks}
    return {
        p.face: by_id[p.track_id]
        for p in trick.plays
        if p.face not in COPIES and p.track_id in by_id
    }
