import torch

backend = "eager"


def fn(x):
    if x.sum().item() > 0:  # HERE
        return x * 2
    return x * 3


example_inputs = (torch.ones(3),)
