"""How the classifier's training crops cut at the detector's boxes are labelled."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from skullcam.vision.crop_dataset import LabelledCard, crops_from_detector
from skullcam.vision.training import CLASSES


def box(x: float, y: float, w: float = 60, h: float = 90) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_boxes_are_labelled_by_the_card_they_lie_on(tmp_path: Path) -> None:
    image = tmp_path / "scene.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 90, np.uint8))
    cards = [
        LabelledCard("green-7", box(300, 200), 1.0),
        LabelledCard("kraken", box(100, 100), 0.2),  # a sliver shows: taught as "none"
        LabelledCard("escape", box(100, 300), 0.4),  # a corner may show: left out
    ]
    quads = np.stack(
        [
            box(302, 201),  # the visible card
            box(100, 100, 20, 90),  # the kraken's visible strip only
            box(101, 301),  # the whole escape outline
            box(500, 20),  # nothing there (a hand, clutter)
        ]
    )
    crops = crops_from_detector([(image, cards)], CLASSES, lambda frame: quads)
    assert [CLASSES[i] for i in crops.labels] == ["green-7", "none", "none"]
    everything_left_out = crops_from_detector(
        [(image, cards)], CLASSES, lambda frame: quads, hidden_is_none_below=0.0
    )
    assert [CLASSES[i] for i in everything_left_out.labels] == ["green-7", "none"]
