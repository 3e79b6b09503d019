"""Verify an artifact inside the worker: load it, run it beside eager fn, compare, judge.

1. ``load(python_code, cache)`` as a reload on this machine would (timed: "load"). With
   ``deep`` (``--deep-verify``) also a load without the cache's kernel bundle (an envelope with
   artifact=None, so nothing primes the caches) in a fresh Inductor cache dir with Inductor's
   in-memory code caches cleared, so its kernels JIT (timed: "load_no_cache"); by default the
   report says it was skipped and how to ask for it. The first load is the one verified.
2. The arguments: where the captured graph writes nothing and computes no gradient
   (state.graph_may_mutate), eager fn and the artifact take the same arguments (the snapshot
   taken before precompile ran; for the studio's own precompile call it shares the models'
   parameters, see fresh_copy), checked afterwards by their version counters ("args":
   "shared"); otherwise each takes a deep copy of the snapshot ("copied").
3. Eager fn and the artifact are called once each with the same RNG seed; a second time each
   where the budget allows (budget.py: gradients accumulate like eager's, statistics update).
4. ``compare`` each output, each parameter's gradient, each buffer (BatchNorm statistics), each
   parameter and each user-input tensor (mutated inputs); in shared mode there is nothing but
   the outputs to compare.
5. Where something is outside the tight tolerance: the accuracy judge (accuracy.py) runs eager
   once more in float64 and names the verdict: matches (rounding: status ok), numerics drift
   (status "drift": the capture stays ok, with a numerics-drift warning), or wrong (status
   "mismatch").
6. Latency: the compared calls' times, plus a few more calls within the budget ("call",
   "call_eager").
7. The contract checker's perturbed trials (perturbed.py), within the budget, when the example
   matched.
8. ``runtime_inputs``: call the artifact on them and report ok (and whether it matches eager on
   a copy) or the classified violation.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import statistics
import time
from collections.abc import Callable

from precompile_studio.common.calls import compare_values, fresh_copy, leaves, rng_fork, seeded_call, summarise
from precompile_studio.common.state import Versions, compare_state, state_tensors
from precompile_studio.contract.precompile_log import captured, message_of
from precompile_studio.contract.violations import Context, classify_exception, classify_warning
from precompile_studio.verify import accuracy
from precompile_studio.verify.budget import VerifyBudget, count_elements


@contextlib.contextmanager
def _fresh_inductor(enabled: bool):
    if not enabled:
        yield
        return
    from torch._inductor.utils import fresh_cache

    with fresh_cache():
        yield


def _no_cache_envelope(cache: bytes, python_code: str, backend: str) -> bytes:
    """The same envelope without the kernel bundle: load() then has nothing to prime."""
    import torch

    try:
        blob = torch.load(io.BytesIO(cache), weights_only=True)
        blob = dict(blob)
    except Exception:
        from torch._precompile import _CACHE_FORMAT, _CACHE_VERSION

        blob = {"format": _CACHE_FORMAT, "version": _CACHE_VERSION, "backend": backend,
                "code_hash": hashlib.sha256(python_code.encode()).hexdigest()}
    blob["artifact"] = None
    buf = io.BytesIO()
    torch.save(blob, buf)
    return buf.getvalue()


def load_artifact(python_code: str, cache: bytes, ctx: Context | None = None, fresh: bool = False):
    """(callable or None, seconds, violation or None, warnings) of precompile.load."""
    import torch

    warnings: list[dict] = []
    ctx = ctx or Context()
    records: list = []
    with captured(records.append):
        t0 = time.perf_counter()
        try:
            with _fresh_inductor(fresh):
                f = torch.compiler.precompile.load(python_code, cache)
            err = None
        except Exception as exc:  # noqa: BLE001 - every load failure is reported
            f = None
            ctx.phase = "load"
            _contract, err = classify_exception(exc, ctx)
            err["status"] = "violation" if _contract else "error"
        dt = time.perf_counter() - t0
    warnings.extend(classify_warning(message_of(r)) for r in records)
    return f, dt, err, warnings


DEEP_ONLY = ("the from-scratch reload (no kernel bundle, fresh Inductor caches: every kernel "
             "compiled again) runs only with --deep-verify")


def _load_no_cache(result, timings, python_code, cache, backend, ctx) -> None:
    inductor = backend == "inductor"
    _f2, t_nc, _err2, w2 = load_artifact(python_code, _no_cache_envelope(cache, python_code, backend),
                                         Context(**{**ctx.__dict__}), fresh=inductor)
    timings["load_no_cache"] = t_nc
    result["load_log"].extend(w2)
    result["load_no_cache"] = {"ran": True}
    result["load_no_cache_dir"] = "fresh" if inductor else None


def _values(outs: list, args: tuple, names: list[str], shared: bool) -> dict[str, dict]:
    """{kind: {entry name: value}} for the accuracy judge, keyed like verify's entries."""
    vals: dict[str, dict] = {"outputs": {}}
    for k, values in enumerate(outs):
        for i, x in enumerate(values):
            vals["outputs"][f"call{k + 1}.out[{i}]"] = x
    vals.update(state_tensors(args, names) if not shared else {"grads": {}, "buffers": {}, "parameters": {},
                                                                  "inputs": {}})
    return vals


