import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x, t):
    out = model(x)  # FORWARD
    loss = torch.nn.functional.mse_loss(out, t)
    loss.backward()  # BACKWARD
    return loss


def example_inputs():
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    return (model, torch.randn(3, 4), torch.randn(3, 2))
