"""A script written for both torch versions: it asks which precompile API it has."""
import os
import tempfile

import torch


def fn(x):
    return x.sin() + 1


x = torch.randn(3)
if callable(torch.compiler.precompile):  # torch 2.14
    code, cache = torch.compiler.precompile(fn, x, backend="eager")
    f = torch.compiler.precompile.load(code, cache)
else:  # torch 2.15
    assert hasattr(torch.compiler.precompile, "capture")
    out = tempfile.mkdtemp()
    paths = os.path.join(out, "fn.py"), os.path.join(out, "fn.cache")
    with torch.compiler.precompile.capture(fn, artifact_path=paths[0], cache_path=paths[1], backend="eager") as cap:
        cap(x)
    f = torch.compiler.precompile.load(*paths)
assert torch.allclose(f(x), fn(x))
