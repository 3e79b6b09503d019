# Lesson: a dim marked with mark_unbacked cannot be branched on -- fixed.
import torch
from torch._dynamo.decorators import mark_unbacked

torch.manual_seed(0)
backend = "inductor"


def fn(x):
    if x.shape[0] >= 8:  # decided by the mark's bounds: every size the artifact takes is >= 8
        return x - x.mean(dim=0)
    return x


def example_inputs():
    x = torch.randn(16, 4)
    mark_unbacked(x, 0, min=8)  # any batch of at least 8
    return (x,)
