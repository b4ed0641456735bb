"""Outputs that are the inputs themselves or views of them, which MLIR's
deallocation pipeline returns through `bufferization.clone`, and integer
narrowing casts (int64 to int8, int16 and int32: `arith.trunci` with MLIR's
`overflowFlags`), beside a Linear layer."""

import torch
from torch import nn


class Passthrough(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(6, 4)

    def forward(self, x: torch.Tensor, ids: torch.Tensor) -> tuple[torch.Tensor, ...]:
        wide = ids * 40 + 3
        return (
            x,
            x.reshape(3, 4),
            self.linear(x).relu(),
            ids,
            wide.to(torch.int8),
            (wide * 300).to(torch.int16),
            (wide * 100_000_000).to(torch.int32),
        )


def make_model() -> nn.Module:
    return Passthrough()


def make_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.randn(2, 6), torch.randint(-9, 10, (2, 6)))
