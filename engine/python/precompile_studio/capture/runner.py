"""Run and record precompile calls: the studio's own call, and every call a script makes.

Each call runs inside a :class:`~precompile_studio.probe.CaptureProbe`, which holds the
GraphModule precompile captured (and lowered) and the user lines and module paths of its
nodes. After the call, the record is filled: graph, lowering map, cache contents and the
classified violation; :func:`verify_record` then loads and checks the artifact.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from precompile_studio.capture.cache_inspect import inspect_cache
from precompile_studio.capture.compile_profile import CompileProfiler, compile_profile
from precompile_studio.capture.graph import extract_graph
from precompile_studio.capture.lowering import map_python_code
from precompile_studio.capture.probe import CaptureProbe, arg_names
from precompile_studio.common import internal_errors
from precompile_studio.common.calls import fresh_copy
from precompile_studio.common.devices import tensor_devices
from precompile_studio.common.inputs import nested_input_error
from precompile_studio.common.outcomes import Status, VerifyStatus
from precompile_studio.contract.checker import CheckSession
from precompile_studio.contract.classify import classify
from precompile_studio.contract.violations import Context
from precompile_studio.script.provenance import describe_decompositions, describe_inputs
from precompile_studio.verify.outcome import capture_outcome


@dataclass
class CaptureRecord:
    """One precompile call and what came of it."""

    name: str
    backend: str
    tracer: str
    status: Status = Status.OK
    violation: dict | None = None
    python_code: str | None = None
    cache: bytes | None = None
    timings: dict[str, float] = field(default_factory=dict)
    exception: BaseException | None = None
    warnings: list[dict] = field(default_factory=list)
    graph: dict | None = None
    lowering: dict | None = None
    cache_info: dict | None = None
    verify: dict | None = None
    inputs: dict | None = None  # the example inputs' structure (provenance.py)
    devices: list[str] | None = None  # the example tensors' devices, in order of first appearance
    decompositions: dict | None = None
    specialisation: dict | None = None  # where a shape rejection comes from (specialise.py)
    compile_profile: list | None = None  # [{phase, seconds}] adding up to timings["precompile"]
    compile_trace: dict | None = None    # the timed events behind it (compile_profile.py)
    profile: dict | None = None          # run --profile: where a call's time goes (verify/profile.py)
    cold_start: dict | None = None       # run --cold-start: the start-up ledger (deploy/cold_start.py)
    # kept until verification, then dropped
    fn: Callable | None = None
    snapshot: tuple | None = None
    snapshot_error: str | None = None
    argnames: list[str] = field(default_factory=list)
    probe: CaptureProbe | None = None
    context: Context | None = None
    checker: CheckSession | None = None
    decomposition_table: Any = None  # the table itself, for the symbolic trace (specialise.py)

    def to_report(self, files: dict | None = None) -> dict:
        artifact = None
        if self.python_code is not None and self.cache is not None:
            code_bytes = self.python_code.encode()
            artifact = {
                "python_code_sha256": hashlib.sha256(code_bytes).hexdigest(),
                "python_code_bytes": len(code_bytes),
                "cache_sha256": hashlib.sha256(self.cache).hexdigest(),
                "cache_bytes": len(self.cache),
            }
            if files:
                artifact["files"] = files
        # The status says what came of the whole capture, verification included;
        # "violation" stays the capture-time one (outcome.py).
        status, outcome = capture_outcome(self.status, self.violation, self.verify)
        return {
            "name": self.name,
            "backend": self.backend,
            "tracer": self.tracer,
            "status": status,
            "outcome": outcome,
            "violation": self.violation,
            "warnings": list(self.warnings),
            "artifact": artifact,
            "graph": self.graph,
            "lowering": self.lowering,
            "cache": self.cache_info,
            "verify": self.verify,
            "inputs": self.inputs,
            "devices": self.devices,
            "decompositions": self.decompositions,
            "timings_s": dict(self.timings),
            **({"specialisation": self.specialisation} if self.specialisation is not None else {}),
            "compile_profile": self.compile_profile,
            "compile_trace": self.compile_trace,
            **({"profile": self.profile} if self.profile is not None else {}),
            **({"cold_start": self.cold_start} if self.cold_start is not None else {}),
        }

    def release(self) -> None:
        """Drop the references to the user's objects (model, inputs, graph)."""
        self.fn = None
        self.snapshot = None
        self.probe = None
        self.context = None
        self.checker = None
        self.decomposition_table = None


