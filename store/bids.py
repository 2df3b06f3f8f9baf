"""Bids and cannonball calls: a round's row, written all at once or one phone at a time.

The ``skullcam-game/1`` record has no "not bid yet", so the store holds ``None`` for a missing
bid and guards the one change that would silently drop recorded play from the score: clearing
a bid in a round that already has tricks (:func:`_bids_changed`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from skullcam.errors import UserError, echo

from . import checks, verdicts
from .audit import write_audit
from .events import emit
from .games import GamesMixin
from .refusals import refusal
from .rows import Game, dump_json, load_json, trick_row


def round_row(conn: sqlite3.Connection, game_id: int, round_number: int) -> sqlite3.Row | None:
    """A round's stored row (bids, cannonball calls, pirate abilities), or None before any."""
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM rounds WHERE game_id = ? AND round = ?", (game_id, round_number)
    ).fetchone()
    return row


def stored_cannonball(
    conn: sqlite3.Connection, game_id: int, round_number: int
) -> list[bool] | None:
    """A round's cannonball calls as stored, ``None`` before any; the round is not checked."""
    row = round_row(conn, game_id, round_number)
    return load_json(row["cannonball"]) if row and row["cannonball"] else None


def put_round(
    conn: sqlite3.Connection,
    game_id: int,
    round_number: int,
    bids: list[int | None],
    cannonball: list[bool] | None,
) -> None:
    """Write a round's bids and calls; its pirate abilities, if any, are kept."""
    conn.execute(
        "INSERT INTO rounds (game_id, round, bids, cannonball) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(game_id, round) DO UPDATE SET bids = excluded.bids, "
        "cannonball = excluded.cannonball",
        (
            game_id,
            round_number,
            dump_json(bids),
            None if cannonball is None else dump_json(cannonball),
        ),
    )


def check_round(game: Game, round_number: int, rounds_due: Callable[[], int]) -> None:
    """A round the game has under its settings *now* (a settings change can remove some),
    or a tie-break round due (``rounds_due``: asked only past the setting's rounds, since
    it scores the game)."""
    rounds = int(checks.full_settings(game.settings)["rounds"])
    if checks.whole_in(round_number, 1, rounds):
        return
    if checks.whole_in(round_number, rounds + 1, 10 * rounds + 100):
        rounds = rounds_due()
        if round_number <= rounds:
            return
    raise refusal("round_range", rounds=rounds, value=echo(round_number))


def _check_cannonball_counts(game: Game) -> None:
    """A cannonball call only counts under Rascal's scoring: one made under another would
    sit in the record, ignored with a warning, until the setting changed."""
    scoring = checks.full_settings(game.settings)["scoring"]
    if scoring != "rascal":
        raise refusal("cannonball_scoring", scoring=repr(scoring))


def _checked_bid(game: Game, round_number: int, player: int, bid: Any) -> int | None:
    """``None`` (not bid yet) or a bid 0..cards dealt this round, named for the player."""
    if bid is None:
        return None
    cards = checks.cards_dealt(round_number, len(game.players), game.settings)
    return checks.check_bid(bid, cards, game.players[player], round_number)


def _checked_cannonball(game: Game, cannonball: Any) -> list[bool]:
    n = len(game.players)
    if (
        isinstance(cannonball, (str, bytes))
        or not isinstance(cannonball, Sequence)
        or len(cannonball) != n
        or not all(isinstance(b, bool) for b in cannonball)
    ):
        raise UserError(f"cannonball needs one true/false per player ({n})")
    if any(cannonball):
        _check_cannonball_counts(game)
    return list(cannonball)


def harry_fits(bid: int, change: int, dealt: int) -> bool:
    """Whether Harry's ``change`` keeps a ``bid`` within 0..``dealt``, as the rules score it
    (the question, the replay page's menu and a later bid change all ask this)."""
    return 0 <= bid + change <= dealt


