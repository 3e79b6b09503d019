"""Run and record precompile calls: the studio's own call, and every call a script makes."""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from .classify import classify


@dataclass
class CaptureRecord:
    """One precompile call and what came of it."""

    name: str
    backend: str
    tracer: str
    status: str = "ok"
    violation: dict | None = None
    python_code: str | None = None
    cache: bytes | None = None
    timings: dict[str, float] = field(default_factory=dict)
    exception: BaseException | None = None

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
        return {
            "name": self.name,
            "backend": self.backend,
            "tracer": self.tracer,
            "status": self.status,
            "violation": self.violation,
            "warnings": [],
            "artifact": artifact,
            "graph": None,
            "cache": None,
            "verify": None,
            "timings_s": dict(self.timings),
        }


def run_capture(
    call: Callable[[], Any], name: str, backend: str, tracer: str, script_path: str | None
) -> CaptureRecord:
    """Call precompile through ``call`` and record its result or its exception."""
    rec = CaptureRecord(name=name, backend=backend, tracer=tracer)
    t0 = time.perf_counter()
    try:
        python_code, cache = call()
        rec.python_code, rec.cache = python_code, cache
    except Exception as exc:  # SystemExit / KeyboardInterrupt end the run instead
        rec.status, rec.violation = classify(exc, script_path)
        rec.exception = exc
    finally:
        rec.timings["precompile"] = time.perf_counter() - t0
    return rec


def _display_name(fn: object, index: int, default: str) -> str:
    name = getattr(fn, "__name__", None)
    if not name or name == "<lambda>":
        return f"{default}#{index}"
    return name


class PrecompileRecorder:
    """Context manager that records every torch.compiler.precompile call a script makes.

    It patches ``_PrecompileApi.__call__`` (the class, so references the script took with
    ``from torch.compiler import precompile`` are recorded too) and restores it on exit.
    The script still sees precompile's own results and exceptions.
    """

    def __init__(self, script_path: str, default_name: str, on_start: Callable[[str], None]):
        self.script_path = script_path
        self.default_name = default_name
        self.on_start = on_start
        self.records: list[CaptureRecord] = []
        self._original = None

    def __enter__(self) -> "PrecompileRecorder":
        from torch._precompile import _PrecompileApi

        self._cls = _PrecompileApi
        self._original = original = _PrecompileApi.__call__
        recorder = self

        def recording_call(api, fn, *example_inputs, **kwargs):
            backend = kwargs.get("backend", "inductor")
            tracer = kwargs.get("tracer", "make_fx")
            name = _display_name(fn, len(recorder.records) + 1, recorder.default_name)
            recorder.on_start(name)
            rec = run_capture(
                lambda: original(api, fn, *example_inputs, **kwargs),
                name, str(backend), str(tracer), recorder.script_path,
            )
            recorder.records.append(rec)
            if rec.exception is not None:
                raise rec.exception
            return rec.python_code, rec.cache

        _PrecompileApi.__call__ = recording_call
        return self

    def __exit__(self, *exc_info) -> None:
        self._cls.__call__ = self._original

    def call_original(self, *args, **kwargs):
        """Call precompile itself, bypassing the recording (for the studio's own capture)."""
        import torch

        return self._original(torch.compiler.precompile, *args, **kwargs)


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
