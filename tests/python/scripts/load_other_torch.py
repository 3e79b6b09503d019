"""A torch 2.14 script that loads a pair another torch may have made (its stem in PAIR)."""
import os

import torch

stem = os.environ["PAIR"]
with open(stem + ".py") as f, open(stem + ".cache", "rb") as g:
    python_code, cache = f.read(), g.read()
f = torch.compiler.precompile.load(python_code, cache)  # HERE
print(f(torch.ones(4)))
