# Lesson: the artifact pair is trusted executable input (invariant 7), torch 2.15 -- fixed.
# An existing program: it captures and loads itself; the studio records the capture.
import os
import tempfile

import torch

torch.manual_seed(0)


def fn(model, x):
    return model(x).relu()


model = torch.nn.Linear(4, 2)
x = torch.randn(3, 4)
folder = tempfile.mkdtemp()
code, cache = os.path.join(folder, "fn.py"), os.path.join(folder, "fn.cache")
with torch.compiler.precompile.capture(fn, artifact_path=code, cache_path=cache, backend="eager") as cap:
    cap(model, x)

# Load the pair exactly as the capture wrote it; to change fn, change it and capture again.
forward = torch.compiler.precompile.load(code, cache)
print(forward(model, x))
