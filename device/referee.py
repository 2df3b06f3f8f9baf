"""Game state for the pipeline: whose lead, which round, and each observed trick resolved.

The camera knows where cards lie and in which order they came; the *game* knows who leads
(left of the dealer, then each trick's winner), how many tricks a round has, and which cards
already fell this round. :class:`Referee` joins the two: it hands the trick state machine the
leader of each trick, resolves every completed trick with ``skullcam.rules``, flags what a
person must confirm (a card seen twice in a round, an expansion card whose setting is off, a
trick no deck can produce), and builds the ``skullcam-game/1`` record.

A restarted recorder rebuilds it from the store's tricks and the table's choices
(``device/recorder.py``: ``referee_from_store``), Rosie's recorded choices with
:meth:`Referee.take_rosie_choice`.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from skullcam.counts import counted
from skullcam.rules import (
    RulesError,
    Settings,
    TrickResult,
    cards_in_round,
    dealer_of_round,
    face_of,
    first_leader,
    one_of_a_kind,
    parse_card,
    resolve_trick,
    score_as_played,
    unresolved_reason,
)
from skullcam.rules.record import FORMAT as GAME_FORMAT
from skullcam.rules.table import ALREADY_PLAYED, LED_UNEXPECTEDLY, already_played
from skullcam.vision.trick_state import TrickObservation

logger = logging.getLogger(__name__)

ABILITY_ASK = "ability: ask the table (recorded as no change)"
"""The flag on a trick Rascal or Harry won: the camera cannot see the choice. Where a store
asks the table for it (``device/trick_images.py``), the question stands in for the flag."""


def is_ability_ask(flag: str) -> bool:
    """Whether ``flag`` only says a pirate's choice is to be asked (no doubt about the cards)."""
    return flag.endswith(ABILITY_ASK)


@dataclass(frozen=True)
class TrickOutcome:
    """One recorded trick: where it sits in the game, its plays, resolution and flags."""

    round: int
    trick: int
    plays: tuple[tuple[int, str], ...]
    """(player, card id) in play order."""
    result: TrickResult | None
    winner: int | None
    """Winning *player* (not play index), ``None`` for a destroyed/discarded trick."""
    next_leader: int | None
    flags: tuple[str, ...]
    observation: TrickObservation | None = None
    refiled_before: tuple[int, int] | None = None
    """Where the referee had filed the trick before this one, which this one showed to be
    its round's first (:meth:`Referee.follows_a_lost_first_trick`): the store moves it from
    there to its place as this one is recorded. None for every other trick."""

    def plays_json(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for k, (player, card) in enumerate(self.plays):
            play: dict[str, Any] = {"player": player, "card": card}
            if self.observation is not None:
                play["confidence"] = round(self.observation.plays[k].confidence, 4)
            out.append(play)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "trick": self.trick,
            "plays": self.plays_json(),
            "winner": self.winner,
            "next_leader": self.next_leader,
            "explanation": None if self.result is None else self.result.explanation,
            "flags": list(self.flags),
        }


def _plays_of(observation: TrickObservation) -> tuple[tuple[int, str], ...]:
    """(player, card id) of each play of ``observation``, in play order."""
    return tuple(
        (player, play.card)
        for player, play in zip(observation.players, observation.plays, strict=True)
    )


def _is_doubt(flag: str) -> bool:
    """Whether ``flag`` is the camera's doubt (a swap, a take-back, a short trick...): a doubt
    may stand for a trick it lost. A pirate's question to the table is no doubt of the cards."""
    return not is_ability_ask(flag)


def _doubted(outcome: TrickOutcome) -> bool:
    """Whether the camera doubted ``outcome`` (:func:`_is_doubt`)."""
    return any(_is_doubt(flag) for flag in outcome.flags)


def _judged_by_place(flag: str) -> bool:
    """Whether ``flag`` is a doubt the trick's place gave it (led by another than the game
    expected there, a card already played in its round): judged again at a new place."""
    return bool(LED_UNEXPECTEDLY.fullmatch(flag) or ALREADY_PLAYED.fullmatch(flag))


