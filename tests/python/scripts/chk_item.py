import torch

backend = "eager"


def fn(model, x):
    scale = model(x).abs().max().item()  # HERE
    return x / scale


example_inputs = lambda: (torch.nn.Linear(3, 3), torch.randn(2, 3))  # noqa: E731
