import torch


def fn(x):
    return x + 1


code, cache = torch.compiler.precompile(fn, torch.ones(2), backend="eager")
other_code, other_cache = torch.compiler.precompile(lambda x: x * 3, torch.ones(2), backend="eager")
f = torch.compiler.precompile.load(code, other_cache)  # HERE
