"""Seat zones: which player a card on the table belongs to, from where it lies.

Players sit around the table; each lays their card in front of them, between themselves and the
table centre. So a card's *direction* from the table centre names its seat: the seat whose
direction is nearest. A :class:`SeatLayout` is the table centre plus one direction per seat,
clockwise as seen from above.

Angles are in image coordinates (``atan2(dy, dx)`` with y pointing down), so 0 is the right
edge, pi/2 the bottom, pi the left and 3pi/2 the top. Going bottom -> left -> top -> right is
clockwise on the image, which is clockwise seen from above a table filmed from above.

The default layout (interfaces.md): players evenly spaced around the image centre, player 0 at
the bottom centre, then clockwise. ``skullcam calibrate`` replaces it with measured seat
directions (:meth:`SeatLayout.from_points`) or a turned start (:meth:`SeatLayout.evenly`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skullcam.errors import UserError
from skullcam.files import make_folder, read_json, write_atomic
from skullcam.frames import WORKING_SIZE

if TYPE_CHECKING:  # only for annotations: a point may be a track's numpy centre
    import numpy as np

TAU = 2.0 * math.pi
BOTTOM = math.pi / 2.0

DIRECTIONS = {"right": 0.0, "bottom": math.pi / 2.0, "left": math.pi, "top": 1.5 * math.pi}
"""Named directions for ``--first-seat`` (image coordinates, y down)."""

FORMAT = "skullcam-seats/1"


def angle_of(point: Sequence[float] | np.ndarray, centre: Sequence[float]) -> float:
    """Direction of ``point`` seen from ``centre``, in ``[0, 2 pi)``, image coordinates."""
    return math.atan2(point[1] - centre[1], point[0] - centre[0]) % TAU


def angular_distance(a: float, b: float) -> float:
    """Smallest absolute difference between two directions, in ``[0, pi]``."""
    d = (a - b) % TAU
    return min(d, TAU - d)


def turn_between(a: float, b: float) -> float:
    """The signed turn from direction ``b`` to ``a``, in ``[-pi, pi)``: positive is clockwise
    on the image."""
    return (a - b + math.pi) % TAU - math.pi


def centroid(points: Sequence[Sequence[float]]) -> tuple[float, float]:
    """The mean of ``points``: the table centre, from one card in front of each player."""
    return (
        sum(float(p[0]) for p in points) / len(points),
        sum(float(p[1]) for p in points) / len(points),
    )


def parse_direction(text: str) -> float:
    """``bottom``/``left``/``top``/``right`` or a number of degrees (image coordinates)."""
    key = text.strip().lower()
    if key in DIRECTIONS:
        return DIRECTIONS[key]
    try:
        degrees = float(key)
    except ValueError:
        degrees = math.nan
    if not math.isfinite(degrees):  # nan and inf parse as floats but name no direction
        raise UserError(f"unknown seat direction {text!r}: use bottom, left, top, right or degrees")
    return math.radians(degrees) % TAU


@dataclass(frozen=True)
class SeatLayout:
    """Table centre (pixels) and each seat's direction from it, seats in clockwise order."""

    centre: tuple[float, float]
    angles: tuple[float, ...]
    #: The (width, height) of the frames the calibration was made on, when known: pixels mean
    #: nothing without it, and a camera set to another resolution must rescale the layout.
    frame_size: tuple[int, int] | None = None

    @property
    def n_players(self) -> int:
        return len(self.angles)

    @classmethod
    def evenly(
        cls, n_players: int, size: tuple[int, int] = WORKING_SIZE, first: float = BOTTOM
    ) -> SeatLayout:
        """``n_players`` evenly spaced around the image centre, seat 0 towards ``first``."""
        if not 2 <= n_players <= 8:
            raise UserError(f"{n_players} players: Skull King is played by 2 to 8")
        width, height = size
        step = TAU / n_players
        angles = tuple((first + k * step) % TAU for k in range(n_players))
        return cls(centre=(width / 2.0, height / 2.0), angles=angles, frame_size=(width, height))

    @classmethod
    def default(cls, n_players: int, size: tuple[int, int] = WORKING_SIZE) -> SeatLayout:
        """The layout of interfaces.md: seat 0 at the bottom centre, then clockwise."""
        return cls.evenly(n_players, size, BOTTOM)

    @classmethod
    def from_points(
        cls,
        points: Sequence[Sequence[float]],
        centre: Sequence[float] | None = None,
        first: float = BOTTOM,
    ) -> SeatLayout:
        """Seats from one card (or marker) in front of each player, as seen in one frame.

        The centre defaults to the points' mean. Seats are numbered clockwise starting with the
        point whose direction is nearest ``first`` (the bottom of the image unless told).
        """
        if not 2 <= len(points) <= 8:
            raise UserError(
                f"found {len(points)} seat positions; calibration needs one card in front of "
                "each of 2 to 8 players"
            )
        c = centroid(points) if centre is None else (float(centre[0]), float(centre[1]))
        angles = sorted(angle_of(p, c) for p in points)
        start = min(range(len(angles)), key=lambda i: angular_distance(angles[i], first))
        ordered = tuple(angles[(start + k) % len(angles)] for k in range(len(angles)))
        return cls(centre=c, angles=ordered)

    @property
    def half_gap(self) -> float:
        """Half the narrowest angle between neighbouring seats: a turn of the picture this large
        can no longer be told from the cards having moved one seat on."""
        ordered = sorted(self.angles)
        gaps = [(b - a) % TAU for a, b in zip(ordered, ordered[1:] + ordered[:1], strict=True)]
        return min(gaps) / 2.0 if len(gaps) > 1 else math.pi

    def turned(self, turn: float) -> SeatLayout:
        """The same seats with every direction turned by ``turn`` radians: a camera turned
        about its axis turns every direction in its picture alike."""
        return replace(self, angles=tuple((a + turn) % TAU for a in self.angles))

    def seat_of(self, point: Sequence[float] | np.ndarray) -> int:
        """The seat whose direction is nearest the point's direction from the centre."""
        a = angle_of(point, self.centre)
        return min(range(len(self.angles)), key=lambda i: angular_distance(a, self.angles[i]))

    def seat_offset(self, point: Sequence[float] | np.ndarray) -> float:
        """How far (radians) the point's direction is from its seat's: 0 squarely in front."""
        a = angle_of(point, self.centre)
        return min(angular_distance(a, s) for s in self.angles)

    def seat_margin(self, point: Sequence[float] | np.ndarray) -> float:
        """How clearly a point is in its seat: the gap (radians) between nearest and runner-up."""
        a = angle_of(point, self.centre)
        d = sorted(angular_distance(a, s) for s in self.angles)
        return d[1] - d[0] if len(d) > 1 else math.pi

    def scaled_to(self, size: tuple[int, int]) -> SeatLayout:
        """The same seats on frames of ``size``: the centre moves with the picture, and each
        seat's direction with it (a direction bends when width and height scale apart)."""
        if self.frame_size is None or tuple(self.frame_size) == tuple(size):
            return self
        sx, sy = size[0] / self.frame_size[0], size[1] / self.frame_size[1]
        angles = tuple(math.atan2(math.sin(a) * sy, math.cos(a) * sx) % TAU for a in self.angles)
        centre = (self.centre[0] * sx, self.centre[1] * sy)
        return SeatLayout(centre=centre, angles=angles, frame_size=(int(size[0]), int(size[1])))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "players": self.n_players,
            "centre": [round(self.centre[0], 2), round(self.centre[1], 2)],
            "angles_degrees": [round(math.degrees(a), 3) for a in self.angles],
        }
        if self.frame_size is not None:
            out["frame_size"] = list(self.frame_size)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatLayout:
        field = "format"  # which one a bad value is said of: Python's own words name none
        try:
            if data.get("format") != FORMAT:
                raise ValueError(f"it is {data.get('format')!r}, expected {FORMAT!r}")
            field = "centre"
            centre = (float(data["centre"][0]), float(data["centre"][1]))
            field = "angles_degrees"
            angles = tuple(math.radians(float(a)) % TAU for a in data["angles_degrees"])
            field = "centre or angles_degrees"
            if not all(math.isfinite(v) for v in (*centre, *angles)):
                raise ValueError("a value is not a finite number")
            field = "frame_size"
            size = data.get("frame_size")
            frame_size = None if size is None else (int(size[0]), int(size[1]))
            if frame_size is not None and min(frame_size) <= 0:
                raise ValueError(f"{size!r} is not a picture's width and height")
        except KeyError:
            said = f"no {field!r}" if field not in data else f"its {field!r} is not valid"
            raise UserError(
                f"bad seat calibration: {said}; run 'skullcam calibrate' again"
            ) from None
        except (TypeError, ValueError, IndexError) as err:
            raise UserError(
                f"bad seat calibration: its {field!r} is not valid ({err}); run"
                " 'skullcam calibrate' again"
            ) from None
        if not 2 <= len(angles) <= 8:
            raise UserError("bad seat calibration: 2 to 8 seats; run 'skullcam calibrate' again")
        return cls(centre=centre, angles=angles, frame_size=frame_size)

    def save(self, path: Path) -> None:
        """Write atomically (temp file + rename) so a crash never leaves half a calibration."""
        path = Path(path)
        make_folder(path.parent, "data folder")
        write_atomic(path, json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def load(cls, path: Path, size: tuple[int, int] | None = None) -> SeatLayout:
        """The calibration saved in ``path``; with ``size``, on frames of that (width,
        height), rescaled when it was made on frames of another (:meth:`scaled_to`). Every
        caller that applies it to frames gives their size: ``skullcam replay --seats`` used a
        640 x 480 calibration as it was on 1280 x 720 frames, its centre in the picture's
        top-left quarter, where ``skullcam run`` rescaled it."""
        layout = cls._read(path)
        return layout if size is None else layout.scaled_to(size)

    @classmethod
    def _read(cls, path: Path) -> SeatLayout:
        try:
            data = read_json(path, "seat calibration")
        except UserError as err:
            raise UserError(f"{err}; run 'skullcam calibrate' again") from None
        if not isinstance(data, dict):
            raise UserError(f"bad seat calibration {path}; run 'skullcam calibrate' again")
        try:
            return cls.from_json(data)
        except UserError as err:
            raise UserError(f"{path}: {err}") from None


CALIBRATION_FILE = "seats.json"


def layout_for(
    n_players: int, data_dir: Path | None = None, size: tuple[int, int] = WORKING_SIZE
) -> SeatLayout:
    """The calibrated layout in ``data_dir`` when it matches ``n_players`` (rescaled to frames
    of ``size`` when it was made on another), else the default."""
    if data_dir is not None:
        path = Path(data_dir) / CALIBRATION_FILE
        if path.is_file():
            layout = SeatLayout.load(path, size)
            if layout.n_players == n_players:
                return layout
    return SeatLayout.default(n_players, size)


def is_crosswise(angle: float, point: Sequence[float], centre: Sequence[float]) -> bool:
    """The Tigress convention (architecture.md): is a card laid across its line to the centre?

    ``angle`` is the card's long axis (radians, any half-turn). Crosswise means the long axis is
    within 45 degrees of perpendicular to the line from the card to the table centre; such a
    Tigress is played as an escape, otherwise as a pirate.
    """
    return crosswise_degrees(angle, point, centre) > 45.0


def crosswise_degrees(angle: float, point: Sequence[float], centre: Sequence[float]) -> float:
    """Angle in degrees (0..90) between a card's long axis and its line to the centre."""
    radial = math.atan2(centre[1] - point[1], centre[0] - point[0])
    d = (angle - radial) % math.pi
    return math.degrees(min(d, math.pi - d))
