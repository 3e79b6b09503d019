# Lesson: a dim marked with mark_unbacked cannot be branched on -- broken.
import torch
from torch._dynamo.decorators import mark_unbacked

torch.manual_seed(0)
backend = "inductor"


def fn(x):
    if x.shape[0] >= 8:  # a branch on the marked batch size
        return x - x.mean(dim=0)
    return x


def example_inputs():
    x = torch.randn(16, 4)
    mark_unbacked(x, 0)  # any batch size
    return (x,)
