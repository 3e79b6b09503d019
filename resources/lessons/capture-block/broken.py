# Lesson: a capture block takes one call (torch 2.15) -- broken.
# An existing program: its loop runs inside the capture block.
import os
import tempfile

import torch

torch.manual_seed(0)


def step(model, x):
    return model(x).relu().sum()


model = torch.nn.Linear(4, 2)
batches = [torch.randn(3, 4) for _ in range(2)]
folder = tempfile.mkdtemp()
code, cache = os.path.join(folder, "step.py"), os.path.join(folder, "step.cache")
with torch.compiler.precompile.capture(step, artifact_path=code, cache_path=cache, backend="eager") as cap:
    for x in batches:
        print(float(cap(model, x)))  # the second call is refused
