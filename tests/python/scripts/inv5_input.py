import torch

backend = "eager"


def fn(model, x):
    loss = model(x).pow(2).mean()
    loss.backward()  # HERE
    return loss


example_inputs = lambda: (torch.nn.Linear(3, 2), torch.randn(4, 3, requires_grad=True))  # noqa: E731
