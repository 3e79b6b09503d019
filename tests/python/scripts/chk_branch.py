import torch

backend = "eager"


def fn(x):
    if x.mean() > 0.5:  # HERE
        return x * 2
    return x


example_inputs = lambda: (torch.ones(3),)  # noqa: E731
