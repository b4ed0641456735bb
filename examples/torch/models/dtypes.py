"""Element types other than f32 at the function boundary and inside: a uint8
image (torch-mlir passes it as i8 and reads it unsigned), int32 and int64
inputs with integer arithmetic (floor division, remainder, comparisons,
bitwise and), a float64 branch, an f16 causal attention mask (-inf in f16 is
written dense<0xFC00>), and bool, 0-d, int32 and int64 outputs."""

import torch
from torch import nn


class Dtypes(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.query = nn.Linear(4, 4).half()

    def forward(
        self,
        image: torch.Tensor,
        scale: torch.Tensor,
        ids: torch.Tensor,
        x64: torch.Tensor,
    ) -> tuple[torch.Tensor, ...]:
        features = self.conv(image.float() / 255.0)  # 1x4x4x4
        scaled = features * scale.view(1, 4, 1, 1).float()
        steps = ids * 3 + (ids > 0).long()
        mixed = torch.div(steps, 4, rounding_mode="floor") + torch.remainder(steps, 5)
        picked = torch.where((mixed > 2) & (ids != 1), mixed, -mixed)
        tokens = scaled.flatten(2).transpose(1, 2).half()  # 1x16x4 f16
        scores = self.query(tokens) @ tokens.transpose(1, 2)
        mask = torch.triu(torch.full((16, 16), float("-inf"), dtype=torch.float16), 1)
        attention = torch.softmax((scores + mask).float(), dim=-1)
        return (
            scaled,
            scaled > scaled.mean(),
            scaled.sum(),
            (x64 * 2.0).exp().sum(dim=1),
            (scale * 3).to(torch.int32),
            picked,
            attention,
        )


def make_model() -> nn.Module:
    return Dtypes()


def make_inputs() -> tuple[torch.Tensor, ...]:
    return (
        torch.randint(0, 256, (1, 3, 6, 6), dtype=torch.uint8),
        torch.randint(-4, 5, (4,), dtype=torch.int32),
        torch.randint(-10, 10, (3, 8), dtype=torch.int64),
        torch.randn(2, 3, dtype=torch.float64),
    )
