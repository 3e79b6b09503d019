"""torch 2.14's precompile: ``precompile(fn, *example_inputs) -> (python_code, cache)`` and
``precompile.load(python_code, cache)`` (front_end.py has the interface)."""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from precompile_studio.api.front_end import PrecompileFrontEnd, Record, patched, refuse_other_torch

REWRITE_FROM_CAPTURE = (
    "this script uses torch 2.15's precompile API (torch.compiler.precompile.capture / "
    "MakeFxTracer / load(artifact_path, cache_path)) but this environment runs torch {version}, "
    "whose precompile is a callable: write `python_code, cache = torch.compiler.precompile(fn, "
    "*example_inputs, backend=..., decompositions=...)` and `torch.compiler.precompile.load("
    "python_code, cache)` (or run it with a torch 2.15 environment)")


class CallApi(PrecompileFrontEnd):
    api = "precompile-call"

    def __init__(self) -> None:
        from torch._precompile import _PrecompileApi

        self._cls = _PrecompileApi
        self._call = _PrecompileApi.__call__  # the unpatched call, for the studio's own capture

    def capture(self, fn: Callable, args: tuple, *, backend: str, tracer: str,
                decompositions: Any) -> tuple[str, bytes]:
        import torch

        return self._call(torch.compiler.precompile, fn, *args, backend=backend, tracer=tracer,
                          decompositions=decompositions)

    def load(self, python_code: str, cache: bytes) -> Callable:
        import torch

        return torch.compiler.precompile.load(python_code, cache)

    def load_files(self, artifact_path: str, cache_path: str) -> Callable:
        import torch

        with open(artifact_path, encoding="utf-8") as f:
            python_code = f.read()
        with open(cache_path, "rb") as f:
            cache = f.read()
        return torch.compiler.precompile.load(python_code, cache)

    @contextlib.contextmanager
    def recording(self, record: Record) -> Iterator[None]:
        # The class is patched, so references the script took (`from torch.compiler import
        # precompile`) are recorded too.
        original = self._call

        def recording_call(api, fn, *example_inputs, **kwargs):
            return record(fn, tuple(example_inputs), str(kwargs.get("backend", "inductor")),
                          str(kwargs.get("tracer", "make_fx")), kwargs.get("decompositions"),
                          lambda: original(api, fn, *example_inputs, **kwargs))

        real_load = self._cls.load

        def checked_load(api, python_code, cache, *args, **kwargs):
            if isinstance(cache, (bytes, bytearray)):
                refuse_other_torch(bytes(cache), None, "the artifact")
            return real_load(api, python_code, cache, *args, **kwargs)

        with patched(self._cls, "__call__", recording_call), patched(self._cls, "load", checked_load):
            yield

    def other_api_message(self, exc: BaseException) -> str | None:
        import torch

        text = str(exc)
        if isinstance(exc, AttributeError) and "_PrecompileApi" in text and any(
                f"'{name}'" in text for name in ("capture", "MakeFxTracer", "Capture", "PrecompiledRunnable")):
            return REWRITE_FROM_CAPTURE.format(version=torch.__version__)
        return None
