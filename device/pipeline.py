"""One frame at a time: recognize, track, follow the trick, resolve, record.

:class:`Pipeline` is the same for ``skullcam replay`` (a recording, as fast as possible, no
store) and ``skullcam run`` (a camera or the bundled game at real speed, recording into the
store): only the frame source and the listener differ. Replays are deterministic because every
decision uses frame timestamps, never the wall clock.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, Protocol

import numpy as np

from skullcam.captions import haloed_paragraph, haloed_text
from skullcam.device.picture_watch import PictureWatch
from skullcam.device.referee import Referee, TrickOutcome
from skullcam.device.sources import Frame
from skullcam.errors import UserError
from skullcam.rules import one_of_a_kind
from skullcam.vision.detection import Detection
from skullcam.vision.seats import SeatLayout
from skullcam.vision.tracker import Tracker, TrackerConfig
from skullcam.vision.trick_state import (
    CardPlayed,
    CardTakenBack,
    Event,
    MotionMeter,
    TableCleared,
    TrickAmended,
    TrickCompleted,
    TrickConfig,
    TrickObservation,
    TrickStateMachine,
)

logger = logging.getLogger(__name__)


def model_version_of(recognizer: object) -> str:
    """The recognizer's model version for the trick record; scripted fakes may have none."""
    for attr in ("version", "model_version"):
        value = getattr(recognizer, attr, None)
        if isinstance(value, str):
            return value
    return "unknown"


class FrameError(UserError):
    """The recognizer failed on one frame. Raised before the frame touched the tracker or the
    trick state, so a caller may skip the frame and go on (the live loop does: one bad frame
    must not end a game's recording), or stop with this message naming the frame."""

    def __init__(self, frame: Frame, cause: BaseException) -> None:
        what = str(cause) if isinstance(cause, UserError) else f"{type(cause).__name__}: {cause}"
        super().__init__(f"cannot recognize cards in {frame.describe()}: {what}")
        self.frame = frame


class EnteredTrick(NamedTuple):
    """A trick the table entered by hand: its place (round, trick counted from 0) and its
    (player, card) plays."""

    round: int
    trick: int
    plays: tuple[tuple[int, str], ...]


class RecognizerLike(Protocol):
    def __call__(self, frame_bgr: np.ndarray) -> list[Detection]: ...


class Listener(Protocol):
    """What the pipeline tells the outside world (the store recorder, a log printer)."""

    def on_trick(
        self, outcome: TrickOutcome, frame: Frame, detections: list[Detection]
    ) -> None: ...

    def on_live(self, plays: list[dict[str, Any]], leader: int | None, frame: Frame) -> None: ...

    def on_amended(
        self,
        outcome: TrickOutcome,
        frame: Frame,
        detections: list[Detection],
        index: int,
        before: str,
    ) -> None:
        """The latest trick was amended: play ``index`` (``before``) swapped before the pickup."""

    def recorded_game(self) -> Referee | None:
        """The game as the record holds it where a swap went in otherwise than it amended
        the referee (the table's typed card stands), for the pipeline to follow; else None."""


@dataclass
class PipelineStats:
    """Counters a benchmark or the live loop's log reads."""

    frames: int = 0
    tricks: int = 0
    repeats: int = 0
    """Frames that repeated the picture before them (a frozen camera), not recognized again
    and not counted in :attr:`frames`."""
    recognize_s: float = 0.0
    track_s: float = 0.0
    latencies: list[float] = field(default_factory=list)
    """Per trick: wall seconds from the frame that completed it to the listener returning."""


