# Lesson: dtype, device and (inductor) layout are baked (invariant 6) -- the broken version.
import numpy as np
import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    return model(x).softmax(-1)


example_inputs = lambda: (torch.nn.Linear(4, 3), torch.randn(2, 4))  # noqa: E731


def runtime_inputs():
    batch = np.random.default_rng(0).random((2, 4))  # numpy gives float64
    return (torch.nn.Linear(4, 3), torch.from_numpy(batch))
