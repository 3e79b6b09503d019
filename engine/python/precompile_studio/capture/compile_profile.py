"""Where one precompile call's time goes: a breakdown by phase and the timed events behind it.

torch times its own compile steps with ``dynamo_timed`` (``torch/_dynamo/utils.py``), also
during precompile, and hands each begin and end event to the module global
``torch._dynamo.utils.record_chromium_event_internal`` (a no-op in open-source torch, looked up
at call time). :class:`CompileProfiler` wraps that global for the duration of one call and adds
spans of its own for what torch does not time: the make_fx trace (``_capture``), the first
imports, building python_code and the cache bytes, inductor's FX graph cache (key, lookup,
save) and ``save_cache_artifacts``. Everything is restored on exit.

:func:`compile_profile` turns the events into phases. Each instant of the calling thread's
time goes to the innermost event that names a phase (an event that names none, such as
``GraphLowering.run``, inherits its parent's); time inside no such event is ``other``, so the
phases always add up to the measured precompile time. ``studio`` is the probe's own share of
the trace (``CaptureProbe.hook_s``), taken out of ``tracing``. Events of other threads (an
asynchronous compile) are kept for the Chrome trace only: the calling thread waits for them
inside a timed event of its own.

Both the hook and the event names are torch internals. Where the hook is missing, only the
studio's own spans are named and ``compile_trace.torch_events`` says so. Nothing here may lose
a capture: every failure leaves a smaller profile, never an exception.
"""
from __future__ import annotations

import builtins
import functools
import importlib
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from precompile_studio.common import internal_errors

PHASES = (
    "tracing",
    "aot_autograd",
    "inductor_lowering",
    "code_generation",
    "cache",
    "imports",
    "studio",
    "other",
)

# torch's dynamo_timed events that name a phase; the others inherit their parent's.
TORCH_PHASES = {
    "create_aot_dispatcher_function": "aot_autograd",
    "_recursive_pre_grad_passes": "inductor_lowering",
    "_recursive_joint_graph_passes": "inductor_lowering",
    "inductor_compile": "inductor_lowering",
    "fx_codegen_and_compile": "inductor_lowering",
    "code_gen": "code_generation",
    "inductor_codecache_torch_key": "cache",
    "CacheBase.get_system.triton_key": "cache",
    "CompiledArtifact.save": "cache",
}

# What the studio times itself: (module, attribute path, phase). A module not yet imported
# when the call starts is wrapped as soon as an import during the call brings it in.
STUDIO_SPANS = (
    ("torch._precompile", "_capture", "tracing"),
    # the AOTAutograd layer's standalone lowering: its own work (a copy of the graph, the module
    # composed from the wrappers) is AOTAutograd's; inside it, compile_fx's outer call is the
    # AOTAutograd pass and torch._inductor.compile_to_python the inner Inductor compile
    ("torch._functorch.aot_autograd", "compile_to_python", "aot_autograd"),
    ("torch._inductor.compile_fx", "compile_fx", "aot_autograd"),
    ("torch._inductor", "compile_to_python", "inductor_lowering"),
    ("torch._precompile", "PrecompiledModule.to_python_code", "code_generation"),
    ("torch._precompile", "PrecompiledModule.to_cache_bytes", "cache"),
    ("torch.compiler", "save_cache_artifacts", "cache"),
    ("torch._inductor.codecache", "FxGraphCache.prepare_key", "cache"),
    ("torch._inductor.codecache", "FxGraphCache.load_with_key", "cache"),
    ("torch._inductor.codecache", "FxGraphCache._save_graph", "cache"),
    ("torch._inductor.standalone_compile", "_runnable_source", "code_generation"),
    ("torch._inductor.standalone_compile", "_acceleration_cache_bytes", "cache"),
    ("torch._functorch._aot_autograd.to_standalone_python", "_compose_standalone_module", "code_generation"),
)

MAX_EVENTS = 4000  # past it the shortest events are left out (compile_trace.dropped)
_HOOK_MODULE = "torch._dynamo.utils"
_HOOK_NAME = "record_chromium_event_internal"


def _inductor_counters() -> dict[str, int]:
    """inductor's FX graph cache counters; all 0 before torch._dynamo is first imported (never
    imported here: that alone takes a second)."""
    mod = sys.modules.get("torch._dynamo.utils")
    if mod is None:
        return {"hit": 0, "miss": 0, "bypass": 0}
    try:
        c = mod.counters["inductor"]
        return {k: int(c.get(f"fxgraph_cache_{k}", 0)) for k in ("hit", "miss", "bypass")}
    except Exception as e:  # noqa: BLE001 - unknown: no cache figures
        internal_errors.record("compile profile: inductor's cache counters", e)
        return {}


