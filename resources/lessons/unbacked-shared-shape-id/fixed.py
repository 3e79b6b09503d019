# Lesson: dims that must be equal share a shape_id -- fixed.
import torch
from torch._dynamo.decorators import mark_unbacked

torch.manual_seed(0)
backend = "inductor"


def fn(tokens, mask):
    kept = tokens * mask.unsqueeze(-1)  # ties the batch of tokens to the batch of mask
    return kept.sum(dim=1) / mask.sum(dim=1, keepdim=True).clamp(min=1)


def example_inputs():
    tokens = torch.randn(4, 6, 8)
    mask = (torch.rand(4, 6) > 0.3).float()
    mark_unbacked(tokens, 0, shape_id="batch")  # one batch size...
    mark_unbacked(mask, 0, shape_id="batch")  # ...shared: checked at the call
    return (tokens, mask)
