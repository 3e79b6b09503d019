import torch
from torch._dynamo.decorators import mark_unbacked

backend = "eager"


def fn(x):
    return x.cos()


def example_inputs():
    x = torch.randn(6, 3)
    mark_unbacked(x, 0)
    return (x,)
