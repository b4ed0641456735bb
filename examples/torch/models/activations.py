"""Every common activation side by side on one linear layer's output, joined
with a concat and normalized: ReLU, ReLU6, GELU (erf and tanh), SiLU, sigmoid,
tanh, Hardswish, Hardsigmoid, LeakyReLU, ELU, Softplus, then LayerNorm and
log-softmax."""

import torch
from torch import nn

INPUT_SHAPE = (4, 16)

ACTIVATIONS = (
    nn.ReLU(),
    nn.ReLU6(),
    nn.GELU(),
    nn.GELU(approximate="tanh"),
    nn.SiLU(),
    nn.Sigmoid(),
    nn.Tanh(),
    nn.Hardswish(),
    nn.Hardsigmoid(),
    nn.LeakyReLU(0.1),
    nn.ELU(),
    nn.Softplus(),
)


class Activations(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(16, 16)
        self.activations = nn.ModuleList(ACTIVATIONS)
        self.norm = nn.LayerNorm(16 * len(ACTIVATIONS))
        self.head = nn.Linear(16 * len(ACTIVATIONS), 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # Scaled so the inputs reach the saturating ranges (ReLU6 above 6).
        y = self.linear(x) * 4.0
        y = torch.cat([f(y) for f in self.activations], dim=-1)
        return torch.log_softmax(self.head(self.norm(y)), dim=-1)


def make_model() -> nn.Module:
    return Activations()
