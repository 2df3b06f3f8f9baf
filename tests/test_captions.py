"""Text on pictures: the halo stays under its text along a whole line."""

from __future__ import annotations

import numpy as np

from skullcam.captions import haloed_text

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
