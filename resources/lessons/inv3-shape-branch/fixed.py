# Lesson: a branch on a size is decided for the example's shape (invariant 3) -- fixed.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(x):
    if x.shape[0] > 2:  # decided for the batch of 8 the artifact is called with
        return x.softmax(dim=0)
    return x.sigmoid()


example_inputs = lambda: (torch.randn(8, 4),)  # noqa: E731  # the batch it will serve


def runtime_inputs():
    return (torch.randn(8, 4),)
