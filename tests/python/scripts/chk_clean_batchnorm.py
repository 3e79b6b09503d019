import torch
from torch import nn

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    loss = model(x).square().mean()
    loss.backward()
    return loss


def example_inputs():
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 2))
    return (model.train(), torch.randn(2, 3, 8, 8))
