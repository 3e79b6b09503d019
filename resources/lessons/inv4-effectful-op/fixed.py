# Lesson: boundary effects -- effectful ops are not supported yet (invariant 4) -- fixed.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    y = model(x)
    return y.relu()  # log outside fn, around the call of the artifact


example_inputs = lambda: (torch.nn.Linear(4, 4), torch.randn(2, 4))  # noqa: E731
