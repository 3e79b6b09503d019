"""An existing program that captures with torch.compiler.precompile itself (torch 2.15's capture
blocks; existing_program_torch2.14.py is the same program for torch 2.14's call).

The studio runs it unchanged and records each capture block's call as a capture of the run; the
pairs are still written where the program asks.
"""
import os
import tempfile

import torch
from torch import nn

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(8, 8), nn.GELU())
head = nn.Linear(8, 2)


def encode(encoder, x):
    return encoder(x)


def classify(encoder, head, x):
    return head(encoder(x)).argmax(-1)


x = torch.randn(4, 8)
out = tempfile.mkdtemp(prefix="existing-program-")
paths = {name: (os.path.join(out, f"{name}.py"), os.path.join(out, f"{name}.cache")) for name in ("encode", "classify")}
with torch.compiler.precompile.capture(encode, artifact_path=paths["encode"][0], cache_path=paths["encode"][1],
                                       backend="eager") as cap:
    cap(encoder, x)
with torch.compiler.precompile.capture(classify, artifact_path=paths["classify"][0],
                                       cache_path=paths["classify"][1], backend="eager") as cap:
    cap(encoder, head, x)

run = torch.compiler.precompile.load(*paths["encode"])
print("reloaded encode matches eager:", torch.allclose(run(encoder, x), encode(encoder, x)))
