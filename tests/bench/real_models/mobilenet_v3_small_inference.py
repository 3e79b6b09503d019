"""Bench: torchvision mobilenet_v3_small inference on the eager backend (random weights, no downloads)."""
import torch
import torchvision

torch.manual_seed(0)
model = torchvision.models.mobilenet_v3_small().eval()
backend = "eager"


def fn(model, x):
    with torch.no_grad():
        return model(x)


def example_inputs():
    return (model, torch.randn(1, 3, 224, 224))


name = "mobilenet_v3_small_inference"
