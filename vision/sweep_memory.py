"""What the trick state machine keeps to tell a trick swept off the table before it completed:
the cards of the trick seen too briefly to count (the card the sweep seemed to leave out may be
one of them), and where the last such trick was swept (a card gone just after went with it,
not taken back from the next trick).

:class:`~skullcam.vision.trick_state.TrickStateMachine` notes the cards and asks it; the
machine's own members and take-backs come in as arguments.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from skullcam.vision.seats import SeatLayout
from skullcam.vision.table_drift import TableDrift
from skullcam.vision.tracker import Track, Tracker
from skullcam.vision.trick_events import COPIES, RECENT_KEPT, TrickConfig


class SweepMemory:
    """The unsettled and glimpsed cards of the trick being collected, and the last trick swept
    a card short."""

    def __init__(self, drift: TableDrift, n_players: int, config: TrickConfig) -> None:
        self.drift = drift
        self.n_players = n_players
        self.config = config
        self._swept_off: tuple[float, set[int]] | None = None
        """The last trick swept a card short while being collected: when its cards were last
        seen, and their seats (:meth:`went_with_the_sweep`)."""
        self._unsettled: list[Track] = []
        """Cards of this trick gone without ever coming to rest long enough to count (seen
        at rest on one frame, then swept): the missing card of a swept trick
        (:meth:`seen_before_sweep`)."""
        self._glimpsed: dict[int, Track] = {}
        """Tracks seen too few times to be confirmed while the frames were sparse, the
        latest few: dropped by the tracker, one may still be a swept trick's missing card."""

    @property
    def layout(self) -> SeatLayout:
        """The seats as read now (:attr:`TableDrift.layout`)."""
        return self.drift.layout

    def note_unsettled(self, track: Track) -> None:
        """``track`` went before it came to rest long enough to count (:attr:`_unsettled`)."""
        self._unsettled = [*self._unsettled[1 - RECENT_KEPT :], track]

    def swept_off(self, last_seen: float, seats: set[int]) -> None:
        """A trick was swept off before it completed: its cards were last seen at
        ``last_seen``, in ``seats``. What was noted for it is done with."""
        self._unsettled = []
        self._glimpsed = {}
        self._swept_off = (last_seen, seats)

    def forget(self) -> None:
        """A trick completed: its unsettled and glimpsed cards, and the trick swept before it,
        say nothing of the next."""
        self._unsettled, self._glimpsed = [], {}
        self._swept_off = None

    def went_with_the_sweep(
        self, track: Track, members: Sequence[int], taken: Sequence[Track]
    ) -> bool:
        """Did ``track``, a card of the trick after one swept short and now gone, go with
        that trick rather than being taken back from this one?

        So when it was first seen after the swept cards were last seen and last seen within
        ``sweep_window_s`` of them (cards that vanish so close together were swept together),
        in the seat of the card their trick lacks: the last card of that trick, laid while a
        hand hid the others until the pickup. First seen after they were last seen, it
        could not complete their trick (the machine's ``_laid_on_a_cleared_table``: it may be
        the next lead, laid on a swept table), and it stayed for the next trick; gone with the
        pickup,
        it was flagged there as taken back, a take-back nobody made. Nor was a card of the
        next trick played since (the next lead, laid in that seat, went with the next trick's
        own sweep in h11 at one frame in 4): it goes alone. A lead that stays is not gone; one
        that lay on the swept table longer and was taken back is a take-back (flagged), though
        its player thinks a while before laying another."""
        if self._swept_off is None or members or taken:
            return False
        last_seen, seats = self._swept_off
        return (
            track.first_seen > last_seen
            and track.last_seen - last_seen <= self.config.sweep_window_s
            and self.layout.seat_of(track.center) not in seats
        )

    def glimpse(self, tracker: Tracker) -> None:
        """Note the unconfirmed tracks of a sparse frame (:attr:`_glimpsed`): the tracker
        forgets them two frame gaps after their last sighting."""
        if not tracker.sparse:
            return
        for tr in tracker.tracks.values():
            if not tracker.confirmed(tr):
                self._glimpsed[tr.id] = tr
        for tid in list(self._glimpsed)[:-RECENT_KEPT]:
            del self._glimpsed[tid]

    def seen_before_sweep(
        self,
        tracker: Tracker,
        swept: Sequence[Track],
        members: Sequence[int],
        ended: bool = False,
    ) -> list[Track]:
        """The card missing from a trick ``swept`` a card short, if the camera saw it: a card
        confirmed (seen on two frames or more) in the one seat without a card, never counted
        as played because it was seen at rest too briefly, first seen while every swept card
        still lay in view, and gone amid the sweep. At the camera's full rate a track that
        shows up only once the sweep has begun is a swept card dragged over that seat by the
        sweeping hand, misread; with sparse frames the last card is often first seen on the
        frame the sweep began (19 generated games at one frame in 4: 2 tricks lost to that
        guard), so there it is not asked.

        A busy machine keeps few frames: a last card laid just before the sweep is seen
        landing and once at rest, and the trick was recorded short (29 generated games at
        one frame in 4: 8 of the 43 tricks lost). A lone false detection confirms no track; a
        card taken back and replaced leaves its replacement, counted, in that seat. The
        trick stays flagged as swept, for a person to check the card.

        At one frame in 5 the last card is often seen only once at rest. With sparse frames a
        single sighting counts too (:attr:`_glimpsed`), of a face not in the trick, dropped by
        the tracker, and seen while every swept card still lay in view (up to the frame the
        sweep began, :meth:`_sweep_began`): not a card dragged by the sweeping hand and
        misread (a swept card dragged has left its place), nor the next lead. That frame is
        often the one sighting: the next kept frame, half a second later, shows the hand
        sweeping (29 generated games, the generator's truth as recognizer: counted, 30 of the
        64 tricks lost at one frame in 5 are right, 64 of the 110 at one in 6). A false
        detection there turns a short trick, wrong anyway, into a whole one still flagged as
        swept.

        ``ended``: the recording ended (the machine's ``flush``), maybe before a sweep was
        noticed (a card counts as gone ``lost_s`` after it was last seen): what the tracker
        still holds
        is gone too, and a confirmed card in it never counted as played is such a card."""
        if len(swept) != self.n_players - 1:
            return []
        held = {} if ended else tracker.tracks
        unsettled = (
            [*self._unsettled, *self._never_counted(tracker, members)] if ended else self._unsettled
        )
        seats = {self.layout.seat_of(tr.center) for tr in swept}
        faces = Counter(tr.card for tr in swept)
        first = min(tr.last_seen for tr in swept)
        last = max(tr.last_seen for tr in swept)
        began = self._sweep_began(tracker, swept, last)
        candidates = [
            tr
            for tr in unsettled
            if first - self.config.sweep_window_s <= tr.last_seen <= last
            and (tracker.sparse or tr.first_seen < first)  # not a swept card dragged, misread
            and self.layout.seat_of(tr.center) not in seats
            and faces[tr.card] < COPIES.get(tr.card, 1)
        ]
        glimpsed = [
            tr
            for tr in self._glimpsed.values()
            if tr.id not in held
            and first - self.config.sweep_window_s <= tr.last_seen <= began
            and self.layout.seat_of(tr.center) not in seats
            and tr.card not in faces
        ]
        if not candidates and not glimpsed:
            return []
        # A confirmed track before a single sighting; the latest seen of either.
        card = max(candidates or glimpsed, key=lambda tr: (tr.last_seen, tr.id))
        card.arrival = card.still_since  # where it came to rest: its place in the order
        return [card]

    def _sweep_began(self, tracker: Tracker, swept: Sequence[Track], last: float) -> float:
        """When the sweep of ``swept`` began: the first of them last seen, leaving out a card
        unseen since more than ``nudge_recent_s`` before the last of them went (at ``last``;
        a hand hovering over it while the last card was laid, not the sweeping hand). Counted
        from that card, the last card seen once at rest while the hand still hovered counted
        as seen after the sweep began, and the trick was recorded a card short (generated game
        t206 at one frame in 5 and 6)."""
        recent = tracker.config.nudge_recent_s
        return min(tr.last_seen for tr in swept if last - tr.last_seen <= recent)

    def _never_counted(self, tracker: Tracker, members: Sequence[int]) -> list[Track]:
        """The confirmed cards the tracker holds that never came to rest long enough to count
        as played: at the end of a recording they are gone like :attr:`_unsettled`."""
        return [
            tr
            for tr in tracker.tracks.values()
            if tracker.confirmed(tr) and not tr.stable and tr.id not in members
        ]
