import torch

scale = torch.randn(4)
backend = "eager"


def fn(x):
    y = x.sin()
    return y * scale  # HERE


example_inputs = (torch.randn(4),)
