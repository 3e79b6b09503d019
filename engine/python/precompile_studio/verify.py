"""Verify an artifact inside the worker: load it, run it beside eager fn, compare.

1. ``load(python_code, cache)`` as a reload on this machine would (timed: "load"), and a
   load without the cache's kernel bundle (an envelope with artifact=None, so nothing
   primes the caches) in a fresh Inductor cache dir with Inductor's in-memory code caches
   cleared, so its kernels JIT (timed: "load_no_cache"). The first load is the one
   verified.
2. Two identical copies of the example inputs (deep copies of a snapshot taken before
   precompile ran, so capture's own mutations do not leak in; models included): eager fn
   runs on one, the artifact on the other, twice each with the same RNG seed, so
   gradients accumulate like eager's.
3. ``compare`` each output of both calls, each parameter's gradient, each buffer
   (BatchNorm statistics), each parameter and each user-input tensor (mutated inputs).
4. Median latency of a few more calls of each ("call", "call_eager").
5. ``runtime_inputs``: call the artifact on them and report ok (and whether it matches
   eager on a copy) or the classified violation.
"""
from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import logging
import statistics
import time
from collections.abc import Callable
from typing import Any

from .compare import compare as _default_compare
from .violations import Context, classify_exception, classify_warning

_comparator: Callable[[Any, Any], dict] = _default_compare


def set_comparator(fn: Callable[[Any, Any], dict] | None) -> None:
    """Replace the comparison (e.g. by the C++ worker's LibTorch one); None restores."""
    global _comparator
    _comparator = fn or _default_compare


def fresh_copy(args: tuple) -> tuple:
    """A deep copy of the inputs (models included), keeping their sharing and tying."""
    try:
        return copy.deepcopy(tuple(args))
    except Exception:
        import torch
        import torch.utils._pytree as pytree

        def one(v):
            if isinstance(v, torch.nn.Module):
                return copy.deepcopy(v)
            if isinstance(v, torch.Tensor):
                c = v.detach().clone()
                c.requires_grad_(v.requires_grad)
                return c
            return v

        return tuple(pytree.tree_map(one, list(args)))


