import torch


def fn(x):
    if x.shape[0] > 2:  # HERE
        return x.sin()
    return x.cos()


code, cache = torch.compiler.precompile(fn, torch.randn(2, 3), backend="eager")
f = torch.compiler.precompile.load(code, cache)
f(torch.randn(4, 3))  # CALL
