"""A dynamic sequence length through an attention-free op mix: LayerNorm, a
Linear layer with GELU (a `view` of the sequence to 2-d and back), token to
token similarities (a sequence x sequence matmul, `memref<2x?x?xf32>`), a
softmax over them, a mean over the sequence concatenated back onto every
token. Exported at 2x6x8, stored also at 2x3x8 and 2x10x8.

The batch is static: with the batch dynamic too, torch-mlir 20261001 lowers
the Linear layer's `view(batch * length, 8)` through a `memref.cast` of the
`?x?x8` input to `?x1x8` (docs/frontend.md, limits)."""

import torch
from torch import nn
from torch.export import Dim

DYNAMIC_SHAPES = ({1: Dim("length", min=2, max=64)},)


class DynamicSequence(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(8)
        self.mix = nn.Sequential(nn.Linear(8, 8), nn.GELU())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.mix(self.norm(x))
        weights = torch.softmax(h @ h.transpose(1, 2) / 8**0.5, dim=-1)
        mixed = weights @ x
        summary = mixed.mean(dim=1, keepdim=True).expand_as(mixed)
        return torch.cat([mixed, summary], dim=-1)


def make_model() -> nn.Module:
    return DynamicSequence()


def make_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.randn(2, 6, 8),)


def make_inputs_for_sizes() -> list[tuple[torch.Tensor, ...]]:
    return [(torch.randn(2, length, 8),) for length in (3, 10)]
