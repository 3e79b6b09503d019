"""Gallery: torchvision resnet18 inference on the eager backend (random weights, no downloads).

The artifact runs the very ATen graph eager runs: verification finds it bitwise equal, and the
captured graph writes nothing, so eager fn and the artifact share one copy of the model.
"""
import torch
import torchvision

torch.manual_seed(0)
model = torchvision.models.resnet18().eval()
backend = "eager"


def fn(model, x):
    with torch.no_grad():
        return model(x)


def example_inputs():
    return (model, torch.randn(1, 3, 64, 64, generator=torch.Generator().manual_seed(1)))


name = "resnet18_inference"
