"""A whole recorded game, rendered frame by frame: end-to-end test data for ``skullcam replay``.

The game itself comes from ``skullcam.rules.simulate.random_game`` (real hands dealt from a
shuffled deck, bids, legal plays by ``legal_plays``, each trick's next leader by
``resolve_trick``). Rendering uses one fixed camera, table and lighting per game. Each trick is
built card by card, the leader first and then clockwise: a hand carrying the card slides in from
the player's side of the table, lets go in front of the player's seat and withdraws; sometimes
the hand comes back and nudges the card. The Tigress is laid crosswise when declared an escape
and like any other card when declared a pirate (docs/architecture.md). After the last card a few
still frames follow, then a hand sweeps the trick towards its winner and off the table.

Seats follow the default layout of interfaces.md: players evenly spaced around the image
centre, player 0 at the bottom centre, then clockwise (bottom -> left -> top -> right).

Stress games (``GameConfig.habits``, ``pace``, ``first_round``): table habits that a tidy table
never shows but a real one does, each a chance per trick (the winner leads before the old trick
is swept, a trick pushed aside, a card taken back, a last card swapped, a hand hovering), faster
pacing presets, and rendering only the last rounds of a game. With none of them a seed renders
the same frames as before they existed: their dice are apart from the rendering's.

Outputs: ``frames/frame_000000.jpg ...`` and/or ``game.mp4``; ``game.json`` (the true
``skullcam-game/1`` record); ``truth.json`` (per trick: each play's player, card, the frame at
which it settled, and the completion and cleared frames); ``frames.jsonl`` (per frame: every
card on the table with its player, state and corners); ``meta.json``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from skullcam.counts import counted
from skullcam.datasets import props
from skullcam.datasets.deck import load_deck, read_manifest
from skullcam.datasets.game_config import GameConfig, Pace
from skullcam.datasets.game_table import build_timeline
from skullcam.datasets.game_timeline import Timeline
from skullcam.datasets.scenes import (
    Camera,
    Lighting,
    PreparedDeck,
    SceneConfig,
    compose,
    prepare,
    render_table,
    seat_angle,
)
from skullcam.errors import UserError
from skullcam.rules.record import GameRecord

PLAYER_NAMES = ("Ana", "Ben", "Cai", "Dag", "Eve", "Fay", "Gus", "Hal")
TRUTH_FORMAT = "skullcam-synth-truth/1"


def simulate(config: GameConfig, seed: int) -> GameRecord:
    """The legal game record of this seed (rules.simulate.random_game); ``config.expansion``
    turns on the setting of every expansion card (``rules.cards.EXPANSION_SETTINGS``)."""
    from skullcam.rules import Settings
    from skullcam.rules.cards import EXPANSION_SETTINGS
    from skullcam.rules.simulate import random_game

    expansions = dict.fromkeys(EXPANSION_SETTINGS.values(), config.expansion)
    settings = Settings.from_dict({**expansions, "rounds": config.rounds})
    rng = random.Random(seed)
    first_dealer = rng.randrange(config.players)
    return random_game(
        rng,
        PLAYER_NAMES[: config.players],
        settings,
        first_dealer=first_dealer,
        rounds=config.rounds,
    )


def render_frames(
    deck: PreparedDeck,
    tl: Timeline,
    config: GameConfig,
    background: np.ndarray,
    light: Lighting,
    seed: int,
    sink: Callable[[int, np.ndarray, list[dict[str, object]]], None],
    progress: bool = True,
) -> None:
    """Render every frame of ``tl`` and pass (index, image, per-frame truth) to ``sink``."""
    cam = tl.camera
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(tl.frames), unit="frame", desc="frames")
    player_seed = np.random.SeedSequence([seed, 77]).generate_state(8)
    for i, frame in enumerate(tl.frames):
        frng = np.random.default_rng(np.random.SeedSequence([seed, 1, i]))
        occluders = []
        for player, start, end in frame.hands:
            s_px = tuple(cam.project(np.array([start]))[0])
            e_px = tuple(cam.project(np.array([end]))[0])

            def draw(img: np.ndarray, m: np.ndarray, s=s_px, e=e_px, p=player) -> None:
                props.draw_arm(
                    img, m, s, e, cam.px_per_mm, np.random.default_rng(int(player_seed[p]))
                )

            occluders.append(draw)
        image, cards = compose(
            deck,
            cam,
            background,
            [a.placement for a in frame.actors],
            tuple(occluders),
            min_visible=0.5,
        )
        out = image.astype(np.float32) * light.field
        out += frng.standard_normal(out.shape[:2], dtype=np.float32)[..., None] * config.noise_sigma
        image = np.clip(out, 0, 255).astype(np.uint8)
        truth = [
            {
                "player": a.player,
                "face": c.face,
                "state": a.state,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in c.corners],
                "visible_fraction": round(c.visible_fraction, 4),
            }
            for a, c in zip(frame.actors, cards, strict=True)
        ]
        sink(i, image, truth)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()


def game_camera(config: GameConfig, rng: np.random.Generator) -> Camera:
    """A fixed camera for a whole game: nearly top-down and centred, so the default seat layout
    (player 0 at the bottom centre of the image) holds."""
    return Camera.look_at(
        config.width,
        config.height,
        height_mm=float(rng.uniform(750, 950)),
        tilt_deg=float(rng.uniform(0, 10)),
        azimuth_deg=float(rng.uniform(60, 120)),  # leaning towards player 0's side
        card_length_px=float(rng.uniform(*config.card_length_px)),
        roll_deg=float(rng.normal(0, 1.5)),
    )


def write_game(
    deck_dir: Path,
    out: Path,
    config: GameConfig,
    seed: int = 0,
    video: bool = False,
    frames: bool = True,
    progress: bool = True,
) -> str:
    """Simulate, render and write one game; returns a one-line summary."""
    config.check()
    deck = prepare(load_deck(Path(deck_dir)))
    has_manifest = (Path(deck_dir) / "manifest.json").is_file()
    deck_name = read_manifest(Path(deck_dir)).get("name") if has_manifest else Path(deck_dir).name
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        if frames:
            (out / "frames").mkdir(exist_ok=True)
            for old in (out / "frames").glob("frame_*.jpg"):
                old.unlink()
    except OSError as err:
        raise UserError(f"cannot write to {out}: {err.strerror}; pick a writable --out") from None
    record = simulate(config, seed)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0]))
    camera = game_camera(config, rng)
    scfg = SceneConfig(width=config.width, height=config.height, p_cast_shadow=0.3)
    background = render_table(camera, rng)
    light = Lighting.random(rng, config.width, config.height, scfg)
    tl, truths = build_timeline(record, config, camera, rng, seed)

    writer = None
    if video:
        fourcc = cv2.VideoWriter.fourcc(*"mp4v")
        writer = cv2.VideoWriter(
            str(out / "game.mp4"), fourcc, config.fps, (config.width, config.height)
        )
        if not writer.isOpened():
            raise UserError("OpenCV cannot write mp4 here; drop --video and use the frames")
    per_frame = (out / "frames.jsonl").open("w")

    def sink(i: int, image: np.ndarray, truth: list[dict[str, object]]) -> None:
        if frames:
            cv2.imwrite(
                str(out / "frames" / f"frame_{i:06d}.jpg"),
                image,
                [cv2.IMWRITE_JPEG_QUALITY, config.jpeg_quality],
            )
        if writer is not None:
            writer.write(image)
        trick = tl.frames[i].trick
        per_frame.write(
            json.dumps(
                {"frame": i, "trick": None if trick is None else list(trick), "cards": truth},
                separators=(",", ":"),
            )
            + "\n"
        )

    try:
        render_frames(deck, tl, config, background, light, seed, sink, progress)
    finally:
        per_frame.close()
        if writer is not None:
            writer.release()

    (out / "game.json").write_text(json.dumps(record.to_dict(), indent=2) + "\n")
    truth_doc = {
        "format": TRUTH_FORMAT,
        "fps": config.fps,
        "frames": len(tl.frames),
        "tricks": [t.to_json(config.habits.active()) for t in truths],
    }
    (out / "truth.json").write_text(json.dumps(truth_doc, indent=1) + "\n")
    meta = {
        "players": list(record.players),
        "n_players": config.players,
        "rounds": config.rounds,
        "fps": config.fps,
        "frames": len(tl.frames),
        "width": config.width,
        "height": config.height,
        "seat_layout": "default",
        "seat_angles_deg": [
            round(math.degrees(seat_angle(p, config.players)) % 360, 2)
            for p in range(config.players)
        ],
        "camera": {
            "height_mm": round(camera.height_mm, 1),
            "tilt_deg": round(camera.tilt_deg, 2),
            "px_per_mm": round(camera.px_per_mm, 4),
        },
        "deck": deck_name,
        "seed": seed,
        "video": "game.mp4" if video else None,
        "frames_dir": "frames" if frames else None,
        # game.json holds every round; the frames show these (1-based, inclusive)
        "first_round": config.first_round,
        "last_round": config.rounds,
        "pace": config.pace,
        "pacing": dataclasses.asdict(Pace.of(config)),
        "habits": config.habits.to_json(),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    return game_summary(config, len(truths), len(tl.frames), out)


def game_summary(config: GameConfig, tricks: int, frames: int, out: Path) -> str:
    """The line ``skullcam synth game`` prints: what was written where, in the game's numbers
    (a one-round game is "1 round, 1 trick", not "1 rounds, 1 tricks")."""
    rounds = counted(config.rounds, "round")
    if config.first_round > 1:
        rounds = f"rounds {config.first_round}-{config.rounds} of {config.rounds}"
    return (
        f"wrote a {config.players}-player game ({rounds}, {counted(tricks, 'trick')}, "
        f"{counted(frames, 'frame')} at {config.fps:g} fps) to {out}"
    )
