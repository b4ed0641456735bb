"""A dynamic batch through a slice, a Linear layer, a transpose, stepped
slices and a reduction over the (static) leading dimension the transpose
made: `memref<?x5x8xf32>` in, `memref.alloc(%batch)` and subviews of dynamic
size inside. Exported at batch 4, stored also at batches 2 and 9."""

import torch
from torch import nn
from torch.export import Dim

DYNAMIC_SHAPES = ({0: Dim("batch", min=2, max=64)},)


class DynamicBatch(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(8, 6)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x[:, 1:, :]).transpose(0, 1).contiguous()
        return torch.relu(y[:, :, ::2]) + y[:, :, 1::2].sum(dim=0, keepdim=True)


def make_model() -> nn.Module:
    return DynamicBatch()


def make_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.randn(4, 5, 8),)


def make_inputs_for_sizes() -> list[tuple[torch.Tensor, ...]]:
    return [(torch.randn(batch, 5, 8),) for batch in (2, 9)]
