"""What the store says when it refuses a change a table makes on a page, as phrases.

A player who types two names alike, confirms a trick with a card missing or answers a question
another phone already closed reads why on the page in the table's language. Each refusal here
is a key and its values (``skullcam.errors.phrased``): ``str(err)`` is the English below, what
the command line and other programs read, and ``web/refusal_i18n.py`` words the same key in
Spanish, Italian and Danish. Refusals only a program can meet (a play number out of range)
stay plain English ``UserError``s (a malformed JSON body is the web's, worded in
``web/refusal_i18n.py``'s ``REQUEST_ENGLISH``); a new game's setup sent by hand is
refused in the reader's language (``players_not_list``, ... and, in ``web/refusal_i18n.py``,
a setting the rules refuse), as the setup form's own refusals are.
"""

from __future__ import annotations

from collections.abc import Sequence

from skullcam.errors import NUMBER_ENGLISH, NotFoundError, UserError, phrased
from skullcam.rules.explain import Arg, Phrase, render

ENGLISH: dict[str, str] = {
    # A new game's players.
    "player_count": "Skull King needs 2 to 8 players, got {count}",
    "name_control": "player {number}'s name {name} holds a control character; type it again",
    "name_missing": "every player needs a name",
    "name_too_long": "player names are at most {limit} characters",
    "name_twice": "player names must differ: {name!r} appears twice",
    "names_alike": "player names must differ: {first!r} and {second!r} are one name",
    # A new game's setup sent by hand (the setup form sends none of these): said in the
    # reader's language all the same, as the rest of the setup's refusals.
    "players_not_list": "players must be a list of 2 to 8 names in seating order",
    "name_not_text": "player {number}'s name must be text, got {value}",
    "first_dealer_range": "first dealer must be a player number 0..{last}, got {value}",
    "settings_not_object": "settings must be a JSON object",
    # A whole number a request sends (a first dealer, a bid, a trick's number): the same words
    # as the command line's.
    **NUMBER_ENGLISH,
    # A round the game does not have, and a whole round's bids or a trick's cards of the wrong
    # count (a page older than its server, or a program).
    "round_range": "round must be 1..{rounds}, got {value}",
    "bids_count": "round {round} needs {players} bids, got {count}",
    "plays_count": "a trick needs one card per player ({players}), got {count}",
    # Bids.
    "bid_not_whole": "round {round}: {player}'s bid must be a whole number 0..{dealt}, got {bid}",
    "bid_out_of_range": (
        "round {round}: {player}'s bid must be 0..{dealt} (cards dealt this round), got {bid}"
    ),
    "bid_cleared_after_play": (
        "round {round} has recorded tricks; change {player}'s bid instead of clearing it"
    ),
    "bids_cleared_after_play": (
        "round {round} has recorded tricks; change the bids of {players} instead of clearing them"
    ),
    "harry_out_of_range": (
        "{player} bid {bid} of {dealt} in round {round}, and Harry changes it by {change:+d} (trick"
        " {trick}): that makes {total}. Choose Harry's 0 or {undo:+d} on that trick's page, or"
        " another bid"
    ),
    "cannonball_scoring": (
        "a cannonball is called only under Rascal's scoring; this game scores {scoring}: change"
        " its scoring in the game's settings first"
    ),
    # Corrections of a recorded trick.
    "trick_complete": (
        "round {round} trick {trick} has a card for every player; correct a card instead"
    ),
    "player_has_card": (
        "{player} already has a card in round {round} trick {trick}; the missing card is {missing}"
    ),
    "leader_unknown": (
        "who led round {round} trick {trick} is not known yet: an earlier trick of the round has"
        " a card missing or Rosie's choice unanswered; settle that first, then add this card"
    ),
    "leader_after_gap": (
        "who led round {round} trick {trick} is not known while trick {free} is not recorded:"
        " its winner led this one, and this card may have been the lead. Enter trick {free} by"
        " hand first, then add this card"
    ),
    "tigress_undeclared": (
        "say how the Tigress was played: choose tigress:pirate or tigress:escape"
    ),
    "no_tigress": "round {round} trick {trick} has no Tigress; correct the card instead",
    "play_changed": (
        "round {round} trick {trick}: card {play} is now {player}'s {card}, not {was_player}'s"
        " {was_card} as this page showed: another page corrected the trick meanwhile. Reload the"
        " page and correct it again"
    ),
    "confirm_short_trick": (
        "round {round} trick {trick} has {cards} of {players} cards; add the missing card instead"
        " of confirming"
    ),
    "confirm_unresolved": (
        "round {round} trick {trick} cannot be resolved as it stands (its page says why):"
        " correct its cards instead of confirming"
    ),
    # A trick entered by hand.
    "hand_game_finished": (
        "game {game} is finished; resume it on its Settings page to enter a trick"
    ),
    "hand_demo_game": (
        "game {game} is the demo's recorded game; set up a new game to enter your own tricks"
    ),
    "hand_replaced_game": (
        "game {game} is no longer the table's game: game {newer} has taken the table since;"
        " tricks are entered and taken back only in the table's game"
    ),
    "hand_no_trick_left": "every trick of game {game} is recorded: there is no trick to enter",
    "hand_not_next": (
        "round {round} trick {trick} is not the next trick to enter: round {next_round} trick"
        " {next_trick} is (a camera or another page recorded one meanwhile). Reload the page"
    ),
    "hand_recorded_same": (
        "round {round} trick {trick} was recorded meanwhile (by another page or the camera) with"
        " these same cards: nothing more to enter here. Reload the page"
    ),
    "hand_recorded_other": (
        "round {round} trick {trick} was recorded meanwhile (by another page or the camera) with"
        " {player}'s {card}, where this page has {mine}: check that trick on its page and"
        " correct it there if this page is right, then reload this page"
    ),
    "hand_recorded_short": (
        "round {round} trick {trick} was recorded meanwhile by the camera without {player}'s"
        ' card: add {mine} there with "Add the missing card" on that trick\'s page, then'
        " reload this page"
    ),
    "insert_no_trick": (
        "round {round} has no trick {trick} recorded to enter a missed trick before; enter the"
        " round's next trick instead"
    ),
    "remove_camera_trick": (
        "round {round} trick {trick} was recorded by the camera, with its picture: correct its"
        " cards on its page instead; only a trick entered by hand can be removed"
    ),
    "move_back_none": (
        "round {round} trick {trick} cannot move back: the camera did not move it here from"
        " the round before, or that place holds a trick again (entered or moved since)"
    ),
    "remove_moved_since": (
        "round {round} trick {trick} cannot be removed: a trick its entry moved has moved again"
        " since (another trick entered or removed). Correct the tricks on their pages instead"
    ),
    "insert_before_free": (
        "round {round} has no trick {free} recorded: a trick missed before trick {trick} goes"
        " in its place, with nothing to move; enter it there as the round's next trick instead"
    ),
    "insert_no_room": (
        "there is no free place for a missed trick before round {round} trick {trick}: every"
        " later trick of the game is recorded. Correct the tricks' cards on their pages instead"
    ),
    "hand_leader_unknown": (
        "who leads round {round} trick {trick} is not known yet: trick {waits_on} of the round"
        " has no winner yet (a card missing, or one read twice); settle that on its page first"
    ),
    "hand_waits_rosie": (
        "Rosie won round {round} trick {waits_on}, so her player chooses who leads trick"
        " {trick}: answer Rosie's question first (who leads round {round} trick {trick}?),"
        " then enter this trick"
    ),
    "hand_rosie_unchosen": (
        "Rosie won round {round} trick {waits_on}, and her player's choice of who leads trick"
        " {trick} is not recorded (her question was dismissed): choose it on trick {waits_on}'s"
        " page first, then enter this trick"
    ),
    "hand_first_lead": (
        "round {round} trick 1 is led by {leader}, the player left of the dealer, {dealer}: enter"
        " its cards in play order, {leader}'s first"
    ),
    "hand_play_order": (
        "round {round} trick {trick} is led by {leader} and play goes clockwise: enter its"
        " cards in this order: {order}"
    ),
    "hand_order_changed": (
        "round {round} trick {trick} is led by {leader} now (a correction changed who won the"
        " trick before): reload the page and enter it again"
    ),
    "hand_pirate_unnamed": (
        "choose which pirate {player} played (Rosie, Bendt, Rascal, Juanita or Harry): the deck"
        " has no {card} without a name"
    ),
    "hand_mermaid_unnamed": (
        "choose which mermaid {player} played (Alyra or Sirena): the deck has no {card} without"
        " a name"
    ),
    "hand_card_off": (
        "{card} is not in this game's deck: the {setting} setting is off. Choose the card"
        " {player} really played, or turn the setting on in Settings first"
    ),
    "hand_card_twice": (
        "{card} is chosen for both {first} and {player} in this trick: choose each player's own"
        " card"
    ),
    "hand_card_used": (
        "{card} was already played in round {round}, and the deck holds no other: choose the"
        " card {player} really played"
    ),
    "hand_cards_used": (
        "all {copies} {card} cards of the deck were already played in round {round}: choose"
        " the card {player} really played"
    ),
    # Pirates' choices.
    "abilities_off": "pirate abilities are off in this game's settings; turn them on first",
    "choice_card_missing": (
        "round {round} trick {trick} has a card missing: add it first; then its winner is known"
    ),
    "no_choice": (
        "round {round} trick {trick} is not won by Rosie, Rascal or Harry: there is no choice"
    ),
    # A choice the pirate does not take: a replay page left open while a correction elsewhere
    # gave the trick to another pirate sends the old pirate's value (Rascal's 10 for Harry).
    "rascal_bet_value": "Rascal's bet is 0, 10 or 20, not {bet}",
    "harry_change_value": "Harry changes the bid by -1, 0 or +1, not {change}",
    "player_seat": "player must be a number 0..{last}, got {value}",
    "rosie_last_trick": (
        "Rosie won the last trick of round {round}: the next round is led by the dealer's"
        " neighbour, so there is no choice"
    ),
    "ability_not_won": (
        "round {round} trick {trick} is not won by {pirate} as recorded now, so its ability does"
        " not apply; dismiss this question (or correct the trick first)"
    ),
    # Questions on the phones.
    "prompt_closed_meanwhile": "prompt {prompt} was closed on another page meanwhile",
    "prompt_already_answered": "prompt {prompt} was already answered",
    "prompt_already_dismissed": "prompt {prompt} was already dismissed",
    "dismiss_closed_answered": (
        "prompt {prompt} was already answered; there is nothing to dismiss (to change what it"
        " did, correct the trick)"
    ),
    "dismiss_closed_dismissed": (
        "prompt {prompt} was already dismissed; there is nothing to dismiss (to change what it"
        " did, correct the trick)"
    ),
    # Settings.
    "setting_range": "invalid settings: setting {setting} must be {low}..{high}, got {value}",
    "rounds_below_played": (
        "this game already has tricks in round {played}; rounds cannot be set to {rounds}"
    ),
    # A game record imported on the history page (a file of another kind, chosen by mistake).
    "record_not_object": "a game record is a JSON object with format {expected!r}",
    "record_format": "not a skullcam game record (format {found}, expected {expected!r})",
    "record_no_format": "not a skullcam game record (it has no format, expected {expected!r})",
    # Addresses that name nothing.
    # Resuming a game finished by hand.
    "resume_not_finished": "game {game} is not finished: there is nothing to resume",
    "resume_played_out": (
        "every round of game {game} is played; to play more, raise its rounds in Settings"
    ),
    "resume_other_in_progress": (
        "game {playing} is being played at the table; finish it first, then resume game {game}"
    ),
    "read_only": (
        "nothing can be recorded in {folder}: {file} cannot be written (a read-only disk or"
        " folder). Its games can be viewed and exported; to record, make it writable or copy"
        " the data folder to a writable disk and pass that --data"
    ),
    "no_game": "no game {game}; see the games list",
    "no_trick": "game {game} has no recorded trick {trick} in round {round}",
    "no_prompt": "no prompt {prompt}; see the game's open prompts",
}


class ExportRefused(UserError):
    """A game's record cannot be exported yet (a bid missing before recorded play, a card the
    camera missed): ``phrases`` say why (``rules.explain``), so that a page words it in its
    reader's language, as the score's error is; ``str(err)`` stays the English."""

    def __init__(self, game_id: int, phrases: Sequence[Phrase]) -> None:
        super().__init__(f"cannot export game {game_id}: {render(phrases)}")
        self.game_id = game_id
        self.phrases = tuple(phrases)


def refusal(key: str, **args: Arg) -> UserError:
    """The store's refusal ``key`` (one of :data:`ENGLISH`) with its values."""
    return phrased(UserError, ENGLISH, key, **args)


def not_found(key: str, **args: Arg) -> NotFoundError:
    """Like :func:`refusal`, for a game, trick or prompt that does not exist (a 404 on the
    web)."""
    return phrased(NotFoundError, ENGLISH, key, **args)
