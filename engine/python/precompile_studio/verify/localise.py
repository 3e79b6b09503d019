"""Where a numerics drift or a mismatch starts: per graph node, the artifact's error against a
float64 run of the captured graph next to eager's own.

Only when the accuracy judge says *numerics drift* or *wrong* (accuracy.py), and only while it
fits the verification budget; the verdict never depends on it, and a failure here is
``localise.status: failed`` with the reason, nothing else.

Three values per node, computed side by side in graph order (compared on the fly: only the
figures of a node already compared are kept, each value freed after its last use):

- the **float64 reference**: the captured graph (``probe.gm``, precompile's own interning of
  parameters and buffers) run node by node on float64 copies of the example inputs, every
  floating dtype the graph names (casts, factory ``dtype=``) made float64;
- **eager**: the same graph on float32 copies, as eager fn computes it: a cast to a narrower
  floating dtype (a decomposition's ``.to(float16)``) is left out, since eager fn has none;
- **the artifact**: eager backend, the graph itself as the artifact runs it (casts kept);
  inductor, the buffers its kernels write during one call of the loaded artifact: each C++
  kernel (its non-const pointer arguments) and each extern call (its ``out=`` or its result) is
  wrapped in the loaded module's globals for that call only; a buffer is the value of the node,
  among the ones its kernel computes (``lowering``), that eager's value is closest to.

Per node ``error`` and ``eager_error`` are accuracy.robust_error against float64; ``leaves_band``
is the judge's "beyond rounding" (error over ``multiplier`` times eager's plus the floor). Casts
between floating dtypes and views are not compared (their value is another
node's, or a representation of it). ``drift_starts``: the first nodes that leave the band while
every input (through nodes not compared) is inside it: where the drift starts, not where it
spreads.
"""
from __future__ import annotations

import ast
import math
import re
import time
from typing import Any

from precompile_studio.common import internal_errors
from precompile_studio.common.calls import fresh_copy
from precompile_studio.common.outcomes import Judgement
from precompile_studio.verify.accuracy import _num, float64_args, floor, multiplier, robust_error
from precompile_studio.verify.call_sites import CallSiteProxy, TorchWithOps

LOCALISED = (Judgement.DRIFT, Judgement.WRONG)  # the verdicts localised
NAMED = 3            # drift starts named in the summary
CALLS = 4.0          # a localisation costs about 4 calls of eager fn (the float64 run above all)
ALLOWANCE_S = 30.0   # seconds a localisation may always take, else the verification allowance
NODE_S = 0.005       # plus this per graph node (the comparisons; resnet18's training step: 5.7 s)
MATCH = 0.5          # a buffer farther than this from every candidate node's eager value is no node's
_ARGTYPES = re.compile(r"async_compile\.cpp(?:_pybinding)?\((\[[^\]]*\])")


def skipped(reason: str, seconds: float = 0.0) -> dict:
    return {"status": "skipped", "reason": reason, "observed": 0, "seconds": round(seconds, 3)}


# --------------------------------------------------------------------------- the graph's inputs
def flat_inputs(args: tuple) -> list:
    """The graph's placeholders' values: the modules' parameters and buffers interned as
    precompile interns them, then the user inputs' leaves."""
    import torch
    import torch.utils._pytree as pytree

    from precompile_studio.api.choose import current

    _intern_param_buffers = current().internals()._intern_param_buffers

    mods = [a for a in args if isinstance(a, torch.nn.Module)]
    pb = _intern_param_buffers(mods)[0] if mods else []
    user = pytree.tree_flatten(tuple(a for a in args if not isinstance(a, torch.nn.Module)))[0]
    return [*pb, *user]


def _is_float_dtype(d) -> bool:
    import torch

    return isinstance(d, torch.dtype) and d.is_floating_point


def _is_cast(node) -> bool:
    import torch

    return node.target in (torch.ops.aten._to_copy.default, torch.ops.prims.convert_element_type.default)


