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
