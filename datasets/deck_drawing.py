"""Drawing primitives the stand-in deck's faces and pictures share: its palette's fixed colours,
shading, text fitted to a box, and anti-aliased polygons and ellipses at float positions.

OpenCV wants whole-pixel integer arguments and BGR tuples; these take what the drawing code
computes (floats) so the pictures read as geometry, not as casts.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

Color = tuple[int, int, int]
AA = cv2.LINE_AA

WHITE: Color = (255, 255, 255)
BLACK: Color = (20, 20, 20)
GOLD: Color = (40, 190, 230)
SKIN: Color = (150, 185, 225)


def shade(color: Color, factor: float) -> Color:
    """The colour scaled towards black (<1) or white (>1)."""
    if factor <= 1.0:
        return tuple(int(c * factor) for c in color)  # type: ignore[return-value]
    return tuple(int(c + (255 - c) * (factor - 1.0)) for c in color)  # type: ignore[return-value]


def ink_for(color: Color) -> Color:
    """Black or white, whichever reads better on ``color``."""
    b, g, r = color
    return BLACK if (0.114 * b + 0.587 * g + 0.299 * r) > 140 else WHITE


def fit_text(
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


def poly(img: np.ndarray, pts: Sequence[tuple[float, float]], color: Color) -> None:
    """A filled polygon through float points (rounded, as ``fillPoly`` takes integers)."""
    cv2.fillPoly(img, [np.round(np.asarray(pts)).astype(np.int32)], color, AA)


def ell(
    img: np.ndarray,
    c: tuple[float, float],
    axes: tuple[float, float],
    color: Color,
    angle: float = 0.0,
    thick: int = -1,
    arc: tuple[float, float] = (0, 360),
) -> None:
    """A filled ellipse, or its outline or an arc of it, at a float centre; an axis under
    one pixel is drawn one pixel wide rather than not at all."""
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
