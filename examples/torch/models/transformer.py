"""One transformer encoder layer (batch first) with a causal attention mask."""

import torch
from torch import nn

SEQUENCE, WIDTH = 16, 32


class CausalEncoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(
            d_model=WIDTH, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True
        )
        self.register_buffer(
            "mask", nn.Transformer.generate_square_subsequent_mask(SEQUENCE)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layer(x, src_mask=self.mask, is_causal=True)


INPUT_SHAPE = (2, SEQUENCE, WIDTH)


def make_model() -> nn.Module:
    return CausalEncoder()
