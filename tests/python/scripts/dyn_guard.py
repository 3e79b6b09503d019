import torch
from torch._dynamo.decorators import mark_unbacked

backend = "inductor"


def fn(x):
    if x.shape[0] > 4:  # HERE
        return x * 2
    return x + 1


def example_inputs():
    x = torch.randn(6, 3)
    mark_unbacked(x, 0)
    return (x,)
