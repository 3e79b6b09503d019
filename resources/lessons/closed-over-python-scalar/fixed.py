# Lesson: Python numbers read from outside fn are constants -- the fixed version.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x, temperature):
    return (model(x) / temperature).softmax(-1)  # a 0-d tensor input: a new value per call


example_inputs = lambda: (torch.nn.Linear(4, 3), torch.randn(2, 4), torch.tensor(2.0))  # noqa: E731
