"""A training step with the model and its inputs on the first CUDA device (test_devices.py runs
it only where CUDA is available): Triton kernels, forward and backward, an optimizer-free step."""
import torch

backend = "inductor"


def fn(model, x, t):
    out = model(x)
    loss = torch.nn.functional.mse_loss(out, t)
    loss.backward()
    return loss.detach(), out.detach().relu().sum(1)


def example_inputs():
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8)).to("cuda")
    return (model, torch.randn(64, 16, generator=g).to("cuda"), torch.randn(64, 8, generator=g).to("cuda"))
