"""A small inductor model for the deploy tests (tests/python/test_deploy.py)."""
import torch

torch.manual_seed(0)
backend = "inductor"


def fn(model, x):
    return model(x).relu().sum(-1)


def example_inputs():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 8))
    return model, torch.randn(4, 16)
