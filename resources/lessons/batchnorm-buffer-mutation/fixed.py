# Lesson: BatchNorm's buffers are updated, its mode is baked -- the fixed version.
import torch
from torch import nn

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    return model(x)


def make_model():
    return nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2)).train()


def example_inputs():
    return (make_model(), torch.randn(8, 4))


def runtime_inputs():
    # Called in the mode it was traced in (precompile an eval-mode model for inference).
    return (make_model(), torch.randn(8, 4))
