# Lesson: gradients accumulate, zero_grad belongs outside fn -- the fixed version.
import torch

torch.manual_seed(0)
backend = "eager"


def fn(model, x, target):
    loss = torch.nn.functional.cross_entropy(model(x), target)
    loss.backward()  # the artifact adds these gradients to .grad, like eager
    return loss


def example_inputs():
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    return (model, torch.randn(6, 4), torch.tensor([0, 1, 2, 0, 1, 2]))


if __name__ == "__main__":
    # The training loop, outside fn (run this file with python to try it; the studio does not).
    model, x, target = example_inputs()
    code, cache = torch.compiler.precompile(fn, model, x, target, backend="eager")
    step = torch.compiler.precompile.load(code, cache)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for it in range(3):
        opt.zero_grad()
        for micro_batch in range(2):  # gradient accumulation: .grad sums both
            loss = step(model, x, target)
        opt.step()
        print(it, float(loss))
