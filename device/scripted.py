"""Scripted detections: the pipeline's test bench without pixels or a model.

The tracker and the trick state machine only ever see :class:`Detection` values, so their
behaviour on occlusion, nudges, take-backs, missed frames and wrong classes can be scripted
exactly. :func:`simulate_game` turns a ``skullcam-game/1`` record into a per-frame detection
script (cards flying in, settling in front of their player, hands hiding cards, nudges,
flickering classes, the table cleared between tricks); :class:`ScriptedRecognizer` plays a
script back as if it were the recognizer. Used by the tests and by ``benchmarks`` that measure
the tracking logic apart from recognition; never by ``skullcam replay`` or ``run``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from skullcam.frames import WORKING_SIZE
from skullcam.rules import FACES, face_of
from skullcam.vision.detection import Detection
from skullcam.vision.seats import SeatLayout

CARD_SIZE = (40.0, 62.0)
"""Width and length of a card in pixels at 640 x 480 (about what the generator draws)."""


def card_detection(
    card: str,
    center: Sequence[float],
    angle: float = math.pi / 2,
    confidence: float = 0.95,
    size: tuple[float, float] = CARD_SIZE,
) -> Detection:
    """A detection of ``card`` lying at ``center`` with its long axis at ``angle`` (radians)."""
    w, length = size
    ux, uy = math.cos(angle), math.sin(angle)  # long axis
    vx, vy = -uy, ux  # short axis
    cx, cy = float(center[0]), float(center[1])
    hw, hl = w / 2.0, length / 2.0
    corners = np.array(
        [
            [cx - vx * hw - ux * hl, cy - vy * hw - uy * hl],
            [cx + vx * hw - ux * hl, cy + vy * hw - uy * hl],
            [cx + vx * hw + ux * hl, cy + vy * hw + uy * hl],
            [cx - vx * hw + ux * hl, cy - vy * hw + uy * hl],
        ],
        dtype=np.float32,
    )
    det = Detection.from_corners(card, confidence, corners)
    return det


class ScriptedRecognizer:
    """A recognizer that returns the next frame's scripted detections on each call."""

    model_version = "scripted"

    def __init__(self, script: Sequence[Sequence[Detection]]) -> None:
        self.script = list(script)
        self.calls = 0

    def __call__(self, frame_bgr: object) -> list[Detection]:
        index = self.calls
        self.calls += 1
        return list(self.script[index]) if index < len(self.script) else []


@dataclass
class ScriptedGame:
    """A detection script and the truth it was made from."""

    script: list[list[Detection]]
    fps: float
    record: dict[str, Any]
    settle_frames: list[list[int]] = field(default_factory=list)
    """Per trick (in game order), the frame at which each play settled."""


def _seat_point(layout: SeatLayout, seat: int, radius: float) -> tuple[float, float]:
    a = layout.angles[seat]
    return (layout.centre[0] + radius * math.cos(a), layout.centre[1] + radius * math.sin(a))


def simulate_game(
    record: dict[str, Any],
    layout: SeatLayout | None = None,
    fps: float = 10.0,
    seed: int = 0,
    hands: bool = True,
    nudges: bool = True,
    miss_rate: float = 0.03,
    wrong_rate: float = 0.02,
    radius: float = 95.0,
) -> ScriptedGame:
    """A per-frame detection script of a whole recorded game (plays in record order).

    Each card flies in from its player's edge over ``~0.3 s``, then lies still; while a card is
    being placed the hand hides a random earlier card of the trick (``hands``); sometimes a
    resting card is nudged a little (``nudges``); any detection may be missed (``miss_rate``)
    or named as a random other face (``wrong_rate``). After the last play the table stays still
    about a second, then the cards are swept off and the next trick begins.
    """
    rng = random.Random(seed)
    n = len(record["players"])
    layout = layout or SeatLayout.default(n)
    frames: list[list[tuple[str, tuple[float, float], float, float]]] = []
    settle_frames: list[list[int]] = []

    def pad(count: int) -> None:
        frames.extend([] for _ in range(count))

    pad(int(fps))
    for rnd in record["rounds"]:
        for trick in rnd["tricks"]:
            on_table: list[dict[str, Any]] = []
            settled: list[int] = []
            for play in trick["plays"]:
                seat = int(play["player"])
                card = str(play["card"])
                face = face_of(card)
                spot = _seat_point(layout, seat, radius + rng.uniform(-8, 8))
                spot = (spot[0] + rng.uniform(-6, 6), spot[1] + rng.uniform(-6, 6))
                radial = layout.angles[seat]
                angle = radial + rng.uniform(-0.3, 0.3)
                if card == "tigress:escape":
                    angle = radial + math.pi / 2 + rng.uniform(-0.3, 0.3)
                start = _seat_point(layout, seat, radius * 2.4)
                flight = 3
                hidden = rng.choice(on_table) if hands and on_table else None
                hide_frames = rng.randint(2, 8)
                entry = {"face": face, "pos": spot, "angle": angle % math.pi, "from": start}
                think = rng.randint(int(0.4 * fps), int(1.2 * fps))
                for k in range(think + flight):
                    frame = [(c["face"], c["pos"], c["angle"], 0.95) for c in on_table]
                    if hidden is not None and k >= think + flight - hide_frames:
                        frame = [f for f in frame if f[1] != hidden["pos"]]
                    if k >= think:
                        s = (k - think + 1) / (flight + 1)
                        pos = (
                            start[0] + (spot[0] - start[0]) * s,
                            start[1] + (spot[1] - start[1]) * s,
                        )
                        frame.append((face, pos, entry["angle"], 0.6))
                    frames.append(frame)
                on_table.append(entry)
                settled.append(len(frames))
                if nudges and len(on_table) > 1 and rng.random() < 0.3:
                    victim = rng.choice(on_table[:-1])
                    dx = rng.uniform(-0.2, 0.2) * CARD_SIZE[1]
                    dy = rng.uniform(-0.2, 0.2) * CARD_SIZE[1]
                    victim["pos"] = (victim["pos"][0] + dx, victim["pos"][1] + dy)
            settle_frames.append(settled)
            for _ in range(int(1.2 * fps)):
                frames.append([(c["face"], c["pos"], c["angle"], 0.95) for c in on_table])
            # Swept off one by one, then an empty table before the next lead.
            while on_table:
                on_table.pop(rng.randrange(len(on_table)))
                frames.append([(c["face"], c["pos"], c["angle"], 0.95) for c in on_table])
            pad(int(2.0 * fps))
    script: list[list[Detection]] = []
    for frame in frames:
        dets: list[Detection] = []
        for face, pos, angle, conf in frame:
            if rng.random() < miss_rate:
                continue
            shown = face
            if rng.random() < wrong_rate:
                shown = rng.choice(FACES)
            jitter = (pos[0] + rng.gauss(0, 0.8), pos[1] + rng.gauss(0, 0.8))
            dets.append(card_detection(shown, jitter, angle + rng.gauss(0, 0.02), conf))
        script.append(dets)
    return ScriptedGame(script=script, fps=fps, record=record, settle_frames=settle_frames)


