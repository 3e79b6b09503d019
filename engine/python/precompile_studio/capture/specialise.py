"""Where a shape specialisation comes from: the line of fn that decided something from a size.

precompile traces fn with the example's sizes as plain integers, so nothing in the artifact
says which line depended on them. When the artifact rejects the runtime inputs' shape
(invariant 3, rule ``input-shape``), :func:`explain_rejection` traces the capture once more,
with the user inputs' sizes as symbols: it calls ``torch._precompile._capture`` (precompile's
own capture, with its reparametrisation and backward harvesting) with ``make_fx`` swapped for a
symbolic trace on fake tensors (parameters and buffers keep static sizes; each user input's dims
are backed symbols, named after the input: ``x.shape[0]``). Every guard torch's ShapeEnv records
during that trace is kept with the frames that asked for it, up to precompile's ``flat_fn``
(a guard made while faking the inputs never reaches it and is dropped), and printed in the
user's names. A guard false at the runtime sizes is why the artifact is not the program fn would
run there: its line is where the rejection points (``if x.shape[0] > 2:``).

The trace is accepted only when it computed what precompile captured: as many tensor ops and
outputs of the same sizes at the example's values. It is tried size-oblivious first (a size-1
example dim stays a symbol), then backed (0/1 sizes static), else it has ``failed`` and the
rejection keeps pointing at the ``runtime_inputs`` line. It runs fn again, on fake tensors:
Python side effects of fn (prints, counters) happen once more. It costs about four traces of
fn, 80 ms at least (measured on this project's CPU machine: 0.08 s for a small function, 1.2-1.5 s
for a torchvision resnet18 in eval mode whose trace takes 0.38 s, 2.8-3.0 s for its training step,
trace 0.75 s). It runs only where a rejection needs
explaining, i.e. on a run that already failed, so it is not one of verification's optional checks
(budget.py) but their allowance is its floor: it runs while ``COST_TRACES`` times the capture's
trace fits in ``FLOOR_S`` or the verification allowance, whichever is larger (``--deep-verify``:
always); otherwise it is ``skipped``, with how to ask for it.

Everything here is torch internals (ShapeEnv, FakeTensorMode, ``_capture``'s ``make_fx``):
where one is missing, the result says so (``failed``) and nothing else changes.
"""
from __future__ import annotations

import linecache
import os
import re
import sys
import time
from collections.abc import Callable
from typing import Any

from precompile_studio.capture.stacks import StackWalker
from precompile_studio.common import internal_errors
from precompile_studio.common.frames import owner
from precompile_studio.common.inputs import leaf_names, leaf_shapes

MAX_GUARDS = 64      # guards reported per capture (the false ones first)
MAX_FRAMES = 12      # frames kept per guard, innermost first
COST_TRACES = 4.0    # the symbolic trace, in real traces of fn (measured 4x on resnet18; for the budget)
FLOOR_S = 10.0       # seconds it may always take (it explains a rejection the run already has)
_SKIP_OPS = frozenset({"aten.sym_size.int", "aten.sym_stride.int", "aten.sym_numel.default",
                       "aten.sym_storage_offset.default", "aten._assert_scalar.default",
                       "aten.sym_constrain_range_for_size.default"})


class _Unsupported(Exception):
    """The capture cannot be traced symbolically here (said in the result's reason)."""


def frames_in_fn(walker: StackWalker, frame) -> list[dict] | None:
    """The user's, packages' and torch.nn's frames from ``frame`` out to precompile's flat_fn
    (capture/stacks.py's choice of frames), innermost first, at most ``MAX_FRAMES``; None where
    the walk never reaches flat_fn (not made inside fn)."""
    walked = walker.walk_in_fn(frame)
    if walked is None:
        return None
    return [{"role": owner(file, module, walker.script_path), "file": file, "line": line, "function": function}
            for file, line, function, module in walked[:MAX_FRAMES]]


def _ops(graph) -> list[str]:
    import torch

    return [str(n.target) for n in graph.nodes if n.op == "call_function"
            and isinstance(n.target, torch._ops.OpOverload) and str(n.target) not in _SKIP_OPS]


def _out_shapes(graph, hint: Callable | None = None) -> list:
    import torch

    out = next((n for n in graph.nodes if n.op == "output"), None)
    if out is None:
        return []
    values = out.args[0] if isinstance(out.args[0], (list, tuple)) else [out.args[0]]
    res = []
    for a in values:
        v = a.meta.get("val") if isinstance(a, torch.fx.Node) else None
        if isinstance(v, torch.Tensor):
            res.append(tuple(int(hint(s)) if hint is not None and isinstance(s, torch.SymInt) else int(s)
                             for s in v.shape))
        else:
            res.append(None)
    return res


