"""Name the parameter, buffer or input a call-time mismatch is about (invariants 2 and 6).

torch's driver says "a runtime tensor's shape or memory format differs from the traced
example" for an inductor layout mismatch without saying which tensor: the inductor code's
``assert_size_stride`` failure it wraps gives only sizes and strides. The driver's
``forward`` frame is still in the traceback, with the runtime model's parameters and buffers
(``pb``, ``_names``) and the user's input leaves (``user_flat``), and its module holds
PARAM_NAMES / BUFFER_NAMES; the tensor whose size and stride are the assertion's actual ones
is the culprit. For "the runtime param/buffer 'w' has shape ...", the name is in the message;
this says whether it is a parameter or a buffer, and what the traced value was.
"""
from __future__ import annotations

import re

_DIM = re.compile(r"expected size (\d+)==(\d+), stride (\d+)==(\d+) at dim=(\d+)")
_PB = re.compile(r"the runtime param/buffer '([^']+)' (has shape|has dtype|is on device) (.+?) but the traced "
                 r"model's was (.+?); ")


def _driver_frame(exc: BaseException):
    seen = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        tb = e.__traceback__
        found = None
        while tb is not None:
            loc = tb.tb_frame.f_locals
            if "pb" in loc and "_names" in loc:
                found = tb.tb_frame
            tb = tb.tb_next
        if found is not None:
            return found
        e = e.__cause__ or e.__context__
    return None


def _layout_assertion(exc: BaseException) -> str | None:
    seen = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, AssertionError) and _DIM.search(str(e)):
            return str(e)
        e = e.__cause__ or e.__context__
    return _DIM.search(str(exc)) and str(exc)


def _kind(frame, name: str, index: int | None = None) -> str:
    g = frame.f_globals
    params = list(g.get("PARAM_NAMES") or ())
    if index is not None:
        return "parameter" if index < len(params) else "buffer"
    return "parameter" if name in params else "buffer" if name in (g.get("BUFFER_NAMES") or ()) else "tensor"


def _layout(exc: BaseException, message: str) -> dict | None:
    text = _layout_assertion(exc)
    frame = _driver_frame(exc)
    if not text or frame is None:
        return None
    dims = [tuple(int(x) for x in m.groups()) for m in _DIM.finditer(text)]
    loc = frame.f_locals
    pb, names, user = list(loc.get("pb") or ()), list(loc.get("_names") or ()), list(loc.get("user_flat") or ())

    def fits(t) -> bool:
        try:
            return all(t.dim() > d and t.shape[d] == a and t.stride(d) == sa for a, _e, sa, _se, d in dims)
        except Exception:  # noqa: BLE001 - a non-tensor leaf: expected, not a studio failure
            return False

    expected = {d: se for _a, _e, _sa, se, d in dims}
    actual = {d: sa for _a, _e, sa, _se, d in dims}
    hits = [("param", i) for i, t in enumerate(pb) if fits(t)] + [("input", j) for j, t in enumerate(user) if fits(t)]
    if len(hits) != 1:
        return None
    where, i = hits[0]
    t = pb[i] if where == "param" else user[i]
    out = {"shape": list(t.shape), "stride": list(t.stride()),
           "traced_stride_at": {str(d): s for d, s in sorted(expected.items())},
           "runtime_stride_at": {str(d): s for d, s in sorted(actual.items())}}
    if where == "param":
        kind = _kind(frame, names[i], i)
        out.update(tensor=names[i], kind=kind, owner="the runtime model's",
                   mismatch=f"the runtime model's {kind} `{names[i]}` has strides {tuple(t.stride())}, "
                            "another memory format than the traced model's")
        out["fix"] = (f"Give the runtime model's {kind} `{names[i]}` the traced model's memory format "
                      f"(e.g. model.{names[i]}.data = model.{names[i]}.data.contiguous() after loading the "
                      "checkpoint), or use backend='eager', which is layout-flexible.")
    else:
        out.update(tensor=f"input leaf {i}", kind="input", owner="the input's", input_index=i,
                   mismatch=f"the input's leaf {i} has strides {tuple(t.stride())}, another memory format "
                            "than the traced example's")
        out["fix"] = (f"Pass the input (leaf {i}) in the example's layout (.contiguous() to match a "
                      "contiguous example), or use backend='eager', which is layout-flexible.")
    return out


def _param_buffer(exc: BaseException, message: str) -> dict | None:
    m = _PB.search(message)
    if not m:
        return None
    name, what, got, traced = m.groups()
    frame = _driver_frame(exc)
    kind = _kind(frame, name) if frame is not None else "parameter or buffer"
    attr = {"has shape": "shape", "has dtype": "dtype", "is on device": "device"}[what]
    return {"tensor": name, "kind": kind, "owner": "the runtime model's", "field": attr,
            "runtime": got, "traced": traced,
            "mismatch": f"the runtime model's {kind} `{name}` has {attr} {got}; the traced model's was {traced}",
            "fix": (f"Give the runtime model's {kind} `{name}` the traced {attr} {traced} (load a checkpoint "
                    "of the traced architecture), or retrace with this model.")}


def describe_param_mismatch(exc: BaseException, message: str) -> dict | None:
    """Details naming the tensor of an input-layout or param-buffer-mismatch violation."""
    try:
        if "runtime param/buffer" in message:
            return _param_buffer(exc, message)
        return _layout(exc, message)
    except Exception as e:  # noqa: BLE001 - naming is a courtesy: the violation stands without it
        from precompile_studio.common import internal_errors

        internal_errors.record("violations: naming the mismatched parameter or input", e)
        return None