def run_capture(
    call: Callable[[], Any],
    name: str,
    backend: str,
    tracer: str,
    script_path: str | None,
    *,
    fn: Callable | None = None,
    args: tuple | None = None,
    source: Any = None,
    snapshot: bool = False,
    on_lower: Callable[[], None] | None = None,
    check: bool = True,
    share_parameters: bool = False,
    decompositions: Any = None,
) -> CaptureRecord:
    """Call precompile through ``call`` and record its result or its exception.

    ``snapshot``: keep a deep copy of the arguments for verification, taken before precompile
    runs; ``share_parameters``: the copy shares the models' parameters (the studio's own call,
    where nothing but precompile touches the arguments before verification).
    """
    rec = CaptureRecord(name=name, backend=backend, tracer=tracer, fn=fn)
    if args is not None:
        rec.argnames = arg_names(fn, len(args)) if fn is not None else [f"arg{i}" for i in range(len(args))]
        try:
            rec.inputs = describe_inputs(tuple(args), rec.argnames)
        except Exception as e:  # noqa: BLE001 - a report without it beats no report
            internal_errors.record("capture: describing the example inputs", e)
            rec.inputs = {"entries": [], "truncated": False, "error": f"{type(e).__name__}: {e}"}
        try:
            rec.devices = tensor_devices(tuple(args))
        except Exception as e:  # noqa: BLE001 - unknown: null in the report
            internal_errors.record("capture: the example inputs' devices", e)
            rec.devices = None
    rec.decompositions = describe_decompositions(decompositions)
    rec.decomposition_table = decompositions
    if snapshot and args is not None:
        try:
            rec.snapshot = fresh_copy(tuple(args), share_parameters=share_parameters)
        except Exception as e:  # noqa: BLE001 - the user's inputs refuse to be copied: said in the report
            rec.snapshot_error = f"the example inputs cannot be copied: {type(e).__name__}: {e}"
    probe = CaptureProbe(script_path, on_lower=on_lower, backend=str(backend), devices=rec.devices)
    rec.probe = probe
    checker = CheckSession(script_path, enabled=check)
    probe.trace_contexts.append(checker.trace)
    rec.checker = checker
    profiler = CompileProfiler()
    t0 = time.perf_counter()
    exc_out: BaseException | None = None
    try:
        with profiler, probe:
            python_code, cache = call()
        rec.python_code, rec.cache = python_code, cache
    except Exception as exc:  # precompile's outcome (SystemExit / KeyboardInterrupt end the run instead)
        exc_out = exc
    finally:
        rec.timings["precompile"] = time.perf_counter() - t0
    try:
        rec.compile_profile, rec.compile_trace = compile_profile(
            profiler, rec.timings["precompile"], probe.hook_s)
    except Exception as e:  # noqa: BLE001 - a profiling bug must not lose the capture
        internal_errors.record("capture: the compile profile", e)
        rec.compile_profile, rec.compile_trace = None, None
    ctx = Context(
        script_path=script_path,
        source=source,
        probe=probe,
        fn=fn if fn is not None else probe.fn,
        name_lines=getattr(source, "definitions", None),
    )
    rec.context = ctx

    # The extraction allocates a few dicts per node. With torch loaded the heap holds
    # hundreds of thousands of objects, and a full (generation 2) collection that those
    # allocations happen to trigger costs 0.3-1 s -- a collection torch's own allocation
    # churn would run anyway. Keep it out of this window (it runs after, when due).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        _extract(rec, probe, backend, exc_out, script_path, ctx)
    finally:
        if gc_was_enabled:
            gc.enable()
    rec.timings["trace"] = probe.trace_s
    rec.timings["studio_overhead"] = (
        probe.hook_s + rec.timings["extract"] + rec.timings["inspect_cache"] + rec.timings["classify"]
        + rec.timings["checker"]
    )
    return rec


