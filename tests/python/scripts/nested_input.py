import torch

backend = "eager"


def fn(x):
    return x * 2


def example_inputs():  # HERE
    x = torch.nested.nested_tensor([torch.randn(2, 3), torch.randn(4, 3)])
    return (x,)
