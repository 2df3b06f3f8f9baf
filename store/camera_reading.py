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
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import checks
from .corrections import raise_flag
from .events import emit
from .rows import Trick, dump_json, trick_from_row, trick_row
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


#: What :meth:`CameraReadingMixin.keep_camera_reading` adds to a hand entry's detections
#: besides the camera's own (its ``source`` apart, and the entry's ``source`` and ``moved``).
_READING_KEYS = ("camera_source", "camera_plays", "source", "moved")


def camera_copy(trick: Trick) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    """The camera's own trick kept with ``trick``, entered by hand (its plays, and its
    detections as the camera recorded them: ``source`` its own), for the place to hold it
    once the entry is taken back; None where the camera completed no copy of it."""
    info = trick.source_info
    if not trick.by_hand or not isinstance(info.get("camera_plays"), list):
        return None
    detections = {k: v for k, v in info.items() if k not in _READING_KEYS}
    return list(info["camera_plays"]), {**detections, "source": info.get("camera_source")}


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
    ) -> list[str] | None:
        """Keep the camera's copy of trick ``trick_index`` of ``round_number`` (what it gave
        :meth:`record_trick`, which refused it as already recorded) with the trick the
        table entered there by hand: its images and detections where the entry has no picture,
        and a doubt, asked once, for each card read otherwise. The entry's cards are never
        changed. Returns the doubts raised (empty where the camera agrees, or asked already);
        None where no trick entered by hand is there: the camera's refusal stands."""
        with self._write() as conn:
            game = self.game(game_id)
            row = trick_row(conn, game_id, round_number, trick_index)
            entered = trick_from_row(row) if row is not None else None
            if entered is None or not entered.by_hand:
                return None
            seen = checks.check_plays(plays, len(game.players), partial=True)
            if not entered.completion_image and not entered.annotated_image:
                images = (self._relative(completion_image), self._relative(annotated_image))
                self._attach_reading(conn, entered, seen, images, detections, model_version)
            doubts = disagreements(game.players, entered.plays, seen)
            raised = [d for d in doubts if d not in entered.flags]
            for doubt in raised:  # read again each time: raising one writes the trick's flags
                raise_flag(conn, self.trick(game_id, round_number, trick_index), doubt)
            if raised:  # the trick's page, open on a phone, shows the picture and the doubt
                where = {"round": round_number, "trick": trick_index, "trick_id": entered.id}
                emit(conn, game_id, "correction", {**where, "camera_read": raised})
            return raised

    @staticmethod
    def _attach_reading(
        conn: sqlite3.Connection,
        entered: Trick,
        seen: Sequence[Mapping[str, Any]],
        images: tuple[str | None, str | None],
        detections: Any,
        model_version: str | None,
    ) -> None:
        """Give the entered trick the camera's pictures and detections (the replay page draws
        its boxes from ``image_size`` and ``cards``), its own source info standing: it stays a
        trick entered by hand (``source``), whose insertion may have moved others
        (``moved``). The camera's source and plays are kept as ``camera_source`` and
        ``camera_plays``."""
        camera = dict(detections) if isinstance(detections, Mapping) else {}
        reading = {k: v for k, v in camera.items() if k != "source"}
        reading |= {"camera_source": camera.get("source"), "camera_plays": list(seen)}
        conn.execute(
            "UPDATE tricks SET completion_image = ?, annotated_image = ?, detections = ?, "
            "model_version = COALESCE(model_version, ?) WHERE id = ?",
            (*images, dump_json({**reading, **entered.source_info}), model_version, entered.id),
        )