def check_harry_bid(
    conn: sqlite3.Connection,
    game: Game,
    round_number: int,
    trick_index: int,
    change: int,
    bids: Sequence[int | None] | None = None,
) -> None:
    """Refuse Harry's change where it would take the trick's winner's bid (``bids``, else the
    round's stored ones) out of 0..cards dealt: the rules cannot score that, and the whole
    game would stop there. A bid not entered yet is judged when it is."""
    if change == 0:
        return
    trick = trick_row(conn, game.id, round_number, trick_index)
    row = round_row(conn, game.id, round_number)
    if bids is None:
        bids = load_json(row["bids"]) if row is not None else None
    if trick is None or bids is None:
        return
    plays = load_json(trick["plays"])
    winner = verdicts.winner_player(plays, verdicts.resolve(plays, game.settings, game.players))
    bid = None if winner is None else bids[winner]
    if winner is None or bid is None:
        return
    dealt = checks.cards_dealt(round_number, len(game.players), game.settings)
    if not harry_fits(bid, change, dealt):
        raise refusal(
            "harry_out_of_range",
            player=game.players[winner],
            bid=bid,
            dealt=dealt,
            round=round_number,
            change=change,
            trick=trick_index + 1,
            total=bid + change,
            undo=-change,
        )


def _check_bids_with_harry(
    conn: sqlite3.Connection, game: Game, round_number: int, bids: Sequence[int | None]
) -> None:
    """New bids must leave every Harry's change recorded in the round within range, while
    abilities count (kept while the setting is off, they move no bid then)."""
    if not checks.full_settings(game.settings)["pirate_abilities"]:
        return
    row = round_row(conn, game.id, round_number)
    for ability in load_json(row["abilities"]) if row is not None else []:
        if ability["pirate"] == "pirate-harry":
            check_harry_bid(conn, game, round_number, ability["trick"], ability["choice"], bids)


def _played(conn: sqlite3.Connection, game_id: int, round_number: int) -> int:
    """How many tricks of the round are recorded."""
    sql = "SELECT COUNT(*) FROM tricks WHERE game_id = ? AND round = ?"
    return int(conn.execute(sql, (game_id, round_number)).fetchone()[0])


def _bids_changed(
    conn: sqlite3.Connection,
    game: Game,
    round_number: int,
    old: Sequence[int | None],
    new: Sequence[int | None],
    calls: tuple[Sequence[bool] | None, Sequence[bool] | None] = (None, None),
) -> None:
    """Check a change of a round's bids, then audit it once the round has recorded tricks.

    Refused: clearing a bid made (the record format has no "not bid yet", so a cleared bid
    would drop that round and every later one from the score and the exports; on a phone,
    tapping the lit bid button clears it: changing the bid is the correction a table means),
    and a bid Harry's recorded change would take out of range. A bid changed after play moves
    points like a corrected card, so it goes on the audit trail (bids made before play are
    the game itself, not changes). So do cannonball calls changed after play (``calls``,
    before and after; no list is no call), in the same entry.
    """
    played = _played(conn, game.id, round_number)
    pairs = list(enumerate(zip(old, new, strict=True)))
    cleared = [i for i, (was, now) in pairs if was is not None and now is None]
    if cleared and played:
        if len(cleared) == 1:
            player = game.players[cleared[0]]
            raise refusal("bid_cleared_after_play", round=round_number, player=player)
        players = ", ".join(game.players[i] for i in cleared)
        raise refusal("bids_cleared_after_play", round=round_number, players=players)
    _check_bids_with_harry(conn, game, round_number, new)
    n = len(game.players)
    was_called, now_called = (list(c) if c else [False] * n for c in calls)
    balls_changed = was_called != now_called
    if played and (balls_changed or any(was != now for _, (was, now) in pairs)):
        before: dict[str, Any] = {"round": round_number, "bids": list(old)}
        after: dict[str, Any] = {"round": round_number, "bids": list(new)}
        if balls_changed:
            before["cannonball"], after["cannonball"] = was_called, now_called
        write_audit(conn, game.id, None, "bid", before, after, "")


