"""Conv2d variants: strided, dilated, grouped, depthwise, pointwise and
bias-free, in a MobileNet-style inverted residual (ReLU6, BatchNorm) with a
squeeze-and-excitation gate (Hardsigmoid) and Hardswish."""

from _statistics import randomize_batchnorm

import torch
from torch import nn

INPUT_SHAPE = (1, 4, 24, 24)


class SqueezeExcite(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.reduce = nn.Conv2d(channels, channels // 4, 1)
        self.expand = nn.Conv2d(channels // 4, channels, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate = self.expand(torch.relu(self.reduce(self.pool(x))))
        return x * nn.functional.hardsigmoid(gate)


class InvertedResidual(nn.Module):
    def __init__(self, channels: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, hidden, 1, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(),
            nn.Conv2d(hidden, hidden, 3, padding=1, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(),
            SqueezeExcite(hidden),
            nn.Conv2d(hidden, channels, 1, bias=False),
            nn.BatchNorm2d(channels),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.body(x)


def make_model() -> nn.Module:
    return randomize_batchnorm(
        nn.Sequential(
            nn.Conv2d(4, 16, 3, stride=2, padding=1),  # strided
            nn.Hardswish(),
            nn.Conv2d(16, 16, 3, padding=2, dilation=2),  # dilated
            nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1, groups=4),  # grouped
            InvertedResidual(16, 32),  # pointwise, depthwise, bias-free
            nn.Conv2d(16, 8, (3, 5), stride=(2, 1), padding=(1, 2)),  # rectangular
        )
    )
