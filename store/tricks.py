"""Tricks: the one on the table now (live), the ones recorded, and where their images live.

A recorded trick keeps two versions of its plays: ``plays``, which corrections change, and
``original_plays``, what the camera saw, never changed, so a replay can always show both. The
live trick is not part of the record at all: it is redrawn at every card and is the one write
a power cut may drop (see ``database.py``).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from skullcam.errors import UserError, echo
from skullcam.files import sync_folder
from skullcam.rules import Settings

from . import checks, lead_doubt, repeat_doubt, trick_moves, verdicts
from .audit import write_audit
from .bids import BidsMixin, check_round, stored_cannonball
from .events import emit
from .games import DEMO_MARK as DEMO_MARK
from .games import mark_finished, played_out
from .prompts import Ask, check_ask, insert_prompt
from .refusals import not_found
from .rosie_lead import ask_and_follow, follow_rosies_lead
from .round_so_far import is_rounds_last_trick
from .rows import (
    HAND_SOURCE,
    Game,
    Place,
    Trick,
    dump_json,
    load_json,
    select_rows,
    trick_from_row,
    trick_row,
)

DEMO_SOURCE = "demo"
"""The source a trick the demo recorded names (``detections["source"]``)."""
WENT_ON = (
    "went in a place on: it waited for the database while a missed trick was entered by hand"
    " before it"
)
"""The note on the 'moved' entry of a camera's trick recorded a place on (``filed_at``)."""
WENT_BACK = (
    "went in a place back: the missed trick inserted by hand before it was taken back as the"
    " camera recorded it"
)
"""The note on the 'moved' entry of a camera's trick recorded a place back (``filed_at``)."""
AFTER_AN_ENTRY = "went in a place on: the table had entered another trick at its place by hand"
"""The note on the 'moved' entry of a camera's trick recorded a place on, after a trick the
table entered by hand at its place a moment before, another trick (``filed_at``)."""
REFILED = (
    "moved to the next round's first place: the trick after it, led by its winner, was that"
    " round's second; its place here is the trick the camera lost"
)
"""The note on the 'moved' entry of a camera's trick it filed as a round's last and moved to
the next round's first place (``record_trick``'s ``refile_before``)."""


#: A trick's source (``detections["source"]``) in SQL, NULL where its detections are no JSON.
logger = logging.getLogger(__name__)

_SOURCE = "CASE WHEN json_valid(detections) THEN json_extract(detections, '$.source') END"

#: The source the game's last recorded trick names, if any.
_LAST_TRICKS_SOURCE = (
    f"SELECT {_SOURCE} FROM tricks WHERE game_id = ? ORDER BY round DESC, trick DESC LIMIT 1"
)


def _check_trick_index(game: Game, round_number: int, trick_index: int) -> int:
    """Refuse a trick the round cannot have; returns the cards dealt (tricks in the round)."""
    cards = checks.cards_dealt(round_number, len(game.players), game.settings)
    if not checks.whole_in(trick_index, 0, cards - 1):
        raise UserError(
            f"round {round_number} has tricks 0..{cards - 1}, got trick {echo(trick_index)}"
        )
    return cards


def finish_after_last_trick(
    conn: sqlite3.Connection, game: Game, rounds_due: Callable[[], int]
) -> None:
    """A trick recorded ends the game once every place of every round holds one: the last
    round's last place, or a gap entered by hand, in the last round or an earlier one; not
    while a tie-break round is due (``rounds_due``, asked only then). Only the last round's
    tricks were counted: the game ended with an earlier round's gap still free (to enter it,
    the table had to resume the game first), and a gap entered after the last round was
    played left the game open with every trick in."""
    rounds = int(checks.full_settings(game.settings)["rounds"])
    if not played_out(conn, game, rounds):
        return
    due = rounds_due()
    if due == rounds or played_out(conn, game, due):
        mark_finished(conn, game.id, "last_trick")


