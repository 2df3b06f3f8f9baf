"""Everything a page needs, in one read: where the game stands now.

Pages ask for this after every event (the recorder, at each card laid, only for the place
the live trick is published at: :meth:`StateMixin.round_in_play`), so it is derived from the
rows each time rather than kept, like the score: a correction or a settings change is then
reflected everywhere at once.
"""

from __future__ import annotations

from typing import Any

from skullcam.errors import UserError

from . import checks, verdicts
from .abilities import AbilitiesMixin
from .events import EventsMixin
from .prompts import PromptsMixin, result_waits
from .round_so_far import first_free, place_in_play, round_so_far
from .rows import Game, Trick
from .scores import ScoresMixin


class StateMixin(ScoresMixin, PromptsMixin, AbilitiesMixin, EventsMixin):
    """The one read behind the TV and the phones, and the place the recorder publishes the
    live trick at."""

    def tv_game(self) -> Game | None:
        """The game the TV shows: the table's game (its final scores once it is over). Not
        the demo's while nothing plays it: 'skullcam run --camera none' after a demo was
        stopped mid-game put the demo's board on the TV, not last night's game; the last
        table game that is not the demo's then (the demo's, when the table has none)."""
        shown = self.table_game()
        if shown is None or not self.camera_missing() or not self.made_by_demo(shown):
            return shown
        return self.last_table_game() or shown

    def last_table_game(self) -> Game | None:
        """The newest game that took the table (set up or reopened there; not a record
        imported as finished) and is not the demo's; a damaged game is passed over."""
        for game in self.table_games():
            try:
                if not self.is_demo_game(game.id):
                    return game
            except UserError:  # a damaged game: not offered
                continue
        return None

    def made_by_demo(self, game: Game) -> bool:
        """Whether the demo made ``game``; a damaged game is not said to be (its page says
        why)."""
        try:
            return self.is_demo_game(game.id)
        except UserError:
            return False

    def round_in_play(self, game_id: int) -> tuple[int, int]:
        """The round being played and the next trick in it: :meth:`state`'s ``round`` and
        ``next_trick`` (:func:`place_in_play`), read on their own. The camera publishes the
        live trick there at every card laid, where the whole state (scores, prompts, bids)
        took it about 20 ms a card on a desktop, several times that on a Pi, for two numbers."""
        return place_in_play(self.game(game_id), self.tricks(game_id), self.rounds_due(game_id))

    def state(self, game_id: int) -> dict[str, Any]:
        """Everything a page needs in one read: the game, the round being played (bids,
        tricks, dealer, leader), the place the hand-entry form fills, the live trick, open
        prompts, scores, whether a camera is missing (nothing is recorded) or sees badly,
        whether the demo made the game, and the last event id."""
        last_event = self.last_event_id()
        game = self.game(game_id)
        n = len(game.players)
        settings = checks.full_settings(game.settings)
        total = self.rounds_due(game_id)  # with a tie-break round when one is due
        by_round: dict[int, list[Trick]] = {}
        recorded = self.tricks(game_id)
        for t in recorded:
            by_round.setdefault(t.round, []).append(t)
        # The round being played is where the table and the camera are: after the last
        # recorded trick, however many places before it are free. The hand-entry form fills
        # the game's first free place (``hand_place``): a trick taken back leaves a gap there,
        # in this round or an earlier one, which the camera will not fill.
        current, after_last = place_in_play(game, recorded, total)
        cards = checks.cards_dealt(current, n, game.settings)
        dealer = (game.first_dealer + current - 1) % n
        round_tricks = by_round.get(current, [])
        abilities = self.abilities(game_id, current)
        so_far = round_so_far(
            game, dealer, round_tricks, abilities, bool(settings["pirate_abilities"])
        )
        # Led by the winner of the round's last recorded trick (``so_far``), gap or none.
        finished = game.status == "finished" or after_last >= cards
        hand_place = None if game.status == "finished" else first_free(game, by_round, total)
        score = self.score(game_id)
        score.pop("record", None)
        demo = self.is_demo_game(game_id, recorded)
        # No camera was ever to record the demo's game: 'skullcam run --camera none' over a
        # demo left unfinished had the TV say its tricks should be entered by hand.
        camera_missing_why = None if demo else self.camera_missing_why()
        prompts = self.prompts(game_id)
        return {
            "game": game.to_json(),
            "settings": settings,
            "round": current,
            "rounds": total,
            "cards": cards,
            "dealer": dealer,
            "leader": None if finished else so_far.leader,
            "next_trick": after_last,
            "hand_round": None if hand_place is None else hand_place[0],
            "hand_trick": None if hand_place is None else hand_place[1],
            "bids": self.bids(game_id, current),
            "cannonball": self.cannonball(game_id, current),
            "tricks": so_far.tricks,
            "tricks_won": so_far.won,
            "last_trick": last_trick(game, recorded, current),
            "live": self.live(game_id),
            "prompts": [p.to_json() for p in prompts],
            "score": score,
            "finished": game.status == "finished",
            # A question whose answer changes the score is open: the pages name no winner yet.
            "result_waits": result_waits(prompts),
            # Another game has taken the table since (set up after it, or reopened): the
            # pages say so and link to it; None while this is the table's game.
            "replaced_by": self.replaced_by(game_id),
            "camera_missing": camera_missing_why is not None,
            "camera_missing_why": camera_missing_why,
            # A working camera that sees badly (frozen, blurred): the TV says so. Nothing while
            # none records: a notice left by a camera that has gone since is stale.
            "camera_notice": None if camera_missing_why else self.camera_notice(),
            # The demo's game (skullcam run with no camera): the pages say it is one.
            "demo": demo,
            "last_event_id": last_event,
        }


def last_trick(game: Game, recorded: list[Trick], current: int) -> dict[str, Any] | None:
    """The newest trick recorded up to the current round, with its round, plays and winner
    (None before any): the TV shows it while nothing is on the table. At a round's start it
    is the last round's last trick, so the room can still see how that round ended rather
    than an empty table."""
    trick = next((t for t in reversed(recorded) if t.round <= current), None)
    if trick is None:
        return None
    resolution = verdicts.resolve(trick.plays, game.settings, game.players)
    return {
        "round": trick.round,
        "trick": trick.trick,
        "plays": trick.plays,
        "winner": verdicts.winner_player(trick.plays, resolution),
    }