def _judge(result, fn, snapshot, names, seed, eager_vals, art_vals, timings) -> dict:
    t0 = time.perf_counter()
    try:
        ref_outs, ref_state = accuracy.reference_run(fn, snapshot, names, seed, max(1, result["calls"]))
    except Exception as exc:  # noqa: BLE001 - no reference: no verdict, the mismatch stands
        timings["accuracy"] = time.perf_counter() - t0
        return accuracy.no_verdict(exc)
    ref_vals = _values(ref_outs, (), names, True)
    ref_vals.update(ref_state)
    acc = accuracy.judge(result, eager_vals, art_vals, ref_vals)
    timings["accuracy"] = time.perf_counter() - t0
    return acc


def _follow_verdict(result: dict, acc: dict) -> None:
    """matches_eager and the per-group flags say what the accuracy judge says (one verdict
    everywhere): a value outside the tight tolerance that the judge calls rounding matches; drift,
    wrong and no verdict do not. The tight comparison stays, under its own name, in
    ``within_tolerance`` and in each entry's ``result.ok``."""
    rounding = {(t.get("kind"), t.get("name")) for t in acc.get("tensors") or []
                if t.get("verdict") == "matches"}

    def matches(key: str, entries: list[dict]) -> bool:
        return all((e.get("result") or {}).get("ok") or (key, e.get("name")) in rounding for e in entries)

    result["matches_eager"] = acc.get("verdict") == accuracy.VERDICTS["matches"]
    for key, flag in (("grads", "grads_match"), ("buffers", "buffers_match"), ("inputs", "inputs_match")):
        if result.get(key):
            result[flag] = matches(key, result[key])


def _trial_estimate(times_e: list[float], times_a: list[float], shared: bool) -> float:
    """A perturbed trial: a pair of calls (the last measured), and two deep copies unless shared."""
    pair = times_e[-1] + times_a[-1] if len(times_e) > 1 else 2 * min(times_e[0], times_a[0])
    return pair if shared else 1.2 * pair


