"""Data movement and 3-d layers: reflect, replicate and circular padding (and
a reflect-padded conv), flip, roll, repeat, tile, split, stack, unbind,
narrow, expand, einsum, L2 normalize, Softmax2d, Conv3d, MaxPool3d and
AvgPool3d."""

import torch
import torch.nn.functional as F
from torch import nn

INPUT_SHAPE = (1, 2, 6, 6)


class Layout3d(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv3d = nn.Conv3d(1, 2, 3, padding=1)
        self.max3d = nn.MaxPool3d(2)
        self.avg3d = nn.AvgPool3d((1, 2, 2))
        self.reflect_conv = nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect")

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        pads = (1, 2, 2, 1)
        padded = (
            F.pad(x, pads, mode="reflect")
            + 0.5 * F.pad(x, pads, mode="replicate")
            + F.pad(x, pads, mode="circular")
        )
        moved = torch.flip(x, dims=[2, 3]) + torch.roll(x, shifts=(1, -2), dims=(2, 3))
        repeated = x.repeat(1, 2, 1, 1) + torch.tile(x[:, :1], (1, 4, 1, 1))
        top, bottom = torch.split(x, [2, 4], dim=2)
        stacked = torch.stack([top.sum(2), bottom.mean(2)], dim=-1)
        first, second = torch.unbind(x, dim=1)
        narrowed = x.narrow(3, 1, 3).sum(-1, keepdim=True).expand(-1, -1, -1, 6)[:, 0]
        products = torch.einsum("bchw,bcxw->bhx", x, x)
        normalized = F.normalize(x.flatten(1), dim=1) + nn.Softmax2d()(x).flatten(1)
        volume = self.avg3d(self.max3d(self.conv3d(x.unsqueeze(1))))
        return (
            padded,
            moved,
            repeated,
            stacked,
            first * second + narrowed,
            products,
            normalized,
            volume,
            self.reflect_conv(x),
        )


def make_model() -> nn.Module:
    return Layout3d()
