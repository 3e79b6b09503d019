import torch

backend = "eager"
offset = torch.ones(4)  # DEF global


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.gain = torch.full((4,), 2.0)  # DEF attribute

    def forward(self, x):
        return self.lin(x) * self.gain  # USE attribute


def make_fn():
    shift = torch.zeros(4)  # DEF closure

    def fn(model, x, bias=torch.ones(4)):  # noqa: B008  # DEF default
        y = model(x) + offset  # USE global
        y = y - shift  # USE closure
        return y + bias  # USE default

    return fn


fn = make_fn()
example_inputs = lambda: (Scaled(), torch.randn(2, 4))  # noqa: E731
