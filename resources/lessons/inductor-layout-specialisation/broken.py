# Lesson: the inductor backend bakes memory layouts (invariants 3 and 6) -- broken.
import torch

torch.manual_seed(0)
backend = "inductor"


def fn(model, x):
    return model(x).relu()


example_inputs = lambda: (torch.nn.Linear(4, 3), torch.randn(2, 4))  # noqa: E731


def runtime_inputs():
    x = torch.randn(4, 2).t()  # shape (2, 4) like the example, but transposed strides
    return (torch.nn.Linear(4, 3), x)
