import torch


class WithBuffer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)
        self.register_buffer("offset", torch.zeros(3, requires_grad=True))

    def forward(self, x):
        return self.lin(x) + self.offset


backend = "eager"


def fn(model, x):
    loss = model(x).sum()
    loss.backward()  # HERE
    return loss


example_inputs = lambda: (WithBuffer(), torch.randn(2, 3))  # noqa: E731