def _given_by_or_read_from(choice: dict[str, Any], trick: int) -> bool:
    """Whether the pirate's ``choice`` goes with trick ``trick`` (0-based) of its round when
    that trick moves off: the choice its own winning pirate gave, or Rosie's on the trick
    before it, read from its lead. The place it leaves is the trick lost, whose leader
    nobody knows, so her choice is the table's to give (the store drops it alike)."""
    rosie_before = choice["pirate"] == "pirate-rosie" and choice["trick"] == trick - 1
    return bool(choice["trick"] == trick or rosie_before)


#: The bids of each round and the pirates' choices of each round, as the table entered them.
TableChoices = tuple[list[list[Any]], list[list[dict[str, Any]]]]


@dataclass
class Referee:
    """Follows one game trick by trick; players are seat indices ``0..n-1`` clockwise."""

    players: list[str]
    first_dealer: int = 0
    settings: Settings = field(default_factory=Settings)
    bids: list[list[int]] | None = None
    rounds: list[list[TrickOutcome]] = field(default_factory=list)
    abilities: list[list[dict[str, Any]]] = field(default_factory=list)
    #: Where the bids and the pirates' choices are kept while the game is played (the store,
    #: where phones enter them): read when a tie after the last round may call for a
    #: tie-break round, at most once a second or when a trick comes.
    table_source: Callable[[], TableChoices] | None = None
    _pending_rosie: tuple[int, int] | None = None
    _table: tuple[float, int, TableChoices] | None = None  # read at, tricks then, what
    _due: tuple[str, int] | None = None  # (record scored, rounds due) last worked out

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def round(self) -> int:
        """The round being played (1-based); past the last round when the game is over."""
        if not self.rounds:
            return 1
        last = len(self.rounds)
        return last + 1 if len(self.rounds[-1]) >= self.tricks_in(last) else last

    @property
    def trick(self) -> int:
        """Index (0-based) of the next trick within :attr:`round`."""
        r = self.round
        return len(self.rounds[r - 1]) if r <= len(self.rounds) else 0

    @property
    def finished(self) -> bool:
        return self.round > self.settings.rounds and self.round > self.rounds_due()

    def rounds_due(self) -> int:
        """The game's rounds, and a tie-break round each time the last one ends with the lead
        tied under ``tie=extra_round`` (scored from the bids, once per trick played)."""
        rounds = self.settings.rounds
        if self.settings.tie != "extra_round":
            return rounds
        record = self._record_with_table()
        key = json.dumps(record, sort_keys=True)
        if self._due is not None and self._due[0] == key:
            return self._due[1]
        try:
            due = max(rounds, score_as_played(record).rounds_due)
        except (RulesError, TypeError, ValueError, KeyError):  # a bid not entered yet, say
            due = rounds
        self._due = (key, due)
        return due

    def _record_with_table(self) -> dict[str, Any]:
        """The record as scored, with the table's bids and choices (``table_source``)."""
        if self.table_source is None:
            return self.record()
        played = sum(len(r) for r in self.rounds)
        now = time.monotonic()
        if self._table is None or self._table[1] != played or now - self._table[0] >= 1.0:
            self._table = (now, played, self.table_source())
        bids, abilities = self._table[2]
        self.bids = bids or self.bids
        record = self.record()
        for rnd, chosen in zip(record["rounds"], abilities, strict=False):
            rnd.pop("abilities", None)
            if chosen:
                rnd["abilities"] = chosen
        return record

    def tricks_in(self, round_number: int) -> int:
        return cards_in_round(round_number, self.n, self.settings.rounds)

    def leader(self) -> int | None:
        """Who leads the next trick; ``None`` when only the table knows (Rosie's choice)."""
        r = self.round
        if r > len(self.rounds) or not self.rounds[r - 1]:
            return first_leader(dealer_of_round(self.first_dealer, r, self.n), self.n)
        return self.rounds[r - 1][-1].next_leader

    def add(self, observation: TrickObservation) -> TrickOutcome:
        """Resolve an observed trick and append it to the game: to the next round when it
        opens that round (:meth:`opens_next_round`), the tricks of this round not seen left
        as tricks of no cards; to a round's second place when its first trick was filed in
        the round before (:meth:`follows_a_lost_first_trick`), that trick moved to the
        round's first place and its own left empty (:meth:`_refile_first_trick`)."""
        plays = _plays_of(observation)
        flags = list(observation.flags)
        if self.opens_next_round(plays, flags):
            flags = [flag for flag in flags if not LED_UNEXPECTEDLY.fullmatch(flag)]
            self._close_round()
        elif self.follows_a_lost_first_trick(plays):
            flags = [flag for flag in flags if not LED_UNEXPECTEDLY.fullmatch(flag)]
            moved_from = self._refile_first_trick()
            outcome = self.add_plays(plays, flags, observation)
            self.rounds[-1][-1] = replace(outcome, refiled_before=moved_from)
            return self.rounds[-1][-1]
        return self.add_plays(plays, flags, observation)

    def opens_next_round(self, plays: Sequence[tuple[int, str]], flags: Sequence[str] = ()) -> bool:
        """Whether ``plays``, seen mid-round, are the next round's first trick: led by the
        player who leads that round, either out of turn (not by the last trick's winner) or
        with a card already played this round (the deck was dealt again), in a round where
        the camera already doubted a trick (a card swapped after the trick completed, cards
        taken back, a trick swept short). A trick the camera lost (swept between two of the
        frames it read, or taken for a swap of the trick before it) otherwise files every
        later trick of the game a place early; caught here, it costs its own round's places
        alone. A round without a doubt keeps a lead out of turn: a table can play one. So
        does a round with more of its tricks left to play than tricks it doubted: each doubt
        stands for one trick lost at most, and a table leading out of turn by chance early in
        a round would lose the rest of it, every later trick of the game filed rounds early.
        A doubt of the camera's about this trick itself (its ``flags``, other than the lead
        out of turn judged here) counts too: a trick seen badly (swept before its cards lay
        all at once) is where the camera lost frames, as it does where it loses a trick."""
        r = self.round
        if self.trick == 0 or not plays or r >= self.rounds_due():
            return False
        lead = plays[0][0]
        if lead != first_leader(dealer_of_round(self.first_dealer, r + 1, self.n), self.n):
            return False
        doubts = sum(_doubted(outcome) for outcome in self.rounds[r - 1])
        doubts += any(_is_doubt(flag) and not LED_UNEXPECTEDLY.fullmatch(flag) for flag in flags)
        if self.tricks_in(r) - self.trick > doubts:
            return False
        expected = self.leader()
        out_of_turn = expected is not None and lead != expected
        return out_of_turn or bool(self._repeated(plays))

    def follows_a_lost_first_trick(self, plays: Sequence[tuple[int, str]]) -> bool:
        """Whether ``plays``, seen as a round's first trick, are its second: its first was
        filed as the last round's last trick, a trick of that round lost.

        So when the player who leads this round led that last trick, its winner leads these
        out of turn, and the camera doubted a trick of the last round. Each trick is led by
        the winner of the one before, so that trick and these follow each other as this
        round's first and second. Filed as the first, every trick of the round went a place
        early (29 generated games, the generator's truth as recognizer, one frame in 5 and
        in 6: three rounds, ten tricks). That filed trick moves to this round's first place
        (:meth:`_refile_first_trick`), so the round is in its places, and the last round's
        last place, the trick really lost, is left to enter by hand. A table leading a
        round's first trick out of turn by mistake keeps it there unless all three hold."""
        r = self.round
        if self.trick != 0 or not plays or r == 1 or self.tricks_in(r) < 2:
            return False
        before = self.rounds[r - 2]
        last = before[-1] if before else None
        leader = self.leader()
        if last is None or not last.plays or plays[0][0] == leader:
            return False
        if last.plays[0][0] != leader or last.next_leader != plays[0][0]:
            return False
        return any(_doubted(outcome) for outcome in before)

    def _refile_first_trick(self) -> tuple[int, int]:
        """Move the last round's last trick, this round's first trick
        (:meth:`follows_a_lost_first_trick`), to this round's first place, resolved again
        there, the doubts its old place gave it (led out of turn, a card already played in
        that round) judged anew; leave its old place empty (a trick of no cards, no winner:
        the trick really lost, for the table to enter), and a Rosie's choice on the trick
        before it, read from its lead, goes (:func:`_given_by_or_read_from`). The store moves
        it alike as the next trick is recorded (``GameStore.record_trick``'s
        ``refile_before``), so the camera and a referee taken up from the store agree. Returns
        its old place."""
        before = self.round - 2  # the last round's index; this round has no trick yet
        last = self.rounds[before].pop()
        self.abilities[before] = [
            a for a in self.abilities[before] if not _given_by_or_read_from(a, last.trick)
        ]
        logger.info(
            "round %d trick %d was round %d's first trick: moved there, its place left to enter",
            last.round,
            last.trick + 1,
            last.round + 1,
        )
        self.add_plays(())
        flags = [flag for flag in last.flags if not _judged_by_place(flag)]
        self.add_plays(last.plays, flags, last.observation)
        return last.round, last.trick

    def _repeated(self, plays: Sequence[tuple[int, str]]) -> list[str]:
        """The cards of ``plays`` already played this round, by face: the Tigress played as a
        pirate and then as an escape is one card twice; a card the deck holds several of (an
        escape, an unnamed pirate) may come back."""
        r = self.round
        done = self.rounds[r - 1] if r <= len(self.rounds) else []
        seen = {face_of(card) for outcome in done for _, card in outcome.plays}
        return [card for _, card in plays if one_of_a_kind(card) and face_of(card) in seen]

    def _close_round(self) -> None:
        """End the round being played with its unseen tricks as tricks of no cards (no
        winner; the store keeps their places empty for the table to enter). A Rosie's choice
        still awaited is lost with them: the next card is the next round's lead."""
        r, t = self.round, self.trick
        logger.info(
            "round %d: %s of %s seen before the next round's lead; the rest are left to enter",
            r,
            t,
            counted(self.tricks_in(r), "trick"),
        )
        self._pending_rosie = None
        while self.round == r and not self.finished:
            self.add_plays(())

    def add_plays(
        self,
        plays: Sequence[tuple[int, str]],
        flags: list[str] | None = None,
        observation: TrickObservation | None = None,
    ) -> TrickOutcome:
        """Append a trick given as (player, card) pairs in play order."""
        if self.finished:
            raise RulesError(f"the game is over after {counted(self.rounds_due(), 'round')}")
        flags = list(flags or [])
        r, t = self.round, self.trick
        if r > len(self.rounds):
            self.rounds.append([])
            self.abilities.append([])
        self._read_rosie_choice(plays)
        flags.extend(already_played(card) for card in self._repeated(plays))
        result: TrickResult | None = None
        winner: int | None = None
        next_leader: int | None = None
        if len(plays) != self.n:
            # A short trick (cards missed): no resolution is better than a wrong one; the next
            # leader is read from the next trick's first card.
            flags.append(f"cannot resolve: {counted(len(plays), 'card')} for {self.n} players")
            plays = tuple(plays)
        try:
            if len(plays) != self.n:
                raise RulesError("short trick")
            cards = [parse_card(card) for _, card in plays]
            names = [self.players[p] for p, _ in plays]
            result = resolve_trick(cards, self.settings, names)
        except RulesError as err:
            if len(plays) == self.n:
                flags.append(f"cannot resolve: {unresolved_reason(err, [c for _, c in plays])}")
        if result is not None:
            winner = None if result.winner is None else plays[result.winner][0]
            next_leader = plays[result.next_leader][0]
            flags.extend(result.warnings)
            if self.settings.pirate_abilities and result.winning_card is not None:
                name = str(result.winning_card)
                if name == "pirate-rosie":
                    # Rosie picks the next leader; the camera learns it from the next first card.
                    # On a round's last trick there is no next trick to lead (the dealer's
                    # neighbour leads the next round): the choice is not the next round's
                    # first card.
                    if t + 1 < self.tricks_in(r):
                        self._pending_rosie = (r, t)
                        next_leader = None
                elif name in ("pirate-rascal", "pirate-harry"):
                    flags.append(f"{name} {ABILITY_ASK}")
                    choice = 0
                    self.abilities[r - 1].append({"trick": t, "pirate": name, "choice": choice})
        outcome = TrickOutcome(
            round=r,
            trick=t,
            plays=tuple(plays),
            result=result,
            winner=winner,
            next_leader=next_leader,
            flags=tuple(dict.fromkeys(flags)),
            observation=observation,
        )
        self.rounds[r - 1].append(outcome)
        return outcome

    def _read_rosie_choice(self, plays: Sequence[tuple[int, str]]) -> None:
        """Record Rosie's awaited choice, if any, as the leader of ``plays``, the trick
        after hers, when they are a whole trick; a choice no trick read is left to the table.

        Only a whole trick's first card is surely its lead: a short one may have lost it
        (cards missed, each seen card at its seat in the order seen), and its first card seen
        would name the player after the leader. Nor is it read from a later trick: with
        ``plays`` short or empty (a trick nobody saw), the next trick is led by that trick's
        winner, not by Rosie's choice. The store reads her choice alike, from a whole trick
        right after hers (``store/rosie_lead.py``), and asks the table otherwise."""
        awaited, self._pending_rosie = self._pending_rosie, None
        if awaited is None or len(plays) != self.n:
            return
        round_number, rosie_trick = awaited
        choice = {"trick": rosie_trick, "pirate": "pirate-rosie", "choice": plays[0][0]}
        self.abilities[round_number - 1].append(choice)

    def amend_last(self, observation: TrickObservation) -> TrickOutcome:
        """Replace the last trick with ``observation`` (a card swapped before the pickup).

        The trick is taken off the game, with the pirate's choice it recorded, and resolved
        again in its place: who won, who leads next and what the table is asked follow the
        cards as they now lie."""
        if not self.rounds or not self.rounds[-1]:
            raise RulesError("no trick has been recorded yet, so none can be amended")
        last = self.rounds[-1].pop()
        self.abilities[-1] = [a for a in self.abilities[-1] if a["trick"] != last.trick]
        if self._pending_rosie == (last.round, last.trick):
            self._pending_rosie = None
        if not self.rounds[-1]:
            self.rounds.pop()
            self.abilities.pop()
        return self.add_plays(_plays_of(observation), list(observation.flags), observation)

    def bids_for(self, round_number: int) -> list[int]:
        if self.bids is not None and round_number <= len(self.bids):
            return list(self.bids[round_number - 1])
        return [0] * self.n

    def record(self) -> dict[str, Any]:
        """The ``skullcam-game/1`` record seen so far (bids from :attr:`bids`, else zeros)."""
        rounds: list[dict[str, Any]] = []
        for number, tricks in enumerate(self.rounds, start=1):
            rnd: dict[str, Any] = {
                "bids": self.bids_for(number),
                "tricks": [
                    {"plays": [{"player": p, "card": c} for p, c in o.plays]} for o in tricks
                ],
            }
            if self.abilities[number - 1]:
                rnd["abilities"] = list(self.abilities[number - 1])
            rounds.append(rnd)
        return {
            "format": GAME_FORMAT,
            "players": list(self.players),
            "settings": self.settings.changes(),
            "first_dealer": self.first_dealer,
            "rounds": rounds,
        }

    def score(self) -> dict[str, Any]:
        """``skullcam score --json --as-played`` of the record, or ``{"error": ...}`` if it
        breaks the rules. As played: the camera records the order the table really played in,
        and a trick led by the wrong player still happened (the trick is flagged for that)."""
        try:
            return score_as_played(self.record()).to_json()
        except RulesError as err:
            return {"error": str(err)}

    def take_rosie_choice(self, leader: int) -> None:
        """The table's recorded Rosie choice for the trick just added (a game resumed from
        the store): ``leader`` leads next, and the choice is no longer waited for. It goes in
        the record as the camera's referee records a choice it read from the lead, so a
        referee taken up from the store records and scores the game as the store does."""
        last = self.rounds[-1][-1]
        self.rounds[-1][-1] = replace(last, next_leader=leader)
        self._pending_rosie = None
        choice = {"trick": last.trick, "pirate": "pirate-rosie", "choice": leader}
        self.abilities[-1] = [a for a in self.abilities[-1] if a["trick"] != last.trick]
        self.abilities[-1].append(choice)
