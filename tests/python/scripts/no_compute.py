import torch

backend = "inductor"


def fn(x, y):
    return x, y  # HERE


example_inputs = (torch.randn(3), torch.randn(3))
