import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    return model(x)


def example_inputs():
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2)).eval()
    return (model, torch.randn(3, 4))
