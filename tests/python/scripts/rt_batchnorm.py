import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    loss = model(x).square().mean()
    loss.backward()
    return loss


def example_inputs():
    model = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.BatchNorm1d(6), torch.nn.Linear(6, 1)).train()
    return (model, torch.randn(5, 4))
