"""What the store hands back: one frozen dataclass per kind of row, and the JSON columns.

Pages and the recorder get these objects, never ``sqlite3.Row``: a column renamed in
``schema.py`` then changes one ``*_from_row`` here, not every caller. JSON columns go through
:func:`load_json`, so a damaged row is a sentence for the table, not a traceback mid-game.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any, TypeVar

from skullcam.errors import UserError
from skullcam.rules import readable_names

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Place = tuple[int, int]
"""(round, trick index in the round from 0): where a trick lies in the game."""


def load_json(text: str) -> Any:
    """A JSON column of a row; a damaged one is a clear error, not a traceback mid-game."""
    try:
        return json.loads(text)
    except (TypeError, ValueError) as err:
        raise UserError(
            f"a record in the game database (skullcam.db) is damaged: {err}. Restore a backup "
            "of skullcam.db, or move it aside to start a fresh one, its skullcam.db-wal and "
            '-shm files with it (docs/pi.md, "Backups")'
        ) from err


def dump_json(value: Any) -> str:
    """Compact and UTF-8 as is: names in any script read back as typed."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Game:
    """A game's fixed facts: players in seating order (clockwise), first dealer, settings."""

    id: int
    players: list[str]
    first_dealer: int
    settings: dict[str, Any]
    status: str
    created_at: float
    finished_at: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "settings": dict(self.settings),
            "status": self.status,
            "created_at": self.created_at,
            "finished_at": self.finished_at,
        }


HAND_SOURCE = "hand"
"""The source a trick the table entered by hand names (``detections["source"]``): a camera
following the game rebuilds its state when one appears, as after a restart."""


@dataclass(frozen=True)
class Trick:
    """A recorded trick. ``plays`` is the current version, ``original_plays`` the camera's."""

    id: int
    game_id: int
    round: int
    trick: int
    plays: list[dict[str, Any]]
    original_plays: list[dict[str, Any]]
    completion_image: str | None
    annotated_image: str | None
    detections: Any
    resolution: Any
    model_version: str | None
    flags: list[str]
    recorded_at: float

    @property
    def source_info(self) -> dict[str, Any]:
        """What the recorder wrote of where the trick came from (``source``, a camera's
        ``frame_index``, a hand entry's ``moved``); empty for an older record."""
        return self.detections if isinstance(self.detections, dict) else {}

    @property
    def by_hand(self) -> bool:
        """Entered by hand (no picture), not recorded by a camera."""
        return self.source_info.get("source") == HAND_SOURCE

    @property
    def corrected(self) -> bool:
        """Whether a card or a seat changed; a confidence cleared by a correction is not one."""
        return _seats_and_cards(self.plays) != _seats_and_cards(self.original_plays)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Correction:
    """One audit-trail entry: what changed, from what, to what, and when."""

    id: int
    game_id: int
    trick_id: int | None
    kind: str
    before: Any
    after: Any
    note: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Prompt:
    """A question for the table; ``payload`` carries what the pages need to ask it."""

    id: int
    game_id: int
    kind: str
    round: int
    trick: int | None
    player: int | None
    payload: dict[str, Any]
    status: str
    answer: Any
    created_at: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Event:
    """One row of the ``events`` table; ``id`` is the SSE event id."""

    id: int
    game_id: int | None
    kind: str
    payload: dict[str, Any]
    at: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _seats_and_cards(plays: Sequence[Mapping[str, Any]]) -> list[tuple[int, str]]:
    return [(int(p["player"]), str(p["card"])) for p in plays]


_RowT = TypeVar("_RowT", bound="DataclassInstance")


def _from_row(cls: type[_RowT], row: sqlite3.Row, json_columns: tuple[str, ...]) -> _RowT:
    """The dataclass ``cls`` from a row whose columns carry its fields' names (a row may have
    more); a NULL JSON column (an unanswered prompt's answer) stays ``None``."""
    values = {f.name: row[f.name] for f in fields(cls)}
    for name in json_columns:
        if values[name] is not None:
            values[name] = load_json(values[name])
    return cls(**values)


def game_from_row(row: sqlite3.Row) -> Game:
    """The game, its players named as the table reads them (``rules.readable_names``): names
    stored before skullcam dropped the characters that draw nothing are read without them, and
    two a table cannot tell apart are numbered, the stored text left as it was."""
    game = _from_row(Game, row, ("players", "settings"))
    return replace(game, players=_readable_names(game.players))


def _readable_names(stored: Sequence[str]) -> list[str]:
    """``readable_names(stored)``, worked out once per list of names (:func:`_readable`): a
    page's state reads the game six times, and the camera three times at every card laid,
    where the names' Unicode work is two thirds of reading the game (0.16 of 0.24 ms). A
    damaged row's names that cannot be kept (not text) are worked out each time."""
    try:
        return list(_readable(tuple(stored)))
    except TypeError:  # unhashable: not a list of names
        return readable_names(stored)


@functools.lru_cache(maxsize=64)
def _readable(stored: tuple[str, ...]) -> tuple[str, ...]:
    """The games' names as read, by their stored text: a table plays one game at a time."""
    return tuple(readable_names(stored))


def trick_from_row(row: sqlite3.Row) -> Trick:
    json_columns = ("plays", "original_plays", "detections", "resolution", "flags")
    return _from_row(Trick, row, json_columns)


def correction_from_row(row: sqlite3.Row) -> Correction:
    return _from_row(Correction, row, ("before", "after"))


def prompt_from_row(row: sqlite3.Row) -> Prompt:
    return _from_row(Prompt, row, ("payload", "answer"))


def event_from_row(row: sqlite3.Row) -> Event:
    return _from_row(Event, row, ("payload",))


def trick_row(
    conn: sqlite3.Connection, game_id: int, round_number: int, trick_index: int
) -> sqlite3.Row | None:
    """A recorded trick's row, or None when that trick is not recorded."""
    rows = select_rows(conn, "tricks", "id", game_id=game_id, round=round_number, trick=trick_index)
    return rows[0] if rows else None


def select_rows(
    conn: sqlite3.Connection, table: str, order_by: str, **equal: Any
) -> list[sqlite3.Row]:
    """The rows of ``table`` whose columns equal the values given, a value of ``None`` being
    no condition: the optional filters of the store's listings (a game's open prompts, one
    trick's audit trail). ``table``, ``order_by`` and the column names come from the code,
    never from a request."""
    where = {column: value for column, value in equal.items() if value is not None}
    conditions = " AND ".join(f"{column} = ?" for column in where) or "1"
    sql = f"SELECT * FROM {table} WHERE {conditions} ORDER BY {order_by}"
    rows: list[sqlite3.Row] = conn.execute(sql, tuple(where.values())).fetchall()
    return rows
