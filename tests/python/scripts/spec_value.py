import torch

backend = "eager"


def fn(x):
    peak = x.abs().max().tolist()
    if peak > 1.0:  # HERE
        return x / peak
    return x


example_inputs = lambda: (torch.randn(8, 4) * 3,)  # noqa: E731


def runtime_inputs():  # RUNTIME
    return (torch.randn(16, 4),)
