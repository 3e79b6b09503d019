"""A violation: the model reads a tensor that is neither an input nor one of its own.

`offset` lives beside the model instead of inside it, so the artifact would bake in today's
value (invariant 1: everything live is an input). Run it: the Violations tab names the rule,
the line and the fix (make `offset` a buffer or a parameter of the module, or pass it to fn).
"""
import torch

torch.manual_seed(0)
backend = "eager"

offset = torch.randn(4)


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x) + offset


def fn(model, x):
    return model(x)


def example_inputs():
    return (Head(), torch.randn(2, 4))


name = "violation_closed_over_tensor"
