"""An existing program that calls torch 2.14's torch.compiler.precompile itself (for torch 2.14;
existing_program.py is the same program for torch 2.15's capture blocks).

The studio runs it unchanged and records each precompile call as a capture of the run.
"""
import torch
from torch import nn

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(8, 8), nn.GELU())
head = nn.Linear(8, 2)


def encode(encoder, x):
    return encoder(x)


def classify(encoder, head, x):
    return head(encoder(x)).argmax(-1)


x = torch.randn(4, 8)
code_a, cache_a = torch.compiler.precompile(encode, encoder, x, backend="eager")
code_b, cache_b = torch.compiler.precompile(classify, encoder, head, x, backend="eager")

run = torch.compiler.precompile.load(code_a, cache_a)
print("reloaded encode matches eager:", torch.allclose(run(encoder, x), encode(encoder, x)))