def differs(sym_graph, shape_env, real_graph) -> str:
    """'' where the symbolic trace computed what precompile captured (as many tensor ops, outputs
    of the same sizes at the example's values); else what differs."""
    a, b = _ops(real_graph), _ops(sym_graph)
    if len(a) != len(b):
        return f"it traced {len(b)} tensor ops where the capture has {len(a)}"
    ra = _out_shapes(real_graph)
    hint = getattr(shape_env, "guarding_hint_or_throw", None) or shape_env.size_hint  # 2.14, older
    rb = _out_shapes(sym_graph, lambda s: hint(s.node.expr))
    if ra != rb:
        return f"its outputs have sizes {rb} where the capture's have {ra}"
    return ""


class _Trace:
    """One symbolic trace of the capture: the guards made inside fn, with their frames."""

    def __init__(self, script_path: str | None, names: list[str], size_oblivious: bool):
        self.script_path = script_path
        self.names = names
        self.size_oblivious = size_oblivious
        self.stacks: list[list[dict] | None] = []
        self.walker = StackWalker(script_path)
        self.symbols: dict[Any, tuple[int, int]] = {}  # sympy symbol -> (leaf, dim)
        self.shape_env: Any = None
        self.graph: Any = None

    def run(self, fn: Callable, args: tuple, decompositions: Any) -> None:
        from precompile_studio.api.choose import current

        precompile = current().internals()
        import torch.fx.experimental._config as fx_config
        from torch._subclasses.fake_tensor import FakeTensorMode
        from torch.fx.experimental.symbolic_shapes import ShapeEnv

        trace = self
        shape_env = ShapeEnv(duck_shape=False)
        self.shape_env = shape_env

        class Guards(list):
            def append(self, guard):  # noqa: D401 - ShapeEnv's one way of recording a guard
                trace.stacks.append(frames_in_fn(trace.walker, sys._getframe(1)))
                super().append(guard)

        shape_env.guards = Guards()
        fake_mode = FakeTensorMode(shape_env=shape_env, allow_non_fake_inputs=True)
        original = precompile.make_fx
        n_user = len(self.names)

        def symbolic_make_fx(f, decomposition_table=None, tracing_mode="real", **kwargs):
            if tracing_mode != "real":
                raise _Unsupported("the capture marks dims dynamic itself (mark_unbacked)")
            traced = original(f, decomposition_table=decomposition_table, tracing_mode="symbolic", **kwargs)

            def call(flat):
                with fake_mode:
                    gm = traced(trace.fake(fake_mode, flat, len(flat) - n_user))
                trace.graph = gm.graph
                return gm
            return call

        precompile.make_fx = symbolic_make_fx
        try:
            with fx_config.patch(backed_size_oblivious=self.size_oblivious):
                precompile._capture(fn, args, decompositions)
        except Exception:  # noqa: BLE001 - precompile's own checks on the user's fn, judged below
            # precompile's checks after the trace (constants, control flow) passed on the real
            # capture: a trace that finished is judged by what it computed
            if self.graph is None:
                raise
        finally:
            precompile.make_fx = original

    def fake(self, fake_mode, flat: list, num_pb: int) -> list:
        import sympy
        import torch
        from torch._dynamo.source import ConstantSource
        from torch.fx.experimental.symbolic_shapes import DimDynamic, StatelessSymbolicContext

        out = []
        for i, t in enumerate(flat):
            if not isinstance(t, torch.Tensor):
                out.append(t)
            elif i < num_pb:
                out.append(fake_mode.from_tensor(t, static_shapes=True))
            else:
                leaf = i - num_pb
                ft = fake_mode.from_tensor(t, source=ConstantSource(self.names[leaf]),
                                           symbolic_context=StatelessSymbolicContext(
                                               dynamic_sizes=[DimDynamic.DYNAMIC] * t.dim()))
                for d, s in enumerate(ft.shape):
                    if isinstance(s, torch.SymInt) and isinstance(s.node.expr, sympy.Symbol):
                        self.symbols[s.node.expr] = (leaf, d)
                out.append(ft)
        return out


def _code(file: str, line: int) -> str:
    return linecache.getline(file, line).strip()


