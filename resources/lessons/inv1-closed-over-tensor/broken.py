# Lesson: everything live is an input (invariant 1) -- the broken version.
import torch

torch.manual_seed(0)
backend = "eager"

# A learned offset kept next to the model instead of inside it.
offset = torch.randn(4)


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x) + offset  # reads a tensor from outside fn and the model


def fn(model, x):
    return model(x)


example_inputs = lambda: (Head(), torch.randn(2, 4))  # noqa: E731
