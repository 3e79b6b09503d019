# Lesson: the tracer -- the broken version.
import torch

torch.manual_seed(0)
backend = "eager"
tracer = "dynamo"  # planned, not implemented in torch 2.14


def fn(model, x):
    return model(x).tanh()


example_inputs = lambda: (torch.nn.Linear(4, 4), torch.randn(2, 4))  # noqa: E731
