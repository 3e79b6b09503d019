"""(b) of the contract checker (checker.py): the artifact and eager fn on perturbed inputs.

After verification (when the example itself matched), the loaded artifact and eager fn run side
by side on inputs of the example's spec -- same shapes, dtypes, strides and aliasing; fresh
values (floats drawn with the example's mean and spread, then negated, then scaled by 0.01;
ints and bools shuffled, so labels stay valid) -- under the same RNG seed.

A trial is judged as the example is (accuracy.py): where a value is outside the tight dtype
tolerance, eager fn runs once more on a float64 copy of the same perturbed inputs, and each
value's error against it is set beside eager's own. *matches* (rounding) is an ok trial;
*numerics drift* (the backend's arithmetic, which grows with the values' spread) is a trial
that drifted, with its figures, and no contract warning; only *wrong* -- the artifact far from
float64 where eager is close, or an artifact that raised, or outputs of another structure --
means something was baked from the example's values: a "perturbed-divergence" warning
(invariant 3) that gives the evidence (the trial, the value, both errors). Where eager fn cannot
run in float64 a difference counts as a divergence only past a tenth of the value's RMS.

Cost: a trial is two calls. Where the captured graph writes nothing (verify's ``shared``
mode), both calls take the same arguments and models are not copied; otherwise each side gets
a deep copy (eager the perturbed copy itself). Each trial compares the outputs and what a call
may have changed (gradients, buffers, mutated inputs), never the parameters. With a ``budget``
(budget.py), a trial runs only while its estimated cost fits; the others are listed as skipped,
with how to ask for them.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from precompile_studio.common import internal_errors
from precompile_studio.common.calls import compare_values, fresh_copy, leaves, rng_fork, seeded_call, summarise
from precompile_studio.common.outcomes import Judgement, TrialStatus
from precompile_studio.common.state import compare_state, state_tensors
from precompile_studio.verify import accuracy
from precompile_studio.verify.budget import SKIPPED, budgeted, over_budget

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
        # the statistics as Python numbers: the draw is on the CPU (the generator's device) whatever
        # the tensor's device, and moved there by the caller
        mean = finite.mean().item() if finite.numel() else 0.0
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
    perm = torch.randperm(flat.numel(), generator=gen).to(flat.device)
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


    base = fresh_copy(snapshot) if copy_models else tuple(snapshot)
    buffers: dict[Any, Any] = {}
    changed = 0

    def one(t):
        nonlocal changed
        if not isinstance(t, torch.Tensor) or not _plain_dense(t) or t.numel() == 0:
            return t
        try:
            key = (t.untyped_storage().data_ptr(), t.dtype)
        except Exception:  # noqa: BLE001 - a storage without a data pointer: the tensor itself is the key
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
    devices: list[str] | tuple[str, ...] = (),
) -> tuple[dict, list[dict]]:
    """(summary for verify["perturbed"], warnings).

    ``budget``: a budget.VerifyBudget; a trial runs while ``estimate_s`` (then the last trial's
    time) fits in it. ``shared``: the graph writes nothing, so both calls take the same args.
    ``devices``: the example tensors' devices, waited for before a trial's time is taken.
    """
    summary: dict = {"ran": False, "trials": [], "diverged": None}
    first_bad = None
    for i, (kind, desc) in enumerate(TRIALS):
        out, estimate_s = budgeted(budget, estimate_s, devices, f"perturbed trial {kind}",
                                   lambda i=i, kind=kind, desc=desc: _trial(fn, artifact, snapshot, names, seed, i,
                                                                            kind, desc, context, shared, summary))
        if out is SKIPPED:
            summary["trials"].append({"kind": kind, "inputs": desc, "status": TrialStatus.SKIPPED,
                                      "reason": over_budget(estimate_s)})
            continue
        trial, bad = out
        if trial is None:
            break
        summary["trials"].append(trial)
        first_bad = first_bad or bad
    if not summary["ran"] and "reason" not in summary and summary["trials"]:
        summary["reason"] = "over the verification budget"
    summary["diverged"] = (first_bad is not None) if summary["ran"] else None
    if any(t.get("status") == TrialStatus.DRIFT for t in summary["trials"]):
        summary["drifted"] = True
    if first_bad is None:
        return summary, []
    desc, note = first_bad
    return summary, [{
        "invariant": 3,
        "rule": "perturbed-divergence",
        "message": ("on inputs of the example's shapes, dtypes and strides with other values "
                    f"({desc}), {note}: the artifact is specialised to the example's values"),
        "fix": FIX_PERTURBED,
        "location": location,
        "details": {"trials": summary["trials"]},
    }]


def _trial(fn, artifact, snapshot, names, seed, i, kind, desc, context, shared, summary):
    """(the trial's record, (desc, note) when it diverged); (None, None) when none can run."""
    args = _perturbed_args(snapshot, kind, seed, shared, summary)
    if args is None:
        return None, None
    summary["ran"] = True
    trial: dict = {"kind": kind, "inputs": desc}
    # the judge's float64 run starts from the trial's inputs again, untouched by its calls: the
    # same draws from the same seed (models as the snapshot holds them: the float64 copy copies
    # everything it casts)
    remake = lambda: perturb(snapshot, kind, _generator(seed), copy_models=False)[0]  # noqa: E731
    judged_trial(fn, artifact, args, remake, names, seed + 17 + i, context, shared, trial)
    return trial, ((desc, trial["note"]) if trial["status"] == TrialStatus.DIVERGED else None)


def judged_trial(fn, artifact, args: tuple[tuple, tuple], remake: Callable[[], tuple], names, call_seed: int,
                 context, shared: bool, trial: dict) -> None:
    """One trial on other inputs, judged as the example is; fills ``trial`` (status, note, figures).

    ``args``: (eager's inputs, the artifact's), one tuple twice when shared; ``remake()``: the same
    inputs again, untouched, for the float64 judge."""
    eager_args, art_args = args
    outs = trial_calls(fn, artifact, eager_args, art_args, call_seed, context, trial)
    compared = compare_trial(trial, outs, eager_args, art_args, names, shared) if outs is not None else None
    if compared is None:
        return
    # Outside the tight tolerance: judged against float64 as the example is.
    outputs, st, entries, le, la = compared
    groups = {"outputs": outputs, "grads": st["grads"], "buffers": st["buffers"], "inputs": st["inputs"]}
    eager = {"outputs": dict(zip((e["name"] for e in outputs), le)), **state_tensors(eager_args, names)}
    art = {"outputs": dict(zip((e["name"] for e in outputs), la)), **state_tensors(art_args, names)}
    _follow_judge(trial, accuracy.judge_call(fn, remake(), names, call_seed, groups, eager, art), entries)


def _generator(seed: int):
    import torch

    return torch.Generator().manual_seed(seed + 101)  # the same fresh values for every kind (and the judge)


def _perturbed_args(snapshot, kind: str, seed: int, shared: bool, summary: dict) -> tuple[tuple, tuple] | None:
    """(eager's, the artifact's) perturbed inputs, one tuple when shared; None where there are
    none (summary["reason"] says why)."""
    try:
        args, changed = perturb(snapshot, kind, _generator(seed), copy_models=not shared)
        # perturb already made eager's copy; the artifact needs a second one unless shared
        eager_args = args
        art_args = args if shared else fresh_copy(args)
    except Exception as e:  # noqa: BLE001 - the trials are skipped and said; the snapshot copied before
        internal_errors.record("checker: perturbing the inputs", e)
        summary["reason"] = f"the inputs cannot be perturbed: {type(e).__name__}: {e}"
        return None
    if changed == 0:
        summary["reason"] = "fn takes no plain tensor inputs to perturb"
        return None
    return eager_args, art_args


def trial_calls(fn, artifact, eager_args, art_args, call_seed: int, context, trial: dict) -> tuple | None:
    """(eager's outputs, the artifact's) under the trial's seed; None where a call raised: eager
    fn refusing the values skips the trial (no verdict), the artifact raising is a divergence."""
    with rng_fork():
        try:
            out_e = seeded_call(fn, eager_args, call_seed)
        except Exception as e:  # noqa: BLE001 - eager refuses these values: no verdict
            trial.update(status=TrialStatus.SKIPPED, reason=f"eager fn raised {type(e).__name__}: {str(e)[:200]}")
            return None
        try:
            out_a = seeded_call(artifact, art_args, call_seed)
        except Exception as e:  # noqa: BLE001 - the artifact raising is a divergence, reported
            from precompile_studio.contract.violations import Context, classify_exception

            ctx = Context(**{**(context.__dict__ if context is not None else {})})
            ctx.phase = "call"
            _c, v = classify_exception(e, ctx)
            trial.update(status=TrialStatus.DIVERGED, where="call",
                         note=f"the artifact raised {v.get('kind')}: {str(v.get('message'))[:300]}")
            return None
    return out_e, out_a


def compare_trial(trial: dict, outs: tuple, eager_args, art_args, names, shared: bool) -> tuple | None:
    """The outputs and what the calls changed (never the parameters), eager's against the
    artifact's. Another structure is a divergence and a match within the tight tolerance an ok
    trial (None); otherwise (outputs, state, entries, eager's leaves, the artifact's) to judge."""
    out_e, out_a = outs
    le, se = leaves(out_e)
    la, sa = leaves(out_a)
    if se != sa or len(le) != len(la):
        note = f"the artifact's outputs have another structure than eager fn's: eager {se} vs artifact {sa}"
        trial.update(status=TrialStatus.DIVERGED, note=note)
        return None
    outputs = [{"name": f"out[{k}]", "result": compare_values(x, y)} for k, (x, y) in enumerate(zip(le, la))]
    st = (compare_state(eager_args, art_args, names, compare_values, parameters=False) if not shared
          else {"grads": [], "buffers": [], "inputs": []})
    entries = outputs + st["grads"] + st["buffers"] + st["inputs"]
    ok, mad, _mrd = summarise(entries)
    trial["max_abs_diff"] = mad
    if ok:
        trial["status"] = TrialStatus.OK
        return None
    return outputs, st, entries, le, la


def _follow_judge(trial: dict, acc: dict, entries: list[dict]) -> None:
    """The trial's status from the float64 judge: matches is ok, drift drifted, wrong diverged;
    with no verdict, only a difference no rounding makes (a tenth of the value) diverges."""
    trial["accuracy"] = {k: acc.get(k) for k in ("verdict", "reference", "message", "eager_error",
                                                  "artifact_error", "ratio", "worst")}
    verdict = acc.get("verdict")
    if verdict == Judgement.MATCHES:
        trial.update(status=TrialStatus.OK,
                     note="outside the tight tolerance, within eager's own rounding against float64")
    elif verdict == Judgement.DRIFT:
        trial.update(status=TrialStatus.DRIFT, note=acc.get("message") or "numerics drift")
    elif verdict == Judgement.WRONG:
        trial.update(status=TrialStatus.DIVERGED, note=evidence(acc))
    else:
        # No float64 verdict (eager fn cannot run in float64): only a difference no rounding makes.
        worst = max(entries, key=lambda e: _relative(e["result"]))
        rel = _relative(worst["result"])
        if rel >= accuracy.WRONG:
            trial.update(status=TrialStatus.DIVERGED, note=(
                f"the artifact and eager fn disagree on {worst['name']} by a relative RMS difference of "
                f"{accuracy.sci(rel)} (no float64 verdict: {acc.get('message', '')[:200]})"))
        else:
            trial.update(status=TrialStatus.OK, note=(
                f"outside the tight tolerance by a relative RMS difference of {accuracy.sci(rel)}, "
                "under a tenth of the value: rounding (no float64 verdict)"))


def evidence(acc: dict) -> str:
    """The wrong value's evidence: its name and both relative RMS errors against float64."""
    worst = [t for t in acc.get("tensors") or [] if t.get("verdict") == Judgement.WRONG][:1]
    if not worst:
        return acc.get("message") or "the artifact and eager fn disagree"
    t = worst[0]
    if t.get("artifact_error") is None and t.get("note"):
        return f"the artifact and eager fn disagree on {t['name']} ({t['note']})"
    artifact, eager = accuracy.sci(t.get("artifact_error")), accuracy.sci(t.get("eager_error"))
    return (f"the artifact is far from a float64 run of eager fn where eager is close ({t['name']}: "
            f"relative RMS error {artifact} against eager's {eager})")


def _relative(r: dict) -> float:
    """A compared value's RMS relative difference; infinite where sizes, dtypes or finiteness differ."""
    if r.get("ok"):
        return 0.0
    v = r.get("rms_rel_diff")
    return math.inf if v is None else float(v)
