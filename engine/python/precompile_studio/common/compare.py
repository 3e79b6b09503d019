"""Compare one value of eager fn against the same value of the loaded artifact.

``compare(expected, actual) -> dict`` is the single comparison point of the verification;
the C++ worker is meant to replace it with a LibTorch implementation of the same contract
(``common.calls.set_comparator``). For tensors the result has

  sizes / strides / dtypes / devices: [expected, actual]
  sizes_match, strides_match, dtypes_match, devices_match
  max_abs_diff, max_rel_diff (over elements with expected != 0), mismatched (element count)
  rms_rel_diff: RMS of (a - e) over the RMS of e (over e's finite elements; the RMS of the
      difference itself where e is all zero): a relative difference that does not explode on
      near-zero elements the way max_rel_diff does
  atol, rtol: the tolerance used (dtype-aware, see TOLERANCES)
  ok: sizes and dtypes match and every element satisfies
      |a - e| <= atol + rtol * |e|, NaN where eager has NaN, equal infinities
      (exact equality for integer and bool tensors). Strides are reported, not required.

Cost: torch.equal first (one pass, no allocation): bitwise-equal tensors, the common case on
the eager backend, are done there. Otherwise the differences are computed in the tensors' own
dtype (float32 for 16-bit and 8-bit floats), never in a float64 copy, and on the expected
tensor's device (a GPU's tensors are compared there; only the figures come to the host). The
sums of squares are accumulated in float64: the CPU's float32 norm does so itself, a GPU's
float32 norm accumulates in float32, so there a chunk is cast to float64 first.

For non-tensor values: {"ok": expected == actual, "values": [repr, repr]}.
"""
from __future__ import annotations

import math
from typing import Any

CHUNK = 1 << 20  # elements compared at a time: a few MB of scratch, whatever the tensor's size

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
    except Exception:  # noqa: BLE001 - sparse and other layouts have no strides
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
        except Exception:  # noqa: BLE001 - the user's values refuse == : not equal
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
        "rms_rel_diff": None,
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
    if e.numel() == 0 or torch.equal(e, a):
        res.update(max_abs_diff=0.0, max_rel_diff=0.0, rms_rel_diff=0.0, mismatched=0, ok=True)
        return res
    if e.is_complex():
        e, a = torch.view_as_real(e.resolve_conj()), torch.view_as_real(a.resolve_conj())
    if not e.is_floating_point():
        wide = torch.float64 if e.element_size() >= 4 else torch.float32
        ew, aw = e.to(wide), a.to(wide)
        diff = (ew - aw).abs()
        bad = e != a
        res["max_abs_diff"] = float(diff.max())
        ea = ew.abs()
        nz = ea > 0
        res["max_rel_diff"] = float((diff[nz] / ea[nz]).max()) if bool(nz.any()) else 0.0
        res["rms_rel_diff"] = _rms_rel(diff, ew, res["max_abs_diff"])
        res["mismatched"] = int(bad.sum())
        res["ok"] = res["mismatched"] == 0
        return res
    work = e.dtype if e.dtype in (torch.float32, torch.float64) else torch.float32
    ew, aw = e.to(work).reshape(-1), a.to(work).reshape(-1)  # no copy where already so
    figures = _Figures()
    for i in range(0, ew.numel(), CHUNK):
        figures.add(ew[i:i + CHUNK], aw[i:i + CHUNK], atol, rtol)
    res.update(figures.result())
    res["ok"] = res["mismatched"] == 0
    return res


class _Figures:
    """max |a - e|, max |a - e| / |e|, the count outside tolerance and the sums of squares of the
    finite differences and of e's finite values, accumulated chunk by chunk."""

    def __init__(self):
        self.max_abs = self.max_rel = 0.0
        self.bad = 0
        self.d2 = self.e2 = 0.0
        self.nd = self.ne = 0

    def add(self, e, a, atol: float, rtol: float) -> None:
        import torch

        diff = torch.sub(e, a).abs_()
        if not bool(torch.isfinite(diff).all()):
            special = (torch.isnan(e) & torch.isnan(a)) | (torch.isinf(e) & (e == a))
            diff.masked_fill_(special, 0.0)
            diff.nan_to_num_(nan=math.inf)
        self.max_abs = max(self.max_abs, float(diff.max()))
        ea = e.abs()
        finite_e = torch.isfinite(ea)
        if not bool(finite_e.all()):
            ea.nan_to_num_(nan=0.0, posinf=0.0)
            self.e2 += _norm(ea[finite_e]) ** 2
            self.ne += int(finite_e.sum())
        else:
            self.e2 += _norm(ea) ** 2
            self.ne += ea.numel()
        if math.isfinite(self.max_abs):
            self.d2 += _norm(diff) ** 2
            self.nd += diff.numel()
        scratch = torch.div(diff, ea)
        scratch.masked_fill_(ea == 0, 0.0)
        self.max_rel = max(self.max_rel, float(scratch.max()))
        torch.mul(ea, rtol, out=scratch).add_(atol)
        self.bad += int((diff > scratch).sum())

    def result(self) -> dict:
        d = math.sqrt(self.d2 / self.nd) if self.nd else 0.0
        scale = math.sqrt(self.e2 / self.ne) if self.ne else 0.0
        rel = math.inf if not math.isfinite(self.max_abs) else (d / scale if scale > 0 else d)
        # JSON has no infinity: null, as the worker's LibTorch comparison writes it
        return {"max_abs_diff": _finite(self.max_abs), "max_rel_diff": _finite(self.max_rel),
                "rms_rel_diff": _finite(rel), "mismatched": self.bad}


def _norm(t) -> float:
    """The 2-norm of a floating tensor, accumulated in float64 on every device."""
    import torch

    if t.device.type != "cpu" and t.dtype != torch.float64:
        return float(torch.linalg.vector_norm(t, dtype=torch.float64))
    return float(torch.linalg.vector_norm(t))  # float32 on the CPU accumulates in double


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def rms(t) -> float:
    """Root mean square of a tensor's finite elements (0.0 when it has none), summed in float64."""
    import torch

    t = t.detach()
    if not t.is_floating_point():
        t = t.to(torch.float64)
    finite = torch.isfinite(t)
    if not bool(finite.all()):
        t = t[finite]
    if t.numel() == 0:
        return 0.0
    return _norm(t) / math.sqrt(t.numel())


def _rms_rel(diff, expected, max_abs: float) -> float:
    """RMS of |a - e| over the RMS of e; the RMS of the difference where e is all zero."""
    if math.isinf(max_abs) or math.isnan(max_abs):
        return math.inf
    d = rms(diff)
    scale = rms(expected)
    return d / scale if scale > 0 else d


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 200 else s[:197] + "..."
