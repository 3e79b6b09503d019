"""The contract checker: what precompile does not enforce, found and reported as warnings.

precompile's make_fx capture is a non-strict trace: whatever fn computed in Python from the
example is baked into the artifact (invariant 3), and precompile rejects only what it can
see cheaply in the graph. The checker looks for the rest, without changing what is captured:

(a) value reads, during the trace. Every point where a traced tensor's value became a
    Python value -- ``bool(t)``, ``.item()``, ``.tolist()``, ``.numpy()``, ``int(t)``,
    ``float(t)``, ``t.__index__()`` -- is recorded with the user's line. What make_fx does
    with them in torch 2.14 (tracing_mode="real", checked by tests/python/test_checker.py):
    ``bool()``, ``.item()``, ``int()``, ``float()``, ``__index__`` and ``torch.equal`` go
    through ``aten._local_scalar_dense`` / ``aten.equal`` and make_fx RAISES ("It appears
    that you're trying to get value out of a tracing tensor") -- the capture then ends in
    the "data-dependent-value" violation at that line, and the checker adds nothing. But
    ``.tolist()`` and ``.numpy()`` read the data without dispatching an op: make_fx lets
    them through and the value is SILENTLY baked; so is a refused read whose exception fn
    caught. Those are the "value-to-python" warnings. Ops whose output size depends on the
    values (nonzero, boolean-mask indexing, masked_select, unique, ...) are recorded in the
    graph with the example's size, and shapes are static: "data-dependent-size" warnings.
(b) perturbed inputs, after verification (when the example itself matched): the loaded
    artifact and eager fn run side by side on inputs of the example's spec -- same shapes,
    dtypes, strides and aliasing; fresh values (floats drawn with the example's mean and
    spread, then negated, then scaled by 0.01; ints and bools shuffled, so labels stay
    valid); models deep-copied with their weights -- under the same RNG seed. A difference
    means something was baked from the example's values: a "perturbed-divergence" warning
    (invariant 3).
(c) Python scalars (int / float / bool) that fn -- or a function or nn.Module method of the
    user's it reaches -- reads from outside itself (globals, closure cells): baked as
    constants at capture, so changing them later does not change the artifact:
    "closed-over-scalar" warnings (invariant 1, everything live is an input). Found by a
    static walk of the bytecode from fn and each user module class's forward, following
    the user's functions and the methods that code names (never __init__, which runs
    before the capture).

Each warning is {invariant, rule, message, fix, location} (plus details). The checker never
warns about model attributes (``self.eps``, ``self.training``): they are architecture, and
a clean MLP, a training step and a BatchNorm model give no warning at all.
"""
from __future__ import annotations

import contextlib
import dis
import inspect
import os
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from precompile_studio.common import internal_errors
from precompile_studio.common.frames import library_file

FIX_VALUE = ("Keep the value in tensor ops (torch.where instead of a Python branch, tensor "
             "arithmetic instead of Python numbers), or compute it outside fn and pass it in "
             "as an input.")
FIX_SIZE = ("Keep shapes independent of the values: select with a mask and torch.where (or "
            "multiply by the mask) instead of nonzero / boolean indexing, or do the selection "
            "outside fn.")
FIX_SCALAR = ("Pass it to fn as an input (a 0-d tensor) if it can change between calls; if it "
              "is a true constant, write it as a literal inside fn.")

_METHODS = {
    # name on torch.Tensor: how the report spells it
    "item": ".item()",
    "tolist": ".tolist()",
    "numpy": ".numpy()",
    "__bool__": "bool()",
    "__int__": "int()",
    "__float__": "float()",
    "__index__": "an index / range() (__index__)",
    "__complex__": "complex()",
}


# --------------------------------------------------------------------------- (a) value reads
@dataclass
class ValueRead:
    method: str
    file: str | None
    line: int | None
    raised: bool
    value: str | None = None
    symbolic: bool = False
    error: BaseException | None = None


def _short(v: Any, limit: int = 60) -> str:
    try:
        s = repr(v)
    except Exception:  # noqa: BLE001 - the value's own repr raised (a user type): its type instead
        s = f"<{type(v).__name__}>"
    return s if len(s) <= limit else s[: limit - 3] + "..."


