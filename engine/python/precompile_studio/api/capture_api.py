"""torch 2.15's precompile: ``capture(fn, artifact_path=, cache_path=, tracer=, backend=)``, a
context manager called once inside its ``with`` block that writes the file pair on exit, and
``load(artifact_path, cache_path)`` (front_end.py has the interface).

The studio's own capture runs a real ``capture`` block into a temporary folder and reads the pair
back, and its loads go through real files, as a user's would. A 2.15 capture also serves the
artifact once on the example arguments (the call's result is the artifact's); the parameters'
``.grad`` that serve scatters are put back, so the studio's capture leaves the arguments as 2.14's
call does (verification starts from the same state on both versions).
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

from precompile_studio.api.front_end import PrecompileFrontEnd, Record, patched, refuse_other_torch, sidecar_report

REWRITE_FROM_CALL = (
    "this script calls torch 2.14's precompile API ({what}) but this environment runs torch "
    "{version}, where torch.compiler.precompile is a module: write `with "
    "torch.compiler.precompile.capture(fn, artifact_path=\"fn.py\", cache_path=\"fn.cache\", "
    "tracer=torch.compiler.precompile.MakeFxTracer(decompositions=...), backend=...) as cap: "
    "cap(*example_inputs)` and `torch.compiler.precompile.load(\"fn.py\", \"fn.cache\")` (or run "
    "it with a torch 2.14 environment)")


class CaptureApi(PrecompileFrontEnd):
    api = "capture-load"

    def __init__(self) -> None:
        from torch._precompile import _MakeFxCapture

        self._cls = _MakeFxCapture
        self._call = _MakeFxCapture.__call__  # the unpatched call

    def capture(self, fn: Callable, args: tuple, *, backend: str, tracer: Any,
                decompositions: Any) -> tuple[str, bytes]:
        from torch.compiler import precompile

        if tracer == "make_fx" or tracer is None:
            tracer = precompile.MakeFxTracer(decompositions=decompositions)
        grads = _parameter_grads(args)
        with tempfile.TemporaryDirectory(prefix="ps-capture-") as folder:
            code_path, cache_path = os.path.join(folder, "fn.py"), os.path.join(folder, "fn.cache")
            try:
                with precompile.capture(fn, artifact_path=code_path, cache_path=cache_path,
                                        tracer=tracer, backend=backend) as cap:
                    cap(*args)
            finally:
                for p, g in grads:
                    p.grad = g
            return self.internals()._read_artifact(code_path, cache_path)  # load's own reader

    def load(self, python_code: str, cache: bytes) -> Callable:
        import torch

        with tempfile.TemporaryDirectory(prefix="ps-load-") as folder:
            code_path, cache_path = os.path.join(folder, "artifact.py"), os.path.join(folder, "artifact.cache")
            with open(code_path, "wb") as f:
                f.write(python_code.encode())
            with open(cache_path, "wb") as f:
                f.write(cache)
            return torch.compiler.precompile.load(code_path, cache_path)

    def load_files(self, artifact_path: str, cache_path: str) -> Callable:
        import torch

        return torch.compiler.precompile.load(artifact_path, cache_path)

    @contextlib.contextmanager
    def recording(self, record: Record) -> Iterator[None]:
        original = self._call

        def recording_call(cap, *args, **kwargs):
            module = cap._module
            box: dict = {}

            def call() -> tuple[str, bytes]:
                box["result"] = original(cap, *args, **kwargs)
                return cap._rendered

            record(module._fn, tuple(args), str(module._backend), str(module._tracer),
                   module._decompositions, call)
            return box.get("result")

        import torch._precompile as internals
        from torch.compiler import precompile

        real_load = internals.load

        def checked_load(artifact_path, cache_path, *args, **kwargs):
            try:
                with open(cache_path, "rb") as f:
                    cache = f.read(64 << 20)
            except (OSError, TypeError):
                cache = b""  # unreadable: load reports it in its own words
            refuse_other_torch(cache, sidecar_report(artifact_path), f"the artifact {os.fspath(artifact_path)!r}")
            return real_load(artifact_path, cache_path, *args, **kwargs)

        with patched(self._cls, "__call__", recording_call), patched(precompile, "load", checked_load), \
                patched(internals, "load", checked_load):
            yield

    def other_api_message(self, exc: BaseException) -> str | None:
        import torch

        text = str(exc)
        version = torch.__version__
        if isinstance(exc, TypeError) and text == "'module' object is not callable" and _called_precompile(exc):
            return REWRITE_FROM_CALL.format(what="torch.compiler.precompile(fn, *example_inputs)", version=version)
        if type(exc).__name__ == "PrecompileError" and text.startswith(
                "precompile could not read the artifact pair (artifact_path='") and (
                "\\n" in text.split("cache_path=", 1)[0] or "Generated by torch.compiler.precompile" in text):
            return REWRITE_FROM_CALL.format(
                what="torch.compiler.precompile.load(python_code, cache) with the pair in memory", version=version)
        return None


def _called_precompile(exc: BaseException) -> bool:
    """Whether the innermost frame's line calls something named precompile."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    import linecache

    line = linecache.getline(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
    return "precompile(" in line.replace(" ", "")


def _parameter_grads(args: tuple) -> list:
    import torch

    out, seen = [], set()
    for a in args:
        if isinstance(a, torch.nn.Module):
            for p in a.parameters():
                if id(p) not in seen:
                    seen.add(id(p))
                    out.append((p, p.grad))
    return out
