# Lesson: control flow and shapes are specialised to the example (invariant 3) -- broken.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(x):
    peak = x.abs().max().tolist()  # the tensor's value becomes a Python float
    if peak > 1.0:  # decided once, while tracing the example
        return x / peak
    return x


example_inputs = lambda: (torch.randn(8, 4) * 3,)  # noqa: E731


def runtime_inputs():
    return (torch.randn(16, 4),)  # another batch size
