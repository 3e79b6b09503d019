import torch

backend = "eager"


def fn(x):
    pos = x[x > 0]  # HERE
    return pos.sum() / pos.shape[0]


example_inputs = lambda: (torch.tensor([1.0, -2.0, 3.0, 4.0]),)  # noqa: E731
