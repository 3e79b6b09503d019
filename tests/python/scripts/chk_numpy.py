import numpy as np
import torch

backend = "eager"


def fn(x):
    limit = float(np.asarray(x.detach()).max())  # HERE
    return x.clamp(max=limit / 2)


example_inputs = lambda: (torch.arange(6.0),)  # noqa: E731
