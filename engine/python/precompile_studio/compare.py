"""Compare one value of eager fn against the same value of the loaded artifact.

``compare(expected, actual) -> dict`` is the single comparison point of the verification;
the C++ worker is meant to replace it with a LibTorch implementation of the same contract
(``verify.set_comparator``). For tensors the result has

  sizes / strides / dtypes / devices: [expected, actual]
  sizes_match, strides_match, dtypes_match, devices_match
  max_abs_diff, max_rel_diff (over elements with expected != 0), mismatched (element count)
  atol, rtol: the tolerance used (dtype-aware, see TOLERANCES)
  ok: sizes and dtypes match and every element satisfies
      |a - e| <= atol + rtol * |e|, NaN where eager has NaN, equal infinities
      (exact equality for integer and bool tensors). Strides are reported, not required.

For non-tensor values: {"ok": expected == actual, "values": [repr, repr]}.
"""
from __future__ import annotations

import math
from typing import Any

# (atol, rtol) per floating dtype: a compiled kernel may reorder reductions and fuse
# multiply-adds, so float32 is looser than torch.testing's defaults.
TOLERANCES = {
    "float64": (1e-7, 1e-7),
    "complex128": (1e-7, 1e-7),
    "float32": (1e-5, 1e-4),
    "complex64": (1e-5, 1e-4),
    "float16": (1e-3, 1e-3),
    "complex32": (1e-3, 1e-3),
    "bfloat16": (1e-2, 1.6e-2),
}
_FP8 = (1e-1, 1.25e-1)


def tolerance(dtype) -> tuple[float, float]:
    name = str(dtype).replace("torch.", "")
    if name in TOLERANCES:
        return TOLERANCES[name]
    if name.startswith("float8"):
        return _FP8
    return (0.0, 0.0)


def _meta(t) -> dict:
    try:
        stride = list(t.stride())
    except Exception:
        stride = None
    return {"size": list(t.shape), "stride": stride, "dtype": str(t.dtype).replace("torch.", ""),
            "device": str(t.device)}


def compare(expected: Any, actual: Any, atol: float | None = None, rtol: float | None = None) -> dict:
    import torch

    if not isinstance(expected, torch.Tensor) or not isinstance(actual, torch.Tensor):
        if isinstance(expected, torch.Tensor) or isinstance(actual, torch.Tensor):
            return {"ok": False, "values": [_short(expected), _short(actual)],
                    "note": "one side is a tensor, the other is not"}
        try:
            ok = bool(expected == actual) or (
                isinstance(expected, float) and isinstance(actual, float)
                and math.isnan(expected) and math.isnan(actual)
            )
        except Exception:
            ok = False
        return {"ok": ok, "values": [_short(expected), _short(actual)]}

    e, a = expected.detach(), actual.detach()
    me, ma = _meta(e), _meta(a)
    res: dict = {
        "sizes": [me["size"], ma["size"]],
        "strides": [me["stride"], ma["stride"]],
        "dtypes": [me["dtype"], ma["dtype"]],
        "devices": [me["device"], ma["device"]],
        "sizes_match": me["size"] == ma["size"],
        "strides_match": me["stride"] == ma["stride"],
        "dtypes_match": me["dtype"] == ma["dtype"],
        "devices_match": me["device"] == ma["device"],
        "max_abs_diff": None,
        "max_rel_diff": None,
        "mismatched": None,
    }
    d_atol, d_rtol = tolerance(e.dtype)
    atol = d_atol if atol is None else atol
    rtol = d_rtol if rtol is None else rtol
    res["atol"], res["rtol"] = atol, rtol
    if not (res["sizes_match"] and res["dtypes_match"]):
        res["ok"] = False
        return res
    if e.layout != torch.strided or a.layout != torch.strided:
        e, a = e.to_dense(), a.to_dense()
    if e.device != a.device:
        a = a.to(e.device)
    if e.numel() == 0:
        res.update(max_abs_diff=0.0, max_rel_diff=0.0, mismatched=0, ok=True)
        return res
    if e.is_complex():
        e, a = torch.view_as_real(e), torch.view_as_real(a)
    if not (e.is_floating_point()):
        if e.dtype != torch.bool:
            diff = (e.to(torch.float64) - a.to(torch.float64)).abs()
        else:
            diff = (e != a).to(torch.float64)
        bad = e != a
        res["max_abs_diff"] = float(diff.max())
        ed = e.to(torch.float64).abs()
        nz = ed > 0
        res["max_rel_diff"] = float((diff[nz] / ed[nz]).max()) if bool(nz.any()) else 0.0
        res["mismatched"] = int(bad.sum())
        res["ok"] = res["mismatched"] == 0
        return res
    e64, a64 = e.to(torch.float64), a.to(torch.float64)
    both_nan = torch.isnan(e64) & torch.isnan(a64)
    same_inf = torch.isinf(e64) & (e64 == a64)
    diff = (e64 - a64).abs()
    diff = torch.where(both_nan | same_inf, torch.zeros_like(diff), diff)
    diff = torch.nan_to_num(diff, nan=math.inf)
    ea = e64.abs()
    bad = diff > (atol + rtol * torch.nan_to_num(ea, nan=0.0, posinf=0.0))
    res["max_abs_diff"] = float(diff.max())
    nz = (ea > 0) & torch.isfinite(ea)
    res["max_rel_diff"] = float((diff[nz] / ea[nz]).max()) if bool(nz.any()) else 0.0
    res["mismatched"] = int(bad.sum())
    res["ok"] = res["mismatched"] == 0
    return res


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 200 else s[:197] + "..."