def _extract(rec: CaptureRecord, probe: CaptureProbe, backend: str, exc_out, script_path, ctx) -> None:
    t1 = time.perf_counter()
    try:
        rec.graph = extract_graph(probe)
    except Exception as e:  # noqa: BLE001 - a report without a graph beats no report
        internal_errors.record("capture: extracting the graph", e)
        rec.graph = {"error": f"{type(e).__name__}: {e}"}
    t1b = time.perf_counter()
    rec.timings["extract_graph"] = t1b - t1
    try:
        rec.lowering = map_python_code(rec.python_code, str(backend), probe)
    except Exception as e:  # noqa: BLE001 - a report without the lowering beats no report
        internal_errors.record("capture: mapping python_code to the graph", e)
        rec.lowering = {"error": f"{type(e).__name__}: {e}"}
    t2 = time.perf_counter()
    rec.timings["extract_lowering"] = t2 - t1b
    rec.timings["extract"] = t2 - t1
    try:
        rec.cache_info = inspect_cache(rec.cache, rec.python_code)
    except Exception as e:  # noqa: BLE001 - a report without the cache's contents beats no report
        internal_errors.record("capture: reading the cache", e)
        rec.cache_info = {"error": f"{type(e).__name__}: {e}"}
    t3 = time.perf_counter()
    rec.timings["inspect_cache"] = t3 - t2
    if exc_out is not None:
        exc_out = nested_input_error(exc_out, tuple(probe.args or ()), probe.argnames)
        rec.status, rec.violation = classify(exc_out, script_path, ctx)
        rec.exception = exc_out
    t4 = time.perf_counter()
    rec.timings["classify"] = t4 - t3
    if rec.checker is not None:
        with internal_errors.survive("checker: the capture's warnings"):  # never lose the capture
            rec.warnings.extend(rec.checker.capture_warnings(probe, exc_out is None))
    rec.timings["checker"] = time.perf_counter() - t4


def verify_record(
    rec: CaptureRecord,
    *,
    runtime_inputs: Callable[[], tuple] | None = None,
    runtime_location: dict | None = None,
    deep: bool = False,
    profile: bool = False,
) -> None:
    """Load the record's artifact and compare it with eager fn; fills rec.verify.

    ``deep``: every check without a budget, and the from-scratch reload (--deep-verify);
    ``profile``: then profile the verified artifact's calls (run --profile): rec.profile.
    """
    from precompile_studio.common.state import graph_may_mutate
    from precompile_studio.verify.pipeline import run_verify

    if rec.python_code is None or rec.cache is None:
        return
    if rec.fn is None or rec.snapshot is None:
        rec.verify = {"ran": False, "status": VerifyStatus.SKIPPED,
                      "reason": rec.snapshot_error or "the example inputs were not kept"}
        return
    t0 = time.perf_counter()
    ctx = rec.context or Context()
    runtime_shapes: list = []
    try:
        result, timings, warnings = run_verify(
            fn=rec.fn,
            snapshot=rec.snapshot,
            python_code=rec.python_code,
            cache=rec.cache,
            backend=rec.backend,
            argnames=rec.argnames,
            runtime_inputs=_shapes_kept(runtime_inputs, runtime_shapes),
            context=Context(script_path=ctx.script_path, source=ctx.source, fn=rec.fn,
                            name_lines=ctx.name_lines),
            runtime_location=runtime_location,
            perturb=rec.checker is not None and rec.checker.enabled,
            perturb_location=_perturb_location(rec, ctx),
            deep=deep,
            work_s=rec.timings.get("script", 0.0) + rec.timings.get("precompile", 0.0),
            may_mutate=_may_mutate(rec, graph_may_mutate),
            devices=rec.devices,
            profile=_profiler(rec) if profile else None,
            graph=rec.graph if isinstance(rec.graph, dict) else None,
        )
    except Exception as e:  # noqa: BLE001 - a bug here must not lose the capture
        from precompile_studio.common.errors import describe

        internal_errors.record("verify: the verification", e)
        result, timings, warnings = {"ran": True, "status": VerifyStatus.ERROR, "matches_eager": None,
                                     "error": describe(e, ctx.script_path)}, {}, []
    rec.verify = result
    rec.timings.update(timings)
    rec.timings["verify"] = time.perf_counter() - t0
    rec.warnings.extend(warnings)
    _localise(rec)
    if profile and rec.profile is None:
        rec.profile = {"calls": 0, "kernels": [], "error": (
            f"not profiled: verification ended before the artifact could be called "
            f"({(rec.verify or {}).get('status')})")}
    _specialisation(rec, runtime_shapes[0] if runtime_shapes else None)


