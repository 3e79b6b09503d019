"""Bench gallery script: a torchvision model on inductor (random weights, no downloads), picked by
PS_GALLERY_MODEL (resnet18, resnet50, mobilenet_v3_small, vit_b_16: inference on one 224x224
image; resnet18_train: a training step, num_classes=10, batch 2, 3x64x64, CrossEntropyLoss,
loss.backward()), its weights and inputs drawn from PS_GALLERY_SEED."""
import os

import torch
import torchvision

arch = os.environ.get("PS_GALLERY_MODEL", "resnet18")
seed = int(os.environ.get("PS_GALLERY_SEED", "0"))
train = arch.endswith("_train")
torch.manual_seed(seed)
backend = "inductor"

if train:
    model = getattr(torchvision.models, arch[: -len("_train")])(num_classes=10).train()
    loss_fn = torch.nn.CrossEntropyLoss()

    def fn(model, x, y):
        loss = loss_fn(model(x), y)
        loss.backward()
        return loss.detach()

    def example_inputs():
        g = torch.Generator().manual_seed(seed + 1)
        return (model, torch.randn(2, 3, 64, 64, generator=g), torch.randint(0, 10, (2,), generator=g))
else:
    model = getattr(torchvision.models, arch)().eval()

    def fn(model, x):
        with torch.no_grad():
            return model(x)

    def example_inputs():
        g = torch.Generator().manual_seed(seed + 1)
        return (model, torch.randn(1, 3, 224, 224, generator=g))

name = f"{arch}_s{seed}"
