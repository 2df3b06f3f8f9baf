"""Why the recognizer got a scene wrong: each miss and false alarm put down to one cause.

Scene accuracy says how often; the next change needs to know where. A missed card was never
boxed by the detector, boxed but the box lost in NMS to a neighbour's, or boxed and then
dropped because the classifier could not read it (or its reading merged into another). A false
alarm is usually a real card under half visible read as another face (or read twice, or with a
box half off it), a visible card whose box is off, or something that is no card at all. These
counts are what the model card's error analyses are made of (``skullcam eval`` prints them).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from skullcam.vision.evaluate import EXTRA, HIDDEN_WRONG, MATCH_IOU, MIN_VISIBLE, SceneOutcome
from skullcam.vision.obb import polygon_iou
from skullcam.vision.readings import NOT_A_CARD
from skullcam.vision.recognizer import Recognizer

MISS_NO_BOX = "missed: no box"
MISS_SUPPRESSED = "missed: box lost in NMS"
MISS_UNREAD = "missed: classifier unsure or says not a card"
MISS_MERGED = "missed: read, then merged or matched elsewhere"
EXTRA_HIDDEN_RIGHT = "extra: a card under half visible, right face, read twice or box off it"
EXTRA_HIDDEN_WRONG = "extra: a card under half visible, other face"
EXTRA_POOR_BOX = "extra: a visible card, box off"
EXTRA_NOTHING = "extra: no card there"


def explain_errors(
    recognizer: Recognizer, frame: np.ndarray, outcome: SceneOutcome
) -> Counter[str]:
    """One cause per missed must-find card and per false alarm of ``outcome``."""
    causes: Counter[str] = Counter()
    missed = outcome.missed()
    if missed:
        boxes = recognizer.detect(frame)
        probs = recognizer.read_faces(frame, boxes.quads)
        for card in missed:
            causes[_miss_cause(recognizer, card.corners, boxes.candidates, boxes.quads, probs)] += 1
    for d in range(len(outcome.detections)):
        verdict = outcome.verdict(d)
        if verdict == EXTRA:
            causes[_extra_cause(outcome, d)] += 1
        elif verdict == HIDDEN_WRONG:
            causes[EXTRA_HIDDEN_WRONG] += 1
    return causes


def _miss_cause(
    recognizer: Recognizer,
    corners: np.ndarray,
    candidates: np.ndarray,
    kept: np.ndarray,
    probs: np.ndarray,
) -> str:
    if not any(polygon_iou(q, corners) >= MATCH_IOU for q in candidates):
        return MISS_NO_BOX
    overlaps = [polygon_iou(q, corners) for q in kept]
    if not overlaps or max(overlaps) < MATCH_IOU:
        return MISS_SUPPRESSED
    p = probs[int(np.argmax(overlaps))]
    best = int(p.argmax())
    unsure = p[best] < recognizer.manifest.min_confidence
    if recognizer.manifest.classes[best] == NOT_A_CARD or unsure:
        return MISS_UNREAD
    return MISS_MERGED


def _extra_cause(outcome: SceneOutcome, d: int) -> str:
    if not outcome.truth:
        return EXTRA_NOTHING
    t = int(np.argmax(outcome.ious[d]))
    if outcome.ious[d, t] < 0.1:
        return EXTRA_NOTHING
    card = outcome.truth[t]
    if card.visible_fraction < MIN_VISIBLE:
        right = outcome.detections[d].card == card.face
        return EXTRA_HIDDEN_RIGHT if right else EXTRA_HIDDEN_WRONG
    return EXTRA_POOR_BOX
