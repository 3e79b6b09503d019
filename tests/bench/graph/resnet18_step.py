"""A real graph for the graph benchmark: a training step (forward, loss, backward) of a
torchvision resnet18 (random weights, no downloads) on a small batch, so the captured ATen graph
carries a convolutional network's module tree (model.layer1.0.conv1, ...)."""
import torch
import torchvision
from torch import nn

torch.manual_seed(0)
CLASSES = 10

model = torchvision.models.resnet18(num_classes=CLASSES)


def fn(model, x, targets):
    loss = nn.functional.cross_entropy(model(x), targets)
    loss.backward()
    return loss.detach()


def example_inputs():
    return (model, torch.randn(2, 3, 64, 64), torch.randint(0, CLASSES, (2,)))


name = "resnet18_step"
