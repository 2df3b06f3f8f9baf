"""Stand-ins for the recognizer's networks, for tests of its reading rules: one box, and
the class probabilities the classifier and the corner reader give it."""

from __future__ import annotations

import numpy as np
import pytest

from skullcam.vision.recognizer import DetectorBoxes, Recognizer

UPRIGHT = np.array([[100, 100], [156, 100], [156, 187], [100, 187]], np.float32)


def probs_of(recognizer: Recognizer, **faces: float) -> np.ndarray:
    """One row of class probabilities: the named faces (``green_7=0.4``) at their values, the
    rest spread evenly."""
    classes = recognizer.manifest.classes
    named = {name.replace("_", "-"): p for name, p in faces.items()}
    rest = (1 - sum(named.values())) / (len(classes) - len(named))
    row = np.full(len(classes), rest, np.float32)
    for name, p in named.items():
        row[classes.index(name)] = p
    return row


def stub_networks(
    recognizer: Recognizer,
    monkeypatch: pytest.MonkeyPatch,
    classifier: np.ndarray,
    marks: np.ndarray,
) -> list[int]:
    """One box at detector score 0.8 that the classifier reads as ``classifier`` and whose two
    corner marks read as ``marks``; returns a list that counts the corner reader's calls."""
    calls: list[int] = []

    def corner_readings(frame: np.ndarray, quads: np.ndarray) -> np.ndarray:
        calls.append(len(quads))
        return np.stack([marks] * len(quads))

    one_box = DetectorBoxes(
        UPRIGHT[None], np.array([0.8], np.float32), UPRIGHT[None], np.array([0.8], np.float32)
    )
    monkeypatch.setattr(recognizer, "detect", lambda frame: one_box)
    monkeypatch.setattr(recognizer, "classify", lambda frame, quads: classifier[None].copy())
    monkeypatch.setattr(recognizer, "corner_readings", corner_readings)
    return calls
