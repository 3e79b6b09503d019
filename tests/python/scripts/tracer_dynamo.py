import torch

backend = "eager"
tracer = "dynamo"  # HERE


def fn(x):
    return x + 1


example_inputs = (torch.randn(2),)
