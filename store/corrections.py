"""Corrections of a recorded trick: a misread card or seat, a missed card added, a Tigress
re-declared, a flagged trick confirmed. Each is audited, and the camera's ``original_plays``
are never touched.

A correction is planned (checked, read-only) and then applied, both inside one write
transaction: what the plan read is then exactly what it replaces, so two pages correcting one
trick at once both land, one after the other, instead of the later undoing the earlier.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from skullcam.errors import UserError, echo, whole_number
from skullcam.rules import InvalidCardError, RulesError, parse_card, unresolved_reason
from skullcam.rules.explain import CardId
from skullcam.rules.table import is_tigress_doubt

from . import checks, lead_doubt, verdicts
from .abilities import (
    ABILITY_KIND,
    ask_for_choice,
    dismiss_questions_not_won,
    drop_abilities_not_won,
    restore_dropped_choice,
)
from .audit import write_audit
from .events import emit
from .prompts import close_prompt, insert_prompt, open_questions
from .refusals import refusal
from .rosie_lead import follow_rosies_lead
from .round_so_far import is_rounds_last_trick
from .rows import Game, Trick, dump_json
from .tricks import TricksMixin


@dataclass(frozen=True)
class CorrectionPlan:
    """A checked change to one play of a trick, ready to write."""

    game_id: int
    round: int
    trick: int
    trick_id: int
    play: int
    plays: list[dict[str, Any]]
    #: The trick resolved with the corrected plays, and its winning card before.
    resolution: dict[str, Any]
    winning_before: Any
    #: The player who won the trick before (None: nobody, e.g. a card was missing).
    winner_before: int | None
    #: ``(kind, before, after)`` per change: 'card', 'tigress', 'player' or 'add'.
    changes: list[tuple[str, Any, Any]]


def _check_play_index(play_index: Any, last: int) -> None:
    if isinstance(play_index, bool) or not isinstance(play_index, int):
        raise UserError(f"play must be a number 0..{last}, got {echo(play_index)}")
    if not 0 <= play_index <= last:
        raise UserError(f"play must be 0..{last}, got {echo(play_index)}")


def _check_expected(game: Game, old: Trick, play_index: int, expect: Any) -> None:
    """Refuse a correction made from a page that no longer shows the trick as it is.

    Corrections name a play by its place in the trick, and a player correction moves cards
    between places: a second phone still showing the old order would otherwise overwrite a
    card it never saw (and that card would be gone from the trick). ``expect`` is what the
    page showed at that place, ``{"card": id, "player": p}`` (either may be left out)."""
    if expect is None:
        return
    shape = isinstance(expect, Mapping) and expect and not set(expect) - {"card", "player"}
    if not shape or expect.get("card", "") is None or expect.get("player", 0) is None:
        # An empty ``{}`` would check nothing, and a null names nothing to compare.
        raise UserError(
            f'expect must be {{"card": id, "player": p}} (what the page showed), not {echo(expect)}'
        )
    now = old.plays[play_index]
    card, player = expect.get("card", now["card"]), expect.get("player", now["player"])
    player = whole_number(player, "expect's player")  # as the correction itself reads it
    if str(card).lower() == str(now["card"]) and player == now["player"]:
        return
    names = game.players
    seat = isinstance(player, int) and not isinstance(player, bool) and 0 <= player < len(names)
    was_player = names[player] if seat else echo(player)
    raise refusal(
        "play_changed",
        round=old.round,
        trick=old.trick + 1,
        play=play_index + 1,
        player=names[now["player"]],
        card=_card_arg(now["card"]),
        was_player=was_player,
        was_card=_card_arg(card),
    )


def _card_arg(card: Any) -> Any:
    """A card as a refusal names it: by its name where it is a card, else as sent."""
    try:
        return CardId(parse_card(str(card)))
    except InvalidCardError:
        return echo(card)


def _playable(card: Any) -> str:
    """The card id a correction may put in a trick (a Tigress only as declared)."""
    new_card = checks.parse_card_id(card)
    if new_card == "tigress":
        # An undeclared Tigress cannot be judged: the score would stop at this trick.
        raise refusal("tigress_undeclared")
    return new_card


def _change_card(
    plays: list[dict[str, Any]], play_index: int, card: str, camera: Sequence[Mapping[str, Any]]
) -> list[tuple[str, Any, Any]]:
    """Put ``card`` in the play (in place); the change made, if any. A card corrected back
    to what the camera read gets the camera's confidence back."""
    new_card = _playable(card)
    was = str(plays[play_index]["card"])
    if new_card == was:
        return []
    plays[play_index]["card"] = new_card
    seen = plays[play_index].get("seen", play_index)
    read = camera[seen] if isinstance(seen, int) and seen < len(camera) else None
    plays[play_index]["confidence"] = (
        read.get("confidence") if read is not None and read["card"] == new_card else None
    )
    both_tigress = new_card.startswith("tigress") and was.startswith("tigress")
    return [("tigress" if both_tigress else "card", was, new_card)]


