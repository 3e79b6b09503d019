"""A real graph for the graph benchmark: a training step (forward, loss, backward) of a 4-layer
nn.TransformerEncoder (d_model 64, 4 heads, batch first) with a classification head, so the
captured ATen graph carries torch's own module tree (model.encoder.layers.N.self_attn, ...)."""
import torch
from torch import nn

torch.manual_seed(0)
D, HEADS, LAYERS, CLASSES, SEQ, BATCH = 64, 4, 4, 10, 16, 4


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(D, HEADS, dim_feedforward=4 * D, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)
        self.head = nn.Linear(D, CLASSES)

    def forward(self, x):
        return self.head(self.encoder(x).mean(1))


model = Model()


def fn(model, x, targets):
    loss = nn.functional.cross_entropy(model(x), targets)
    loss.backward()
    return loss.detach()


def example_inputs():
    return (model, torch.randn(BATCH, SEQ, D), torch.randint(0, CLASSES, (BATCH,)))


name = "encoder_step"
