import torch

torch.manual_seed(0)
backend = "eager"


def fn(encoder, head, x):
    loss = head(encoder(x).relu()).sum()
    loss.backward()
    return loss


example_inputs = lambda: (torch.nn.Linear(3, 5), torch.nn.Linear(5, 2), torch.randn(4, 3))  # noqa: E731
