"""Moving recorded tricks one place on in the game, to make room for a trick the camera missed.

A camera that misses a trick files every later one a place early, and not only inside the
round: the next round's first trick lands on the round's last place, and so on until the
table notices (often from a doubt such as "Ana led, but the game expected Cai to lead").
Entering the missed trick puts it back where it was played; the tricks from there up to the
game's first free place each move on one place, with their pirates' choices and the questions
about them. The moves cross round ends because the misfiling does: stopping at the round's
end would leave the next round's tricks to be corrected card by card.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from . import checks
from .abilities import save_abilities, stored_abilities
from .audit import write_audit
from .bids import put_round, round_row
from .rows import Game, Place, Trick, dump_json, load_json, select_rows, trick_from_row

Move = tuple[Place, Place]
"""A trick's place before and after a move."""


def places_from(game: Game, start: Place, rounds: int) -> list[Place]:
    """Every place of the game from ``start`` on, in play order, up to the end of round
    ``rounds``."""
    n = len(game.players)
    first_round, first_trick = start
    places: list[Place] = []
    for r in range(first_round, rounds + 1):
        dealt = checks.cards_dealt(r, n, game.settings)
        places += [(r, k) for k in range(first_trick if r == first_round else 0, dealt)]
    return places


def place_before(game: Game, place: Place) -> Place | None:
    """The place before ``place`` in play order (a round's first follows the last of the
    round before); None for the game's first."""
    round_number, trick_index = place
    if trick_index > 0:
        return round_number, trick_index - 1
    if round_number <= 1:
        return None
    dealt = checks.cards_dealt(round_number - 1, len(game.players), game.settings)
    return round_number - 1, dealt - 1


def moved_back_off(conn: sqlite3.Connection, game_id: int, place: Place) -> bool:
    """Whether the last trick moved off ``place`` moved back a place: an insert taken back
    left ``place`` free (:func:`_moved`'s audit entries, the newest first)."""
    sql = (
        "SELECT before, after FROM corrections "
        "WHERE game_id = ? AND kind = 'moved' AND trick_id IS NOT NULL ORDER BY id DESC"
    )
    was = {"round": place[0], "trick": place[1]}
    for before, after in conn.execute(sql, (game_id,)):
        if load_json(before) == was:
            went = load_json(after)
            return isinstance(went, dict) and (went.get("round"), went.get("trick")) < place
    return False


def moves_to_free(
    game: Game, tricks: Sequence[Trick], start: Place, rounds: int
) -> list[Move] | None:
    """The moves that free ``start``, the last trick first (each then lands on a free place):
    every trick from ``start`` up to the game's first free place after it moves on one place.
    None where every place from ``start`` to the end of round ``rounds`` is recorded."""
    taken = {(t.round, t.trick) for t in tricks}
    places = places_from(game, start, rounds)
    free = next((k for k, place in enumerate(places) if place not in taken), None)
    if free is None:
        return None
    return [(places[k], places[k + 1]) for k in reversed(range(free))]


def move_tricks(conn: sqlite3.Connection, game: Game, moves: Sequence[Move]) -> None:
    """Apply ``moves`` (as :func:`moves_to_free` orders them) to the tricks, the questions
    about them and the pirates' choices they hold, inside the caller's transaction."""
    for (old_round, old_trick), (new_round, new_trick) in moves:
        for table in ("tricks", "prompts"):
            conn.execute(
                f"UPDATE {table} SET round = ?, trick = ? "
                "WHERE game_id = ? AND round = ? AND trick = ?",
                (new_round, new_trick, game.id, old_round, old_trick),
            )
    _move_abilities(conn, game, dict(moves))


def _move_abilities(conn: sqlite3.Connection, game: Game, moved: Mapping[Place, Place]) -> None:
    """A round's choices are stored with the round (``[{trick, pirate, choice}]``): each moves
    to its trick's new round and place. A round that had no row (no bid yet) gets one."""
    rounds = sorted({r for move in moved.items() for r, _ in move})
    before = {r: stored_abilities(conn, game.id, r) for r in rounds}
    after: dict[int, list[dict[str, Any]]] = {r: [] for r in rounds}
    for r, abilities in before.items():
        for ability in abilities:
            new_round, new_trick = moved.get((r, ability["trick"]), (r, ability["trick"]))
            after[new_round].append({**ability, "trick": new_trick})
    for r in rounds:
        if after[r] == before[r]:
            continue
        if round_row(conn, game.id, r) is None:
            put_round(conn, game.id, r, [None] * len(game.players), None)
        save_abilities(conn, game.id, r, sorted(after[r], key=lambda a: (a["trick"], a["pirate"])))


def moved_off(conn: sqlite3.Connection, game_id: int, place: Place) -> list[int]:
    """The ids of the tricks moved off ``place`` (by a trick entered by hand at or before
    it, or taken back after it), the last moved first: a swap the camera saw there before
    the move, written after it, is about one of them."""
    return _moved(conn, game_id, place, "before")


