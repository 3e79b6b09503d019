# Lesson: everything live is an input (invariant 1) -- the fixed version.
import torch

torch.manual_seed(0)
backend = "eager"


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        # Registered: precompile lifts it to a graph input and reads it from the runtime model.
        self.register_buffer("offset", torch.randn(4))

    def forward(self, x):
        return self.lin(x) + self.offset


def fn(model, x):
    return model(x)


example_inputs = lambda: (Head(), torch.randn(2, 4))  # noqa: E731
