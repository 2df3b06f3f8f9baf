"""A card cut by the frame's edge, seen whole: its box completed to a card's proportions.

The detector boxes only the part of a card inside the frame (that is how it was taught:
``datasets/scenes.py::obb_line``), and the classifier, warping that box to a card-shaped crop,
sees half a card stretched to a whole one: its corner marks land where no mark is. Of the 61
cards the shipped model missed on 5,000 validation scenes, 54 were boxed and read by no reader
and 41 were cut by the frame. Extending the box past the frame's edge to a whole card's
proportions puts the visible half back where a card's crop has it, the part outside the frame
filled by the warp's replicated border, as the classifier's training crops cut from whole-card
outlines show it.
"""

from __future__ import annotations

import numpy as np

from skullcam.vision.crops import CARD_ASPECT

ON_EDGE_SHARE = 0.0125
"""How near (a share of the frame's shorter side; 6 px at 640 x 480) a box corner must come to
the frame's edge, or how far past it it may lie, to count as on the edge: the detector's box of
a cut card ends a few pixels either side of it."""

LONG_SIDE_CUT_BELOW = 0.67
"""A box whose depth into the frame is under this share of its side along the edge is a card
cut along its length (the edge runs along a long side); at or above it, across its length.
Cut along, a card shows at most ``1 / CARD_ASPECT`` (0.64) of its length as depth, a whole
card lying along the edge included; cut across and at least half in view, ``CARD_ASPECT / 2``
(0.78) of its width when square to the edge, but only 0.70 turned 10 degrees, where its box
(the rectangle around its part in view) leans off the card. Hence a line just above 0.64."""

NEARLY_WHOLE = 0.95
"""A box at least this share of its card's depth is left as it is: a whole card touching the
edge, or one so little cut that its crop already shows both corner marks."""


def complete_cut_quad(quad: np.ndarray, size: tuple[int, int]) -> np.ndarray | None:
    """The whole card a box cut by one edge of a frame ``size`` (width, height) stands for:
    the box extended past that edge to a card's proportions, float32 (4, 2) in the box's own
    corner order. None for a box inside the frame, one on two edges (a frame corner: which way
    the card runs is unknown), and one (nearly) of a whole card's proportions already.

    A guess, not a measurement: a box tells neither the card's size nor, under about 40 % in
    view, whether it is cut along or across (such a card cut across is completed as one cut
    along), and the box of a card turned 20-70 degrees to the edge leans off the card. A wrong
    outline costs only its reading: the edge look names a card only where the completed crop
    reads surely."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    side = _side_on_edge(q, size)
    if side is None:
        return None
    a, b = q[side], q[(side + 1) % 4]
    inner_b, inner_a = q[(side + 2) % 4], q[(side + 3) % 4]
    along = float(np.linalg.norm(b - a))
    depth = float(np.linalg.norm(b - inner_b))
    if along < 1 or depth < 1:
        return None
    whole = along / CARD_ASPECT if depth < along * LONG_SIDE_CUT_BELOW else along * CARD_ASPECT
    if depth >= NEARLY_WHOLE * whole:
        return None
    outward = (b - inner_b) / depth
    out = q.copy()
    out[side] = inner_a + (a - inner_a) / max(float(np.linalg.norm(a - inner_a)), 1e-9) * whole
    out[(side + 1) % 4] = inner_b + outward * whole
    return out.astype(np.float32)


def _side_on_edge(q: np.ndarray, size: tuple[int, int]) -> int | None:
    """The index i of the one side (corner i to i + 1) lying on an edge of the frame, or None
    when no side or more than one does."""
    width, height = size
    slack = ON_EDGE_SHARE * min(width, height)
    # Per corner, the frame edges it is on or past: left, top, right, bottom.
    on = np.stack(
        [q[:, 0] <= slack, q[:, 1] <= slack, q[:, 0] >= width - slack, q[:, 1] >= height - slack],
        axis=1,
    )
    sides = [i for i in range(4) if (on[i] & on[(i + 1) % 4]).any()]
    return sides[0] if len(sides) == 1 else None
