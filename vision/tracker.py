"""The card tracker: one identity per physical card across frames.

The recognizer sees each frame alone; a hand covers a card, a detection is missed, a card is
named wrongly for one frame, a card is nudged. The tracker turns those noisy per-frame
detections into tracks:

* **matching**: each detection goes to the nearest track within ``match_distance`` card
  diagonals; a track of the *same* face may be farther (``nudge_distance``), which is how a
  nudged card, or one moved while a hand hid it, keeps its identity. One detection feeds at most
  one track and one track takes at most one detection per frame: a card cannot be two cards.
  Duplicate boxes on one card (heavy overlap) are merged before matching. A played card is not
  continued by a face it was never read as off the spot where it rests: a card misread lies
  where it lay, so that is a card laid on it (:meth:`Tracker._off_a_played_card`), unless it
  is read as the played card's face before it comes to rest, that card unseen meanwhile: then
  it was that card, nudged and misread as it moved (:meth:`Tracker._nudged_and_misread`).
  With sparse frames, a card of a completed trick is continued by another face only if it was
  read so before it was last read as its own face: a face read only since is a card laid on
  it, the next lead (:meth:`Tracker._may_be`).
* **voting**: a track's face is the face with the largest sum of confidences over its frames,
  so a one-frame wrong class is outvoted.
* **occlusion**: an unseen track lives on for ``lost_s`` seconds (a hand over it); only after
  that is it reported gone: taken back, or the table cleared.
* **stability**: a confirmed track (``min_hits`` detections) that has not moved more than
  ``still_fraction`` of its diagonal for ``settle_s`` seconds is *stable*: the moment the
  trick state machine counts it as played. ``arrival`` is when it came to rest, which gives play
  order, and is kept through later nudges. A card the frame's edge cuts is placed at the middle
  of its part in view, so the two outlines the recognizer may give it do not read as motion.
  A card seen still a while and then hidden (a hand over it) becomes stable unseen once it
  would have settled (``covered_rest_s``).
* **sparse frames**: ``min_hits`` and ``tentative_lost_s`` were set for a camera's full rate
  (10-15 frames/s). When a busy machine keeps one frame in 2 or fewer, the frames come further
  apart than ``sparse_interval_s`` and the tracker counts in time instead: two sightings a frame
  apart confirm a track, a tentative track outlives a missed frame, and a card is taken to have
  come to rest in the middle of the frame gap before it was first seen at rest
  (:meth:`Tracker.settled`). A last card laid shortly before the sweep was otherwise seen twice
  at rest and never counted.

numpy, and OpenCV only for the part of a cut card in view (``obb.centroid_inside``); time is
whatever the frames say, so replays are deterministic.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from skullcam.vision.detection import Detection
from skullcam.vision.obb import centroid_inside
from skullcam.vision.picture_move import MIN_CARDS, PictureMove, measure_move

T = TypeVar("T")


@dataclass(frozen=True)
class TrackerConfig:
    """Tuning of the tracker; times in seconds, distances in card diagonals."""

    match_distance: float = 0.45
    """A detection this close to a track's centre (in the track's diagonals) may continue it."""
    nudge_distance: float = 0.75
    """Same-face detections may continue a track up to this far (a nudge, a hidden move)."""
    nudge_recent_s: float = 1.0
    """...but only a track seen this recently: a stale track (a swept card whose detections
    stopped) must not capture the next trick's card of the same face (escapes, loot)."""
    reacquire_s: float = 0.5
    """A track unseen longer than this is continued only by its own face: a new card laid where
    a swept one was (the same seat, the next trick) must not inherit the old card's identity."""
    reacquire_share: float = 0.2
    """...or by a face that got at least this share of the track's votes (a classifier that
    wavers between two faces of one card must not split it into two cards)."""
    min_hits: int = 3
    """Detections a track needs before it counts at all (filters one-frame false positives)."""
    still_fraction: float = 0.08
    """Movement below this fraction of the diagonal is jitter, not motion."""
    settle_s: float = 0.35
    """A confirmed card still for this long is stable (played)."""
    lost_s: float = 2.5
    """A confirmed track unseen this long is gone (hands hide cards, and a detector may miss a
    card, for less than this; measured misses on generated games reach 2 s)."""
    tentative_lost_s: float = 0.35
    """An unconfirmed track unseen this long is dropped (a false positive, a card in flight)."""
    merge_iou: float = 0.6
    """Two detections overlapping more than this are one card seen twice: keep the surer one."""
    min_confidence: float = 0.25
    """Detections below this confidence are ignored."""
    sparse_interval_s: float = 0.15
    """Frames further apart than this (the median of the last gaps: a machine too busy for the
    camera) are sparse: a track is then confirmed by ``sparse_min_hits`` sightings, and an
    unconfirmed one lives ``sparse_tentative_frames`` frame gaps if that is longer than
    ``tentative_lost_s``. At 10 frames/s or more nothing changes."""
    sparse_min_hits: int = 2
    """Sightings that confirm a track when frames are sparse: two, a frame gap or more apart,
    span as long as ``min_hits`` at 10 frames/s; one sighting never confirms a track."""
    sparse_tentative_frames: float = 2.0
    """An unconfirmed track outlives this many frame gaps unseen when frames are sparse (a card
    the detector missed once, or a hand passed over, is not dropped at the next frame)."""
    covered_rest_s: float = 0.2
    """A confirmed card seen lying still this long and then out of sight is stable once it
    would have settled (``settle_s`` from when it came to rest), unseen: a hand hovering over
    a card just laid hides it, and the card lies on under the hand. Seen still for less, it
    may be a card held over the table and taken back to the hand (one seen still this long
    gives way to a card laid in its seat: ``TrickStateMachine._displace_shown``). Without it,
    a card covered a moment before it had been seen still for ``settle_s`` would never count
    as played, and its trick would be swept a card short (synth game t204, a hand over the
    last card but one)."""
    moved_recent_s: float = 1.0
    """A card seen this recently still lies where it was last seen, for measuring a camera's
    move (:meth:`Tracker._picture_move`): a knock shakes a frame or two out of focus."""


