"""The self-check after enrollment: freshly generated scenes of the enrolled deck, evaluated.

Two numbers, because they answer different questions. The whole pipeline (detector, then the
new classifier) is what the game will see: "99.7% of cards right on 500 test scenes". The
classifier alone on the cards' true outlines isolates what enrollment changed (the detector
is copied unchanged), so it decides whether the new model is good enough to become active.
The test scenes come from their own seed: tables, lighting and layouts the fine-tune never saw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from skullcam.errors import UserError
from skullcam.rules import FACES
from skullcam.vision import enroll_messages
from skullcam.vision.crop_dataset import LabelledCard
from skullcam.vision.enroll_messages import CardName, Message, counted, message, render
from skullcam.vision.enroll_messages import card_name as card_name  # re-exported
from skullcam.vision.evaluate import MIN_VISIBLE, evaluate

TEST_SEED_OFFSET = 7919  # test scenes never share a seed with the fine-tune's scenes

TOO_MANY_TO_RETAKE = 10
"""More faces than this read under half right are a model that learned too little, not that
many bad photos: a short plan's model read at 58 % would otherwise send the user to retake
20 photos that a longer run fixes."""


def times(n: int) -> str:
    """How often, in English: "once", "twice", "3 times"."""
    return str(enroll_messages.times(n))


@dataclass
class CheckResult:
    scenes: int
    cards: int
    recall: float  # whole pipeline: share of must-find cards found and named right
    precision: float
    classifier_accuracy: float  # the new classifier alone, on the true card outlines
    per_card: dict[str, dict[str, float]] = field(default_factory=dict)
    classifier_per_card: dict[str, dict[str, float]] = field(default_factory=dict)
    confusions: list[tuple[str, str, int]] = field(default_factory=list)  # (a, b, count)

    def sentence(self) -> str:
        """The plain result: '99.7% of cards right on 500 test scenes; X and Y confused twice'."""
        return render(self.said())

    def said(self) -> tuple[Message, ...]:
        """The sentence as messages, for a page that words it in its reader's language."""
        said = [message("check_right", recall=float(self.recall), scenes=self.scenes)]
        pairs = [c for c in self.confusions if c[1] != "missed" and c[0] != "extra"]
        for a, b, n in pairs[:2]:
            said.append(
                message(
                    "check_confused",
                    a=CardName(a),
                    b=CardName(b),
                    times=enroll_messages.times(n),
                )
            )
        missed = sum(n for a, b, n in self.confusions if b == "missed")
        extra = sum(n for a, b, n in self.confusions if a == "extra")
        if missed:
            said.append(counted("check_not_found", missed))
        if extra:
            said.append(counted("false_alarms", extra))
        return tuple(said)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CheckResult:
        """The result :meth:`to_json` wrote (a model's ``enroll.json``), its sentence again."""
        return cls(
            scenes=int(data["scenes"]),
            cards=int(data["cards"]),
            recall=float(data["recall"]),
            precision=float(data["precision"]),
            classifier_accuracy=float(data["classifier_accuracy"]),
            per_card=dict(data.get("per_card") or {}),
            classifier_per_card=dict(data.get("classifier_per_card") or {}),
            confusions=[(str(a), str(b), int(n)) for a, b, n in data.get("confusions") or []],
        )

    def faces_to_retake(self, below: float = 0.5) -> list[str]:
        """Faces the classifier names right on under ``below`` of their own outlines: with
        about 20 of each in the self-check, that is no unlucky draw but a face photo to
        retake (cut off at the photo's edge so only its print was kept, another card's, or
        blurred), which the model would misread at the table every time."""
        faces = sorted(self.classifier_per_card.items())
        return [f for f, v in faces if f in FACES and v["recall"] < below]  # not "none"

    def learned_too_little(self) -> bool:
        """Too many faces to retake (:data:`TOO_MANY_TO_RETAKE`): the cure is a longer run,
        more scenes and epochs, not photographing again what such a run would learn."""
        return len(self.faces_to_retake()) > TOO_MANY_TO_RETAKE

    def weakest(self, n: int = 3) -> list[tuple[str, float, float]]:
        """The ``n`` faces with the lowest min(precision, recall): (face, precision, recall)."""
        rows = [(f, v["precision"], v["recall"]) for f, v in self.per_card.items()]
        return sorted(rows, key=lambda r: min(r[1], r[2]))[:n]

    def to_json(self) -> dict[str, object]:
        return {
            "scenes": self.scenes,
            "cards": self.cards,
            "recall": round(self.recall, 5),
            "precision": round(self.precision, 5),
            "classifier_accuracy": round(self.classifier_accuracy, 5),
            "sentence": self.sentence(),
            "per_card": self.per_card,
            "classifier_per_card": self.classifier_per_card,
            "confusions": [list(c) for c in self.confusions],
        }


