"""Shared by the enrollment tests (command line, page, browser)."""

from __future__ import annotations

from pathlib import Path

from skullcam.datasets.deck import load_deck
from skullcam.vision.enroll import Enrollment
from skullcam.vision.enroll_check import CheckResult


def learned_too_little(weak_faces: int = 12) -> CheckResult:
    """A short plan's self-check (helper F's review: a model at 58 %): ``weak_faces`` faces,
    Green 1 onwards, named right on under half of their cards. More than
    ``enroll_check.TOO_MANY_TO_RETAKE`` is a model that learned too little."""
    weak = {f"green-{n}": {"precision": 0.5, "recall": 0.3} for n in range(1, weak_faces + 1)}
    return CheckResult(
        scenes=50,
        cards=200,
        recall=0.6,
        precision=0.7,
        classifier_accuracy=0.58,
        classifier_per_card=weak,
    )


def enrolled(data: Path, name: str, deck: Path) -> Enrollment:
    """Deck ``name``'s enrollment in the data folder ``data`` with every face of the deck
    folder ``deck`` accepted, as a folder of its photos would leave it: ready to adapt."""
    enrollment = Enrollment.open(data, name)
    for face, image in load_deck(deck).items():
        enrollment.accept(face, image)
    return enrollment
