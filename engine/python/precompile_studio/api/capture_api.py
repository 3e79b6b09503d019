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
import sys
import tempfile
import types
from collections.abc import Callable, Iterator
from typing import Any

from precompile_studio.api.front_end import OtherApiError, PrecompileFrontEnd, Record, patched

REWRITE_FROM_CALL = (
    "this script calls torch 2.14's precompile API ({what}) but this environment runs torch "
    "{version}, where torch.compiler.precompile is a module: write `with "
    "torch.compiler.precompile.capture(fn, artifact_path=\"fn.py\", cache_path=\"fn.cache\", "
    "tracer=torch.compiler.precompile.MakeFxTracer(decompositions=...), backend=...) as cap: "
    "cap(*example_inputs)` and `torch.compiler.precompile.load(\"fn.py\", \"fn.cache\")` (or run "
    "it with a torch 2.14 environment)")


class CaptureApi(PrecompileFrontEnd):
    api = "capture-load"
    describe = ("torch.compiler.precompile.capture(fn, artifact_path=, cache_path=) as cap: cap(*inputs); "
                "torch.compiler.precompile.load(artifact_path, cache_path)")

    def __init__(self) -> None:
        from torch._precompile import _MakeFxCapture

        self._cls = _MakeFxCapture
        self._call = _MakeFxCapture.__call__  # the unpatched call

    def capture(self, fn: Callable, args: tuple, *, backend: str, tracer: Any,
                decompositions: Any) -> tuple[str, bytes]:
        import torch
        from torch.compiler import precompile

        if tracer == "make_fx" or tracer is None:
            tracer = precompile.MakeFxTracer(decompositions=decompositions)
        grads = _parameter_grads(args)
        with tempfile.TemporaryDirectory(prefix="ps-capture-") as folder:
            code_path, cache_path = os.path.join(folder, "fn.py"), os.path.join(folder, "fn.cache")
            try:
                with precompile.capture(fn, artifact_path=code_path, cache_path=cache_path,
                                        tracer=tracer, backend=backend) as cap:
                    cap._studio_original_call = True  # noqa: SLF001 - not recorded a second time
                    cap(*args)
            finally:
                with torch.no_grad():
                    for p, g in grads:
                        p.grad = g
            return _read_pair(code_path, cache_path)

    def load(self, python_code: str, cache: bytes) -> Callable:
        import torch

        with tempfile.TemporaryDirectory(prefix="ps-load-") as folder:
            code_path, cache_path = os.path.join(folder, "artifact.py"), os.path.join(folder, "artifact.cache")
            with open(code_path, "wb") as f:
                f.write(python_code.encode())
            with open(cache_path, "wb") as f:
                f.write(cache)
            return torch.compiler.precompile.load(code_path, cache_path)

    @contextlib.contextmanager
    def recording(self, record: Record) -> Iterator[None]:
        original = self._call

        def recording_call(cap, *args, **kwargs):
            if getattr(cap, "_studio_original_call", False):
                return original(cap, *args, **kwargs)
            module = cap._module
            box: dict = {}

            def call() -> tuple[str, bytes]:
                box["result"] = original(cap, *args, **kwargs)
                return cap._rendered

            record(module._fn, tuple(args), str(module._backend), str(module._tracer),
                   module._decompositions, call)
            return box.get("result")

        with patched(self._cls, "__call__", recording_call):
            yield

    @contextlib.contextmanager
    def other_api_guard(self) -> Iterator[None]:
        import torch

        module = sys.modules["torch.compiler.precompile"]
        version = torch.__version__
        load = module.load

        class CallableModule(types.ModuleType):
            def __call__(self, *_a, **_kw):
                raise OtherApiError(REWRITE_FROM_CALL.format(
                    what="torch.compiler.precompile(fn, *example_inputs)", version=version))

        def guarded_load(artifact_path, cache_path, *a, **kw):
            if isinstance(cache_path, (bytes, bytearray)) or (isinstance(artifact_path, str) and "\n" in artifact_path):
                raise OtherApiError(REWRITE_FROM_CALL.format(
                    what="torch.compiler.precompile.load(python_code, cache) with the pair in memory",
                    version=version))
            return load(artifact_path, cache_path, *a, **kw)

        before = module.__class__
        module.__class__ = CallableModule
        try:
            with patched(module, "load", guarded_load):
                yield
        finally:
            module.__class__ = before


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


def _read_pair(code_path: str, cache_path: str) -> tuple[str, bytes]:
    with open(code_path, "rb") as f:
        python_code = f.read().decode()
    with open(cache_path, "rb") as f:
        return python_code, f.read()
