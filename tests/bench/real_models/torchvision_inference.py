"""Bench: a torchvision classifier's inference on the eager backend (random weights, no
downloads); which one comes from PS_BENCH_TORCHVISION_MODEL (resnet50, vit_b_16,
mobilenet_v3_small, ...: a torchvision.models builder), resnet50 by default."""
import os

import torch
import torchvision

arch = os.environ.get("PS_BENCH_TORCHVISION_MODEL", "resnet50")
torch.manual_seed(0)
model = getattr(torchvision.models, arch)().eval()
backend = "eager"


def fn(model, x):
    with torch.no_grad():
        return model(x)


def example_inputs():
    return (model, torch.randn(1, 3, 224, 224))


name = f"{arch}_inference"
