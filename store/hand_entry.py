"""A trick entered by hand: the one the camera missed, or every trick of a table with none.

Without it a trick the camera never saw (a hand over the table, the camera unplugged for a
minute, no camera at all) left its round a trick short for good: the web page could add a
missing card to a recorded trick, not a missing trick. The table enters the game's *next*
trick only, card by card in play order from the player the rules say leads it, so the record
stays one the rules can score; the slot is checked inside the write, so a camera recording the
same trick a moment earlier wins and the page is told to look again instead of adding it twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skullcam.errors import UserError, echo
from skullcam.rules import RulesError, find_duplicate, parse_card, unresolved_reason
from skullcam.rules.explain import CardId

from . import checks, verdicts
from .abilities import ask_for_choice, choice_kind, stored_abilities
from .audit import write_audit
from .corrections import _playable
from .refusals import refusal
from .round_so_far import current_round, round_so_far
from .rows import Game, Trick, dump_json
from .tricks import HAND_SOURCE, TricksMixin


class HandEntryMixin(TricksMixin):
    """Where the next trick goes and who plays in which order; entering it."""

    def next_trick(self, game_id: int) -> dict[str, Any] | None:
        """The trick the table would enter next: ``{"round", "trick", "order"}`` (players in
        play order, the leader first), or None when the game is over or every round is
        played. ``order`` is empty while the leader is not known yet (an earlier trick of the
        round has a card missing, or Rosie's choice waits): :meth:`enter_trick` says which."""
        return self._next_trick(self.game(game_id), self.tricks(game_id))

    def _next_trick(self, game: Game, recorded: Sequence[Trick]) -> dict[str, Any] | None:
        if game.status == "finished":
            return None
        n = len(game.players)
        by_round: dict[int, list[Trick]] = {}
        for t in recorded:
            by_round.setdefault(t.round, []).append(t)
        round_number = current_round(game, by_round, self.rounds_due(game.id))
        round_tricks = by_round.get(round_number, [])
        if len(round_tricks) >= checks.cards_dealt(round_number, n, game.settings):
            return None
        leader = self._leader(game, round_number, round_tricks)
        order = [] if leader is None else [(leader + k) % n for k in range(n)]
        return {"round": round_number, "trick": len(round_tricks), "order": order}

    def _leader(self, game: Game, round_number: int, round_tricks: Sequence[Trick]) -> int | None:
        n = len(game.players)
        on = bool(checks.full_settings(game.settings)["pirate_abilities"])
        dealer = (game.first_dealer + round_number - 1) % n
        abilities = stored_abilities(self._conn(), game.id, round_number)
        return round_so_far(game, dealer, round_tricks, abilities, on).leader

    def enter_trick(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plays: Sequence[Mapping[str, Any]],
        note: str = "",
    ) -> Trick:
        """Record trick ``trick_index`` of ``round_number`` as the table says it was played:
        ``plays`` in play order, one ``{"player", "card"}`` per player, the leader first.

        Refused unless it is the game's next trick (the page shows it; a camera or another
        phone may have recorded it meanwhile), while its leader is not known, when a card is
        played more often in the round than the deck holds, or for an undeclared Tigress.
        Audited as 'hand'; a pirate's choice it gives is asked on the phones as a camera's
        trick would ask it."""
        note = checks.check_note(note)
        with self._write() as conn:
            game = self.game(game_id)
            n = len(game.players)
            nxt = self._next_trick(game, self.tricks(game_id))
            if nxt is None:
                raise refusal("hand_no_trick_left", game=game_id)
            if (nxt["round"], nxt["trick"]) != (round_number, trick_index):
                raise refusal(
                    "hand_not_next",
                    round=echo(round_number),
                    trick=trick_index + 1 if isinstance(trick_index, int) else echo(trick_index),
                    next_round=nxt["round"],
                    next_trick=nxt["trick"] + 1,
                )
            where = {"round": round_number, "trick": trick_index + 1}
            if not nxt["order"]:
                raise refusal("hand_leader_unknown", **where)
            clean = checks.check_plays(plays, n)
            for play in clean:
                play["card"] = _playable(play["card"])
            order = [p["player"] for p in clean]
            if order != nxt["order"]:
                leader = game.players[nxt["order"][0]]
                raise UserError(
                    f"round {round_number} trick {trick_index + 1}: plays must go clockwise "
                    f"from {leader}, who leads it (players {nxt['order']}), got players {order}"
                )
            self._check_deck(game, round_number, clean)
            found = verdicts.verdict(clean, game.settings, game.players)
            if isinstance(found, RulesError):  # the deck check above leaves no known case
                why = unresolved_reason(found, [p["card"] for p in clean])
                raise UserError(f"round {round_number} trick {trick_index + 1}: {why}")
            resolution = verdicts.resolution_json(found)
            columns = {"detections": dump_json({"source": HAND_SOURCE})}
            trick_id = self._record_in(
                conn, game, round_number, trick_index, clean, resolution, columns, by_hand=True
            )
            plays_after = [{"player": p["player"], "card": p["card"]} for p in clean]
            write_audit(conn, game.id, trick_id, "hand", None, {"plays": plays_after}, note)
            trick = self.trick(game_id, round_number, trick_index)
            try:
                kind = choice_kind(game, trick)
            except UserError:  # no pirate with a choice won it (or abilities are off)
                kind = None
            if kind is not None:
                winner = verdicts.winner_player(clean, resolution)
                ask_for_choice(conn, game.id, round_number, trick_index, kind, winner)
        return trick

    def _check_deck(
        self, game: Game, round_number: int, plays: Sequence[Mapping[str, Any]]
    ) -> None:
        """Refuse a card the round has already used up (the score would stop at it)."""
        before = [p for t in self.tricks(game.id, round_number) for p in t.plays]
        cards = [parse_card(str(p["card"])) for p in [*before, *plays]]
        duplicate = find_duplicate(cards)
        if duplicate is not None and duplicate[0] >= len(before):
            index, card = duplicate
            player = game.players[int(plays[index - len(before)]["player"])]
            raise refusal("hand_card_used", card=CardId(card), player=player, round=round_number)
