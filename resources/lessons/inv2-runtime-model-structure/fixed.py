# Lesson: the runtime model matches the traced model (invariant 2) -- the fixed version.
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
    # The same architecture with other weights: what a checkpoint gives you.
    trained = make_model()
    checkpoint = {k: torch.randn_like(v) for k, v in trained.state_dict().items()}
    trained.load_state_dict(checkpoint)
    return (trained, torch.randn(3, 4))