def _observable(node) -> bool:
    """A node whose value is its own: a floating tensor made by an op that is no view and no
    cast (an in-place op's value is what it wrote)."""
    import torch

    if node.op != "call_function":
        return False
    val = node.meta.get("val")
    if not isinstance(val, torch.Tensor) or not (val.is_floating_point() or val.is_complex()):
        return False
    if _is_cast(node):
        return False
    schema = getattr(node.target, "_schema", None)
    if schema is not None and any(r.alias_info is not None and not r.alias_info.is_write for r in schema.returns):
        return False
    return True


class _Runner:
    """One run of the graph, a node at a time, its values freed after their last use.

    ``mode``: "float64" (every floating dtype named made float64), "eager" (narrowing floating
    casts left out) or "as-is"."""

    def __init__(self, gm, flat: list, mode: str):
        import torch

        self.gm, self.mode = gm, mode
        self.env: dict[Any, Any] = {}
        self._flat = iter(flat)
        self._f64 = torch.float64

    def _dtype(self, v):
        return self._f64 if self.mode == "float64" and _is_float_dtype(v) else v

    def run(self, node):
        import torch
        from torch.fx.node import map_arg

        if node.op == "placeholder":
            v = next(self._flat)
        elif node.op == "get_attr":
            v = self.gm
            for part in node.target.split("."):
                v = getattr(v, part)
            if self.mode == "float64" and isinstance(v, torch.Tensor) and v.is_floating_point():
                v = v.to(torch.float64)
        elif node.op == "call_function":
            args = map_arg(node.args, lambda n: self.env[n])
            kwargs = map_arg(node.kwargs, lambda n: self.env[n])
            if self.mode == "float64":
                args = tuple(self._dtype(a) for a in args)
                kwargs = {k: self._dtype(a) for k, a in kwargs.items()}
            if self.mode == "eager" and _is_cast(node) and self._narrows(node, args, kwargs):
                v = args[0].clone()
            else:
                v = node.target(*args, **kwargs)
        else:
            return None
        self.env[node] = v
        return v

    @staticmethod
    def _narrows(node, args, kwargs) -> bool:
        import torch

        src = args[0] if args and isinstance(args[0], torch.Tensor) else None
        dst = kwargs.get("dtype", args[1] if len(args) > 1 else None)
        return (src is not None and src.is_floating_point() and _is_float_dtype(dst)
                and dst.itemsize < src.dtype.itemsize)

    def free(self, node) -> None:
        self.env.pop(node, None)


# --------------------------------------------------------------------------- inductor's buffers
class _Capture:
    __slots__ = ("value", "nodes", "best")

    def __init__(self, value, nodes: set[str] | None):
        self.value = value
        self.nodes = nodes    # the graph nodes its kernel computes (None: unknown)
        self.best: tuple | None = None  # (distance to eager, node name, error, eager error, leaves)


def _tensors(v) -> list:
    import torch

    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in _tensors(x)]
    return []


def _kernel_outputs(python_code: str, kernel: dict) -> list[int] | None:
    """Positions of a C++ kernel's written arguments (its non-const pointers)."""
    lines = python_code.splitlines()
    line = kernel.get("def_line")
    if not line or line > len(lines):
        return None
    m = _ARGTYPES.search(lines[line - 1])
    if not m:
        return None
    types = ast.literal_eval(m.group(1))
    return [i for i, t in enumerate(types) if t.endswith("*") and not t.startswith("const")]


