# Lesson: a capture block takes one call (torch 2.15) -- fixed.
# An existing program: one call captures, the loop runs the loaded artifact.
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
    print(float(cap(model, batches[0])))  # one call: traced, lowered, served
run = torch.compiler.precompile.load(code, cache)
for x in batches[1:]:
    print(float(run(model, x)))