# Who hears what a precompile call is doing now (the worker, which sends it as the stage's
# detail so that a long lowering is seen to move); None: nobody.
_listener: Callable[[str], None] | None = None
SAY_EVERY_S = 0.25  # at most four details a second

PHASE_WORDS = {
    "tracing": "tracing",
    "aot_autograd": "AOT autograd",
    "inductor_lowering": "inductor lowering",
    "code_generation": "code generation",
    "cache": "the cache",
}


def listen(listener: Callable[[str], None] | None) -> None:
    """``listener(words)`` hears each new phase or torch event of the precompile calls profiled
    from now on (``None``: stop)."""
    global _listener
    _listener = listener


class CompileProfiler:
    """Context manager around one precompile call; see the module docstring."""

    def __init__(self) -> None:
        self.t0_ns = 0
        self.t1_ns = 0
        self.thread = 0              # native id of the calling thread
        self.torch_events = False    # torch's hook was found and wrapped
        self.raw: list[tuple] = []   # torch's (name, "B"|"E", ns, native tid)
        self.spans: list[tuple] = [] # the studio's (name, phase, start ns, end ns, native tid)
        self.thread_names: dict[int, str] = {}
        self.cache_before: dict[str, int] = {}
        self.cache_after: dict[str, int] = {}
        self.error: str | None = None
        self._restore: list[Callable[[], None]] = []
        self._pending: list[tuple[str, str, str]] = []
        self._importing = False
        self._ident = 0
        self._said = ""
        self._said_at = 0.0

    # ------------------------------------------------------------------ patching
    def __enter__(self) -> CompileProfiler:
        self.t0_ns = time.time_ns()
        self._ident = threading.get_ident()
        self.thread = threading.get_native_id()
        try:
            self.cache_before = _inductor_counters()
            self._pending = list(STUDIO_SPANS)
            self._hook_torch()
            self._wrap_pending()
            self._hook_imports()
        except Exception as e:  # noqa: BLE001 - a profile lost, never the capture
            internal_errors.record("compile profile: setting up the hooks", e)
            self.error = f"{type(e).__name__}: {e}"
        # the hooks' own setup: the studio's time
        self.spans.append(("studio: profiler hooks", "studio", self.t0_ns, time.time_ns(), self.thread))
        return self

    def __exit__(self, *exc) -> None:
        self.t1_ns = time.time_ns()
        while self._restore:
            with internal_errors.survive("compile profile: restoring what the hooks wrapped"):
                self._restore.pop()()
        self.cache_after = _inductor_counters()

    def _say(self, words: str) -> None:
        """Tells the listener what the call does now: on the calling thread, what changed, at
        most every SAY_EVERY_S."""
        listener = _listener
        if listener is None or not words or threading.get_ident() != self._ident or words == self._said:
            return
        now = time.monotonic()
        if now - self._said_at < SAY_EVERY_S:
            return
        self._said, self._said_at = words, now
        with internal_errors.survive("compile profile: saying what the call does"):
            listener(words)

    def _note_thread(self, tid: int) -> None:
        if tid not in self.thread_names:
            self.thread_names[tid] = threading.current_thread().name

    def _hook_torch(self) -> None:
        mod = sys.modules.get(_HOOK_MODULE)
        if mod is None:
            self._pending.append((_HOOK_MODULE, _HOOK_NAME, ""))
            return
        orig = getattr(mod, _HOOK_NAME, None)
        if not callable(orig):
            return
        raw = self.raw
        profiler = self

        def record(event, *a, **kw):
            with internal_errors.survive("compile profile: noting torch's timed event"):
                ph = event.get("ph")
                if ph in ("B", "E"):
                    tid = threading.get_native_id()
                    profiler._note_thread(tid)
                    name = str(event.get("name"))
                    raw.append((name, ph, int(event["ts"] * 1000), tid))
                    if ph == "B" and _listener is not None:
                        phase = TORCH_PHASES.get(name)
                        profiler._say(f"{PHASE_WORDS.get(phase, phase)}: {name}" if phase else name)
            return orig(event, *a, **kw)

        setattr(mod, _HOOK_NAME, record)
        self.torch_events = True
        self._restore.append(lambda: setattr(mod, _HOOK_NAME, orig))

    def _wrap_pending(self) -> None:
        left = []
        for module, path, phase in self._pending:
            mod = sys.modules.get(module)
            if mod is None:
                left.append((module, path, phase))
                continue
            if not phase:  # torch's hook, its module now imported
                self._hook_torch()
                continue
            try:
                self._wrap(mod, path, phase)
            except AttributeError:  # this torch has no such class or function: that span goes unnamed
                pass
            except Exception as e:  # noqa: BLE001 - that span goes unnamed
                internal_errors.record(f"compile profile: timing {module}.{path}", e)
        self._pending = left

    def _wrap(self, mod, path: str, phase: str) -> None:
        *owner_path, attr = path.split(".")
        owner = mod
        for part in owner_path:
            owner = getattr(owner, part)
        raw_attr = owner.__dict__.get(attr) if isinstance(owner, type) else getattr(owner, attr, None)
        if raw_attr is None:
            return
        kind = type(raw_attr) if isinstance(raw_attr, (staticmethod, classmethod)) else None
        fn = raw_attr.__func__ if kind is not None else raw_attr
        if not callable(fn):
            return
        spans = self.spans
        profiler = self
        name = f"{mod.__name__.rsplit('.', 1)[-1]}.{path}"  # e.g. codecache.FxGraphCache._save_graph

        @functools.wraps(fn)
        def timed(*a, **kw):
            profiler._say(PHASE_WORDS.get(phase, phase))
            t0 = time.time_ns()
            try:
                return fn(*a, **kw)
            finally:
                tid = threading.get_native_id()
                profiler._note_thread(tid)
                spans.append((name, phase, t0, time.time_ns(), tid))

        setattr(owner, attr, kind(timed) if kind is not None else timed)
        self._restore.append(lambda: setattr(owner, attr, raw_attr))

    def _hook_imports(self) -> None:
        """Time the outermost import statements of the calling thread that load modules."""
        orig_import = builtins.__import__
        orig_import_module = importlib.import_module
        profiler = self

        def timed_import(real, label, *a, **kw):
            if profiler._importing or threading.get_ident() != profiler._ident:
                return real(*a, **kw)
            n0 = len(sys.modules)
            t0 = time.time_ns()
            profiler._importing = True
            try:
                return real(*a, **kw)
            finally:
                profiler._importing = False
                if len(sys.modules) > n0:
                    profiler.spans.append((f"import {label}", "imports", t0, time.time_ns(), profiler.thread))
                    if profiler._pending:
                        profiler._wrap_pending()

        def import_(name, globals=None, locals=None, fromlist=(), level=0):
            label = name
            if level and isinstance(globals, dict):  # a relative import: its absolute name
                package = str(globals.get("__package__") or "")
                label = ".".join(p for p in (package, name) if p)
            return timed_import(orig_import, label, name, globals, locals, fromlist, level)

        def import_module(name, package=None):
            return timed_import(orig_import_module, name, name, package)

        builtins.__import__ = import_
        importlib.import_module = import_module

        def restore() -> None:
            if builtins.__import__ is import_:
                builtins.__import__ = orig_import
            if importlib.import_module is import_module:
                importlib.import_module = orig_import_module

        self._restore.append(restore)

    # ------------------------------------------------------------------ results
    def events(self) -> list[dict]:
        """Every timed event inside the call, torch's begin/end pairs made whole, clipped to the
        call, in order of start: ``{name, cat, phase, start_ns, end_ns, thread}``."""
        out: list[dict] = []
        open_: dict[int, list[tuple[str, int]]] = {}
        for name, ph, ns, tid in self.raw:
            stack = open_.setdefault(tid, [])
            if ph == "B":
                stack.append((name, ns))
                continue
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == name:
                    start = stack[i][1]
                    del stack[i:]  # an inner event never ended: dropped with it
                    out.append(_event(name, "torch", TORCH_PHASES.get(name), start, ns, tid))
                    break
        for tid, stack in open_.items():  # begun, never ended (the call raised): to its end
            for name, start in stack:
                out.append(_event(name, "torch", TORCH_PHASES.get(name), start, self.t1_ns, tid))
        for name, phase, t0, t1, tid in self.spans:
            out.append(_event(name, "studio", phase, t0, t1, tid))
        lo, hi = self.t0_ns, self.t1_ns
        kept = []
        for e in out:
            e["start_ns"] = max(e["start_ns"], lo)
            e["end_ns"] = min(e["end_ns"], hi)
            if e["end_ns"] > e["start_ns"] or (e["end_ns"] == e["start_ns"] and lo <= e["start_ns"] <= hi):
                kept.append(e)
        # Outer first where two start together, so a stack sweep sees parents before children.
        kept.sort(key=lambda e: (e["thread"], e["start_ns"], -e["end_ns"]))
        _nest(kept)
        kept.sort(key=lambda e: (e["start_ns"], -e["end_ns"]))
        return kept


