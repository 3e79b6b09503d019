import torch

# Sizes no other test script uses: inductor's FX graph cache misses, so the kernels are generated.
backend = "inductor"  # the tests run it with backend="eager" too


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(61, 131)
        self.b = torch.nn.Linear(131, 17)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


model = MLP()


def fn(model, x):
    return model(x)


example_inputs = (model, torch.randn(8, 61))
