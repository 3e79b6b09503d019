import os
import tempfile

import torch


def fn(x):
    return x + 1


def other(x):
    return x * 3


out = tempfile.mkdtemp()
paths = {n: (os.path.join(out, n + ".py"), os.path.join(out, n + ".cache")) for n in ("fn", "other")}
for f, (code, cache) in ((fn, paths["fn"]), (other, paths["other"])):
    with torch.compiler.precompile.capture(f, artifact_path=code, cache_path=cache, backend="eager") as cap:
        cap(torch.ones(2))
f = torch.compiler.precompile.load(paths["fn"][0], paths["other"][1])  # HERE
