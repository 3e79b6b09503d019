"""(b) of the contract checker (checker.py): the artifact and eager fn on perturbed inputs.

After verification (when the example itself matched), the loaded artifact and eager fn run side
by side on inputs of the example's spec -- same shapes, dtypes, strides and aliasing; fresh
values (floats drawn with the example's mean and spread, then negated, then scaled by 0.01;
ints and bools shuffled, so labels stay valid) -- under the same RNG seed. A difference means
something was baked from the example's values: a "perturbed-divergence" warning (invariant 3).

Cost: a trial is two calls. Where the captured graph writes nothing (verify's ``shared``
mode), both calls take the same arguments and models are not copied; otherwise each side gets
a deep copy (eager the perturbed copy itself). Each trial compares the outputs and what a call
may have changed (gradients, buffers, mutated inputs), never the parameters. With a ``budget``
(budget.py), a trial runs only while its estimated cost fits; the others are listed as skipped,
with how to ask for them.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

FIX_PERTURBED = ("Find what fn computed in Python from the example's values (see the other "
                 "warnings) and keep it in tensor ops or pass it in as an input; if fn seeds or "
                 "reads global state, move that outside fn.")

TRIALS = (
    ("fresh", "fresh values with the example's mean and spread"),
    ("negated", "those values negated"),
    ("small", "those values scaled by 0.01"),
)


def _plain_dense(t) -> bool:
    import torch

    return (type(t) in (torch.Tensor, torch.nn.Parameter) and t.layout == torch.strided
            and t.device.type != "meta" and not t.is_quantized)


def _span(t) -> int:
    """Elements of storage the view reaches, from offset 0."""
    if t.numel() == 0:
        return t.storage_offset()
    return t.storage_offset() + sum((s - 1) * abs(st) for s, st in zip(t.shape, t.stride())) + 1


def _fresh_values(t, kind: str, n: int, gen):
    """n fresh values of t's dtype: floats from t's mean/spread, ints and bools shuffled."""
    import torch

    src = t.detach()
    if src.is_floating_point() or src.is_complex():
        vals = src.to(torch.complex128 if src.is_complex() else torch.float64).flatten()
        finite = vals[torch.isfinite(vals)] if not src.is_complex() else vals
        mean = finite.mean() if finite.numel() else torch.tensor(0.0, dtype=vals.dtype)
        std = finite.std() if finite.numel() > 1 else torch.tensor(0.0)
        std = float(std.abs()) if torch.isfinite(std).all() else 0.0
        if std == 0.0:
            std = max(float(abs(mean)), 1.0)
        base = torch.randn(n, generator=gen, dtype=vals.dtype) * std + mean
        if kind == "negated":
            base = -base
        elif kind == "small":
            base = base * 0.01
        return base.to(src.dtype)
    flat = src.flatten()
    if flat.numel() == 0:
        return torch.empty(n, dtype=src.dtype)
    # shuffle the example's values (labels and indices stay valid), repeated to n
    perm = torch.randperm(flat.numel(), generator=gen)
    vals = flat[perm]
    if n > vals.numel():
        reps = (n + vals.numel() - 1) // vals.numel()
        vals = vals.repeat(reps)
    return vals[:n].clone()


def perturb(snapshot: tuple, kind: str, gen, copy_models: bool = True) -> tuple[tuple, int]:
    """(args with fresh tensor values, number of tensors changed). Models are deep-copied,
    or with ``copy_models=False`` passed through as they are (verify's shared mode)."""
    import torch
    import torch.utils._pytree as pytree

    from .verify import fresh_copy

    base = fresh_copy(snapshot) if copy_models else tuple(snapshot)
    buffers: dict[Any, Any] = {}
    changed = 0

    def one(t):
        nonlocal changed
        if not isinstance(t, torch.Tensor) or not _plain_dense(t) or t.numel() == 0:
            return t
        try:
            key = (t.untyped_storage().data_ptr(), t.dtype)
        except Exception:  # noqa: BLE001
            key = id(t)
        # the whole storage, so that every view of it (aliased inputs) reads the fresh values
        span = max(_span(t), t.untyped_storage().nbytes() // t.element_size())
        flat = buffers.get(key)
        if flat is None or flat.numel() < span:
            flat = _fresh_values(t, kind, span, gen).to(t.device)
            buffers[key] = flat
        new = flat.as_strided(t.shape, t.stride(), t.storage_offset())
        if t.requires_grad:
            new = new.detach().requires_grad_(True)
        changed += 1
        return new

    out = []
    for a in base:
        if isinstance(a, torch.nn.Module):
            out.append(a)
        else:
            out.append(pytree.tree_map(one, a))
    return tuple(out), changed


def perturbed_check(
    *,
    fn: Callable,
    artifact: Callable,
    snapshot: tuple,
    names: list[str],
    seed: int,
    context=None,
    location: dict | None = None,
    budget: Any = None,
    estimate_s: float = 0.0,
    shared: bool = False,
) -> tuple[dict, list[dict]]:
    """(summary for verify["perturbed"], warnings).

    ``budget``: a budget.VerifyBudget; a trial runs while ``estimate_s`` (then the last trial's
    time) fits in it. ``shared``: the graph writes nothing, so both calls take the same args.
    """
    summary: dict = {"ran": False, "trials": [], "diverged": None}
    first_bad = None
    for i, (kind, desc) in enumerate(TRIALS):
        if budget is not None and not budget.fits(estimate_s):
            summary["trials"].append({"kind": kind, "inputs": desc, "status": "skipped",
                                      "reason": f"over the verification budget (about {estimate_s:.2g} s a trial)"})
            budget.skip(f"perturbed trial {kind}")
            continue
        t0 = time.perf_counter()
        try:
            trial, bad = _trial(fn, artifact, snapshot, names, seed, i, kind, desc, context, shared, summary)
        finally:
            estimate_s = time.perf_counter() - t0
            if budget is not None:
                budget.spend(estimate_s)
        if trial is None:
            break
        summary["trials"].append(trial)
        first_bad = first_bad or bad
    if not summary["ran"] and "reason" not in summary and summary["trials"]:
        summary["reason"] = "over the verification budget"
    summary["diverged"] = (first_bad is not None) if summary["ran"] else None
    if first_bad is None:
        return summary, []
    desc, note = first_bad
    return summary, [{
        "invariant": 3,
        "rule": "perturbed-divergence",
        "message": ("on inputs of the example's shapes, dtypes and strides with other values "
                    f"({desc}), the artifact and eager fn disagree ({note}): the artifact is "
                    "specialised to the example's values"),
        "fix": FIX_PERTURBED,
        "location": location,
        "details": {"trials": summary["trials"]},
    }]


def _trial(fn, artifact, snapshot, names, seed, i, kind, desc, context, shared, summary):
    """(the trial's record, (desc, note) when it diverged); (None, None) when none can run."""
    import torch

    from . import verify as V
    from .state import compare_state

    gen = torch.Generator().manual_seed(seed + 101)  # the same fresh values for every kind
    try:
        args, changed = perturb(snapshot, kind, gen, copy_models=not shared)
        # perturb already made eager's copy; the artifact needs a second one unless shared
        eager_args = args
        art_args = args if shared else V.fresh_copy(args)
    except Exception as e:  # noqa: BLE001
        summary["reason"] = f"the inputs cannot be perturbed: {type(e).__name__}: {e}"
        return None, None
    if changed == 0:
        summary["reason"] = "fn takes no plain tensor inputs to perturb"
        return None, None
    summary["ran"] = True
    trial: dict = {"kind": kind, "inputs": desc}
    with V._rng_fork():
        try:
            out_e = V._seeded_call(fn, eager_args, seed + 17 + i)
        except Exception as e:  # noqa: BLE001 - eager refuses these values: no verdict
            trial.update(status="skipped", reason=f"eager fn raised {type(e).__name__}: {str(e)[:200]}")
            return trial, None
        try:
            out_a = V._seeded_call(artifact, art_args, seed + 17 + i)
        except Exception as e:  # noqa: BLE001
            from .violations import Context, classify_exception

            ctx = Context(**{**(context.__dict__ if context is not None else {})})
            ctx.phase = "call"
            _c, v = classify_exception(e, ctx)
            trial.update(status="diverged", where="call",
                         note=f"the artifact raised {v.get('kind')}: {str(v.get('message'))[:300]}")
            return trial, (desc, trial["note"])
    le, se = V._leaves(out_e)
    la, sa = V._leaves(out_a)
    entries: list[dict] = []
    if se != sa or len(le) != len(la):
        entries.append({"name": "output", "result": {
            "ok": False, "note": f"output structure differs: eager {se} vs artifact {sa}"}})
    else:
        for k, (x, y) in enumerate(zip(le, la)):
            entries.append({"name": f"out[{k}]", "result": V._comparator(x, y)})
    if not shared:
        st = compare_state(eager_args, art_args, names, V._comparator, parameters=False)
        entries += st["grads"] + st["buffers"] + st["inputs"]
    ok, mad, _mrd = V._summarise(entries)
    trial.update(status="ok" if ok else "diverged", max_abs_diff=mad)
    if ok:
        return trial, None
    bad = next(e for e in entries if not e["result"].get("ok"))
    r = bad["result"]
    if r.get("note"):
        note = f"{bad['name']}: {r['note']}"
    elif r.get("sizes_match") is False:
        note = f"{bad['name']}: sizes {r['sizes'][0]} (eager) vs {r['sizes'][1]} (artifact)"
    elif r.get("max_abs_diff") is None:
        note = f"{bad['name']}: non-finite values differ"
    else:
        note = f"{bad['name']}: max abs diff {r['max_abs_diff']:.3g}"
    trial["note"] = note
    return trial, (desc, note)
