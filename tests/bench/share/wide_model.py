"""Bench script: a model of BLOCKS small blocks (Linear, ReLU, LayerNorm, residual add) whose
captured graph has about 10,000 nodes, for the HTML report's graph panel bench. Eager backend, no
downloads; PS_BENCH_BLOCKS sets the block count (default 830).
"""

import os

import torch
from torch import nn

torch.manual_seed(0)
BLOCKS = int(os.environ.get("PS_BENCH_BLOCKS", "830"))


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.lin = nn.Linear(width, width)
        self.act = nn.ReLU()
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        return x + self.norm(self.act(self.lin(x)))


model = nn.Sequential(*[Block(16) for _ in range(BLOCKS)]).eval()
backend = "eager"


def fn(model, x):
    with torch.no_grad():
        return model(x)


def example_inputs():
    return (model, torch.randn(4, 16, generator=torch.Generator().manual_seed(1)))


name = "wide_model"