def key_image(index: int, size: tuple[int, int] = WORKING_SIZE) -> np.ndarray:
    """A flat frame whose first pixel encodes ``index`` (for :class:`FrameKeyedRecognizer`)."""
    width, height = size
    image = np.full((height, width, 3), 70, dtype=np.uint8)
    image[0, 0] = (index & 255, (index >> 8) & 255, (index >> 16) & 255)
    return image


def write_keyed_frames(folder: Any, count: int, size: tuple[int, int] = WORKING_SIZE) -> None:
    """``frame_000000.png``... lossless, so the key survives; a folder source reads them back."""
    import cv2

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        cv2.imwrite(str(out / f"frame_{i:06d}.png"), key_image(i, size))


class FrameKeyedRecognizer:
    """Scripted detections looked up by the index written into the frame (survives restarts
    and dropped frames, unlike :class:`ScriptedRecognizer`'s call counting)."""

    version = "scripted-keyed"

    def __init__(self, script: Sequence[Sequence[Detection]]) -> None:
        self.script = list(script)

    def __call__(self, frame_bgr: np.ndarray) -> list[Detection]:
        b, g, r = (int(v) for v in frame_bgr[0, 0])
        index = b | (g << 8) | (r << 16)
        return list(self.script[index]) if index < len(self.script) else []


def oracle_script(
    game_folder: Any,
    min_visible: float = 0.5,
    miss_rate: float = 0.0,
    wrong_rate: float = 0.0,
    jitter_px: float = 0.0,
    seed: int = 0,
) -> list[list[Detection]]:
    """Per-frame detections from a generated game's ``frames.jsonl`` (its ground truth).

    What a perfect recognizer would report: every card at least ``min_visible`` visible, named
    right. Feeds :class:`ScriptedRecognizer` to test tracking and trick logic on the generator's
    real timing (hands, nudges, sweeps) apart from recognition errors. ``miss_rate``,
    ``wrong_rate`` (a random other face) and ``jitter_px`` (corner noise) degrade it on purpose
    to measure how much recognition noise the tracker absorbs.
    """
    import json

    rng = random.Random(seed)
    path = Path(game_folder) / "frames.jsonl"
    script: list[list[Detection]] = []
    with path.open() as fh:
        for line in fh:
            row = json.loads(line)
            dets = []
            for c in row.get("cards", []):
                if float(c.get("visible_fraction", 1.0)) < min_visible or rng.random() < miss_rate:
                    continue
                face = str(c["face"])
                confidence = 0.97
                if rng.random() < wrong_rate:
                    face, confidence = rng.choice(FACES), rng.uniform(0.4, 0.9)
                corners = np.asarray(c["corners"], dtype=np.float32)
                if jitter_px:
                    noise = [rng.gauss(0, jitter_px) for _ in range(8)]
                    corners = corners + np.asarray(noise, dtype=np.float32).reshape(4, 2)
                dets.append(Detection.from_corners(face, confidence, corners))
            script.append(dets)
    return script
