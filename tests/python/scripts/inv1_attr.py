import torch


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.weight_scale = torch.ones(4)  # a plain attribute, not a buffer

    def forward(self, x):
        return self.lin(x) * self.weight_scale  # HERE


backend = "eager"
fn = lambda model, x: model(x)  # noqa: E731
example_inputs = lambda: (Scaled(), torch.randn(2, 4))  # noqa: E731
