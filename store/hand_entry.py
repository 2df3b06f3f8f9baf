"""A trick entered by hand: the one the camera missed, or every trick of a table with none.

Without it a trick the camera never saw (a hand over the table, the camera unplugged for a
minute, no camera at all) left its round a trick short for good: the web page could add a
missing card to a recorded trick, not a missing trick. The table enters the game's *next*
trick only, card by card in play order from the player the rules say leads it, so the record
stays one the rules can score; the slot and the order are checked inside the write, so a
camera recording the same trick a moment earlier (or a correction that changed who leads)
wins, and the page is told to look again instead of adding it twice.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial
from typing import Any

from skullcam.errors import UserError, echo
from skullcam.rules import (
    Card,
    RulesError,
    dealer_of_round,
    find_duplicate,
    parse_card,
    unresolved_reason,
)
from skullcam.rules.cards import CARD_IDS, deck_holds
from skullcam.rules.explain import CardId

from . import checks, lead_doubt, trick_moves, verdicts
from .abilities import (
    ABILITY_PIRATE,
    ask_for_choice,
    audit_dropped_choice,
    check_harry_bid,
    choice_kind,
    made_choice,
    restore_dropped_choice,
)
from .audit import write_audit
from .corrections import _playable
from .prompts import close_prompt, open_questions
from .refusals import refusal
from .rosie_lead import ask_and_follow, follow_rosies_lead
from .round_so_far import first_free, is_rounds_last_trick
from .rows import HAND_SOURCE, Game, Trick, dump_json
from .trick_moves import Move
from .tricks import TricksMixin, finish_after_last_trick


def _legal(cards: Sequence[Card]) -> list[Card]:
    """``cards`` without those the deck could not hold (a card the camera read twice is
    corrected on its own trick's page; it must not hide a new card played once too often)."""
    kept: list[Card] = []
    for card in cards:
        if find_duplicate([*kept, card]) is None:
            kept.append(card)
    return kept


def _room_before(
    game: Game, tricks: Sequence[Trick], rounds: int, round_number: Any, trick_index: Any
) -> list[Move] | UserError:
    """The moves that make room for a missed trick before trick ``trick_index`` of the round
    (:func:`trick_moves.moves_to_free`), or why none can go there: that trick is not recorded,
    the place before it is free (a trick taken back left a gap), or every later place of the
    game is: the table fills the gap first, because an insert past it would leave the gap
    in place and push the round's tricks over its end."""
    recorded = {(t.round, t.trick) for t in tricks}
    if (round_number, trick_index) not in recorded or not isinstance(trick_index, int):
        shown = trick_index + 1 if isinstance(trick_index, int) else echo(trick_index)
        return refusal("insert_no_trick", round=echo(round_number), trick=shown)
    if trick_index > 0 and (round_number, trick_index - 1) not in recorded:
        return refusal(
            "insert_before_free", round=round_number, trick=trick_index + 1, free=trick_index
        )
    moves = trick_moves.moves_to_free(game, tricks, (round_number, trick_index), rounds)
    if moves is None:
        return refusal("insert_no_room", round=round_number, trick=trick_index + 1)
    return moves


# What a trick entered by hand is refused for, by what the trick before it waits for.
_UNKNOWN_LEADER_REFUSAL = {
    "winner": "hand_leader_unknown",
    "rosie": "hand_waits_rosie",
    "rosie_unchosen": "hand_rosie_unchosen",
}


def _refuse_unknown_leader(slot: Mapping[str, Any]) -> None:
    """A trick entered by hand needs its leader: refused while it is not known (``slot`` as
    ``_slot`` gives it), naming the one thing to settle, because one message for every cause
    leaves the table to guess which."""
    if slot["order"]:
        return
    where = {
        "round": slot["round"],
        "trick": slot["trick"] + 1,
        "waits_on": (slot["waits_on"] or 0) + 1,
    }
    raise refusal(_UNKNOWN_LEADER_REFUSAL[slot["waits_for"] or "winner"], **where)


def _waits_for(conn: sqlite3.Connection, game: Game, trick: Trick) -> str:
    """What the trick that leaves the next leader unknown waits for: ``"rosie"`` (her
    question of who leads is open on the phones), ``"rosie_unchosen"`` (it was dismissed:
    her choice is made on her trick's page) or ``"winner"`` (a card missing, or one read
    twice). A dismissed question is ``"rosie_unchosen"``, not ``"rosie"``, because the
    phones no longer show it: the table is sent to the trick's page instead."""
    won = verdicts.resolve(trick.plays, game.settings, game.players).get("winning_card")
    if won != "pirate-rosie":
        return "winner"
    asked = open_questions(conn, game.id, trick.round, trick.trick, "rosie")
    return "rosie" if asked else "rosie_unchosen"


def _cards_of(tricks: Sequence[Trick]) -> list[Card]:
    """The cards ``tricks`` hold, in order."""
    return [parse_card(str(p["card"])) for t in tricks for p in t.plays]


class HandEntryMixin(TricksMixin):
    """Where the next trick goes and who plays in which order; entering it."""

    def next_trick(self, game_id: int) -> dict[str, Any] | None:
        """The trick the table would enter next: ``{"round", "trick", "order", "waits_on",
        "waits_for"}``
        (players in play order, the leader first), or None when the game is over or every
        round is played. ``order`` is empty while the leader is not known yet, and then
        ``waits_on`` is the trick (its index in the round) to settle first and ``waits_for``
        why: ``"winner"`` (a card missing or read twice), ``"rosie"`` (her question of who
        leads is open) or ``"rosie_unchosen"`` (it was dismissed: choose on that trick's page)."""
        return self._next_trick(self.game(game_id), self.tricks(game_id))

    def _next_trick(self, game: Game, recorded: Sequence[Trick]) -> dict[str, Any] | None:
        if game.status == "finished":
            return None
        by_round: dict[int, list[Trick]] = {}
        for t in recorded:
            by_round.setdefault(t.round, []).append(t)
        free = first_free(game, by_round, self.rounds_due(game.id))
        if free is None:
            return None
        # The first free place, led as the tricks before it say.
        round_number, trick_index = free
        return self._slot(game, round_number, trick_index, by_round.get(round_number, []))

    def missed_before(
        self, game_id: int, round_number: int, trick_index: int
    ) -> dict[str, Any] | None:
        """Where a trick the camera missed before recorded trick ``trick_index`` would go
        (:meth:`insert_trick`), as :meth:`next_trick` says it, with ``"insert": True`` and
        ``"crosses"``: the first trick the insert moves into the next round, as ``{"round",
        "trick", "to_round", "to_trick"}`` (None when all stay in their rounds), and
        ``"leaving"``: the round's tricks it moves out of the round. None where none can go:
        the game finished, no such trick, or no free place after it."""
        game = self.game(game_id)
        tricks = self.tricks(game_id)
        moves = _room_before(game, tricks, self.rounds_due(game_id), round_number, trick_index)
        if game.status == "finished" or isinstance(moves, UserError):
            return None
        round_tricks = [t for t in tricks if t.round == round_number]
        crossing = next(((a, b) for a, b in reversed(moves) if a[0] != b[0]), None)
        crosses = None
        if crossing is not None:
            (r, t), (to_r, to_t) = crossing
            crosses = {"round": r, "trick": t, "to_round": to_r, "to_trick": to_t}
        slot = self._slot(game, round_number, trick_index, round_tricks)
        leaving = [t for (r, t), (to_r, _) in moves if r == round_number != to_r]
        return {**slot, "insert": True, "crosses": crosses, "leaving": leaving}

    def _slot(
        self, game: Game, round_number: int, slot: int, round_tricks: Sequence[Trick]
    ) -> dict[str, Any]:
        """Trick ``slot`` of the round as the tricks before it lead into it: its play order,
        or (leader unknown) the trick to settle first and what it waits for."""
        n = len(game.players)
        before = [t for t in round_tricks if t.trick < slot]
        leader = lead_doubt.rules_leader(self._conn(), game, round_number, round_tricks, slot)
        order = [] if leader is None else [(leader + k) % n for k in range(n)]
        waits = before[-1] if leader is None and before else None
        return {
            "round": round_number,
            "trick": slot,
            "order": order,
            "waits_on": None if waits is None else waits.trick,
            "waits_for": None if waits is None else _waits_for(self._conn(), game, waits),
        }

    def enter_trick(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plays: Sequence[Any],
        note: str = "",
    ) -> Trick:
        """Record trick ``trick_index`` of ``round_number`` as the table says it was played:
        ``plays`` in play order, one ``{"player", "card"}`` per player, the leader first.

        Refused unless it is the game's next trick (the page shows it; a camera or another
        phone may have recorded it meanwhile) and its plays go clockwise from the leader the
        rules give now (a correction may have changed who that is); while its leader is not
        known; when a card is played more often in the round than the deck holds; for an
        undeclared Tigress, an unnamed pirate or mermaid, or an expansion card the game's
        settings leave out of the deck; in a finished game and in the demo's. Audited as
        'hand'; a pirate's choice it gives is asked on the phones as a camera's trick would
        ask it."""
        note = checks.check_note(note)
        with self._write() as conn:
            # The last trick recorded by another page or the camera may have finished the
            # game: the late page still learns whether its cards were the ones recorded.
            late = partial(
                self._refuse_if_recorded_meanwhile,
                round_number=round_number,
                trick_index=trick_index,
                plays=plays,
            )
            game = self._game_taking_hand_tricks(game_id, late)
            nxt = self._next_trick(game, self.tricks(game_id))
            if nxt is None:
                raise refusal("hand_no_trick_left", game=game_id)
            if (nxt["round"], nxt["trick"]) != (round_number, trick_index):
                late(game)
                raise refusal(
                    "hand_not_next",
                    round=echo(round_number),
                    trick=trick_index + 1 if isinstance(trick_index, int) else echo(trick_index),
                    next_round=nxt["round"],
                    next_trick=nxt["trick"] + 1,
                )
            _refuse_unknown_leader(nxt)
            self._write_hand_trick(conn, game, round_number, trick_index, plays, nxt["order"], note)
        return self.trick(game_id, round_number, trick_index)

    def insert_trick(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plays: Sequence[Any],
        note: str = "",
    ) -> Trick:
        """Record a trick the camera missed *before* trick ``trick_index`` of ``round_number``:
        that trick and the ones after it, up to the game's first free place, move on one place
        (over a round's end too), their pirates' choices and questions with them.

        A camera that misses a trick files the next one it sees into the missed trick's place
        (flagged: "Ben led, but the game expected Cai to lead"), and every later one a place
        early; entering the missed trick after them would leave them all in the wrong order.
        A moved trick now led as the rules say loses that doubt (and a card of it flagged as
        already played this round, where its new round had not played it); Rosie's choice on a trick
        moved to a round's last place is dropped (the rules give the next round's leader),
        and one moved off it is asked. Refused where no place after ``trick_index`` is free,
        where it is not recorded (enter the next trick instead), and as :meth:`enter_trick`
        refuses: leader unknown, plays not clockwise from it, a card the round has used up,
        a finished game or the demo's."""
        note = checks.check_note(note)
        with self._write() as conn:
            # Another phone's insert of this trick may have finished the game.
            late = partial(
                self._refuse_inserted_meanwhile,
                round_number=round_number,
                trick_index=trick_index,
                plays=plays,
            )
            game = self._game_taking_hand_tricks(game_id, late)
            tricks = self.tricks(game_id)
            rounds = self.rounds_due(game_id)
            moves = _room_before(game, tricks, rounds, round_number, trick_index)
            if isinstance(moves, UserError):
                raise moves
            round_tricks = [t for t in tricks if t.round == round_number]
            slot = self._slot(game, round_number, trick_index, round_tricks)
            _refuse_unknown_leader(slot)
            late(game)
            ids = {(t.round, t.trick): t.id for t in tricks}
            trick_moves.move_tricks(conn, game, moves)
            entered = f"round {round_number} trick {trick_index + 1}"
            why = f"moved one place on: the missed trick was entered by hand as {entered}"
            trick_moves.audit_moves(conn, game, moves, ids, why)
            self._write_hand_trick(
                conn, game, round_number, trick_index, plays, slot["order"], note
            )
            dropped = self._settle_moved(conn, game, [to for _, to in reversed(moves)])
            # Kept with the trick, so that taking it back moves them back, doubts and all.
            moved = [
                {"id": ids[a], "from": list(a), "to": list(b), "flags": dropped.get(ids[a], [])}
                for a, b in moves
            ]
            inserted = self.trick(game_id, round_number, trick_index)
            source = {**inserted.source_info, "moved": moved}
            sql = "UPDATE tricks SET detections = ? WHERE id = ?"
            conn.execute(sql, (dump_json(source), inserted.id))
            # The free place taken (the first move's) may be the game's last.
            finish_after_last_trick(conn, game, partial(self.rounds_due, game_id))
        return self.trick(game_id, round_number, trick_index)

    def _refuse_inserted_meanwhile(
        self, game: Game, round_number: int, trick_index: int, plays: Sequence[Any]
    ) -> None:
        """Two phones inserting one missed trick: the second finds the first's in the place
        it asks for, with the same cards, and is told so (it heard "Parrot 10 was already
        played in round 2", and a trick of escapes would have gone in twice)."""
        found = self._stored_and_mine(game, round_number, trick_index, plays)
        if found is not None and found[0].by_hand and found[1] == found[2]:
            raise refusal("hand_recorded_same", round=round_number, trick=trick_index + 1)

    def _game_taking_hand_tricks(self, game_id: int, late: Callable[[Game], None]) -> Game:
        """The game a trick is entered into, refused finished (``late`` first tells a page
        whose trick went in meanwhile that it did), the demo's, or replaced at the table."""
        game = self.game(game_id)
        if game.status == "finished":
            late(game)
        self._refuse_hand_tricks_off_the_table(game)
        if game.status == "finished":
            raise refusal("hand_game_finished", game=game_id)
        return game

    def _refuse_hand_tricks_off_the_table(self, game: Game) -> None:
        """Tricks are entered and taken back only in the table's own game. Not the demo's
        (a recording replayed into it); nor one another game has replaced: a trick taken back
        from its end would open it again and take the table from the game being played (its
        pages hide the buttons, but a phone may still show last game's page)."""
        if self.is_demo_game(game.id):
            raise refusal("hand_demo_game", game=game.id)
        newer = self.replaced_by(game.id)
        if newer is not None:
            raise refusal("hand_replaced_game", game=game.id, newer=newer)

    def _stored_and_mine(
        self, game: Game, round_number: int, trick_index: int, plays: Sequence[Any]
    ) -> tuple[Trick, dict[int, str], dict[int, str]] | None:
        """The trick stored in the place a page asks for, its cards by player, and the page's
        (None where there is none, or the page's plays are none it could have sent)."""
        stored = next(
            (t for t in self.tricks(game.id, round_number) if t.trick == trick_index), None
        )
        try:
            clean = checks.check_plays(plays, len(game.players))
        except UserError:
            return None  # plays the page could not have sent: the plain refusal says enough
        mine = {int(p["player"]): _playable(p["card"]) for p in clean}
        if stored is None or not mine:
            return None
        return stored, {int(p["player"]): str(p["card"]) for p in stored.plays}, mine

    def led_otherwise(self, game_id: int, round_number: int, trick_index: int) -> bool:
        """Whether the trick was led by another player than the rules say leads it there
        (the camera may have missed the trick before it, even once its flag is confirmed)."""
        round_tricks = self.tricks(game_id, round_number)
        trick = next((t for t in round_tricks if t.trick == trick_index), None)
        if trick is None:
            return False
        return lead_doubt.led_otherwise(self._conn(), self.game(game_id), trick, round_tricks)

    def _settle_moved(
        self, conn: sqlite3.Connection, game: Game, places: Sequence[tuple[int, int]]
    ) -> dict[int, list[str]]:
        """What new places change for the tricks moved there (``places`` in play order: a
        trick's leader needs the one before it settled): a pirate's choice
        (:meth:`_settle_choice`), a lead doubt settled, and a card's "already played this
        round" doubt where its new round has not played it before. Returns the doubts dropped,
        by trick id."""
        dropped: dict[int, list[str]] = {}
        for r, t in places:
            now = self.trick(game.id, r, t)
            self._settle_choice(conn, game, now)
            follow_rosies_lead(conn, game, r, t)
            doubts = self._settle_doubts(conn, game, now)
            if doubts:
                dropped[now.id] = doubts
        return dropped

    def _settle_choice(self, conn: sqlite3.Connection, game: Game, trick: Trick) -> None:
        """A moved trick's pirate choice as its new place allows: Rosie's on a round's last
        trick is dropped (the rules give the next round's leader; kept, it stops the score),
        as is Harry's change where it no longer fits the new round's bid; a choice a move
        dropped comes back once its place allows it again; else a choice its pirate gives is
        asked unless made or asked already."""
        r, t = trick.round, trick.trick
        winner = verdicts.winner_player(trick.plays, trick.resolution)
        if is_rounds_last_trick(game, r, t):
            rosie = ABILITY_PIRATE["rosie"]
            last = f"round {r} trick {t + 1} is now the round's last"
            why = f"{last}: {rosie}'s choice no longer counts"
            for dropped in trick_moves.drop_abilities(conn, game, (r, t), rosie):
                audit_dropped_choice(conn, game.id, trick.id, dropped, winner, why)
            for prompt in open_questions(conn, game.id, r, t, "rosie"):
                close_prompt(conn, prompt, "dismissed", None)
        try:
            kind = choice_kind(game, trick)
        except UserError:  # no pirate with a choice won it (Rosie's last trick, abilities off)
            return
        if kind == "harry":
            self._drop_misfit_harry(conn, game, trick, winner)
        note = f"restored: it counts again at round {r} trick {t + 1}"
        if restore_dropped_choice(conn, game, r, t, trick.id, kind, winner, note):
            for prompt in open_questions(conn, game.id, r, t, kind):  # asked after the drop
                close_prompt(conn, prompt, "dismissed", None)
        else:
            ask_for_choice(conn, game.id, r, t, kind, winner)

    def _drop_misfit_harry(
        self, conn: sqlite3.Connection, game: Game, trick: Trick, winner: int | None
    ) -> None:
        """Harry's change moved into another round is judged against that round's bid: one
        that no longer fits (a bid of 3 with 3 cards dealt, +1) would stop the whole score.
        So it is dropped, kept in the trick's history with why, and the table asked again."""
        harry = ABILITY_PIRATE["harry"]
        r, t = trick.round, trick.trick
        made = made_choice(conn, game.id, r, t, harry)
        if made is None:
            return
        try:
            check_harry_bid(conn, game, r, t, made["choice"])
        except UserError:
            why = f"moved to round {r}: {harry}'s change no longer fits the winner's bid there"
            for dropped in trick_moves.drop_abilities(conn, game, (r, t), harry):
                audit_dropped_choice(conn, game.id, trick.id, dropped, winner, why)

    def _write_hand_trick(
        self,
        conn: sqlite3.Connection,
        game: Game,
        round_number: int,
        trick_index: int,
        plays: Sequence[Any],
        order: list[int],
        note: str,
    ) -> None:
        """Check a trick entered by hand against ``order`` and the round's deck, and record it
        in the caller's transaction: audited as 'hand', its pirate's question asked."""
        where = {"round": round_number, "trick": trick_index + 1}
        clean = checks.check_plays(plays, len(game.players))
        for play in clean:
            play["card"] = _playable(play["card"])
        if [p["player"] for p in clean] != order:
            leader = game.players[order[0]]
            if clean[0]["player"] == order[0]:  # the leader right, the others out of turn
                names = ", ".join(game.players[seat] for seat in order)
                raise refusal("hand_play_order", leader=leader, order=names, **where)
            if trick_index == 0:  # no trick before it: said so, the dealer's neighbour leads
                n = len(game.players)
                dealer = game.players[dealer_of_round(game.first_dealer, round_number, n)]
                raise refusal("hand_first_lead", leader=leader, dealer=dealer, round=round_number)
            raise refusal("hand_order_changed", leader=leader, **where)
        checks.refuse_off_the_menu(game.settings, game.players, clean)
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
        ask_and_follow(conn, game, self.trick(game.id, round_number, trick_index))

    def _refuse_if_recorded_meanwhile(
        self, game: Game, round_number: int, trick_index: int, plays: Sequence[Any]
    ) -> None:
        """Two phones entering one trick, or a phone and the camera: the second is told
        whether the trick stored has the cards it was about to enter, naming the cards that
        differ, because a plain "reload" hides that another phone stored (say) a misread 13
        where this one had the 14."""
        found = self._stored_and_mine(game, round_number, trick_index, plays)
        if found is None:
            return
        _, there, mine = found
        where = {"round": round_number, "trick": trick_index + 1}
        differ = [p for p in mine if p in there and there[p] != mine[p]]
        missing = [p for p in mine if p not in there]
        if missing and not differ:  # the camera's trick, a card short: this page has it
            player = missing[0]
            raise refusal(
                "hand_recorded_short",
                player=game.players[player],
                mine=CardId(parse_card(mine[player])),
                **where,
            )
        if differ:
            player = differ[0]
            raise refusal(
                "hand_recorded_other",
                player=game.players[player],
                card=CardId(parse_card(there[player])),
                mine=CardId(parse_card(mine[player])),
                **where,
            )
        if there == mine:
            raise refusal("hand_recorded_same", **where)

    def used_up(self, game_id: int, round_number: int, leaving: Collection[int] = ()) -> list[str]:
        """The card ids of :func:`hand_cards` the round has no copy left of (the page greys
        them out: a card already played is the commonest slip when entering a trick), not
        counting the round's tricks ``leaving`` it (a missed trick's insertion moves them to
        the next round: another deal)."""
        gone = self._played_except(game_id, round_number, set(leaving))
        return [cid for cid in checks.hand_cards(self.game(game_id).settings) if cid in gone]

    def played_elsewhere(self, game_id: int, round_number: int, trick_index: int) -> dict[str, int]:
        """The card ids the round's tricks other than ``trick_index`` leave no copy of, each
        with the trick (counted from 1) that played the last one: the replay page's Correct
        menu marks them (a card already played is the commonest slip when correcting one)."""
        return self._played_except(game_id, round_number, {trick_index})

    def _played_except(
        self, game_id: int, round_number: int, skipped: Collection[int]
    ) -> dict[str, int]:
        every = {cid: parse_card(cid) for cid in CARD_IDS}
        cards: list[Card] = []
        found: dict[str, int] = {}
        for trick in self.tricks(game_id, round_number):
            if trick.trick in skipped:
                continue
            cards = _legal([*cards, *_cards_of([trick])])
            for cid, card in every.items():
                if cid not in found and find_duplicate([*cards, card]) is not None:
                    found[cid] = trick.trick + 1
        return found

    def _round_cards(self, game: Game, round_number: int) -> list[Card]:
        """The cards the round's recorded tricks hold, as the deck could hold them."""
        return _legal(_cards_of(self.tricks(game.id, round_number)))

    def _check_deck(self, game: Game, round_number: int, plays: list[dict[str, Any]]) -> None:
        """Refuse a card the round has already used up (the score would stop at it)."""
        before = self._round_cards(game, round_number)
        for k, play in enumerate(plays):
            card = parse_card(str(play["card"]))
            earlier = [parse_card(str(p["card"])) for p in plays[:k]]
            if find_duplicate([*before, *earlier, card]) is None:
                continue
            player = game.players[int(play["player"])]
            twin = next((p for p in plays[:k] if p["card"] == play["card"]), None)
            if (
                twin is not None
                and deck_holds(card) == 1
                and find_duplicate([*before, card]) is None
            ):
                # Chosen twice in this trick, not played before it: name both players.
                first = game.players[int(twin["player"])]
                raise refusal("hand_card_twice", card=CardId(card), first=first, player=player)
            held = deck_holds(card)
            if held > 1:
                raise refusal(
                    "hand_cards_used",
                    card=CardId(card),
                    copies=held,
                    player=player,
                    round=round_number,
                )
            raise refusal("hand_card_used", card=CardId(card), player=player, round=round_number)