class Pipeline:
    """Recognizer + tracker + trick state machine + referee (+ an optional listener)."""

    def __init__(
        self,
        recognizer: RecognizerLike | Callable[[np.ndarray], list[Detection]],
        referee: Referee,
        layout: SeatLayout,
        listener: Listener | None = None,
        tracker_config: TrackerConfig | None = None,
        trick_config: TrickConfig | None = None,
        motion: bool = True,
        picture: PictureWatch | None = None,
    ) -> None:
        if layout.n_players != referee.n:
            raise ValueError(f"seat layout has {layout.n_players} seats for {referee.n} players")
        self.recognizer = recognizer
        self.referee = referee
        self.listener = listener
        self.tracker = Tracker(tracker_config)
        self.machine = TrickStateMachine(
            layout, trick_config, leader=referee.leader(), seat_names=referee.players
        )
        self.motion = MotionMeter() if motion else None
        self.picture = picture
        """Tells a frozen camera's repeated frames (not recognized again) and judges the
        picture's focus; None where the frames are scripted (tests feed one blank image over
        and over)."""
        self._detections: list[Detection] = []
        """The last recognized frame's detections, which a repeat of its picture shows too."""
        self.outcomes: list[TrickOutcome] = []
        self.stats = PipelineStats()
        self.last_frame_index = -1
        self.last_frame: Frame | None = None
        self._amendable = False
        """The trick on the table is the latest one recorded (a swap amends it)."""
        self._said_moved = False
        self.frame_size: tuple[int, int] | None = None
        """The first frame's (width, height): later frames are scaled to it."""
        self._sizes_said: set[tuple[int, int]] = set()
        self.resume_cards: list[list[str]] = []
        """After a restart, or when a camera goes on to the next game: the last recorded
        trick's cards (of the game before), as recorded and as first read where corrected. If
        the first trick seen holds exactly one of these, or is swept away holding only cards of
        one (the camera came back as it was being picked up), it is that trick still on the
        table, not a new one: it is skipped, and stands for the last recorded trick (a swap
        amends it, and the round goes on after it as after any trick)."""
        self.seen_again: list[EnteredTrick] = []
        """A recording played into a game again: the tricks the table entered by hand after
        the last one it recorded, in game order. They were played in front of it while nothing
        recorded it, and it goes on from before them (after its own last trick's frame: a trick
        entered by hand has none). A trick it completes holding the next one's cards by the
        same players, but for one read otherwise (:func:`laid_again`), is that trick seen again:
        not recorded (the referee already counts it; recorded, it would go in as the game's
        next trick, and every later one a place late). The first trick that is not ends them:
        the recording is past them."""

    @property
    def model_version(self) -> str:
        return model_version_of(self.recognizer)

    def process(self, frame: Frame) -> list[TrickOutcome]:
        """Feed one frame; returns the tricks it completed or amended (usually none).

        A recognizer failure is a :class:`FrameError`, raised before any state changed. A
        frame repeating the one before (:attr:`picture`: a frozen camera) is not recognized
        again: what it shows is what the picture it repeats showed, and time goes on, so a card
        that landed just before the freeze settles. The first new picture after it counts as
        after a gap in the frames: the table was unseen meanwhile."""
        frame = self._at_first_size(frame)
        t0 = time.perf_counter()
        repeat = self.picture is not None and self.picture.repeats(frame)
        if repeat:
            detections = list(self._detections)
            self.stats.repeats += 1
        else:
            try:
                detections = list(self.recognizer(frame.image))
            except Exception as err:
                raise FrameError(frame, err) from err
        t1 = time.perf_counter()
        height, width = frame.image.shape[:2]
        gone = self.tracker.update(detections, frame.timestamp, (width, height))
        motion = self.motion(frame.image) if self.motion is not None else None
        stale = None if repeat or self.picture is None else self.picture.stale_since
        events = self.machine.update(self.tracker, gone, frame.timestamp, motion, stale)
        self.last_frame_index = frame.index
        if not repeat:
            self._detections = detections
            self.stats.recognize_s += t1 - t0
            self.stats.track_s += time.perf_counter() - t1
            self.stats.frames += 1
            if self.picture is not None:
                self.picture.seen(frame, detections)
        done: list[TrickOutcome] = []
        for event in events:
            outcome = self._handle(event, frame, detections, t0)
            if outcome is not None:
                done.append(outcome)
        self._follow_the_record()
        return done

    def _follow_the_record(self) -> None:
        """Take the game as the listener records it where a swap the camera saw, which
        amended the referee, went in otherwise (a trick the table entered by hand keeps the
        card typed, the swap a doubt on it): the next trick's leader is the record's.
        Otherwise the referee would keep the swapped card, and where that changed who won,
        the next trick would be awaited from the swap's winner and recorded "Cai led, but the
        game expected Ben to lead" though the record had Cai win."""
        recorded = self.listener.recorded_game() if self.listener is not None else None
        if recorded is None:
            return
        self.referee = recorded
        self.machine.set_leader(recorded.leader())

    def _at_first_size(self, frame: Frame) -> Frame:
        """The frame at the size of the first one, scaled to it where it differs (said once
        for each size). The seats and every track lie in the first frame's pixels: a folder
        of frames that changed size mid-game put the same card in two places, and a trick
        was recorded with two cards read twice and two lost."""
        height, width = frame.image.shape[:2]
        if self.frame_size is None:
            self.frame_size = (width, height)
        if (width, height) == self.frame_size:
            return frame
        if (width, height) not in self._sizes_said:
            self._sizes_said.add((width, height))
            logger.warning(
                "%s is %dx%d pixels where the first frame was %dx%d: scaled to that size (a "
                "recording's frames should all be one size)",
                frame.describe(),
                width,
                height,
                *self.frame_size,
            )
        import cv2

        image = cv2.resize(frame.image, self.frame_size, interpolation=cv2.INTER_AREA)
        return replace(frame, image=image)

    def _handle(
        self, event: Event, frame: Frame, detections: list[Detection], t0: float
    ) -> TrickOutcome | None:
        if isinstance(event, TableCleared):
            self.resume_cards = []
            self._amendable = False
        if isinstance(event, TrickAmended):
            return self._amend(event, frame, detections)
        if isinstance(event, TrickCompleted):
            guard, self.resume_cards = self.resume_cards, []
            if any(_is_still_on_the_table(event.trick, cards) for cards in guard):
                logger.info("the last recorded trick is still on the table; not recorded again")
                # As if it had just been recorded: a swap amends it, and a round's last trick
                # leaves the hands empty (its cards are not the next round's).
                self.machine.round_continues = self.referee.trick > 0
                self._amendable = bool(self.referee.rounds and self.referee.rounds[-1])
                return None
            if self._is_seen_again(event.trick):
                return None
            if self.referee.finished:
                logger.warning("a trick after the last round was ignored (frame %d)", frame.index)
                return None
            outcome = self.referee.add(event.trick)
            self.machine.set_leader(self.referee.leader())
            self.machine.round_continues = self.referee.trick > 0  # not after a round's last
            self._amendable = True
            self._follow_the_move(outcome)
            self.outcomes.append(outcome)
            self.stats.tricks += 1
            self._say_if_the_table_moved()
            if self.listener is not None:
                self.listener.on_trick(outcome, frame, detections)
            self.stats.latencies.append(time.perf_counter() - t0)
            return outcome
        if isinstance(event, CardPlayed | CardTakenBack | TableCleared) and self.listener:
            self.listener.on_live(self._shown_live(), self.machine.leader, frame)
        return None

    def _follow_the_move(self, outcome: TrickOutcome) -> None:
        """Where recording ``outcome`` moved the trick before it to its round's first place
        (``TrickOutcome.refiled_before``), :attr:`outcomes` hold that trick at its new place,
        where it was recorded among them: left at its old place, it was paired there with the
        trick the camera lost (the bench's per-trick latency)."""
        if outcome.refiled_before is None:
            return
        moved = self.referee.rounds[outcome.round - 1][0]
        for k in range(len(self.outcomes) - 1, -1, -1):
            if (self.outcomes[k].round, self.outcomes[k].trick) == outcome.refiled_before:
                self.outcomes[k] = moved
                return

    def _is_seen_again(self, trick: TrickObservation) -> bool:
        """Whether ``trick`` is the next of :attr:`seen_again`, taken off it then (the round
        goes on after it as after any trick); any other trick ends them."""
        if not self.seen_again:
            return False
        entered = self.seen_again.pop(0)
        seen = list(zip(trick.players, (p.card for p in trick.plays), strict=True))
        if not laid_again(seen, entered, same_round=self.referee.round == entered.round):
            self.seen_again = []
            return False
        logger.info(
            "round %d trick %d, entered by hand, is seen again in the recording%s: not "
            "recorded again",
            entered.round,
            entered.trick + 1,
            _read_otherwise(seen, entered, self.referee.players),
        )
        self.machine.round_continues = entered.trick + 1 < self.referee.tricks_in(entered.round)
        self._amendable = False  # the table's entry stands: a swap seen now is not the last trick's
        return True

    def _shown_live(self) -> list[dict[str, Any]]:
        """The cards on the table as the TV shows them: as the game's next trick, so none
        while they are the next trick entered by hand being laid again (:attr:`seen_again`:
        a recording catching up on what the table already played and entered), because that
        trick is not being played: shown, it would be the next trick with a winner so far.
        Cards that turn out to be a new trick are shown from the first that says so (a new
        round's lead, dealt one of that trick's cards again, waits for the next card)."""
        plays = self.live_plays()
        if self.seen_again and plays:
            entered = self.seen_again[0]
            seen = [(int(p["player"]), str(p["card"])) for p in plays]
            if laid_again(seen, entered, whole=False):
                return []
        return plays

    def _say_if_the_table_moved(self) -> None:
        """Log once when the tricks have left the calibrated seats (a knocked or turned camera,
        a moved table): seats follow them, but a fresh calibration is better than following."""
        drift = self.machine.drift
        if drift.moved and not self._said_moved:
            x, y = drift.layout.centre
            turned = drift.turned_degrees
            way = "clockwise" if turned > 0 else "anticlockwise"
            logger.warning(
                "the tricks are laid around (%.0f, %.0f), %.0f px from the seat calibration's "
                "centre%s: seats follow them; if the camera or the table moved, run 'skullcam "
                "calibrate' again",
                x,
                y,
                drift.moved_px,
                f", turned {abs(turned):.0f} degrees {way}" if abs(turned) >= 1.5 else "",
            )
        self._said_moved = drift.moved
        if self.picture is not None:
            self.picture.table_moved(drift.moved)

    def _amend(
        self, event: TrickAmended, frame: Frame, detections: list[Detection]
    ) -> TrickOutcome | None:
        """A card of the trick just recorded was swapped: record the trick as it now lies."""
        if not self._amendable:  # that trick was not recorded (skipped, swept, after the end)
            return None
        outcome = self.referee.amend_last(event.trick)
        self.machine.set_leader(self.referee.leader())
        last = self.outcomes[-1] if self.outcomes else None
        if last is not None and (last.round, last.trick) == (outcome.round, outcome.trick):
            self.outcomes[-1] = outcome
        else:  # a trick recorded before a restart, still on the table
            self.outcomes.append(outcome)
        new = outcome.plays[event.index][1]
        logger.info(
            "round %d trick %d: %s swapped for %s after the trick completed",
            outcome.round,
            outcome.trick + 1,
            event.before,
            new,
        )
        if self.listener is not None:
            self.listener.on_amended(outcome, frame, detections, event.index, event.before)
        return outcome

    def live_plays(self) -> list[dict[str, Any]]:
        """The cards of the trick on the table now, in arrival order, with their seats."""
        out: list[dict[str, Any]] = []
        for tid in self.machine.members:
            tr = self.tracker.tracks.get(tid)
            if tr is None:
                continue
            center = (float(tr.center[0]), float(tr.center[1]))
            out.append(
                {
                    "player": self.machine.layout.seat_of(center),
                    "card": tr.card,
                    "confidence": round(tr.confidence, 3),
                }
            )
        return out

    def run(
        self, frames: Iterable[Frame], stop: Callable[[], bool] | None = None
    ) -> list[TrickOutcome]:
        """Process frames until they end, ``stop()`` says so, or the game is over."""
        for frame in frames:
            self.process(frame)
            self.last_frame = frame
            if self.referee.finished or (stop is not None and stop()):
                break
        return self.outcomes

    def finish(self, frame: Frame | None = None) -> list[TrickOutcome]:
        """End of a recording: report a trick left incomplete on the table (short, flagged)."""
        t = frame.timestamp if frame is not None else 0.0
        done: list[TrickOutcome] = []
        if self.referee.finished:
            return done
        for event in self.machine.flush(self.tracker, t):
            if frame is not None:
                outcome = self._handle(event, frame, [], time.perf_counter())
                if outcome is not None:
                    done.append(outcome)
        return done