def merge_confusions(rows: Sequence[Sequence[str | int]]) -> list[tuple[str, str, int]]:
    """(true, predicted, n) rows -> unordered pairs with their total, most frequent first."""
    merged: Counter[tuple[str, str]] = Counter()
    for true, pred, n in rows:
        a, b = str(true), str(pred)
        key = (a, b) if b in ("missed",) or a == "extra" else (min(a, b), max(a, b))
        merged[key] += int(n)
    return [(a, b, n) for (a, b), n in merged.most_common()]


def classifier_on_outlines(
    classify: Callable[[np.ndarray, np.ndarray], np.ndarray],
    scenes: Sequence[tuple[Path, list[LabelledCard]]],
    classes: Sequence[str],
) -> tuple[float, dict[str, dict[str, float]]]:
    """The classifier alone, given each must-find card's true outline: the share named right,
    and per face its precision and recall (what enrollment changed, free of detector errors)."""
    counts: dict[str, Counter[str]] = {}
    right = total = 0
    for image_path, truth in scenes:
        cards = [t for t in truth if t.visible_fraction >= MIN_VISIBLE and t.face in classes]
        if not cards:
            continue
        frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if frame is None:
            raise UserError(f"cannot read scene image {image_path}")
        probs = classify(frame, np.stack([c.corners for c in cards]))
        for card, p in zip(cards, probs, strict=True):
            named = classes[int(np.argmax(p))]
            hit = named == card.face
            right += hit
            total += 1
            counts.setdefault(card.face, Counter())["tp" if hit else "fn"] += 1
            if not hit:
                counts.setdefault(named, Counter())["fp"] += 1
    per_card = {
        face: {
            "precision": c["tp"] / max(1, c["tp"] + c["fp"]),
            "recall": c["tp"] / max(1, c["tp"] + c["fn"]),
        }
        for face, c in sorted(counts.items())
    }
    return right / max(1, total), per_card


def self_check(
    model_dir: Path,
    scenes: Sequence[tuple[Path, list[LabelledCard]]],
    progress: bool = True,
) -> CheckResult:
    """Evaluate the model folder ``model_dir`` on labelled ``scenes`` of the enrolled deck."""
    from skullcam.vision.recognizer import Recognizer

    recognizer = Recognizer.load(model_dir)
    classes = recognizer.manifest.classes
    summary = evaluate(recognizer, scenes, classes, progress=progress)
    per_card = summary["per_card"]
    assert isinstance(per_card, dict)
    confusions = summary["confusions"]
    assert isinstance(confusions, list)
    accuracy, outline_per_card = classifier_on_outlines(recognizer.classify, scenes, classes)
    return CheckResult(
        scenes=int(summary["scenes"]),  # type: ignore[call-overload]
        cards=int(summary["cards"]),  # type: ignore[call-overload]
        recall=float(summary["recall"]),  # type: ignore[arg-type]
        precision=float(summary["precision"]),  # type: ignore[arg-type]
        classifier_accuracy=accuracy,
        classifier_per_card=outline_per_card,
        per_card={
            face: {"precision": float(v["precision"]), "recall": float(v["recall"])}
            for face, v in per_card.items()
        },
        confusions=merge_confusions(confusions),
    )
