import torch

backend = "eager"


def fn(x):
    y = x * 2
    torch.ops.aten._print("studio says hello")  # HERE
    return y


example_inputs = (torch.randn(3),)
