"""The face classifier network (torch; training only, inference runs its ONNX export).

Small on purpose (~0.3 M parameters): it sees one 64 x 96 rectified card at a time, and it is
the part ``skullcam enroll`` retrains on a Pi for a user's own deck, in minutes.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn


def _block(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class CardClassifier(nn.Module):
    """Rectified card crop (N, 3, 96, 64) RGB in [0, 1] -> class logits (N, n_classes)."""

    def __init__(self, n_classes: int) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 24),
            nn.MaxPool2d(2),  # 48 x 32
            _block(24, 48),
            nn.MaxPool2d(2),  # 24 x 16
            _block(48, 96),
            _block(96, 96),
            nn.MaxPool2d(2),  # 12 x 8
            _block(96, 160),
            nn.MaxPool2d(2),  # 6 x 4
            _block(160, 192),
        )
        # 2 x 2 pooling keeps coarse layout (corner marks vs. centre picture) that a global
        # average would wash out.
        self.pool = nn.AdaptiveAvgPool2d((2, 2))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(192 * 4, n_classes))

    def forward(self, x: torch.Tensor) -> Any:
        return self.head(self.pool(self.features(x)))

    def replace_head(self, n_classes: int) -> None:
        """A fresh output layer for a new class list, keeping the learned features."""
        self.head[-1] = nn.Linear(192 * 4, n_classes)