class TricksMixin(BidsMixin):
    """Recording tricks as the camera completes them, and reading them back."""

    def game_dir(self, game_id: int) -> Path:
        """``<data>/games/<id>/``, created on demand: where a game's trick images live.

        A folder made here is synced into ``games/`` (and ``games/`` into the data folder):
        a power cut could otherwise lose the folder's entry, and with it every image of the
        game, while the tricks the database recorded since (synced at commit) name them."""
        path = self._game_folder(game_id)
        if not path.is_dir():
            path.mkdir(parents=True, exist_ok=True)
            sync_folder(path.parent)
            sync_folder(self.data_dir)
        return path

    def _game_folder(self, game_id: int) -> Path:
        return self.data_dir / "games" / str(int(game_id))

    def is_demo_game(self, game_id: int, recorded: Sequence[Trick] | None = None) -> bool:
        """Whether the demo made the game: its image folder holds :data:`DEMO_MARK`, or its
        last trick came from the demo (a game made before the mark was written). A camera
        must not record the table's tricks into it, and the pages say it is a recorded game
        replayed. Every page asks, and the history page for every unfinished game, so the
        mark is looked at first and without it only the last trick's source is read
        (``recorded``: the game's tricks, when the caller has them): reading every trick made
        the history page's time grow with the tricks of the games set aside."""
        if self.demo_marked(game_id):
            return True
        if recorded is not None:
            info = recorded[-1].detections if recorded else None
            return isinstance(info, dict) and info.get("source") == DEMO_SOURCE
        row = self._conn().execute(_LAST_TRICKS_SOURCE, (game_id,)).fetchone()
        return row is not None and row[0] == DEMO_SOURCE

    def image_path(self, stored: str | None) -> Path | None:
        """The absolute path of an image path stored on a trick (stored relative to data)."""
        if not stored:
            return None
        path = Path(stored)
        return path if path.is_absolute() else self.data_dir / path

    def image_in_use(self, path: str | Path) -> bool:
        """Whether a recorded trick names the image ``path`` (as stored, or as a path on
        disk): one no trick names is an orphan a crash left, which may be written over."""
        stored = self._relative(path)
        sql = "SELECT 1 FROM tricks WHERE completion_image = ? OR annotated_image = ? LIMIT 1"
        return self._conn().execute(sql, (stored, stored)).fetchone() is not None

    def _relative(self, path: str | Path | None) -> str | None:
        """Stored relative to the data folder when inside it, so the folder can be moved."""
        if path is None:
            return None
        p = Path(path)
        try:
            return p.resolve().relative_to(self.data_dir.resolve()).as_posix()
        except ValueError:
            return str(p)

    def record_trick(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plays: Sequence[Mapping[str, Any]],
        *,
        completion_image: str | Path | None = None,
        annotated_image: str | Path | None = None,
        detections: Any = None,
        resolution: Mapping[str, Any] | None = None,
        model_version: str | None = None,
        flags: Sequence[str] = (),
        asks: Sequence[Ask] = (),
        filed_at: Place | None = None,
        refile_before: Sequence[int] | None = None,
    ) -> int:
        """Record a completed trick in one transaction and clear the live trick.

        ``plays`` are in play order: ``[{"player": 1, "card": "green-5", "confidence": 0.97}]``,
        one per player, or fewer when the camera missed a card: a short trick is kept, with
        its image, so the table can add the missing card on its replay page (until then it
        has no winner and the game's score says which trick to complete). Dropping it would
        lose the frame and leave the round one trick short for good. ``resolution`` is the
        pipeline's ``TrickResult.to_json()`` (with ``explanation``); when omitted the store
        resolves the trick itself. Recording the last trick of the last round finishes the
        game. Returns the trick's id.

        The table's questions about the trick go in with it: ``asks``, what the camera
        could not settle (``(kind, player, payload)``: a doubtful Tigress, a flagged trick),
        and the choice its winning pirate gives. Asked after it, a crash between the two
        lost them, and a restart does not ask again about a trick already recorded.

        ``filed_at``: where the camera filed the trick, a place earlier (a missed trick was
        inserted by hand before it while it waited for the database, or the table entered
        another trick there by hand a moment before), or a place later (a missed trick
        inserted before it was taken back a moment before). Its doubts that place
        gave it, who was expected to lead and a card already played in that round, are judged
        at this place, as those of the tricks the insert moved are (:meth:`_settle_doubts`),
        and its audit trail says it moved from there (:data:`WENT_ON`), as theirs do: a trick
        the camera filed after it, refused at its place, goes on too, whichever run records
        it, and a swap the camera saw on it finds it (``trick_moves.moved_onto``,
        ``moved_off``).

        ``refile_before``: the place of the camera's trick that this one, a round's second,
        showed to be the round's first (``Referee.follows_a_lost_first_trick``): it moves to
        the place before this one, in the same transaction (:meth:`_refile`).
        """
        with self._write() as conn:
            # Read inside the write: a settings change committed a moment ago (fewer rounds)
            # is the one this trick is checked against.
            game = self.game(game_id)
            check_round(game, round_number, partial(self.rounds_due, game_id))
            _check_trick_index(game, round_number, trick_index)
            clean = checks.check_plays(plays, len(game.players), partial=True)
            if not clean:
                raise UserError("a trick needs at least one card")
            if resolution is None or len(clean) < len(game.players):
                resolution = verdicts.resolve(clean, game.settings, game.players)
            columns = {
                "completion_image": self._relative(completion_image),
                "annotated_image": self._relative(annotated_image),
                "detections": dump_json(detections),
                "model_version": model_version,
            }
            for kind, player, _ in asks:
                check_ask(kind, player, len(game.players))
            if refile_before is not None:
                moved_from = (int(refile_before[0]), int(refile_before[1]))
                self._refile(conn, game, moved_from, (round_number, trick_index - 1))
            # A trick whose source says it was entered by hand is one (``Trick.by_hand``), and
            # its event says so: a camera following the game takes it up.
            by_hand = isinstance(detections, dict) and detections.get("source") == HAND_SOURCE
            trick_id = self._record_in(
                conn,
                game,
                round_number,
                trick_index,
                clean,
                dict(resolution),
                columns,
                flags,
                by_hand,
            )
            for kind, player, payload in asks:
                insert_prompt(conn, game_id, kind, round_number, trick_index, player, payload)
            ask_and_follow(conn, game, self.trick(game_id, round_number, trick_index))
            if filed_at is not None:
                self._filed_earlier(conn, game, trick_id, filed_at, (round_number, trick_index))
            return trick_id

    def _filed_earlier(
        self, conn: sqlite3.Connection, game: Game, trick_id: int, filed: Place, place: Place
    ) -> None:
        """A camera's trick filed at ``filed`` went in at ``place``: audited as moved (the
        trick's page says why it is not where the camera filed it), its doubts settled, and,
        gone on, listed with the moves of the insert that moved a trick into ``filed``
        (:func:`trick_moves.join_the_insert`; after a trick entered at ``filed``, another
        trick, none did). Gone back, no insert is left to join: it was taken back."""
        before, after = ({"round": r, "trick": t} for r, t in (filed, place))
        if place < filed:
            write_audit(conn, game.id, trick_id, "moved", before, after, WENT_BACK)
            self._settle_doubts(conn, game, self.trick(game.id, *place))
            return
        there = self.trick(game.id, *filed)
        moved_in = there.id in trick_moves.moved_onto(conn, game.id, filed)
        note = WENT_ON if moved_in or trick_moves.inserted_at(there, filed) else AFTER_AN_ENTRY
        write_audit(conn, game.id, trick_id, "moved", before, after, note)
        dropped = self._settle_doubts(conn, game, self.trick(game.id, *place))
        trick_moves.join_the_insert(conn, game, trick_id, (filed, place), there.id, dropped)

    def _refile(self, conn: sqlite3.Connection, game: Game, place: Place, to: Place) -> bool:
        """Move the camera's trick at ``place``, a round's last, to ``to``, the next round's
        first place, as its referee moved it: audited as moved (:data:`REFILED`; the trick's
        page says why), its questions and pirate's choice with it, its doubts and choices
        judged at its new place (:meth:`_settle_moved`). ``place`` is left free, the trick the
        camera lost, to enter by hand; a Rosie choice read from its lead goes. Left as it is,
        with a line in the log, where the table changed either place meanwhile (entered or
        inserted a trick by hand; the trick at ``place`` is then a hand entry, or one moved
        there, or ``to`` is taken): a move then would undo the table's. Returns whether it
        moved."""
        found = {(t.round, t.trick): t for t in self.tricks(game.id)}
        there = found.get(place)
        next_first = place[0] + 1 == to[0] and to[1] == 0
        if (
            there is None
            or there.by_hand
            or to in found
            or not next_first
            or not is_rounds_last_trick(game, *place)
            or trick_moves.moved_onto(conn, game.id, place)
        ):
            logger.warning(
                "round %d trick %d stays where it is, not moved to round %d trick %d: the "
                "table changed these places meanwhile",
                place[0],
                place[1] + 1,
                to[0],
                to[1] + 1,
            )
            return False
        trick_moves.move_tricks(conn, game, [(place, to)])
        trick_moves.audit_moves(conn, game, [(place, to)], {place: there.id}, REFILED)
        self._settle_moved(conn, game, [to])
        # Its old place free: a Rosie choice read from its lead named the lost trick's leader.
        follow_rosies_lead(conn, game, *place)
        event = {"round": to[0], "trick": to[1], "trick_id": there.id, "moved_from": list(place)}
        emit(conn, game.id, "correction", event)
        return True

    def _settle_moved(
        self, conn: sqlite3.Connection, game: Game, places: Sequence[tuple[int, int]]
    ) -> dict[int, list[str]]:
        """What new places change for the tricks moved there: their doubts and choices, as
        every move settles them (``HandEntryMixin._settle_moved``, which the game store has)."""
        raise NotImplementedError

    def _settle_doubts(self, conn: sqlite3.Connection, game: Game, trick: Trick) -> list[str]:
        """Drop the camera's doubts about ``trick`` that held at the place it was filed at and
        not at its place now: its lead doubt where the rules' leader here led it, and a card's
        "already played this round" where no earlier trick of its round holds the card. The
        phones stop asking about a trick nothing is wrong with. Returns the doubts dropped."""
        round_tricks = self.tricks(game.id, trick.round)
        doubts = lead_doubt.settle(conn, game, trick, round_tricks)
        # Read again: settling the lead may have written the trick's doubts.
        now = self.trick(game.id, trick.round, trick.trick)
        return doubts + repeat_doubt.settle(conn, now, round_tricks)

    def _record_in(
        self,
        conn: sqlite3.Connection,
        game: Game,
        round_number: int,
        trick_index: int,
        plays: list[dict[str, Any]],
        resolution: dict[str, Any],
        columns: Mapping[str, Any],
        flags: Sequence[str] = (),
        by_hand: bool = False,
    ) -> int:
        """Write a checked trick inside the caller's transaction: its row, the live trick
        cleared, the ``trick`` event, and the game finished after its last trick. Returns
        the trick's id."""
        row = {
            "plays": dump_json(plays),
            "original_plays": dump_json(plays),
            "resolution": dump_json(resolution),
            "flags": dump_json(list(flags)),
            "recorded_at": time.time(),
            **columns,
        }
        trick_id = insert_trick(conn, game.id, round_number, trick_index, row)
        conn.execute("DELETE FROM live WHERE game_id = ?", (game.id,))
        winner = verdicts.winner_player(plays, resolution)
        verdict = verdicts.verdict(plays, game.settings, game.players)
        trick_event = {
            "round": round_number,
            "trick": trick_index,
            "trick_id": trick_id,
            "winner": winner,
            "bonus": resolution.get("bonus"),
            # What the bonus is for, which the TV's banner names ("+20 for the Jolly Roger 14").
            "bonus_for": verdicts.bonus_for(verdict),
            # The Loot alliances it makes, which the banner names beside the bonus.
            "loot_alliances": verdicts.loot_alliances(verdict, plays, game.settings),
            # Read with the trick, so a page's banner names the condition the scorer
            # applies even when its copy of the settings is a moment old.
            "bonus_paid": self._bonus_paid(game, round_number, winner),
            "explanation": resolution.get("explanation"),
            "flags": list(flags),
            **({"by_hand": True} if by_hand else {}),
        }
        emit(conn, game.id, "trick", trick_event)
        finish_after_last_trick(conn, game, partial(self.rounds_due, game.id))
        return trick_id

    def bonus_paid(self, game_id: int, round_number: int, winner: int | None) -> str:
        """When the winner of a trick in this round is paid its capture bonus
        (``Settings.bonus_paid``, with the winner's cannonball call)."""
        return self._bonus_paid(self.game(game_id), round_number, winner)

    def _bonus_paid(self, game: Game, round_number: int, winner: int | None) -> str:
        # The calls as stored, the round unchecked: a tie-break round a correction made
        # needless is no longer due, and its trick's page still asks.
        calls = stored_cannonball(self._conn(), game.id, round_number) or []
        called = winner is not None and winner < len(calls) and bool(calls[winner])
        return Settings.from_dict(dict(game.settings)).bonus_paid(cannonball=called)

    def trick(self, game_id: int, round_number: int, trick_index: int) -> Trick:
        """A recorded trick, or UserError naming what is missing."""
        row = trick_row(self._conn(), game_id, round_number, trick_index)
        if row is None:
            # Counted from 1, as every message counts tricks (the address counts from 0).
            raise not_found("no_trick", game=game_id, trick=trick_index + 1, round=round_number)
        return trick_from_row(row)

    def tricks(self, game_id: int, round_number: int | None = None) -> list[Trick]:
        """Recorded tricks in order (one round's when ``round_number`` is given)."""
        order = "round, trick"
        rows = select_rows(self._conn(), "tricks", order, game_id=game_id, round=round_number)
        return [trick_from_row(r) for r in rows]

    def set_live(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plays: Sequence[Mapping[str, Any]],
        winner: int | None = None,
        leader: int | None = None,
    ) -> None:
        """Publish the trick on the table now (cards recognised so far, current winner).

        Not a recorded trick: it is replaced on every call and cleared by :meth:`record_trick`.
        ``winner`` and ``leader`` are player numbers.
        """
        game = self.game(game_id)
        n = len(game.players)
        clean = checks.check_plays(plays, n, partial=True)
        payload = {
            "round": round_number,
            "trick": trick_index,
            "plays": clean,
            "winner": winner,
            "leader": leader,
        }
        with self._write(durable=False) as conn:
            conn.execute(
                "INSERT INTO live (game_id, payload, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT(game_id) DO UPDATE SET payload = excluded.payload, "
                "updated_at = excluded.updated_at",
                (game_id, dump_json(payload), time.time()),
            )
            emit(conn, game_id, "live", payload)

    def live(self, game_id: int) -> dict[str, Any] | None:
        """The trick on the table as last published, or None."""
        sql = "SELECT payload FROM live WHERE game_id = ?"
        row = self._conn().execute(sql, (game_id,)).fetchone()
        return load_json(row["payload"]) if row else None


class AlreadyRecorded(UserError):
    """A trick refused because its (round, trick) is recorded already: the recorder tells a
    trick the table entered by hand a moment before the camera completed it (the camera
    learns of hand entries once a second) from other refusals, and keeps its reading."""


def insert_trick(
    conn: sqlite3.Connection,
    game_id: int,
    round_number: int,
    trick_index: int,
    columns: Mapping[str, Any],
) -> int:
    """Insert a trick row (``columns`` already JSON-encoded); returns its id.

    A (round, trick) already recorded is refused with where to fix it: the table's UNIQUE
    constraint decides, so two recorders cannot both win.
    """
    names = ["game_id", "round", "trick", *columns]
    values = [game_id, round_number, trick_index, *columns.values()]
    sql = f"INSERT INTO tricks ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
    try:
        cur = conn.execute(sql, values)
    except sqlite3.IntegrityError as err:
        raise AlreadyRecorded(
            f"round {round_number} trick {trick_index + 1} is already recorded in game "
            f"{game_id}; correct it on its replay page instead"
        ) from err
    return int(cur.lastrowid or 0)
