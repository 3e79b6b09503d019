"""Judge a difference between eager fn and the artifact the way PyTorch's benchmark harness does.

``torch._dynamo.utils.same`` does not ask whether a compiled result equals eager's: eager is
itself only one rounding of the exact result. Given a float64 run of eager, it passes a result
whose error against float64 is within a small multiple of eager's own error. This module does
the same for every value verification compared and found outside the tight tolerance:

- ``robust_error(value, reference)``: RMS of (value - reference) over the RMS of the
  reference, over the reference's finite elements (the RMS of the difference itself where the
  reference is all zero; infinity where the value is not finite and the reference is). Unlike
  an element-wise relative error it does not explode on elements near zero.
- ``judge_tensor``: eager's and the artifact's errors against the float64 reference, their
  ratio, and a verdict: **matches** (the artifact's error is within ``multiplier`` times eager's
  plus a floor: rounding), **drift** (beyond that: the backend's arithmetic differs from
  eager's) or **wrong** (sizes or dtypes differ, non-finite values where eager has none, or an
  error of at least ``WRONG`` -- a tenth of the tensor's RMS -- and over ten times what eager's
  rounding allows: not arithmetic any more).
- ``float64_args`` / ``reference_run``: eager fn once more, on a deep copy of the example
  inputs cast to float64 (floating parameters, buffers and tensors), with the same seeds, on
  the device each tensor is on (a model on a GPU runs its float64 reference there); errors are
  computed on the reference's device, never through a copy to the host.
- ``judge``: the per-tensor judgements and the verdict of a capture, in plain words:
  "matches", "numerics drift" or "wrong", with the worst tensors named.
"""
from __future__ import annotations

import math
import statistics
from typing import Any

from precompile_studio.common.calls import fresh_copy, leaves, rng_fork, seeded_call
from precompile_studio.common.compare import rms, tolerance
from precompile_studio.common.outcomes import Judgement
from precompile_studio.common.state import state_tensors

MULTIPLIER = 2.0     # same(): 2.0; 3.0 for 16-bit floats and tensors of fewer than 1000 elements
SMALL = 1000
WRONG = 0.1          # an error of a tenth of the tensor's RMS is not rounding
# One value's verdict words (accuracy.tensors[].verdict; the capture's is the Judgement itself).
V_MATCHES, V_DRIFT, V_WRONG = (j.value_word for j in (Judgement.MATCHES, Judgement.DRIFT, Judgement.WRONG))
FIX_DRIFT = ("Nothing here breaks the precompile contract: the backend's arithmetic differs from "
             "eager's (fused, reordered or lower-precision kernels), and torch.compile with the same "
             "backend differs the same way. If these figures matter, use the eager backend for this "
             "part or keep it in float64.")


def _num(x: float | None) -> float | None:
    """A JSON number: None for infinity and NaN."""
    if x is None or not math.isfinite(x):
        return None
    return float(x)


def multiplier(dtype, numel: int) -> float:
    import torch

    if dtype in (torch.float16, torch.bfloat16) or numel < SMALL:
        return 3.0
    return MULTIPLIER


def floor(dtype) -> float:
    """The error below which a result always matches: a tenth of the dtype's relative tolerance."""
    return tolerance(dtype)[1] / 10.0


def robust_error(value, reference) -> float:
    """RMS(value - reference) / RMS(reference) over the reference's finite elements."""
    import torch

    v, r = value.detach(), reference.detach()
    if v.device != r.device:
        v = v.to(r.device)
    if v.is_complex() or r.is_complex():
        v = torch.view_as_real(v.to(torch.complex128).resolve_conj())
        r = torch.view_as_real(r.to(torch.complex128).resolve_conj())
    else:
        v, r = v.to(torch.float64), r.to(torch.float64)
    finite = torch.isfinite(r)
    if bool((finite & ~torch.isfinite(v)).any()):
        return math.inf
    if not bool(finite.all()):
        # where the reference is not finite, the value must be the same non-finite value
        same = (torch.isnan(r) & torch.isnan(v)) | (r == v)
        if not bool(same[~finite].all()):
            return math.inf
        v, r = v[finite], r[finite]
    if r.numel() == 0:
        return 0.0
    err = rms(v - r)
    scale = rms(r)
    return err / scale if scale > 0 else err


