"""Where a recording already partly recorded into a game goes on from, and which cards of
its last trick may still lie on the table: a restart (or a camera reconnecting) must neither
record a trick twice nor skip one."""

from __future__ import annotations

import bisect
from pathlib import Path
from typing import Any

from skullcam.device.pipeline import EnteredTrick
from skullcam.device.sources import frame_files, frames_folder, names_live_camera
from skullcam.store import GameStore, Trick
from skullcam.store.rows import HAND_SOURCE


def last_trick(store: GameStore, game_id: int) -> Trick | None:
    """The game's last recorded trick, or None before its first."""
    tricks = store.tricks(game_id)
    return tricks[-1] if tricks else None


def _last_seen(tricks: list[Trick]) -> int:
    """The index of the last of ``tricks`` a camera or recording recorded (not one the table
    entered by hand), -1 before any."""
    return max((k for k, t in enumerate(tricks) if not t.by_hand), default=-1)


def last_seen_trick(store: GameStore, game_id: int) -> Trick | None:
    """The game's last trick a camera or recording recorded: where a recording played into
    the game goes on from."""
    tricks = store.tricks(game_id)
    seen = _last_seen(tricks)
    return tricks[seen] if seen >= 0 else None


def entered_since_seen(store: GameStore, game_id: int) -> list[EnteredTrick]:
    """The tricks the table entered by hand after the last one a camera or recording recorded,
    in game order: a recording played into the game goes on from before them, and shows them
    again (:attr:`~skullcam.device.pipeline.Pipeline.seen_again`)."""
    tricks = store.tricks(game_id)
    seen = _last_seen(tricks)
    return [
        EnteredTrick(t.round, t.trick, tuple((int(p["player"]), str(p["card"])) for p in t.plays))
        for t in tricks[seen + 1 :]
    ]


def last_trick_cards(store: GameStore, game_id: int) -> list[list[str]]:
    """The cards of the game's last recorded trick, which may still lie on the table (empty
    before its first trick): see :func:`trick_cards`. When the table entered that trick by
    hand, the camera may never have seen it there, and the last trick the camera recorded
    may be what still lies in its view: its cards are given too."""
    last = last_trick(store, game_id)
    cards = trick_cards(last)
    if recorded_from(last).get("source") == HAND_SOURCE:
        cards += [c for c in trick_cards(last_seen_trick(store, game_id)) if c not in cards]
    return cards


def trick_cards(trick: Trick | None) -> list[list[str]]:
    """A recorded trick's cards as the camera may see them again: as recorded, and as the
    camera first read them where the table corrected them on the web page (a card misread
    the first time is misread again, and a card it missed may be missed again)."""
    if trick is None:
        return []
    seen = [[str(p["card"]) for p in plays] for plays in (trick.plays, trick.original_plays)]
    return seen[:1] if sorted(seen[0]) == sorted(seen[1]) else seen


def recorded_from(trick: Trick | None) -> dict[str, Any]:
    """What the recorder wrote of where a trick came from (``source``, ``frame_index``)."""
    return trick.source_info if trick is not None else {}


def resume_frame(last: Trick | None, source: str) -> int:
    """The frame to go on from in a recording ``source`` already partly recorded into a
    game whose last trick is ``last``: after that trick's frame (0 when it is not from it).
    Starting again from frame 0 would record the first tricks a second time, as later ones."""
    info = recorded_from(last)
    if info.get("source") == source or moved_here(info, source):
        folder, file = frames_folder(Path(source)), info.get("frame_file")
        if isinstance(file, str) and folder.is_dir():
            # After that frame's name: by position, frames removed from the front between
            # runs (a folder the camera fills and a cleaner empties) would skip tricks.
            names = [p.name for p in frame_files(folder)]
            return bisect.bisect_right(names, file)
        index = info.get("frame_index")
        if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
            return index + 1
    return 0


def source_name_of(camera: str) -> str:
    """What a trick records as its source: a recording by its absolute path, so a restart
    from another folder still knows it (and resumes it); a camera as given."""
    return camera if names_live_camera(camera) else str(Path(camera).absolute())


def moved_here(info: dict[str, Any], source: str) -> bool:
    """Whether ``source`` is the recording a trick came from (``info``: its ``source_info``),
    moved or renamed: gone from its old path, and holding the frame file the trick was
    recorded on (a folder) or of the same file name (a video). It was played again from its
    first frame, and its first tricks were recorded a second time as the game's later ones.
    A recording still at its old path is another one (the next part of a game): played from
    its start."""
    before = info.get("source")
    if not isinstance(before, str) or names_live_camera(before) or Path(before).exists():
        return False
    new, file = Path(source), info.get("frame_file")
    if new.is_dir():
        return isinstance(file, str) and (frames_folder(new) / file).is_file()
    return new.is_file() and new.name == Path(before).name
