import torch

backend = "eager"


def fn(x):
    return x * 2


example_inputs = (torch.randn(3),)
runtime_inputs = lambda: (torch.randn(3, dtype=torch.float64),)  # noqa: E731  # HERE
