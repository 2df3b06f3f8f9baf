"""The corner reader's network (torch; training only, inference runs its ONNX export).

It reads one corner-mark patch (``crops.corner_patches``) at the crop's full resolution, with
no strided first layer: the number in a card's corner is what tells green-12 from green-13,
and it is the part of a half-covered card that most often still shows. ~0.15 M parameters.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from skullcam.vision.classifier_net import _block

FEATURES = 128


class _Quadrants(nn.Module):
    """``AdaptiveAvgPool2d((2, 2))`` spelled out with slices: the 9 x 6 map does not halve
    evenly, and ONNX export refuses adaptive pooling then. Same bins as torch's (the middle
    row belongs to both halves), so the two are interchangeable, weights and all."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h, w = int(x.shape[2]), int(x.shape[3])
        rows = ((0, (h + 1) // 2), (h // 2, h))
        cols = ((0, (w + 1) // 2), (w // 2, w))
        cells = [x[:, :, r0:r1, c0:c1].mean(dim=(2, 3)) for r0, r1 in rows for c0, c1 in cols]
        return torch.stack(cells, dim=2).reshape(x.shape[0], x.shape[1], 2, 2)


class CornerReaderNet(nn.Module):
    """Corner patch (N, 3, 36, 26) RGB in [0, 1] -> class logits (N, n_classes)."""

    def __init__(self, n_classes: int) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 32),
            _block(32, 32),
            nn.MaxPool2d(2),  # 18 x 13
            _block(32, 64),
            _block(64, 64),
            nn.MaxPool2d(2),  # 9 x 6
            _block(64, FEATURES),
        )
        self.pool = _Quadrants()
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(FEATURES * 4, n_classes))

    def forward(self, x: torch.Tensor) -> Any:
        return self.head(self.pool(self.features(x)))

    def replace_head(self, n_classes: int) -> None:
        """A fresh output layer for a new class list, keeping the learned features."""
        self.head[-1] = nn.Linear(FEATURES * 4, n_classes)
