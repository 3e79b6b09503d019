"""Verify the artifact on the script's ``runtime_inputs`` (pipeline step 8): call it on them and
report ok or the classified violation; where it ran, whether it matches eager fn called on a copy
(judged against float64 like the example, so that a backend's arithmetic reads as drift and not
as a mismatch), and a warning where a runtime model's requires_grad differs from the traced one's
(runtime_grad.py). The dict's "warnings" are the capture's, for the pipeline to take out."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from precompile_studio.common import internal_errors
from precompile_studio.common.calls import compare_values, fresh_copy, leaves, seeded_call, summarise
from precompile_studio.common.errors import describe
from precompile_studio.common.outcomes import Judgement, RuntimeStatus
from precompile_studio.common.state import compare_state, state_tensors
from precompile_studio.contract.violations import Context, classify_exception
from precompile_studio.verify import accuracy, runtime_grad


def check_runtime(fn: Callable, f: Callable, runtime_inputs: Callable[[], tuple], ctx: Context,
                  location: dict | None, seed: int, traced_args: tuple = ()) -> dict:
    """The report's verify.runtime (with "warnings" still in it)."""
    try:
        rt = tuple(runtime_inputs())
    except Exception as exc:  # noqa: BLE001 - the user's runtime_inputs() raised: reported
        return {"status": RuntimeStatus.ERROR, "violation": None,
                "error": {**describe(exc, ctx.script_path), "where": "runtime_inputs()"}}
    eager_copy = fresh_copy(rt)
    ref_copy = fresh_copy(rt)  # what the calls start from, for the float64 judge
    try:
        out_a = seeded_call(f, rt, seed)
    except Exception as exc:  # noqa: BLE001 - the artifact rejected the runtime inputs: reported
        return _rejected(exc, ctx, location)
    res: dict = {"status": RuntimeStatus.OK, "violation": None, "matches_eager": None, "max_abs_diff": None}
    changes = _flipped(traced_args, rt)
    try:
        out_e = seeded_call(fn, eager_copy, seed)
    except Exception as exc:  # noqa: BLE001 - eager fn raised on them: reported
        res["eager_error"] = describe(exc, ctx.script_path)["message"]
        _warn_flipped(res, changes, res["eager_error"], location)
        return res
    _warn_flipped(res, changes, None, location)
    compared = _compare(res, out_e, out_a, eager_copy, rt)
    if compared is not None and not res["within_tolerance"]:
        _judge(res, fn, ref_copy, seed, compared, location)
    return res


def _rejected(exc: Exception, ctx: Context, location: dict | None) -> dict:
    """The artifact raised on the runtime inputs: the classified violation (or error)."""
    c2 = Context(**{**ctx.__dict__})
    c2.phase = "call"
    c2.call_location = location
    contract, v = classify_exception(exc, c2)
    return {"status": RuntimeStatus.VIOLATION if contract else RuntimeStatus.ERROR, "violation": v}


def _flipped(traced_args: tuple, rt: tuple) -> list[dict]:
    try:
        return runtime_grad.flipped(traced_args, rt)
    except Exception as e:  # noqa: BLE001 - a check, never a reason to lose the run
        internal_errors.record("checker: requires_grad flipped at runtime", e)
        return []


def _warn_flipped(res: dict, changes: list[dict], eager_error: str | None, location: dict | None) -> None:
    if changes:
        res["warnings"] = [runtime_grad.warning(changes, eager_error, location)]


@dataclass
class _Compared:
    """One runtime call compared: what the float64 judge needs where it was not within tolerance."""

    names: list[str]
    entries: list[dict]   # the outputs' entries, then the state's
    state: dict           # compare_state's groups
    leaves_e: list
    leaves_a: list
    eager_args: tuple
    art_args: tuple


def _compare(res: dict, out_e, out_a, eager_args: tuple, art_args: tuple) -> _Compared | None:
    """Eager's outputs and state against the artifact's, into ``res``; None where the output
    structures differ (no match, nothing to judge)."""
    le, se = leaves(out_e)
    la, sa = leaves(out_a)
    if se != sa:
        res["matches_eager"] = False
        return None
    entries = [{"name": f"out[{i}]", "result": compare_values(x, y)} for i, (x, y) in enumerate(zip(le, la))]
    names = [f"arg{i}" for i in range(len(art_args))]
    st = compare_state(eager_args, art_args, names, compare_values, parameters=False)
    entries += st["grads"] + st["buffers"] + st["inputs"]
    ok, mad, _ = summarise(entries)
    res.update(matches_eager=ok, within_tolerance=ok, max_abs_diff=mad, outputs=entries)
    return _Compared(names, entries, st, le, la, eager_args, art_args)


def _judge(res: dict, fn: Callable, ref_copy: tuple, seed: int, c: _Compared, location: dict | None) -> None:
    """Outside the tolerance: judged like the example inputs, against eager fn in float64."""
    outputs = c.entries[:len(c.leaves_e)]
    result = {"outputs": outputs, "grads": c.state["grads"], "buffers": c.state["buffers"],
              "inputs": c.state["inputs"]}
    eager_vals = {"outputs": {e["name"]: x for e, x in zip(outputs, c.leaves_e)},
                  **state_tensors(c.eager_args, c.names)}
    art_vals = {"outputs": {e["name"]: x for e, x in zip(outputs, c.leaves_a)},
                **state_tensors(c.art_args, c.names)}
    res["accuracy"] = accuracy.judge_call(fn, ref_copy, c.names, seed, result, eager_vals, art_vals)
    res["matches_eager"] = res["accuracy"].get("verdict") == Judgement.MATCHES
    if res["accuracy"].get("verdict") == Judgement.DRIFT:
        drift = accuracy.drift_warning(res["accuracy"])
        drift["where"] = "runtime"
        drift["location"] = location
        res.setdefault("warnings", []).append(drift)