def _at_runtime(expr, symbols: dict, runtime: list | None) -> bool | None:
    """Whether the guard holds at the runtime sizes; None where it cannot be told."""
    import sympy

    if runtime is None:
        return None
    sub = {}
    for sym in expr.free_symbols:
        leaf, dim = symbols.get(sym, (None, None))
        shape = runtime[leaf] if leaf is not None and leaf < len(runtime) else None
        if shape is None or dim >= len(shape):
            return None
        sub[sym] = sympy.Integer(shape[dim])
    value = expr.xreplace(sub)
    if value in (sympy.true, sympy.false):
        return bool(value)
    return None


def _guard(g, stack: list[dict], trace: _Trace, printer, user_names: dict, runtime: list | None) -> dict:
    """One guard for the report; "_at" (its value at the runtime sizes, None: unknown) is taken out
    before it goes there."""
    frames = [{**fr, "code": _code(fr["file"], fr["line"])} for fr in stack]
    mine = next((fr for fr in frames if fr["role"] == "user"), None)
    at = _at_runtime(g.expr, trace.symbols, runtime)
    return {
        "expr": printer.doprint(g.expr.xreplace(user_names)),
        "location": {"file": mine["file"], "line": mine["line"], "code": mine["code"]} if mine else None,
        "stack": frames,
        "false_at_runtime": at is False,
        "_at": at,
    }


def trace_guards(fn: Callable, args: tuple, argnames: list[str], script_path: str | None, real_graph,
                 decompositions: Any = None, runtime: list | None = None) -> dict:
    """The specialisation dict: {status: found|none|failed, mode, reason?, guards, seconds}.

    ``runtime``: the runtime inputs' leaf shapes (leaf_shapes); a guard false there is "found".
    """
    t0 = time.perf_counter()
    try:
        import sympy
        from torch.utils._sympy.printers import PythonPrinter

        names = leaf_names(tuple(args), argnames)
    except Exception as e:  # noqa: BLE001 - torch internals moved: said, nothing else changes
        internal_errors.record("specialise: the symbolic trace's set-up", e)
        return {"status": "failed", "reason": f"torch's symbolic shapes are not available here: {_why(e)}",
                "guards": [], "seconds": round(time.perf_counter() - t0, 3)}
    attempts = []
    trace = None
    for size_oblivious in (True, False):
        mode = "size-oblivious" if size_oblivious else "backed (sizes 0 and 1 static)"
        t = _Trace(script_path, names, size_oblivious)
        try:
            t.run(fn, tuple(args), decompositions)
        except _Unsupported as e:
            return {"status": "failed", "reason": str(e), "guards": [],
                    "seconds": round(time.perf_counter() - t0, 3)}
        except Exception as e:  # noqa: BLE001 - fn may do anything on fake tensors
            value_at = _value_decision(e, script_path)
            if value_at:  # the same in any mode: no other attempt
                return {"status": "failed", "reason": f"the symbolic trace failed: {value_at}", "guards": [],
                        "seconds": round(time.perf_counter() - t0, 3)}
            attempts.append(f"{mode}: {_why(e)}")
            continue
        why = differs(t.graph, t.shape_env, real_graph) if real_graph is not None else ""
        if why:
            attempts.append(f"{mode}: {why}")
            continue
        trace = t
        break
    seconds = round(time.perf_counter() - t0, 3)
    if trace is None:
        return {"status": "failed", "reason": "the symbolic trace failed: " + "; ".join(attempts),
                "guards": [], "seconds": seconds}
    user_names = {sym: sympy.Symbol(f"{names[leaf]}.shape[{dim}]") for sym, (leaf, dim) in trace.symbols.items()}
    printer = PythonPrinter()
    guards = [_guard(g, stack, trace, printer, user_names, runtime)
              for g, stack in zip(trace.shape_env.guards, trace.stacks)
              if stack is not None and g.expr.free_symbols]
    guards.sort(key=lambda g: not g["false_at_runtime"])  # stable: the false ones first, in order
    found = any(g["false_at_runtime"] for g in guards)
    undecided = sum(1 for g in guards if g.pop("_at") is None) if runtime is not None else 0
    out = {"status": "found" if found else "none", "mode": mode, "guards": guards[:MAX_GUARDS],
           "seconds": round(time.perf_counter() - t0, 3)}
    if undecided:
        out["undecided"] = undecided
    if len(guards) > MAX_GUARDS:
        out["guards_left_out"] = len(guards) - MAX_GUARDS
    if attempts:
        out["attempts"] = attempts
    return out


