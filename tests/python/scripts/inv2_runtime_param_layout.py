import torch

backend = "inductor"


def fn(model, x):
    return model(x)


def example_inputs():
    torch.manual_seed(0)
    return (torch.nn.Conv2d(3, 4, 3), torch.randn(1, 3, 8, 8))


def runtime_inputs():  # HERE
    torch.manual_seed(0)
    return (torch.nn.Conv2d(3, 4, 3).to(memory_format=torch.channels_last), torch.randn(1, 3, 8, 8))