def _profiler(rec: CaptureRecord) -> Callable[[Callable, tuple], None]:
    """The hook run_verify calls last: the artifact's calls profiled into rec.profile (timed)."""
    def profile(f: Callable, args: tuple) -> None:
        from precompile_studio.verify.profile import profile_artifact

        t0 = time.perf_counter()
        rec.profile = profile_artifact(f, args, rec.lowering, rec.backend, rec.timings.get("call"),
                                       rec.devices or ())
        rec.timings["profile"] = time.perf_counter() - t0
    return profile


def _shapes_kept(runtime_inputs: Callable[[], tuple] | None, into: list) -> Callable[[], tuple] | None:
    """runtime_inputs, noting the shapes of the arguments it returns (for specialise.py)."""
    if runtime_inputs is None:
        return None

    def call() -> tuple:
        from precompile_studio.common.inputs import leaf_shapes

        args = runtime_inputs()
        with internal_errors.survive("verify: the runtime inputs' shapes"):  # unknown: guards not judged
            into.append(leaf_shapes(tuple(args)))
        return args
    return call


def _localise(rec: CaptureRecord) -> None:
    """Where a drift or a mismatch starts, per graph node (verify/localise.py), timed."""
    from precompile_studio.verify.load import load_artifact
    from precompile_studio.verify.localise import localise_verified

    try:
        modules = {n.get("name"): (n.get("module") or {}).get("path") for n in (rec.graph or {}).get("node_list") or []}
    except Exception as e:  # noqa: BLE001 - the summary names nodes without their modules
        internal_errors.record("localise: the graph nodes' modules", e)
        modules = {}
    localise_verified(rec.verify, rec.timings, rec.warnings, gm=getattr(rec.probe, "gm", None),
                      snapshot=rec.snapshot, seed=(rec.verify or {}).get("seed") or 0, backend=str(rec.backend),
                      load=lambda: load_artifact(rec.python_code, rec.cache)[0], python_code=rec.python_code,
                      lowering=rec.lowering, modules=modules)


def _specialisation(rec: CaptureRecord, runtime_shapes: list | None) -> None:
    """A runtime shape rejection pointed at the line of fn behind it (specialise.py), timed."""
    from precompile_studio.capture.specialise import explain_rejection

    t0 = time.perf_counter()
    try:
        allowance = ((rec.verify or {}).get("budget") or {}).get("allowance_s")
        rec.specialisation = explain_rejection(rec, runtime_shapes, allowance)
    except Exception as e:  # noqa: BLE001 - a bug here must not lose the capture
        internal_errors.record("specialise: explaining the shape rejection", e)
        rec.specialisation = {"status": "failed", "reason": f"{type(e).__name__}: {e}", "guards": []}
    if rec.specialisation is not None:
        rec.timings["specialise"] = time.perf_counter() - t0


def _may_mutate(rec: CaptureRecord, graph_may_mutate) -> bool | None:
    try:
        return graph_may_mutate(rec.probe)
    except Exception as e:  # noqa: BLE001 - unknown: verification copies the arguments
        internal_errors.record("verify: whether the graph writes to its inputs", e)
        return None


def _perturb_location(rec: CaptureRecord, ctx: Context) -> dict | None:
    """Where a divergence on perturbed inputs points: the first baked value, else fn."""
    for w in rec.warnings:
        if w.get("invariant") == 3 and w.get("location"):
            return w["location"]
    from precompile_studio.contract.violations import _fn_location

    try:
        return _fn_location(rec.fn, ctx.source) if rec.fn is not None else None
    except Exception as e:  # noqa: BLE001 - the divergence is said without a line
        internal_errors.record("checker: where fn is defined", e)
        return None


