"""bf16 end to end: a bf16 Linear, a GELU, a bf16 causal attention mask
(-inf in bf16 is written dense<0xFF80>), softmax in f32 and a bf16 output,
the types an accelerator model exported in bf16 carries."""

import torch
from torch import nn


class BF16(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.query = nn.Linear(8, 8).to(torch.bfloat16)
        self.out = nn.Linear(8, 4).to(torch.bfloat16)

    def forward(self, tokens: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        scores = self.query(tokens) @ tokens.transpose(1, 2)  # 1x6x6 bf16
        mask = torch.triu(torch.full((6, 6), float("-inf"), dtype=torch.bfloat16), 1)
        attention = torch.softmax((scores + mask).float(), dim=-1)
        mixed = attention.to(torch.bfloat16) @ tokens
        return self.out(nn.functional.gelu(mixed)), attention


def make_model() -> nn.Module:
    return BF16()


def make_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.randn(1, 6, 8).to(torch.bfloat16),)
