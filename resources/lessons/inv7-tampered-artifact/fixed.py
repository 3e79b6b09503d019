# Lesson: python_code and cache are trusted executable input (invariant 7) -- fixed.
# An existing program: it calls precompile and load itself; the studio records the call.
import torch
from torch.compiler import precompile

torch.manual_seed(0)


def fn(model, x):
    return model(x).relu()


model = torch.nn.Linear(4, 2)
x = torch.randn(3, 4)
python_code, cache = precompile(fn, model, x, backend="eager")

# Load the pair exactly as precompile returned it; to change fn, change it and precompile again.
forward = precompile.load(python_code, cache)
print(forward(model, x))