class BidsMixin(GamesMixin):
    """Setting and reading a round's bids; the TV's bid screen and each player's phone."""

    def set_bids(
        self,
        game_id: int,
        round_number: int,
        bids: Sequence[int | None],
        cannonball: Sequence[bool] | None = None,
    ) -> None:
        """Set a round's bids at once (``None`` = not bid yet); each 0..cards dealt.

        A bid already made cannot be cleared once the round has recorded tricks (see
        :func:`_bids_changed`).
        """
        with self._write() as conn:
            game = self.game(game_id)
            n = len(game.players)
            check_round(game, round_number, partial(self.rounds_due, game_id))
            if isinstance(bids, (str, bytes)) or not isinstance(bids, Sequence):
                raise UserError(f"bids must be a list, one per player ({n})")
            if len(bids) != n:
                raise refusal("bids_count", round=round_number, players=n, count=len(bids))
            clean = [_checked_bid(game, round_number, i, bid) for i, bid in enumerate(bids)]
            balls = None if cannonball is None else _checked_cannonball(game, cannonball)
            row = round_row(conn, game_id, round_number)
            was_called = load_json(row["cannonball"]) if row and row["cannonball"] else None
            if balls is None:
                balls = was_called
            if row is not None:
                old = load_json(row["bids"])
                _bids_changed(conn, game, round_number, old, clean, (was_called, balls))
            with self.settling_rounds(conn, game_id):  # a bid changed after play may tie
                put_round(conn, game_id, round_number, clean, balls)
            emit(conn, game_id, "bids", {"round": round_number, "bids": clean})

    def set_bid(
        self,
        game_id: int,
        round_number: int,
        player: int,
        bid: int | None,
        cannonball: bool | None = None,
    ) -> None:
        """Set one player's bid (a phone per player); other players' bids are kept."""
        self._set_one(game_id, round_number, player, bid, cannonball)

    def set_cannonball(self, game_id: int, round_number: int, player: int, called: bool) -> None:
        """One player's cannonball call alone, the bid kept as stored: a tap on the box that
        sent the bid too would undo a bid another phone changed since the page last looked."""
        self._set_one(game_id, round_number, player, None, called, keep_bid=True)

    def _set_one(
        self,
        game_id: int,
        round_number: int,
        player: int,
        bid: int | None,
        cannonball: bool | None,
        keep_bid: bool = False,
    ) -> None:
        with self._write() as conn:
            game = self.game(game_id)
            n = len(game.players)
            check_round(game, round_number, partial(self.rounds_due, game_id))
            checks.check_player(player, n)
            row = round_row(conn, game_id, round_number)
            old = load_json(row["bids"]) if row else [None] * n
            balls = load_json(row["cannonball"]) if row and row["cannonball"] else None
            bids = list(old)
            if not keep_bid:
                bids[player] = _checked_bid(game, round_number, player, bid)
            was_called = list(balls) if balls else None
            if cannonball is not None:
                if cannonball:
                    _check_cannonball_counts(game)
                balls = balls or [False] * n
                balls[player] = bool(cannonball)
            _bids_changed(conn, game, round_number, old, bids, (was_called, balls))
            with self.settling_rounds(conn, game_id):
                put_round(conn, game_id, round_number, bids, balls)
            payload = {"round": round_number, "bids": bids, "player": player}
            emit(conn, game_id, "bids", payload)

    def bids(self, game_id: int, round_number: int) -> list[int | None]:
        """A round's bids, ``None`` for a player who has not bid; a round the game does not
        have is an error, not a row of ``None`` that reads like a round nobody bid in yet."""
        game = self.game(game_id)
        check_round(game, round_number, partial(self.rounds_due, game_id))
        row = round_row(self._conn(), game_id, round_number)
        return load_json(row["bids"]) if row else [None] * len(game.players)

    def cannonball(self, game_id: int, round_number: int) -> list[bool] | None:
        """A Rascal-scoring round's cannonball calls, ``None`` before any (round checked as
        in :meth:`bids`)."""
        check_round(self.game(game_id), round_number, partial(self.rounds_due, game_id))
        return stored_cannonball(self._conn(), game_id, round_number)
