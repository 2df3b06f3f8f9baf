"""The pictures of the stand-in deck: the suits' emblems in both art styles, and each special
card's picture.

They are kept apart from the face layout (``deck.py``) because they are most of the drawing code
and change for a different reason: a picture is redrawn to tell two faces apart at camera size,
the layout to change what every face shares.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import cv2
import numpy as np

from skullcam.datasets.deck_drawing import AA, BLACK, GOLD, SKIN, WHITE, Color, ell, poly, shade

# --------------------------------------------------------------------- suit emblems (classic)
# Each emblem draws into ``img`` centred at (cx, cy) with size ``s`` (about the emblem radius).


def _parrot(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    poly(
        img,
        [
            (cx - 0.1 * s, cy + 0.4 * s),
            (cx - 0.55 * s, cy + 1.0 * s),
            (cx - 0.05 * s, cy + 0.75 * s),
        ],
        (40, 40, 200),
    )  # tail
    ell(img, (cx, cy + 0.15 * s), (0.42 * s, 0.62 * s), (40, 170, 50), 20)  # body
    ell(img, (cx + 0.1 * s, cy + 0.2 * s), (0.25 * s, 0.45 * s), (30, 200, 240), 20)  # wing
    cv2.circle(img, (int(cx + 0.15 * s), int(cy - 0.55 * s)), int(0.32 * s), (50, 60, 220), -1, AA)
    poly(
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
    ell(img, (cx, cy - 0.15 * s), (0.8 * s, 0.45 * s), wood, 0, -1, (180, 360))
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
        ell(img, (cx + sx * s, cy), (0.12 * s, 0.65 * s), shade(paper, 0.8))
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
    poly(
        img,
        [(cx, cy + 0.02 * s), (cx - 0.07 * s, cy + 0.17 * s), (cx + 0.07 * s, cy + 0.17 * s)],
        BLACK,
    )


# ------------------------------------------------------------------------- suit emblems (alt)


def _feather(img: np.ndarray, cx: float, cy: float, s: float, col: Color) -> None:
    ell(img, (cx, cy), (0.35 * s, 0.95 * s), shade(col, 0.55), 25)
    ell(img, (cx, cy), (0.22 * s, 0.8 * s), shade(col, 1.5), 25)
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
    poly(img, outer, (30, 230, 250))
    poly(
        img,
        [(cx - 0.8 * s, cy - 0.25 * s), (cx + 0.8 * s, cy - 0.25 * s), (cx, cy + 0.9 * s)],
        (20, 170, 220),
    )
    poly(
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
        poly(img, [tip, lft, (cx, cy)], WHITE)
        poly(img, [tip, rr, (cx, cy)], shade(col, 0.5) if k else (40, 40, 220))


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


EMBLEMS: dict[str, dict[str, Callable[[np.ndarray, float, float, float, Color], None]]] = {
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
    ell(
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
    body = shade(col, 0.6)
    ell(img, (cx, cy + 1.05 * s), (0.75 * s, 0.5 * s), body, 0, -1, (180, 360))
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
        ell(img, (cx, hy), (0.52 * s, 0.35 * s), (40, 30, 210), 0, -1, (180, 360))
        poly(
            img,
            [(cx + 0.45 * s, hy), (cx + 0.85 * s, hy + 0.2 * s), (cx + 0.7 * s, hy + 0.35 * s)],
            (40, 30, 210),
        )
        for dx in (-0.25, 0.0, 0.25):
            cv2.circle(
                img, (int(cx + dx * s), int(hy - 0.15 * s)), max(2, int(0.05 * s)), WHITE, -1, AA
            )
    elif name == "bendt":  # brown tricorn, eye patch
        poly(
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
        ell(img, (cx, hy), (0.85 * s, 0.4 * s), (140, 60, 20), 0, -1, (180, 360))
        ell(img, (cx + 0.2 * s, hy - 0.35 * s), (0.4 * s, 0.1 * s), WHITE, -20)
        cv2.circle(img, (int(cx), int(hy - 0.15 * s)), max(2, int(0.09 * s)), GOLD, -1, AA)
    elif name == "juanita":  # wide green hat with red feather, gold earring
        ell(img, (cx, hy + 0.02 * s), (0.95 * s, 0.15 * s), (40, 110, 20))
        ell(img, (cx, hy), (0.45 * s, 0.4 * s), (40, 110, 20), 0, -1, (180, 360))
        ell(img, (cx - 0.35 * s, hy - 0.35 * s), (0.35 * s, 0.08 * s), (40, 40, 220), 35)
        cv2.circle(
            img,
            (int(cx - 0.5 * s), int(cy + 0.3 * s)),
            max(2, int(0.07 * s)),
            GOLD,
            max(2, int(0.03 * s)),
            AA,
        )
        ell(
            img,
            (cx, cy + 0.55 * s),
            (0.55 * s, 0.9 * s),
            (20, 20, 40),
            0,
            max(3, int(0.1 * s)),
            (200, 340),
        )
    elif name == "harry":  # the giant: big black beard, grey bandana
        ell(img, (cx, cy + 0.45 * s), (0.55 * s, 0.5 * s), (30, 30, 40), 0, -1, (0, 180))
        ell(img, (cx, hy), (0.52 * s, 0.33 * s), (150, 150, 150), 0, -1, (180, 360))
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
        poly(
            img,
            [
                (cx + ex * s - 0.2 * s, cy - 0.4 * s),
                (cx + ex * s, cy - 0.85 * s),
                (cx + ex * s + 0.2 * s, cy - 0.4 * s),
            ],
            fur,
        )
    ell(img, (cx, cy), (0.7 * s, 0.62 * s), fur)
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
    ell(img, (cx, cy + 0.3 * s), (0.3 * s, 0.22 * s), WHITE)
    for ex in (-0.25, 0.25):
        ell(img, (cx + ex * s, cy - 0.05 * s), (0.1 * s, 0.07 * s), (40, 200, 120))
        cv2.circle(
            img, (int(cx + ex * s), int(cy - 0.05 * s)), max(1, int(0.03 * s)), BLACK, -1, AA
        )
    poly(
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
    poly(
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
    ell(img, (cx, cy + 0.75 * s), (0.35 * s, 0.6 * s), tail, 15)
    poly(
        img,
        [
            (cx + 0.2 * s, cy + 1.25 * s),
            (cx + 0.75 * s, cy + 1.1 * s),
            (cx + 0.55 * s, cy + 1.45 * s),
        ],
        tail,
    )
    ell(img, (cx, cy - 0.1 * s), (0.6 * s, 0.75 * s), hair)  # long hair behind
    cv2.rectangle(
        img, (int(cx - 0.18 * s), int(cy)), (int(cx + 0.18 * s), int(cy + 0.3 * s)), SKIN, -1
    )
    _head(img, cx, cy - 0.3 * s, 0.8 * s)
    ell(img, (cx, cy - 0.55 * s), (0.42 * s, 0.22 * s), hair, 0, -1, (180, 360))
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
    ell(img, (cx, cy - 0.2 * s), (0.45 * s, 0.6 * s), flesh)
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
            ell(
                img,
                (x0, y),
                (0.17 * s, 0.1 * s),
                (220, 180, 120),
                0,
                max(2, int(0.04 * s)),
                (180, 360),
            )
    ell(img, (cx - 0.05 * s, cy), (0.8 * s, 0.42 * s), whale, -8 if not alt else 8)
    poly(
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
    poly(img, pts, WHITE)
    cv2.polylines(
        img, [np.asarray(pts, np.int32)], True, (150, 150, 150), max(1, int(0.03 * s)), AA
    )


def special_picture(
    face: str, img: np.ndarray, cx: float, cy: float, s: float, col: Color, alt: bool
) -> None:
    """Draw ``face``'s picture centred at (cx, cy), ``s`` about its radius, in ``col``; the five
    pirates and two mermaids share a figure that their names vary."""
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
