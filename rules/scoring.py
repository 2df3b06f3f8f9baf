"""Scoring a recorded game: play it through, resolve every trick, score every round.

``score_game`` is the one place a game's facts become points, so the live scoreboard, the CLI
and a dispute replay all agree, and a changed setting (``score_game(record, settings)``)
recomputes everything from the plays. Playing the game through is also how a record is
validated: turn order depends on who won the previous trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, Kind, Suit, deck_holds, find_duplicate, parse_card
from .errors import GameRecordError, IllegalPlayError, OutOfTurnError, RulesError
from .explain import Arg, CardId, Phrase, SettingName, counted_word, render
from .record import GameRecord, RoundRecord, TrickRecord
from .settings import DEFAULT_SETTINGS, Settings
from .table import cards_in_round, dealer_of_round, first_leader
from .trick import TrickResult, follow_suit, resolve_trick


def _refuse(*phrases: Phrase, error: type[GameRecordError] = GameRecordError) -> GameRecordError:
    """The error for a record that breaks the rules: its message is the phrases in English,
    and it carries them for a page to say in its reader's language."""
    return error(render(phrases), phrases)


@dataclass(frozen=True, slots=True)
class TrickScore:
    """One resolved trick of a game, with seats instead of play indices."""

    round: int
    index: int
    players: tuple[int, ...]
    result: TrickResult
    winner: int | None
    next_leader: int

    @property
    def leader(self) -> int:
        return self.players[0]


@dataclass(frozen=True, slots=True)
class Revoke:
    """A proven revoke: ``player`` did not follow ``suit`` and later showed they held it."""

    round: int
    trick: int
    play: int
    player: int
    card: Card
    suit: Suit
    proof_trick: int
    proof_card: Card
    explanation: str

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "trick": self.trick,
            "play": self.play,
            "player": self.player,
            "card": str(self.card),
            "suit": self.suit.value,
            "proof_trick": self.proof_trick,
            "proof_card": str(self.proof_card),
            "explanation": self.explanation,
        }


def revoke_explanation(
    round_number: int,
    trick: int,
    play: int,
    name: str,
    card: Card,
    suit: Suit,
    proof_trick: int,
    proof_card: Card,
) -> str:
    """A revoke's ``explanation`` (tricks and plays counted from 0, as a :class:`Revoke`
    holds them): also what the store words again once it has renumbered the tricks."""
    where = f"round {round_number}, trick {trick + 1}, play {play + 1}"
    return (
        f"{where}: {name} played {card.title} when {suit.value} was led,"
        f" but later played {proof_card.title} (trick {proof_trick + 1}): a revoke."
    )


@dataclass(frozen=True, slots=True)
class RoundScore:
    """One round's outcome per seat; ``bonus`` is what capture and Loot bonuses added."""

    number: int
    dealer: int
    cards_dealt: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    bonus: tuple[int, ...]
    tricks: tuple[TrickScore, ...]
    complete: bool
    explanations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameScore:
    """Every round's score, the running totals and who leads (ties share the lead)."""

    players: tuple[str, ...]
    settings: Settings
    rounds: tuple[RoundScore, ...]
    totals: tuple[int, ...]
    leaders: tuple[int, ...]
    revokes: tuple[Revoke, ...]
    #: Each warning as phrases (``rules.explain``), so a page can say it in its reader's
    #: language; ``warnings`` is the same in English.
    warning_phrases: tuple[tuple[Phrase, ...], ...]
    finished: bool

    @property
    def rounds_due(self) -> int:
        """How many rounds the game has now: its setting's, and one more each time the last
        round played ends with the lead tied under ``tie=extra_round``."""
        tie_break = not self.finished and bool(self.rounds) and self.rounds[-1].complete
        played = len(self.rounds)
        if tie_break and played >= self.settings.rounds:
            return played + 1
        return max(self.settings.rounds, played)

    @property
    def warnings(self) -> tuple[str, ...]:
        """English warnings (``--json``'s ``warnings``), one per entry of ``warning_phrases``."""
        return tuple(render(phrases) for phrases in self.warning_phrases)

    def to_json(self, detail: bool = False) -> dict[str, Any]:
        """The ``skullcam score --json`` object; ``detail`` adds tricks and explanations.

        ``revokes`` and ``warnings`` appear only when there are some, and a round still being
        played carries ``"in_progress": true`` (its points are 0 until it ends).
        """
        rounds: list[dict[str, Any]] = []
        for rnd in self.rounds:
            out: dict[str, Any] = {
                "points": list(rnd.points),
                "tricks_won": list(rnd.tricks_won),
                "bonus": list(rnd.bonus),
            }
            if not rnd.complete:
                out["in_progress"] = True
            if detail:
                out.update(
                    round=rnd.number,
                    dealer=rnd.dealer,
                    cards_dealt=rnd.cards_dealt,
                    bids=list(rnd.bids),
                    explanations=list(rnd.explanations),
                    tricks=[
                        {
                            "players": list(t.players),
                            "cards": [str(card) for card in t.result.cards],
                            "winner": t.winner,
                            "next_leader": t.next_leader,
                            "bonus": t.result.bonus,
                            "explanation": t.result.explanation,
                        }
                        for t in rnd.tricks
                    ],
                )
            rounds.append(out)
        result: dict[str, Any] = {
            "rounds": rounds,
            "totals": list(self.totals),
            "leaders": list(self.leaders),
        }
        if self.revokes:
            result["revokes"] = [revoke.to_json() for revoke in self.revokes]
        warnings = self.warnings
        if warnings:
            result["warnings"] = list(warnings)
        if detail:
            result["finished"] = self.finished
        return result


