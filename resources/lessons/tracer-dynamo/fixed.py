# Lesson: the tracer -- the fixed version.
import torch

torch.manual_seed(0)
backend = "eager"
tracer = "make_fx"  # the default, and the only tracer torch 2.14 implements


def fn(model, x):
    return model(x).tanh()


example_inputs = lambda: (torch.nn.Linear(4, 4), torch.randn(2, 4))  # noqa: E731