def run_verify(
    *,
    fn: Callable,
    snapshot: tuple,
    python_code: str,
    cache: bytes,
    backend: str,
    argnames: list[str] | None = None,
    runtime_inputs: Callable[[], tuple] | None = None,
    context: Context | None = None,
    runtime_location: dict | None = None,
    seed: int = 20261202,
    perturb: bool = False,
    perturb_location: dict | None = None,
    deep: bool = False,
    work_s: float = 0.0,
    may_mutate: bool | None = None,
) -> tuple[dict, dict, list[dict]]:
    """(verify dict, timings, warnings).

    ``work_s``: seconds of the work being checked (script and precompile), which sets the
    budget of the optional checks; ``deep``: every check, no budget; ``may_mutate``: whether the
    captured graph may write to its arguments (False: both calls share them).
    """
    timings: dict[str, float] = {}
    ctx = context or Context()
    names = argnames or [f"arg{i}" for i in range(len(snapshot))]
    try:
        elements = count_elements(snapshot)
    except Exception:  # noqa: BLE001 - not counted: the budget decides
        elements = None
    budget = VerifyBudget(work_s, deep, elements)
    shared = may_mutate is False
    result: dict = {
        "ran": True,
        "status": "ok",
        "matches_eager": None,
        "max_abs_diff": None,
        "max_rel_diff": None,
        "grads_match": None,
        "buffers_match": None,
        "inputs_match": None,
        "outputs": [],
        "grads": [],
        "buffers": [],
        "parameters": [],
        "inputs": [],
        "calls": 0,
        "seed": seed,
        "args": "shared" if shared else "copied",
        "load_violation": None,
        "call_violation": None,
        "error": None,
        "runtime": None,
        "perturbed": None,
        "accuracy": None,
        "budget": None,
        "load_log": [],
        "load_no_cache": {"ran": False, "reason": DEEP_ONLY},
        "load_no_cache_dir": None,
    }
    warnings: list[dict] = []

    f, t_load, err, w = load_artifact(python_code, cache, Context(**{**ctx.__dict__}))
    timings["load"] = t_load
    budget.add_work(t_load)
    result["load_log"].extend(w)
    warnings.extend(x for x in w if x["rule"] != "untrusted-python-code")
    if err is not None:
        result.update(status="violation" if err.get("status") == "violation" else "error",
                      load_violation=err, matches_eager=False)
        return result, timings, warnings
    if deep:
        _load_no_cache(result, timings, python_code, cache, backend, ctx)

    if shared:
        eager_args = art_args = tuple(snapshot)
        versions = Versions(eager_args, names)
    else:
        eager_args = fresh_copy(snapshot)
        art_args = fresh_copy(snapshot)
    outs_e, outs_a, times_e, times_a = [], [], [], []
    with rng_fork():
        for k in range(2):
            # a pair costs about twice the cheaper first call (a first call pays for warming up)
            if k == 1 and not budget.fits(2 * min(times_e[0], times_a[0])):
                budget.skip("second call")
                break
            try:
                t0 = time.perf_counter()
                outs_e.append(seeded_call(fn, eager_args, seed + k))
                times_e.append(time.perf_counter() - t0)
            except Exception as exc:  # noqa: BLE001
                from precompile_studio.common.errors import describe

                result.update(status="error", matches_eager=False,
                              error={**describe(exc, ctx.script_path), "where": "eager fn on the example inputs"})
                return result, timings, warnings
            try:
                t0 = time.perf_counter()
                outs_a.append(seeded_call(f, art_args, seed + k))
                times_a.append(time.perf_counter() - t0)
            except Exception as exc:  # noqa: BLE001
                c2 = Context(**{**ctx.__dict__})
                c2.phase = "call"
                contract, v = classify_exception(exc, c2)
                result.update(status="violation" if contract else "error", matches_eager=False,
                              call_violation=v)
                return result, timings, warnings
            if k == 0:
                budget.add_work(times_e[0] + times_a[0])
            else:
                budget.spend(times_e[1] + times_a[1])
            result["calls"] = k + 1

        leaves_e, leaves_a = [], []
        for k, (oe, oa) in enumerate(zip(outs_e, outs_a)):
            le, se = leaves(oe)
            la, sa = leaves(oa)
            leaves_e.append(le)
            leaves_a.append(la)
            if se != sa or len(le) != len(la):
                result["outputs"].append({"name": f"call{k + 1}", "result": {
                    "ok": False, "note": f"output structure differs: eager {se} vs artifact {sa}"}})
                continue
            for i, (x, y) in enumerate(zip(le, la)):
                result["outputs"].append({"name": f"call{k + 1}.out[{i}]", "result": compare_values(x, y)})
        if shared:
            for kind, name in versions.changed(eager_args):
                result[kind].append({"name": name, "result": {"ok": False, "note": (
                    "written in place by a call, though the captured graph writes to nothing: eager fn "
                    "and the artifact disagree about it")}})
        else:
            state = compare_state(eager_args, art_args, names, compare_values)
            for key in ("grads", "buffers", "parameters", "inputs"):
                result[key] = state[key]

        all_entries = result["outputs"] + result["grads"] + result["buffers"] + result["parameters"] + result["inputs"]
        ok, mad, mrd = summarise(all_entries)
        result["matches_eager"] = ok
        result["within_tolerance"] = ok
        result["max_abs_diff"] = mad
        result["max_rel_diff"] = mrd
        result["grads_match"] = summarise(result["grads"])[0] if result["grads"] else None
        result["buffers_match"] = summarise(result["buffers"])[0] if result["buffers"] else None
        result["inputs_match"] = summarise(result["inputs"])[0] if result["inputs"] else None
        if ok:
            result["accuracy"] = accuracy.tolerance_verdict()
        else:
            acc = _judge(result, fn, snapshot, names, seed, _values(leaves_e, eager_args, names, shared),
                         _values(leaves_a, art_args, names, shared), timings)
            result["accuracy"] = acc
            _follow_verdict(result, acc)
            if acc["verdict"] == accuracy.VERDICTS["matches"]:
                result["status"] = "ok"
            elif acc["verdict"] == accuracy.VERDICTS["drift"]:
                result["status"] = "drift"
                warnings.append(accuracy.drift_warning(acc))
            else:
                result["status"] = "mismatch"
        del leaves_e, leaves_a, outs_e, outs_a

        # latency: the compared calls, and a few more where they are cheap and the budget allows
        try:
            while len(times_a) < 5 and times_a[-1] < 0.2 and budget.fits(times_a[-1] + times_e[-1], share=0.2):
                t0 = time.perf_counter()
                f(*art_args)
                times_a.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                fn(*eager_args)
                times_e.append(time.perf_counter() - t0)
                budget.spend(times_a[-1] + times_e[-1])
            timings["call"] = statistics.median(times_a)
            timings["call_eager"] = statistics.median(times_e)
            result["call_samples"] = len(times_a)
        except Exception:  # noqa: BLE001 - timing is best effort
            pass
        del eager_args, art_args

        # The contract checker's perturbed inputs: only worth it when the example matched.
        if perturb and result["status"] == "ok":
            from precompile_studio.verify.perturbed import perturbed_check

            t0 = time.perf_counter()
            try:
                summary, pw = perturbed_check(fn=fn, artifact=f, snapshot=snapshot, names=names,
                                              seed=seed, context=ctx, location=perturb_location,
                                              budget=budget, estimate_s=_trial_estimate(times_e, times_a, shared),
                                              shared=shared)
            except Exception as exc:  # noqa: BLE001 - a checker bug must not lose the run
                summary, pw = {"ran": False, "trials": [], "diverged": None,
                               "reason": f"checker error: {type(exc).__name__}: {exc}"}, []
            result["perturbed"] = summary
            warnings.extend(pw)
            timings["perturbed"] = time.perf_counter() - t0
        elif perturb and result["status"] == "drift":
            result["perturbed"] = {"ran": False, "trials": [], "diverged": None,
                                   "reason": "the example itself drifted (numerics): perturbed inputs would "
                                             "show the same drift"}

        if runtime_inputs is not None:
            result["runtime"] = _run_runtime(fn, f, runtime_inputs, ctx, runtime_location, seed, snapshot)
            warnings.extend(result["runtime"].pop("warnings", []))
    result["budget"] = budget.report()
    return result, timings, warnings


