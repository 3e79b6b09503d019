import os
import tempfile

import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)


def step(m, x):
    return m(x).relu()  # STEP


out = tempfile.mkdtemp()
code, cache = os.path.join(out, "step.py"), os.path.join(out, "step.cache")
with torch.compiler.precompile.capture(step, artifact_path=code, cache_path=cache, backend="eager") as cap:  # API
    cap(model, x)
loaded = torch.compiler.precompile.load(code, cache)
