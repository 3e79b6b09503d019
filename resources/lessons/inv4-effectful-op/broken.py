# Lesson: boundary effects -- effectful ops are not supported yet (invariant 4) -- broken.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    y = model(x)
    torch.ops.aten._print("forward done")  # an effectful op: an ordered side effect in the graph
    return y.relu()


example_inputs = lambda: (torch.nn.Linear(4, 4), torch.randn(2, 4))  # noqa: E731
