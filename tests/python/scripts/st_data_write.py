# A write through .data (no version counter of the parameter sees it); the graph records it as an
# in-place op on an alias of the parameter.
import torch

backend = "eager"


def fn(model, x):
    model.weight.data.mul_(0.5)
    return model(x)


example_inputs = lambda: (torch.nn.Linear(3, 3), torch.randn(2, 3))  # noqa: E731