BLACK, WHITE = (0, 0, 0), (255, 255, 255)
SEAT_RAY = (200, 200, 200)
"""Light grey: the line from the seat centre to each card on the annotated image."""


def annotate(
    image: np.ndarray, outcome: TrickOutcome, players: list[str] | None = None
) -> np.ndarray:
    """A copy of the completion frame with each card's box, name, play order and the winner,
    and a line to each card from the centre its seat was read from (a seat in doubt is
    checked by eye)."""
    import cv2

    out = image.copy()
    obs = outcome.observation
    if obs is None:
        return out
    if obs.seat_centre is not None:  # each card's seat is its direction from here
        centre = (round(obs.seat_centre[0]), round(obs.seat_centre[1]))
        for play in obs.plays:
            cv2.line(out, centre, (round(play.center[0]), round(play.center[1])), SEAT_RAY, 1)
        cv2.drawMarker(out, centre, SEAT_RAY, cv2.MARKER_CROSS, 14, 2)
    for k, (play, player) in enumerate(zip(obs.plays, obs.players, strict=True)):
        won = outcome.winner is not None and player == outcome.winner
        colour = (0, 200, 255) if won else (60, 220, 60)
        x1, y1, x2, y2 = (round(v) for v in play.box)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, 3 if won else 2)
        name = players[player] if players and player < len(players) else f"P{player}"
        label = f"{k + 1}. {play.card} ({name})"
        haloed_text(out, label, (x1, max(12, y1 - 5)), colour, BLACK)
    if outcome.result is not None:
        haloed_paragraph(out, outcome.result.explanation, 6, WHITE, BLACK)
    return out


