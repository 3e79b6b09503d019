"""Inference: a small MLP precompiled for a fixed batch of inputs."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).eval()


def fn(model, x):
    return model(x).softmax(-1)


def example_inputs():
    return (model, torch.randn(8, 16))


name = "mlp_inference"
