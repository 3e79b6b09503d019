import torch

backend = "eager"
SCALE = 0.5
USE_BIAS = True
LAYERS = 2
NAME = "not a number"  # strings are not flagged
HIDDEN = 3  # read by __init__ only, before the capture: not flagged
ALPHA = 0.1


def shift(y):
    return y + 1 if USE_BIAS else y  # BIAS


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, HIDDEN)
        self.eps = 1e-5  # a model attribute: architecture, not flagged

    def act(self, x):
        return torch.nn.functional.leaky_relu(x, ALPHA)  # ALPHA

    def unused(self):
        return HIDDEN * ALPHA * 2.0

    def forward(self, x):
        for _ in range(LAYERS):  # LAYERS
            x = self.act(self.lin(x) + self.eps)
        return x


def make():
    k = 3

    def fn(model, x):
        return shift(model(x) * SCALE) * k  # HERE
    return fn


fn = make()
example_inputs = lambda: (Net(), torch.ones(2, 3))  # noqa: E731
