"""``skullcam replay``: the live pipeline over a recording, deterministic, no store.

Shared by the command and the tests: :func:`load_bids`, :func:`load_settings` and
:func:`layout_for_source` read the command's inputs with one-line errors;
:func:`replay_source` runs every frame through :class:`~skullcam.device.pipeline.Pipeline`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skullcam.counts import counted
from skullcam.device.picture_watch import PictureWatch
from skullcam.device.pipeline import Listener, Pipeline
from skullcam.device.referee import Referee
from skullcam.device.sources import FrameSource, game_folder_meta, open_source
from skullcam.errors import UserError
from skullcam.files import read_json
from skullcam.rules import RulesError, Settings, cards_in_round
from skullcam.vision.seats import SeatLayout


def load_settings(path: Path | None, bids: Path | None = None) -> Settings:
    """``--settings FILE``: a JSON object of the settings keys in interfaces.md. Without one, a
    game record given as ``--bids`` brings its own settings (its number of rounds, say), so
    the replayed record scores as that game did."""
    if path is None:
        record = read_json(bids, "bids file") if bids is not None else None
        if isinstance(record, dict) and isinstance(record.get("settings"), dict):
            try:
                return Settings.from_dict(record["settings"])
            except RulesError as err:
                raise UserError(f"bids file {bids}: its settings: {err}") from err
        return Settings()
    data = read_json(path, "settings file")
    if not isinstance(data, dict):
        raise UserError(f"settings file {path} must hold a JSON object of settings")
    try:
        return Settings.from_dict(data)
    except RulesError as err:
        raise UserError(f"settings file {path}: {err}") from err


def load_bids(
    path: Path | None,
    names: list[str],
    settings: Settings | None = None,
) -> list[list[int]] | None:
    """``--bids FILE``: a JSON list of per-round bid lists (or a game record's rounds).

    Checked here against the players and the rounds, by the rules' own arithmetic of cards
    dealt, so a bad file is refused before minutes of replay, not after in the record.
    """
    if path is None:
        return None
    settings = settings or Settings()
    n_players = len(names)
    data = read_json(path, "bids file")
    if isinstance(data, dict) and isinstance(data.get("rounds"), list):
        data = [r.get("bids") for r in data["rounds"] if isinstance(r, dict)]
    if not isinstance(data, list) or not all(
        isinstance(r, list) and len(r) == n_players and all(_is_bid(b) for b in r) for r in data
    ):
        raise UserError(
            f"bids file {path} must be a JSON list of rounds, each a list of {n_players} "
            "whole numbers (one bid per player)"
        )
    rounds = settings.rounds + (1 if settings.tie == "extra_round" else 0)
    if len(data) > rounds:
        raise UserError(
            f"bids file {path} has bids for {len(data)} rounds, but the game has {rounds} "
            "(setting 'rounds'); remove the extra rounds"
        )
    for number, bids in enumerate(data, start=1):
        dealt = cards_in_round(number, n_players, settings.rounds)
        for name, bid in zip(names, bids, strict=True):
            if not 0 <= bid <= dealt:
                raise UserError(
                    f"bids file {path}: round {number}: {name}'s bid {bid} is out of range: "
                    f"bids are 0..{dealt} with {counted(dealt, 'card')} dealt"
                )
    return [list(r) for r in data]


def _is_bid(value: object) -> bool:
    """A whole number: JSON true is a bool to Python's ``int`` check, not a bid of 1."""
    return isinstance(value, int) and not isinstance(value, bool)


def layout_for_source(
    source_path: str | Path, n_players: int, size: tuple[int, int], seats: Path | None = None
) -> SeatLayout:
    """``--seats FILE`` (from ``skullcam calibrate``, rescaled to frames of ``size`` as
    ``skullcam run`` does), else the game folder's meta, else default."""
    if seats is not None:
        layout = SeatLayout.load(seats, size)
    else:
        layout = SeatLayout.default(n_players, size)
        path = Path(source_path)
        meta = game_folder_meta(path) if path.is_dir() else None
        if meta is not None:
            layout = _layout_from_meta(meta, n_players, size) or layout
    if layout.n_players != n_players:
        if seats is not None:
            raise UserError(
                f"the seat calibration {seats} has {layout.n_players} seats but --players is "
                f"{n_players}; run 'skullcam calibrate' again or fix --players"
            )
        raise UserError(
            f"this recording was made with {layout.n_players} players (its meta.json), but "
            f"--players is {n_players}; fix --players"
        )
    return layout


def _layout_from_meta(meta: dict[str, Any], n: int, size: tuple[int, int]) -> SeatLayout | None:
    """A recorded game's own seat layout: our calibration format, or centre + angles."""
    seats = meta.get("seats") or meta.get("seat_layout")
    if not isinstance(seats, dict) and isinstance(meta.get("seat_angles_deg"), list):
        seats = {"angles_degrees": meta["seat_angles_deg"]}  # skullcam synth game's meta.json
    if not isinstance(seats, dict):
        return None
    if seats.get("format"):
        return SeatLayout.from_json(seats)
    try:
        centre = seats.get("centre") or seats.get("center") or [size[0] / 2, size[1] / 2]
        if "angles_degrees" in seats:
            angles = [math.radians(float(a)) for a in seats["angles_degrees"]]
        elif "angles" in seats:
            angles = [float(a) for a in seats["angles"]]
        else:
            return None
        return SeatLayout((float(centre[0]), float(centre[1])), tuple(a % math.tau for a in angles))
    except (TypeError, ValueError, IndexError):
        return None


def replay_source(
    source: FrameSource,
    source_path: str | Path,
    recognizer: Callable[..., Any],
    referee: Referee,
    seats: Path | None = None,
    listener: Listener | None = None,
    frames: Any = None,
) -> Pipeline:
    """Run every frame of ``source`` through a new pipeline; returns it (outcomes, stats)."""
    iterator = iter(frames if frames is not None else source.frames())
    try:
        first = next(iterator)
    except StopIteration:
        raise UserError(f"{source_path} holds no frames") from None
    height, width = first.image.shape[:2]
    layout = layout_for_source(source_path, referee.n, (width, height), seats)
    picture = PictureWatch(str(source_path), live=False)
    pipeline = Pipeline(recognizer, referee, layout, listener=listener, picture=picture)
    pipeline.process(first)
    pipeline.last_frame = first
    pipeline.run(iterator)
    pipeline.finish(pipeline.last_frame)
    return pipeline


def open_replay_source(spec: str, fps: float | None) -> FrameSource:
    """Open a recording for replay: cameras are not recordings."""
    text = str(spec)
    if not text.strip():
        raise UserError("no recording given: SOURCE is a video file or a folder of frames")
    if text.isdigit() or "://" in text or text in ("picamera", "picamera2", "pi"):
        raise UserError(
            f"{text!r} is a camera; replay takes a video file or a folder of frames "
            "(use 'skullcam run --camera' for a live game)"
        )
    if not Path(text).exists():
        raise UserError(f"recording {text} does not exist: give a video file or a folder of frames")
    return open_source(text, fps=fps)
