"""GPU check: torchvision resnet18 inference on CUDA with inductor (random weights, no downloads).

The model and its input live on the GPU, so Inductor writes Triton kernels (convolutions stay
cuDNN extern calls): the report must record the device, verify on it, and map every Triton
kernel to the graph nodes it computes (tests/gpu/check_gpu.py). PS_GPU_CHECK_DEVICE=cpu runs the
same script on the CPU, to try the checker on a machine without a GPU.
"""
import os

import torch
import torchvision

DEVICE = os.environ.get("PS_GPU_CHECK_DEVICE", "cuda")

torch.manual_seed(0)
model = torchvision.models.resnet18().eval().to(DEVICE)
backend = "inductor"


def fn(model, x):
    with torch.no_grad():
        return model(x)


def example_inputs():
    x = torch.randn(8, 3, 128, 128, generator=torch.Generator().manual_seed(1))
    return (model, x.to(DEVICE))


name = "resnet18_inference_gpu"