def _mark_seen(plays: list[dict[str, Any]]) -> None:
    """Number each play by the camera's play it shows (its place before anything moved), so
    the replay page can still put each card's box with it once cards change places."""
    for i, play in enumerate(plays):
        play.setdefault("seen", i)


def _change_player(
    plays: list[dict[str, Any]], play_index: int, player: int, n: int
) -> list[tuple[str, Any, Any]]:
    """Give the play's card to ``player`` (in place); the change made, if any.

    The order of play stays clockwise from the trick's leader: a seat misjudged means two
    players' cards were swapped, not that the table played out of turn. So the card (with
    what the camera saw of it) moves to ``player``'s place in the order, and ``player``'s
    card comes to this one. In a short trick, a player with no card yet just takes it.
    """
    checks.check_player(player, n)
    current = plays[play_index]["player"]
    if player == current:
        return []
    _mark_seen(plays)
    other = next((i for i, p in enumerate(plays) if p["player"] == player), None)
    if other is None:
        plays[play_index]["player"] = player
    else:
        mine, theirs = plays[play_index], plays[other]
        plays[play_index] = {**theirs, "player": current}
        plays[other] = {**mine, "player": player}
    return [("player", current, player)]


def _seat_swap(
    plays: list[dict[str, Any]], play_index: int, before: int, after: int
) -> dict[str, Any]:
    """What a player change moved, for its audit entry: the card given to ``after`` and, when
    the change swapped seats (see :func:`_change_player`), the card ``before`` got back. The
    entry named only the two players, so a dispute could not tell which cards changed hands."""
    moved = next(p["card"] for p in plays if p["player"] == after)
    there = plays[play_index]
    swapped = {"swapped_card": there["card"]} if there["player"] == before else {}
    return {"card": moved, **swapped}


