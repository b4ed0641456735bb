"""Pooling variants on one feature map: max pooling with padding and stride,
average pooling with and without counting the padding, ceil mode, adaptive
average and max pooling to sizes that do and do not divide the input."""

import torch
from torch import nn

INPUT_SHAPE = (1, 4, 12, 12)


class Pools(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 1)
        self.pools = nn.ModuleList(
            [
                nn.MaxPool2d(3, stride=2, padding=1),
                nn.MaxPool2d(2, ceil_mode=True),
                nn.AvgPool2d(2),
                nn.AvgPool2d(3, stride=1, padding=1),
                nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False),
                nn.AdaptiveAvgPool2d((3, 3)),
                nn.AdaptiveAvgPool2d((5, 5)),
                nn.AdaptiveMaxPool2d((2, 2)),
                nn.AdaptiveMaxPool2d(1),
            ]
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        return torch.cat([pool(y).flatten(1) for pool in self.pools], dim=1)


def make_model() -> nn.Module:
    return Pools()
