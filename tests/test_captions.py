"""Text on pictures: the halo stays under its text along a whole line."""

from __future__ import annotations

import cv2
import numpy as np

from skullcam.captions import FONT, haloed_paragraph, haloed_text, wrapped

LINE = "The black 14 (Ben) wins: black is trump and this is the highest black card; +10"


def test_a_long_line_and_its_halo_end_together() -> None:
    """OpenCV advances thick text further than thin text: a halo drawn thick ended 23 px past
    its sentence, and the two read as overlapping sentences."""
    img = np.full((40, 640, 3), 128, np.uint8)
    haloed_text(img, LINE, (6, 28), (255, 255, 255), (0, 0, 0))
    grey = img[:, :, 0].astype(int)
    text_cols = np.flatnonzero((grey > 200).any(axis=0))
    halo_cols = np.flatnonzero((grey < 50).any(axis=0))
    assert text_cols.size and halo_cols.size
    assert abs(int(halo_cols[-1]) - int(text_cols[-1])) <= 2
    assert abs(int(halo_cols[0]) - int(text_cols[0])) <= 2
    # Every lit pixel of the text has halo beside it: readable on a white card too.
    ys, xs = np.nonzero(grey > 200)
    dark = grey < 50
    ringed = [
        dark[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2].any()
        for y, x in zip(ys, xs, strict=True)
    ]
    assert np.mean(ringed) > 0.95


KRAKEN = (
    "Ana's Kraken wins nothing: the Kraken destroys the trick: nobody wins it, and its cards"
    " and bonuses are lost. Cai's Parrot 12 would have won it and leads the next trick."
)


def test_a_long_explanation_is_wrapped_whole_between_words() -> None:
    """The trick image's explanation was cut at 90 characters, ending "The green 1" for the
    green 12 and losing who leads next (a review, session 51)."""
    lines = wrapped(KRAKEN, 300)
    assert " ".join(lines) == KRAKEN
    assert len(lines) >= 3
    assert all(cv2.getTextSize(line, FONT, 0.4, 1)[0][0] <= 300 for line in lines)


def test_the_paragraph_sits_on_the_bottom_edge_in_as_many_rows_as_lines() -> None:
    img = np.full((200, 320, 3), 128, np.uint8)
    haloed_paragraph(img, KRAKEN, 6, (255, 255, 255), (0, 0, 0))
    lit_rows = np.flatnonzero((img[:, :, 0] > 200).any(axis=1))
    assert lit_rows.max() < 200 - 3  # inside the picture, above its margin
    bands = np.split(lit_rows, np.flatnonzero(np.diff(lit_rows) > 3) + 1)  # a comma: 1 row
    assert len(bands) == len(wrapped(KRAKEN, 320 - 12))