class CorrectionsMixin(TricksMixin):
    """Changing a recorded trick after the fact (the replay page, and answered prompts)."""

    def correct_play(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        play_index: int,
        *,
        card: str | None = None,
        player: int | None = None,
        note: str = "",
        by_hand: bool = True,
        flag: str = "",
        expect: Any = None,
    ) -> Trick:
        """Change one play's card and/or player; re-resolves the trick, keeps the original.

        ``by_hand``: a person changed it (see :meth:`_apply_correction`); the camera, seeing
        a card swapped before the pickup, leaves the trick's other doubts open. ``flag``: a
        doubt the change raises (the camera's "X's A was swapped for B"): it joins the trick's
        flags and the phones ask "confirm or correct?", in the same transaction.

        A player change swaps seats with whichever play had that player, so the trick still
        has one card per player. Unknown cards and players raise UserError. The trick is
        read and changed in one write transaction, so two pages correcting the same trick at
        once both land (one after the other) instead of the later undoing the earlier.
        ``expect``: what the asking page showed at ``play_index`` (see :func:`_check_expected`);
        a page that is out of date is refused, not applied to another card.
        """
        plan = partial(
            self._plan_correction,
            game_id,
            round_number,
            trick_index,
            play_index,
            card=card,
            player=player,
            expect=expect,
            by_hand=by_hand,
        )
        return self._correct(game_id, round_number, trick_index, plan, note, by_hand, flag)

    def _correct(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plan: Callable[[], CorrectionPlan | None],
        note: str,
        by_hand: bool = True,
        flag: str = "",
        then: Callable[[sqlite3.Connection, Trick], None] | None = None,
    ) -> Trick:
        """Plan and apply a correction in one write transaction (see the module's docstring);
        returns the trick as it is now. ``then`` is told the trick, in the same transaction,
        whether or not it changed (a Tigress declared as she was still answers her question)."""
        note = checks.check_note(note)
        with self._write() as conn, self.settling_rounds(conn, game_id):
            planned = plan()
            if planned is not None:
                # ``flag`` is the camera's word for a swap it saw: its own change, which a
                # camera following the game has already made (``table_changes_since``).
                self._apply_correction(conn, planned, note, by_hand, camera=bool(flag))
                if flag:
                    raise_flag(conn, self.trick(game_id, round_number, trick_index), flag)
            if then is not None:
                then(conn, self.trick(game_id, round_number, trick_index))
        return self.trick(game_id, round_number, trick_index)

    def _plan_correction(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        play_index: int,
        *,
        card: str | None = None,
        player: int | None = None,
        expect: Any = None,
        by_hand: bool = True,
    ) -> CorrectionPlan | None:
        """Validate a correction (reads only); None when it changes nothing. A person's new
        card must be one the page's menus offer (``checks.refuse_off_the_menu``): the API took
        an unnamed pirate, or Loot with its setting off, that hand entry refuses.

        Call it inside :meth:`_write`: what it reads must be what the correction replaces.
        """
        game = self.game(game_id)
        old = self.trick(game_id, round_number, trick_index)
        n = len(game.players)
        _check_play_index(play_index, len(old.plays) - 1)
        _check_expected(game, old, play_index, expect)
        plays = [dict(p) for p in old.plays]
        changes: list[tuple[str, Any, Any]] = []
        if card is not None:
            changes += _change_card(plays, play_index, card, old.original_plays)
        if player is not None:
            changes += _change_player(plays, play_index, player, n)
        if not changes:
            return None
        if by_hand and any(kind == "card" for kind, _, _ in changes):
            checks.refuse_off_the_menu(game.settings, game.players, [plays[play_index]])
        return self._plan(game, old, play_index, plays, changes)

    def _plan(
        self,
        game: Game,
        old: Trick,
        play_index: int,
        plays: list[dict[str, Any]],
        changes: list[tuple[str, Any, Any]],
    ) -> CorrectionPlan:
        """The plan that replaces ``old``'s plays with ``plays`` (checked here)."""
        n = len(game.players)
        clean = checks.check_plays(plays, n, partial=len(plays) < n, keep_seen=True)
        before = verdicts.resolve(old.plays, game.settings, game.players)
        return CorrectionPlan(
            game_id=game.id,
            round=old.round,
            trick=old.trick,
            trick_id=old.id,
            play=play_index,
            plays=clean,
            resolution=verdicts.resolve(clean, game.settings, game.players),
            winning_before=before.get("winning_card"),
            winner_before=verdicts.winner_player(old.plays, before),
            changes=changes,
        )

    def add_play(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        player: Any,
        card: Any,
        note: str = "",
    ) -> Trick:
        """Enter the card the camera missed in a short trick: ``player``'s ``card``, put in
        its place in the order (clockwise from the trick's leader), one the page's menus
        offer. Audited as 'add'; once every player has a card the trick is resolved and the
        game scores again."""
        plan = partial(self._plan_addition, game_id, round_number, trick_index, player, card)
        return self._correct(game_id, round_number, trick_index, plan, note)

    def _plan_addition(
        self, game_id: int, round_number: int, trick_index: int, player: Any, card: Any
    ) -> CorrectionPlan:
        game = self.game(game_id)
        old = self.trick(game_id, round_number, trick_index)
        n = len(game.players)
        where = {"round": round_number, "trick": trick_index + 1}
        if len(old.plays) >= n:
            raise refusal("trick_complete", **where)
        checks.check_player(player, n)
        if any(p["player"] == player for p in old.plays):
            have = {p["player"] for p in old.plays}
            names = [name for i, name in enumerate(game.players) if i not in have]
            raise refusal(
                "player_has_card",
                player=game.players[player],
                missing=" or ".join(f"{name}'s" for name in names),
                names=" / ".join(names),  # the translations' "the card of Ana / Ben"
                **where,
            )
        new_card = _playable(card)
        added = {"player": player, "card": new_card, "confidence": None, "seen": None}
        checks.refuse_off_the_menu(game.settings, game.players, [added])
        plays = [dict(p) for p in old.plays]
        _mark_seen(plays)
        plays.append(added)
        leader = self._leader_with(game, old, player)
        plays.sort(key=lambda p: (p["player"] - leader) % n)
        index = next(i for i, p in enumerate(plays) if p["player"] == player)
        return self._plan(
            game, old, index, plays, [("add", None, {"player": player, "card": new_card})]
        )

    def _leader_with(self, game: Game, trick: Trick, added: int) -> int:
        """Who led ``trick``, now that ``added``'s card is in it: the rules' leader (the last
        trick's winner, Rosie's choice, the dealer's neighbour) when that is the added player
        or the first card the camera saw; otherwise the table played it as the camera saw
        it, led by that first card. Where the rules' leader is not known (the trick before
        has no winner or is not recorded, Rosie's choice is not made), that first card led
        unless the added player sits just before it: the missed card may then have been the
        lead as well as the last, and it is refused, naming what to settle first. After a
        gap the winner of the trick before the gap was taken for the leader, and a card
        missed in the middle of the trick could go first."""
        n = len(game.players)
        first_seen = int(trick.plays[0]["player"])
        round_tricks = self.tricks(game.id, trick.round)
        by_rules = lead_doubt.rules_leader(
            self._conn(), game, trick.round, round_tricks, trick.trick
        )
        if by_rules is not None:
            return by_rules if by_rules in (added, first_seen) else first_seen
        if (added + 1) % n != first_seen:
            return first_seen
        where = {"round": trick.round, "trick": trick.trick + 1}
        if lead_doubt.free_before(round_tricks, trick.trick):
            raise refusal("leader_after_gap", free=trick.trick, **where)
        raise refusal("leader_unknown", **where)

    def _apply_correction(
        self,
        conn: sqlite3.Connection,
        plan: CorrectionPlan,
        note: str,
        by_hand: bool = True,
        camera: bool = False,
    ) -> None:
        """Write a planned correction. ``by_hand``: a player changed the trick on its page, so
        the phones' "confirm or correct?" about it is settled; a Tigress question answered
        on a phone (not by hand) leaves the trick's other doubts open. ``camera``: the camera
        made it (a swap it saw), said in the event (``"camera": true``)."""
        conn.execute(
            "UPDATE tricks SET plays = ?, resolution = ? WHERE id = ?",
            (dump_json(plan.plays), dump_json(plan.resolution), plan.trick_id),
        )
        for kind, before, after in plan.changes:
            before_json = {"play": plan.play, "value": before}
            after_json = {"play": plan.play, "value": after}
            if kind == "player":
                after_json.update(_seat_swap(plan.plays, plan.play, before, after))
            write_audit(conn, plan.game_id, plan.trick_id, kind, before_json, after_json, note)
        dropped = self._reconcile_abilities(conn, plan)
        # Who led this trick, or whether Rosie won it, may have changed: her choice follows.
        follow_rosies_lead(conn, self.game(plan.game_id), plan.round, plan.trick)
        n = len(self.game(plan.game_id).players)
        if any(kind == "add" for kind, _, _ in plan.changes) and len(plan.plays) == n:
            # The table just went through this trick card by card to complete it: what the
            # camera flagged (the short trick above all) is settled; a trick no deck could
            # produce is flagged again below.
            trick = self.trick(plan.game_id, plan.round, plan.trick)
            if trick.flags:
                confirm_as_recorded(conn, trick, "completed by hand", n)
        if not any(str(p["card"]).startswith("tigress") for p in plan.plays):
            # The card asked about was no Tigress after all: the question has no answer left.
            for prompt in open_questions(conn, plan.game_id, plan.round, plan.trick, "tigress"):
                close_prompt(conn, prompt, "dismissed", None)
        # The phones asked "confirm or correct?" about this trick: it has been corrected. (Its
        # flags stay on the trick until the table confirms the rest of it.)
        if by_hand:
            for prompt in open_questions(conn, plan.game_id, plan.round, plan.trick, "flagged"):
                close_prompt(conn, prompt, "answered", "correct")
        if len(plan.plays) == n:  # a short trick's doubt (a card missing) stands as it is
            trick = self.trick(plan.game_id, plan.round, plan.trick)
            game = self.game(plan.game_id)
            found = verdicts.verdict(plan.plays, game.settings, game.players)
            cards = [p["card"] for p in plan.plays]
            why = unresolved_reason(found, cards) if isinstance(found, RulesError) else None
            _flag_unresolved(conn, trick, why)
        payload: dict[str, Any] = {
            "round": plan.round,
            "trick": plan.trick,
            "trick_id": plan.trick_id,
            "play": plan.play,
            "changes": [{"kind": k, "before": b, "after": a} for k, b, a in plan.changes],
        }
        if dropped:
            payload["abilities_dropped"] = dropped
        if camera:
            payload["camera"] = True
        emit(conn, plan.game_id, "correction", payload)

    def _reconcile_abilities(
        self, conn: sqlite3.Connection, plan: CorrectionPlan
    ) -> list[dict[str, Any]]:
        """Make a corrected trick's pirate abilities follow its new winner; returns those dropped.

        A choice recorded for a pirate that no longer wins the trick (Rosie's next leader, say)
        would make the whole game unscoreable, with no way left to remove it; so it is dropped
        (kept in the audit trail), an open question about it is closed, and when the
        correction made a pirate with an ability the winner (setting on), the table is asked.
        Runs whatever the setting, since abilities stay stored while it is off.
        """
        game = self.game(plan.game_id)
        r, t = plan.round, plan.trick
        winning = plan.resolution.get("winning_card")
        winner = verdicts.winner_player(plan.plays, plan.resolution)
        # The same pirate won by another player (a seat corrected): the choice was the other
        # player's to make, and may not even fit this one's bid (Harry), so it is asked again.
        moved = winner != plan.winner_before
        keep = None if moved else winning
        dropped = drop_abilities_not_won(
            conn, game.id, r, t, plan.trick_id, keep, plan.winner_before
        )
        dismiss_questions_not_won(conn, game.id, r, t, keep)
        kind = ABILITY_KIND.get(str(winning))
        if kind == "rosie" and is_rounds_last_trick(game, r, t):
            kind = None  # no choice: the next round is led by the dealer's neighbour
        on = bool(checks.full_settings(game.settings)["pirate_abilities"])
        # A question declined is not re-asked while the same player's pirate wins.
        changed = winning != plan.winning_before or moved
        # A choice a correction dropped comes back when the next one undoes it; else asked.
        if (
            kind is not None
            and on
            and changed
            and not restore_dropped_choice(conn, game, r, t, plan.trick_id, kind, winner)
        ):
            ask_for_choice(conn, game.id, r, t, kind, winner)
        return dropped

    def _plan_tigress(
        self, game_id: int, round_number: int, trick_index: int, as_: Any
    ) -> CorrectionPlan | None:
        """The correction that re-declares the trick's Tigress (a card change, audited as
        'tigress')."""
        if as_ is None:
            raise UserError("say how the Tigress was played: 'pirate' or 'escape'")
        if as_ not in ("pirate", "escape"):
            raise UserError(f"the Tigress is played as 'pirate' or 'escape', not {echo(as_)}")
        old = self.trick(game_id, round_number, trick_index)
        for i, play in enumerate(old.plays):
            if str(play["card"]).startswith("tigress"):
                return self._plan_correction(
                    game_id, round_number, trick_index, i, card=f"tigress:{as_}"
                )
        raise refusal("no_tigress", round=round_number, trick=trick_index + 1)

    def redeclare_tigress(
        self, game_id: int, round_number: int, trick_index: int, as_: str, note: str = ""
    ) -> Trick:
        """Re-declare the trick's Tigress as ``'pirate'`` or ``'escape'`` (audited). The
        table has answered the phones' question about her with it (:func:`settle_tigress`)."""
        plan = partial(self._plan_tigress, game_id, round_number, trick_index, as_)
        settle = partial(_settle_tigress_as, as_)
        return self._correct(game_id, round_number, trick_index, plan, note, then=settle)

    def confirm_trick(
        self, game_id: int, round_number: int, trick_index: int, note: str = ""
    ) -> None:
        """The table confirms a flagged trick as recorded: clears its flags (audited)."""
        note = checks.check_note(note)
        with self._write() as conn:
            trick = self.trick(game_id, round_number, trick_index)
            n = len(self.game(game_id).players)
            check_confirmable(trick, n)
            confirm_as_recorded(conn, trick, note, n)


