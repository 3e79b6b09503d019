import torch
from torch._decomp import get_decompositions

backend = "eager"
decompositions = get_decompositions([torch.ops.aten.silu])


def fn(model, x):
    return torch.nn.functional.silu(model(x))


example_inputs = lambda: (torch.nn.Linear(3, 3), torch.randn(2, 3))  # noqa: E731
