# Lesson: input mutation and output aliasing go through the inputs -- the fixed version.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(x, seen):
    seen.add_(x.sum(0))  # input mutation: the artifact writes it into the caller's `seen`
    return x.t(), seen  # outputs that alias inputs: a view of x, and seen itself


example_inputs = lambda: (torch.randn(3, 4), torch.zeros(4))  # noqa: E731
