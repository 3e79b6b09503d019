import torch

backend = "eager"


def fn(x):
    if x.shape[0] > 2:  # HERE
        return x.sin()
    return x.cos()


example_inputs = lambda: (torch.randn(2, 3),)  # noqa: E731


def runtime_inputs():  # RUNTIME
    return (torch.randn(4, 3),)
