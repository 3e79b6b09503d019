"""A torchvision resnet18 in eval mode: its nodes' stacks go through torchvision's resnet.py."""
import torch
import torchvision

torch.manual_seed(0)
model = torchvision.models.resnet18().eval()
backend = "eager"


def fn(model, x):
    with torch.no_grad():
        return model(x)  # HERE


def example_inputs():
    return (model, torch.randn(1, 3, 32, 32, generator=torch.Generator().manual_seed(1)))
