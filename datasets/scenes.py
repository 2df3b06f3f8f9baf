"""Photographic trick scenes: cards on a table seen by a camera, with exact labels.

Geometry: the table is a plane in millimetres (x right, y towards the bottom of the image,
origin at the centre of the trick). A pinhole camera at 70-100 cm height, tilted up to
``max_tilt_deg`` and looking at the centre, maps table millimetres to image pixels through one
homography; every card, prop and texture goes through it, so labels (the projected card
corners) are exact by construction. A card's corners are ordered top-left, top-right,
bottom-right, bottom-left of the upright face, as in ``vision.Detection.corners``.

Occlusion: while compositing, a label map records which card (or occluder) owns each pixel.
A card's ``visible_fraction`` is its pixels still owned at the end divided by the area of its
whole projected outline (so parts outside the frame count as hidden too); the same is computed
for its two corner marks. Only cards at or above ``SceneConfig.min_visible`` are labelled.

The photometric chain after compositing: uneven lighting and a cast shadow, white balance,
lens or motion blur, sensor noise and a JPEG round trip. Card bending is approximated by a
shading gradient across the face, glare by a specular spot on the glossy face.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TypedDict

import cv2
import numpy as np

from skullcam.datasets import props
from skullcam.datasets.deck import (
    CORNER_MARK_REGIONS,
    CORNER_RADIUS_MM,
    FACE_H,
    FACE_W,
    SIZE_MM,
    rounded_mask,
)
from skullcam.datasets.faces import FACES
from skullcam.frames import WORKING_SIZE
from skullcam.rules import copies_in_deck

CARD_W_MM, CARD_H_MM = float(SIZE_MM[0]), float(SIZE_MM[1])
LAYOUTS = ("seats", "pile", "empty")

# The physical deck, a face as many times as the deck holds it (`copies_in_deck`: five escapes,
# two Loot cards, one of every other face).
PHYSICAL_DECK: tuple[str, ...] = tuple(face for face in FACES for _ in range(copies_in_deck(face)))


@dataclass(frozen=True)
class SceneConfig:
    """Everything random in a scene is drawn within these bounds."""

    width: int = WORKING_SIZE[0]
    height: int = WORKING_SIZE[1]
    min_cards: int = 2
    max_cards: int = 8
    card_length_px: tuple[float, float] = (70.0, 120.0)  # long side at the image centre
    camera_height_mm: tuple[float, float] = (700.0, 1000.0)
    max_tilt_deg: float = 25.0
    layout_weights: tuple[float, float, float] = (0.6, 0.34, 0.06)  # seats, pile, empty
    seat_jitter_deg: float = 25.0
    min_visible: float = 0.5
    p_hand: float = 0.35
    p_clutter: float = 0.5
    p_previous: float = 0.3
    p_backs: float = 0.3
    p_glare: float = 0.3
    p_blur: float = 0.3
    p_motion_blur: float = 0.15
    p_cast_shadow: float = 0.3
    noise_sigma: tuple[float, float] = (1.0, 7.0)
    jpeg_quality: tuple[int, int] = (45, 95)
    photometric: bool = True
    jpeg_round_trip: bool = True  # False: the caller saves the JPEG at meta["jpeg_quality"]
    backgrounds: tuple[Path, ...] = ()


@dataclass
class PlacedCard:
    """One face-up card in a scene, as labelled."""

    face: str
    corners: (
        np.ndarray
    )  # (4, 2) float, image px, TL TR BR BL of the upright face (may leave the frame)
    box: tuple[float, float, float, float]  # axis-aligned around the corners, clipped to the frame
    visible_fraction: float
    corner_visible: tuple[float, float]  # visible fraction of the top-left and bottom-right marks
    role: str = "trick"  # "trick" (this trick), "previous" (an earlier trick at the table's edge)
    seat: int | None = None
    order: int | None = None  # play order within the trick
    crosswise: bool = False
    labelled: bool = False
    marks: tuple[np.ndarray, ...] = ()  # the two corner-mark regions (4, 2) in image px

    def to_json(self) -> dict[str, object]:
        return {
            "face": self.face,
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners],
            "box": [round(float(v), 2) for v in self.box],
            "visible_fraction": round(float(self.visible_fraction), 4),
            "corner_visible": [round(float(v), 4) for v in self.corner_visible],
            "role": self.role,
            "seat": self.seat,
            "order": self.order,
            "crosswise": self.crosswise,
            "labelled": self.labelled,
            "marks": [[[round(float(x), 2), round(float(y), 2)] for x, y in m] for m in self.marks],
        }


@dataclass
class Scene:
    """A rendered scene: BGR image, its face-up cards and a description of how it was made."""

    image: np.ndarray
    cards: list[PlacedCard]
    meta: dict[str, object] = field(default_factory=dict)

    @property
    def labelled(self) -> list[PlacedCard]:
        return [c for c in self.cards if c.labelled]


# ------------------------------------------------------------------------------------ camera


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the table: ``H`` maps table mm (x, y, 1) to image px."""

    H: np.ndarray
    width: int
    height: int
    px_per_mm: float  # scale at the table centre
    height_mm: float
    tilt_deg: float

    @classmethod
    def look_at(
        cls,
        width: int,
        height: int,
        height_mm: float,
        tilt_deg: float,
        azimuth_deg: float,
        card_length_px: float,
        target: tuple[float, float] = (0.0, 0.0),
        roll_deg: float = 0.0,
        principal_offset: tuple[float, float] = (0.0, 0.0),
    ) -> Camera:
        """A camera ``height_mm`` above the table, tilted by ``tilt_deg`` from straight down
        (leaning towards ``azimuth_deg``), looking at ``target``; the focal length is chosen so
        a card at the target is ``card_length_px`` long. Image up stays near table -y, so the
        seat layout (player 0 at the bottom) holds; ``roll_deg`` turns the image slightly."""
        t = math.radians(tilt_deg)
        a = math.radians(azimuth_deg)
        dist = height_mm / max(math.cos(t), 1e-6)
        target3 = np.array([target[0], target[1], 0.0])
        # world: x right, y towards the image bottom, z into the table (right-handed)
        center = target3 + dist * np.array(
            [math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), -math.cos(t)]
        )
        fwd = target3 - center
        fwd /= np.linalg.norm(fwd)
        down = np.array([0.0, 1.0, 0.0]) - fwd[1] * fwd
        down /= np.linalg.norm(down)
        right = np.cross(down, fwd)
        r = math.radians(roll_deg)
        right, down = (
            math.cos(r) * right + math.sin(r) * down,
            -math.sin(r) * right + math.cos(r) * down,
        )
        R = np.stack([right, down, fwd])
        f = card_length_px * dist / CARD_H_MM
        K = np.array(
            [
                [f, 0, width / 2 + principal_offset[0]],
                [0, f, height / 2 + principal_offset[1]],
                [0, 0, 1],
            ]
        )
        tvec = -R @ center
        H = K @ np.column_stack([R[:, 0], R[:, 1], tvec])
        H /= H[2, 2]
        return cls(
            H=H,
            width=width,
            height=height,
            px_per_mm=f / dist,
            height_mm=height_mm,
            tilt_deg=tilt_deg,
        )

    @classmethod
    def random(cls, rng: np.random.Generator, config: SceneConfig) -> Camera:
        return cls.look_at(
            config.width,
            config.height,
            height_mm=float(rng.uniform(*config.camera_height_mm)),
            tilt_deg=float(config.max_tilt_deg * math.sqrt(rng.random())),
            azimuth_deg=float(rng.uniform(0, 360)),
            card_length_px=float(rng.uniform(*config.card_length_px)),
            target=(float(rng.normal(0, 20)), float(rng.normal(0, 20))),
            roll_deg=float(rng.normal(0, 4)),
            principal_offset=(float(rng.normal(0, 6)), float(rng.normal(0, 6))),
        )

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm (n, 2) -> image px (n, 2)."""
        pts = np.asarray(pts_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.H).reshape(-1, 2)

    def unproject(self, pts_px: np.ndarray) -> np.ndarray:
        """Image px (n, 2) -> table mm (n, 2)."""
        pts = np.asarray(pts_px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.H)).reshape(-1, 2)


# --------------------------------------------------------------------------------- placement


@dataclass
class Placement:
    """A card on the table: where (mm), which way its top points, and its look (shading, glare).

    ``heading`` is the direction (radians, table coordinates, y down) in which the top edge of
    the upright face points; a card laid normally in front of a seat has its top towards the
    table centre.
    """

    face: str
    center: tuple[float, float]
    heading: float
    role: str = "trick"
    seat: int | None = None
    order: int | None = None
    face_up: bool = True
    crosswise: bool = False
    bend: float = 0.0  # shading amplitude of the bend
    bend_axis: float = 0.0
    glare: tuple[float, float, float, float] | None = (
        None  # u, v (face fractions), radius, strength
    )

    def face_to_table(self, face_w: int, face_h: int) -> np.ndarray:
        """3x3 matrix from face pixels (of a face image ``face_w`` wide) to table mm."""
        ppm = face_w / CARD_W_MM
        uy = np.array([math.cos(self.heading), math.sin(self.heading)])
        ey = -uy  # face-down direction
        ex = np.array([ey[1], -ey[0]])
        c = np.asarray(self.center, np.float64)
        origin = c - (CARD_W_MM / 2) * ex - (CARD_H_MM / 2) * ey
        return np.array(
            [
                [ex[0] / ppm, ey[0] / ppm, origin[0]],
                [ex[1] / ppm, ey[1] / ppm, origin[1]],
                [0, 0, 1],
            ]
        )

    def corners_mm(self) -> np.ndarray:
        A = self.face_to_table(FACE_W, FACE_H)
        pts = np.array([[0, 0, 1], [FACE_W, 0, 1], [FACE_W, FACE_H, 1], [0, FACE_H, 1]], np.float64)
        return (A @ pts.T).T[:, :2]


class Look(TypedDict):
    """A card's look, as ``Placement`` takes it (``Placement(**look)``)."""

    bend: float
    bend_axis: float
    glare: tuple[float, float, float, float] | None


