import os
import sys

import torch

_PKGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "site-packages")
if os.path.normpath(_PKGS) not in sys.path:
    sys.path.insert(0, os.path.normpath(_PKGS))
import tinylib  # noqa: E402

backend = "eager"


def fn(x):
    return tinylib.normalise(x) * 2  # HERE


example_inputs = (torch.randn(4),)
