# A sum with heavy cancellation, computed in float64 by the artifact (a decomposition of aten.sum):
# it differs from eager's float32 sum beyond tolerance, but it is closer to a float64 run than
# eager itself is -- rounding, which the accuracy judge calls a match.
import torch

backend = "eager"


def _sum_in_double(x, dtype=None):
    d = x.to(torch.float64)
    return torch.ops.aten.sum.dim_IntList(d, list(range(d.dim()))).to(x.dtype)


decompositions = {torch.ops.aten.sum.default: _sum_in_double}


def fn(x):
    return x.sum()


def example_inputs():
    g = torch.Generator().manual_seed(0)
    a = torch.randn(4096, generator=g) * 1e4
    return (torch.cat([a, -a + torch.randn(4096, generator=g) * 1e-2])[torch.randperm(8192, generator=g)],)