def inductor_buffers(f, python_code: str, lowering: dict, call, inputs: list | None = None) -> list[_Capture]:
    """Copies of the buffers the artifact's kernels write during ``call()`` (one call of ``f``),
    each with the graph nodes its kernel computes; the wrappers are removed after. A write into
    one of ``inputs`` (the call's parameters and buffers: BatchNorm's running statistics) is no
    node's value and is not kept."""
    import torch

    own = {t.data_ptr() for t in inputs or [] if isinstance(t, torch.Tensor)}

    ns = f._loaded_forward.__globals__
    caps: list[_Capture] = []
    externs = {e["end"]: set(e.get("nodes") or []) or None for e in lowering.get("extern_calls") or []}

    def note_extern(line: int, call, kwargs: dict):
        out = call()
        if line in externs:
            written = kwargs.get("out")
            for t in _tensors(written if written is not None else out):
                caps.append(_Capture(t.detach().clone(), externs[line]))
        return out

    saved: dict[str, Any] = {}

    def wrap(name: str, outs: list[int], nodes: set[str] | None):
        orig = ns[name]

        def kernel(*args):
            r = orig(*args)
            for i in outs:
                if i < len(args) and isinstance(args[i], torch.Tensor) and args[i].data_ptr() not in own:
                    caps.append(_Capture(args[i].detach().clone(), nodes))
            return r
        return kernel

    try:
        for k in lowering.get("kernels") or []:
            name = k.get("name")
            if k.get("kind") != "cpp" or name not in ns:
                continue
            outs = _kernel_outputs(python_code, k)
            if outs:
                saved[name] = ns[name]
                ns[name] = wrap(name, outs, set(k.get("nodes") or []) or None)
        for name in ("extern_kernels", "aten"):
            if name in ns:
                saved[name] = ns[name]
                ns[name] = CallSiteProxy(ns[name], note_extern)
        if "torch" in ns:
            saved["torch"] = ns["torch"]
            ns["torch"] = TorchWithOps(ns["torch"], note_extern)
        call()
    finally:
        ns.update(saved)
    return caps


# --------------------------------------------------------------------------- the comparison
def _same_shape(a, b):
    """``a`` as ``b``'s shape where they hold the same elements (a buffer may be a reinterpreted
    view of the node's value), else None."""
    if a.shape == b.shape:
        return a
    if a.numel() == b.numel() and [s for s in a.shape if s != 1] == [s for s in b.shape if s != 1]:
        return a.reshape(b.shape)
    return None


def _leaves(error: float, eager_error: float, value) -> bool:
    if math.isinf(error):
        return not math.isinf(eager_error)
    return error > multiplier(value.dtype, value.numel()) * eager_error + floor(value.dtype)


def compare_nodes(gm, snapshot: tuple, seed: int, artifact_values=None, captures: list[_Capture] | None = None):
    """{node name: (error, eager error, leaves band)} of every node observed, and the graph's
    nodes. ``artifact_values``: "graph" (the eager backend: the graph as-is on float32 copies)
    or ``captures`` (inductor's buffers)."""
    import torch

    nodes = list(gm.graph.nodes)
    last_use: dict[Any, Any] = {}
    for n in nodes:
        for i in n.all_input_nodes:
            last_use[i] = n
    free_after: dict[Any, list] = {}
    for i, n in last_use.items():
        free_after.setdefault(n, []).append(i)

    torch.manual_seed(seed)
    runs = {"ref": _Runner(gm, flat_inputs(float64_args(snapshot)), "float64"),
            "eager": _Runner(gm, flat_inputs(fresh_copy(snapshot)), "eager")}
    if artifact_values == "graph":
        runs["artifact"] = _Runner(gm, flat_inputs(fresh_copy(snapshot)), "as-is")
    by_node: dict[str, list[_Capture]] = {}
    unknown: list[_Capture] = []
    for c in captures or []:
        if c.nodes is None:
            unknown.append(c)
        else:
            for nm in c.nodes:
                by_node.setdefault(nm, []).append(c)
    out: dict[str, tuple] = {}
    with torch.no_grad():
        for n in nodes:
            vals = {}
            for key, r in runs.items():
                # each run from the same seed: a random op draws the same numbers in each
                state = r.__dict__.setdefault("rng", torch.get_rng_state())
                torch.set_rng_state(state)
                vals[key] = r.run(n)
                r.rng = torch.get_rng_state()
            if _observable(n) and isinstance(vals["ref"], torch.Tensor):
                ref, eager = vals["ref"], vals["eager"]
                e_err = robust_error(eager, ref)
                if "artifact" in vals:
                    a_err = robust_error(vals["artifact"], ref)
                    out[n.name] = (a_err, e_err, _leaves(a_err, e_err, eager))
                else:
                    for c in _candidates(n, by_node) + unknown:
                        v = _same_shape(c.value, eager)
                        if v is None or v.dtype != eager.dtype:
                            continue
                        dist = robust_error(v, eager)
                        if c.best is None or dist < c.best[0]:
                            a_err = robust_error(v, ref)
                            c.best = (dist, n.name, a_err, e_err, _leaves(a_err, e_err, eager))
            for i in free_after.get(n, []):
                for r in runs.values():
                    r.free(i)
    if captures is not None:
        chosen: dict[str, tuple] = {}
        for c in captures:
            if c.best is None or not c.best[0] < MATCH:
                continue
            dist, name, a_err, e_err, leaves = c.best
            if name not in chosen or dist < chosen[name][0]:
                chosen[name] = c.best
        out = {name: best[2:] for name, best in chosen.items()}
    return out, nodes


