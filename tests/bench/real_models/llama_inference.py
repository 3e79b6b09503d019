"""Bench: a transformers Llama decoder's inference on the eager backend, from a small config
(random weights, no downloads). Needs an environment with transformers (PS_BENCH_USER_ENV).

As for GPT-2: the causal mask comes in built (4-D) and use_cache is off, so nothing inside fn
reads a tensor's value or makes the cache's empty tensors.
"""
import torch
from transformers import LlamaConfig, LlamaForCausalLM

torch.manual_seed(0)
config = LlamaConfig(num_hidden_layers=2, hidden_size=256, num_attention_heads=4, num_key_value_heads=4,
                     intermediate_size=512, vocab_size=1000, max_position_embeddings=128,
                     attn_implementation="eager")
model = LlamaForCausalLM(config).eval()
backend = "eager"


def fn(model, ids, mask):
    with torch.no_grad():
        return model(input_ids=ids, attention_mask=mask, use_cache=False).logits


def example_inputs():
    g = torch.Generator().manual_seed(1)
    causal = torch.ones(64, 64, dtype=torch.bool).tril().expand(2, 1, 64, 64)
    return (model, torch.randint(0, config.vocab_size, (2, 64), generator=g), causal)


name = "llama_inference"
