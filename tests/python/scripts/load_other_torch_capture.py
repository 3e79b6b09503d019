"""A torch 2.15 script that loads a pair another torch may have made (its stem in PAIR)."""
import os

import torch

stem = os.environ["PAIR"]
f = torch.compiler.precompile.load(stem + ".py", stem + ".cache")  # HERE
print(f(torch.ones(4)))
