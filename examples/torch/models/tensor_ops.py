"""Normalizations and tensor manipulations that common models use: GroupNorm,
InstanceNorm, PReLU, PixelShuffle, a ShuffleNet channel shuffle, chunk,
strided slicing, clamp, abs, where, masked_fill, mean/sum/max reductions,
argmax (an integer second output)."""

import torch
from torch import nn

INPUT_SHAPE = (1, 8, 8, 8)


class Misc(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.group_norm = nn.GroupNorm(4, 8)
        self.instance_norm = nn.InstanceNorm2d(8, affine=True)
        self.prelu = nn.PReLU(8)
        self.conv = nn.Conv2d(8, 16, 1)
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        y = self.prelu(self.group_norm(x)) + self.instance_norm(x).clamp(-1.0, 1.0)
        b, c, h, w = y.shape
        y = y.view(b, 2, c // 2, h, w).transpose(1, 2).reshape(b, c, h, w)
        first, second = y.chunk(2, dim=1)
        z = torch.where(first > 0, first, second.abs()) + y[:, ::2, ::2, 1::2].mean(
            dim=(2, 3), keepdim=True
        )
        z = z.masked_fill(z > 1.5, 1.5)
        u = self.shuffle(self.conv(torch.cat([z, first], dim=1)))  # 1x4x16x16
        v = u.sum(dim=1) + u.amax(dim=1)
        return v, v.flatten(1).argmax(dim=1)


def make_model() -> nn.Module:
    return Misc()