def _candidates(node, by_node: dict) -> list:
    """The buffers that may hold ``node``'s value: its kernel's, or for an element of a node
    of several outputs (``getitem``), that node's kernel's."""
    import operator

    found = list(by_node.get(node.name, []))
    if node.target is operator.getitem and node.args and hasattr(node.args[0], "name"):
        found += [c for c in by_node.get(node.args[0].name, []) if c not in found]
    return found


def drift_starts(nodes: list, observed: dict[str, tuple]) -> list[str]:
    """The observed nodes that leave the band while none of their inputs (through nodes not
    observed) does, in graph order."""
    tainted: dict[Any, bool] = {}
    starts = []
    for n in nodes:
        upstream = any(tainted.get(i, False) for i in n.all_input_nodes)
        o = observed.get(n.name)
        if o is None:
            tainted[n] = upstream
            continue
        tainted[n] = bool(o[2])
        if o[2] and not upstream:
            starts.append(n.name)
    return starts


def named_starts(nodes: list, observed: dict[str, tuple]) -> tuple[list[str], dict[str, list[str]]]:
    """drift_starts named as everywhere (the message, the window, the page, JSON): a start that
    is an element of a node of several outputs (getitem_88) by that node, once; and per such
    node the elements that left the band (drift_starts_via)."""
    import operator

    shown = {n.name: n.args[0].name for n in nodes
             if n.target is operator.getitem and n.args and hasattr(n.args[0], "name")}
    starts, via = [], {}
    for name in drift_starts(nodes, observed):
        node = shown.get(name, name)
        if node not in starts:
            starts.append(node)
        if node != name:
            via.setdefault(node, []).append(name)
    return starts, via


def localise(*, gm, snapshot: tuple, seed: int, backend: str, load=None, python_code: str | None = None,
             lowering: dict | None = None, call_args=None) -> dict:
    """{"nodes", "drift_starts", "localise"} for the accuracy section. ``load``: a function that
    loads the artifact afresh (inductor); ``call_args``: a function giving arguments to call it
    with."""
    from precompile_studio.common.calls import seeded_call

    t0 = time.perf_counter()
    if gm is None:
        return {"localise": skipped("the captured graph was not kept")}
    captures = None
    if backend == "inductor":
        if load is None or not lowering or not python_code:
            return {"localise": skipped("the artifact's kernels are not mapped to graph nodes")}
        f = load()
        args = call_args()
        captures = inductor_buffers(f, python_code, lowering, lambda: seeded_call(f, args, seed), flat_inputs(args))
        del args
    observed, nodes = compare_nodes(gm, snapshot, seed, "graph" if backend != "inductor" else None, captures)
    del captures
    entries = [{"node": n.name, "error": _num(observed[n.name][0]), "eager_error": _num(observed[n.name][1]),
                "leaves_band": bool(observed[n.name][2])} for n in nodes if n.name in observed]
    starts, via = named_starts(nodes, observed)
    return {"nodes": entries, "drift_starts": starts, "drift_starts_via": via,
            "localise": {"status": "done", "observed": len(entries),
                         "seconds": round(time.perf_counter() - t0, 3)}}


