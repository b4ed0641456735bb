"""Elementwise math beyond the activations: rounding (sign, floor, ceil,
round, trunc), float remainder, powers, roots and logarithms, trigonometric
and hyperbolic functions, erf, minimum/maximum, lerp, addcmul, and NaN
handling (log of negatives, isnan, nan_to_num), on a Linear layer's output."""

import torch
from torch import nn

INPUT_SHAPE = (3, 7)


class MathOps(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(7, 7)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        x = self.linear(x)
        y = x * 2.5
        rounding = (
            torch.sign(y)
            + torch.floor(y)
            + torch.ceil(y)
            + torch.round(y)
            + torch.trunc(y)
        )
        powers = (
            torch.remainder(y, 1.5)
            + torch.pow(x.abs() + 0.1, 1.7)
            + torch.pow(2.0, x)
            + torch.rsqrt(x.abs() + 0.5)
            + torch.reciprocal(x.abs() + 0.5)
        )
        logs = (
            torch.exp2(x)
            + torch.log2(x.abs() + 1)
            + torch.log10(x.abs() + 1)
            + torch.log1p(x.abs())
            + torch.expm1(x)
        )
        inside = x.clamp(-0.9, 0.9)
        trigonometry = (
            torch.sin(x)
            + torch.cos(x)
            + torch.tan(x * 0.3)
            + torch.atan(x)
            + torch.atan2(x, y + 0.1)
            + torch.asin(inside)
            + torch.acos(inside)
            + torch.sinh(x)
            + torch.cosh(x)
        )
        mixed = (
            torch.erf(x)
            + torch.square(x)
            + torch.minimum(x, y)
            + torch.maximum(x, -y)
            + torch.lerp(x, y, 0.3)
            + torch.addcmul(x, x, y, value=0.5)
        )
        logarithm = torch.log(x)  # NaN where x < 0
        nans = torch.nan_to_num(logarithm, nan=0.0) + torch.isnan(logarithm).float()
        return rounding, powers, logs, trigonometry, mixed, nans


def make_model() -> nn.Module:
    return MathOps()
