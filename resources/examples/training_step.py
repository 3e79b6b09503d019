"""A training step: forward, loss and backward; precompile harvests the parameter gradients.

Run it through the studio, then load the artifact and call it with the model: the gradients
land on model.parameters() exactly as eager .backward() would put them there.
"""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 1))
loss_fn = nn.MSELoss()


def fn(model, x, target):
    loss = loss_fn(model(x), target)
    loss.backward()
    return loss.detach()


def example_inputs():
    return (model, torch.randn(8, 16), torch.randn(8, 1))


name = "training_step"
