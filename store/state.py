"""Everything a page needs, in one read: where the game stands now.

Pages (and the recorder, which must expect the right leader) ask for this after every event,
so it is derived from the rows each time rather than kept, like the score: a correction or a
settings change is then reflected everywhere at once.
"""

from __future__ import annotations

from typing import Any

from . import checks, verdicts
from .abilities import AbilitiesMixin
from .events import EventsMixin
from .prompts import PromptsMixin
from .round_so_far import current_round, first_free_place, round_so_far
from .rows import Game, Trick
from .scores import ScoresMixin


class StateMixin(ScoresMixin, PromptsMixin, AbilitiesMixin, EventsMixin):
    """The one read behind the TV, the phones and the recorder's next trick."""

    def state(self, game_id: int) -> dict[str, Any]:
        """Everything a page needs in one read: the game, the current round (bids, tricks,
        dealer, leader), the live trick, open prompts, scores, whether a camera is missing
        (nothing is recorded) or sees badly, whether the demo made the game, and the last
        event id."""
        last_event = self.last_event_id()
        game = self.game(game_id)
        n = len(game.players)
        settings = checks.full_settings(game.settings)
        total = self.rounds_due(game_id)  # with a tie-break round when one is due
        by_round: dict[int, list[Trick]] = {}
        recorded = self.tricks(game_id)
        for t in recorded:
            by_round.setdefault(t.round, []).append(t)
        current = current_round(game, by_round, total)
        cards = checks.cards_dealt(current, n, game.settings)
        dealer = (game.first_dealer + current - 1) % n
        round_tricks = by_round.get(current, [])
        abilities = self.abilities(game_id, current)
        so_far = round_so_far(
            game, dealer, round_tricks, abilities, bool(settings["pirate_abilities"])
        )
        # The trick the table plays next follows the round's last recorded one, led by its
        # winner (``so_far``), even where a trick taken back to be entered again by hand has
        # left a gap before it; the hand-entry form fills the first gap (``hand_trick``).
        after_last = round_tricks[-1].trick + 1 if round_tricks else 0
        finished = game.status == "finished" or after_last >= cards
        hand_trick = first_free_place(round_tricks, cards)
        score = self.score(game_id)
        score.pop("record", None)
        camera_missing_why = self.camera_missing_why()
        return {
            "game": game.to_json(),
            "settings": settings,
            "round": current,
            "rounds": total,
            "cards": cards,
            "dealer": dealer,
            "leader": None if finished else so_far.leader,
            "next_trick": after_last,
            "hand_trick": None if game.status == "finished" else hand_trick,
            "bids": self.bids(game_id, current),
            "cannonball": self.cannonball(game_id, current),
            "tricks": so_far.tricks,
            "tricks_won": so_far.won,
            "last_trick": last_trick(game, recorded, current),
            "live": self.live(game_id),
            "prompts": [p.to_json() for p in self.prompts(game_id)],
            "score": score,
            "finished": game.status == "finished",
            # Another game has taken the table since (set up after it, or reopened): the
            # pages say so and link to it; None while this is the table's game.
            "replaced_by": self.replaced_by(game_id),
            "camera_missing": camera_missing_why is not None,
            "camera_missing_why": camera_missing_why,
            # A working camera that sees badly (frozen, blurred): the TV says so. Nothing while
            # none records: a notice left by a camera that has gone since is stale.
            "camera_notice": None if camera_missing_why else self.camera_notice(),
            # The demo's game (skullcam run with no camera): the pages say it is one.
            "demo": self.is_demo_game(game_id, recorded),
            "last_event_id": last_event,
        }


def last_trick(game: Game, recorded: list[Trick], current: int) -> dict[str, Any] | None:
    """The newest trick recorded up to the current round, with its round, plays and winner
    (None before any): the TV shows it while nothing is on the table. At a round's start it
    is the last round's last trick, so the room can still see how that round ended (the TV
    emptied as soon as the next round began: a review of screenshots)."""
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