def random_look(rng: np.random.Generator, p_glare: float) -> Look:
    """Per-card bend shading and glare parameters."""
    glare: tuple[float, float, float, float] | None = None
    if rng.random() < p_glare:
        glare = (
            float(rng.uniform(0.1, 0.9)),
            float(rng.uniform(0.1, 0.9)),
            float(rng.uniform(0.08, 0.3)),
            float(rng.uniform(0.3, 0.9)),
        )
    return {
        "bend": float(rng.uniform(-0.12, 0.12)),
        "bend_axis": float(rng.uniform(0, math.pi)),
        "glare": glare,
    }


def seat_angle(seat: int, n_players: int) -> float:
    """Direction (radians, image/table coords with y down) from the centre to a seat: player 0 at
    the bottom, then clockwise as seen from above (bottom -> left -> top -> right)."""
    return math.pi / 2 + 2 * math.pi * seat / n_players


def seat_placement(
    face: str,
    seat: int,
    n_players: int,
    rng: np.random.Generator,
    radius_mm: float,
    jitter_deg: float,
    crosswise: bool = False,
) -> Placement:
    """A card laid in front of ``seat``: long axis pointing roughly at the centre (top towards
    it), or crosswise (the Tigress declared as an escape)."""
    a = seat_angle(seat, n_players) + float(rng.normal(0, 0.06))
    r = radius_mm * float(rng.uniform(0.85, 1.15))
    center = (r * math.cos(a), r * math.sin(a))
    heading = a + math.pi + math.radians(float(rng.uniform(-jitter_deg, jitter_deg)))
    if crosswise:
        heading += math.pi / 2 * (1 if rng.random() < 0.5 else -1) + math.radians(
            float(rng.uniform(-15, 15))
        )
    elif rng.random() < 0.1:  # laid upside down
        heading += math.pi
    return Placement(face=face, center=center, heading=heading, seat=seat, crosswise=crosswise)