def _settle_tigress_as(as_: str, conn: sqlite3.Connection, trick: Trick) -> None:
    """:func:`settle_tigress` with the declaration first, for :meth:`_correct`'s ``then``."""
    settle_tigress(conn, trick, as_)


def settle_tigress(
    conn: sqlite3.Connection, trick: Trick, as_: str, answering: int | None = None
) -> None:
    """The table said how the trick's Tigress was played: its open questions about her close
    as answered (but ``answering``, the one being answered), and the camera's doubt about her
    ("Tigress laid at 47 degrees: pirate or escape?") leaves the trick's flags. Kept, the
    trick's page asked "pirate or escape?" after the answer, and a Tigress declared on that
    page left the phones asking. The doubt goes whether or not an open question names it in
    its payload: her question may have been dismissed, or asked before questions named their
    doubt (payload ``{}``). The trick's other doubts stay."""
    for prompt in open_questions(conn, trick.game_id, trick.round, trick.trick, "tigress"):
        if prompt.id != answering:
            close_prompt(conn, prompt, "answered", as_)
    flags = [f for f in trick.flags if not is_tigress_doubt(f)]
    if flags != trick.flags:
        conn.execute("UPDATE tricks SET flags = ? WHERE id = ?", (dump_json(flags), trick.id))


