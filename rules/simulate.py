"""Random legal games: for property tests, benchmarks and synthetic game videos.

Everything random comes from the ``random.Random`` the caller passes, so a seed reproduces a
game exactly. Players follow suit (``legal_plays``) but otherwise play and bid at random, with
a mild pull toward sensible bids so scores look like real ones.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card, Kind, full_deck
from .record import Ability, GameRecord, Play, RoundRecord, TrickRecord
from .settings import Settings
from .table import cards_dealt, dealer_of_round, first_leader
from .trick import legal_plays, resolve_trick

_TIGRESS_AS = {
    Kind.PIRATE: Card(Kind.TIGRESS, declared=Kind.PIRATE),
    Kind.ESCAPE: Card(Kind.TIGRESS, declared=Kind.ESCAPE),
}


def deck_for(settings: Settings) -> list[Card]:
    """The cards a table with these settings shuffles (expansion cards by their settings)."""
    return [card for card in full_deck(expansion=True) if settings.deals(card)]


def deal(
    rng: random.Random, n_players: int, round_number: int, settings: Settings
) -> list[list[Card]]:
    """Shuffle the table's deck and deal this round's hands."""
    deck = deck_for(settings)
    rng.shuffle(deck)
    size = cards_dealt(round_number, n_players)
    return [deck[i * size : (i + 1) * size] for i in range(n_players)]


def _guess_bid(rng: random.Random, hand: Sequence[Card]) -> int:
    strong = sum(
        1
        for card in hand
        if card.kind in (Kind.PIRATE, Kind.SKULL_KING, Kind.TIGRESS, Kind.MERMAID)
        or (card.rank is not None and card.rank >= 12)
    )
    return max(0, min(len(hand), strong + rng.choice((-1, 0, 0, 0, 1))))


def random_game(
    rng: random.Random,
    players: Sequence[str],
    settings: Settings | None = None,
    first_dealer: int = 0,
    rounds: int | None = None,
) -> GameRecord:
    """A complete legal game (``rounds`` rounds, default the setting) as a ``GameRecord``."""
    settings = settings or Settings()
    n = len(players)
    played_rounds: list[RoundRecord] = []
    for number in range(1, (rounds or settings.rounds) + 1):
        hands = deal(rng, n, number, settings)
        dealt = len(hands[0])
        bids = [_guess_bid(rng, hand) for hand in hands]
        leader = first_leader(dealer_of_round(first_dealer, number, n), n)
        tricks: list[TrickRecord] = []
        abilities: list[Ability] = []
        for t in range(dealt):
            seats = [(leader + k) % n for k in range(n)]
            cards: list[Card] = []
            for seat in seats:
                card = rng.choice(legal_plays(hands[seat], cards))
                hands[seat].remove(card)
                if card.kind is Kind.TIGRESS:
                    card = _TIGRESS_AS[rng.choice((Kind.PIRATE, Kind.ESCAPE))]
                cards.append(card)
            tricks.append(TrickRecord(tuple(Play(s, c) for s, c in zip(seats, cards, strict=True))))
            result = resolve_trick(cards, settings)
            leader = seats[result.next_leader]
            if settings.pirate_abilities and result.winning_card is not None:
                winner = seats[result.next_leader]
                name = str(result.winning_card)
                if name == "pirate-rosie":
                    if t == dealt - 1:  # no next trick to choose a leader for
                        continue
                    leader = rng.randrange(n)
                    abilities.append(Ability(t, name, leader))
                elif name == "pirate-rascal":
                    abilities.append(Ability(t, name, rng.choice((0, 10, 20))))
                elif name == "pirate-harry":
                    options = [c for c in (-1, 0, 1) if 0 <= bids[winner] + c <= dealt]
                    abilities.append(Ability(t, name, rng.choice(options)))
        cannonball = None
        if settings.scoring == "rascal":
            cannonball = tuple(rng.random() < 0.2 for _ in range(n))
        played_rounds.append(RoundRecord(tuple(bids), tuple(tricks), cannonball, tuple(abilities)))
    return GameRecord(tuple(players), tuple(played_rounds), settings, first_dealer)
