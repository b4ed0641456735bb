"""A one-block GPT: token and position embeddings, pre-LayerNorm causal
self-attention through scaled_dot_product_attention, a GELU (tanh) MLP and a
vocabulary head. The input is integer token ids."""

import torch
from torch import nn

VOCABULARY, CONTEXT, WIDTH, HEADS = 64, 12, 32, 4


class TinyGPT(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.tokens = nn.Embedding(VOCABULARY, WIDTH)
        self.positions = nn.Embedding(CONTEXT, WIDTH)
        self.norm1 = nn.LayerNorm(WIDTH)
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.project = nn.Linear(WIDTH, WIDTH)
        self.norm2 = nn.LayerNorm(WIDTH)
        self.mlp = nn.Sequential(
            nn.Linear(WIDTH, 4 * WIDTH),
            nn.GELU(approximate="tanh"),
            nn.Linear(4 * WIDTH, WIDTH),
        )
        self.norm3 = nn.LayerNorm(WIDTH)
        self.head = nn.Linear(WIDTH, VOCABULARY, bias=False)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        batch, length = ids.shape
        x = self.tokens(ids) + self.positions(torch.arange(length))
        q, k, v = self.qkv(self.norm1(x)).split(WIDTH, dim=-1)
        q, k, v = (
            t.view(batch, length, HEADS, WIDTH // HEADS).transpose(1, 2)
            for t in (q, k, v)
        )
        attended = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.project(attended.transpose(1, 2).reshape(batch, length, WIDTH))
        x = x + self.mlp(self.norm2(x))
        return self.head(self.norm3(x))


def make_model() -> nn.Module:
    return TinyGPT()


def make_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.randint(0, VOCABULARY, (2, CONTEXT)),)
