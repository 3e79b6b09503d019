import torch

torch.manual_seed(0)
backend = "eager"
HIDDEN = 8  # used only to build the example, not read by fn


def fn(model, x):
    return model(x).softmax(-1)


example_inputs = lambda: (torch.nn.Sequential(torch.nn.Linear(4, HIDDEN), torch.nn.ReLU(),  # noqa: E731
                                              torch.nn.Linear(HIDDEN, 3)), torch.randn(5, 4))
