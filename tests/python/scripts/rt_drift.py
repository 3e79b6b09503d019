# acc_drift.py's float16 multiply, called on runtime_inputs too: there as on the example inputs,
# the difference from eager is the backend's arithmetic (drift), not a mismatch.
import torch

torch.manual_seed(0)
backend = "eager"


def _addmm_in_half(bias, a, b, beta=1, alpha=1):
    return torch.ops.aten.add.Tensor(bias, torch.ops.aten.mm.default(a.to(torch.float16), b.to(torch.float16)))


decompositions = {torch.ops.aten.addmm.default: _addmm_in_half}


def fn(model, x):
    return model(x)


example_inputs = lambda: (torch.nn.Linear(64, 64), torch.randn(32, 64))  # noqa: E731
runtime_inputs = lambda: (torch.nn.Linear(64, 64), torch.randn(32, 64))  # noqa: E731
