# The artifact computes another function (tanh decomposed into sigmoid): not rounding, wrong.
import torch

backend = "eager"
decompositions = {torch.ops.aten.tanh.default: lambda x: torch.sigmoid(x)}


def fn(x):
    return torch.tanh(x)


example_inputs = lambda: (torch.randn(8, 8, generator=torch.Generator().manual_seed(0)),)  # noqa: E731