def score_as_played(data: Mapping[str, Any]) -> GameScore:
    """A ``skullcam-game/1`` record (JSON data) read and scored as the table played it: what
    the camera and the store keep is what happened, so a trick led by someone other than the
    rules' leader stands, warned about (``score_game``'s ``as_played``)."""
    return score_game(GameRecord.from_dict(data, as_played=True), as_played=True)


def score_game(
    record: GameRecord, settings: Settings | None = None, *, as_played: bool = False
) -> GameScore:
    """Score ``record`` under ``settings`` (default: the record's own settings).

    Raises ``GameRecordError`` naming round, trick and play for a record that breaks the rules.

    ``as_played``: a trick led by someone other than the rules' leader, whose plays then go
    clockwise from that player, stands as played (with a warning naming it) instead of being
    refused. A dispute settled after the fact (an earlier trick's winner corrected) changes who
    *should* have led tricks the table has already played; those tricks happened, and a
    referee re-scores them rather than throwing the game away. For the same reason a
    tie-break round played while the lead was tied, which a correction has since untied, is
    left out of the score with a warning instead of refusing the game.
    """
    settings = settings or record.settings
    n = len(record.players)
    totals = [0] * n
    rounds: list[RoundScore] = []
    revokes: list[Revoke] = []
    warnings: list[tuple[Phrase, ...]] = []
    for number, rnd in enumerate(record.rounds, start=1):
        is_last = number == len(record.rounds)
        if number > settings.rounds:
            tied = totals.count(max(totals)) > 1
            if as_played and settings.tie == "extra_round" and not tied:
                # A tie-break round was played, then a corrected trick untied the lead: the
                # game ended before it. Its tricks happened but decide nothing.
                last = {"round": number, "last": number - 1}
                warnings.append((Phrase("tie_break_not_due", last),))
                break
            if settings.tie != "extra_round" or not tied:
                raise _refuse(
                    Phrase("at_round", {"round": number}),
                    Phrase(
                        "extra_round_off",
                        {"rounds": settings.rounds, "setting": SettingName("rounds")},
                    ),
                )
        dealt = cards_in_round(number, n, settings.rounds)
        state = _RoundPlay(record, settings, number, rnd, dealt, as_played)
        score = state.play(is_last)
        revokes += state.revokes
        at = Phrase("at_round", {"round": number})
        warnings += [(at, warning) for warning in state.warning_phrases]
        rounds.append(score)
        totals = [t + p for t, p in zip(totals, score.points, strict=True)]
    best = max(totals)
    leaders = tuple(i for i, total in enumerate(totals) if total == best)
    regular_done = len(rounds) >= settings.rounds and all(r.complete for r in rounds)
    finished = regular_done and (settings.tie == "shared" or len(leaders) == 1)
    if regular_done and not finished:
        warnings.append((Phrase("tie_one_more_round"),))
    # The same warning twice (a card whose setting is off, in two tricks of a round) is said
    # once; phrases are not hashable, so their English text tells them apart.
    unique: dict[str, tuple[Phrase, ...]] = {}
    for warning in warnings:
        unique.setdefault(render(warning), warning)
    return GameScore(
        record.players,
        settings,
        tuple(rounds),
        tuple(totals),
        leaders,
        tuple(revokes),
        tuple(unique.values()),
        finished,
    )