def _call_site(script_path: str | None) -> dict | None:
    """{file, line} of the innermost frame on the stack in the script (else in the user's code)."""
    import sys

    from precompile_studio.common.frames import library_file

    script = os.path.realpath(script_path) if script_path else None
    f = sys._getframe(1)
    fallback = None
    while f is not None:
        name = f.f_code.co_filename
        if script is not None and not name.startswith("<") and os.path.realpath(name) == script:
            return {"file": name, "line": f.f_lineno}
        if fallback is None and not name.startswith("<") and not library_file(name):
            fallback = {"file": name, "line": f.f_lineno}
        f = f.f_back
    return fallback


def _display_name(fn: object, index: int, default: str) -> str:
    name = getattr(fn, "__name__", None)
    if not name or name == "<lambda>":
        return f"{default}#{index}"
    return name


class PrecompileRecorder:
    """Context manager that records every capture a script makes through torch's precompile API.

    The API's front end (api/front_end.py) routes each capture through ``_record`` (torch 2.14:
    each ``torch.compiler.precompile(...)`` call; 2.15: each call of a ``capture`` block). The
    script still sees precompile's own results and exceptions.
    """

    def __init__(
        self,
        script_path: str,
        default_name: str,
        on_start: Callable[[str], None],
        on_lower: Callable[[str], None] | None = None,
        snapshot: bool = False,
        check: bool = True,
    ):
        self.script_path = script_path
        self.check = check
        self.default_name = default_name
        self.on_start = on_start
        self.on_lower = on_lower
        self.snapshot = snapshot
        self.source: Any = None  # the ScriptSource, once read (definition lines for locations)
        self.records: list[CaptureRecord] = []
        self._stack: contextlib.ExitStack | None = None

    def __enter__(self) -> PrecompileRecorder:
        from precompile_studio.api.choose import current

        stack = contextlib.ExitStack()
        stack.enter_context(current().recording(self._record))
        self._stack = stack
        return self

    def __exit__(self, *exc_info) -> None:
        if self._stack is not None:
            self._stack.close()
            self._stack = None

    def _record(self, fn, args: tuple, backend: str, tracer: str, decompositions,
                call: Callable[[], tuple[str, bytes]]) -> tuple[str, bytes]:
        name = _display_name(fn, len(self.records) + 1, self.default_name)
        self.on_start(name)
        lower = (lambda: self.on_lower(name)) if self.on_lower else None
        rec = run_capture(
            call, name, backend, tracer, self.script_path,
            fn=fn, args=args, source=self.source,
            snapshot=self.snapshot, on_lower=lower, check=self.check,
            decompositions=decompositions,
        )
        if rec.violation is not None and not rec.violation.get("location"):
            # a refusal of the call itself (2.15: a second call in a capture block) is at the
            # script's line that made it
            rec.violation["location"] = _call_site(self.script_path)
        self.records.append(rec)
        if rec.exception is not None:
            raise rec.exception
        return rec.python_code, rec.cache

    @staticmethod
    def call_original(fn, *args, backend: str, tracer: str, decompositions=None) -> tuple[str, bytes]:
        """The studio's own capture through the API's front end (never recorded)."""
        from precompile_studio.api.choose import current

        return current().capture(fn, tuple(args), backend=backend, tracer=tracer,
                                 decompositions=decompositions)


def write_artifact(rec: CaptureRecord, out_dir: str, index: int) -> dict | None:
    """Write python_code and cache byte-exact under out_dir; return their paths."""
    if rec.python_code is None or rec.cache is None or not out_dir:
        return None
    os.makedirs(out_dir, exist_ok=True)
    code_path = os.path.join(out_dir, f"capture-{index}.py")
    cache_path = os.path.join(out_dir, f"capture-{index}.cache")
    with open(code_path, "wb") as f:
        f.write(rec.python_code.encode())
    with open(cache_path, "wb") as f:
        f.write(rec.cache)
    return {"python_code": code_path, "cache": cache_path}
