import torch

backend = "eager"


def fn(model, x):
    return model(x)


example_inputs = lambda: (torch.nn.Linear(4, 4), torch.randn(2, 4))  # noqa: E731
runtime_inputs = lambda: (torch.nn.Linear(4, 4).double(), torch.randn(2, 4))  # noqa: E731  # HERE
