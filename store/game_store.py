"""SQLite game store shared by the live recorder and the web app.

Why SQLite in WAL mode: the recorder thread writes a trick while several web threads read the
scoreboard; WAL lets readers proceed during a write, and every write here is one transaction so
a crash loses at most the trick in progress. Each thread gets its own connection (sqlite3
connections must not be shared across threads); writes in this process are serialised by one
lock per database file so they never fight over SQLite's write lock.

Scores are never stored. :meth:`GameStore.score` builds the ``skullcam-game/1`` record from the
rows and hands it to :func:`skullcam.rules.score_game`, so a settings change or a correction
recomputes every round at once.

Every change appends a row to ``events`` (strictly increasing ids, never reused); the web's
server-sent-event stream tails that table and a reconnecting page resumes with ``Last-Event-ID``.

:class:`GameStore` is put together from one part per concern, each in its own module and each
readable on its own; a part's base classes are the parts it builds on:

==================  ==========================================================================
``database.py``     connections, write transactions, a busy or damaged database (the only
                    module that begins, commits or tunes SQLite)
``rows.py``         the dataclasses handed back (:class:`Game`, :class:`Trick`, ...), JSON
``events.py``       the event log: appending in a transaction, reading, waiting
``games.py``        games: create, find the active one, finish; remembered names
``bids.py``         a round's bids and cannonball calls
``tricks.py``       recorded tricks, their images, the live trick
``audit.py``        the audit trail
``prompts.py``      questions to the table: asking, listing, dismissing
``abilities.py``    pirate abilities' choices, kept in step with each trick's winner
``corrections.py``  correcting a recorded trick (card, seat, Tigress, confirm)
``hand_entry.py``   a trick the camera missed, entered by hand (or inserted before another)
``trick_moves.py``  tricks moved on one place (over round ends) to make room for a missed one
``lead_doubt.py``   "Ana led, but the game expected Cai to lead": when it is settled
``repeat_doubt.py`` "green-9 already played this round": when a move settles it
``hand_removal.py`` a trick entered by hand taken back, the tricks it moved moved back
``camera_reading.py`` the camera's copy of a trick entered by hand a moment before it: kept
``answers.py``      the table's answer to a prompt, applied
``settings.py``     house rules changed mid-game
``records.py``      ``skullcam-game/1`` export and import
``scores.py``       the score, computed from the record; one trick's verdict
``state.py``        where the game stands: all a page reads in one go
``verdicts.py``     the rules engine's resolution of one trick, never raising
``checks.py``       checks on input, with the sentence that refuses it
``schema.py``       the tables
==================  ==========================================================================
"""

from __future__ import annotations

# Besides the parts GameStore is made of: each ``X as X`` is a name defined in a part and
# importable from here, as it was before the store was split (the web, the recorder, the
# command line and tests import it so).
from .abilities import ABILITY_PIRATE as ABILITY_PIRATE
from .abilities import choice_kind as choice_kind
from .answers import AnswersMixin
from .audit import AuditMixin
from .bids import harry_fits as harry_fits
from .camera_reading import CameraReadingMixin
from .database import BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS
from .database import database_error as database_error
from .database import is_busy as is_busy
from .events import EVENT_KINDS as EVENT_KINDS
from .prompts import PROMPT_KINDS as PROMPT_KINDS
from .prompts import result_waits as result_waits
from .records import GAME_FORMAT as GAME_FORMAT
from .refiled import RefiledMixin
from .rows import Correction as Correction
from .rows import Event as Event
from .rows import Game as Game
from .rows import Prompt as Prompt
from .rows import Trick as Trick
from .settings import SettingsMixin
from .state import StateMixin
from .verdicts import resolution_json as resolution_json


class GameStore(
    StateMixin, AnswersMixin, RefiledMixin, CameraReadingMixin, SettingsMixin, AuditMixin
):
    """All persistent state of a data folder: ``<data>/skullcam.db`` and ``<data>/games/<id>/``.

    Safe to share one instance between threads: each thread uses a connection of its own.
    """