def _fraction_different(value, reference) -> float:
    if value.numel() == 0:
        return 0.0
    return float((value != reference.to(device=value.device, dtype=value.dtype)).sum()) / value.numel()


def judge_tensor(name: str, kind: str, eager: Any, artifact: Any, reference: Any) -> dict:
    """{name, kind, verdict: matches|drift|wrong|None, eager_error, artifact_error, ratio, note}."""
    import torch

    out: dict = {"name": name, "kind": kind, "verdict": None, "eager_error": None, "artifact_error": None,
                 "ratio": None}
    if not isinstance(eager, torch.Tensor) or not isinstance(artifact, torch.Tensor):
        same = False
        try:
            same = bool(eager == artifact)
        except Exception:  # noqa: BLE001 - the values refuse == (a user type): not the same
            pass
        out.update(verdict=V_MATCHES if same else V_WRONG, note="" if same else "the values differ")
        return out
    if eager.shape != artifact.shape:
        out.update(verdict=V_WRONG, note=f"sizes {list(eager.shape)} (eager) vs {list(artifact.shape)} (artifact)")
        return out
    if eager.dtype != artifact.dtype:
        out.update(verdict=V_WRONG, note=f"dtypes {eager.dtype} (eager) vs {artifact.dtype} (artifact)")
        return out
    if not isinstance(reference, torch.Tensor) or reference.shape != eager.shape:
        out["note"] = "the float64 run has no value of this shape to compare with"
        return out
    if not (eager.is_floating_point() or eager.is_complex()):
        e_err, a_err = _fraction_different(eager, reference), _fraction_different(artifact, reference)
        out.update(eager_error=e_err, artifact_error=a_err, ratio=_num(a_err / e_err) if e_err else None)
        if a_err <= e_err:
            out["verdict"] = V_MATCHES
        else:
            out["verdict"] = V_WRONG if a_err >= WRONG else V_DRIFT
            out["note"] = "a fraction of the elements differ from the float64 run"
        return out
    e_err = robust_error(eager, reference)
    a_err = robust_error(artifact, reference)
    m = multiplier(eager.dtype, eager.numel())
    out.update(eager_error=_num(e_err), artifact_error=_num(a_err), multiplier=m)
    if e_err > 0 and math.isfinite(e_err):
        out["ratio"] = _num(a_err / e_err)
    if math.isinf(a_err) and not math.isinf(e_err):
        out.update(verdict=V_WRONG, note="non-finite values where eager has none")
    elif a_err <= m * e_err + floor(eager.dtype):
        out["verdict"] = V_MATCHES
    elif a_err >= WRONG and a_err > 10 * m * e_err:
        out["verdict"] = V_WRONG
    else:
        out["verdict"] = V_DRIFT
    return out


# --------------------------------------------------------------------------- the float64 run
def _to64(t):
    import torch

    if t.is_floating_point():
        return t.to(torch.float64)
    if t.is_complex():
        return t.to(torch.complex128)
    return t


def float64_args(snapshot: tuple) -> tuple:
    """A deep copy of the example inputs with every floating tensor (models included) in float64."""
    import torch
    import torch.utils._pytree as pytree


    args = fresh_copy(snapshot)

    def one(v):
        if isinstance(v, torch.nn.Module):
            return v._apply(_to64)
        if isinstance(v, torch.Tensor) and (v.is_floating_point() or v.is_complex()):
            c = _to64(v.detach())
            return c.requires_grad_(v.requires_grad) if v.is_leaf or not v.requires_grad else c
        return v

    out = []
    for a in args:
        out.append(one(a) if isinstance(a, torch.nn.Module) else pytree.tree_map(one, a))
    return tuple(out)


