"""A script with its own torch 2.15 capture block: the pair lands where it asks (CAPTURE_OUT)."""
import os

import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 2)


def step(m, x):
    return m(x).tanh()


out = os.environ["CAPTURE_OUT"]
with torch.compiler.precompile.capture(step, artifact_path=os.path.join(out, "step.py"),
                                       cache_path=os.path.join(out, "step.cache"), backend="eager") as cap:
    y = cap(model, torch.randn(4, 3))
assert y.shape == (4, 2)
