"""Which of the detector's unchosen boxes to read again when no reader could name a chosen one.

A card half under another is often boxed badly: rotated NMS keeps the box that scores best,
and on such a card that box may lie half on the card above, so the classifier sees two cards
and gives up, and the corner reader finds no mark where it looks. The detector usually also
proposed other boxes around that spot, and one of them may fit the card. Reading a few of them
again costs a few crops on the frames that have such a box, and nothing on the others.

Measured on model ``skullcam-20261201-012257`` (``docs/model-history.md``): 1,300 validation scenes
98.00 % -> 98.23 % right, 2,000 more 97.10 % -> 97.55 %, the held-out test split 97.3 % ->
97.5 %; a frame costs about 1 ms more at the median, 3-6 ms more at the 95th percentile.
"""

from __future__ import annotations

import numpy as np

from skullcam.vision.obb import polygon_iou

LOST_MIN_SCORE = 0.5
"""A box no reader could name gets a second look only when the detector is at least this sure
of it: a card is there, the box is what fails. Boxes the detector doubts are mostly phantoms
on cards under a third visible, and looking around them found nothing (0.5 kept every scene
the second look gained on 3,300 validation scenes, for a sixth of the reads)."""
NAMED_MAX_IOU = 0.5
"""...and when no named reading overlaps it more than this: such a box is the same card boxed
twice, and a reading found around it would merge into that card's (``ANY_CARD_IOU``)."""
LOOK_MIN_IOU = 0.4
"""A candidate must overlap the box nobody could read at least this much (polygon IoU): it is
another guess at the same card, not a box on a neighbour."""
LOOK_MAX_IOU = 0.95
"""...and at most this much: a box almost the same as the one that failed would fail too."""
DISTINCT_IOU = 0.9
"""Two candidates overlapping more than this are one guess; the lower-scoring one is skipped."""
LOOKS_PER_BOX = 4
"""Candidates read again per box nobody could read, the best-scoring first."""


def boxes_worth_a_look(lost: np.ndarray, lost_scores: np.ndarray, named: np.ndarray) -> np.ndarray:
    """Which of the boxes ``lost`` (K, 4, 2) no reader could name get a second look, given the
    boxes ``named`` (M, 4, 2) that were read (``LOST_MIN_SCORE``, ``NAMED_MAX_IOU``)."""
    return np.asarray(
        [
            score >= LOST_MIN_SCORE and all(polygon_iou(box, n) <= NAMED_MAX_IOU for n in named)
            for box, score in zip(lost, lost_scores, strict=True)
        ],
        bool,
    ).reshape(-1)


def second_look_picks(
    lost: np.ndarray, candidates: np.ndarray, candidate_scores: np.ndarray
) -> np.ndarray:
    """Indices into ``candidates`` (N, 4, 2) worth reading again for the boxes ``lost``
    (K, 4, 2): per lost box, up to ``LOOKS_PER_BOX`` distinct candidates overlapping it by
    ``LOOK_MIN_IOU`` to ``LOOK_MAX_IOU``, the highest detector score first. Each index once."""
    order = np.argsort(-np.asarray(candidate_scores), kind="stable")
    picks: list[int] = []
    for box in lost:
        chosen: list[int] = []
        for j in _plausible(box, candidates[order]):
            j = int(order[j])
            iou = polygon_iou(candidates[j], box)
            if not LOOK_MIN_IOU <= iou < LOOK_MAX_IOU:
                continue
            if all(polygon_iou(candidates[j], candidates[i]) < DISTINCT_IOU for i in chosen):
                chosen.append(j)
                if len(chosen) == LOOKS_PER_BOX:
                    break
        picks += [j for j in chosen if j not in picks]
    return np.asarray(picks, np.intp)


def _plausible(box: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Indices of ``quads`` whose IoU with ``box`` can reach ``LOOK_MIN_IOU``, in their order.

    A frame has up to ~150 candidates and an exact polygon IoU is a call into OpenCV each, so
    the rest are ruled out at once by a bound: the overlap of two polygons is at most that of
    their bounding rectangles, and their union at least the larger of the two areas.
    """
    if len(quads) == 0:
        return np.zeros(0, np.intp)
    low, high = quads.min(axis=1), quads.max(axis=1)
    box_low, box_high = box.min(axis=0), box.max(axis=0)
    overlap = np.clip(np.minimum(high, box_high) - np.maximum(low, box_low), 0, None)
    bound = overlap.prod(axis=1) / np.maximum(_areas(quads), _areas(box[None]))
    return np.flatnonzero(bound >= LOOK_MIN_IOU - 1e-6)


def _areas(quads: np.ndarray) -> np.ndarray:
    """Areas of quadrilaterals (N, 4, 2) by the shoelace formula."""
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
