"""How a frame's boxes are named from what the networks said (``BoxEvidence``): the
classifier's and the corner reader's probabilities combined, the reading rules, and one card
kept where two boxes cover it. Kept apart from the networks that feed it, so the rules and
their thresholds can be tried on saved evidence without running them again
(``vision/reading_choice.py``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from skullcam.rules import copies_in_deck
from skullcam.vision import obb
from skullcam.vision.crops import order_long_side_vertical
from skullcam.vision.detection import Detection

if TYPE_CHECKING:
    from skullcam.vision.recognizer import ModelManifest

NOT_A_CARD = "none"
"""The classifier's class for a box that is no card (or too little of one to name)."""

SAME_CARD_IOU = 0.3
"""Two readings of one face overlapping more than this (polygon IoU) are one card read twice."""
ANY_CARD_IOU = 0.5
"""Two readings of any faces overlapping more than this are one card: the outline of a card
under another overlaps it this much only when under a third of it shows, too little to read."""
COVERED_SHARE = 0.3
COVERED_MIN_CONFIDENCE = 0.1
"""A reading whose box lies at least ``COVERED_SHARE`` inside a surer reading's box needs this
confidence (classifier times detector) to stand. Such a box is a card mostly under another,
and an unsure reading of one is usually a phantom face (an early model on 1,300 validation
scenes: 77 of the 117 false alarms were readings of a card under half visible as another face,
median confidence 0.16; 0.2 took scene accuracy from 89.7 % to 91.8 %, 49 false alarms fewer
for 7 missed cards more). With a classifier that learned covered cards
(``crop_dataset.crops_from_candidates``), as the shipped one did, 0.2 only drops right readings
of half-covered cards; 0.1 (or 0.05, or no rule) reads 3 + 1 more of 8,000 validation scenes
right and breaks none, no false alarm added."""
SECOND_OPINION_BELOW = 0.9
"""The classifier's top probability under which the corner reader is asked. Asking it about
every box scored the same as asking below 0.8 or 0.9 (98.00 %), below 0.7 97.92 %: a sure
classifier is not second-guessed, and the corner reader runs on ~2 of ~6 boxes a frame."""


@dataclass(frozen=True)
class BoxEvidence:
    """What the networks said about one frame's boxes, before any reading rule: kept apart
    so that reading rules and their thresholds can be tried without running them again."""

    quads: np.ndarray  # (K, 4, 2) frame pixels
    det_scores: np.ndarray  # (K,)
    classifier: np.ndarray  # (K, n_classes)
    asked: np.ndarray  # indices of the boxes the corner reader read
    marks: np.ndarray  # (len(asked), 2, n_classes): both corner marks of each of those


def gives_up(probs: np.ndarray, manifest: ModelManifest) -> np.ndarray:
    """Per box: the reading names no card (``none``, or a face below ``min_confidence``)."""
    none = manifest.classes.index(NOT_A_CARD)
    return (probs.argmax(axis=1) == none) | (probs.max(axis=1) < manifest.min_confidence)


def face_probabilities(
    evidence: BoxEvidence, manifest: ModelManifest
) -> tuple[np.ndarray, np.ndarray]:
    """Per box, the face probabilities its reading goes by, and the corner reader's own
    reading (its surer mark) for a card those give up on; zeros for a box it did not read.

    Where the classifier is unsure (``SECOND_OPINION_BELOW``) and the model weighs the corner
    reader in (``corner_weight``), the two opinions are combined (``combine_readings``).
    """
    probs = evidence.classifier.copy()
    alone = np.zeros_like(probs)
    asked = evidence.asked
    if asked.size == 0:
        return probs, alone
    alone[asked] = surer_corner(evidence.marks, manifest.classes.index(NOT_A_CARD))
    if manifest.corner_weight > 0:
        fuse = probs[asked].max(axis=1) < SECOND_OPINION_BELOW
        probs[asked[fuse]] = combine_readings(
            probs[asked[fuse]], evidence.marks[fuse], manifest.corner_weight
        )
    return probs, alone


def box_names(evidence: BoxEvidence, manifest: ModelManifest) -> tuple[np.ndarray, np.ndarray]:
    """Per box, the class index its reading names and that reading's probability; -1 (and 0)
    for a box no reader names."""
    probs, corner_alone = face_probabilities(evidence, manifest)
    none = manifest.classes.index(NOT_A_CARD)
    unread = gives_up(probs, manifest)
    corner_read = np.zeros(len(probs), bool)
    corner_read[evidence.asked] = True
    # A box the classifier gave up on is often a card half under another with one corner mark
    # in view: the corner reader names it on its own when it is sure.
    chosen = np.where(unread[:, None], corner_alone, probs)
    names = chosen.argmax(axis=1)
    p = chosen[np.arange(len(chosen)), names]
    named = ~unread | (corner_read & (names != none) & (p >= manifest.corner_min_confidence))
    return np.where(named, names, -1), np.where(named, p, 0.0)


def named_readings(
    evidence: BoxEvidence, manifest: ModelManifest, names: np.ndarray, p: np.ndarray
) -> list[Detection]:
    """A reading of each box ``box_names`` named, not yet merged."""
    return [
        _reading(manifest.classes[name], float(p[k]), evidence.quads[k], float(score))
        for k, (name, score) in enumerate(zip(names, evidence.det_scores, strict=True))
        if name >= 0
    ]


