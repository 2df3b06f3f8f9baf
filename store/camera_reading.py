"""A camera's reading of a trick the table entered by hand a moment before the camera
completed it.

The camera learns of hand entries once a second, so a trick the table enters just before the
camera completes the same trick reaches the store first, and the camera's copy is refused as
already recorded. The hand entry stands (the table typed it), but the camera's picture and
reading were thrown away with only a line in the log, and nobody at the table learned that the
camera saw other cards. Now they go with the entered trick where it has no picture (its
replay page shows the picture, labelled with the cards entered and, where they differ, what
the picture shows), and each card the camera read otherwise is a doubt on the trick, asked
once as the camera's other doubts are. Where the camera agrees, nothing is asked.

The camera's own doubts about its copy (a doubtful Tigress, a card read with low confidence)
are about its reading, not the table's cards: they stay with the copy, unasked, and are asked
once the copy stands in the entry's place (the entry taken back). A card the camera then sees
swapped before the pickup is the same: the entry's card stays as typed, the camera's copy
takes the swap, and the entry is asked about it once where its card is not the one now lying
there (the camera amended the entry's card, the table's word, without asking).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skullcam.rules import face_of, one_of_a_kind

from . import checks, trick_moves
from .corrections import raise_flag
from .events import emit
from .lead_doubt import rules_leader
from .prompts import Ask
from .rows import Trick, dump_json, select_rows, trick_from_row, trick_row
from .tricks import TricksMixin


def camera_read_flag(who: str, seen: str, entered: str) -> str:
    """The doubt on a trick entered by hand whose card ``who`` played the camera read as
    ``seen`` (card ids; ``web/flag_i18n.py`` says it in the reader's language)."""
    return f"the camera read {who}'s {seen} where the table entered {entered}"


def disagreements(
    players: Sequence[str], entered: Sequence[Mapping[str, Any]], seen: Sequence[Mapping[str, Any]]
) -> list[str]:
    """A :func:`camera_read_flag` for each player whose card the camera read otherwise than
    the table entered, in the camera's play order. A card the camera did not see says nothing:
    the entry has it."""
    typed = {int(p["player"]): str(p["card"]) for p in entered}
    return [
        camera_read_flag(players[int(p["player"])], str(p["card"]), typed[int(p["player"])])
        for p in seen
        if int(p["player"]) in typed and str(p["card"]) != typed[int(p["player"])]
    ]


def shares_a_card(entered: Sequence[Mapping[str, Any]], seen: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the camera's reading ``seen`` holds a card of the trick ``entered`` by hand,
    whoever played it, that proves them one trick: a one-of-a-kind card
    (:func:`~skullcam.rules.one_of_a_kind`), which a round plays once. An escape or a loot
    proves nothing (a round plays several): the trick after the entry often holds one too,
    and was taken for the entry read otherwise, kept with it and lost. Where the entry holds
    no one-of-a-kind card, any card it shares counts: nothing tells the two apart, and the
    reading stays with the entry, asked about."""
    cards = _faces(entered) & _faces(seen)
    if any(one_of_a_kind(card) for card in _faces(entered)):
        return any(one_of_a_kind(card) for card in cards)
    return bool(cards)


def _faces(plays: Sequence[Mapping[str, Any]]) -> set[str]:
    """The cards of ``plays`` whatever was declared of them (``tigress:escape`` is the
    Tigress the camera reads as ``tigress``)."""
    return {face_of(str(p["card"])) for p in plays}


#: What :meth:`CameraReadingMixin.keep_camera_reading` adds to a hand entry's detections
#: besides the camera's own (its ``source`` apart, and the entry's ``source`` and ``moved``).
_READING_KEYS = ("camera_source", "camera_plays", "camera_flags", "camera_asks", "source", "moved")


@dataclass(frozen=True)
class CameraCopy:
    """The camera's own trick kept with a trick entered by hand, as the camera recorded it:
    its plays, its detections (``source`` its own), its doubts and the questions they ask."""

    plays: list[dict[str, Any]]
    detections: dict[str, Any]
    flags: list[str]
    asks: list[Ask]


def camera_copy(trick: Trick) -> CameraCopy | None:
    """The camera's copy kept with ``trick``, entered by hand, for the place to hold it once
    the entry is taken back; None where the camera completed no copy of it."""
    info = trick.source_info
    if not trick.by_hand or not isinstance(info.get("camera_plays"), list):
        return None
    detections = {k: v for k, v in info.items() if k not in _READING_KEYS}
    asks = [(str(k), p, dict(payload)) for k, p, payload in info.get("camera_asks", [])]
    return CameraCopy(
        list(info["camera_plays"]),
        {**detections, "source": info.get("camera_source")},
        list(info.get("camera_flags", [])),
        asks,
    )


class CameraReadingMixin(TricksMixin):
    """Keeping a camera's reading beside the trick the table entered by hand first."""

    def keep_camera_reading(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        plays: Sequence[Mapping[str, Any]],
        *,
        completion_image: str | Path | None = None,
        annotated_image: str | Path | None = None,
        detections: Any = None,
        model_version: str | None = None,
        flags: Sequence[str] = (),
        asks: Sequence[Ask] = (),
    ) -> list[str] | None:
        """Keep the camera's copy of trick ``trick_index`` of ``round_number`` (what it gave
        :meth:`record_trick`, which refused it as already recorded) with the trick the
        table entered there by hand: its images and detections where the entry has no picture,
        and a doubt, asked once, for each card read otherwise. The entry's cards are never
        changed. ``flags`` and ``asks``, the camera's own doubts about its reading and what
        they ask (as given to ``record_trick``), stay with the copy, unasked, until it stands
        in the entry's place. Returns the doubts raised (empty where the camera agrees, or
        asked already); None where no trick entered by hand is there: the camera's refusal
        stands."""
        with self._write() as conn:
            game = self.game(game_id)
            row = trick_row(conn, game_id, round_number, trick_index)
            entered = trick_from_row(row) if row is not None else None
            if entered is None or not entered.by_hand:
                return None
            seen = checks.check_plays(plays, len(game.players), partial=True)
            if not entered.completion_image and not entered.annotated_image:
                images = (self._relative(completion_image), self._relative(annotated_image))
                camera = _Reading(seen, images, detections, model_version, flags, asks)
                self._attach_reading(conn, entered, camera)
            doubts = disagreements(game.players, entered.plays, seen)
            raised = [d for d in doubts if d not in entered.flags]
            for doubt in raised:  # read again each time: raising one writes the trick's flags
                raise_flag(conn, self.trick(game_id, round_number, trick_index), doubt)
            if raised:  # the trick's page, open on a phone, shows the picture and the doubt
                where = {"round": round_number, "trick": trick_index, "trick_id": entered.id}
                emit(conn, game_id, "correction", {**where, "camera_read": raised})
            return raised

    def swap_on_entry(
        self,
        game_id: int,
        round_number: int,
        trick_index: int,
        player: int,
        before: str,
        card: str,
        flag: str,
    ) -> list[str] | None:
        """The camera saw ``player``'s ``before`` swapped for ``card`` before the pickup, in a
        trick the table entered by hand: the entry keeps its cards (the table typed them),
        asked about with ``flag``, the camera's words for the swap, once, where its card is
        not ``card``; the camera's copy kept with it takes the card, ``flag`` among its
        doubts, asked once it stands. Returns the doubts raised on the entry (empty where it
        holds ``card`` already, or is asked already); None where no entry is there, or where
        ``player``'s card in the camera's copy (the entry's own, without one) is not
        ``before``: the swap is about another trick, or was applied before."""
        with self._write() as conn:
            row = trick_row(conn, game_id, round_number, trick_index)
            entered = trick_from_row(row) if row is not None else None
            if entered is None or not entered.by_hand:
                return None
            copy = camera_copy(entered)
            if camera_card(entered, player) != before:
                return None
            if copy is not None:
                self._swap_in_copy(conn, entered, copy, player, card, flag)
            if _card_of(entered.plays, player) == card or flag in entered.flags:
                return []
            raise_flag(conn, self.trick(game_id, round_number, trick_index), flag)
            where = {"round": round_number, "trick": trick_index, "trick_id": entered.id}
            emit(conn, game_id, "correction", {**where, "camera_read": [flag]})
            return [flag]

    def moved_off_holding(
        self, game_id: int, round_number: int, trick_index: int, player: int, card: str
    ) -> Trick | None:
        """The trick moved off trick ``trick_index`` of ``round_number`` (a trick entered by
        hand inserted at or before it) in which ``player``'s card, as the camera reads it
        (:func:`camera_card`), is ``card``; the last moved first. A swap the camera saw on the
        trick lying there, waiting for the database while the table inserted a missed trick,
        is about it and not about what lies at that place now. None where no such trick."""
        conn = self._conn()
        for trick_id in trick_moves.moved_off(conn, game_id, (round_number, trick_index)):
            rows = select_rows(conn, "tricks", "id", game_id=game_id, id=trick_id)
            moved = trick_from_row(rows[0]) if rows else None  # None: taken back since
            if moved is not None and camera_card(moved, player) == card:
                return moved
        return None

    def place_after_an_insert(
        self, game_id: int, round_number: int, trick_index: int
    ) -> tuple[int, int] | None:
        """Where the camera's trick refused at trick ``trick_index`` of ``round_number`` goes
        when a missed trick, entered by hand while it waited for the database, moved the
        camera's tricks before it on a place, the last of them into this one (or an earlier
        waiting trick of the camera's went in here a place on: ``record_trick``'s
        ``filed_at``, audited as moved too), or was inserted here, moving on the table's
        entry of the waiting trick (typed while it waited): the first place after it that no
        camera's trick holds, free or the table's entry of it
        (:func:`trick_moves.place_on_after`). None where the trick lying there came otherwise
        (a recording shown again): the refusal stands. Each refusal is judged by what lies at
        its own place, because a trick that went on says nothing about the next one; a trick
        a later run takes up from disk is placed the same way, after those its earlier run
        placed. The camera's picture and reading thus stay with the trick they show, never
        with the missed trick inserted in its place."""
        conn = self._conn()
        row = trick_row(conn, game_id, round_number, trick_index)
        if row is None:
            return None
        there = trick_from_row(row)
        place = (round_number, trick_index)
        moved_here = there.id in trick_moves.moved_onto(conn, game_id, place)
        if not moved_here and not trick_moves.inserted_at(there, place):
            return None
        game, tricks = self.game(game_id), self.tricks(game_id)
        return trick_moves.place_on_after(game, tricks, place, self.rounds_due(game_id))

    def place_an_insert_left(
        self, game_id: int, round_number: int, trick_index: int
    ) -> tuple[int, int] | None:
        """Where the camera's trick filed at trick ``trick_index`` of ``round_number`` goes
        when the table took back a missed trick it had inserted, and the camera, which learns
        of the table's changes once a second, filed the trick after the insert still: the
        place before, left free by the take-back (the last trick moved off it moved back).
        None otherwise: the camera's place stands. A place before the camera's that holds no
        trick is otherwise a trick taken back from the middle of a round, which the table
        enters again and the camera goes on after (``referee_from_store``); the end of a run
        of tricks an insert moved, moved back, is no trick's place but the camera's next."""
        game = self.game(game_id)
        before = trick_moves.place_before(game, (round_number, trick_index))
        conn = self._conn()
        if before is None or trick_row(conn, game_id, *before) is not None:
            return None
        return before if trick_moves.moved_back_off(conn, game_id, before) else None

    def is_another_trick(
        self, game_id: int, entered: Trick, seen: Sequence[Mapping[str, Any]]
    ) -> bool:
        """Whether the camera's reading ``seen``, refused at the place of the trick
        ``entered`` by hand a moment before, is the trick after it (the camera missed the
        entry's trick and learns of entries once a second), not the entry read otherwise: it
        shares none of the entry's cards (:func:`shares_a_card`), and was not led by the
        entry's leader where the rules have the trick after led by another player (the
        entry's winner; a new round's first leader). A reading of the entry's own trick
        misread in every card was led as the entry was: taken for the trick after, it went
        in there for good (a camera's trick is not taken back), and the camera recorded
        every later trick a place late. Where who leads after is not known (Rosie's choice
        not made), such a reading stays with the entry, asked about, its picture shown."""
        if shares_a_card(entered.plays, seen):
            return False
        led = int(seen[0]["player"]) if seen else None
        if led != int(entered.plays[0]["player"]):
            return True
        after = self.place_after(game_id, entered.round, entered.trick)
        if after is None:
            return False
        game = self.game(game_id)
        round_tricks = [t for t in self.tricks(game_id) if t.round == after[0]]
        return rules_leader(self._conn(), game, after[0], round_tricks, after[1]) == led

    def place_after(
        self, game_id: int, round_number: int, trick_index: int
    ) -> tuple[int, int] | None:
        """The place after trick ``trick_index`` of ``round_number`` in play order (over a
        round's end), within the rounds due; None after the game's last."""
        game = self.game(game_id)
        after = trick_moves.places_from(game, (round_number, trick_index), self.rounds_due(game_id))
        return after[1] if len(after) > 1 else None

    @staticmethod
    def _swap_in_copy(
        conn: sqlite3.Connection,
        entered: Trick,
        copy: CameraCopy,
        player: int,
        card: str,
        flag: str,
    ) -> None:
        """The camera's copy kept with ``entered`` with ``player``'s card swapped for
        ``card`` (no confidence: no frame read it), as :meth:`correct_play` swaps it in a
        camera's trick, and ``flag`` among its doubts."""
        plays = [
            {**p, "card": card, "confidence": None} if int(p["player"]) == player else dict(p)
            for p in copy.plays
        ]
        info = {**entered.source_info, "camera_plays": plays, **_with_doubt(copy, flag)}
        conn.execute("UPDATE tricks SET detections = ? WHERE id = ?", (dump_json(info), entered.id))

    @staticmethod
    def _attach_reading(conn: sqlite3.Connection, entered: Trick, camera: _Reading) -> None:
        """Give the entered trick the camera's pictures and detections (the replay page draws
        its boxes from ``image_size`` and ``cards``), its own source info standing: it stays a
        trick entered by hand (``source``), whose insertion may have moved others
        (``moved``). The camera's source, plays, doubts and questions are kept as
        ``camera_source``, ``camera_plays``, ``camera_flags`` and ``camera_asks``."""
        given = dict(camera.detections) if isinstance(camera.detections, Mapping) else {}
        reading = {k: v for k, v in given.items() if k != "source"}
        reading |= {
            "camera_source": given.get("source"),
            "camera_plays": list(camera.seen),
            "camera_flags": list(camera.flags),
            "camera_asks": [list(ask) for ask in camera.asks],
        }
        conn.execute(
            "UPDATE tricks SET completion_image = ?, annotated_image = ?, detections = ?, "
            "model_version = COALESCE(model_version, ?) WHERE id = ?",
            (
                *camera.images,
                dump_json({**reading, **entered.source_info}),
                camera.model_version,
                entered.id,
            ),
        )


@dataclass(frozen=True)
class _Reading:
    """What the camera gave ``record_trick`` for a trick the table had entered by hand."""

    seen: Sequence[Mapping[str, Any]]
    images: tuple[str | None, str | None]
    detections: Any
    model_version: str | None
    flags: Sequence[str]
    asks: Sequence[Ask]


def camera_card(trick: Trick, player: int) -> str | None:
    """``player``'s card in ``trick`` as the camera reads it: in its copy kept with an entry
    by hand, else the trick's own (a swap the camera saw replaces it there,
    :meth:`CameraReadingMixin.swap_on_entry`); None where the trick has none of theirs."""
    copy = camera_copy(trick)
    return _card_of(trick.plays if copy is None else copy.plays, player)


def _card_of(plays: Sequence[Mapping[str, Any]], player: int) -> str | None:
    """``player``'s card in ``plays``; None where the trick has none of theirs."""
    return next((str(p["card"]) for p in plays if int(p["player"]) == player), None)


def _with_doubt(copy: CameraCopy, flag: str) -> dict[str, Any]:
    """The copy's ``camera_flags`` and ``camera_asks`` with ``flag`` among its doubts, the
    trick's "confirm or correct?" asking it (as a swap on a camera's trick raises it)."""
    if flag in copy.flags:
        return {}
    asks = [list(ask) for ask in copy.asks]
    if not any(kind == "flagged" for kind, _, _ in copy.asks):
        asks.append(["flagged", None, {"flags": [flag]}])
    return {"camera_flags": [*copy.flags, flag], "camera_asks": asks}
