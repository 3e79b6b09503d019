"""GPU check: a torchvision resnet18 training step on CUDA with inductor (random weights).

Forward, loss and backward in one graph, the gradients written into the model's parameters:
Inductor writes Triton kernels for both directions (BatchNorm's statistics and their gradients
above all), which may round differently from eager's kernels, so the verdict may be numerics
drift (exit 0) but never wrong. PS_GPU_CHECK_DEVICE=cpu runs it on the CPU instead.
"""
import os

import torch
import torchvision

DEVICE = os.environ.get("PS_GPU_CHECK_DEVICE", "cuda")

torch.manual_seed(0)
model = torchvision.models.resnet18(num_classes=10).train().to(DEVICE)
loss_fn = torch.nn.CrossEntropyLoss()
backend = "inductor"


def fn(model, x, y):
    loss = loss_fn(model(x), y)
    loss.backward()
    return loss.detach()


def example_inputs():
    g = torch.Generator().manual_seed(1)
    x = torch.randn(8, 3, 128, 128, generator=g)
    y = torch.randint(0, 10, (8,), generator=g)
    return (model, x.to(DEVICE), y.to(DEVICE))


name = "resnet18_training_gpu"
