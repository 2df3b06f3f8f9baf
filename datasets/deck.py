"""Stand-in Skull King decks drawn procedurally, and the deck folder format.

A deck is a folder with one ``<face-id>.png`` per face (69) and ``manifest.json``. The stand-in
deck is drawn here with OpenCV primitives (no photographs of the real cards exist on these
machines); a user's enrolled deck of photos uses the same folder format, so scenes, games and
the recognizer work on either.

Faces are 224 x 348 px (56 x 87 mm at 4 px/mm). The design goal is that every face is
distinguishable at the size a card has in a 640 x 480 camera frame (about 80 x 120 px): large
suit colour fields, a large corner number with its suit mark (6 and 9 underlined), and for every
special card a distinct picture, background colour and letter mark. Two art styles exist so the
enrollment feature can be tested on art the recognizer never saw:

* ``classic``: white border, numbers in white corner boxes, a central emblem on a light oval
  (parrot, chest, map, Jolly Roger), specials on radial rays with a round letter mark.
* ``alt``: cream border, numbers in white on dark top/bottom bands, a different emblem per suit
  (feather, gem, compass rose, crossed swords), a different palette and font, specials framed
  in an arch on diagonal stripes with a square letter mark.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from skullcam.datasets.faces import FACES, split_number
from skullcam.errors import UserError
from skullcam.files import make_folder

PX_PER_MM = 4
SIZE_MM = (56, 87)
FACE_W = SIZE_MM[0] * PX_PER_MM  # 224
FACE_H = SIZE_MM[1] * PX_PER_MM  # 348
CORNER_RADIUS_MM = 3.5
DECK_FORMAT = "skullcam-deck/1"
STYLES = ("classic", "alt")

# Corner-mark regions in face fractions (x0, y0, x1, y1): the top-left one and its 180 degree
# twin. The scene generator reports how much of each stays visible.
CORNER_MARK_REGIONS: tuple[tuple[float, float, float, float], ...] = (
    (0.0, 0.0, 0.33, 0.33),
    (0.67, 0.67, 1.0, 1.0),
)

Color = tuple[int, int, int]
AA = cv2.LINE_AA


@dataclass(frozen=True)
class Style:
    """Palette, font and layout switches of one art style."""

    name: str
    border: Color
    suit_colors: dict[str, Color]
    font: int
    number_thickness: int
    special_colors: dict[str, Color]


CLASSIC = Style(
    name="classic",
    border=(250, 250, 250),
    suit_colors={
        "green": (60, 150, 40),
        "yellow": (30, 195, 240),
        "purple": (150, 50, 125),
        "black": (40, 35, 35),
    },
    font=cv2.FONT_HERSHEY_DUPLEX,
    number_thickness=5,
    special_colors={
        "escape": (215, 200, 170),
        "pirate-rosie": (70, 40, 200),
        "pirate-bendt": (40, 90, 150),
        "pirate-rascal": (170, 90, 30),
        "pirate-juanita": (110, 150, 20),
        "pirate-harry": (110, 110, 100),
        "tigress": (20, 120, 240),
        "skull-king": (30, 20, 120),
        "mermaid-alyra": (170, 160, 20),
        "mermaid-sirena": (150, 40, 210),
        "loot": (30, 70, 110),
        "kraken": (50, 20, 70),
        "white-whale": (100, 50, 10),
    },
)

ALT = Style(
    name="alt",
    border=(200, 232, 244),
    suit_colors={
        "green": (100, 185, 110),
        "yellow": (40, 150, 245),
        "purple": (185, 85, 100),
        "black": (70, 45, 25),
    },
    font=cv2.FONT_HERSHEY_COMPLEX,
    number_thickness=4,
    special_colors={
        "escape": (160, 175, 150),
        "pirate-rosie": (120, 90, 230),
        "pirate-bendt": (60, 140, 190),
        "pirate-rascal": (210, 140, 80),
        "pirate-juanita": (80, 120, 40),
        "pirate-harry": (80, 70, 60),
        "tigress": (60, 170, 250),
        "skull-king": (20, 30, 90),
        "mermaid-alyra": (140, 200, 90),
        "mermaid-sirena": (190, 120, 240),
        "loot": (60, 110, 150),
        "kraken": (90, 40, 40),
        "white-whale": (160, 110, 40),
    },
)

_STYLES = {"classic": CLASSIC, "alt": ALT}

# Letter marks of the specials (drawn in the corners next to their pictures).
SPECIAL_MARKS: dict[str, str] = {
    "escape": "E",
    "pirate-rosie": "R",
    "pirate-bendt": "B",
    "pirate-rascal": "Ra",
    "pirate-juanita": "J",
    "pirate-harry": "H",
    "tigress": "T",
    "skull-king": "SK",
    "mermaid-alyra": "A",
    "mermaid-sirena": "S",
    "loot": "L",
    "kraken": "K",
    "white-whale": "W",
}

WHITE: Color = (255, 255, 255)
BLACK: Color = (20, 20, 20)
GOLD: Color = (40, 190, 230)
SKIN: Color = (150, 185, 225)


def get_style(name: str) -> Style:
    """The named art style; a clear error lists the known ones."""
    try:
        return _STYLES[name]
    except KeyError:
        raise UserError(f"unknown deck style {name!r}: choose one of {', '.join(STYLES)}") from None


# ---------------------------------------------------------------------------------- helpers


def _shade(color: Color, factor: float) -> Color:
    """The colour scaled towards black (<1) or white (>1)."""
    if factor <= 1.0:
        return tuple(int(c * factor) for c in color)  # type: ignore[return-value]
    return tuple(int(c + (255 - c) * (factor - 1.0)) for c in color)  # type: ignore[return-value]


def _ink_for(color: Color) -> Color:
    """Black or white, whichever reads better on ``color``."""
    b, g, r = color
    return BLACK if (0.114 * b + 0.587 * g + 0.299 * r) > 140 else WHITE


def rounded_mask(w: int, h: int, radius: float) -> np.ndarray:
    """A uint8 mask (255 inside) of a ``w`` x ``h`` rectangle with rounded corners."""
    mask = np.zeros((h, w), np.uint8)
    r = max(1, round(radius))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, AA)
    return mask


def _fit_text(
    img: np.ndarray,
    text: str,
    box: tuple[int, int, int, int],
    font: int,
    color: Color,
    thickness: int,
    underline: bool = False,
) -> None:
    """Draw ``text`` centred in ``box`` (x0, y0, x1, y1), as large as fits."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    (tw, th), base = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min(bw / max(tw, 1), bh / max(th + (base if underline else 0), 1))
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    ox = x0 + (bw - tw) // 2
    oy = y0 + (bh + th) // 2 - (base // 2 if underline else 0)
    cv2.putText(img, text, (ox, oy), font, scale, color, thickness, AA)
    if underline:
        uy = oy + max(3, base // 2 + 2)
        cv2.line(img, (ox, uy), (ox + tw, uy), color, max(2, thickness - 1), AA)


def _poly(img: np.ndarray, pts: Sequence[tuple[float, float]], color: Color) -> None:
    cv2.fillPoly(img, [np.round(np.asarray(pts)).astype(np.int32)], color, AA)


def _ell(
    img: np.ndarray,
    c: tuple[float, float],
    axes: tuple[float, float],
    color: Color,
    angle: float = 0.0,
    thick: int = -1,
    arc: tuple[float, float] = (0, 360),
) -> None:
    cv2.ellipse(
        img,
        (int(c[0]), int(c[1])),
        (max(1, int(axes[0])), max(1, int(axes[1]))),
        angle,
        arc[0],
        arc[1],
        color,
        thick,
        AA,
    )


# --------------------------------------------------------------------- suit emblems (classic)
# Each emblem draws into ``img`` centred at (cx, cy) with size ``s`` (about the emblem radius).


def _parrot(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    _poly(
        img,
        [
            (cx - 0.1 * s, cy + 0.4 * s),
            (cx - 0.55 * s, cy + 1.0 * s),
            (cx - 0.05 * s, cy + 0.75 * s),
        ],
        (40, 40, 200),
    )  # tail
    _ell(img, (cx, cy + 0.15 * s), (0.42 * s, 0.62 * s), (40, 170, 50), 20)  # body
    _ell(img, (cx + 0.1 * s, cy + 0.2 * s), (0.25 * s, 0.45 * s), (30, 200, 240), 20)  # wing
    cv2.circle(img, (int(cx + 0.15 * s), int(cy - 0.55 * s)), int(0.32 * s), (50, 60, 220), -1, AA)
    _poly(
        img,
        [
            (cx + 0.4 * s, cy - 0.65 * s),
            (cx + 0.75 * s, cy - 0.45 * s),
            (cx + 0.42 * s, cy - 0.35 * s),
        ],
        (40, 200, 250),
    )  # beak
    cv2.circle(img, (int(cx + 0.25 * s), int(cy - 0.62 * s)), int(0.08 * s), WHITE, -1, AA)
    cv2.circle(img, (int(cx + 0.27 * s), int(cy - 0.62 * s)), int(0.04 * s), BLACK, -1, AA)
    cv2.line(
        img,
        (int(cx - 0.6 * s), int(cy + 0.78 * s)),
        (int(cx + 0.6 * s), int(cy + 0.78 * s)),
        (30, 60, 110),
        max(2, int(0.1 * s)),
        AA,
    )


def _chest(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    wood, band = (30, 80, 140), GOLD
    _ell(img, (cx, cy - 0.15 * s), (0.8 * s, 0.45 * s), wood, 0, -1, (180, 360))
    cv2.rectangle(
        img,
        (int(cx - 0.8 * s), int(cy - 0.15 * s)),
        (int(cx + 0.8 * s), int(cy + 0.7 * s)),
        wood,
        -1,
        AA,
    )
    for dx in (-0.5, 0.5):
        cv2.rectangle(
            img,
            (int(cx + (dx - 0.08) * s), int(cy - 0.55 * s)),
            (int(cx + (dx + 0.08) * s), int(cy + 0.7 * s)),
            band,
            -1,
            AA,
        )
    cv2.line(
        img,
        (int(cx - 0.8 * s), int(cy - 0.1 * s)),
        (int(cx + 0.8 * s), int(cy - 0.1 * s)),
        band,
        max(2, int(0.1 * s)),
        AA,
    )
    cv2.rectangle(
        img,
        (int(cx - 0.15 * s), int(cy - 0.05 * s)),
        (int(cx + 0.15 * s), int(cy + 0.3 * s)),
        (20, 220, 250),
        -1,
        AA,
    )
    cv2.circle(img, (int(cx), int(cy + 0.1 * s)), max(2, int(0.05 * s)), BLACK, -1, AA)


def _map(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    paper = (150, 210, 235)
    cv2.rectangle(
        img,
        (int(cx - 0.75 * s), int(cy - 0.6 * s)),
        (int(cx + 0.75 * s), int(cy + 0.6 * s)),
        paper,
        -1,
        AA,
    )
    for sx in (-0.75, 0.75):
        _ell(img, (cx + sx * s, cy), (0.12 * s, 0.65 * s), _shade(paper, 0.8))
    pts = [(-0.5, 0.4), (-0.3, 0.1), (-0.05, 0.25), (0.15, -0.05), (0.35, -0.2)]
    for (ax, ay), (bx, by) in itertools.pairwise(pts):
        cv2.line(
            img,
            (int(cx + ax * s), int(cy + ay * s)),
            (int(cx + bx * s), int(cy + by * s)),
            (60, 60, 160),
            max(2, int(0.06 * s)),
            AA,
        )
    xx, xy, d = cx + 0.45 * s, cy - 0.3 * s, 0.15 * s
    for sgn in (-1, 1):
        cv2.line(
            img,
            (int(xx - d), int(xy - sgn * d)),
            (int(xx + d), int(xy + sgn * d)),
            (30, 30, 200),
            max(3, int(0.09 * s)),
            AA,
        )


def _jolly_roger(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    bone = (225, 235, 240)
    for sgn in (-1, 1):
        cv2.line(
            img,
            (int(cx - 0.75 * s), int(cy + sgn * 0.75 * s)),
            (int(cx + 0.75 * s), int(cy - sgn * 0.75 * s)),
            bone,
            max(3, int(0.16 * s)),
            AA,
        )
        for ex, ey in ((-0.75, sgn * 0.75), (0.75, -sgn * 0.75)):
            cv2.circle(img, (int(cx + ex * s), int(cy + ey * s)), int(0.13 * s), bone, -1, AA)
    cv2.circle(img, (int(cx), int(cy - 0.1 * s)), int(0.5 * s), bone, -1, AA)
    cv2.rectangle(
        img,
        (int(cx - 0.28 * s), int(cy + 0.2 * s)),
        (int(cx + 0.28 * s), int(cy + 0.55 * s)),
        bone,
        -1,
        AA,
    )
    for ex in (-0.2, 0.2):
        cv2.circle(img, (int(cx + ex * s), int(cy - 0.12 * s)), int(0.13 * s), BLACK, -1, AA)
    _poly(
        img,
        [(cx, cy + 0.02 * s), (cx - 0.07 * s, cy + 0.17 * s), (cx + 0.07 * s, cy + 0.17 * s)],
        BLACK,
    )


# ------------------------------------------------------------------------- suit emblems (alt)


def _feather(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    _ell(img, (cx, cy), (0.35 * s, 0.95 * s), _shade(col, 0.55), 25)
    _ell(img, (cx, cy), (0.22 * s, 0.8 * s), _shade(col, 1.5), 25)
    a = math.radians(25)
    dx, dy = -math.sin(a), math.cos(a)
    cv2.line(
        img,
        (int(cx - dx * 1.1 * s), int(cy - dy * 1.1 * s)),
        (int(cx + dx * 1.1 * s), int(cy + dy * 1.1 * s)),
        WHITE,
        max(2, int(0.06 * s)),
        AA,
    )


def _gem(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    outer = [
        (cx - 0.8 * s, cy - 0.25 * s),
        (cx - 0.45 * s, cy - 0.7 * s),
        (cx + 0.45 * s, cy - 0.7 * s),
        (cx + 0.8 * s, cy - 0.25 * s),
        (cx, cy + 0.9 * s),
    ]
    _poly(img, outer, (30, 230, 250))
    _poly(
        img,
        [(cx - 0.8 * s, cy - 0.25 * s), (cx + 0.8 * s, cy - 0.25 * s), (cx, cy + 0.9 * s)],
        (20, 170, 220),
    )
    _poly(
        img,
        [(cx - 0.3 * s, cy - 0.25 * s), (cx + 0.3 * s, cy - 0.25 * s), (cx, cy + 0.9 * s)],
        (120, 240, 255),
    )
    cv2.polylines(
        img, [np.asarray(outer, np.int32)], True, (10, 90, 140), max(2, int(0.05 * s)), AA
    )


def _compass(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    cv2.circle(img, (int(cx), int(cy)), int(0.85 * s), WHITE, max(2, int(0.07 * s)), AA)
    for k in range(8):
        a = k * math.pi / 4
        r = 0.95 if k % 2 == 0 else 0.55
        tip = (cx + r * s * math.cos(a), cy + r * s * math.sin(a))
        lft = (cx + 0.14 * s * math.cos(a + math.pi / 2), cy + 0.14 * s * math.sin(a + math.pi / 2))
        rr = (cx + 0.14 * s * math.cos(a - math.pi / 2), cy + 0.14 * s * math.sin(a - math.pi / 2))
        _poly(img, [tip, lft, (cx, cy)], WHITE)
        _poly(img, [tip, rr, (cx, cy)], _shade(col, 0.5) if k else (40, 40, 220))


def _swords(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    steel, hilt = (210, 210, 200), (40, 160, 210)
    for sgn in (-1, 1):
        p0 = (cx - sgn * 0.8 * s, cy + 0.8 * s)
        p1 = (cx + sgn * 0.75 * s, cy - 0.75 * s)
        cv2.line(
            img,
            (int(p0[0]), int(p0[1])),
            (int(p1[0]), int(p1[1])),
            steel,
            max(3, int(0.13 * s)),
            AA,
        )
        g = (cx - sgn * 0.5 * s, cy + 0.5 * s)
        cv2.line(
            img,
            (int(g[0] - 0.2 * s), int(g[1] - sgn * 0.2 * s * -1)),
            (int(g[0] + 0.2 * s), int(g[1] + sgn * 0.2 * s * -1)),
            hilt,
            max(3, int(0.1 * s)),
            AA,
        )
        cv2.circle(img, (int(p0[0]), int(p0[1])), int(0.1 * s), hilt, -1, AA)


_EMBLEMS: dict[str, dict[str, Callable[[np.ndarray, float, float, float, Color], None]]] = {
    "classic": {"green": _parrot, "yellow": _chest, "purple": _map, "black": _jolly_roger},
    "alt": {"green": _feather, "yellow": _gem, "purple": _compass, "black": _swords},
}


# -------------------------------------------------------------------------- special pictures


def _head(img: np.ndarray, cx: float, cy: float, s: float, skin: Color = SKIN) -> None:
    cv2.circle(img, (int(cx), int(cy)), int(0.5 * s), skin, -1, AA)
    for ex in (-0.18, 0.18):
        cv2.circle(
            img, (int(cx + ex * s), int(cy - 0.05 * s)), max(2, int(0.06 * s)), BLACK, -1, AA
        )
    _ell(
        img,
        (cx, cy + 0.2 * s),
        (0.18 * s, 0.08 * s),
        (60, 60, 150),
        0,
        max(2, int(0.04 * s)),
        (0, 180),
    )


def _pirate(
    face: str, img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool
) -> None:
    name = face.split("-", 1)[1]
    body = _shade(col, 0.6)
    _ell(img, (cx, cy + 1.05 * s), (0.75 * s, 0.5 * s), body, 0, -1, (180, 360))
    cv2.rectangle(
        img,
        (int(cx - 0.75 * s), int(cy + 1.05 * s)),
        (int(cx + 0.75 * s), int(cy + 1.3 * s)),
        body,
        -1,
    )
    _head(img, cx, cy + 0.15 * s, s, (120, 160, 210) if name in ("juanita", "harry") else SKIN)
    hy = cy - 0.15 * s
    if name == "rosie":  # red bandana with knot tails
        _ell(img, (cx, hy), (0.52 * s, 0.35 * s), (40, 30, 210), 0, -1, (180, 360))
        _poly(
            img,
            [(cx + 0.45 * s, hy), (cx + 0.85 * s, hy + 0.2 * s), (cx + 0.7 * s, hy + 0.35 * s)],
            (40, 30, 210),
        )
        for dx in (-0.25, 0.0, 0.25):
            cv2.circle(
                img, (int(cx + dx * s), int(hy - 0.15 * s)), max(2, int(0.05 * s)), WHITE, -1, AA
            )
    elif name == "bendt":  # brown tricorn, eye patch
        _poly(
            img,
            [
                (cx - 0.8 * s, hy),
                (cx + 0.8 * s, hy),
                (cx + 0.4 * s, hy - 0.55 * s),
                (cx, hy - 0.35 * s),
                (cx - 0.4 * s, hy - 0.55 * s),
            ],
            (30, 60, 100),
        )
        cv2.line(
            img,
            (int(cx - 0.8 * s), int(hy)),
            (int(cx + 0.8 * s), int(hy)),
            GOLD,
            max(2, int(0.06 * s)),
            AA,
        )
        cv2.circle(img, (int(cx + 0.18 * s), int(cy + 0.1 * s)), int(0.12 * s), BLACK, -1, AA)
        cv2.line(
            img,
            (int(cx - 0.45 * s), int(cy - 0.1 * s)),
            (int(cx + 0.45 * s), int(cy + 0.2 * s)),
            BLACK,
            max(1, int(0.03 * s)),
            AA,
        )
    elif name == "rascal":  # blue bicorn with white feather
        _ell(img, (cx, hy), (0.85 * s, 0.4 * s), (140, 60, 20), 0, -1, (180, 360))
        _ell(img, (cx + 0.2 * s, hy - 0.35 * s), (0.4 * s, 0.1 * s), WHITE, -20)
        cv2.circle(img, (int(cx), int(hy - 0.15 * s)), max(2, int(0.09 * s)), GOLD, -1, AA)
    elif name == "juanita":  # wide green hat with red feather, gold earring
        _ell(img, (cx, hy + 0.02 * s), (0.95 * s, 0.15 * s), (40, 110, 20))
        _ell(img, (cx, hy), (0.45 * s, 0.4 * s), (40, 110, 20), 0, -1, (180, 360))
        _ell(img, (cx - 0.35 * s, hy - 0.35 * s), (0.35 * s, 0.08 * s), (40, 40, 220), 35)
        cv2.circle(
            img,
            (int(cx - 0.5 * s), int(cy + 0.3 * s)),
            max(2, int(0.07 * s)),
            GOLD,
            max(2, int(0.03 * s)),
            AA,
        )
        _ell(
            img,
            (cx, cy + 0.55 * s),
            (0.55 * s, 0.9 * s),
            (20, 20, 40),
            0,
            max(3, int(0.1 * s)),
            (200, 340),
        )
    elif name == "harry":  # the giant: big black beard, grey bandana
        _ell(img, (cx, cy + 0.45 * s), (0.55 * s, 0.5 * s), (30, 30, 40), 0, -1, (0, 180))
        _ell(img, (cx, hy), (0.52 * s, 0.33 * s), (150, 150, 150), 0, -1, (180, 360))
        cv2.line(
            img,
            (int(cx - 0.6 * s), int(cy + 0.9 * s)),
            (int(cx + 0.6 * s), int(cy + 0.9 * s)),
            (20, 20, 120),
            max(3, int(0.12 * s)),
            AA,
        )
    if alt:  # alt style: a sabre across the chest
        cv2.line(
            img,
            (int(cx - 0.7 * s), int(cy + 1.25 * s)),
            (int(cx + 0.6 * s), int(cy + 0.6 * s)),
            (220, 220, 210),
            max(2, int(0.07 * s)),
            AA,
        )


def _tigress(img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool) -> None:
    fur = (30, 140, 250) if not alt else (40, 110, 220)
    for ex in (-0.45, 0.45):
        _poly(
            img,
            [
                (cx + ex * s - 0.2 * s, cy - 0.4 * s),
                (cx + ex * s, cy - 0.85 * s),
                (cx + ex * s + 0.2 * s, cy - 0.4 * s),
            ],
            fur,
        )
    _ell(img, (cx, cy), (0.7 * s, 0.62 * s), fur)
    for k in (-0.5, -0.2, 0.2, 0.5):
        cv2.line(
            img,
            (int(cx + k * s), int(cy - 0.6 * s)),
            (int(cx + k * 0.8 * s), int(cy - 0.25 * s)),
            BLACK,
            max(2, int(0.07 * s)),
            AA,
        )
    for sx in (-1, 1):
        cv2.line(
            img,
            (int(cx + sx * 0.7 * s), int(cy + 0.1 * s)),
            (int(cx + sx * 0.4 * s), int(cy + 0.15 * s)),
            BLACK,
            max(2, int(0.06 * s)),
            AA,
        )
    _ell(img, (cx, cy + 0.3 * s), (0.3 * s, 0.22 * s), WHITE)
    for ex in (-0.25, 0.25):
        _ell(img, (cx + ex * s, cy - 0.05 * s), (0.1 * s, 0.07 * s), (40, 200, 120))
        cv2.circle(
            img, (int(cx + ex * s), int(cy - 0.05 * s)), max(1, int(0.03 * s)), BLACK, -1, AA
        )
    _poly(
        img,
        [(cx - 0.08 * s, cy + 0.18 * s), (cx + 0.08 * s, cy + 0.18 * s), (cx, cy + 0.28 * s)],
        (120, 90, 200),
    )


def _skull_king(img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool) -> None:
    cv2.rectangle(
        img,
        (int(cx - 0.8 * s), int(cy + 0.5 * s)),
        (int(cx + 0.8 * s), int(cy + 1.3 * s)),
        (20, 20, 160) if not alt else (90, 30, 60),
        -1,
        AA,
    )
    _jolly_roger(img, cx, cy + 0.2 * s, 0.9 * s, col) if alt else None
    if not alt:
        bone = (225, 235, 240)
        cv2.circle(img, (int(cx), int(cy + 0.1 * s)), int(0.55 * s), bone, -1, AA)
        cv2.rectangle(
            img,
            (int(cx - 0.3 * s), int(cy + 0.4 * s)),
            (int(cx + 0.3 * s), int(cy + 0.75 * s)),
            bone,
            -1,
            AA,
        )
        for ex in (-0.22, 0.22):
            cv2.circle(img, (int(cx + ex * s), int(cy + 0.1 * s)), int(0.15 * s), BLACK, -1, AA)
        for tx in (-0.15, 0.0, 0.15):
            cv2.line(
                img,
                (int(cx + tx * s), int(cy + 0.55 * s)),
                (int(cx + tx * s), int(cy + 0.75 * s)),
                BLACK,
                max(1, int(0.03 * s)),
                AA,
            )
    # the crown
    base_y = cy - 0.35 * s
    _poly(
        img,
        [
            (cx - 0.6 * s, base_y),
            (cx - 0.7 * s, base_y - 0.55 * s),
            (cx - 0.3 * s, base_y - 0.25 * s),
            (cx, base_y - 0.7 * s),
            (cx + 0.3 * s, base_y - 0.25 * s),
            (cx + 0.7 * s, base_y - 0.55 * s),
            (cx + 0.6 * s, base_y),
        ],
        GOLD,
    )
    for jx in (-0.3, 0.0, 0.3):
        cv2.circle(
            img,
            (int(cx + jx * s), int(base_y - 0.12 * s)),
            max(2, int(0.07 * s)),
            (40, 40, 210),
            -1,
            AA,
        )


def _mermaid(
    face: str, img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool
) -> None:
    alyra = face.endswith("alyra")
    hair = (30, 90, 220) if alyra else (40, 220, 240)
    tail = (150, 170, 20) if alyra else (150, 40, 130)
    if alt:
        hair, tail = tail, hair
    # tail curling to the right
    _ell(img, (cx, cy + 0.75 * s), (0.35 * s, 0.6 * s), tail, 15)
    _poly(
        img,
        [
            (cx + 0.2 * s, cy + 1.25 * s),
            (cx + 0.75 * s, cy + 1.1 * s),
            (cx + 0.55 * s, cy + 1.45 * s),
        ],
        tail,
    )
    _ell(img, (cx, cy - 0.1 * s), (0.6 * s, 0.75 * s), hair)  # long hair behind
    cv2.rectangle(
        img, (int(cx - 0.18 * s), int(cy)), (int(cx + 0.18 * s), int(cy + 0.3 * s)), SKIN, -1
    )
    _head(img, cx, cy - 0.3 * s, 0.8 * s)
    _ell(img, (cx, cy - 0.55 * s), (0.42 * s, 0.22 * s), hair, 0, -1, (180, 360))
    for sx in (-0.13, 0.13):  # shell top
        cv2.circle(
            img,
            (int(cx + sx * s), int(cy + 0.25 * s)),
            max(2, int(0.1 * s)),
            (180, 200, 250),
            -1,
            AA,
        )


def _loot(img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool) -> None:
    coins = [
        (-0.45, 0.55),
        (0.0, 0.6),
        (0.45, 0.55),
        (-0.25, 0.2),
        (0.25, 0.2),
        (0.0, -0.15),
        (-0.5, -0.5),
        (0.5, -0.6),
    ]
    for dx, dy in coins:
        c = (int(cx + dx * s), int(cy + dy * s))
        cv2.circle(img, c, int(0.28 * s), (20, 150, 200), -1, AA)
        cv2.circle(img, c, int(0.22 * s), GOLD, -1, AA)
        if alt:
            cv2.rectangle(
                img,
                (c[0] - int(0.07 * s), c[1] - int(0.07 * s)),
                (c[0] + int(0.07 * s), c[1] + int(0.07 * s)),
                (20, 120, 170),
                -1,
            )
        else:
            cv2.circle(img, c, int(0.1 * s), (20, 150, 200), max(1, int(0.03 * s)), AA)


def _kraken(img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool) -> None:
    flesh = (60, 40, 200) if not alt else (120, 60, 170)
    for k in range(6):
        base = -math.pi * 0.9 + k * math.pi * 0.36
        pts = []
        for t in np.linspace(0, 1, 14):
            a = base + 1.3 * math.sin(t * 3.0 + k) * t
            r = (0.3 + 0.9 * t) * s
            pts.append(
                (cx + r * math.cos(a + math.pi), cy + 0.3 * s - r * math.sin(a + math.pi) * 0.8)
            )
        arr = np.asarray(pts, np.int32)
        cv2.polylines(img, [arr], False, flesh, max(4, int(0.16 * s)), AA)
        for p in arr[4::3]:
            cv2.circle(img, (int(p[0]), int(p[1])), max(1, int(0.04 * s)), (170, 180, 250), -1, AA)
    _ell(img, (cx, cy - 0.2 * s), (0.45 * s, 0.6 * s), flesh)
    for ex in (-0.18, 0.18):
        cv2.circle(
            img, (int(cx + ex * s), int(cy - 0.1 * s)), max(2, int(0.1 * s)), (40, 220, 240), -1, AA
        )
        cv2.circle(img, (int(cx + ex * s), int(cy - 0.1 * s)), max(1, int(0.04 * s)), BLACK, -1, AA)


def _white_whale(img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool) -> None:
    whale = (245, 245, 240)
    for k in range(3):  # waves
        y = int(cy + (0.7 + 0.25 * k) * s)
        for x0 in np.arange(cx - 0.9 * s, cx + 0.9 * s, 0.35 * s):
            _ell(
                img,
                (x0, y),
                (0.17 * s, 0.1 * s),
                (220, 180, 120),
                0,
                max(2, int(0.04 * s)),
                (180, 360),
            )
    _ell(img, (cx - 0.05 * s, cy), (0.8 * s, 0.42 * s), whale, -8 if not alt else 8)
    _poly(
        img,
        [
            (cx + 0.65 * s, cy - 0.05 * s),
            (cx + 1.0 * s, cy - 0.5 * s),
            (cx + 0.95 * s, cy + 0.0 * s),
            (cx + 1.05 * s, cy + 0.35 * s),
        ],
        whale,
    )
    cv2.circle(img, (int(cx - 0.5 * s), int(cy - 0.05 * s)), max(2, int(0.06 * s)), BLACK, -1, AA)
    cv2.line(
        img,
        (int(cx - 0.8 * s), int(cy + 0.12 * s)),
        (int(cx - 0.35 * s), int(cy + 0.2 * s)),
        (150, 150, 150),
        max(1, int(0.03 * s)),
        AA,
    )
    for k in (-1, 0, 1):  # spout
        cv2.line(
            img,
            (int(cx - 0.3 * s), int(cy - 0.45 * s)),
            (int(cx - 0.3 * s + k * 0.2 * s), int(cy - 0.8 * s)),
            (250, 220, 180),
            max(2, int(0.05 * s)),
            AA,
        )


def _escape(img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool) -> None:
    pole = (40, 70, 110)
    cv2.line(
        img,
        (int(cx - 0.6 * s), int(cy - 1.0 * s)),
        (int(cx - 0.6 * s), int(cy + 1.1 * s)),
        pole,
        max(3, int(0.09 * s)),
        AA,
    )
    cv2.circle(img, (int(cx - 0.6 * s), int(cy - 1.0 * s)), max(3, int(0.09 * s)), GOLD, -1, AA)
    top = cy - 0.9 * s
    pts_top = [
        (cx - 0.6 * s + t * 1.4 * s, top + 0.12 * s * math.sin(t * 2 * math.pi))
        for t in np.linspace(0, 1, 12)
    ]
    depth = 0.9 * s if not alt else 0.7 * s
    pts = pts_top + [(x, y + depth) for x, y in reversed(pts_top)]
    _poly(img, pts, WHITE)
    cv2.polylines(
        img, [np.asarray(pts, np.int32)], True, (150, 150, 150), max(1, int(0.03 * s)), AA
    )


def _special_picture(
    face: str, img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool
) -> None:
    if face.startswith("pirate-"):
        _pirate(face, img, cx, cy, s, col, alt)
    elif face.startswith("mermaid-"):
        _mermaid(face, img, cx, cy, s, col, alt)
    else:
        {
            "escape": _escape,
            "tigress": _tigress,
            "skull-king": _skull_king,
            "loot": _loot,
            "kraken": _kraken,
            "white-whale": _white_whale,
        }[face](img, cx, cy, s, col, alt)


# ------------------------------------------------------------------------------ face drawing


def _corner_patch_number(style: Style, suit: str, rank: int, w: int, h: int) -> np.ndarray:
    """The top-left corner mark of a numbered card (number over a small suit emblem)."""
    col = style.suit_colors[suit]
    if style.name == "classic":
        patch = np.full((h, w, 3), style.border, np.uint8)
        ink = col if suit != "yellow" else _shade(col, 0.6)
    else:
        patch = np.full((h, w, 3), _shade(col, 0.55), np.uint8)
        ink = WHITE
    _fit_text(
        patch,
        str(rank),
        (3, 2, w - 3, int(h * 0.58)),
        style.font,
        ink,
        style.number_thickness,
        underline=rank in (6, 9),
    )
    emblem = _EMBLEMS[style.name][suit]
    s = min(w, h) * 0.2
    if style.name == "classic":
        cv2.circle(patch, (w // 2, int(h * 0.79)), int(s * 1.15), col, -1, AA)
    emblem(patch, w / 2, h * 0.79, s, col)
    return patch


def _corner_patch_special(style: Style, face: str, w: int, h: int) -> np.ndarray:
    col = style.special_colors[face]
    mark = SPECIAL_MARKS[face]
    patch = np.full((h, w, 3), style.border, np.uint8)
    if style.name == "classic":
        cv2.circle(patch, (w // 2, int(h * 0.36)), int(w * 0.46), col, -1, AA)
        cv2.circle(patch, (w // 2, int(h * 0.36)), int(w * 0.46), BLACK, 2, AA)
        _fit_text(
            patch,
            mark,
            (int(w * 0.18), int(h * 0.16), int(w * 0.82), int(h * 0.56)),
            style.font,
            _ink_for(col),
            3,
        )
    else:
        cv2.rectangle(patch, (3, 3), (w - 4, int(h * 0.7)), col, -1)
        _fit_text(patch, mark, (8, 8, w - 8, int(h * 0.65)), style.font, _ink_for(col), 3)
    # a small coloured stripe below: special cards have no suit
    cv2.rectangle(
        patch, (int(w * 0.2), int(h * 0.8)), (int(w * 0.8), int(h * 0.9)), _shade(col, 0.6), -1
    )
    return patch


def _background_special(
    style: Style, img: np.ndarray, box: tuple[int, int, int, int], col: Color
) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    img[y0:y1, x0:x1] = col
    roi = img[y0:y1, x0:x1]
    if style.name == "classic":  # radial rays
        light = _shade(col, 1.25)
        for k in range(16):
            a0, a1 = k * math.pi / 8, k * math.pi / 8 + math.pi / 16
            r = 400
            _poly(
                roi,
                [
                    (cx - x0, cy - y0),
                    (cx - x0 + r * math.cos(a0), cy - y0 + r * math.sin(a0)),
                    (cx - x0 + r * math.cos(a1), cy - y0 + r * math.sin(a1)),
                ],
                light,
            )
    else:  # diagonal stripes and an arch frame
        dark = _shade(col, 0.8)
        for k in range(-400, 400, 28):
            cv2.line(roi, (k, 0), (k + 400, 400), dark, 9, AA)
        aw = (x1 - x0) * 0.4
        _ell(roi, (cx - x0, cy - y0 - 20), (aw, aw), _shade(col, 1.35), 0, -1, (180, 360))
        cv2.rectangle(
            roi,
            (int(cx - x0 - aw), int(cy - y0 - 20)),
            (int(cx - x0 + aw), int(cy - y0 + 95)),
            _shade(col, 1.35),
            -1,
        )


def render_face(face: str, style: str | Style = "classic") -> np.ndarray:
    """Draw one face (BGR, FACE_H x FACE_W). The rounded corners are filled with the border colour;
    scene rendering cuts them off with :func:`rounded_mask`."""
    st = get_style(style) if isinstance(style, str) else style
    if face not in FACES:
        raise UserError(f"unknown face {face!r}: expected one of the 69 card ids of rules.md")
    w, h = FACE_W, FACE_H
    img = np.full((h, w, 3), st.border, np.uint8)
    b = 10  # border width (2.5 mm)
    inner = (b, b, w - b, h - b)
    pw, ph = 64, 96  # corner patch size
    number = split_number(face)
    if number is not None:
        suit, rank = number
        col = st.suit_colors[suit]
        x0, y0, x1, y1 = inner
        img[y0:y1, x0:x1] = col
        cx, cy = w / 2, h / 2
        if st.name == "classic":
            # lighter wash at the edges + light oval behind the emblem
            cv2.rectangle(img, (x0 + 4, y0 + 4), (x1 - 5, y1 - 5), _shade(col, 1.25), 3, AA)
            _ell(img, (cx, cy), (70, 88), _shade(col, 1.45))
            _ell(img, (cx, cy), (70, 88), _shade(col, 0.7), 0, 3)
        else:
            band = _shade(col, 0.55)
            cv2.rectangle(img, (x0, y0), (x1, y0 + ph + 4), band, -1)
            cv2.rectangle(img, (x0, y1 - ph - 4), (x1, y1), band, -1)
            for k in range(y0 + ph + 14, y1 - ph - 10, 18):  # waves
                for xx in range(x0, x1, 30):
                    _ell(img, (xx + 15, k), (15, 6), _shade(col, 1.2), 0, 2, (0, 180))
        _EMBLEMS[st.name][suit](img, cx, cy, 58, col)
        patch = _corner_patch_number(st, suit, rank, pw, ph)
    else:
        col = st.special_colors[face]
        _background_special(st, img, inner, col)
        _special_picture(
            face, img, w / 2, h / 2 + (8 if st.name == "classic" else 0), 62, col, st.name == "alt"
        )
        patch = _corner_patch_special(st, face, pw, ph)
        # the name strip along the bottom edge reads as a texture at camera size
        cv2.rectangle(
            img, (b + pw + 4, h - b - 26), (w - b - pw - 4, h - b - 6), _shade(col, 0.6), -1
        )
        cv2.rectangle(img, (b + pw + 4, b + 6), (w - b - pw - 4, b + 26), _shade(col, 0.6), -1)
    if st.name == "classic":
        img[b + 2 : b + 2 + ph, b + 2 : b + 2 + pw] = patch
        img[h - b - 2 - ph : h - b - 2, w - b - 2 - pw : w - b - 2] = patch[::-1, ::-1]
    else:
        img[b : b + ph, b : b + pw] = patch
        img[h - b - ph : h - b, w - b - pw : w - b] = patch[::-1, ::-1]
    # rounded outline: paint outside the rounded card with the border colour
    mask = rounded_mask(w, h, CORNER_RADIUS_MM * PX_PER_MM)
    img[mask == 0] = st.border
    return img


# ------------------------------------------------------------------------------ deck folders


def write_deck(out: Path, style: str = "classic", name: str | None = None) -> Path:
    """Write the 69 faces of a stand-in deck and its manifest into ``out``; returns ``out``."""
    st = get_style(style)
    out = make_folder(Path(out), "deck folder")
    for face in FACES:
        cv2.imwrite(str(out / f"{face}.png"), render_face(face, st))
    manifest = {
        "format": DECK_FORMAT,
        "name": name or f"stand-in-{st.name}",
        "style": st.name,
        "faces": list(FACES),
        "size_mm": list(SIZE_MM),
        "px_per_mm": PX_PER_MM,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return out


def read_manifest(deck_dir: Path) -> dict[str, object]:
    """The deck's manifest (a clear UserError when the folder is not a deck)."""
    deck_dir = Path(deck_dir)
    path = deck_dir / "manifest.json"
    if deck_dir.exists() and not deck_dir.is_dir():
        raise UserError(
            f"{deck_dir} is a file, not a deck folder: give the folder written by "
            "'skullcam synth deck' (or skullcam enroll)"
        )
    if not deck_dir.is_dir():
        raise UserError(
            f"deck folder {deck_dir} does not exist: "
            f"create one with 'skullcam synth deck --out {deck_dir}'"
        )
    if not path.is_file():
        raise UserError(
            f"{deck_dir} is not a deck (no manifest.json): create one with 'skullcam synth deck'"
        )
    try:
        manifest = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise UserError(f"{path} is not valid JSON ({err}); regenerate the deck") from None
    if not isinstance(manifest, dict) or manifest.get("format") != DECK_FORMAT:
        raise UserError(f"{path} is not a {DECK_FORMAT} manifest; regenerate the deck")
    return manifest


FACE_EXTENSIONS = (".png", ".jpg", ".jpeg")


def _face_path(deck_dir: Path, face: str) -> Path | None:
    return next((p for ext in FACE_EXTENSIONS if (p := deck_dir / f"{face}{ext}").is_file()), None)


def load_deck(deck_dir: Path, size: tuple[int, int] = (FACE_W, FACE_H)) -> dict[str, np.ndarray]:
    """Every face of a deck folder as a BGR image of ``size`` (w, h), keyed by face id.

    Photos of a user's deck may have any size; they are resized so downstream code can rely on one
    shape. A folder of face images without ``manifest.json`` (a user's scans) is accepted too.
    A missing or unreadable face is a UserError naming the file.
    """
    deck_dir = Path(deck_dir)
    if not deck_dir.is_dir() or (deck_dir / "manifest.json").exists():
        read_manifest(deck_dir)  # names the problem: no folder, bad manifest
    elif not any(_face_path(deck_dir, face) for face in FACES):
        raise UserError(
            f"{deck_dir} is not a deck (no manifest.json and no <card-id>.png/.jpg faces): "
            "create one with 'skullcam synth deck'"
        )
    faces: dict[str, np.ndarray] = {}
    missing = []
    for face in FACES:
        path = _face_path(deck_dir, face)
        if path is None:
            missing.append(face)
            continue
        try:
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        except cv2.error:  # over OpenCV's limit (skullcam.MAX_IMAGE_PIXELS): a huge scan
            img = None
        if img is None:
            raise UserError(
                f"cannot read face image {path} (not an image, or over 100 megapixels); "
                "replace or regenerate it"
            )
        if (img.shape[1], img.shape[0]) != size:
            img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
        faces[face] = img
    if missing:
        shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
        raise UserError(f"deck {deck_dir} lacks {len(missing)} face(s): {shown}; regenerate it")
    return faces
