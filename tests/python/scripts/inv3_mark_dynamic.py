import torch

backend = "inductor"


def fn(x):
    return x.cos() + 1


def example_inputs():
    x = torch.randn(8, 3)
    torch._dynamo.mark_dynamic(x, 0)
    return (x,)
