"""Tricks the camera completed while another program held the game database, kept on disk
until they are in it.

The recorder keeps such tricks in memory and writes them, in order, once the database is
free. A run stopped (or killed) before then lost them: a live camera's frames are gone, the
web page can add a missing card but not a missing trick, and every later trick went into the
wrong place. So while any wait, they are also written here, beside their images, and the next
``skullcam run`` records them before it watches the table again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skullcam.device.referee import TrickOutcome
from skullcam.errors import UserError
from skullcam.files import read_json, write_atomic

FILE = "unrecorded.json"
FORMAT = "skullcam-unrecorded/1"


@dataclass(frozen=True)
class Swap:
    """A card of a recorded trick swapped before the pickup: play ``index``, ``before``."""

    index: int
    before: str


#: A trick to record (its ``record_trick`` arguments) or a swap to apply to it.
Waiting = tuple[TrickOutcome, dict[str, Any] | Swap]


def keep(folder: Path, waiting: list[Waiting]) -> None:
    """Write what waits into ``folder``'s file (atomically: a crash leaves the old list or
    the new one), or remove the file once nothing does."""
    path = folder / FILE
    if not waiting:
        path.unlink(missing_ok=True)
        return
    items = [_to_json(outcome, what, folder) for outcome, what in waiting]
    write_atomic(path, json.dumps({"format": FORMAT, "waiting": items}, indent=1) + "\n")


def kept(folder: Path) -> list[Waiting]:
    """What an earlier run left waiting, in order; none when it left nothing."""
    path = folder / FILE
    if not path.exists():
        return []
    data = read_json(path, "the tricks an earlier run could not record")
    try:
        if data["format"] != FORMAT:
            raise ValueError(f"format {data['format']!r}")
        return [_from_json(item, folder) for item in data["waiting"]]
    except (KeyError, TypeError, ValueError) as err:
        raise UserError(
            f"{path} is not a list of tricks skullcam can record ({err}); move it aside to "
            "go on without them (their images stay in the same folder)"
        ) from None


#: The record's images, kept by name: they lie beside the file, wherever the data folder goes.
IMAGES = ("completion_image", "annotated_image")


def _to_json(outcome: TrickOutcome, what: dict[str, Any] | Swap, folder: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"outcome": outcome.to_json()}
    if isinstance(what, Swap):
        out["swap"] = {"index": what.index, "before": what.before}
        return out
    record = dict(what)
    for key in IMAGES:
        if isinstance(record.get(key), Path):
            image = record[key]
            record[key] = image.name if image.parent == folder else str(image)
    out["record"] = record
    return out


def _from_json(item: dict[str, Any], folder: Path) -> Waiting:
    o = item["outcome"]
    outcome = TrickOutcome(
        round=int(o["round"]),
        trick=int(o["trick"]),
        plays=tuple((int(p["player"]), str(p["card"])) for p in o["plays"]),
        result=None,
        winner=o["winner"],
        next_leader=o["next_leader"],
        flags=tuple(o["flags"]),
    )
    if "swap" in item:
        return outcome, Swap(int(item["swap"]["index"]), str(item["swap"]["before"]))
    record = dict(item["record"])
    for key in IMAGES:
        if isinstance(record.get(key), str):
            record[key] = folder / record[key]  # a name joins the folder; a full path stays
    return outcome, record
