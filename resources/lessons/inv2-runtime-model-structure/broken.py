# Lesson: the runtime model matches the traced model (invariant 2) -- the broken version.
import torch
from torch import nn

torch.manual_seed(0)
backend = "eager"


def make_model():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


def fn(model, x):
    return model(x)


example_inputs = lambda: (make_model(), torch.randn(3, 4))  # noqa: E731


def runtime_inputs():
    # "Version 2" of the model: one more hidden layer, so other parameter names.
    deeper = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
    return (deeper, torch.randn(3, 4))
