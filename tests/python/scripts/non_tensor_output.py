import torch

backend = "inductor"


def fn(x):
    y = x.sin()
    return y, 1.5  # HERE


example_inputs = (torch.randn(3),)