class _LogCapture(logging.Handler):
    """Collect torch._precompile's load-time warnings instead of printing them."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def _captured_log():
    log = logging.getLogger("torch._precompile")
    h = _LogCapture()
    old_prop = log.propagate
    log.addHandler(h)
    log.propagate = False
    try:
        yield h.records
    finally:
        log.removeHandler(h)
        log.propagate = old_prop


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
    with _captured_log() as records:
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
    for r in records:
        try:
            msg = r.getMessage()
        except Exception:
            msg = str(r.msg)
        warnings.append(classify_warning(msg))
    return f, dt, err, warnings


def _rng_fork():
    import torch

    devices = []
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        devices = list(range(torch.cuda.device_count()))
    return torch.random.fork_rng(devices=devices)


def _seeded_call(f, args, seed: int):
    import torch

    torch.manual_seed(seed)
    return f(*args)


def _leaves(value) -> tuple[list, Any]:
    import torch.utils._pytree as pytree

    return pytree.tree_flatten(value)


def _summarise(entries: list[dict]) -> tuple[bool, float, float]:
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


def _compare_state(eager_args: tuple, art_args: tuple, names: list[str]) -> dict[str, list[dict]]:
    """Gradients, buffers, parameters of the model args and the user-input tensors."""
    import torch
    import torch.utils._pytree as pytree

    out = {"grads": [], "buffers": [], "parameters": [], "inputs": []}
    for i, (e, a) in enumerate(zip(eager_args, art_args)):
        base = names[i] if i < len(names) else f"arg{i}"
        if isinstance(e, torch.nn.Module) and isinstance(a, torch.nn.Module):
            ep = dict(e.named_parameters())
            ap = dict(a.named_parameters())
            for n, p in ep.items():
                q = ap.get(n)
                if q is None:
                    continue
                key = f"{base}.{n}"
                out["parameters"].append({"name": key, "result": _comparator(p, q)})
                if p.grad is None and q.grad is None:
                    continue
                if p.grad is None or q.grad is None:
                    out["grads"].append({"name": key, "result": {
                        "ok": False,
                        "note": "eager left .grad None" if p.grad is None else "the artifact left .grad None",
                    }})
                    continue
                out["grads"].append({"name": key, "result": _comparator(p.grad, q.grad)})
            ab = dict(a.named_buffers())
            for n, b in e.named_buffers():
                c = ab.get(n)
                if c is not None:
                    out["buffers"].append({"name": f"{base}.{n}", "result": _comparator(b, c)})
        elif not isinstance(e, torch.nn.Module):
            try:
                el, _ = pytree.tree_flatten_with_path(e)
                al, _ = pytree.tree_flatten_with_path(a)
            except Exception:
                continue
            for (path, x), (_p2, y) in zip(el, al):
                if isinstance(x, torch.Tensor):
                    out["inputs"].append({"name": base + pytree.keystr(path), "result": _comparator(x, y)})
    return out


def _time_calls(f, args, first: float) -> list[float]:
    reps = 5 if first < 0.2 else (3 if first < 2.0 else 1)
    times = []
    for _k in range(reps):
        t0 = time.perf_counter()
        f(*args)
        times.append(time.perf_counter() - t0)
    return times


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
) -> tuple[dict, dict, list[dict]]:
    """(verify dict, timings, warnings)."""
    timings: dict[str, float] = {}
    ctx = context or Context()
    names = argnames or [f"arg{i}" for i in range(len(snapshot))]
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
        "load_violation": None,
        "call_violation": None,
        "error": None,
        "runtime": None,
        "perturbed": None,
        "load_log": [],
        "load_no_cache_dir": "fresh" if backend == "inductor" else None,
    }
    warnings: list[dict] = []
    inductor = backend == "inductor"

    f, t_load, err, w = load_artifact(python_code, cache, Context(**{**ctx.__dict__}))
    timings["load"] = t_load
    result["load_log"].extend(w)
    warnings.extend(x for x in w if x["rule"] != "untrusted-python-code")
    if err is not None:
        result.update(status="violation" if err.get("status") == "violation" else "error",
                      load_violation=err, matches_eager=False)
        return result, timings, warnings
    _f2, t_nc, err2, w2 = load_artifact(python_code, _no_cache_envelope(cache, python_code, backend),
                                        Context(**{**ctx.__dict__}), fresh=inductor)
    timings["load_no_cache"] = t_nc
    result["load_log"].extend(w2)
    del _f2

    eager_args = fresh_copy(snapshot)
    art_args = fresh_copy(snapshot)
    outs_e, outs_a = [], []
    with _rng_fork():
        for k in range(2):
            try:
                t0 = time.perf_counter()
                outs_e.append(_seeded_call(fn, eager_args, seed + k))
                t_e = time.perf_counter() - t0
            except Exception as exc:  # noqa: BLE001
                from .errors import describe

                result.update(status="error", matches_eager=False,
                              error={**describe(exc, ctx.script_path), "where": "eager fn on the example inputs"})
                return result, timings, warnings
            try:
                t0 = time.perf_counter()
                outs_a.append(_seeded_call(f, art_args, seed + k))
                t_a = time.perf_counter() - t0
            except Exception as exc:  # noqa: BLE001
                c2 = Context(**{**ctx.__dict__})
                c2.phase = "call"
                contract, v = classify_exception(exc, c2)
                result.update(status="violation" if contract else "error", matches_eager=False,
                              call_violation=v)
                return result, timings, warnings
            result["calls"] = k + 1

        for k, (oe, oa) in enumerate(zip(outs_e, outs_a)):
            le, se = _leaves(oe)
            la, sa = _leaves(oa)
            if se != sa or len(le) != len(la):
                result["outputs"].append({"name": f"call{k + 1}", "result": {
                    "ok": False, "note": f"output structure differs: eager {se} vs artifact {sa}"}})
                continue
            for i, (x, y) in enumerate(zip(le, la)):
                result["outputs"].append({"name": f"call{k + 1}.out[{i}]", "result": _comparator(x, y)})
        state = _compare_state(eager_args, art_args, names)
        for key in ("grads", "buffers", "parameters", "inputs"):
            result[key] = state[key]

        all_entries = result["outputs"] + result["grads"] + result["buffers"] + result["parameters"] + result["inputs"]
        ok, mad, mrd = _summarise(all_entries)
        result["matches_eager"] = ok
        result["max_abs_diff"] = mad
        result["max_rel_diff"] = mrd
        result["grads_match"] = _summarise(result["grads"])[0] if result["grads"] else None
        result["buffers_match"] = _summarise(result["buffers"])[0] if result["buffers"] else None
        result["inputs_match"] = _summarise(result["inputs"])[0] if result["inputs"] else None
        if not ok:
            result["status"] = "mismatch"

        # latency (after the compared calls, so their state is what was compared)
        try:
            ta = _time_calls(f, art_args, t_a)
            te = _time_calls(fn, eager_args, t_e)
            timings["call"] = statistics.median(ta)
            timings["call_eager"] = statistics.median(te)
            result["call_samples"] = len(ta)
        except Exception:  # noqa: BLE001 - timing is best effort
            pass

        # The contract checker's perturbed inputs: only worth it when the example matched.
        result["perturbed"] = None
        if perturb and ok:
            from .checker import perturbed_check

            t0 = time.perf_counter()
            try:
                summary, pw = perturbed_check(fn=fn, artifact=f, snapshot=snapshot, names=names,
                                              seed=seed, context=ctx, location=perturb_location)
            except Exception as exc:  # noqa: BLE001 - a checker bug must not lose the run
                summary, pw = {"ran": False, "reason": f"checker error: {type(exc).__name__}: {exc}"}, []
            result["perturbed"] = summary
            warnings.extend(pw)
            timings["perturbed"] = time.perf_counter() - t0

        if runtime_inputs is not None:
            result["runtime"] = _run_runtime(fn, f, runtime_inputs, ctx, runtime_location, seed)
    return result, timings, warnings


def _run_runtime(fn, f, runtime_inputs, ctx: Context, location: dict | None, seed: int) -> dict:
    from .errors import describe

    try:
        rt = tuple(runtime_inputs())
    except Exception as exc:  # noqa: BLE001
        return {"status": "error", "violation": None,
                "error": {**describe(exc, ctx.script_path), "where": "runtime_inputs()"}}
    eager_copy = fresh_copy(rt)
    try:
        out_a = _seeded_call(f, rt, seed)
    except Exception as exc:  # noqa: BLE001
        c2 = Context(**{**ctx.__dict__})
        c2.phase = "call"
        c2.call_location = location
        contract, v = classify_exception(exc, c2)
        return {"status": "violation" if contract else "error", "violation": v}
    res: dict = {"status": "ok", "violation": None, "matches_eager": None, "max_abs_diff": None}
    try:
        out_e = _seeded_call(fn, eager_copy, seed)
    except Exception as exc:  # noqa: BLE001
        res["eager_error"] = describe(exc, ctx.script_path)["message"]
        return res
    le, se = _leaves(out_e)
    la, sa = _leaves(out_a)
    if se != sa:
        res["matches_eager"] = False
        return res
    entries = [{"name": f"out[{i}]", "result": _comparator(x, y)} for i, (x, y) in enumerate(zip(le, la))]
    names = [f"arg{i}" for i in range(len(rt))]
    st = _compare_state(eager_copy, rt, names)
    entries += st["grads"] + st["buffers"] + st["inputs"]
    ok, mad, _ = _summarise(entries)
    res.update(matches_eager=ok, max_abs_diff=mad, outputs=entries)
    return res
