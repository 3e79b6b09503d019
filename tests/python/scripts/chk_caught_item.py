import torch

backend = "eager"


def fn(x):
    try:
        k = x.max().item()  # HERE
    except RuntimeError:
        k = 1.0
    return x * k


example_inputs = lambda: (torch.ones(3) * 4,)  # noqa: E731
