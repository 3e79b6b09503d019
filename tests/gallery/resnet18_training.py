"""Gallery: a torchvision resnet18 training step on inductor (random weights, no downloads).

At this size inductor's kernels (BatchNorm's statistics above all) round differently from
eager's: some gradients differ from eager beyond tolerance, by far more than eager's own error
against a float64 run. The studio must call that numerics drift -- named, with its figures --
and not a contract problem (tests/gallery/CMakeLists.txt asserts it).
"""
import torch
import torchvision

torch.manual_seed(0)
model = torchvision.models.resnet18(num_classes=10)
model.train()
loss_fn = torch.nn.CrossEntropyLoss()
backend = "inductor"


def fn(model, x, y):
    loss = loss_fn(model(x), y)
    loss.backward()
    return loss.detach()


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return (model, torch.randn(4, 3, 128, 128, generator=g), torch.randint(0, 10, (4,), generator=g))


name = "resnet18_training"