@dataclass
class Track:
    """One physical card as followed across frames."""

    id: int
    center: np.ndarray
    box: tuple[float, float, float, float]
    corners: np.ndarray
    angle: float
    diag: float
    first_seen: float
    last_seen: float
    hits: int = 1
    votes: dict[str, float] = field(default_factory=dict)
    frames_by_face: dict[str, int] = field(default_factory=dict)
    read_at: dict[str, tuple[float, float]] = field(default_factory=dict)
    """When each face was first and last read on this card: a face first read after the
    card's own face was last read is a card laid on it (:meth:`Tracker._may_be`)."""
    still_since: float = 0.0
    anchor: np.ndarray = field(default_factory=lambda: np.zeros(2))
    stable_at: float | None = None
    arrival: float | None = None
    nudges: int = 0
    axis: np.ndarray = field(default_factory=lambda: np.zeros(2))
    """Sum of (cos 2a, sin 2a) of the long-axis angle: a half-turn-proof average direction."""
    rest_gap: float = 0.0
    """The gap between frames before the one where the card was first seen where it lies
    (since ``still_since``): it came to rest somewhere in that gap (:meth:`Tracker.settled`)."""
    seen_with: set[int] = field(default_factory=set)
    """Tracks detected on the same frame as this one, their boxes overlapping: two cards, the
    one laid on the other, not one card read two ways (the recognizer gives a card one box)."""
    off_played: int | None = None
    """The played card this track's first detection lay off the spot of, of another face
    (:meth:`Tracker._off_a_played_card`): read next as that card's face, while that card was
    not seen, it is that card nudged and misread (:meth:`Tracker._nudged_and_misread`)."""

    @property
    def card(self) -> str:
        """The voted face: the largest sum of confidences."""
        return max(self.votes.items(), key=lambda kv: (kv[1], kv[0]))[0]

    @property
    def confidence(self) -> float:
        """Share of the votes that went to the voted face, times its mean confidence."""
        total = sum(self.votes.values())
        face = self.card
        if total <= 0:
            return 0.0
        share = self.votes[face] / total
        mean = self.votes[face] / max(1, self.frames_by_face.get(face, 1))
        return float(share * mean)

    def ranked_faces(self) -> list[tuple[str, float]]:
        """Faces by vote, best first (the runner-up settles two tracks claiming one card)."""
        return sorted(self.votes.items(), key=lambda kv: (-kv[1], kv[0]))

    @property
    def mean_angle(self) -> float:
        """Average long-axis direction in ``[0, pi)``."""
        if not self.axis.any():
            return self.angle % math.pi
        return (math.atan2(float(self.axis[1]), float(self.axis[0])) / 2.0) % math.pi

    @property
    def stable(self) -> bool:
        return self.stable_at is not None

    def moved_to(self, point: np.ndarray) -> float:
        """How far ``point`` lies from where this card came to rest (``anchor``), in its
        diagonals: under ``still_fraction`` it is jitter of a card lying still."""
        return float(np.hypot(*(point - self.anchor))) / self.diag

    def diagonals_to(self, point: np.ndarray) -> float:
        """How far ``point`` lies from this card's centre, in the card's own diagonals (the
        unit every distance rule here is set in, whatever the camera's height)."""
        return float(np.hypot(*(point - self.center))) / self.diag