def moved_onto(conn: sqlite3.Connection, game_id: int, place: Place) -> list[int]:
    """The ids of the tricks moved onto ``place``, the last moved first (as :func:`moved_off`)."""
    return _moved(conn, game_id, place, "after")


def _moved(conn: sqlite3.Connection, game_id: int, place: Place, side: str) -> list[int]:
    """The ids of the tricks whose 'moved' entries in the audit trail have ``place`` as
    their ``side`` ("before" or "after"), the last moved first."""
    sql = (
        f"SELECT trick_id, {side} FROM corrections "  # side: one of two names from the code
        "WHERE game_id = ? AND kind = 'moved' AND trick_id IS NOT NULL ORDER BY id DESC"
    )
    was = {"round": place[0], "trick": place[1]}
    ids: list[int] = []
    for trick_id, at in conn.execute(sql, (game_id,)):
        if load_json(at) == was and int(trick_id) not in ids:
            ids.append(int(trick_id))
    return ids


def inserted_at(trick: Trick, place: Place) -> bool:
    """Whether ``trick`` is a missed trick inserted by hand at ``place``: it moved on the
    trick that lay there (its ``moved`` list holds a move from ``place``)."""
    moves = trick.source_info.get("moved", []) if trick.by_hand else []
    return any(tuple(int(v) for v in move["from"]) == place for move in moves)


def place_on_after(game: Game, tricks: Sequence[Trick], place: Place, rounds: int) -> Place | None:
    """The first place after ``place``, in play order up to the end of round ``rounds``, that
    no camera's trick holds: free, or holding a trick entered by hand. None where none is.

    Where an insert moved the camera's tricks on while one of its tricks waited, that trick
    belongs after them; a trick entered by hand there was typed for it while it waited (the
    table saw it played, not recorded), then moved on by the insert like the rest. Such an
    entry's place counts as the camera trick's own, because skipping past it to a free place
    would record the same trick twice."""
    camera = {(t.round, t.trick) for t in tricks if not t.by_hand}
    return next((p for p in places_from(game, place, rounds)[1:] if p not in camera), None)


def join_the_insert(
    conn: sqlite3.Connection,
    game: Game,
    trick_id: int,
    move: Move,
    moved_id: int,
    flags: Sequence[str],
) -> None:
    """Trick ``trick_id``, a camera's trick filed at ``move``'s first place, went in at its
    second because a missed trick's insert moved trick ``moved_id`` into the first: it joins
    that insert's moves (the entry's ``detections["moved"]``, last place first), with the
    doubts its place on dropped (``flags``), so taking the entry back moves it back too and
    asks them again, because otherwise a take-back would leave it a place on with its own
    place free. No entry moved ``moved_id`` there (a take-back did): nothing to join."""
    filed, went_on = move
    for row in select_rows(conn, "tricks", "id", game_id=game.id):
        entry = trick_from_row(row)
        moves = entry.source_info.get("moved", [])
        if entry.by_hand and any(_put(m, moved_id, filed) for m in moves):
            joined = {"id": trick_id, "from": list(filed), "to": list(went_on), "flags": [*flags]}
            info = {**entry.source_info, "moved": [joined, *moves]}
            sql = "UPDATE tricks SET detections = ? WHERE id = ?"
            conn.execute(sql, (dump_json(info), entry.id))
            return


def _put(move: Mapping[str, Any], trick_id: int, place: Place) -> bool:
    """Whether ``move`` (an entry's ``moved`` item) put trick ``trick_id`` at ``place``."""
    return int(move["id"]) == trick_id and tuple(int(v) for v in move["to"]) == place


def drop_abilities(
    conn: sqlite3.Connection, game: Game, place: Place, pirate: str | None = None
) -> list[dict[str, Any]]:
    """Forget the choices the trick at ``place`` holds (``pirate``'s only, when given): the
    trick is being removed, or its place leaves the choice nothing to decide. Returns them."""
    r, t = place
    abilities = stored_abilities(conn, game.id, r)
    kept = [a for a in abilities if a["trick"] != t or pirate not in (None, a["pirate"])]
    if kept != abilities:
        save_abilities(conn, game.id, r, kept)
    return [a for a in abilities if a not in kept]


def audit_moves(
    conn: sqlite3.Connection, game: Game, moves: Sequence[Move], ids: Mapping[Place, int], why: str
) -> None:
    """An entry in each moved trick's audit trail (kind 'moved', ``before`` and ``after``
    its place as ``{round, trick}``): a trick disputed later shows why it is not where the
    camera filed it, and its page's history reads in order."""
    for old, new in moves:
        before = {"round": old[0], "trick": old[1]}
        after = {"round": new[0], "trick": new[1]}
        write_audit(conn, game.id, ids[old], "moved", before, after, why)
