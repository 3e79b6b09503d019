# Lesson: a branch on a size is decided for the example's shape (invariant 3) -- broken.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(x):
    if x.shape[0] > 2:  # decided once, for the example's batch of 2
        return x.softmax(dim=0)
    return x.sigmoid()


example_inputs = lambda: (torch.randn(2, 4),)  # noqa: E731


def runtime_inputs():
    return (torch.randn(8, 4),)  # a batch of 8: eager fn takes the other branch
