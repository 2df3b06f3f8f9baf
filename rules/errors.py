"""The rules engine's errors: every one a ``ValueError`` that names the bad input and where it is.

The CLI prints ``str(err)`` as its one line on stderr, so each message says what was wrong and,
where it helps, what to write instead.
"""

from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """Input the rules cannot accept: a bad card id, an illegal trick, a broken game record."""


class InvalidCardError(RulesError):
    """Text that is not a card id (``green-15``, ``joker``)."""


class IllegalPlayError(RulesError):
    """A play the table could not have made: a duplicate card, an undeclared Tigress, ...

    ``play`` is the play's index in the trick (0 led) when one play is at fault, and ``reason``
    the message without its "play N" prefix, so a game's scorer can say "round 3, trick 2,
    play 3 (Ana)" the way it counts everywhere else. ``phrase`` is the reason as a
    ``rules.explain.Phrase``, for a page to say it in the reader's language.
    """

    def __init__(
        self,
        message: str,
        play: int | None = None,
        reason: str | None = None,
        phrase: Any = None,
    ) -> None:
        super().__init__(message)
        self.play = play
        self.reason = reason if reason is not None else message
        self.phrase = phrase


class SettingError(RulesError):
    """A setting the rules cannot take: a key that is no setting, or a value out of its kind
    or range. ``setting`` is the key as the user wrote it and ``phrase`` (a
    ``rules.explain.Phrase``) which one and what is wrong, so a page importing a file can
    say it in the reader's language, naming the key as the file spells it."""

    def __init__(self, message: str, setting: str, phrase: Any) -> None:
        super().__init__(message)
        self.setting = setting
        self.phrase = phrase


class SettingRangeError(SettingError):
    """A whole-number setting outside its range, with the setting's key, its range and the
    value given: the store words the same refusal for a settings page in the reader's
    language."""

    def __init__(self, setting: str, low: int, high: int, value: int, phrase: Any) -> None:
        super().__init__(f"setting {setting!r} must be {low}..{high}, got {value}", setting, phrase)
        self.low, self.high, self.value = low, high, value


class GameRecordError(RulesError):
    """A ``skullcam-game/1`` record that breaks the rules; the message names round/trick/play.

    ``phrases`` (``rules.explain``), where set, are the same message for a page to word in the
    reader's language: a table that corrected a card into one already played sees why the
    score stopped in its own language.
    """

    def __init__(self, message: str, phrases: tuple[Any, ...] = ()) -> None:
        super().__init__(message)
        self.phrases = phrases


class RecordShapeError(GameRecordError):
    """A record whose JSON is not a game record's shape (a key it does not have, a value of
    the wrong kind): a file a page cannot read, not a game that broke the rules. Its
    ``phrases`` say where and which key, named as the file spells it; the English message
    says more, for whoever edits the file."""


class OutOfTurnError(GameRecordError):
    """A play made when, by the rules' turn order, another player was due.

    Its own type because it is the one rule a table may knowingly break and keep (a winner
    corrected after the next trick was led): callers can offer to score the game as played.
    """