def _event(name, cat, phase, start, end, tid) -> dict:
    return {"name": name, "cat": cat, "phase": phase, "start_ns": int(start), "end_ns": int(max(start, end)),
            "thread": tid}


def _nest(events: list[dict]) -> None:
    """Clip each event to its parent on the same thread (sorted by thread, start, -end), so that
    every thread's events nest: a child that outlives its parent is cut at the parent's end."""
    stack: list[dict] = []
    thread = None
    for e in events:
        if e["thread"] != thread:
            stack, thread = [], e["thread"]
        while stack and stack[-1]["end_ns"] <= e["start_ns"]:
            stack.pop()
        if stack and e["end_ns"] > stack[-1]["end_ns"]:
            e["end_ns"] = stack[-1]["end_ns"]
        stack.append(e)


def phase_seconds(events: list[dict], thread: int, t0_ns: int, t1_ns: int) -> dict[str, float]:
    """Seconds per named phase on ``thread`` between t0 and t1: each instant to the innermost
    event with a phase (events without one inherit their parent's)."""
    mine = sorted((e for e in events if e["thread"] == thread), key=lambda e: (e["start_ns"], -e["end_ns"]))
    totals = dict.fromkeys(PHASES, 0.0)
    # (event, effective phase, its children's covered ns)
    stack: list[list] = []

    def close(item) -> None:
        e, phase, covered = item
        own = max(0, e["end_ns"] - e["start_ns"] - covered)
        if phase is not None:
            totals[phase] += own / 1e9
        if stack:
            stack[-1][2] += e["end_ns"] - e["start_ns"]

    for e in mine:
        if e["end_ns"] <= t0_ns or e["start_ns"] >= t1_ns:
            continue
        while stack and stack[-1][0]["end_ns"] <= e["start_ns"]:
            close(stack.pop())
        phase = e["phase"] or (stack[-1][1] if stack else None)
        stack.append([e, phase, 0])
    while stack:
        close(stack.pop())
    return totals


