"""Bench: a transformers GPT-2 training step on inductor, from a small config (random weights, no
downloads). Needs an environment with transformers (the bench's PS_BENCH_USER_ENV).

Two things keep make_fx's trace (precompile's tracer) on tensors: the causal mask is passed in
already built (4-D), so transformers does not inspect a padding mask's values, and use_cache is
off, so no empty cache tensors are created inside fn.
"""
import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
config = GPT2Config(n_layer=2, n_embd=256, n_head=4, n_positions=128,
                    resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
model = GPT2LMHeadModel(config).train()
backend = "inductor"
compare_gradients = True  # for the plain baseline (plain_verify.py): a training step


def fn(model, ids, mask):
    loss = model(input_ids=ids, labels=ids, attention_mask=mask, use_cache=False).loss
    loss.backward()
    return loss.detach()


def example_inputs():
    g = torch.Generator().manual_seed(1)
    causal = torch.ones(64, 64, dtype=torch.bool).tril().expand(2, 1, 64, 64)
    return (model, torch.randint(0, config.vocab_size, (2, 64), generator=g), causal)


name = "gpt2_training"
