import os
import sys

import torch

_PKGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "site-packages")
if os.path.normpath(_PKGS) not in sys.path:
    sys.path.insert(0, os.path.normpath(_PKGS))
from transformers import TinyEncoder  # noqa: E402 - the fake of tests/fixtures/site-packages

backend = "eager"


def fn(model, x, mask):
    return model(x, attention_mask=mask)  # HERE


example_inputs = lambda: (TinyEncoder(), torch.randn(2, 3, 4), torch.ones(2, 3, dtype=torch.long))  # noqa: E731
