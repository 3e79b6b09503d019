# BatchNorm in training mode, forward only: its running statistics change in place, though
# aten.native_batch_norm's schema declares no write and the update bumps no version counter.
import torch

backend = "eager"


def fn(model, x):
    with torch.no_grad():
        return model(x)


example_inputs = lambda: (torch.nn.BatchNorm1d(3).train(), torch.randn(4, 3))  # noqa: E731
