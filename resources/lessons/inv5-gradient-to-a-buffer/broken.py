# Lesson: backward is part of the computation (invariant 5) -- the broken version.
import torch

torch.manual_seed(0)
backend = "eager"


class Calibrated(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 2)
        # Meant to be learned, but registered as a buffer (with requires_grad=True).
        self.register_buffer("scale", torch.ones(2, requires_grad=True))

    def forward(self, x):
        return self.lin(x) * self.scale


def fn(model, x, target):
    loss = torch.nn.functional.mse_loss(model(x), target)
    loss.backward()
    return loss


example_inputs = lambda: (Calibrated(), torch.randn(8, 4), torch.randn(8, 2))  # noqa: E731