def _iou(a: Sequence[float], b: Sequence[float]) -> float:
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _diag(det: Detection) -> float:
    pts = np.asarray(det.corners, dtype=np.float64).reshape(-1, 2)
    if pts.shape[0] == 4:
        # The card's own diagonal (corner 0 to corner 2), independent of rotation.
        d = float(np.hypot(*(pts[2] - pts[0])))
        if d > 1.0:
            return d
    x1, y1, x2, y2 = det.box
    return max(1.0, math.hypot(x2 - x1, y2 - y1))


def centre_in_frame(det: Detection, frame_size: tuple[int, int] | None) -> np.ndarray:
    """Where the tracker places ``det``: its centre, or for a card whose outline runs past the
    frame of ``frame_size`` (width, height), the centroid of its part in view.

    The recognizer reports a cut card on either of two outlines: the box around its part in
    view where the first look names it, the whole card past the edge where only the edge look
    does (``vision/frame_edge.py``). For a card half in view the two centres lie about a fifth
    of a diagonal apart, more than ``still_fraction``: a card read one way and the other on
    alternate frames would never come to rest, and never count as played. Clipped to the
    frame, both outlines have nearly the same centre."""
    centre = np.asarray(det.center, dtype=np.float64)
    if frame_size is None:
        return centre
    width, height = frame_size
    pts = np.asarray(det.corners, dtype=np.float64).reshape(-1, 2)
    if pts.shape[0] < 3 or (pts.min() >= 0 and (pts <= (width, height)).all()):
        return centre
    frame = np.array([(0, 0), (width, 0), (width, height), (0, height)], np.float64)
    part = centroid_inside(pts, frame)
    return centre if part is None else part


def _only_once(by_face: dict[str, T], faces: Sequence[str]) -> dict[str, T]:
    """``by_face`` without the faces that ``faces`` names more than once (two escapes)."""
    counts = Counter(faces)
    return {face: v for face, v in by_face.items() if counts[face] == 1}


def _move_track(track: Track, move: PictureMove) -> None:
    """The track where the camera's ``move`` put its card: centre, outline and direction, and
    its resting place (a card the camera moved has not moved on the table)."""
    track.center = np.array(move.apply(track.center))
    track.anchor = np.array(move.apply(track.anchor))
    track.corners = np.array([move.apply(c) for c in track.corners])
    (x1, y1), (x2, y2) = track.corners.min(axis=0), track.corners.max(axis=0)
    track.box = (float(x1), float(y1), float(x2), float(y2))
    track.angle = (track.angle + move.turn) % math.pi
    axis = complex(*track.axis) * complex(math.cos(2 * move.turn), math.sin(2 * move.turn))
    track.axis = np.array([axis.real, axis.imag])
    track.diag *= move.scale


def merge_duplicates(detections: Sequence[Detection], iou: float) -> list[Detection]:
    """Drop a detection that overlaps a more confident one by more than ``iou``."""
    kept: list[Detection] = []
    for det in sorted(detections, key=lambda d: -d.confidence):
        if all(_iou(det.box, k.box) <= iou for k in kept):
            kept.append(det)
    return kept


