"""torch 2.15: a capture block that never calls the capture."""
import os
import tempfile

import torch

out = tempfile.mkdtemp()


def fn(x):
    return x + 1


with torch.compiler.precompile.capture(fn, artifact_path=os.path.join(out, "fn.py"),  # HERE
                                       cache_path=os.path.join(out, "fn.cache"), backend="eager") as cap:
    pass
