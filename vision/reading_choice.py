"""Choose a model's corner weight on its own validation scenes.

How much the corner reader's second opinion should count depends on how good each reader is on
the deck at hand. On the stand-in deck the classifier is strong and 0.25 was best for
``skullcam-20261130-232511`` (1,300 validation scenes; the shipped model reads best at 0.5); after
enrolling a deck with other art, the classifier is the weaker reader (96.7 % of true outlines)
and 0.5-1.0 read more scenes right (500 unseen scenes of the alt deck: 88.8 % at 0.25, 89.8 % at
0.5, 89.6 % at 1.0). So enrollment chooses the weight on the validation scenes it has rendered
anyway, the way a threshold is chosen: the networks run once per scene, and each candidate
weight is only a reading rule.

The choice scores the first look only. The second look (``vision/second_look.py``) reads
other boxes again where the first found nothing, and which boxes those are depends on the
weight, so scoring it would mean running the networks again for every weight; it changes a
few scenes in a thousand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
from tqdm import tqdm

from skullcam.errors import UserError
from skullcam.vision.crop_dataset import Scene
from skullcam.vision.enroll_messages import Message, message, render
from skullcam.vision.evaluate import judge_scene
from skullcam.vision.readings import BoxEvidence, read_cards
from skullcam.vision.recognizer import Recognizer

CORNER_WEIGHTS = (0.0, 0.25, 0.5, 1.0)
"""The weights tried. Above 1.0 the corner reader outweighs the classifier; on the alt deck
1.5 scored best on the 150 validation scenes and worse than 1.0 on 500 unseen ones."""


@dataclass(frozen=True)
class WeightScore:
    weight: float
    scenes_right: int
    errors: int  # misses, misreads and false alarms, summed over the scenes


@dataclass(frozen=True)
class WeightChoice:
    weight: float
    scenes: int
    scores: tuple[WeightScore, ...]

    def sentence(self) -> str:
        """What enrollment says about the choice, in English."""
        return render(self.said())

    def said(self) -> Message:
        """The choice as a message: the enrollment page words it in its reader's language."""
        tried = tuple(
            message("log_weight_score", weight=float(s.weight), right=s.scenes_right)
            for s in self.scores
        )
        return message(
            "log_corner_weight", weight=float(self.weight), scenes=self.scenes, tried=tried
        )

    def to_json(self) -> dict[str, object]:
        return {
            "weight": self.weight,
            "scenes": self.scenes,
            "scores": [
                {"weight": s.weight, "scenes_right": s.scenes_right, "errors": s.errors}
                for s in self.scores
            ],
        }


def choose_corner_weight(
    recognizer: Recognizer,
    scenes: Sequence[Scene],
    weights: Sequence[float] = CORNER_WEIGHTS,
    progress: bool = True,
) -> WeightChoice:
    """The weight that reads the most ``scenes`` right; ties go to fewer errors, then to the
    smaller weight (the classifier's word, which the model was trained to give)."""
    if not scenes:
        raise ValueError("no validation scenes to choose the corner reader's weight on")
    evidence: list[tuple[Scene, BoxEvidence]] = []
    for image, truth in tqdm(scenes, desc="corner weight", unit="scene", disable=not progress):
        frame = cv2.imread(str(image), cv2.IMREAD_COLOR)
        if frame is None:
            raise UserError(
                f"cannot read validation scene {image}; it was rendered by this run: delete "
                "its folder and run again to render it anew"
            )
        found = recognizer.detect(frame)
        boxes = recognizer.evidence(frame, found.quads, found.scores, second_opinion=True)
        evidence.append(((image, truth), boxes))
    scores = []
    for weight in weights:
        manifest = replace(recognizer.manifest, corner_weight=weight)
        outcomes = [
            judge_scene(image, truth, read_cards(boxes, manifest))
            for (image, truth), boxes in evidence
        ]
        scores.append(
            WeightScore(
                weight,
                sum(o.correct for o in outcomes),
                sum(len(o.errors) for o in outcomes),
            )
        )
    best = max(scores, key=lambda s: (s.scenes_right, -s.errors, -s.weight))
    return WeightChoice(best.weight, len(scenes), tuple(scores))
