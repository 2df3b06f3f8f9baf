"""A scripted demo game folder (frames, game.json, meta.json) for tests of the live loop."""

from __future__ import annotations

import json
import random
from pathlib import Path

from skullcam.device.scripted import simulate_game, write_keyed_frames
from skullcam.rules import Settings
from skullcam.rules.simulate import random_game
from skullcam.vision.seats import SeatLayout

SEED = 21


def make_demo(folder: Path, n: int = 3, rounds: int = 3) -> tuple[dict, list]:
    players = [f"P{i}" for i in range(n)]
    settings = Settings(rounds=rounds)
    record = random_game(random.Random(SEED), players, settings, 1).to_dict()
    sg = simulate_game(record, seed=SEED)
    # Small frames keep the test fast; the seats (in 640 x 480 detection pixels) come from meta.
    write_keyed_frames(folder / "frames", len(sg.script), size=(64, 48))
    (folder / "game.json").write_text(json.dumps(record))
    seats = SeatLayout.default(n).to_json()
    (folder / "meta.json").write_text(json.dumps({"fps": sg.fps, "players": n, "seats": seats}))
    return record, sg.script


def calibrate_seats(data: Path, n: int = 3) -> Path:
    """``data``'s seat calibration for a camera playing make_demo's frames, as 'skullcam
    calibrate' would make it, in the scripted detections' 640 x 480 pixels. The frames are
    64 x 48 to keep the tests fast, and a calibration (or the default) is scaled to the frames
    it is used with: its centre went to (32, 24), far from every card, so every card read as
    one seat and the tricks' players came from the play order instead (the tests did not check
    the seats they claimed to). Saved with no frame size, it is used as it is."""
    default = SeatLayout.default(n)
    data.mkdir(parents=True, exist_ok=True)
    SeatLayout(default.centre, default.angles).save(data / "seats.json")
    return data / "seats.json"
