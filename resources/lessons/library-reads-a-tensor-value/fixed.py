# Lesson: a library reads a tensor's value inside fn (invariant 3) -- fixed.
import os
import sys

import torch

# tinylm is installed next to this lesson (its site-packages folder), like any package.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "site-packages"))
from tinylm import TinyLM  # noqa: E402

torch.manual_seed(0)
backend = "eager"


def fn(model, x, mask):
    return model(x, mask=mask)  # pass the mask in: the library has nothing to inspect


example_inputs = lambda: (TinyLM(), torch.randn(2, 4), torch.ones(2, 4, dtype=torch.bool))  # noqa: E731