def _value_decision(e: BaseException, script_path: str | None) -> str:
    """'fn decides something from a tensor's value at s.py:10 (`if peak > 1.0:`) ...' where the trace
    ended on a guard on a value read out of a tensor (precompile words that as a mark_unbacked dim,
    its only case; here it is a .tolist() or .item() value); "" otherwise."""
    try:
        from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode
    except ImportError:  # pragma: no cover - torch internals moved
        return ""
    seen: set[int] = set()
    cause: BaseException | None = e
    while cause is not None and id(cause) not in seen and not isinstance(cause, GuardOnDataDependentSymNode):
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    if cause is None or id(cause) in seen:
        return ""
    at = ""
    tb = cause.__traceback__
    while tb is not None:
        f = tb.tb_frame
        if owner(f.f_code.co_filename, f.f_globals.get("__name__"), script_path) == "user":
            code = _without_comment(_code(f.f_code.co_filename, tb.tb_lineno))
            at = f" at {os.path.basename(f.f_code.co_filename)}:{tb.tb_lineno}" + (f" (`{code}`)" if code else "")
        tb = tb.tb_next
    return (f"fn decides something from a tensor's value{at}, which a trace with symbolic sizes cannot follow "
            "(the artifact is specialised to that value too)")


def _why(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:200] if text else ''}".rstrip(": ")


def _without_comment(code: str) -> str:
    """The line's code without its trailing comment (the line itself where it does not tokenize)."""
    import io
    import tokenize

    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT:
                return code[:tok.start[1]].rstrip() or code
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return code


def _where(loc: dict) -> str:
    return f"{os.path.basename(loc['file'])}:{loc['line']}"


def _sizes(names: list[str], runtime: list | None, guard: dict) -> str:
    """'x.shape[0] = 4': the runtime sizes the guard's expression names."""
    if not runtime:
        return ""
    parts = []
    for leaf, shape in enumerate(runtime):
        if shape is None or leaf >= len(names):
            continue
        for d, size in enumerate(shape):
            key = f"{names[leaf]}.shape[{d}]"
            if key in guard["expr"]:
                parts.append(f"{key} = {size}")
    return ", ".join(parts)


def explain(violation: dict, spec: dict, names: list[str], runtime: list | None,
            caller: str = "runtime_inputs") -> None:
    """Point an input-shape rejection at the guard the runtime sizes break (status found), or say
    that nothing in fn depends on them (none); the runtime_inputs line stays in
    details.runtime_location. A failed or skipped trace leaves the location as it was."""
    details = violation.setdefault("details", {})
    details["runtime_location"] = violation.get("location")
    details["specialisation"] = {k: spec.get(k) for k in ("status", "reason") if spec.get(k)}
    if spec["status"] == "found":
        broken = [g for g in spec["guards"] if g["false_at_runtime"]]
        g = next((g for g in broken if g["location"]), broken[0])  # one the user can go to, first
        loc = g["location"] or {}
        sizes = _sizes(names, runtime, g)
        details["guard"] = g["expr"]
        if loc:
            violation["location"] = {"file": loc["file"], "line": loc["line"]}
        inner = (g.get("stack") or [None])[0]
        if loc:
            code = f"`{_without_comment(loc['code'])}` at {_where(loc)}" if loc.get("code") else _where(loc)
            if inner and (inner["file"], inner["line"]) != (loc["file"], loc["line"]):
                code += f" (through {_where(inner)} in {inner['function']})"
        else:  # made below the user's code only (fn is a module): the rejection stays at runtime_inputs
            code = f"{_where(inner)} in {inner['function']}" if inner else "a line torch did not name"
        violation["summary"] = (
            f"the artifact holds only the path fn took for {g['expr']}: {code} decided it while tracing"
            + (f", and {caller} pass{'es' if caller != 'runtime_inputs' else ''} {sizes}" if sizes else "")
            + "; retrace with the runtime shape (one artifact per shape)")
        violation["fix"] = (
            "Trace with the shapes the artifact will be called with (one artifact per shape that takes "
            "another path), or make the choice with tensor ops that work for every size; mark_unbacked "
            "cannot help here: fn decides something from that size.")
    elif spec["status"] == "none":
        held = spec.get("guards") or []
        if spec.get("undecided"):
            what = (f"{spec['undecided']} of fn's {len(held)} size checks cannot be judged at these sizes "
                    "(another number of dims), none of the others is broken")
        elif held:
            what = f"every size check fn's code made ({len(held)}, e.g. {held[0]['expr']}) still holds at these sizes"
        else:
            what = "fn's code decides nothing from its input sizes"
        violation["summary"] = (
            f"{what}: the artifact rejects them only because precompile captures static shapes; "
            "retrace for this shape, or mark the dim with mark_unbacked (inductor)")


