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
if callable(torch.compiler.precompile):  # torch 2.14: the pair in memory
    code, cache = torch.compiler.precompile(mod.fn, *inputs, backend=getattr(mod, "backend", "inductor"))
else:  # torch 2.15: a capture block writes the pair
    import os
    import tempfile

    out = tempfile.mkdtemp()
    with torch.compiler.precompile.capture(mod.fn, artifact_path=os.path.join(out, "fn.py"),
                                           cache_path=os.path.join(out, "fn.cache"),
                                           backend=getattr(mod, "backend", "inductor")) as cap:
        cap(*inputs)
    code, cache = open(os.path.join(out, "fn.py")).read(), open(os.path.join(out, "fn.cache"), "rb").read()
print(len(code), len(cache))
