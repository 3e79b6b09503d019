# Lesson: fn is called positionally -- the broken version.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x, *, temperature):  # a keyword-only parameter
    return (model(x) / temperature).softmax(-1)


example_inputs = lambda: (torch.nn.Linear(4, 3), torch.randn(2, 4), torch.tensor(2.0))  # noqa: E731
