"""A plain function: fn takes tensors and returns tensors; no model, no state.

The smallest script the studio runs: `fn` and its `example_inputs`. Press Ctrl+R, then look at
the captured ATen graph (Graph), the generated python_code (Source) and the check against eager
fn (Verify).
"""
import torch


def fn(x, y):
    return torch.sin(x) * torch.cos(y) + (x @ y.T).softmax(-1) @ y


example_inputs = (torch.randn(8, 16), torch.randn(8, 16))
name = "plain_function"
