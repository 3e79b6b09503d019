import torch

backend = "tvm"  # HERE


def fn(x):
    return x + 1


example_inputs = (torch.randn(2),)