def _run_runtime(fn, f, runtime_inputs, ctx: Context, location: dict | None, seed: int,
                 traced_args: tuple = ()) -> dict:
    from precompile_studio.common.errors import describe
    from precompile_studio.verify import runtime_grad

    try:
        rt = tuple(runtime_inputs())
    except Exception as exc:  # noqa: BLE001
        return {"status": "error", "violation": None,
                "error": {**describe(exc, ctx.script_path), "where": "runtime_inputs()"}}
    eager_copy = fresh_copy(rt)
    ref_copy = fresh_copy(rt)  # what the calls start from, for the float64 judge
    try:
        out_a = seeded_call(f, rt, seed)
    except Exception as exc:  # noqa: BLE001
        c2 = Context(**{**ctx.__dict__})
        c2.phase = "call"
        c2.call_location = location
        contract, v = classify_exception(exc, c2)
        return {"status": "violation" if contract else "error", "violation": v}
    res: dict = {"status": "ok", "violation": None, "matches_eager": None, "max_abs_diff": None}
    try:
        changes = runtime_grad.flipped(traced_args, rt)
    except Exception:  # noqa: BLE001 - a check, never a reason to lose the run
        changes = []
    try:
        out_e = seeded_call(fn, eager_copy, seed)
    except Exception as exc:  # noqa: BLE001
        res["eager_error"] = describe(exc, ctx.script_path)["message"]
        if changes:
            res["warnings"] = [runtime_grad.warning(changes, res["eager_error"], location)]
        return res
    if changes:
        res["warnings"] = [runtime_grad.warning(changes, None, location)]
    le, se = leaves(out_e)
    la, sa = leaves(out_a)
    if se != sa:
        res["matches_eager"] = False
        return res
    entries = [{"name": f"out[{i}]", "result": compare_values(x, y)} for i, (x, y) in enumerate(zip(le, la))]
    names = [f"arg{i}" for i in range(len(rt))]
    st = compare_state(eager_copy, rt, names, compare_values, parameters=False)
    entries += st["grads"] + st["buffers"] + st["inputs"]
    ok, mad, _ = summarise(entries)
    res.update(matches_eager=ok, within_tolerance=ok, max_abs_diff=mad, outputs=entries)
    if not ok:
        # Judged like the example inputs: against eager fn in float64, so that a backend's
        # arithmetic reads as drift and not as a mismatch.
        res["accuracy"] = _judge_runtime(fn, ref_copy, names, seed, le, la, eager_copy, rt, st, entries)
        res["matches_eager"] = res["accuracy"].get("verdict") == accuracy.VERDICTS["matches"]
        if res["accuracy"].get("verdict") == accuracy.VERDICTS["drift"]:
            drift = accuracy.drift_warning(res["accuracy"])
            drift["where"] = "runtime"
            drift["location"] = location
            res.setdefault("warnings", []).append(drift)
    return res


def _judge_runtime(fn, ref_copy, names, seed, le, la, eager_args, art_args, st, entries) -> dict:
    outputs = entries[:len(le)]
    result = {"outputs": outputs, "grads": st["grads"], "buffers": st["buffers"], "inputs": st["inputs"]}
    eager_vals = {"outputs": {e["name"]: x for e, x in zip(outputs, le)}, **state_tensors(eager_args, names)}
    art_vals = {"outputs": {e["name"]: x for e, x in zip(outputs, la)}, **state_tensors(art_args, names)}
    return accuracy.judge_call(fn, ref_copy, names, seed, result, eager_vals, art_vals)
