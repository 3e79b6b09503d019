"""The baseline of the verification-cost benchmark: what a user writes to check an artifact without
the studio. torch.compiler.precompile (2.14's call, 2.15's capture block), load, one call of the
artifact compared with one call of eager fn (torch.allclose with the studio's float32 tolerance),
gradients too where the script says ``compare_gradients = True`` (eager then gets a deep copy of
the inputs, as a user would make).

usage: plain_verify.py SCRIPT   (prints one line: the phases' seconds and whether they matched)
"""
import copy
import importlib.util
import os
import sys
import time

import torch

t0 = time.perf_counter()
spec = importlib.util.spec_from_file_location("user_script", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
inputs = mod.example_inputs() if callable(mod.example_inputs) else tuple(mod.example_inputs)
grads = getattr(mod, "compare_gradients", False)
backend = getattr(mod, "backend", "inductor")
t1 = time.perf_counter()
if callable(torch.compiler.precompile):  # torch 2.14: the pair in memory
    code, cache = torch.compiler.precompile(mod.fn, *inputs, backend=backend)
    t2 = time.perf_counter()
    artifact = torch.compiler.precompile.load(code, cache)
else:  # torch 2.15: a capture block writes the pair (its one call is served by the artifact)
    import tempfile

    folder = tempfile.mkdtemp()
    paths = os.path.join(folder, "fn.py"), os.path.join(folder, "fn.cache")
    capture_inputs = copy.deepcopy(inputs) if grads else inputs  # its serve scatters gradients too
    with torch.compiler.precompile.capture(mod.fn, artifact_path=paths[0], cache_path=paths[1], backend=backend) as cap:
        cap(*capture_inputs)
    t2 = time.perf_counter()
    artifact = torch.compiler.precompile.load(*paths)
t3 = time.perf_counter()
eager_inputs = copy.deepcopy(inputs) if grads else inputs
out = artifact(*inputs)
ref = mod.fn(*eager_inputs)
t4 = time.perf_counter()


def close(a, b):
    return torch.allclose(a, b, rtol=1e-4, atol=1e-5) if isinstance(a, torch.Tensor) else a == b


match = all(close(a, b) for a, b in zip(torch.utils._pytree.tree_leaves(out), torch.utils._pytree.tree_leaves(ref)))
if grads:
    for a, b in zip(inputs, eager_inputs):
        if isinstance(a, torch.nn.Module):
            match &= all(p.grad is None and q.grad is None or close(p.grad, q.grad)
                         for p, q in zip(a.parameters(), b.parameters()))
t5 = time.perf_counter()
print(f"script {t1 - t0:.3f} precompile {t2 - t1:.3f} load {t3 - t2:.3f} calls {t4 - t3:.3f} "
      f"compare {t5 - t4:.3f} match {match}")