# ------------------------------------------------------------------------------- compositing


class PreparedDeck:
    """Faces at two scales (full and half) plus their rounded masks, ready to warp.

    Warping a 224 x 348 face straight down to ~60 x 100 px aliases; the half-size copy, used
    for cards under 150 px long, fixes that and is faster.
    """

    def __init__(self, deck: dict[str, np.ndarray]) -> None:
        self.full = deck
        self.half = {
            k: cv2.resize(v, (FACE_W // 2, FACE_H // 2), interpolation=cv2.INTER_AREA)
            for k, v in deck.items()
        }
        self.mask_full = rounded_mask(FACE_W, FACE_H, CORNER_RADIUS_MM * FACE_W / CARD_W_MM)
        self.mask_half = cv2.resize(
            self.mask_full, (FACE_W // 2, FACE_H // 2), interpolation=cv2.INTER_AREA
        )
        self.backs: dict[int, np.ndarray] = {}

    def back(self, rng: np.random.Generator) -> np.ndarray:
        key = int(rng.integers(3))
        if key not in self.backs:
            self.backs[key] = props.card_back(FACE_W // 2, FACE_H // 2, np.random.default_rng(key))
        return self.backs[key]


_PREPARED: dict[int, tuple[dict[str, np.ndarray], PreparedDeck]] = {}


def prepare(deck: dict[str, np.ndarray] | PreparedDeck) -> PreparedDeck:
    """A PreparedDeck for ``deck``, cached per deck object."""
    if isinstance(deck, PreparedDeck):
        return deck
    hit = _PREPARED.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    prepared = PreparedDeck(deck)
    _PREPARED.clear()
    _PREPARED[id(deck)] = (deck, prepared)
    return prepared


def _styled_face(img: np.ndarray, pl: Placement) -> np.ndarray:
    """The face with the bend shading and the glare spot applied."""
    if not pl.bend and pl.glare is None:
        return img
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    out = img.astype(np.float32)
    if pl.bend:
        t = (xx / w - 0.5) * math.cos(pl.bend_axis) + (yy / h - 0.5) * math.sin(pl.bend_axis)
        out *= (1.0 + pl.bend * np.cos(math.pi * t * 1.6))[..., None]
    if pl.glare is not None:
        u, v, r, strength = pl.glare
        d2 = ((xx / w - u) ** 2 + ((yy / h - v) * h / w) ** 2) / (r * r)
        out += (255.0 * strength * np.exp(-d2 * 2.5))[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _polygon_area(pts: np.ndarray) -> float:
    x, y = pts[:, 0], pts[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


class Canvas:
    """An image being composited plus the label map that says who owns each pixel.

    Label values: -1 table, -2 occluder (hand, clutter, card back), i >= 0 the i-th face-up card.
    """

    OCCLUDER = -2

    def __init__(self, image: np.ndarray, camera: Camera, deck: PreparedDeck) -> None:
        self.image = image
        self.camera = camera
        self.deck = deck
        self.labels = np.full(image.shape[:2], -1, np.int16)
        self.placements: list[Placement] = []
        self.card_ids: list[int] = []  # label id per placement (-2 for backs)

    def add_card(
        self, pl: Placement, rng: np.random.Generator | None = None, shadow: bool = True
    ) -> None:
        cam = self.camera
        full_len = np.linalg.norm(np.diff(cam.project(pl.corners_mm())[[0, 3]], axis=0))
        half = full_len < 150
        if pl.face_up:
            src = (self.deck.half if half else self.deck.full)[pl.face]
        else:
            src = self.deck.back(rng if rng is not None else np.random.default_rng(0))
            if not half:
                src = cv2.resize(src, (FACE_W, FACE_H))
        mask_src = self.deck.mask_half if half else self.deck.mask_full
        src = _styled_face(src, pl)
        h, w = src.shape[:2]
        M = cam.H @ pl.face_to_table(w, h)
        corners = cv2.perspectiveTransform(
            np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float64), M
        ).reshape(4, 2)
        x0 = max(0, math.floor(corners[:, 0].min()) - 3)
        y0 = max(0, math.floor(corners[:, 1].min()) - 3)
        x1 = min(cam.width, math.ceil(corners[:, 0].max()) + 4)
        y1 = min(cam.height, math.ceil(corners[:, 1].max()) + 4)
        label = len([i for i in self.card_ids if i >= 0]) if pl.face_up else self.OCCLUDER
        self.placements.append(pl)
        self.card_ids.append(label)
        if x1 <= x0 or y1 <= y0:
            return
        T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ M
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(
            src, T, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
        )
        alpha = cv2.warpPerspective(
            mask_src, T, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
        )
        roi = self.image[y0:y1, x0:x1]
        a = alpha.astype(np.float32)[..., None] / 255.0
        if shadow:
            sh = cv2.GaussianBlur(np.roll(alpha, (2, 2), axis=(0, 1)), (0, 0), 1.5).astype(
                np.float32
            )[..., None]
            roi[:] = (roi * (1 - 0.3 * sh / 255.0)).astype(np.uint8)
        roi[:] = (roi * (1 - a) + warped * a).astype(np.uint8)
        self.labels[y0:y1, x0:x1][alpha > 127] = label

    def add_occluder(self, draw: Callable[[np.ndarray, np.ndarray], object]) -> None:
        """Run ``draw(image, mask)``; pixels it sets in ``mask`` become occluded."""
        mask = np.zeros(self.labels.shape, np.uint8)
        draw(self.image, mask)
        self.labels[mask > 127] = self.OCCLUDER

    def placed_cards(self, min_visible: float) -> list[PlacedCard]:
        """Face-up cards with their visibility, in placement order."""
        cam = self.camera
        counts = np.bincount(
            (self.labels.ravel() + 2).astype(np.int64), minlength=len(self.card_ids) + 2
        )
        out = []
        for pl, label in zip(self.placements, self.card_ids, strict=True):
            if label < 0:
                continue
            corners = cam.project(pl.corners_mm())
            area = _polygon_area(corners)
            rounding = (4 - math.pi) * (CORNER_RADIUS_MM * cam.px_per_mm) ** 2
            visible = min(1.0, counts[label + 2] / max(area - rounding, 1.0))
            marks = []
            mark_quads = []
            for fx0, fy0, fx1, fy1 in CORNER_MARK_REGIONS:
                A = pl.face_to_table(FACE_W, FACE_H)
                reg = np.array(
                    [
                        [fx0 * FACE_W, fy0 * FACE_H, 1],
                        [fx1 * FACE_W, fy0 * FACE_H, 1],
                        [fx1 * FACE_W, fy1 * FACE_H, 1],
                        [fx0 * FACE_W, fy1 * FACE_H, 1],
                    ],
                    np.float64,
                )
                reg_px = cam.project((A @ reg.T).T[:, :2])
                marks.append(self._visible_in(reg_px, label))
                mark_quads.append(reg_px.astype(np.float32))
            x1, y1 = corners.min(axis=0)
            x2, y2 = corners.max(axis=0)
            box = (
                float(np.clip(x1, 0, cam.width)),
                float(np.clip(y1, 0, cam.height)),
                float(np.clip(x2, 0, cam.width)),
                float(np.clip(y2, 0, cam.height)),
            )
            out.append(
                PlacedCard(
                    face=pl.face,
                    corners=corners.astype(np.float32),
                    box=box,
                    visible_fraction=float(visible),
                    corner_visible=(marks[0], marks[1]),
                    role=pl.role,
                    seat=pl.seat,
                    order=pl.order,
                    crosswise=pl.crosswise,
                    labelled=bool(visible >= min_visible),
                    marks=tuple(mark_quads),
                )
            )
        return out

    def _visible_in(self, poly: np.ndarray, label: int) -> float:
        area = _polygon_area(poly)
        if area < 1:
            return 0.0
        x0 = max(0, math.floor(poly[:, 0].min()))
        y0 = max(0, math.floor(poly[:, 1].min()))
        x1 = min(self.camera.width, math.ceil(poly[:, 0].max()) + 1)
        y1 = min(self.camera.height, math.ceil(poly[:, 1].max()) + 1)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(m, [np.round((poly - [x0, y0]) * 4).astype(np.int32)], 1, cv2.LINE_8, shift=2)
        owned = int(np.count_nonzero((self.labels[y0:y1, x0:x1] == label) & (m > 0)))
        return float(min(1.0, owned / area))


def render_table(
    camera: Camera, rng: np.random.Generator, backgrounds: tuple[Path, ...] = ()
) -> np.ndarray:
    """The bare table as the camera sees it (texture drawn in table mm, then projected)."""
    w, h = camera.width, camera.height
    corners_mm = camera.unproject(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    lo = corners_mm.min(axis=0) - 10
    hi = corners_mm.max(axis=0) + 10
    ppm = camera.px_per_mm
    tw, th = (hi - lo) * ppm
    scale = min(0.6, 700.0 / max(tw, th))  # the warp smooths anyway; keep the texture cheap
    ppm *= scale
    tw, th = int((hi[0] - lo[0]) * ppm) + 1, int((hi[1] - lo[1]) * ppm) + 1
    tex = props.table_texture(rng, tw, th, ppm, backgrounds)
    S = np.array([[1 / ppm, 0, lo[0]], [0, 1 / ppm, lo[1]], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(
        tex, camera.H @ S, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )


@dataclass(frozen=True)
class Lighting:
    """Per-scene (or per-game) photometric state: lighting field and white balance."""

    field: np.ndarray  # (h, w, 3) float32 multiplier, white balance included
    gains: np.ndarray  # (3,) float32 BGR gains

    @classmethod
    def random(cls, rng: np.random.Generator, w: int, h: int, config: SceneConfig) -> Lighting:
        full_w, full_h = w, h
        w, h = w // 4, h // 4  # smooth fields: compute small, scale up
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = float(rng.uniform(0, 2 * math.pi))
        ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
        fld = float(rng.uniform(0.75, 1.15)) + float(rng.uniform(0, 0.5)) * ramp
        fld = fld * (
            1 - float(rng.uniform(0, 0.3)) * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2) * 2
        )
        if rng.random() < config.p_cast_shadow:
            m: np.ndarray = np.zeros((h, w), np.uint8)
            pts = rng.uniform(
                [-0.3 * w, -0.3 * h], [1.3 * w, 1.3 * h], (int(rng.integers(3, 6)), 2)
            )
            cv2.fillPoly(m, [cv2.convexHull(pts.astype(np.int32))], 255)
            m = cv2.GaussianBlur(m, (0, 0), float(rng.uniform(2, 8)))
            fld = fld * (1 - float(rng.uniform(0.2, 0.5)) * m.astype(np.float32) / 255.0)
        gains = rng.uniform(0.85, 1.15, 3).astype(np.float32)
        fld = cv2.resize(fld.astype(np.float32), (full_w, full_h), interpolation=cv2.INTER_LINEAR)
        return cls(field=fld[..., None] * gains[None, None, :], gains=gains)


_NOISE_BANK: dict[tuple[int, int], np.ndarray] = {}


def _noise(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A unit-variance Gaussian noise field (h, w): a random shift of one fixed field per size.

    Drawing 300k normals per scene cost a sixth of the render time; a rolled copy of a field
    drawn once (from a fixed seed, so still deterministic) looks the same to a detector.
    """
    bank = _NOISE_BANK.get((h, w))
    if bank is None:
        bank = np.random.default_rng(20240611).standard_normal((h, w), dtype=np.float32)
        _NOISE_BANK[(h, w)] = bank
    dy, dx = int(rng.integers(h)), int(rng.integers(w))
    out = np.roll(bank, (dy, dx), axis=(0, 1))
    return out if rng.random() < 0.5 else out[::-1, ::-1]


def photometric(
    img: np.ndarray, rng: np.random.Generator, config: SceneConfig, light: Lighting
) -> tuple[np.ndarray, int]:
    """Lighting, white balance, blur, noise and JPEG artefacts, in the order a camera adds them.

    Returns the image and the JPEG quality drawn for it; the JPEG round trip itself happens here
    only with ``config.jpeg_round_trip`` (the dataset writer instead saves at that quality).
    """
    out = img.astype(np.float32) * light.field
    if rng.random() < config.p_blur:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 1.4)))
    if rng.random() < config.p_motion_blur:
        k = int(rng.integers(3, 9))
        kernel = np.zeros((k, k), np.float32)
        a = float(rng.uniform(0, math.pi))
        c = (k - 1) / 2
        cv2.line(
            kernel,
            (int(c - c * math.cos(a)), int(c - c * math.sin(a))),
            (int(c + c * math.cos(a)), int(c + c * math.sin(a))),
            1.0,
            1,
        )
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1.0))
    sigma = float(rng.uniform(*config.noise_sigma))
    out += _noise(rng, out.shape[0], out.shape[1])[..., None] * sigma
    out = np.clip(out, 0, 255).astype(np.uint8)
    quality = int(rng.integers(config.jpeg_quality[0], config.jpeg_quality[1] + 1))
    if config.jpeg_round_trip:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out, quality


def compose(
    deck: dict[str, np.ndarray] | PreparedDeck,
    camera: Camera,
    background: np.ndarray,
    placements: list[Placement],
    occluders: tuple[Callable[[np.ndarray, np.ndarray], object], ...] = (),
    min_visible: float = 0.5,
    rng: np.random.Generator | None = None,
) -> tuple[np.ndarray, list[PlacedCard]]:
    """Lay ``placements`` (in order: later ones on top) on a copy of ``background``, then draw
    ``occluders``; returns the image (before any photometric effect) and the face-up cards with
    their visibility. The building block of scenes, game frames and the geometry tests."""
    canvas = Canvas(background.copy(), camera, prepare(deck))
    for pl in placements:
        canvas.add_card(pl, rng)
    for draw in occluders:
        canvas.add_occluder(draw)
    return canvas.image, canvas.placed_cards(min_visible)


# ---------------------------------------------------------------------------------- the scene


def _edge_point(camera: Camera, rng: np.random.Generator) -> tuple[float, float]:
    """A table point near an image edge (mm), where earlier tricks are pushed."""
    w, h = camera.width, camera.height
    side = int(rng.integers(4))
    t = float(rng.uniform(0.1, 0.9))
    m = float(rng.uniform(-0.02, 0.08))
    px = [(t * w, h * (1 - m)), (w * m, t * h), (t * w, h * m), (w * (1 - m), t * h)][side]
    return tuple(camera.unproject(np.array([px]))[0])


def render_scene(
    deck: dict[str, np.ndarray] | PreparedDeck,
    rng: np.random.Generator,
    config: SceneConfig | None = None,
) -> Scene:
    """One random trick scene from ``deck`` (face id -> BGR image); a pure function of ``rng``."""
    cfg = config or SceneConfig()
    prepared = prepare(deck)
    camera = Camera.random(rng, cfg)
    image = render_table(camera, rng, cfg.backgrounds)
    canvas = Canvas(image, camera, prepared)
    layout = LAYOUTS[int(rng.choice(3, p=np.asarray(cfg.layout_weights) / sum(cfg.layout_weights)))]
    pool = list(PHYSICAL_DECK)
    rng.shuffle(pool)
    w, h = cfg.width, cfg.height
    ppm = camera.px_per_mm

    # earlier tricks at the table's edge: face-down stacks, or a face-up trick pushed aside
    if rng.random() < cfg.p_backs:
        c = _edge_point(camera, rng)
        for _ in range(int(rng.integers(1, 6))):
            canvas.add_card(
                Placement(
                    face="escape",
                    center=(c[0] + float(rng.normal(0, 6)), c[1] + float(rng.normal(0, 6))),
                    heading=float(rng.uniform(0, 2 * math.pi)),
                    role="back",
                    face_up=False,
                ),
                rng,
            )
    if rng.random() < cfg.p_previous:
        c = _edge_point(camera, rng)
        for _ in range(int(rng.integers(1, 5))):
            face = pool.pop()
            pl = Placement(
                face=face,
                center=(c[0] + float(rng.normal(0, 18)), c[1] + float(rng.normal(0, 18))),
                heading=float(rng.uniform(0, 2 * math.pi)),
                role="previous",
                **random_look(rng, cfg.p_glare),
            )
            canvas.add_card(pl, rng)
    n_under = int(rng.integers(0, 3)) if rng.random() < cfg.p_clutter else 0
    for _ in range(n_under):
        c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        canvas.add_occluder(partial(props.draw_clutter, center=c, px_per_mm=ppm, rng=rng))

    n_players = int(rng.integers(max(2, cfg.min_cards), 9))
    n_cards = 0
    if layout != "empty":
        lo = min(cfg.min_cards, n_players)
        n_cards = (
            n_players
            if rng.random() < 0.5
            else int(rng.integers(lo, min(n_players, cfg.max_cards) + 1))
        )
        n_cards = max(lo, min(n_cards, cfg.max_cards))
    leader = int(rng.integers(n_players))
    radius = CARD_H_MM * float(rng.uniform(0.9, 1.45)) * (1.0 + 0.05 * max(0, n_players - 5))
    for k in range(n_cards):
        face = pool.pop()
        if layout == "seats":
            seat = (leader + k) % n_players
            crosswise = face == "tigress" and rng.random() < 0.5
            pl = seat_placement(face, seat, n_players, rng, radius, cfg.seat_jitter_deg, crosswise)
        else:
            r = CARD_H_MM * 0.45 * math.sqrt(float(rng.random()))
            a = float(rng.uniform(0, 2 * math.pi))
            pl = Placement(
                face=face,
                center=(r * math.cos(a), r * math.sin(a)),
                heading=float(rng.uniform(0, 2 * math.pi)),
            )
            seat = (leader + k) % n_players
            pl.seat = seat
        pl.order = k
        look = random_look(rng, cfg.p_glare)
        pl.bend, pl.bend_axis, pl.glare = look["bend"], look["bend_axis"], look["glare"]
        canvas.add_card(pl, rng)

    # things on top: clutter, then hands and arms reaching in
    n_over = int(rng.integers(0, 2)) if rng.random() < cfg.p_clutter else 0
    for _ in range(n_over):
        c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        canvas.add_occluder(partial(props.draw_clutter, center=c, px_per_mm=ppm, rng=rng))
    n_hands = (1 + int(rng.random() < 0.3)) if rng.random() < cfg.p_hand else 0
    for _ in range(n_hands):
        trick = [p for p in canvas.placements if p.role == "trick"]
        if trick:
            tgt_mm = trick[int(rng.integers(len(trick)))].center
            target = tuple(camera.project(np.array([tgt_mm]))[0])
        else:
            target = (float(rng.uniform(0.2, 0.8) * w), float(rng.uniform(0.2, 0.8) * h))
        start, end = props.random_arm_ends(rng, w, h, target)
        canvas.add_occluder(partial(props.draw_arm, start=start, end=end, px_per_mm=ppm, rng=rng))

    cards = canvas.placed_cards(cfg.min_visible)
    image = canvas.image
    quality = 95
    if cfg.photometric:
        image, quality = photometric(image, rng, cfg, Lighting.random(rng, w, h, cfg))
    meta = {
        "jpeg_quality": quality,
        "layout": layout,
        "players": n_players,
        "leader": leader,
        "camera": {
            "height_mm": round(camera.height_mm, 1),
            "tilt_deg": round(camera.tilt_deg, 2),
            "px_per_mm": round(camera.px_per_mm, 4),
        },
        "hands": n_hands,
        "clutter": n_under + n_over,
    }
    return Scene(image=image, cards=cards, meta=meta)


def cut_by_frame(corners: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether a card's outline runs past the edge of a frame ``size`` (width, height): such a
    card is labelled by its part in the frame (``obb_line``) and reported apart in evaluation."""
    width, height = size
    xs, ys = corners[:, 0], corners[:, 1]
    return bool(xs.min() < 0 or ys.min() < 0 or xs.max() > width or ys.max() > height)


def obb_line(cls: int, corners: np.ndarray, width: int, height: int) -> str:
    """A YOLO OBB label line: class and four corners normalized to [0, 1].

    A quad that leaves the frame is labelled by the minimum-area rectangle around its visible
    part (ultralytics refuses coordinates outside [0, 1]).
    """
    pts: np.ndarray = np.asarray(corners, np.float32)
    if cut_by_frame(pts, (width, height)):
        frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        area, inter = cv2.intersectConvexConvex(cv2.convexHull(pts), frame)
        if inter is not None and area > 1:
            pts = cv2.boxPoints(cv2.minAreaRect(inter.reshape(-1, 2)))
        pts = np.clip(pts, 0, [width, height])
    norm = pts / np.array([width, height], np.float32)
    norm = np.clip(norm, 0.0, 1.0)
    return f"{cls} " + " ".join(f"{v:.6f}" for v in norm.ravel())


def obb_label_line(card: PlacedCard, width: int, height: int) -> str:
    """The label line of a whole card (class 0)."""
    return obb_line(0, card.corners, width, height)


def label_lines(
    cards: list[PlacedCard], width: int, height: int, min_visible: float, marks: bool
) -> list[str]:
    """The label file of a scene: class 0 for each labelled card and, with ``marks``, class 1 for
    each corner mark (number/letter and suit mark) at least ``min_visible`` visible."""
    lines = [obb_label_line(c, width, height) for c in cards if c.labelled]
    if marks:
        for c in cards:
            for quad, vis in zip(c.marks, c.corner_visible, strict=True):
                if vis >= min_visible:
                    lines.append(obb_line(1, quad, width, height))
    return lines