def starts_phrase(starts: list[str], modules: dict[str, str | None], shown: dict[str, str] | None = None) -> str:
    """'convolution_backward_3 (layer1.0.conv2), mm' for the summary line (an element of a node
    of several outputs named by that node, once)."""
    parts, names = [], []
    for name in starts:
        name = (shown or {}).get(name, name)
        if name not in names:
            names.append(name)
    for name in names[:NAMED]:
        path = modules.get(name)
        parts.append(f"{name} ({path})" if path else name)
    more = len(names) - NAMED
    return ", ".join(parts) + (f" and {more} more" if more > 0 else "")


def with_starts(message: str | None, verdict: str | None, phrase: str) -> str | None:
    """The judge's message with where it starts: after the counts for a drift ("numerics drift
    in 60 of 62 gradients, starting at ...: against ..."), at the end for wrong."""
    if not message or not phrase:
        return message
    first, nl, rest = message.partition("\n")
    if verdict == "numerics drift" and ": " in first:
        head, _sep, tail = first.partition(": ")
        first = f"{head}; drift starts at {phrase}: {tail}"
    else:
        first = f"{first}; the difference starts at {phrase}"
    return first + nl + rest


def localise_verified(verify: dict | None, timings: dict, warnings: list[dict], *, gm, snapshot: tuple, seed: int,
                      backend: str, load=None, python_code: str | None = None, lowering: dict | None = None,
                      modules: dict[str, str | None] | None = None) -> None:
    """Where a drifting or wrong capture's difference starts, into ``verify["accuracy"]`` (nodes,
    drift_starts, localise), its message and the numerics-drift warning naming the starts; only
    while its estimated cost fits the verification allowance
    (``--deep-verify`` and small models: always). Never raises: a failure is said in localise."""
    acc = (verify or {}).get("accuracy")
    if not isinstance(acc, dict) or acc.get("verdict") not in LOCALISED:
        return
    budget = verify.get("budget") or {}
    allowance = budget.get("allowance_s")
    load_s = (timings.get("load") or 0.0) if backend == "inductor" else 0.0
    try:
        n_nodes = len(gm.graph.nodes)
    except Exception:  # noqa: BLE001 - no graph (gm None): localise says why
        n_nodes = 0
    estimate = CALLS * (timings.get("call_eager") or 0.0) + NODE_S * n_nodes + load_s
    # its own allowance, as specialise.py's: the verdict is already a finding, and explaining it is
    # worth 30 s or the verification allowance (a capture that drifted skips the perturbed trials;
    # the estimate rests on the first, warming call of eager fn: resnet18's training step on a busy
    # machine is estimated at 12 s)
    if allowance is not None and estimate > max(ALLOWANCE_S, allowance):
        acc["localise"] = skipped(f"where it starts would take about {estimate:.1f} s, over "
                                  f"{max(ALLOWANCE_S, allowance):.1f} s; run with --deep-verify to localise it")
        if isinstance(budget.get("skipped"), list):
            budget["skipped"].append("localising the drift")
            budget.setdefault("how", "run with --deep-verify for every check")
        return
    t0 = time.perf_counter()
    try:
        found = localise(gm=gm, snapshot=snapshot, seed=seed, backend=backend, load=load, python_code=python_code,
                         lowering=lowering, call_args=lambda: fresh_copy(snapshot))
    except Exception as exc:  # noqa: BLE001 - localising must never lose the run nor change the verdict
        internal_errors.record("localise: where the difference starts", exc)
        found = {"localise": {"status": "failed", "reason": f"{type(exc).__name__}: {str(exc)[:300]}",
                              "observed": 0, "seconds": round(time.perf_counter() - t0, 3)}}
    timings["localise"] = time.perf_counter() - t0
    acc.update(found)
    phrase = starts_phrase(found.get("drift_starts") or [], modules or {})
    if phrase:
        old = acc.get("message")
        acc["message"] = with_starts(old, acc.get("verdict"), phrase)
        for w in warnings:
            if w.get("rule") == "numerics-drift" and w.get("message") == old:
                w["message"] = acc["message"]
                (w.get("details") or {})["drift_starts"] = list(found["drift_starts"])
