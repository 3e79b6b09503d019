"""Bench: a transformers BERT encoder's inference on the eager backend, from a small config
(random weights, no downloads). Needs an environment with transformers (PS_BENCH_USER_ENV).

The attention mask is passed in already built (4-D, additive), so transformers does not read a
padding mask's values inside fn (precompile's tracer cannot: a data-dependent read).
"""
import torch
from transformers import BertConfig, BertModel

torch.manual_seed(0)
config = BertConfig(num_hidden_layers=4, hidden_size=256, num_attention_heads=4, intermediate_size=1024,
                    max_position_embeddings=128, attn_implementation="eager")
model = BertModel(config).eval()
backend = "eager"


def fn(model, ids, mask):
    with torch.no_grad():
        return model(input_ids=ids, attention_mask=mask).last_hidden_state


def example_inputs():
    g = torch.Generator().manual_seed(1)
    mask = torch.zeros(2, 1, 64, 64)
    return (model, torch.randint(0, config.vocab_size, (2, 64), generator=g), mask)


name = "bert_inference"
