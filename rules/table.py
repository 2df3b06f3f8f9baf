"""Who deals, who leads, how many cards: the seating arithmetic every round starts from.

Players are seat indices ``0..n-1`` clockwise; "left of" a seat is the next index.
"""

from __future__ import annotations

import re

from .cards import BASE_DECK_SIZE
from .errors import RulesError
from .trick import MAX_PLAYERS, MIN_PLAYERS


def _check_players(n_players: int) -> None:
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise RulesError(
            f"Skull King is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n_players}"
        )


def cards_dealt(round_number: int, n_players: int) -> int:
    """Cards each player gets in round ``round_number`` (1-based).

    The round number, capped by the 70-card base deck with or without the expansion cards
    (rules.md): 8 players get 8 cards in rounds 9 and 10.
    """
    _check_players(n_players)
    if round_number < 1:
        raise RulesError(f"rounds are numbered from 1, got {round_number}")
    return min(round_number, BASE_DECK_SIZE // n_players)


def cards_in_round(round_number: int, n_players: int, rounds: int) -> int:
    """Cards each player gets, so tricks played, in round ``round_number`` of a game of
    ``rounds`` rounds (the setting): an extra round after a tie is dealt as the last one."""
    return cards_dealt(min(round_number, rounds), n_players)


def dealer_of_round(first_dealer: int, round_number: int, n_players: int) -> int:
    """The dealer moves one seat left each round."""
    _check_players(n_players)
    return (first_dealer + round_number - 1) % n_players


def first_leader(dealer: int, n_players: int) -> int:
    """The player left of the dealer leads the round's first trick."""
    _check_players(n_players)
    if not 0 <= dealer < n_players:
        raise RulesError(f"dealer must be a seat 0..{n_players - 1}, got {dealer}")
    return (dealer + 1) % n_players


LED_UNEXPECTEDLY = re.compile(r"(?P<first>.+) led, but the game expected (?P<leader>.+) to lead")
"""A recorded trick's doubt: led by another player than the game expected. Often the camera
missed the trick before it and filed this one in its place; the store drops the doubt once
that trick is entered and this one is led as the rules say."""


def led_unexpectedly(first: str, leader: str) -> str:
    """The doubt :data:`LED_UNEXPECTEDLY` reads, for a trick ``first`` led where the game
    expected ``leader`` to (names as the table knows them)."""
    return f"{first} led, but the game expected {leader} to lead"


ALREADY_PLAYED = re.compile(r"(?P<card>[a-z0-9:-]+) already played this round")
"""A recorded trick's doubt: one of its cards was played in an earlier trick of its round.
Often the camera missed a round's last trick and filed the next round's first in its place;
the store drops the doubt once that trick is entered and this one moves into its own round."""


def already_played(card: str) -> str:
    """The doubt :data:`ALREADY_PLAYED` reads, for ``card`` (an id) seen twice in a round."""
    return f"{card} already played this round"


TIGRESS_DOUBT = "Tigress laid at "
"""How a recorded trick's doubt about a Tigress laid askew begins: the camera's referee words
it (``vision/trick_state.py``), and the store takes it off the trick once the table says how
she was played, whatever question asked it (``store/corrections.py``)."""


def tigress_flag(degrees: float) -> str:
    """The flag on a Tigress laid neither upright nor sideways: the recorder asks the table
    whether she was played as a pirate or an escape (:func:`is_tigress_doubt`)."""
    return f"{TIGRESS_DOUBT}{degrees:.0f} degrees: pirate or escape?"


def is_tigress_doubt(flag: str) -> bool:
    """Whether ``flag`` is :func:`tigress_flag`'s: the question stands in for it."""
    return flag.startswith(TIGRESS_DOUBT)
