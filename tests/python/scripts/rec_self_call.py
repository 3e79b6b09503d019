import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)


def step(m, x):
    return m(x).relu()  # STEP


python_code, cache = torch.compiler.precompile(step, model, x, backend="eager")  # API
loaded = torch.compiler.precompile.load(python_code, cache)
