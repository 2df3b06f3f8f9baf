"""The pictures of a camera's trick, on disk before the store records it.

A trick's completion frame and its annotated copy are written (each to a temporary name, then
renamed, the folder synced) before the trick's transaction names them, so a crash leaves a
recorded trick with both images or no trick at all (:mod:`skullcam.device.recorder`).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np

from skullcam.device.pipeline import annotate
from skullcam.device.referee import TrickOutcome, is_ability_ask
from skullcam.device.sources import Frame
from skullcam.errors import UserError
from skullcam.files import replace_atomically, sync_folder
from skullcam.store import GameStore
from skullcam.vision.detection import Detection


def write_image_atomic(path: Path, image: np.ndarray, quality: int = 90) -> None:
    """Encode to JPEG, write under a temporary name, fsync, rename over ``path``; an
    ``OSError`` (a full disk) is raised with no temp file left, for the recorder to word."""
    import cv2

    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise UserError(f"cannot encode image for {path}")
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_atomically(path, data.tobytes())


class TrickImages:
    """Writes a completed trick's two pictures into its game's folder, under names no recorded
    trick holds, and gathers what ``record_trick`` records beside them."""

    def __init__(
        self, store: GameStore, game_id: int, model_version: str, source_name: str = ""
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.model_version = model_version
        self.source_name = source_name
        self.players = list(store.game(game_id).players)

    def names(self, folder: Path, round_number: int, trick_index: int) -> tuple[Path, Path]:
        """The trick's picture and its annotated copy, ``r02t01.jpg`` and ``r02t01-boxes.jpg``,
        or with ``-2``, ``-3``... after the stem where a recorded trick names those. The images
        are written before the store accepts the trick, so a trick it refuses (a recording
        shown again, a place the table filled by hand) wrote over the pictures of the trick
        there, or of a trick a hand entry moved off this place, while the store kept that
        trick's reading of them. Images no trick names (a crash before the trick's
        transaction) are written over, as before."""
        stem = f"r{round_number:02d}t{trick_index:02d}"
        for n in itertools.count(1):
            name = stem if n == 1 else f"{stem}-{n}"
            pair = folder / f"{name}.jpg", folder / f"{name}-boxes.jpg"
            if not any(self.store.image_in_use(p) for p in pair):
                return pair
        raise AssertionError("unreachable")  # count() never ends

    def write(
        self, outcome: TrickOutcome, frame: Frame, detections: list[Detection]
    ) -> dict[str, Any]:
        """The trick's two images, on disk now; what ``record_trick`` needs besides them."""
        folder = self.store.game_dir(self.game_id)
        completion, boxes = self.names(folder, outcome.round, outcome.trick)
        write_image_atomic(completion, frame.image)
        write_image_atomic(boxes, annotate(frame.image, outcome, self.players))
        # The renames are the folder's entries, not the files': synced with the folder before
        # the trick's transaction names them, or a power cut could keep the trick without them.
        sync_folder(folder)
        height, width = frame.image.shape[:2]
        obs = outcome.observation
        cards = []
        if obs is not None:
            for play, player in zip(obs.plays, obs.players, strict=True):
                cards.append({**play.to_json(), "player": player})
        payload = {
            "image_size": [width, height],
            "cards": cards,
            "all_detections": [d.to_json() for d in detections],
            "frame_index": frame.index,
            # A folder of frames is resumed by name: its front may be cleaned up between runs.
            **({"frame_file": Path(frame.origin).name} if frame.origin else {}),
            "timestamp": round(frame.timestamp, 3),
            "source": self.source_name,
            "arrival_seats": list(obs.arrival_seats) if obs is not None else [],
            **(obs.seats_json() if obs is not None else {}),
        }
        return {
            "plays": outcome.plays_json(),
            "completion_image": completion,
            "annotated_image": boxes,
            "detections": payload,
            "resolution": outcome.result.to_json() if outcome.result is not None else None,
            "model_version": self.model_version,
            # The pirate's question asks for the choice (``_prompts``); as a flag it would mark
            # the trick doubtful for good, and ask "confirm or correct" beside the question.
            "flags": [f for f in outcome.flags if not is_ability_ask(f)],
            # The trick before it, moved to its round's first place as it is recorded.
            **({"refile_before": list(where)} if (where := outcome.refiled_before) else {}),
        }