def trick_log_lines(outcomes: Iterable[TrickOutcome], players: list[str]) -> list[str]:
    """The human trick log of ``skullcam replay``: one line per trick, flags indented."""
    lines: list[str] = []
    for o in outcomes:
        plays = ", ".join(f"{players[p]} {c}" for p, c in o.plays)
        who = "nobody" if o.winner is None else players[o.winner]
        lines.append(f"round {o.round} trick {o.trick + 1}: {plays} -> {who}")
        if o.result is not None:
            lines.append(f"    {o.result.explanation}")
        lines.extend(f"    ! {flag}" for flag in o.flags)
    return lines


def laid_again(
    seen: Sequence[tuple[int, str]],
    entered: EnteredTrick,
    same_round: bool = False,
    whole: bool = True,
) -> bool:
    """Whether the (player, card) plays ``seen`` are the trick ``entered`` by hand laid again:
    its plays, but for at most one read otherwise (a card misread, missed, or read in another
    seat). ``whole``: ``seen`` is a completed trick, else the cards laid so far.

    One play off is forgiven from a rule of the deck: in one round every card is played at most
    once, but the escapes and loots (several copies) and an unnamed pirate or mermaid (any of
    several). So a new trick of ``entered``'s round (``same_round``) cannot hold one of its
    one-of-a-kind cards, and one of them laid by the same player is that trick again. A new
    trick of a later round is dealt from a new hand and may hold one by chance: two are asked
    for then, but for cards laid so far (not ``whole``), which only keep them off the TV as
    the next trick until a card says otherwise, and record nothing. Escapes and loots prove
    nothing: without such cards only the exact plays are that trick. The one read otherwise
    is forgiven so that a copy with one card misread does not go in as the game's next trick,
    every later one a place late."""
    want, got = Counter(entered.plays), Counter(seen)
    extra, missing = got - want, want - got
    if extra.total() > 1 or (whole and missing.total() > 1):
        return False
    if whole and not extra and not missing:
        return True
    proof = sum(n for (_, card), n in (got & want).items() if one_of_a_kind(card))
    return proof >= (1 if same_round or not whole else 2)


def _read_otherwise(
    seen: Sequence[tuple[int, str]], entered: EnteredTrick, players: Sequence[str]
) -> str:
    """For the log: what the recording read otherwise than the table entered (empty: none)."""
    want, got = Counter(entered.plays), Counter(seen)

    def named(plays: Counter[tuple[int, str]]) -> str:
        said = [f"{players[p] if p < len(players) else f'P{p}'} {c}" for p, c in plays.elements()]
        return ", ".join(sorted(said)) or "nothing"

    if got == want:
        return ""
    return f" (it read {named(got - want)} where the table entered {named(want - got)})"


def _is_still_on_the_table(trick: TrickObservation, recorded: list[str]) -> bool:
    """Whether the first trick seen after a restart is the last recorded one (``recorded``,
    its cards): the same cards, or, swept before it was complete, only cards of it. A new
    trick is not made only of cards the last trick took (each is played once a round, and a
    round's first trick is dealt from a new hand), escapes and loot aside: a short new trick
    of only those would be skipped, where it could only have been recorded short anyway."""
    seen = Counter(p.card for p in trick.plays)
    if trick.swept:
        return bool(seen) and not seen - Counter(recorded)
    return seen == Counter(recorded)