def _is_symbolic(v: Any) -> bool:
    import torch

    if isinstance(v, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return True
    if isinstance(v, (list, tuple)):
        return any(_is_symbolic(x) for x in v)
    return False


class UserFrames:
    """Finds the innermost frame of the user's code (the script, or any non-library file)."""

    def __init__(self, script_path: str | None):
        self.script = os.path.realpath(script_path) if script_path else None
        self._cache: dict[int, tuple[Any, bool]] = {}

    def is_user(self, code) -> bool:
        e = self._cache.get(id(code))
        if e is not None and e[0] is code:
            return e[1]
        fn = code.co_filename
        v = (self.script is not None and fn == self.script) or not library_file(fn)
        if not v and self.script is not None and not fn.startswith("<"):
            v = os.path.realpath(fn) == self.script
        self._cache[id(code)] = (code, v)
        return v

    def is_user_file(self, filename: str | None) -> bool:
        if not filename:
            return False
        if self.script is not None and os.path.realpath(filename) == self.script:
            return True
        return not library_file(filename)

    def innermost(self, depth: int = 2) -> tuple[str | None, int | None]:
        f = sys._getframe(depth)
        while f is not None:
            if self.is_user(f.f_code):
                return f.f_code.co_filename, f.f_lineno
            f = f.f_back
        return None, None


class ValueReadRecorder:
    """Wraps the Tensor methods that turn a value into Python, for the trace only.

    The wrappers call the original method and return (or raise) exactly what it does; they
    add no op to the graph. Only reads of tensors the make_fx tracer tracks (not constants)
    are recorded, and a read made inside another recorded read (``bool()`` -> ``.item()``
    in make_fx's own is_nonzero handling) counts once.
    """

    def __init__(self, frames: UserFrames):
        self.frames = frames
        self.reads: list[ValueRead] = []
        self._depth = 0

    def _traced(self, t) -> bool:
        import torch
        from torch.fx.experimental import proxy_tensor as pt

        if not isinstance(t, torch.Tensor):
            return False
        mode = pt.get_proxy_mode()
        if mode is None:
            return False
        slot = pt.get_proxy_slot(t, mode.tracer, None)
        if slot is None:
            return False
        return getattr(slot, "constant", None) is None

    def _wrap(self, name: str, orig: Callable) -> Callable:
        rec = self

        def wrapper(self_t, *a, **kw):
            if rec._depth:
                return orig(self_t, *a, **kw)
            rec._depth += 1
            try:
                try:
                    traced = rec._traced(self_t)
                except Exception as e:  # noqa: BLE001 - never get in the way of the trace
                    internal_errors.record("checker: whether a value read is of a traced tensor", e)
                    traced = False
                if not traced:
                    return orig(self_t, *a, **kw)
                file, line = rec.frames.innermost(2)
                try:
                    out = orig(self_t, *a, **kw)
                except BaseException as e:  # the read itself raised (fn's trace): noted and raised on
                    rec.reads.append(ValueRead(name, file, line, True, error=e))
                    raise
                with internal_errors.survive("checker: noting a value read"):
                    rec.reads.append(ValueRead(name, file, line, False, _short(out), _is_symbolic(out)))
                return out
            finally:
                rec._depth -= 1

        wrapper.__name__ = getattr(orig, "__name__", name)
        wrapper.__doc__ = getattr(orig, "__doc__", None)
        return wrapper

    @contextlib.contextmanager
    def active(self):
        import torch

        cls = torch.Tensor
        saved: list[tuple[str, bool, Any]] = []
        try:
            for name in _METHODS:
                own = name in cls.__dict__
                orig = getattr(cls, name, None)
                if orig is None:
                    continue
                saved.append((name, own, cls.__dict__.get(name)))
                setattr(cls, name, self._wrap(name, orig))
            yield self
        finally:
            for name, own, value in reversed(saved):
                if own:
                    setattr(cls, name, value)
                else:
                    try:
                        delattr(cls, name)
                    except AttributeError:
                        pass


def value_read_warnings(reads: list[ValueRead], capture_ok: bool) -> list[dict]:
    """Warnings for the reads whose value was baked into the artifact."""
    if not capture_ok:
        # No artifact: a refused read is already the capture's violation.
        return []
    out: list[dict] = []
    seen: set = set()
    for r in reads:
        if r.symbolic:
            continue  # an unbacked symbol (mark_unbacked capture): not baked
        key = (r.method, r.file, r.line)
        if key in seen:
            continue
        seen.add(key)
        how = _METHODS.get(r.method, r.method)
        if r.raised:
            msg = (f"{how} on a traced tensor was refused by make_fx "
                   f"({type(r.error).__name__}), and fn caught the error: the artifact keeps "
                   "the path fn took after catching it, for every input")
        else:
            msg = (f"{how} read a traced tensor's value into Python ({r.value} for the "
                   "example) without any op in the graph: the artifact keeps that value, and "
                   "every branch or size computed from it, for every input")
        out.append({
            "invariant": 3,
            "rule": "value-to-python",
            "message": msg,
            "fix": FIX_VALUE,
            "location": {"file": r.file, "line": int(r.line)} if r.file and r.line else None,
            "details": {"read": how, "value": r.value, "refused": r.raised},
        })
    return out


def _index_is_mask(node) -> bool:
    """aten.index.Tensor has a value-dependent size only with a bool / uint8 index."""
    import torch

    idx = node.args[1] if len(node.args) > 1 else None
    if not isinstance(idx, (list, tuple)):
        return False
    for i in idx:
        val = getattr(i, "meta", {}).get("val") if i is not None else None
        if isinstance(val, torch.Tensor) and val.dtype in (torch.bool, torch.uint8):
            return True
    return False


def data_dependent_size_warnings(probe) -> list[dict]:
    """Graph nodes whose output size depends on the input values (tag dynamic_output_shape)."""
    import torch

    gm = probe.gm if probe is not None else None
    if gm is None:
        return []
    out: list[dict] = []
    seen: set = set()
    for node in gm.graph.nodes:
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            continue
        if torch.Tag.dynamic_output_shape not in node.target.tags:
            continue
        if node.target is torch.ops.aten.index.Tensor and not _index_is_mask(node):
            continue
        ni = probe.info.get(node)
        loc = {"file": ni.file, "line": int(ni.line)} if ni is not None and ni.line else None
        op = str(node.target)
        key = (op, loc["line"] if loc else None)
        if key in seen:
            continue
        seen.add(key)
        val = node.meta.get("val")
        shape = None
        if isinstance(val, torch.Tensor):
            shape = list(val.shape)
        elif isinstance(val, (list, tuple)) and val and isinstance(val[0], torch.Tensor):
            shape = list(val[0].shape)
        size = f" ({shape} for the example)" if shape is not None else ""
        out.append({
            "invariant": 3,
            "rule": "data-dependent-size",
            "message": (f"node {node.name} ({op}) has an output size that depends on the "
                        f"input values{size}; shapes are static in the artifact, so whatever "
                        "was traced from that size assumes the example's"),
            "fix": FIX_SIZE,
            "location": loc,
            "details": {"node": node.name, "op": op, "shape": shape},
        })
    return out


# --------------------------------------------------------------------------- (c) scalars
_LOAD_GLOBAL = {"LOAD_GLOBAL", "LOAD_NAME"}
_LOAD_DEREF = {"LOAD_DEREF", "LOAD_CLASSDEREF"}
_LOAD_ATTR = {"LOAD_ATTR", "LOAD_METHOD"}
_SCALARS = (int, float, bool)


def _code_objects(code: types.CodeType):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _code_objects(c)


def _as_function(v) -> types.FunctionType | None:
    """The function behind a class attribute (method, static/class method, property getter)."""
    if isinstance(v, (staticmethod, classmethod)):
        v = v.__func__
    elif isinstance(v, property):
        v = v.fget
    return v if isinstance(v, types.FunctionType) else None


def _user_classes(fn, args, frames: UserFrames) -> list[type]:
    """The user's nn.Module classes among the arguments (and their submodules)."""
    import torch

    mods = [a for a in (args or ()) if isinstance(a, torch.nn.Module)]
    if isinstance(fn, torch.nn.Module):
        mods.append(fn)
    classes: list[type] = []
    for a in mods:
        for m in a.modules():
            for cls in type(m).__mro__:
                if cls in classes or cls.__module__.split(".")[0] == "torch":
                    continue
                try:
                    file = inspect.getsourcefile(cls)
                except (TypeError, OSError):
                    file = None
                if frames.is_user_file(file):
                    classes.append(cls)
    return classes


def _entry_points(fn, classes: list[type]) -> list[types.FunctionType]:
    """Where the trace enters the user's code: fn itself and each user class's forward."""
    import functools

    found: list[types.FunctionType] = []
    target = fn
    while isinstance(target, functools.partial):
        target = target.func
    if isinstance(target, types.MethodType):
        target = target.__func__
    if isinstance(target, types.FunctionType):
        found.append(target)
    for cls in classes:
        fwd = vars(cls).get("forward")
        if isinstance(fwd, types.FunctionType):
            found.append(fwd)
    return found


def _methods_by_name(classes: list[type]) -> dict[str, list[types.FunctionType]]:
    """{name: the functions the user's classes define under it}: what ``x.name`` may call."""
    methods: dict[str, list[types.FunctionType]] = {}
    for cls in classes:
        for name, v in vars(cls).items():
            f = _as_function(v)
            if f is not None:
                methods.setdefault(name, []).append(f)
    return methods


def _cells(func: types.FunctionType) -> dict[str, Any]:
    """func's free variables and their values (an empty cell is left out)."""
    cells = {}
    if func.__closure__:
        for name, cell in zip(func.__code__.co_freevars, func.__closure__):
            try:
                cells[name] = cell.cell_contents
            except ValueError:  # an empty cell
                pass
    return cells


def _outside_reads(func: types.FunctionType, methods: dict[str, list[types.FunctionType]],
                   frames: UserFrames) -> tuple[list[tuple], list[types.FunctionType]]:
    """([(code, instruction, name, value, "global" | "closure")] of the Python scalars func's
    code reads from outside it, [the functions to walk next: the user's methods its code names
    and the user's functions it reads]), each in the order of the code."""
    g = func.__globals__
    cells = _cells(func)
    reads: list[tuple] = []
    follow: list[types.FunctionType] = []
    for co in _code_objects(func.__code__):
        for ins in dis.get_instructions(co):
            if ins.opname in _LOAD_ATTR:
                follow.extend(methods.get(ins.argval, ()))
                continue
            name = ins.argval
            if ins.opname in _LOAD_GLOBAL:
                if name not in g:
                    continue
                value, kind = g[name], "global"
            elif ins.opname in _LOAD_DEREF:
                # Nested code reads fn's own locals through cells too; only fn's free
                # variables come from outside it.
                if name not in cells or name == "__class__":
                    continue
                value, kind = cells[name], "closure"
            else:
                continue
            if isinstance(value, types.FunctionType):
                if frames.is_user_file(value.__code__.co_filename):
                    follow.append(value)  # a helper of the user's: what it reads counts too
                continue
            if type(value) in _SCALARS:
                reads.append((co, ins, name, value, kind))
    return reads, follow


def _line_of(ins) -> int | None:
    pos = getattr(ins, "positions", None)
    if pos is not None and pos.lineno:
        return pos.lineno
    return ins.starts_line or None


def _scalar_warning(func: types.FunctionType, co: types.CodeType, ins, name: str, value: Any, kind: str) -> dict:
    line = _line_of(ins)
    scope = "a global" if kind == "global" else "a closure variable"
    return {
        "invariant": 1,
        "rule": "closed-over-scalar",
        "message": (f"fn reads the Python {type(value).__name__} `{name}` "
                    f"(= {_short(value)}) from outside it ({scope} read by "
                    f"{func.__qualname__}): its value at capture is baked into the "
                    "artifact as a constant, and changing it later does not change "
                    "the artifact"),
        "fix": FIX_SCALAR,
        "location": {"file": co.co_filename, "line": int(line)} if line else None,
        "details": {"name": name, "value": _short(value), "scope": kind,
                    "function": func.__qualname__},
    }


def closed_over_scalar_warnings(fn, args, frames: UserFrames, limit: int = 200) -> list[dict]:
    """Python int/float/bool values read from outside fn (globals, closure cells)."""
    if fn is None:
        return []
    # A static walk from the entry points: a user class's other methods are followed only
    # where the code reached so far names them (self.helper(x)), so __init__ and the like,
    # which run before the capture, are never read.
    classes = _user_classes(fn, args, frames)
    todo = _entry_points(fn, classes)
    methods = _methods_by_name(classes)
    visited: set[int] = set()
    hits: dict[tuple[str, int], dict] = {}  # one warning per name and scope, the first read's
    while todo and len(visited) < limit:
        func = todo.pop(0)
        code = func.__code__
        if id(code) in visited:
            continue
        visited.add(id(code))
        if not frames.is_user_file(code.co_filename):
            continue
        reads, follow = _outside_reads(func, methods, frames)
        todo.extend(follow)
        for co, ins, name, value, kind in reads:
            key = (name, id(func.__globals__) if kind == "global" else id(func))
            if key not in hits:
                hits[key] = _scalar_warning(func, co, ins, name, value, kind)
    return list(hits.values())


# --------------------------------------------------------------------------- the session
@dataclass
class CheckSession:
    """The checker's state for one capture: enter ``trace()`` around make_fx, then ask."""

    script_path: str | None
    enabled: bool = True
    frames: UserFrames = field(init=False)
    reads: ValueReadRecorder = field(init=False)

    def __post_init__(self):
        self.frames = UserFrames(self.script_path)
        self.reads = ValueReadRecorder(self.frames)

    def trace(self):
        if not self.enabled:
            return contextlib.nullcontext()
        return self.reads.active()

    def capture_warnings(self, probe, capture_ok: bool) -> list[dict]:
        """(a) and (c): the findings of the capture itself."""
        if not self.enabled or not capture_ok:
            return []
        out = value_read_warnings(self.reads.reads, capture_ok)
        with internal_errors.survive("checker: data-dependent sizes"):  # never lose the capture
            out += data_dependent_size_warnings(probe)
        with internal_errors.survive("checker: closed-over scalars"):
            out += closed_over_scalar_warnings(probe.fn, probe.args, self.frames)
        return out


