"""Load an exported (python_code, cache) pair in a plain Python process and match eager.

usage: load_and_compare.py EXPORT_DIR NAME SCRIPT [--grads]

Checks that NAME.py and NAME.cache are the bytes the report hashed, loads them with
torch.compiler.precompile.load, and calls the artifact and eager fn on identical copies of the
script's example inputs (the model deep-copied): outputs must match, and with --grads the
parameter gradients too. Prints MATCH and exits 0, or says what differs and exits 1.
"""
import copy
import hashlib
import importlib.util
import json
import os
import sys

import torch


def main() -> int:
    export_dir, name, script = sys.argv[1:4]
    grads = "--grads" in sys.argv
    code_bytes = open(os.path.join(export_dir, name + ".py"), "rb").read()
    cache = open(os.path.join(export_dir, name + ".cache"), "rb").read()
    report = json.load(open(os.path.join(export_dir, name + ".json")))
    cap = next(c for c in report["captures"] if c["name"] == name)
    if hashlib.sha256(code_bytes).hexdigest() != cap["artifact"]["python_code_sha256"]:
        print("python_code differs from what the report hashed")
        return 1
    if hashlib.sha256(cache).hexdigest() != cap["artifact"]["cache_sha256"]:
        print("cache differs from what the report hashed")
        return 1

    if callable(torch.compiler.precompile):  # torch 2.14: the pair in memory
        artifact = torch.compiler.precompile.load(code_bytes.decode(), cache)
    else:  # torch 2.15: the files the export wrote
        artifact = torch.compiler.precompile.load(os.path.join(export_dir, name + ".py"),
                                                  os.path.join(export_dir, name + ".cache"))

    spec = importlib.util.spec_from_file_location("user_script", script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    inputs = mod.example_inputs() if callable(mod.example_inputs) else tuple(mod.example_inputs)
    eager_args = copy.deepcopy(inputs)
    art_args = copy.deepcopy(inputs)
    expected = mod.fn(*eager_args)
    got = artifact(*art_args)
    if not torch.allclose(got, expected, rtol=1e-4, atol=1e-5):
        print("outputs differ:", (got - expected).abs().max().item())
        return 1
    if grads:
        e_mod = next(a for a in eager_args if isinstance(a, torch.nn.Module))
        a_mod = next(a for a in art_args if isinstance(a, torch.nn.Module))
        for (n, pe), (_, pa) in zip(e_mod.named_parameters(), a_mod.named_parameters()):
            if pe.grad is None or pa.grad is None:
                print("no gradient for", n)
                return 1
            if not torch.allclose(pe.grad, pa.grad, rtol=1e-4, atol=1e-5):
                print("gradient of", n, "differs:", (pe.grad - pa.grad).abs().max().item())
                return 1
    print("MATCH")
    return 0


if __name__ == "__main__":
    sys.exit(main())
