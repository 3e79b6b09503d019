import torch

torch.manual_seed(0)
backend = "inductor"


def fn(model, x):
    return model(x).relu()


example_inputs = lambda: (torch.nn.Linear(4, 3), torch.randn(2, 4))  # noqa: E731


def runtime_inputs():
    model = torch.nn.Linear(4, 3)
    model.weight = torch.nn.Parameter(model.weight.detach().t().contiguous().t())  # another memory format
    return (model, torch.randn(2, 4))  # HERE
