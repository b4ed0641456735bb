"""A tiny U-Net: downsampling by max pooling, upsampling (nearest, bilinear
and a transposed conv), skip connections joined by concat."""

import torch
from torch import nn


def conv_block(inputs: int, outputs: int) -> nn.Module:
    return nn.Sequential(nn.Conv2d(inputs, outputs, 3, padding=1), nn.ReLU())


class TinyUNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.down1 = conv_block(3, 8)
        self.down2 = conv_block(8, 16)
        self.bottom = conv_block(16, 16)
        self.up_nearest = nn.Upsample(scale_factor=2, mode="nearest")
        self.up_bilinear = nn.Upsample(
            scale_factor=2, mode="bilinear", align_corners=False
        )
        self.up_transposed = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.merge2 = conv_block(16 + 16, 16)
        self.merge1 = conv_block(8 + 8 + 16, 8)
        self.head = nn.Conv2d(8, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d1 = self.down1(x)  # 16x16
        d2 = self.down2(nn.functional.max_pool2d(d1, 2))  # 8x8
        b = self.bottom(nn.functional.max_pool2d(d2, 2))  # 4x4
        m2 = self.merge2(torch.cat([self.up_nearest(b), d2], dim=1))  # 8x8
        up = torch.cat([self.up_transposed(m2), self.up_bilinear(m2)], dim=1)
        return self.head(self.merge1(torch.cat([up, d1], dim=1)))


INPUT_SHAPE = (1, 3, 16, 16)


def make_model() -> nn.Module:
    return TinyUNet()