def read_cards(evidence: BoxEvidence, manifest: ModelManifest) -> list[Detection]:
    """The cards a frame's evidence says are there, under the manifest's reading rules (the
    first look: ``Recognizer.__call__`` adds the second look and the edge look)."""
    return drop_overlapping_readings(
        named_readings(evidence, manifest, *box_names(evidence, manifest))
    )


SECOND_LOOK_MIN_CONFIDENCE = 0.5
"""How sure a reading of a box the second look tried must be to name a card (the classifier
with the corner reader's second opinion, as any box is read; the corner reader alone is not
asked here). On 1,300 validation scenes: 0.25 / 0.3 / 0.4 / 0.5 / 0.6 / 0.7 / 0.9
gave 97.85 / 98.00 / 98.15 / 98.23 / 98.15 / 98.08 / 98.00 % of scenes right against 98.00 %
without a second look: below 0.4 it names phantoms on boxes straddling two cards."""


EDGE_LOOK_MIN_CONFIDENCE = 0.7
"""How sure a reading of a cut box completed to a whole card must be to name it. On
5,000 validation scenes: 0.5 and 0.7 fixed the same 10 scenes, 0.9 fixed 8; none broke one."""


def sure_readings(
    evidence: BoxEvidence, manifest: ModelManifest, at_least: float = SECOND_LOOK_MIN_CONFIDENCE
) -> list[Detection]:
    """The readings of a look at boxes no reader named: boxes whose face reads at
    ``at_least`` or more. Not merged here: the caller merges them with the frame's first
    readings."""
    probs, _ = face_probabilities(evidence, manifest)
    none = manifest.classes.index(NOT_A_CARD)
    found = []
    for quad, det_score, p in zip(evidence.quads, evidence.det_scores, probs, strict=True):
        best = int(p.argmax())
        if best != none and p[best] >= at_least:
            found.append(_reading(manifest.classes[best], float(p[best]), quad, float(det_score)))
    return found


def turned(batch: np.ndarray) -> np.ndarray:
    """An NCHW batch of crops turned 180 degrees."""
    return np.ascontiguousarray(batch[:, :, ::-1, ::-1])


def softmax(logits: np.ndarray) -> np.ndarray:
    """Class probabilities from a network's logits (N, C), row by row; the row's largest logit
    is taken off first so that ``exp`` cannot overflow."""
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    return probs / probs.sum(axis=1, keepdims=True)


def surer_corner(marks: np.ndarray, none: int) -> np.ndarray:
    """(K, 2, C) -> (K, C): per card, the mark that reads surer as a face; the first if both
    read ``none`` (class index ``none``)."""
    face_p = np.where(marks.argmax(axis=2) != none, marks.max(axis=2), 0.0)
    return marks[np.arange(len(marks)), face_p.argmax(axis=1)]


def combine_readings(classifier: np.ndarray, marks: np.ndarray, weight: float) -> np.ndarray:
    """The classifier's probabilities (K, C) times the mean of the two corner marks' (K, 2, C)
    raised to ``weight``, renormalised: a weighted product of experts, in which a face the
    corner reader finds unlikely is damped, not erased (a small weight, and a floor, so a
    covered mark reading ``none`` cannot zero every face)."""
    product = classifier * np.power(marks.mean(axis=1) + 1e-6, weight)
    return product / product.sum(axis=1, keepdims=True)


def _reading(name: str, p: float, quad: np.ndarray, det_score: float) -> Detection:
    """A card reading: its confidence is the reader's probability times the detector score."""
    return Detection.from_corners(name, p * det_score, order_long_side_vertical(quad), det_score)


def drop_overlapping_readings(
    detections: list[Detection],
    same_face_iou: float = SAME_CARD_IOU,
    any_face_iou: float = ANY_CARD_IOU,
    covered_share: float = COVERED_SHARE,
    covered_min_confidence: float = COVERED_MIN_CONFIDENCE,
) -> list[Detection]:
    """Going from the surest reading down, drop those that overlap a kept one as no second card
    would: two boxes on one card, or an unsure reading of a card mostly covered by another; and
    those of a face the deck holds no more of (one purple-2, five escapes: one deck is on the
    table, so a second purple-2 is a misread, and the surer reading is kept).

    Readings of the same face merge at a small overlap, different faces only at a large one:
    two different faces overlapping moderately are two cards in a pile, the very case the
    loose detector threshold exists for. Measured on 1,300 validation scenes (NMS 0.5 and no
    merging -> merging): scene accuracy 90.9 % -> 92.7 %. The covered rule: see
    ``COVERED_MIN_CONFIDENCE``. The deck's count (3,300 validation scenes): 3 frames
    held a face twice; 3,228 -> 3,229 scenes right, and the trick never holds a card twice.
    """
    kept: list[Detection] = []
    seen: Counter[str] = Counter()
    for det in sorted(detections, key=lambda d: -d.confidence):
        if seen[det.card] < copies_in_deck(det.card) and not any(
            _one_card(k, det, same_face_iou, any_face_iou)
            or (
                det.confidence < covered_min_confidence
                and obb.polygon_inside(det.corners, k.corners) >= covered_share
            )
            for k in kept
        ):
            kept.append(det)
            seen[det.card] += 1
    return kept


def _one_card(kept: Detection, det: Detection, same_face_iou: float, any_face_iou: float) -> bool:
    iou = obb.polygon_iou(kept.corners, det.corners)
    return iou > any_face_iou or (kept.card == det.card and iou > same_face_iou)
