"""A dynamic batch, height and width through a padded conv, BatchNorm, ReLU,
a max pool (each pooled size the floor of half the input's), a slice of the
pooled rows and a mean over the width. Exported at 2x3x8x10, stored also at
1x3x6x5 and 3x3x11x12. The slice of a 4-d buffer with two dynamic spatial
sizes has a batch stride that is a product of two of them, which MLIR's
`expand-strided-metadata` writes as a semi-affine map (`s0 * s1`)."""

from _statistics import randomize_batchnorm

import torch
from torch import nn
from torch.export import Dim

DYNAMIC_SHAPES = (
    {
        0: Dim("batch", min=1, max=16),
        2: Dim("height", min=6, max=64),
        3: Dim("width", min=4, max=64),
    },
)


class DynamicConv(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = randomize_batchnorm(
            nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU())
        )

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        pooled = nn.functional.max_pool2d(self.features(x), 2)[:, :, 1:, :]
        return pooled, pooled.mean(dim=3)


def make_model() -> nn.Module:
    return DynamicConv()


def make_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.randn(2, 3, 8, 10),)


def make_inputs_for_sizes() -> list[tuple[torch.Tensor, ...]]:
    return [(torch.randn(1, 3, 6, 5),), (torch.randn(3, 3, 11, 12),)]
