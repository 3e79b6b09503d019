"""The baseline of the check's cost: what a server does without the studio.

usage: plain_load_call.py SCRIPT NAME.py NAME.cache  -- one cold process: imports torch, builds the
script's example inputs, loads the pair with plain torch.compiler.precompile and calls it once.
"""
import importlib.util
import sys

import torch

spec = importlib.util.spec_from_file_location("user_script", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
inputs = mod.example_inputs() if callable(mod.example_inputs) else tuple(mod.example_inputs)
api = torch.compiler.precompile
if callable(api):  # torch 2.14: the pair in memory
    with open(sys.argv[2], encoding="utf-8") as f, open(sys.argv[3], "rb") as g:
        artifact = api.load(f.read(), g.read())
else:  # torch 2.15: load(artifact_path, cache_path)
    artifact = api.load(sys.argv[2], sys.argv[3])
artifact(*inputs)
