# Lesson: Python numbers read from outside fn are constants -- the broken version.
import torch

torch.manual_seed(0)
backend = "eager"

temperature = 2.0  # a setting you mean to change between calls


def fn(model, x):
    return (model(x) / temperature).softmax(-1)


example_inputs = lambda: (torch.nn.Linear(4, 3), torch.randn(2, 4))  # noqa: E731
