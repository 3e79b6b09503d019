import os
import sys

import torch

_PKGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "site-packages")
if os.path.normpath(_PKGS) not in sys.path:
    sys.path.insert(0, os.path.normpath(_PKGS))
from transformers import TinyLM  # noqa: E402 - the fake of tests/fixtures/site-packages

backend = "eager"


def fn(model, x):
    return model(x, use_cache=False)  # HERE


example_inputs = lambda: (TinyLM(), torch.randn(2, 4))  # noqa: E731