def reference_run(fn, snapshot: tuple, names: list[str], seed: int, calls: int) -> tuple[list, dict]:
    """(the leaves of each call's outputs, the state tensors) of eager fn in float64."""

    args = float64_args(snapshot)
    outs = []
    with rng_fork():
        for k in range(calls):
            outs.append(leaves(seeded_call(fn, args, seed + k))[0])
    return outs, state_tensors(args, names)


def no_verdict(exc: BaseException) -> dict:
    """The accuracy section when eager fn cannot run in float64."""
    acc = summarise([], {})
    acc.update(verdict=None, reference=None,
               message=f"no verdict: eager fn cannot run in float64 ({type(exc).__name__}: {str(exc)[:200]})")
    return acc


def judge_call(fn, args: tuple, names: list[str], seed: int, result: dict, eager: dict, artifact: dict) -> dict:
    """The verdict on one call: eager fn once more, on a float64 copy of ``args`` (what the call
    started from) under the call's ``seed``; the outputs keyed as ``result["outputs"]`` names them."""
    try:
        ref_outs, ref_state = reference_run(fn, args, names, seed, 1)
    except Exception as exc:  # noqa: BLE001 - no reference: no verdict
        return no_verdict(exc)
    ref = {"outputs": dict(zip((e["name"] for e in result["outputs"]), ref_outs[0])), **ref_state}
    return judge(result, eager, artifact, ref)


# --------------------------------------------------------------------------- the verdict
_GROUPS = (("outputs", "output", "outputs"), ("grads", "gradient", "gradients"),
           ("buffers", "buffer", "buffers"), ("parameters", "parameter", "parameters"),
           ("inputs", "mutated input", "mutated inputs"))


def sci(x: float | None) -> str:
    """A figure in two digits; None (not finite in JSON) and infinity read 'inf'."""
    return "inf" if x is None or not math.isfinite(x) else f"{x:.2g}"


def _counts(tensors: list[dict], verdict: str, totals: dict[str, int]) -> str:
    parts = []
    for key, one, many in _GROUPS:
        n = sum(1 for t in tensors if t["kind"] == key and t["verdict"] == verdict)
        if n:
            total = totals.get(key, n)
            parts.append(f"{n} of {total} {one if total == 1 else many}")
    return ", ".join(parts)


def _worst(tensors: list[dict], verdict: str, limit: int = 3) -> list[dict]:
    def key(t):
        r = t.get("ratio")
        return (t.get("artifact_error") is None, r if r is not None else math.inf)

    return sorted((t for t in tensors if t["verdict"] == verdict), key=key, reverse=True)[:limit]


def _describe(t: dict) -> str:
    if t.get("note") and t.get("artifact_error") is None:
        return f"{t['name']} ({t['note']})"
    ratio = f", {t['ratio']:.2g}x" if t.get("ratio") is not None else ""
    return f"{t['name']} (artifact {sci(t.get('artifact_error'))}, eager {sci(t.get('eager_error'))}{ratio})"