_SHAPES = re.compile(r"has shape \(([-\d, ]*)\) but the artifact was traced with shape \(([-\d, ]*)\)")


def runtime_from_message(message: str, example: list) -> list | None:
    """The runtime leaf shapes an input-shape message implies: the example's, with the one leaf of
    the traced shape it names at the shape it was called with; None where the message names no
    shapes or more than one leaf has the traced shape (which one was rejected is not known)."""
    m = _SHAPES.search(message or "")
    if not m:
        return None

    def shape(text: str) -> tuple[int, ...]:
        return tuple(int(p) for p in text.replace(" ", "").split(",") if p)

    got, traced = shape(m.group(1)), shape(m.group(2))
    leaves = [i for i, s in enumerate(example) if s == traced]
    if len(leaves) != 1:
        return None
    out = list(example)
    out[leaves[0]] = got
    return out


def explain_rejection(rec: Any, runtime: list | None, allowance_s: float | None) -> dict | None:
    """The capture's specialisation for an input-shape rejection of its runtime inputs, with the
    rejection pointed at it (explain); None where there was no such rejection. ``allowance_s``:
    the verification budget's allowance (None: unlimited)."""
    rt = (rec.verify or {}).get("runtime") or {}
    violation = rt.get("violation")
    if rt.get("status") != "violation" or not violation or violation.get("rule") != "input-shape":
        return None
    return _explain(rec, violation, runtime, allowance_s)


def explain_script_rejection(rec: Any, violation: dict | None, allowance_s: float | None) -> dict | None:
    """The same for the script's own call of a loaded artifact (the run's violation), where the
    script made one capture: the runtime sizes are read from precompile's message; None where the
    violation is no input-shape rejection or the capture's fn and inputs are not kept."""
    if not violation or violation.get("rule") != "input-shape" or rec.fn is None or rec.snapshot is None:
        return None
    try:
        runtime = runtime_from_message(violation.get("message", ""), leaf_shapes(tuple(rec.snapshot)))
    except Exception as e:  # noqa: BLE001 - unknown sizes: the guards are listed, none judged
        internal_errors.record("specialise: the runtime sizes from precompile's message", e)
        runtime = None
    if runtime is None:
        spec = {"status": "failed", "guards": [],
                "reason": ("which input the script's call passed at another shape is not known from "
                           "precompile's message")}
        violation.setdefault("details", {})["specialisation"] = {"status": "failed", "reason": spec["reason"]}
        return spec
    return _explain(rec, violation, runtime, allowance_s, caller="the script's call")


def _explain(rec: Any, violation: dict, runtime: list | None, allowance_s: float | None,
             caller: str = "runtime_inputs") -> dict:
    estimate = COST_TRACES * rec.timings.get("trace", 0.0)
    if allowance_s is not None and estimate > max(FLOOR_S, allowance_s):
        spec = {"status": "skipped", "guards": [],
                "reason": (f"the symbolic trace (about {estimate:.2g} s) is over its budget "
                           f"({max(FLOOR_S, allowance_s):.2g} s); run with --deep-verify for it")}
    else:
        probe = rec.probe
        real = None
        if probe is not None:
            real = probe.gm.graph if probe.gm is not None else probe.graph
        try:
            spec = trace_guards(rec.fn, rec.snapshot, rec.argnames, rec.context.script_path if rec.context else None,
                                real, rec.decomposition_table, runtime)
        except Exception as e:  # noqa: BLE001 - never lose the capture over it
            internal_errors.record("specialise: the symbolic trace", e)
            spec = {"status": "failed", "reason": f"the symbolic trace failed: {_why(e)}", "guards": []}
    try:
        names = leaf_names(tuple(rec.snapshot), rec.argnames)
    except Exception as e:  # noqa: BLE001 - the guards are said without the inputs' names
        internal_errors.record("specialise: the inputs' names", e)
        names = []
    explain(violation, spec, names, runtime, caller)
    return spec
