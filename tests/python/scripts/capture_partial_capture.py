"""torch 2.15: functools.partial as fn."""
import functools
import os
import tempfile

import torch

out = tempfile.mkdtemp()


def scale(x, factor):
    return x * factor


with torch.compiler.precompile.capture(functools.partial(scale, factor=2.0),  # HERE
                                       artifact_path=os.path.join(out, "fn.py"),
                                       cache_path=os.path.join(out, "fn.cache"), backend="eager") as cap:
    cap(torch.ones(3))