def summarise(tensors: list[dict], totals: dict[str, int]) -> dict:
    """The verdict of a capture from its judged tensors, with the figures and words to show."""
    verdicts = [t["verdict"] for t in tensors]
    out: dict = {"verdict": None, "reference": "float64", "judged": len(tensors),
                 "drift": verdicts.count(V_DRIFT), "wrong": verdicts.count(V_WRONG),
                 "eager_error": None, "artifact_error": None, "ratio": None, "worst": [], "tensors": tensors}
    # The figures of the values that decide the verdict (the wrong ones, else the drifting ones):
    # the median error of each side among them (a maximum would pair one value's artifact error
    # with another's eager error).
    deciding = next((v for v in (V_WRONG, V_DRIFT) if v in verdicts), None)
    pool = [t for t in tensors if deciding is None or t["verdict"] == deciding]
    e = [t["eager_error"] for t in pool if t.get("eager_error") is not None]
    a = [t["artifact_error"] for t in pool if t.get("artifact_error") is not None]
    out["eager_error"] = statistics.median(e) if e else None
    out["artifact_error"] = statistics.median(a) if a else None
    if out["eager_error"] and out["artifact_error"] is not None:
        out["ratio"] = _num(out["artifact_error"] / out["eager_error"])
    if V_WRONG in verdicts:
        worst = _worst(tensors, V_WRONG)
        out.update(verdict=Judgement.WRONG, worst=[t["name"] for t in worst],
                   message=(f"wrong: {_counts(tensors, V_WRONG, totals)} differ from eager beyond any rounding "
                            "(relative RMS error against a float64 run: " + "; ".join(_describe(t) for t in worst)
                            + ")"))
    elif None in verdicts:
        undecided = [t for t in tensors if t["verdict"] is None]
        out.update(worst=[t["name"] for t in undecided[:3]],
                   message="no verdict: " + "; ".join(f"{t['name']}: {t.get('note')}" for t in undecided[:3]))
    elif V_DRIFT in verdicts:
        worst = _worst(tensors, V_DRIFT)
        out.update(verdict=Judgement.DRIFT, worst=[t["name"] for t in worst],
                   message=(f"numerics drift in {_counts(tensors, V_DRIFT, totals)}: against a float64 run the "
                            f"artifact is off by {sci(out['artifact_error'])} where eager is off by "
                            f"{sci(out['eager_error'])} (median relative RMS error); worst: "
                            + "; ".join(_describe(t) for t in worst)))
    else:
        m = max((t.get("multiplier") or MULTIPLIER for t in tensors), default=MULTIPLIER)
        out.update(verdict=Judgement.MATCHES,
                   message=(f"matches: the {len(tensors)} value(s) outside tolerance are within {m:g}x "
                            "eager's own error against a float64 run (rounding)"))
    return out


def judge(result: dict, eager: dict, artifact: dict, reference: dict) -> dict:
    """The accuracy section of verify for the compared entries that failed tolerance.

    ``eager`` / ``artifact`` / ``reference``: {"outputs": {name: value}, "grads": {...}, ...}
    keyed by the entry names verify gave them.
    """
    tensors = []
    totals = {key: len(result.get(key) or []) for key, _one, _many in _GROUPS}
    for key, _one, _many in _GROUPS:
        for entry in result.get(key) or []:
            if (entry.get("result") or {}).get("ok"):
                continue
            name = entry["name"]
            e, a, r = eager[key].get(name), artifact[key].get(name), reference[key].get(name)
            if e is None and a is None:
                tensors.append({"name": name, "kind": key, "verdict": V_WRONG, "eager_error": None,
                                "artifact_error": None, "ratio": None,
                                "note": (entry.get("result") or {}).get("note") or "differs"})
                continue
            if e is None or a is None:
                tensors.append({"name": name, "kind": key, "verdict": V_WRONG, "eager_error": None,
                                "artifact_error": None, "ratio": None,
                                "note": (entry.get("result") or {}).get("note") or "one side has no value"})
                continue
            t = judge_tensor(name, key, e, a, r)
            tensors.append(t)
    return summarise(tensors, totals)


def tolerance_verdict() -> dict:
    """The accuracy section when every compared value was within the tight tolerance."""
    return {"verdict": Judgement.MATCHES, "reference": "tolerance", "judged": 0, "drift": 0, "wrong": 0,
            "eager_error": None, "artifact_error": None, "ratio": None, "worst": [], "tensors": [],
            "message": "matches: every compared value is within the dtype's tolerance of eager's"}


def drift_warning(accuracy: dict) -> dict:
    """The warning a drifting capture carries (its status stays ok; the verdict says drift)."""
    return {
        "invariant": None,
        "rule": "numerics-drift",
        "message": accuracy.get("message") or "numerics drift",
        "fix": FIX_DRIFT,
        "location": None,
        "details": {"eager_error": accuracy.get("eager_error"), "artifact_error": accuracy.get("artifact_error"),
                    "ratio": accuracy.get("ratio"), "worst": accuracy.get("worst") or []},
    }
