"""Following suit and resolving one trick, with the sentence a player reads at the table.

``resolve_trick`` checks the rules of ``rules.md`` in a fixed priority order (like
python-chess's ``Board.outcome()``): which of Kraken / White Whale takes effect, then the
character cards (mermaid + Skull King, Skull King, pirates, mermaids), then trump, then the suit
led, then "only escapes". The ``WinReason`` it records is what a dispute replay shows.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import (
    Card,
    Kind,
    Suit,
    copies_in_deck,
    deck_holds,
    find_duplicate,
    parse_card,
    suit_role,
)
from .errors import IllegalPlayError
from .explain import Arg, CardId, Phrase, SettingName, Who, render
from .settings import DEFAULT_SETTINGS, Settings

MIN_PLAYERS = 2
MAX_PLAYERS = 8


#: The explanation's closing words on a capture bonus, by ``Settings.bonus_paid()``.
_BONUS_CONDITION = {"exact": "bonus_end", "always": "bonus_end_kept", "rascal": "bonus_end_rascal"}


class WinReason(enum.Enum):
    """Why a trick went the way it did (the first matching rule, in this priority order)."""

    #: The Kraken took effect: nobody wins, cards and bonuses are lost (rule 8).
    KRAKEN = "kraken"
    #: The White Whale took effect and the highest number won, whatever its suit (rule 9).
    WHITE_WHALE_HIGHEST = "white_whale_highest"
    #: The White Whale took effect over a trick of specials only: discarded (rule 9).
    WHITE_WHALE_DISCARDED = "white_whale_discarded"
    #: Pirate, Skull King and mermaid met: the first mermaid wins (rule 4).
    MERMAID_OVER_ALL = "mermaid_over_all"
    #: A mermaid captured the Skull King (rule 3).
    MERMAID_CAPTURES_SKULL_KING = "mermaid_captures_skull_king"
    #: The Skull King beat everything else (rule 2).
    SKULL_KING = "skull_king"
    #: The first pirate (or Tigress-as-pirate) beat numbers and mermaids (rules 1, 5).
    PIRATE = "pirate"
    #: The first mermaid beat the numbered cards (rules 3, 5).
    MERMAID = "mermaid"
    #: The highest black (trump) card won (rule 6).
    TRUMP = "trump"
    #: The highest card of the suit led won (rule 6).
    SUIT_LED = "suit_led"
    #: Only escapes, Tigress-as-escape and Loot: the first card played wins (rule 7).
    ONLY_ESCAPES = "only_escapes"


@dataclass(frozen=True, slots=True)
class TrickResult:
    """The verdict on one trick; play indices are positions in play order (0 led).

    ``bonus`` is the capture bonus the winner collects if their bid is exact (14s and character
    captures; Loot alliances are listed in ``loot_alliances`` and paid by the scorer, because
    they depend on two players' bids).
    """

    cards: tuple[Card, ...]
    winner: int | None
    winning_card: Card | None
    lead_suit: Suit | None
    next_leader: int
    bonus: int
    loot_alliances: tuple[tuple[int, int], ...]
    #: The explanation as phrases, for wording it in another language (``rules.explain``).
    phrases: tuple[Phrase, ...]
    warning_phrases: tuple[Phrase, ...]
    reason: WinReason
    #: What ``bonus`` is paid for, as (points, card, captured): a 14 in the trick (not
    #: captured: whoever played it) or a character the winner captured. Empty where no bonus
    #: is paid. The TV's banner names them: "+20 for Jolly Roger 14 if Ana makes their bid".
    bonus_for: tuple[tuple[int, Card, bool], ...] = ()

    @property
    def explanation(self) -> str:
        """The English sentence a player reads at the table (``--json``'s ``explanation``)."""
        return render(self.phrases)

    @property
    def warnings(self) -> tuple[str, ...]:
        """English warnings: an expansion card resolved while its setting is off."""
        return tuple(render([phrase]) for phrase in self.warning_phrases)

    def to_json(self) -> dict[str, Any]:
        """The ``skullcam trick --json`` object of ``interfaces.md``."""
        out: dict[str, Any] = {
            "winner": self.winner,
            "winning_card": None if self.winning_card is None else str(self.winning_card),
            "lead_suit": None if self.lead_suit is None else self.lead_suit.value,
            "next_leader": self.next_leader,
            "bonus": self.bonus,
            "loot_alliances": [list(pair) for pair in self.loot_alliances],
            "explanation": self.explanation,
        }
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out


def follow_suit(trick_so_far: Sequence[Card]) -> Suit | None:
    """The suit later players must follow, fixed as the cards land.

    The first numbered card sets it; escapes, Tigress-as-escape and Loot pass the choice on; a
    character before any number (even a Kraken or Whale that later acts as an escape) means no
    suit for this trick.
    """
    for card in trick_so_far:
        role = suit_role(card)
        if role is not False:
            return role if isinstance(role, Suit) else None
    return None


def legal_plays(hand: Sequence[Card], trick_so_far: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` that may be played next (hand order kept).

    A player holding the suit to follow must play it or a special; otherwise anything goes.
    """
    suit = follow_suit(trick_so_far)
    if suit is None or not any(card.suit is suit for card in hand):
        return list(hand)
    return [card for card in hand if card.is_special or card.suit is suit]


def check_trick(cards: Sequence[Card]) -> None:
    """Raise ``IllegalPlayError`` if no table could have played ``cards`` as one trick."""
    if not MIN_PLAYERS <= len(cards) <= MAX_PLAYERS:
        size = Phrase("trick_size", {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "count": len(cards)})
        raise IllegalPlayError(render([size]), phrase=size)
    duplicate = find_duplicate(cards)
    if duplicate is not None:
        index, card = duplicate
        earlier = {c.face for c in cards[:index]}
        phrase = _too_many(card, card.face in earlier)
        reason = render([phrase])
        raise IllegalPlayError(
            f"play {index} ({card}): {reason}", index, f"{card}: {reason}", phrase
        )
    for index, card in enumerate(cards):
        if card.kind is Kind.TIGRESS and card.declared is None:
            phrase = Phrase("tigress_undeclared")
            reason = render([phrase])
            raise IllegalPlayError(f"play {index}: {reason}", index, reason, phrase)


def unresolved_reason(err: Exception, cards: Sequence[object], first: int = 1) -> str:
    """Why a table's trick of ``cards`` has no result, its play counted from ``first``: 1 as
    a table (and every page) counts plays, 0 as ``skullcam trick --json`` numbers them.
    ``IllegalPlayError``'s own message counts from 0, so "play 2" named the third card on a
    trick page that counted "play 3" for it."""
    if isinstance(err, IllegalPlayError) and err.play is not None and err.phrase is not None:
        return f"play {err.play + first} ({cards[err.play]}): {render([err.phrase])}"
    return str(err)


_COPIES_RAN_OUT = {Kind.ESCAPE: "too_many_escapes", Kind.LOOT: "too_many_loot"}
"""The own words of faces the deck holds several of; another such face is told by its count."""


def _too_many(card: Card, played_before: bool) -> Phrase:
    """Why ``card`` cannot be in the trick: its face's copies in the deck ran out (a sixth
    escape), its face was already played (``played_before``), or its kind's copies ran out (a
    sixth pirate where one was played unnamed). How many copies a face or a kind has is the
    deck's to say (``copies_in_deck``, ``deck_holds``), and the phrase says that count: a card
    added with two copies is not said to have one, nor the escapes said to be 5 in a deck of
    another count."""
    copies = copies_in_deck(card.face)
    if copies > 1:
        key = _COPIES_RAN_OUT.get(card.kind)
        if key is not None:
            return Phrase(key, {"count": copies})
        return Phrase("too_many_in_round", {"card": CardId(card), "count": copies})
    group = {Kind.PIRATE: "too_many_pirates", Kind.MERMAID: "too_many_mermaids"}.get(card.kind)
    if group is not None and (card.name is None or not played_before):
        return Phrase(group, {"count": deck_holds(Card(card.kind))})
    return Phrase("already_in_trick", {"face": CardId(parse_card(card.face))})


def resolve_trick(
    cards: Sequence[Card],
    settings: Settings | None = None,
    players: Sequence[str] | None = None,
) -> TrickResult:
    """Resolve a complete trick, ``cards`` in play order (index 0 led).

    ``players`` optionally names each play for the explanation (default ``play 0``, ...).
    An expansion card is resolved by its rule even when its setting is off; the result then
    carries a warning. Raises ``IllegalPlayError`` for a trick no deck could produce.
    """
    settings = settings or DEFAULT_SETTINGS
    check_trick(cards)
    labels = list(players) if players is not None else [f"play {i}" for i in range(len(cards))]
    if len(labels) != len(cards):
        raise IllegalPlayError(f"{len(labels)} player names for {len(cards)} cards")
    return _Resolver(tuple(cards), settings, labels).resolve()


class _Resolver:
    """One resolution; a class only so the helpers share the trick, settings and labels."""

    def __init__(self, cards: tuple[Card, ...], settings: Settings, labels: list[str]) -> None:
        self.cards = cards
        self.settings = settings
        self.labels = labels
        self.roles = [card.role for card in cards]

    def who(self, index: int) -> Who:
        return Who(self.cards[index], self.labels[index])

    def resolve(self) -> TrickResult:
        cards, roles = self.cards, self.roles
        warnings = self._warnings()
        kraken = _find(roles, Kind.KRAKEN)
        whale = _find(roles, Kind.WHITE_WHALE)
        prefix: list[Phrase] = []
        if kraken is not None and whale is not None:
            second, first = (kraken, whale) if kraken > whale else (whale, kraken)
            prefix.append(
                Phrase("kraken_meets_whale", {"first": cards[first], "second": cards[second]})
            )
            if second == whale:
                kraken = None
        lead_suit = follow_suit(cards)
        if kraken is not None:
            # A Whale played before the Kraken stays out of the "who would have won" judgment
            # too (rule 10: without either), not in it as an escape that could win it.
            return self._kraken(kraken, whale, lead_suit, prefix, warnings)
        if whale is not None:
            return self._white_whale(whale, lead_suit, prefix, warnings)
        winner, reason = _judge(cards, roles)
        return self._won(winner, reason, lead_suit, prefix, warnings)

    def _warnings(self) -> tuple[Phrase, ...]:
        out: list[Phrase] = []
        seen: set[Kind] = set()
        for card in self.cards:
            if not card.is_expansion or card.kind in seen:
                continue
            seen.add(card.kind)
            key = card.expansion_setting
            if key is not None and not getattr(self.settings, key):
                args: dict[str, Arg] = {"card": CardId(card), "setting": SettingName(key)}
                out.append(Phrase("setting_off", args))
        return tuple(out)

    def _kraken(
        self,
        kraken: int,
        whale: int | None,
        lead_suit: Suit | None,
        prefix: list[Phrase],
        warnings: tuple[Phrase, ...],
    ) -> TrickResult:
        text = [*prefix, Phrase("kraken")]
        if self.settings.kraken_next_leader == "left_of_kraken":
            next_leader = (kraken + 1) % len(self.cards)
            text.append(Phrase("kraken_left_leads", {"player": self.labels[next_leader]}))
        else:
            rest = [i for i in range(len(self.cards)) if i not in (kraken, whale)]
            if rest:
                sub_cards = tuple(self.cards[i] for i in rest)
                sub_winner, _ = _judge(sub_cards, [self.roles[i] for i in rest])
                next_leader = rest[sub_winner]
                text.append(Phrase("kraken_would_have_won", {"who": self.who(next_leader)}))
            else:
                next_leader = 0
                text.append(Phrase("kraken_alone", {"player": self.labels[0]}))
        return TrickResult(
            self.cards,
            None,
            None,
            lead_suit,
            next_leader,
            0,
            (),
            tuple(text),
            warnings,
            WinReason.KRAKEN,
        )

    def _white_whale(
        self,
        whale: int,
        lead_suit: Suit | None,
        prefix: list[Phrase],
        warnings: tuple[Phrase, ...],
    ) -> TrickResult:
        text = [*prefix, Phrase("whale")]
        numbers = [i for i, role in enumerate(self.roles) if role is Kind.NUMBER]
        if not numbers:
            text.append(Phrase("whale_discarded", {"player": self.labels[whale]}))
            return TrickResult(
                self.cards,
                None,
                None,
                lead_suit,
                whale,
                0,
                (),
                tuple(text),
                warnings,
                WinReason.WHITE_WHALE_DISCARDED,
            )
        winner = max(numbers, key=lambda i: _rank(self.cards[i]))
        top = _rank(self.cards[winner])
        tied = sum(1 for i in numbers if _rank(self.cards[i]) == top) > 1
        text.append(Phrase("whale_highest", {"who": self.who(winner)}))
        text.append(Phrase("whale_tied", {"rank": top}) if tied else Phrase("full_stop"))
        return self._finish(winner, WinReason.WHITE_WHALE_HIGHEST, lead_suit, text, warnings)

    def _won(
        self,
        winner: int,
        reason: WinReason,
        lead_suit: Suit | None,
        prefix: list[Phrase],
        warnings: tuple[Phrase, ...],
    ) -> TrickResult:
        count = {kind: self.roles.count(kind) for kind in (Kind.PIRATE, Kind.MERMAID)}
        args: dict[str, Any] = {"who": self.who(winner)}
        if reason is WinReason.SUIT_LED:
            assert lead_suit is not None
            args["suit"] = lead_suit
        key = reason.value
        if reason is WinReason.ONLY_ESCAPES and any(c.kind is Kind.LOOT for c in self.cards):
            key = "only_escapes_and_loot"  # rule 7: Loot sets no suit, as an escape does
        text = [*prefix, Phrase(key, args)]
        if reason is WinReason.PIRATE and count[Kind.PIRATE] > 1:
            text.append(Phrase("first_pirate_wins"))
        mermaid_wins = (
            WinReason.MERMAID,
            WinReason.MERMAID_OVER_ALL,
            WinReason.MERMAID_CAPTURES_SKULL_KING,
        )
        if reason in mermaid_wins and count[Kind.MERMAID] > 1:
            text.append(Phrase("first_mermaid_wins"))
        text.append(Phrase("full_stop"))
        return self._finish(winner, reason, lead_suit, text, warnings)

    def _finish(
        self,
        winner: int,
        reason: WinReason,
        lead_suit: Suit | None,
        text: list[Phrase],
        warnings: tuple[Phrase, ...],
    ) -> TrickResult:
        bonus_for = self._bonus_for(winner, reason)
        items = [
            Phrase("bonus_capture" if captured else "bonus_fourteen", {"points": pts, "card": card})
            for pts, card, captured in bonus_for
        ]
        bonus = sum(points for points, _, _ in bonus_for)
        alliances = tuple(
            (i, winner)
            for i, card in enumerate(self.cards)
            if card.kind is Kind.LOOT and i != winner
        )
        no_bonus = self.settings.scoring == "no_bonus"
        if no_bonus:
            if items or alliances:
                text.append(Phrase("no_bonus_scoring"))
            bonus, bonus_for = 0, []
        elif items:
            text.append(Phrase("bonus_start"))
            for n, item in enumerate(items):
                text += [Phrase("bonus_separator"), item] if n else [item]
            text.append(Phrase(_BONUS_CONDITION[self.settings.bonus_paid()]))
        if reason is WinReason.MERMAID_OVER_ALL and items and not no_bonus:
            # Said only beside a bonus paid: with the Skull King's capture worth nothing
            # (mermaid_captures_skull_king 0) there is no bonus for the pirate to be left out of.
            pirates = self.roles.count(Kind.PIRATE)
            text.append(Phrase("pirates_do_not_count" if pirates > 1 else "pirate_does_not_count"))
        for loot, _ in () if no_bonus else alliances:
            text.append(
                Phrase(
                    "loot_alliance",
                    {
                        "loot_player": self.labels[loot],
                        "winner_player": self.labels[winner],
                        "points": self.settings.loot_alliance_bonus,
                    },
                )
            )
        return TrickResult(
            self.cards,
            winner,
            self.cards[winner],
            lead_suit,
            winner,
            bonus,
            alliances,
            tuple(text),
            warnings,
            reason,
            tuple(bonus_for),
        )

    def _bonus_for(self, winner: int, reason: WinReason) -> list[tuple[int, Card, bool]]:
        """(points, card, captured) for every bonus the winner collects (``bonus_for``),
        zero-point items left out."""
        s = self.settings
        items: list[tuple[int, Card, bool]] = []
        for card in self.cards:
            if card.rank == 14:
                points = s.black_fourteen_bonus if card.suit is Suit.BLACK else s.fourteen_bonus
                items.append((points, card, False))
        if reason in (WinReason.MERMAID_OVER_ALL, WinReason.MERMAID_CAPTURES_SKULL_KING):
            king = self.cards[self.roles.index(Kind.SKULL_KING)]
            items.append((s.mermaid_captures_skull_king, king, True))
        elif reason is WinReason.SKULL_KING:
            items += [
                (s.skull_king_captures_pirate, card, True)
                for card, role in zip(self.cards, self.roles, strict=True)
                if role is Kind.PIRATE
            ]
        elif reason is WinReason.PIRATE:
            items += [
                (s.pirate_captures_mermaid, card, True)
                for card, role in zip(self.cards, self.roles, strict=True)
                if role is Kind.MERMAID
            ]
        return [item for item in items if item[0]]


def _judge(cards: Sequence[Card], roles: Sequence[Kind]) -> tuple[int, WinReason]:
    """Winner index and reason of a trick in which no Kraken or White Whale takes effect.

    A Kraken or Whale present here acts as an escape (rule 10, or the Kraken's "would have
    won" trick), which is what not matching it below means.
    """
    first: dict[Kind, int] = {}
    for index, role in enumerate(roles):
        first.setdefault(role, index)
    if Kind.SKULL_KING in first and Kind.MERMAID in first:
        if Kind.PIRATE in first:
            return first[Kind.MERMAID], WinReason.MERMAID_OVER_ALL
        return first[Kind.MERMAID], WinReason.MERMAID_CAPTURES_SKULL_KING
    if Kind.SKULL_KING in first:
        return first[Kind.SKULL_KING], WinReason.SKULL_KING
    if Kind.PIRATE in first:
        return first[Kind.PIRATE], WinReason.PIRATE
    if Kind.MERMAID in first:
        return first[Kind.MERMAID], WinReason.MERMAID
    if Kind.NUMBER not in first:
        return 0, WinReason.ONLY_ESCAPES
    numbers = [i for i, role in enumerate(roles) if role is Kind.NUMBER]
    trumps = [i for i in numbers if cards[i].suit is Suit.BLACK]
    if trumps:
        return max(trumps, key=lambda i: _rank(cards[i])), WinReason.TRUMP
    led = cards[numbers[0]].suit
    followers = [i for i in numbers if cards[i].suit is led]
    return max(followers, key=lambda i: _rank(cards[i])), WinReason.SUIT_LED


def _find(roles: Sequence[Kind], kind: Kind) -> int | None:
    for index, role in enumerate(roles):
        if role is kind:
            return index
    return None


def _rank(card: Card) -> int:
    assert card.rank is not None
    return card.rank
