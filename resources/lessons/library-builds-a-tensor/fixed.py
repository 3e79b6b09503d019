# Lesson: a library builds a tensor inside fn (invariant 1) -- fixed.
import os
import sys

import torch

# tinylm is installed next to this lesson (its site-packages folder), like any package.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "site-packages"))
from tinylm import TinyLM  # noqa: E402

torch.manual_seed(0)
backend = "eager"


def fn(model, x):
    return model(x, use_cache=False)  # an argument of the library turns the cache off


example_inputs = lambda: (TinyLM(), torch.randn(2, 4))  # noqa: E731
