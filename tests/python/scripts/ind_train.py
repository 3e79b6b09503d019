import torch

torch.manual_seed(0)
backend = "inductor"


def fn(model, x, t):
    out = model(x)
    loss = torch.nn.functional.mse_loss(out, t)
    loss.backward()
    return loss


def example_inputs():
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    return (model, torch.randn(3, 4), torch.randn(3, 2))


def runtime_inputs():  # HERE
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    x = torch.randn(4, 3).t()  # same shape, transposed strides
    return (model, x, torch.randn(3, 2))
