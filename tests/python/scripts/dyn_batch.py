import torch
from torch._dynamo.decorators import mark_unbacked

backend = "inductor"


def fn(model, x):
    return model(x).relu().sum(dim=1)


def example_inputs():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4))
    x = torch.randn(6, 8)
    mark_unbacked(x, 0)
    return (model, x)