def compile_profile(profiler: CompileProfiler, precompile_s: float, studio_s: float = 0.0) -> tuple[list, dict]:
    """The report's ``compile_profile`` (phases adding up to ``precompile_s``) and
    ``compile_trace`` (the events, in seconds from the call's start) of one profiled call."""
    events = profiler.events()
    totals = phase_seconds(events, profiler.thread, profiler.t0_ns, profiler.t1_ns)
    studio = min(max(0.0, studio_s), totals["tracing"])
    totals["tracing"] -= studio
    totals["studio"] += studio
    named = sum(v for k, v in totals.items() if k != "other")
    if named > precompile_s:  # the clocks differ by a hair: never more than was measured
        scale = precompile_s / named if named > 0 else 0.0
        totals = {k: v * scale for k, v in totals.items()}
        named = precompile_s
    totals["other"] = max(0.0, precompile_s - named)
    profile = [{"phase": p, "seconds": round(totals[p], 6)} for p in PHASES if totals[p] > 0 or p == "other"]

    threads = {profiler.thread: 0}
    for e in events:
        threads.setdefault(e["thread"], len(threads))
    if len(events) > MAX_EVENTS:
        keep = sorted(events, key=lambda e: e["end_ns"] - e["start_ns"], reverse=True)[:MAX_EVENTS]
        ids = {id(e) for e in keep}
        dropped = len(events) - len(keep)
        events = [e for e in events if id(e) in ids]
    else:
        dropped = 0
    t0 = profiler.t0_ns
    trace: dict[str, Any] = {
        "torch_events": profiler.torch_events,
        "seconds": round((profiler.t1_ns - t0) / 1e9, 6),
        "threads": [{"id": tid, "name": profiler.thread_names.get(tid, "") if tid != profiler.thread
                     else "precompile", "main": tid == profiler.thread} for tid in threads],
        "events": [{"name": e["name"], "cat": e["cat"], "phase": e["phase"],
                    "start_s": round((e["start_ns"] - t0) / 1e9, 6),
                    "dur_s": round((e["end_ns"] - e["start_ns"]) / 1e9, 6),
                    "thread": threads[e["thread"]]} for e in events],
        "dropped": dropped,
    }
    if profiler.cache_before and profiler.cache_after:
        trace["fxgraph_cache"] = {k: profiler.cache_after.get(k, 0) - profiler.cache_before.get(k, 0)
                                  for k in ("hit", "miss", "bypass")}
    if not profiler.torch_events:
        trace["note"] = ("torch's compile-time events (torch._dynamo.utils.record_chromium_event_internal) "
                         "are not available in this torch: only the studio's own spans are named")
    if profiler.error:
        trace["error"] = profiler.error
    return profile, trace
