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

Outputs: ``frames/frame_000000.jpg ...`` and/or ``game.mp4``; ``game.json`` (the true
``skullcam-game/1`` record); ``truth.json`` (per trick: each play's player, card, the frame at
which it settled, and the completion and cleared frames); ``frames.jsonl`` (per frame: every
card on the table with its player, state and corners); ``meta.json``.
"""

from __future__ import annotations

import json
import logging
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from skullcam.datasets import props
from skullcam.datasets.deck import load_deck, read_manifest
from skullcam.datasets.scenes import (
    CARD_H_MM,
    Camera,
    Lighting,
    Placement,
    PreparedDeck,
    SceneConfig,
    compose,
    prepare,
    random_look,
    render_table,
    seat_angle,
)
from skullcam.errors import UserError
from skullcam.frames import WORKING_SIZE

logger = logging.getLogger(__name__)

PLAYER_NAMES = ("Ana", "Ben", "Cai", "Dag", "Eve", "Fay", "Gus", "Hal")
TRUTH_FORMAT = "skullcam-synth-truth/1"


@dataclass(frozen=True)
class GameConfig:
    """A game to render: who plays, how long, how fast, and the pacing of the hands (seconds)."""

    players: int = 3
    rounds: int = 10
    fps: float = 10.0
    expansion: bool = False
    width: int = WORKING_SIZE[0]
    height: int = WORKING_SIZE[1]
    card_length_px: tuple[float, float] = (85.0, 105.0)
    slide_s: float = 0.6  # hand brings a card in
    withdraw_s: float = 0.4  # hand leaves
    pause_s: tuple[float, float] = (0.3, 0.9)  # between two plays
    p_nudge: float = 0.3
    still_s: float = 1.2  # complete trick on the table before the sweep
    sweep_s: float = 0.7
    between_rounds_s: float = 1.0
    noise_sigma: float = 1.5
    jpeg_quality: int = 90

    def check(self) -> None:
        if not 2 <= self.players <= 8:
            raise UserError(f"--players must be 2..8, got {self.players}")
        if not 1 <= self.rounds <= 10:
            raise UserError(f"--rounds must be 1..10, got {self.rounds}")
        if not 1.0 <= self.fps <= 60.0:
            raise UserError(f"--fps must be between 1 and 60, got {self.fps}")

    def frames(self, seconds: float) -> int:
        return max(1, round(seconds * self.fps))


@dataclass
class Actor:
    """A card on (or coming onto) the table in one frame."""

    placement: Placement
    player: int
    state: str  # "moving", "landed" (hand still near), "settled", "sweeping"


@dataclass
class Frame:
    actors: list[Actor]
    hands: list[tuple[int, tuple[float, float], tuple[float, float]]]  # player, start mm, end mm
    trick: tuple[int, int] | None  # (round index, trick index) shown, None between tricks


@dataclass
class TrickTruth:
    round: int
    trick: int
    leader: int
    plays: list[dict[str, object]] = field(default_factory=list)
    complete_frame: int = -1
    cleared_frame: int = -1
    winner: int | None = None
    next_leader: int = -1


def _ease(t: float) -> float:
    return 1 - (1 - t) ** 2


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


class Timeline:
    """Builds the list of frames of a game from its record."""

    def __init__(self, config: GameConfig, camera: Camera, rng: np.random.Generator) -> None:
        self.cfg = config
        self.camera = camera
        self.rng = rng
        self.frames: list[Frame] = []
        # half the image's shorter side in mm: how far out a seat's edge of the image is
        self.radius = (
            CARD_H_MM * float(rng.uniform(1.15, 1.3)) * (1 + 0.04 * max(0, config.players - 5))
        )
        self.offscreen = max(config.width, config.height) / camera.px_per_mm * 0.75 + CARD_H_MM

    def seat_dir(self, player: int) -> tuple[float, float]:
        a = seat_angle(player, self.cfg.players)
        return (math.cos(a), math.sin(a))

    def _emit(self, actors: list[Actor], hands: list, trick: tuple[int, int] | None) -> int:
        self.frames.append(
            Frame(
                [Actor(a.placement, a.player, a.state) for a in actors],
                list(hands),
                trick,
            )
        )
        return len(self.frames) - 1

    def idle(self, seconds: float, actors: list[Actor], trick: tuple[int, int] | None) -> None:
        for _ in range(self.cfg.frames(seconds)):
            self._emit(actors, [], trick)

    def play(
        self, actors: list[Actor], face: str, player: int, crosswise: bool, trick: tuple[int, int]
    ) -> tuple[int, int]:
        """Animate one play; returns the frames at which the card first rested with no hand
        over it, and at which it settled (later, when the hand came back to nudge it)."""
        rng, cfg = self.rng, self.cfg
        final = _seat_pose(face, player, cfg.players, rng, self.radius, crosswise)
        d = self.seat_dir(player)
        start = (final.center[0] + d[0] * self.offscreen, final.center[1] + d[1] * self.offscreen)
        arm_from = (start[0] + d[0] * 300, start[1] + d[1] * 300)
        grip = CARD_H_MM * 0.3  # fingertips over the near end of the card

        def fingertips(center: tuple[float, float]) -> tuple[float, float]:
            return (center[0] + d[0] * grip, center[1] + d[1] * grip)

        moving = Actor(
            _moved(final, start, final.heading + float(rng.normal(0, 0.3))), player, "moving"
        )
        n = cfg.frames(cfg.slide_s)
        for k in range(1, n + 1):
            t = _ease(k / n)
            c = _lerp(start, final.center, t)
            heading = moving.placement.heading + (final.heading - moving.placement.heading) * t
            pl = _moved(final, c, heading)
            self._emit(
                [*actors, Actor(pl, player, "moving")], [(player, arm_from, fingertips(c))], trick
            )
        landed = Actor(final, player, "landed")
        n = cfg.frames(cfg.withdraw_s)
        for k in range(1, n + 1):
            tip = _lerp(fingertips(final.center), arm_from, _ease(k / n))
            hands = [(player, arm_from, tip)] if k < n else []
            self._emit([*actors, landed], hands, trick)
        rested = len(self.frames) - 1
        if rng.random() < cfg.p_nudge:
            self.idle(0.2, [*actors, landed], trick)
            n = cfg.frames(0.3)
            for k in range(1, n + 1):  # hand comes back
                self._emit(
                    [*actors, landed],
                    [(player, arm_from, _lerp(arm_from, fingertips(final.center), _ease(k / n)))],
                    trick,
                )
            shift = rng.normal(0, 8, 2)
            turn = float(rng.normal(0, math.radians(6)))
            nudged = _moved(
                final,
                (final.center[0] + float(shift[0]), final.center[1] + float(shift[1])),
                final.heading + turn,
            )
            n = cfg.frames(0.25)
            for k in range(1, n + 1):
                c = _lerp(final.center, nudged.center, k / n)
                pl = _moved(final, c, final.heading + turn * k / n)
                self._emit(
                    [*actors, Actor(pl, player, "landed")],
                    [(player, arm_from, fingertips(c))],
                    trick,
                )
            final = nudged
            landed = Actor(final, player, "landed")
            n = cfg.frames(cfg.withdraw_s)
            for k in range(1, n + 1):
                tip = _lerp(fingertips(final.center), arm_from, _ease(k / n))
                self._emit([*actors, landed], [(player, arm_from, tip)] if k < n else [], trick)
        settled = Actor(final, player, "settled")
        actors.append(settled)
        # the last emitted frame already shows the card at rest with no hand: that is "settled"
        last = self.frames[-1]
        last.actors[-1] = Actor(final, player, "settled")
        return rested, len(self.frames) - 1

    def sweep(self, actors: list[Actor], towards: int, trick: tuple[int, int]) -> int:
        """A hand gathers the trick and pulls it off the table; returns the first empty frame."""
        cfg = self.cfg
        d = self.seat_dir(towards)
        arm_from = (d[0] * (self.offscreen + 300), d[1] * (self.offscreen + 300))
        n = cfg.frames(0.4)
        for k in range(1, n + 1):
            self._emit(
                actors, [(towards, arm_from, _lerp(arm_from, (0.0, 0.0), _ease(k / n)))], trick
            )
        n = cfg.frames(cfg.sweep_s)
        start = [a.placement for a in actors]
        for k in range(1, n + 1):
            t = _ease(k / n)
            moved = []
            for a, pl in zip(actors, start, strict=True):
                gather = _lerp(pl.center, (0.0, 0.0), min(1.0, 2 * t))
                out = max(0.0, 2 * t - 1) * (self.offscreen + self.radius)
                c = (gather[0] + d[0] * out, gather[1] + d[1] * out)
                moved.append(Actor(_moved(pl, c, pl.heading), a.player, "sweeping"))
            tip = (
                d[0] * max(0.0, 2 * t - 1) * (self.offscreen + self.radius),
                d[1] * max(0.0, 2 * t - 1) * (self.offscreen + self.radius),
            )
            self._emit(moved, [(towards, arm_from, tip)], trick)
        return self._emit([], [], None)


def _moved(pl: Placement, center: tuple[float, float], heading: float) -> Placement:
    return Placement(
        face=pl.face,
        center=center,
        heading=heading,
        role=pl.role,
        seat=pl.seat,
        order=pl.order,
        crosswise=pl.crosswise,
        bend=pl.bend,
        bend_axis=pl.bend_axis,
        glare=pl.glare,
    )


def _seat_pose(
    face: str, player: int, n: int, rng: np.random.Generator, radius: float, crosswise: bool
) -> Placement:
    a = seat_angle(player, n) + float(rng.normal(0, 0.05))
    r = radius * float(rng.uniform(0.92, 1.08))
    heading = a + math.pi + math.radians(float(rng.uniform(-15, 15)))
    if crosswise:
        heading += math.pi / 2 * (1 if rng.random() < 0.5 else -1) + math.radians(
            float(rng.uniform(-10, 10))
        )
    look = random_look(rng, 0.2)
    return Placement(
        face=face,
        center=(r * math.cos(a), r * math.sin(a)),
        heading=heading,
        seat=player,
        crosswise=crosswise,
        bend=look["bend"],
        bend_axis=look["bend_axis"],
        glare=look["glare"],
    )


def simulate(config: GameConfig, seed: int):
    """The legal game record of this seed (rules.simulate.random_game)."""
    from skullcam.rules import Settings
    from skullcam.rules.simulate import random_game

    settings = Settings(
        loot=config.expansion, kraken_and_white_whale=config.expansion, rounds=config.rounds
    )
    rng = random.Random(seed)
    first_dealer = rng.randrange(config.players)
    return random_game(
        rng,
        PLAYER_NAMES[: config.players],
        settings,
        first_dealer=first_dealer,
        rounds=config.rounds,
    )


def build_timeline(
    record, config: GameConfig, camera: Camera, rng: np.random.Generator
) -> tuple[Timeline, list[TrickTruth]]:
    """Every frame of the game and the per-trick truth."""
    from skullcam.rules import resolve_trick

    tl = Timeline(config, camera, rng)
    truths: list[TrickTruth] = []
    tl.idle(config.between_rounds_s, [], None)
    for r, rnd in enumerate(record.rounds):
        for t, trick in enumerate(rnd.tricks):
            key = (r, t)
            plays = trick.plays
            truth = TrickTruth(round=r, trick=t, leader=plays[0].player)
            actors: list[Actor] = []
            for k, play in enumerate(plays):
                card = str(play.card)
                face = card.split(":")[0]
                crosswise = card == "tigress:escape"
                if k:
                    tl.idle(float(rng.uniform(*config.pause_s)), actors, key)
                rested, settled = tl.play(actors, face, play.player, crosswise, key)
                actors[-1].placement.order = k
                truth.plays.append(
                    {
                        "player": play.player,
                        "card": card,
                        "rested_frame": rested,
                        "settled_frame": settled,
                        "crosswise": crosswise,
                    }
                )
            truth.complete_frame = len(tl.frames) - 1
            tl.idle(config.still_s, actors, key)
            result = resolve_trick([p.card for p in plays], record.settings)
            truth.winner = None if result.winner is None else plays[result.winner].player
            truth.next_leader = plays[result.next_leader].player
            towards = truth.winner if truth.winner is not None else truth.next_leader
            truth.cleared_frame = tl.sweep(actors, towards, key)
            truths.append(truth)
        tl.idle(config.between_rounds_s, [], None)
    return tl, truths


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
    tl, truths = build_timeline(record, config, camera, rng)

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
        "tricks": [t.__dict__ for t in truths],
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
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    n_tricks = sum(len(r.tricks) for r in record.rounds)
    return (
        f"wrote a {config.players}-player game ({config.rounds} rounds, {n_tricks} tricks, "
        f"{len(tl.frames)} frames at {config.fps:g} fps) to {out}"
    )