class _RoundPlay:
    """Plays one round through: turn order, duplicates, abilities, revokes, then points."""

    def __init__(
        self,
        record: GameRecord,
        settings: Settings,
        number: int,
        rnd: RoundRecord,
        dealt: int,
        as_played: bool = False,
    ) -> None:
        self.record = record
        self.as_played = as_played
        self.settings = settings
        self.number = number
        self.rnd = rnd
        self.dealt = dealt
        self.n = len(record.players)
        self.names = record.players
        self.dealer = dealer_of_round(record.first_dealer, number, self.n)
        self.revokes: list[Revoke] = []
        #: This round's warnings; ``score_game`` says which round they are about.
        self.warning_phrases: list[Phrase] = []

    def where(self, trick: int | None = None, play: int | None = None) -> str:
        text = f"round {self.number}"
        if trick is not None:
            text += f", trick {trick + 1}"
        if play is not None:
            text += f", play {play + 1}"
        return text

    def at(
        self, trick: int | None = None, play: int | None = None, by: str | None = None
    ) -> Phrase:
        """Where in the round, as the phrase that starts an error: "round 2, trick 3: ", or
        with the play's player ``by`` "round 2, trick 3, play 1 (Ana): "."""
        if trick is None:
            return Phrase("at_round", {"round": self.number})
        if play is None:
            return Phrase("at_trick", {"round": self.number, "trick": trick + 1})
        where: dict[str, Arg] = {"round": self.number, "trick": trick + 1, "play": play + 1}
        if by is not None:
            return Phrase("at_play_by", {**where, "player": by})
        return Phrase("at_play", where)

    def play(self, is_last: bool) -> RoundScore:
        rnd, n, dealt = self.rnd, self.n, self.dealt
        for seat, bid in enumerate(rnd.bids):
            if not 0 <= bid <= dealt:
                args: dict[str, Arg] = {"player": self.names[seat], "bid": bid, "dealt": dealt}
                raise _refuse(self.at(), Phrase("bid_out_of_range", args))
        count = len(rnd.tricks)
        if count > dealt:
            raise _refuse(self.at(), Phrase("too_many_tricks", {"count": count, "dealt": dealt}))
        complete = count == dealt
        if not complete and not is_last:
            raise _refuse(self.at(), Phrase("round_unfinished", {"count": count, "dealt": dealt}))
        abilities = self._abilities()
        leader = first_leader(self.dealer, n)
        tricks_won = [0] * n
        capture = [0] * n
        alliances: list[tuple[int, int]] = []
        bets = [0] * n
        bid_change = [0] * n
        played: list[tuple[int, int, Card]] = []  # (trick, play, card) for duplicate checks
        tricks: list[TrickScore] = []
        notes: list[str] = []  # pirate abilities used, for the round's explanation
        for t, trick in enumerate(rnd.tricks):
            if len(trick.plays) != n:
                raise _refuse(
                    self.at(t), Phrase("plays_per_trick", {"count": len(trick.plays), "players": n})
                )
            seats = self._turn_order(t, trick, leader)
            for k, play in enumerate(trick.plays):
                if play.player != seats[k]:
                    names: dict[str, Arg] = {
                        "player": self.names[play.player],
                        "due": self.names[seats[k]],
                    }
                    turn = [self.at(t, k), Phrase("out_of_turn", names)]
                    if k == 0:
                        turn.append(Phrase("out_of_turn_leader", {"leader": self.names[leader]}))
                    raise _refuse(*turn, error=OutOfTurnError)
                played.append((t, k, play.card))
            duplicate = find_duplicate(card for _, _, card in played)
            if duplicate is not None:
                dt, dk, _ = played[duplicate[0]]
                by = self.names[rnd.tricks[dt].plays[dk].player]
                raise _refuse(self.at(dt, dk, by), self._duplicate(played, duplicate[0]))
            try:
                result = resolve_trick(trick.cards, self.settings, [self.names[s] for s in seats])
            except IllegalPlayError as err:
                if err.play is None:
                    raise GameRecordError(f"{self.where(t)}: {err}") from None
                who = self.names[seats[err.play]]
                message = f"{self.where(t, err.play)} ({who}): {err.reason}"
                at: dict[str, Arg] = {
                    "round": self.number,
                    "trick": t + 1,
                    "play": err.play + 1,
                    "player": who,
                }
                why = () if err.phrase is None else (Phrase("at_play_by", at), err.phrase)
                raise GameRecordError(message, why) from None
            except RulesError as err:
                raise GameRecordError(f"{self.where(t)}: {err}") from None
            self.warning_phrases += result.warning_phrases
            winner = None if result.winner is None else seats[result.winner]
            next_leader = seats[result.next_leader]
            if winner is not None:
                tricks_won[winner] += 1
                capture[winner] += result.bonus
                alliances += [(seats[loot], winner) for loot, _ in result.loot_alliances]
            ability = abilities.get(t)
            if ability is not None:
                pirate, choice = ability
                if result.winning_card is None or str(result.winning_card) != pirate:
                    raise _refuse(
                        self.at(t),
                        Phrase("ability_not_won", {"pirate": CardId(parse_card(pirate))}),
                    )
                assert winner is not None
                who = self.names[winner]
                if pirate == "pirate-rosie":
                    if not 0 <= choice < n:
                        raise _refuse(
                            self.at(t), Phrase("rosie_choice", {"last": n - 1, "choice": choice})
                        )
                    if t == self.dealt - 1:  # the next round's leader is the rules' to say
                        if not self.as_played:
                            raise _refuse(
                                self.at(t), Phrase("rosie_last_trick", {"round": self.number})
                            )
                        # A game recorded before the store refused it scores on without it.
                        self.warning_phrases.append(Phrase("rosie_last_trick_ignored"))
                    else:
                        next_leader = choice
                        notes.append(
                            f"Trick {t + 1}: {who} uses Rosie D' Laney:"
                            f" {self.names[choice]} leads next."
                        )
                elif pirate == "pirate-rascal":
                    bets[winner] = choice
                    notes.append(f"Trick {t + 1}: {who} bets {choice} with Rascal of Roatan.")
                else:
                    bid_change[winner] = choice
                    notes.append(f"Trick {t + 1}: {who} uses Harry the Giant: bid {choice:+d}.")
            tricks.append(TrickScore(self.number, t, seats, result, winner, next_leader))
            leader = next_leader
        self._find_revokes(tricks)
        bids = tuple(b + c for b, c in zip(rnd.bids, bid_change, strict=True))
        for seat, bid in enumerate(bids):
            if bid_change[seat] and not 0 <= bid <= dealt:
                moved: dict[str, Arg] = {"player": self.names[seat], "bid": bid, "dealt": dealt}
                raise _refuse(self.at(), Phrase("harry_bid_out_of_range", moved))
        if not complete:
            zeros = (0,) * n
            return RoundScore(
                self.number,
                self.dealer,
                dealt,
                bids,
                tuple(tricks_won),
                zeros,
                zeros,
                tuple(tricks),
                False,
                (
                    f"Round {self.number} in progress: {len(tricks)} of {dealt}"
                    f" {counted_word(dealt, 'trick|tricks')} played.",
                ),
            )
        points, bonus, lines = self._points(bids, tricks_won, capture, alliances, bets)
        lines = (*notes, *lines)
        return RoundScore(
            self.number,
            self.dealer,
            dealt,
            bids,
            tuple(tricks_won),
            points,
            bonus,
            tuple(tricks),
            True,
            lines,
        )

    def _turn_order(self, t: int, trick: TrickRecord, leader: int) -> tuple[int, ...]:
        """The seats in play order: clockwise from the rules' leader, or, scoring as played,
        from whoever led when the whole trick goes clockwise from them (warned)."""
        n = self.n
        seats = tuple((leader + k) % n for k in range(n))
        first = trick.plays[0].player
        if not self.as_played or first == leader or not 0 <= first < n:
            return seats
        played = tuple((first + k) % n for k in range(n))
        if tuple(play.player for play in trick.plays) != played:
            return seats  # not a clockwise trick either: refused with the usual message
        names: dict[str, Arg] = {
            "trick": t + 1,
            "player": self.names[first],
            "leader": self.names[leader],
        }
        self.warning_phrases.append(Phrase("scored_as_played", names))
        return played

    def _duplicate(self, played: list[tuple[int, int, Card]], index: int) -> Phrase:
        """Why ``played[index]`` is one card more than the deck holds this round."""
        card = played[index][2]
        held = deck_holds(card)
        ft, fk, _ = next(p for p in played if p[2].face == card.face)
        if held > 1:
            return Phrase("too_many_in_round", {"card": CardId(card), "count": held})
        if (ft, fk) == played[index][:2]:
            # Its face is the first of its kind this round: the group is full (a named
            # mermaid after an unnamed one and the other named one).
            group = parse_card(card.kind.value)
            return Phrase("too_many_in_round", {"card": CardId(group), "count": deck_holds(group)})
        # Where it was played first, too: a person who just corrected a card into a trick is
        # told of that trick, not only of the later one the error stops at.
        return Phrase(
            "played_twice_in_round",
            {
                # The face: a Tigress played as an escape after one played as a pirate is the
                # one Tigress played twice.
                "card": CardId(parse_card(card.face)),
                "first_trick": ft + 1,
                "first_player": self.names[self.rnd.tricks[ft].plays[fk].player],
            },
        )

    def _abilities(self) -> dict[int, tuple[str, int]]:
        """Ability choices by trick index, or none when the setting is off (with a warning)."""
        if not self.rnd.abilities:
            return {}
        if not self.settings.pirate_abilities:
            off: dict[str, Arg] = {"setting": SettingName("pirate_abilities")}
            self.warning_phrases.append(Phrase("abilities_setting_off", off))
            return {}
        out: dict[int, tuple[str, int]] = {}
        for i, ability in enumerate(self.rnd.abilities):
            if ability.trick in out:
                raise _refuse(
                    Phrase("at_ability", {"round": self.number, "index": i}),
                    Phrase("ability_twice", {"trick": ability.trick}),
                )
            out[ability.trick] = (ability.pirate, ability.choice)
        if out and max(out) >= len(self.rnd.tricks):
            past = {"trick": max(out), "count": len(self.rnd.tricks)}
            raise _refuse(self.at(), Phrase("ability_past_tricks", past))
        return out

    def _find_revokes(self, tricks: Sequence[TrickScore]) -> None:
        """Flag each off-suit numbered card whose player later plays the suit they skipped."""
        pending: list[tuple[int, int, int, Card, Suit]] = []  # trick, play, seat, card, suit
        for trick in tricks:
            cards = trick.result.cards
            if (
                self.settings.pirate_abilities
                and trick.result.winning_card is not None
                and str(trick.result.winning_card) == "pirate-bendt"
            ):
                # Bendt the Bandit draws 2 cards: a suit shown after that proves nothing.
                pending = [item for item in pending if item[2] != trick.winner]
            for k, card in enumerate(cards):
                seat = trick.players[k]
                if card.kind is Kind.NUMBER:
                    for item in list(pending):
                        t, p, s, bad, skipped = item
                        if s == seat and card.suit is skipped:
                            pending.remove(item)
                            said = revoke_explanation(
                                self.number, t, p, self.names[seat], bad, skipped, trick.index, card
                            )
                            self.revokes.append(
                                Revoke(
                                    self.number,
                                    t,
                                    p,
                                    seat,
                                    bad,
                                    skipped,
                                    trick.index,
                                    card,
                                    said,
                                )
                            )
                suit = follow_suit(cards[:k])
                if suit is not None and card.kind is Kind.NUMBER and card.suit is not suit:
                    pending.append((trick.index, k, seat, card, suit))

    def _points(
        self,
        bids: tuple[int, ...],
        won: list[int],
        capture: list[int],
        alliances: list[tuple[int, int]],
        bets: list[int],
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
        s = self.settings
        exact = [w == b for w, b in zip(won, bids, strict=True)]
        loot = [0] * self.n
        if s.scoring != "no_bonus":
            for a, b in alliances:
                if exact[a] and exact[b]:
                    loot[a] += s.loot_alliance_bonus
                    loot[b] += s.loot_alliance_bonus
        cannon = self.rnd.cannonball
        if cannon is not None and any(cannon) and s.scoring != "rascal":
            self.warning_phrases.append(Phrase("cannonball_ignored"))
        points: list[int] = []
        bonuses: list[int] = []
        lines: list[str] = []
        for seat in range(self.n):
            base, bonus, how = score_bid(
                bids[seat],
                won[seat],
                self.dealt,
                capture[seat],
                s,
                cannonball=bool(cannon and cannon[seat]),
            )
            bonus += loot[seat]
            if loot[seat]:
                how += f", Loot alliance +{loot[seat]}"
            bet = bets[seat] if exact[seat] else -bets[seat]
            if bets[seat]:
                how += f", Rascal of Roatan bet {'+' if bet > 0 else ''}{bet}"
            total = base + bonus + bet
            points.append(total)
            bonuses.append(bonus)
            lines.append(
                f"{self.names[seat]} bid {bids[seat]}, won {won[seat]}: {how};"
                f" round total {'+' if total > 0 else ''}{total}."
            )
        return tuple(points), tuple(bonuses), tuple(lines)


def score_bid(
    bid: int,
    won: int,
    dealt: int,
    capture: int = 0,
    settings: Settings | None = None,
    cannonball: bool = False,
) -> tuple[int, int, str]:
    """One player's round: (points, capture bonus paid, readable working).

    ``capture`` is the capture bonus in the tricks the player won (sum of ``TrickResult.bonus``).
    Loot alliances and Rascal-of-Roatan bets depend on other players or abilities and are added
    by ``score_game``. Also what a manual score sheet (bids and tricks typed in) needs.
    """
    settings = settings or DEFAULT_SETTINGS
    if bid < 0 or won < 0 or bid > dealt or won > dealt:
        raise RulesError(f"bid {bid} and tricks won {won} must be 0..{dealt} (cards dealt)")
    if settings.scoring == "rascal":
        return _rascal(bid, won, dealt, capture, cannonball)
    return _standard(settings, bid, won, dealt, capture)


def _standard(s: Settings, bid: int, won: int, dealt: int, capture: int) -> tuple[int, int, str]:
    """Standard and no-bonus scoring, with the house rules' numbers."""
    exact = bid == won
    if bid == 0:
        value = s.zero_bid_points * (dealt if s.zero_bid_mode == "per_card" else 1)
        base = value if exact else -value
        how = f"zero bid {'made' if exact else 'missed'} {'+' if exact else '-'}{value}"
    elif exact:
        base = s.points_per_trick * bid
        how = f"exact, {bid} x {s.points_per_trick} = {base}"
    else:
        base = -s.miss_penalty_per_trick * abs(won - bid)
        how = f"missed by {abs(won - bid)}, {base}"
    paid = capture if s.scoring != "no_bonus" and (exact or s.keep_bonus_on_miss) else 0
    if paid:
        how += f", bonus +{paid}"
    elif capture and s.scoring != "no_bonus":
        how += f", bonus {capture} lost"
    return base, paid, how


def _rascal(bid: int, won: int, dealt: int, capture: int, cannonball: bool) -> tuple[int, int, str]:
    """Rascal's scoring: a potential of 10 x cards dealt (15 with a cannonball)."""
    off = abs(won - bid)
    if cannonball:
        potential = 15 * dealt
        if off == 0:
            return potential, capture, f"cannonball made +{potential}" + _bonus_text(capture)
        return 0, 0, "cannonball missed 0"
    potential = 10 * dealt
    if off == 0:
        return potential, capture, f"exact, potential +{potential}" + _bonus_text(capture)
    if off == 1:
        half = capture // 2
        how = f"off by 1, half the potential +{potential // 2}"
        return potential // 2, half, how + (f", half the bonus +{half}" if half else "")
    return 0, 0, f"off by {off}, 0"


def _bonus_text(bonus: int) -> str:
    return f", bonus +{bonus}" if bonus else ""
