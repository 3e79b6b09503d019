# Lesson: random ops use the global generator at call time -- the broken version.
import torch
from torch import nn

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    torch.manual_seed(1234)  # "for reproducibility": runs once, while tracing
    return model(x)


def example_inputs():
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 2)).train()
    return (model, torch.randn(8, 4))
