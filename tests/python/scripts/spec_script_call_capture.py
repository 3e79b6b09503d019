import os
import tempfile

import torch


def fn(x):
    if x.shape[0] > 2:  # HERE
        return x.sin()
    return x.cos()


out = tempfile.mkdtemp()
code, cache = os.path.join(out, "fn.py"), os.path.join(out, "fn.cache")
with torch.compiler.precompile.capture(fn, artifact_path=code, cache_path=cache, backend="eager") as cap:
    cap(torch.randn(2, 3))
f = torch.compiler.precompile.load(code, cache)
f(torch.randn(4, 3))  # CALL
