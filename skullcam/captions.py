"""Text on pictures that stays legible on any table and card colour, and stays in one piece.

OpenCV's ``putText`` advances each glyph further at thickness 2 and more than at thickness 1
(0.4 scale: 452 px against 429 px over 80 characters). So the usual halo, the text drawn thick
in one colour and thin in another on top, drifts apart along a line: a long explanation on the
annotated trick image read as two overlapping sentences. The halo here is the thin text drawn
at the eight neighbouring offsets, which advances exactly as the text over it.
"""

from __future__ import annotations

import cv2
import numpy as np

Colour = tuple[int, int, int]

FONT = cv2.FONT_HERSHEY_SIMPLEX
HALO_OFFSETS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def haloed_text(
    img: np.ndarray,
    text: str,
    org: tuple[int, int],
    colour: Colour,
    halo: Colour,
    scale: float = 0.4,
) -> None:
    """Draw ``text`` at ``org`` (its baseline's left end) in ``colour``, ringed by ``halo``."""
    x, y = org
    for dx, dy in HALO_OFFSETS:
        cv2.putText(img, text, (x + dx, y + dy), FONT, scale, halo, 1, cv2.LINE_AA)
    cv2.putText(img, text, (x, y), FONT, scale, colour, 1, cv2.LINE_AA)


def wrapped(text: str, width: int, scale: float = 0.4) -> list[str]:
    """``text`` broken between words into lines at most ``width`` pixels wide (a word longer
    than that stands alone on its line). The trick image's explanation was cut at 90
    characters: "... its cards and bonuses are lost. The green 1" named a card no one played
    (the green 12) and lost who leads next."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and cv2.getTextSize(joined, FONT, scale, 1)[0][0] <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines


def haloed_paragraph(
    img: np.ndarray, text: str, margin: int, colour: Colour, halo: Colour, scale: float = 0.4
) -> None:
    """``text`` whole, wrapped to the picture's width and set on its bottom edge."""
    lines = wrapped(text, img.shape[1] - 2 * margin, scale)
    (_, height), baseline = cv2.getTextSize("Ag", FONT, scale, 1)
    step = height + baseline + 3
    bottom = img.shape[0] - margin - baseline
    for n, line in enumerate(reversed(lines)):
        haloed_text(img, line, (margin, bottom - n * step), colour, halo, scale)
