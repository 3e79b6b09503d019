import torch

backend = "eager"


def fn(x):
    return x.view(-1), x.t(), x * 2


example_inputs = lambda: (torch.randn(2, 3),)  # noqa: E731
