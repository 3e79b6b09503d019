import torch

backend = "eager"


def fn(x):
    scale = float(x.numpy().std())  # .numpy() has no fake-tensor version: the symbolic trace fails
    if x.shape[0] > 2:
        return x * scale
    return x


example_inputs = lambda: (torch.randn(2, 3),)  # noqa: E731


def runtime_inputs():  # HERE
    return (torch.randn(4, 3),)
