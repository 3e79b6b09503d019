"""The baseline of the run-overhead benchmark: what a user would write without the studio.

usage: plain_precompile.py SCRIPT  -- imports SCRIPT and calls torch.compiler.precompile on its
fn and example inputs with its backend, as one cold process.
"""
import importlib.util
import sys

import torch

spec = importlib.util.spec_from_file_location("user_script", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
inputs = mod.example_inputs() if callable(mod.example_inputs) else tuple(mod.example_inputs)
code, cache = torch.compiler.precompile(mod.fn, *inputs, backend=getattr(mod, "backend", "inductor"))
print(len(code), len(cache))