def _flag_unresolved(conn: sqlite3.Connection, trick: Trick, error: str | None) -> None:
    """A corrected trick no deck could produce (a card twice in it) keeps a doubt naming why,
    as the camera flags one, so its page shows it and the phones ask until it is corrected
    again; such doubts about the cards before (it resolves now, or fails for another reason)
    go."""
    now = None if error is None else _UNRESOLVED + error
    stale = [f for f in trick.flags if f.startswith(_UNRESOLVED) and f != now]
    if stale:
        flags = [f for f in trick.flags if f not in stale]
        conn.execute("UPDATE tricks SET flags = ? WHERE id = ?", (dump_json(flags), trick.id))
        trick = dataclasses.replace(trick, flags=flags)
    if now is not None and now not in trick.flags:
        raise_flag(conn, trick, now)


#: How a flag says why a trick could not be resolved (the camera's referee words it so too).
_UNRESOLVED = "cannot resolve: "


def raise_flag(conn: sqlite3.Connection, trick: Trick, flag: str) -> None:
    """Add a doubt to a recorded trick, and ask the phones "confirm or correct?" about it
    unless they are asked already (the question names the trick, not each doubt)."""
    flags = [*trick.flags, checks.check_note(flag)]
    conn.execute("UPDATE tricks SET flags = ? WHERE id = ?", (dump_json(flags), trick.id))
    if not open_questions(conn, trick.game_id, trick.round, trick.trick, "flagged"):
        insert_prompt(
            conn, trick.game_id, "flagged", trick.round, trick.trick, None, {"flags": flags}
        )


