# Lesson: input mutation and output aliasing go through the inputs -- the broken version.
import torch

torch.manual_seed(0)
backend = "eager"

seen = torch.zeros(4)  # a running sum kept between calls, as a global


def fn(x):
    seen.add_(x.sum(0))  # mutates a tensor that is not an input
    return x.t()  # a view of the input


example_inputs = lambda: (torch.randn(3, 4),)  # noqa: E731
