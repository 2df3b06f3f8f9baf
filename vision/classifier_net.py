"""The face classifier network (torch; training only, inference runs its ONNX export).

Small on purpose (~0.3 M parameters, ~20 M multiply-adds per crop): it sees one 64 x 96
rectified card at a time, and it is the part ``skullcam enroll`` retrains on a Pi for a user's
own deck, in minutes.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn


def _block(c_in: int, c_out: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


FEATURES = 128


class CardClassifier(nn.Module):
    """Rectified card crop (N, 3, 96, 64) RGB in [0, 1] -> class logits (N, n_classes)."""

    def __init__(self, n_classes: int) -> None:
        super().__init__()
        self.features = nn.Sequential(
            # A strided first layer: full-resolution feature maps cost most of the time on a
            # CPU and buy nothing at this crop size (measured 4.2 -> 2.0 ms per training crop).
            _block(3, 24, stride=2),  # 48 x 32
            _block(24, 32),
            nn.MaxPool2d(2),  # 24 x 16
            _block(32, 64),
            nn.MaxPool2d(2),  # 12 x 8
            _block(64, 128),
            nn.MaxPool2d(2),  # 6 x 4
            _block(128, FEATURES),
        )
        # 2 x 2 pooling keeps coarse layout (corner marks vs. centre picture) that a global
        # average would wash out.
        self.pool = nn.AdaptiveAvgPool2d((2, 2))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(FEATURES * 4, n_classes))

    def forward(self, x: torch.Tensor) -> Any:
        return self.head(self.pool(self.features(x)))

    def replace_head(self, n_classes: int) -> None:
        """A fresh output layer for a new class list, keeping the learned features."""
        self.head[-1] = nn.Linear(FEATURES * 4, n_classes)