class Tracker:
    """Feeds on ``update(detections, t)`` once per frame; holds the live tracks."""

    def __init__(self, config: TrackerConfig | None = None) -> None:
        self.config = config or TrackerConfig()
        self.tracks: dict[int, Track] = {}
        self._next_id = 1
        self._gaps: list[float] = []
        """The last gaps between frames' timestamps (:attr:`frame_interval`)."""
        self._interval = 0.0
        """Their median, taken once a frame: :attr:`sparse` is asked per track, several
        times a frame."""
        self._last_t: float | None = None
        self._gap = 0.0
        """The gap before the frame being tracked."""
        self.closing: frozenset[int] = frozenset()
        """The tracks of a completed trick waiting to be picked up (set by the trick state).
        Once every one of them has been unseen for ``nudge_recent_s`` the trick has been swept,
        and none of them takes a new card's detections: a player who plays an escape right
        after playing one, on the same spot, would otherwise continue the swept escape's
        track, and the new trick would be lost behind the old one. Before that, a card of
        the finished trick is continued only by its own face (as after ``reacquire_s``): a
        winner who leads at once on top of his own old card hides it, and the new card must
        not take over the hidden card's identity."""

        self.locked: frozenset[int] = frozenset()
        """More tracks continued only by their own face, as :attr:`closing`'s are (set by the
        trick state: cards that may have been swapped into the completed trick), without
        counting towards its sweep."""
        self.picture_moved: PictureMove | None = None
        """The camera's move measured on the last frame (the tracks were moved with it), else
        None: the trick state turns the seats with it."""
        self.retired: frozenset[int] = frozenset()
        """Tracks no detection continues (set by the trick state: a card of the completed
        trick taken away, another laid in its seat since). The same card laid there again is
        a new track: the winner leading with it on top of the card he swapped in, or a card
        only hidden meanwhile; the sweep tells which (:class:`TrickStateMachine`)."""

    GAPS_KEPT = 9
    """Frame gaps the median of :attr:`frame_interval` is taken over: one stalled frame does
    not make the frames sparse."""

    @property
    def frame_interval(self) -> float:
        """The median gap between the last frames (0 before the second frame)."""
        return self._interval

    @property
    def sparse(self) -> bool:
        """Whether frames come further apart than ``sparse_interval_s`` (a busy machine)."""
        return self.frame_interval > self.config.sparse_interval_s

    def _note_frame(self, t: float) -> None:
        self._gap = 0.0
        if self._last_t is not None and t > self._last_t:
            self._gap = t - self._last_t
            self._gaps = [*self._gaps[-(self.GAPS_KEPT - 1) :], self._gap]
            # statistics', not numpy's: the same median of nine floats, 0.3 ms a frame less.
            self._interval = float(statistics.median(self._gaps))
        self._last_t = t

    def _min_hits(self) -> int:
        cfg = self.config
        return min(cfg.min_hits, cfg.sparse_min_hits) if self.sparse else cfg.min_hits

    def _tentative_lost_s(self) -> float:
        cfg = self.config
        if not self.sparse:
            return cfg.tentative_lost_s
        return max(cfg.tentative_lost_s, cfg.sparse_tentative_frames * self.frame_interval)

    def settled(self, track: Track, t: float) -> bool:
        """Whether ``track`` has lain still ``settle_s`` at ``t``. With sparse frames it came
        to rest, on average, half the frame gap before it was first seen at rest: at one frame
        in 3 of a 10 frames/s camera, a card seen twice at rest 0.3 s apart lay still about
        0.45 s; counted from its first sighting it needed a third, and a last card swept 0.7 s
        after it landed had none."""
        still = t - track.still_since
        if self.sparse:
            still += track.rest_gap / 2.0
        return still >= self.config.settle_s - 1e-9

    def confirmed(self, track: Track) -> bool:
        return track.stable_at is not None or track.hits >= self._min_hits()

    def visible(self, track: Track, t: float) -> bool:
        return track.last_seen >= t - 1e-9

    def update(
        self,
        detections: Sequence[Detection],
        t: float,
        frame_size: tuple[int, int] | None = None,
    ) -> list[Track]:
        """Match this frame's detections; returns the confirmed tracks that are now gone.

        With the frame's ``frame_size`` (width, height), a card the frame's edge cuts is placed
        at the middle of its part in view (:func:`centre_in_frame`), however it was boxed."""
        cfg = self.config
        self._note_frame(t)
        dets = merge_duplicates(
            [d for d in detections if d.confidence >= cfg.min_confidence], cfg.merge_iou
        )
        centers = [centre_in_frame(d, frame_size) for d in dets]
        self.picture_moved = self._picture_move(dets, centers, t)
        if self.picture_moved is not None:
            for track in self.tracks.values():
                _move_track(track, self.picture_moved)
        closing = [self.tracks[i] for i in self.closing if i in self.tracks]
        swept = bool(closing) and all(t - tr.last_seen > cfg.nudge_recent_s for tr in closing)
        pairs: list[tuple[float, int, int]] = []
        off_played: dict[int, list[tuple[float, int]]] = {}
        for tid, track in self.tracks.items():
            if (swept and tid in self.closing) or tid in self.retired:
                continue
            best_face = track.card
            for j, det in enumerate(dets):
                dist = track.diagonals_to(centers[j])
                same = det.card == best_face
                unseen = t - track.last_seen
                held = unseen > cfg.reacquire_s or tid in self.closing or tid in self.locked
                off = self._off_a_played_card(track, centers[j])
                if not same and (held or off) and not self._may_be(track, det.card):
                    if off and not held and dist <= cfg.match_distance:
                        off_played.setdefault(j, []).append((dist, tid))  # maybe it, misread
                    continue
                if not same and self._face_of_neighbour(track, det.card):
                    continue
                near = dist <= cfg.match_distance
                if near or (same and unseen <= cfg.nudge_recent_s and dist <= cfg.nudge_distance):
                    # Same face is preferred at equal distance; stable cards before new ones.
                    cost = dist - (0.25 if same else 0.0) - (0.05 if track.stable else 0.0)
                    pairs.append((cost, tid, j))
        pairs.sort()
        used_tracks: set[int] = set()
        used_dets: set[int] = set()
        fed: list[tuple[int, int]] = []
        for _cost, tid, j in pairs:
            if tid in used_tracks or j in used_dets:
                continue
            used_tracks.add(tid)
            used_dets.add(j)
            fed.append((tid, j))
            self._feed(self.tracks[tid], dets[j], centers[j], t)
        for tid, j in fed:
            self._nudged_and_misread(self.tracks[tid], dets[j].card, t)
        for j, det in enumerate(dets):
            if j not in used_dets:
                spawned = self._spawn(det, centers[j], t)
                if j in off_played:
                    spawned.off_played = min(off_played[j])[1]
        # Spawned tracks too: a card laid on another is new on the frame it first shows.
        self._note_seen_together([tr for tr in self.tracks.values() if tr.last_seen >= t])
        gone: list[Track] = []
        for tid in list(self.tracks):
            track = self.tracks[tid]
            if track.last_seen >= t:
                continue
            if self._covered_at_rest(track, t):
                self._stabilise(track, t)
            if self.confirmed(track):
                if t - track.last_seen > cfg.lost_s:
                    gone.append(self.tracks.pop(tid))
            elif t - track.last_seen > self._tentative_lost_s():
                del self.tracks[tid]
        return gone

    @staticmethod
    def _note_seen_together(seen: Sequence[Track]) -> None:
        """Mark each pair of tracks seen on this frame with overlapping boxes (a card laid on
        another), so that the two are never taken for one card read two ways."""
        for k, a in enumerate(seen):
            for b in seen[k + 1 :]:
                if b.id not in a.seen_with and _iou(a.box, b.box) > 0.0:
                    a.seen_with.add(b.id)
                    b.seen_with.add(a.id)

    def _picture_move(
        self, dets: Sequence[Detection], centers: Sequence[np.ndarray], t: float
    ) -> PictureMove | None:
        """The camera's move since the cards were last seen, measured on the cards it moved
        (:mod:`skullcam.vision.picture_move`): each face seen once among the cards seen
        within ``moved_recent_s`` and once on this frame, not cut by the frame's edge (the centre
        of a cut card's part in view does not move with the picture)."""
        recent = [
            tr
            for tr in self.tracks.values()
            if self.confirmed(tr) and 0.0 < t - tr.last_seen <= self.config.moved_recent_s
        ]
        if len(recent) < MIN_CARDS or len(dets) < MIN_CARDS:  # an empty table, a trick just begun
            return None
        before = _only_once({tr.card: tr for tr in recent}, [tr.card for tr in recent])
        after = _only_once(
            {d.card: j for j, d in enumerate(dets) if tuple(centers[j]) == tuple(d.center)},
            [d.card for d in dets],
        )
        faces = sorted(set(before) & set(after))
        if not faces:
            return None
        diagonal = float(np.median([before[f].diag for f in faces]))
        return measure_move(
            [before[f].center for f in faces], [centers[after[f]] for f in faces], diagonal
        )

    def _face_of_neighbour(self, track: Track, face: str) -> bool:
        """Is ``face`` what a card seen on ``track`` (boxes overlapping, on one frame) reads?

        Then a detection of ``face`` by ``track`` is that other card (laid on this one, as a
        lead laid at once on the leader's own card of the last trick), not this card misread:
        fed to ``track`` it would turn the trick's card into the next trick's lead."""
        others = (self.tracks.get(i) for i in track.seen_with)
        return any(other is not None and other.card == face for other in others)

    def _off_a_played_card(self, track: Track, point: np.ndarray) -> bool:
        """Does ``point`` lie off the spot where ``track``, a played (stable) card, rests?

        A played card misread lies where it lay; a detection of another face away from it is
        another card laid on it (the next lead, before the trick is picked up), which is
        continued only by the faces the card has been read as (as after ``reacquire_s``).
        With frames far apart (2.5 frames/s) the lead is first seen already down on the card,
        the card still seen on the frame before, and the lead would otherwise take over its
        track: the trick would complete with the lead in the card's place."""
        return track.stable and track.moved_to(point) > self.config.still_fraction

    def _nudged_and_misread(self, track: Track, face: str, t: float) -> None:
        """Merge ``track`` into the played card it was first seen off the spot of, when it is
        read as that card's face (``face``, on this frame at ``t``) before it came to rest,
        that card not seen since ``track`` began.

        A sleeve nudges a played card and the moving card is misread: off the spot where it
        rests and of another face, the detection starts a track of its own
        (:meth:`_off_a_played_card`), and the card read right once it lay still, nearer that
        track than where it lay, went on with it: two cards in one seat, the trick complete a
        card early, the last card its next trick's. A card laid on the played card comes to
        rest read as its own face."""
        played = self.tracks.get(track.off_played) if track.off_played is not None else None
        if played is None or face != played.card or played.last_seen >= track.first_seen:
            return
        track.off_played = None
        if track.stable_at is None or track.stable_at >= t:
            self.merge(played, track.id)

    def _may_be(self, track: Track, face: str) -> bool:
        """May ``track``, held to the faces it was read as, be the card now read as ``face``?
        It has been read as ``face`` often enough (:meth:`_voted`) and, a card of the
        completed trick (:attr:`closing`) while frames are :attr:`sparse`, read so before it
        was last read as its own face.

        A face read only since then is a card laid on it: with frames far apart (2 a second)
        the winner's lead, laid exactly on his own card, is first seen there a frame before
        the trick is judged complete, or on that frame, where another face counts as the card
        misread (:meth:`_off_a_played_card`). Held to that face, the card went on as the
        lead, and the next trick lost its first card. A card misread flickers between its
        faces, its own read again after the other."""
        if not self._voted(track, face):
            return False
        if track.id not in self.closing or not self.sparse:
            return True  # at a camera's rate a lead is seen arriving, a track of its own
        own, other = track.read_at.get(track.card), track.read_at.get(face)
        return own is None or other is None or other[0] < own[1]

    def _voted(self, track: Track, face: str) -> bool:
        """Has this track been read as ``face`` often enough that it may be that card?"""
        total = sum(track.votes.values())
        return total > 0 and track.votes.get(face, 0.0) >= self.config.reacquire_share * total

    def _spawn(self, det: Detection, center: np.ndarray, t: float) -> Track:
        track = Track(
            id=self._next_id,
            center=center.copy(),
            box=det.box,
            corners=np.asarray(det.corners, dtype=np.float64).reshape(-1, 2),
            angle=det.angle,
            diag=_diag(det),
            first_seen=t,
            last_seen=t,
            hits=1,
            votes={det.card: det.confidence},
            frames_by_face={det.card: 1},
            read_at={det.card: (t, t)},
            still_since=t,
            rest_gap=self._gap,
            anchor=center.copy(),
            axis=np.array([math.cos(2 * det.angle), math.sin(2 * det.angle)]),
        )
        self._next_id += 1
        self.tracks[track.id] = track
        return track

    def _feed(self, track: Track, det: Detection, center: np.ndarray, t: float) -> None:
        cfg = self.config
        moved = track.moved_to(center)
        if moved > cfg.still_fraction:
            # It moved: a card in flight, or a nudge of a card already played.
            track.still_since = t
            track.rest_gap = self._gap
            track.anchor = center.copy()
            track.axis = np.zeros(2)
            if track.stable:
                track.nudges += 1
        track.center = center
        track.box = det.box
        track.corners = np.asarray(det.corners, dtype=np.float64).reshape(-1, 2)
        track.angle = det.angle
        track.diag = 0.8 * track.diag + 0.2 * _diag(det)
        track.axis = track.axis + np.array([math.cos(2 * det.angle), math.sin(2 * det.angle)])
        track.last_seen = t
        track.hits += 1
        track.votes[det.card] = track.votes.get(det.card, 0.0) + det.confidence
        track.frames_by_face[det.card] = track.frames_by_face.get(det.card, 0) + 1
        track.read_at[det.card] = (track.read_at.get(det.card, (t, t))[0], t)
        if track.stable_at is None and track.hits >= self._min_hits() and self.settled(track, t):
            self._stabilise(track, t)

    @staticmethod
    def _stabilise(track: Track, t: float) -> None:
        """``track`` is stable from ``t`` on, arrived when it came to rest (the play order)."""
        track.stable_at = t
        track.arrival = track.still_since

    def _covered_at_rest(self, track: Track, t: float) -> bool:
        """Whether ``track``, unseen on this frame, is a card hidden where it lay still (see
        ``covered_rest_s``) that has now lain there ``settle_s``."""
        seen_still = track.last_seen - track.still_since
        return (
            track.stable_at is None
            and track.hits >= self._min_hits()
            and seen_still >= self.config.covered_rest_s - 1e-9
            and self.settled(track, t)
        )

    def revive(self, old: Track, new_id: int) -> None:
        """A card reported gone is back: the new track ``new_id`` was it all along.

        The old identity (id, arrival, stability) continues with the new track's latest
        position and both tracks' votes.
        """
        self.merge(old, new_id)
        self.tracks[old.id] = old

    def merge(self, keep: Track, other_id: int) -> None:
        """Track ``other_id`` was ``keep``'s card all along: ``keep`` (its id, arrival and
        stability) takes its votes, and its position where it was seen last."""
        other = self.tracks.pop(other_id)
        for face, vote in other.votes.items():
            keep.votes[face] = keep.votes.get(face, 0.0) + vote
            keep.frames_by_face[face] = (
                keep.frames_by_face.get(face, 0) + other.frames_by_face[face]
            )
        for face, (first, last) in other.read_at.items():
            before = keep.read_at.get(face, (first, last))
            keep.read_at[face] = (min(before[0], first), max(before[1], last))
        if other.last_seen >= keep.last_seen:
            keep.center, keep.box, keep.corners = other.center, other.box, other.corners
            keep.angle, keep.last_seen = other.angle, other.last_seen
        keep.hits += other.hits
        keep.seen_with |= other.seen_with
        keep.seen_with.discard(keep.id)
        for track in self.tracks.values():  # seen with the other: seen with this card
            if other_id in track.seen_with:
                track.seen_with.discard(other_id)
                track.seen_with.add(keep.id)

    def same_spot(self, a: Track, b: Track) -> bool:
        """Whether two tracks' boxes overlap as one card's would (``merge_iou``)."""
        return _iou(a.box, b.box) > self.config.merge_iou

    def stable_tracks(self) -> list[Track]:
        """Stable tracks in arrival order."""
        out = [tr for tr in self.tracks.values() if tr.stable]
        return sorted(out, key=lambda tr: (tr.arrival or 0.0, tr.id))
