"""Evaluate a recognizer on labelled scenes: the numbers the model card promises.

A labelled card counts as "must be found" when at least half of it is visible; a card mostly
hidden under others or a hand is "don't care": finding it is neither credit nor fault, since
the generator's labels and a human annotator would both skip it. A reading counts as lying on
a don't-care card when its box overlaps the whole card as one card does (IoU) or lies inside
it (a box around the visible part only); if it names another face it is a false alarm, since
it puts a card on the table that is not there.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from skullcam.datasets.scenes import cut_by_frame
from skullcam.errors import UserError
from skullcam.files import write_atomic
from skullcam.vision.crop_dataset import MATCH_IOU, MIN_VISIBLE, ON_HIDDEN_CARD, LabelledCard
from skullcam.vision.detection import Detection
from skullcam.vision.image_io import has_colour, no_colour_error, read_image
from skullcam.vision.obb import polygon_inside, polygon_iou
from skullcam.vision.scene_compare import write_scene_verdicts

IOU_THRESHOLDS = np.round(np.arange(0.5, 0.96, 0.05), 2)


RIGHT = "right"
"""A must-find card read as its own face."""
MISREAD = "misread"
"""A must-find card read as another face: a false alarm and a miss."""
EXTRA = "extra"
"""A reading on no labelled card: a false alarm."""
HIDDEN_RIGHT = "hidden right"
"""A card under half visible read as its own face: neither credit nor fault."""
HIDDEN_WRONG = "hidden wrong"
"""A card under half visible read as another face: a false alarm (that card is not there)."""


@dataclass
class SceneOutcome:
    image: Path
    truth: list[LabelledCard]
    detections: list[Detection]
    ious: np.ndarray  # (n_det, n_truth)
    errors: list[str] = field(default_factory=list)
    matches: list[int | None] = field(default_factory=list)
    """Per detection, the truth card it was matched to (any face, IoU >= MATCH_IOU, or lying
    on a don't-care card), or None."""

    @property
    def correct(self) -> bool:
        return not self.errors

    def verdict(self, d: int) -> str:
        """What detection ``d`` is: ``RIGHT``, ``MISREAD``, ``EXTRA``, ``HIDDEN_RIGHT`` or
        ``HIDDEN_WRONG``; the one place that says how a reading counts."""
        m = self.matches[d]
        if m is None:
            return EXTRA
        card = self.truth[m]
        right = card.face == self.detections[d].card
        if card.visible_fraction >= MIN_VISIBLE:
            return RIGHT if right else MISREAD
        return HIDDEN_RIGHT if right else HIDDEN_WRONG

    def card_of(self, d: int) -> LabelledCard:
        """The truth card detection ``d`` was matched to (it must have been)."""
        m = self.matches[d]
        assert m is not None, f"detection {d} matched no card"
        return self.truth[m]

    def missed(self) -> list[LabelledCard]:
        """The must-find cards no detection was matched to."""
        found = {m for m in self.matches if m is not None}
        return [
            card
            for t, card in enumerate(self.truth)
            if t not in found and card.visible_fraction >= MIN_VISIBLE
        ]


def _match(
    ious: np.ndarray,
    dets: Sequence[Detection],
    truth: Sequence[LabelledCard],
    threshold: float,
    same_class: bool,
    matches: list[int | None] | None = None,
) -> list[int | None]:
    """Greedy by confidence: each detection takes the best still-free truth card above IoU.

    ``matches`` are pairs already made: those detections keep their card, and their cards are
    taken."""
    matches = list(matches) if matches is not None else [None] * len(dets)
    taken = {m for m in matches if m is not None}
    for d in sorted(range(len(dets)), key=lambda i: -dets[i].confidence):
        if matches[d] is not None:
            continue
        best, best_iou = None, threshold
        for t in range(len(truth)):
            if t in taken or ious[d, t] < best_iou:
                continue
            if same_class and truth[t].face != dets[d].card:
                continue
            best, best_iou = t, ious[d, t]
        if best is not None:
            taken.add(best)
            matches[d] = best
    return matches


def _attach_to_hidden(
    matches: list[int | None],
    dets: Sequence[Detection],
    truth: Sequence[LabelledCard],
    same_class: bool,
) -> list[int | None]:
    """Give each still unmatched reading the free don't-care card its box lies on, if any.

    A box around the visible third of a card has an IoU of about a third with the card's whole
    outline, so IoU matching alone counted a right reading of a hidden card as a false alarm.
    The same face is preferred, then the card holding more of the box.
    """
    taken = {m for m in matches if m is not None}
    result = list(matches)
    for d in sorted(range(len(dets)), key=lambda i: -dets[i].confidence):
        if result[d] is not None:
            continue
        best, best_key = None, (False, 0.0)
        for t, card in enumerate(truth):
            if t in taken or card.visible_fraction >= MIN_VISIBLE:
                continue
            same = card.face == dets[d].card
            if same_class and not same:
                continue
            inside = polygon_inside(dets[d].corners, card.corners)
            if inside >= ON_HIDDEN_CARD and (same, inside) > best_key:
                best, best_key = t, (same, inside)
        if best is not None:
            taken.add(best)
            result[d] = best
    return result


def judge_scene(image: Path, truth: list[LabelledCard], dets: list[Detection]) -> SceneOutcome:
    """Match readings to cards and name every error of the scene.

    Readings are matched to cards of their own face first, as COCO matches within a class,
    and only then to any card, which is how a misread is found. Matching across faces at once
    let a right reading of a card lying squarely on a hidden one take the hidden card, whose
    outline it fits a little better, and counted it as a false alarm plus a missed card: 6 of
    1,300 validation scenes were failed that way with ``skullcam-20261130-232511``.
    """
    ious = np.array([[polygon_iou(d.corners, t.corners) for t in truth] for d in dets])
    ious = ious.reshape(len(dets), len(truth))
    matches = _match(ious, dets, truth, MATCH_IOU, same_class=True)
    matches = _match(ious, dets, truth, MATCH_IOU, same_class=False, matches=matches)
    matches = _attach_to_hidden(matches, dets, truth, same_class=False)
    outcome = SceneOutcome(image, truth, dets, ious, matches=matches)
    for d, det in enumerate(dets):
        verdict = outcome.verdict(d)
        if verdict == EXTRA:
            outcome.errors.append(f"extra {det.card} ({det.confidence:.2f})")
        elif verdict == MISREAD:
            outcome.errors.append(f"{outcome.card_of(d).face} read as {det.card}")
        elif verdict == HIDDEN_WRONG:
            card = outcome.card_of(d)
            outcome.errors.append(
                f"extra {det.card} ({det.confidence:.2f}) on a hidden {card.face} "
                f"({card.visible_fraction:.0%} visible)"
            )
    for card in outcome.missed():
        outcome.errors.append(f"missed {card.face} ({card.visible_fraction:.0%} visible)")
    return outcome


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """COCO's 101-point interpolated AP; no detections at all is an AP of zero.

    As pycocotools does it: at each recall point, the best precision at that recall or more
    (0 past the highest recall reached). Interpolating linearly between a final point and an
    appended (1, 0) instead gave a perfect detector 0.990.
    """
    if len(recall) == 0:
        return 0.0
    envelope = np.flip(np.maximum.accumulate(np.flip(np.asarray(precision, float))))
    points = np.linspace(0, 1, 101)
    index = np.searchsorted(np.asarray(recall, float), points, side="left")
    reached = index < len(envelope)
    return float(envelope[index[reached]].sum() / len(points))


def mean_average_precision(outcomes: Sequence[SceneOutcome]) -> dict[float, float]:
    """Class-aware mAP at each IoU threshold, over classes that have must-find cards."""
    result = {}
    for thr in IOU_THRESHOLDS:
        scored: dict[str, list[tuple[float, bool]]] = defaultdict(list)
        positives: dict[str, int] = defaultdict(int)
        for o in outcomes:
            for t in o.truth:
                if t.visible_fraction >= MIN_VISIBLE:
                    positives[t.face] += 1
            matches = _match(o.ious, o.detections, o.truth, float(thr), same_class=True)
            matches = _attach_to_hidden(matches, o.detections, o.truth, same_class=True)
            for d, m in enumerate(matches):
                det = o.detections[d]
                if m is not None and o.truth[m].visible_fraction < MIN_VISIBLE:
                    continue  # a don't-care card: neither credit nor fault
                scored[det.card].append((det.confidence, m is not None))
        aps = []
        for face, n_pos in positives.items():
            hits = sorted(scored.get(face, []), key=lambda s: -s[0])
            tp = np.cumsum([h for _, h in hits]) if hits else np.zeros(0)
            fp = np.cumsum([not h for _, h in hits]) if hits else np.zeros(0)
            recall = tp / n_pos if hits else np.zeros(0)
            precision = tp / np.maximum(tp + fp, 1) if hits else np.zeros(0)
            aps.append(average_precision(recall, precision))
        result[float(thr)] = float(np.mean(aps)) if aps else 0.0
    return result


def per_card_counts(outcomes: Sequence[SceneOutcome]) -> dict[str, dict[str, int]]:
    """TP/FP/FN per face at the scene's matches with the recognizer's own output (its
    operating point)."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0})
    for o in outcomes:
        for d, det in enumerate(o.detections):
            verdict = o.verdict(d)
            if verdict == RIGHT:
                counts[det.card]["tp"] += 1
            elif verdict != HIDDEN_RIGHT:  # extra, misread, or a phantom on a hidden card
                counts[det.card]["fp"] += 1
            if verdict == MISREAD:
                counts[o.card_of(d).face]["fn"] += 1
        for card in o.missed():
            counts[card.face]["fn"] += 1
    return dict(counts)


def frame_edge_recall(
    outcomes: Sequence[SceneOutcome], sizes: Sequence[tuple[int, int]]
) -> dict[str, float | int]:
    """Per-card recall of the must-find cards the frame's edge cuts, and of the others.

    Cards cut by the edge (mostly a previous trick's cards at the side of the table) were 8 %
    of must-find cards but half the missed ones (docs/model-history.md); this keeps that split
    in every report, so a change aimed at them can be measured on them."""
    found = {"edge": [0, 0], "inside": [0, 0]}  # right, must-find
    for outcome, size in zip(outcomes, sizes, strict=True):
        right = {
            outcome.matches[d]
            for d in range(len(outcome.detections))
            if outcome.verdict(d) == RIGHT
        }
        for t, card in enumerate(outcome.truth):
            if card.visible_fraction < MIN_VISIBLE:
                continue
            tally = found["edge" if cut_by_frame(card.corners, size) else "inside"]
            tally[0] += t in right
            tally[1] += 1
    return {
        "edge_cards": found["edge"][1],
        "edge_recall": found["edge"][0] / max(1, found["edge"][1]),
        "inside_cards": found["inside"][1],
        "inside_recall": found["inside"][0] / max(1, found["inside"][1]),
    }


def confusion_pairs(outcomes: Sequence[SceneOutcome]) -> dict[tuple[str, str], int]:
    """(true face, predicted face or 'missed'/'extra') -> count."""
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    for o in outcomes:
        for d, det in enumerate(o.detections):
            verdict = o.verdict(d)
            if verdict in (EXTRA, HIDDEN_WRONG):
                pairs[("extra", det.card)] += 1
            elif verdict in (RIGHT, MISREAD):
                pairs[(o.card_of(d).face, det.card)] += 1
        for card in o.missed():
            pairs[(card.face, "missed")] += 1
    return dict(pairs)


def draw_confusion(pairs: dict[tuple[str, str], int], classes: Sequence[str], path: Path) -> None:
    """A confusion-matrix heat map with 'missed' and 'extra' as extra row/column."""
    labels = [*classes, "missed"]
    rows = [*classes, "extra"]
    cell = 12
    margin = 110
    img = np.full(
        (margin + cell * len(rows) + 10, margin + cell * len(labels) + 10, 3), 255, np.uint8
    )
    matrix = np.zeros((len(rows), len(labels)))
    for (true, pred), n in pairs.items():
        if true in rows and pred in labels:
            matrix[rows.index(true), labels.index(pred)] += n
    norm = matrix / np.maximum(matrix.sum(axis=1, keepdims=True), 1)
    for r in range(len(rows)):
        for c in range(len(labels)):
            if matrix[r, c] == 0:
                continue
            shade = int(255 * (1 - norm[r, c]))
            colour = (shade, shade, 255) if r != c else (shade, 255, shade)
            y, x = margin + r * cell, margin + c * cell
            cv2.rectangle(img, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
    for i, name in enumerate(rows):
        cv2.putText(
            img, name[:14], (2, margin + i * cell + 9), cv2.FONT_HERSHEY_PLAIN, 0.6, (0, 0, 0), 1
        )
    for i, name in enumerate(labels):
        x = margin + i * cell + 9
        for j, ch in enumerate(name[:12]):
            cv2.putText(img, ch, (x - 7, 8 + j * 8), cv2.FONT_HERSHEY_PLAIN, 0.55, (0, 0, 0), 1)
    cv2.imwrite(str(path), img)


def annotate(frame: np.ndarray, outcome: SceneOutcome) -> np.ndarray:
    """Truth in green outlines, detections in blue (right) or red (wrong), errors listed."""
    img = frame.copy()
    for t in outcome.truth:
        colour = (0, 200, 0) if t.visible_fraction >= MIN_VISIBLE else (0, 120, 0)
        cv2.polylines(img, [t.corners.astype(np.int32)], True, colour, 1)
    for i, d in enumerate(outcome.detections):
        ok = outcome.verdict(i) in (RIGHT, HIDDEN_RIGHT)
        colour = (255, 120, 0) if ok else (0, 0, 255)
        cv2.polylines(img, [np.asarray(d.corners, np.int32)], True, colour, 2)
        x, y = int(d.box[0]), max(10, int(d.box[1]) - 3)
        cv2.putText(
            img,
            f"{d.card} {d.confidence:.2f}",
            (x, y),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4,
            colour,
            1,
            cv2.LINE_AA,
        )
    for i, err in enumerate(outcome.errors[:6]):
        cv2.putText(
            img, err, (5, 15 + 15 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 255), 1, cv2.LINE_AA
        )
    return img


def evaluate(
    recognize: Callable[[np.ndarray], list[Detection]],
    scenes: Sequence[tuple[Path, list[LabelledCard]]],
    classes: Sequence[str],
    out_dir: Path | None = None,
    worst: int = 12,
    progress: bool = True,
    explain: Callable[[np.ndarray, SceneOutcome], Counter[str]] | None = None,
    about: dict[str, object] | None = None,
) -> dict[str, object]:
    """Run ``recognize`` over every scene and summarise; with ``out_dir``, write the summary,
    each scene's verdict (``scenes.jsonl``, for ``skullcam eval --against``) and images there.

    ``explain`` (see :mod:`skullcam.vision.error_causes`) is asked about each scene with
    errors; its counts are summed under ``error_causes``. ``about`` (what the figures were
    measured on, such as the libraries that rendered the scenes) is kept in the summary.
    """
    outcomes = []
    frame_sizes: list[tuple[int, int]] = []
    causes: Counter[str] = Counter()
    for image_path, truth in tqdm(scenes, desc="evaluating", unit="scene", disable=not progress):
        frame = read_image(image_path)  # its errors name the file
        if truth and not has_colour(frame):
            # Scenes of cards without colour are a broken dataset (grey cards read as wrong
            # faces); an empty table on a grey cloth, which the generator draws now and then,
            # is scored as what it is.
            raise no_colour_error(str(image_path))
        try:
            found = recognize(frame)
        except UserError as err:  # the recognizer's do not
            raise UserError(f"{image_path}: {err}") from None
        outcome = judge_scene(image_path, truth, found)
        outcomes.append(outcome)
        frame_sizes.append((frame.shape[1], frame.shape[0]))
        if explain is not None and not outcome.correct:
            causes += explain(frame, outcome)
    counts = per_card_counts(outcomes)
    pairs = confusion_pairs(outcomes)
    tp = sum(c["tp"] for c in counts.values())
    fp = sum(c["fp"] for c in counts.values())
    fn = sum(c["fn"] for c in counts.values())
    maps = mean_average_precision(outcomes)
    overlapped = [o for o in outcomes if any(t.visible_fraction < 0.999 for t in o.truth)]
    summary: dict[str, object] = {
        "scenes": len(outcomes),
        "cards": tp + fn,
        "precision": tp / max(1, tp + fp),
        "recall": tp / max(1, tp + fn),
        "mAP50": maps[0.5],
        "mAP50-95": float(np.mean(list(maps.values()))),
        "scene_accuracy": sum(o.correct for o in outcomes) / max(1, len(outcomes)),
        "scene_accuracy_overlapped": sum(o.correct for o in overlapped) / max(1, len(overlapped)),
        "overlapped_scenes": len(overlapped),
        "frame_edge": frame_edge_recall(outcomes, frame_sizes),
        "hidden_read_right": sum(
            o.verdict(d) == HIDDEN_RIGHT for o in outcomes for d in range(len(o.detections))
        ),
        "per_card": {
            face: {
                "precision": c["tp"] / max(1, c["tp"] + c["fp"]),
                "recall": c["tp"] / max(1, c["tp"] + c["fn"]),
                **c,
            }
            for face, c in sorted(counts.items())
        },
        # most frequent first; ties in the order they were counted (a stable sort)
        "confusions": [
            [t, p, n] for (t, p), n in sorted(pairs.items(), key=lambda item: -item[1]) if t != p
        ][:20],
    }
    if explain is not None:
        summary["error_causes"] = dict(causes.most_common())
    summary.update(about or {})
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(out_dir / "metrics.json", json.dumps(summary, indent=2) + "\n")
        write_scene_verdicts([(o.image, o.errors) for o in outcomes], out_dir)
        draw_confusion(pairs, classes, out_dir / "confusion.png")
        bad = sorted((o for o in outcomes if not o.correct), key=lambda o: -len(o.errors))
        for i, o in enumerate(bad[:worst]):
            picture = cv2.imread(str(o.image), cv2.IMREAD_COLOR)
            if picture is None:
                raise UserError(f"cannot read scene image {o.image}")
            cv2.imwrite(str(out_dir / f"worst_{i:02d}_{o.image.stem}.jpg"), annotate(picture, o))
    return summary
