"""The calls verification makes and how their results are compared: shared by the verify
pipeline, the accuracy judge and the perturbed trials (one module below all three, so that none
of them imports another's private helpers).

- ``fresh_copy``: a deep copy of a call's inputs, models included, keeping sharing and tying.
- ``rng_fork`` / ``seeded_call``: a call under a fixed seed, without disturbing the script's RNG.
- ``leaves``: a call's outputs as a flat list and their structure.
- ``compare_values``: the one comparison point (common.compare, or the C++ worker's LibTorch one
  installed through ``set_comparator``); ``summarise``: a list of compared entries in three figures.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from precompile_studio.common.compare import compare as _default_compare

_comparator: Callable[[Any, Any], dict] = _default_compare


def set_comparator(fn: Callable[[Any, Any], dict] | None) -> None:
    """Replace the comparison (e.g. by the C++ worker's LibTorch one); None restores."""
    global _comparator
    _comparator = fn or _default_compare


def fresh_copy(args: tuple, share_parameters: bool = False) -> tuple:
    """A deep copy of the inputs (models included), keeping their sharing and tying.

    ``share_parameters``: the copies of the models hold the very same parameters (buffers and
    every other tensor are copied) -- the snapshot the studio's own capture takes, where nothing
    but precompile touches the arguments before verification. The one difference: a fn that
    writes to a parameter in place (an update inside fn) has done so once while precompile
    traced it, so verification starts eager fn and the artifact alike from the written value.
    """
    memo: dict[int, Any] = {}
    if share_parameters:
        import torch

        for a in args:
            if isinstance(a, torch.nn.Module):
                memo.update((id(p), p) for p in a.parameters())
    try:
        return copy.deepcopy(tuple(args), dict(memo))
    except Exception:  # noqa: BLE001 - the user's objects may refuse deepcopy: copied leaf by leaf
        import torch
        import torch.utils._pytree as pytree

        def one(v):
            if isinstance(v, torch.nn.Module):
                return copy.deepcopy(v, dict(memo))
            if isinstance(v, torch.Tensor):
                c = v.detach().clone()
                c.requires_grad_(v.requires_grad)
                return c
            return v

        return tuple(pytree.tree_map(one, list(args)))


def compare_values(expected: Any, actual: Any) -> dict:
    """The installed comparison of one value of eager fn against the artifact's."""
    return _comparator(expected, actual)


def rng_fork():
    import torch

    devices = []
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        devices = list(range(torch.cuda.device_count()))
    return torch.random.fork_rng(devices=devices)


def seeded_call(f, args, seed: int):
    import torch

    torch.manual_seed(seed)
    return f(*args)


def leaves(value) -> tuple[list, Any]:
    import torch.utils._pytree as pytree

    return pytree.tree_flatten(value)


def summarise(entries: list[dict]) -> tuple[bool, float, float]:
    """(every entry ok, the largest max_abs_diff, the largest max_rel_diff)."""
    ok = all(e["result"].get("ok") for e in entries)
    mad = 0.0
    mrd = 0.0
    for e in entries:
        r = e["result"]
        if r.get("max_abs_diff") is not None:
            mad = max(mad, r["max_abs_diff"])
        if r.get("max_rel_diff") is not None:
            mrd = max(mrd, r["max_rel_diff"])
    return ok, mad, mrd
