"""Bench script of bench_remote: torchvision resnet18 inference on inductor, eval mode (random
weights, no downloads), one 224x224 image. The same file runs locally and on the test sshd's
host, so it reads no environment variable (none crosses ssh)."""
import torch
import torchvision

torch.manual_seed(0)
model = torchvision.models.resnet18().eval()
backend = "inductor"


def fn(model, x):
    with torch.no_grad():
        return model(x)


def example_inputs():
    return (model, torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(1)))


name = "resnet18_inference"