def check_confirmable(trick: Trick, n: int) -> None:
    """Refuse the table's "confirm as recorded" where it cannot settle the doubt: a card
    missing (confirming cannot add it), or a full trick that cannot be resolved (a card twice
    in it): confirming that cleared its ⚠ while the score stayed stopped on it. Not in
    :func:`confirm_as_recorded`: adding a short trick's missing card confirms that trick's own
    "cannot resolve" doubt there."""
    if len(trick.plays) < n:
        raise refusal(
            "confirm_short_trick",
            round=trick.round,
            trick=trick.trick + 1,
            cards=len(trick.plays),
            players=n,
        )
    if any(f.startswith(_UNRESOLVED) for f in trick.flags):
        raise refusal("confirm_unresolved", round=trick.round, trick=trick.trick + 1)


def confirm_as_recorded(
    conn: sqlite3.Connection, trick: Trick, note: str, n: int, answering: int | None = None
) -> None:
    """Clear a flagged trick's flags: the table says the camera read it right, so the
    questions about it on the phones close too (but ``answering``, the one being answered).
    The table's own Confirm is checked first (:func:`check_confirmable`); adding a short
    trick's last card confirms it here without that check."""
    asked = open_questions(conn, trick.game_id, trick.round, trick.trick, "flagged")
    others = [prompt for prompt in asked if prompt.id != answering]
    if not trick.flags and not others:
        return  # nothing left in doubt (Confirm tapped twice): no second entry in its history
    conn.execute("UPDATE tricks SET flags = '[]' WHERE id = ?", (trick.id,))
    for prompt in others:
        close_prompt(conn, prompt, "answered", "confirm")
    write_audit(conn, trick.game_id, trick.id, "confirm", trick.flags, [], note)
    confirmed = {
        "round": trick.round,
        "trick": trick.trick,
        "trick_id": trick.id,
        "confirmed": True,
    }
    emit(conn, trick.game_id, "correction", confirmed)
