# Lesson: gradients accumulate, zero_grad belongs outside fn -- the broken version.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x, target):
    model.zero_grad()  # meant to start every step from zero: not part of the graph
    loss = torch.nn.functional.cross_entropy(model(x), target)
    loss.backward()
    return loss


def example_inputs():
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    return (model, torch.randn(6, 4), torch.tensor([0, 1, 2, 0, 1, 2]))
