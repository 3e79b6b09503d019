"""One front end per precompile API, behind one interface; the rest of the worker calls this.

torch 2.14's ``torch.compiler.precompile`` is a callable, ``precompile(fn, *example_inputs)``
returning ``(python_code, cache)``, with ``precompile.load(python_code, cache)``
(call_api.py). torch 2.15 made it a module: ``capture(fn, artifact_path=, cache_path=)``, a
context manager called once inside its ``with`` block that writes the file pair on exit, and
``load(artifact_path, cache_path)`` (capture_api.py). Both share the internals the studio
watches (``torch._precompile._capture`` calling the module's ``make_fx``, the cache envelope),
reached through :meth:`PrecompileFrontEnd.internals` so that no other module imports them by
version.

:func:`precompile_studio.api.choose.current` picks the front end.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

# record(fn, args, backend, tracer, decompositions, call) -> (python_code, cache): what a
# front end's recording hands each capture a script makes; ``call()`` runs the capture itself
# and returns the pair; record raises the capture's own exception when it failed.
Record = Callable[[Callable, tuple, str, str, Any, Callable[[], tuple[str, bytes]]], tuple[str, bytes]]


class OtherApiError(TypeError):
    """A script called the precompile API of the other torch version (one line: both APIs and
    the rewrite); classified by the rule ``other-precompile-api``."""


class OtherTorchArtifactError(ValueError):
    """A script loads a pair that another torch series made (one line: which torch made it and
    this one); classified by the rule ``artifact-other-torch``."""


# The largest report beside an artifact that is read to name the torch that made it (the
# library's export writes NAME.json beside NAME.py; ArtifactFiles::kMaxReportBytes).
MAX_REPORT_BYTES = 128 << 20

APIS = {"precompile-call": ("2.14", "precompile(fn, *example_inputs)"),
        "capture-load": ("2.15", "capture(...) / load(artifact_path, cache_path)")}


def series(version: str) -> str:
    """'2.15.0+cu132' -> '2.15'."""
    return ".".join(version.split("+")[0].split(".")[:2])


def maker(cache: bytes, report: dict | None) -> tuple[str, str] | None:
    """(the torch that made a pair in words, its series), where it can be told: the report the
    studio exported beside it names the torch (worker.torch, else provenance.torch.version);
    otherwise the cache envelope names the API (torch 2.15 writes a ``tracer`` field, 2.14 does
    not); None where neither can be read (precompile's own load reports what it finds)."""
    import io

    if isinstance(report, dict):
        worker = report.get("worker") if isinstance(report.get("worker"), dict) else {}
        prov = report.get("provenance") if isinstance(report.get("provenance"), dict) else {}
        version = worker.get("torch") or (prov.get("torch") or {}).get("version")
        if isinstance(version, str) and version:
            return f"torch {version}", series(version)
    try:
        import torch

        blob = torch.load(io.BytesIO(cache), weights_only=True)
    except Exception:  # noqa: BLE001 - unreadable bytes (the user's pair): load says so itself
        return None
    if not isinstance(blob, dict) or blob.get("format") != "torch.compiler.precompile":
        return None
    api = "capture-load" if "tracer" in blob else "precompile-call"
    made, words = APIS[api]
    return f"torch {made}'s {words} (its cache {'has' if api == 'capture-load' else 'has no'} tracer field)", made


def refuse_other_torch(cache: bytes, report: dict | None, what: str) -> None:
    """Raises OtherTorchArtifactError when the pair ``what`` was made by another torch series than
    this one: precompile does not check which torch made an artifact (its kernels and graph code
    were generated for that torch)."""
    import torch

    made = maker(cache, report)
    here = series(torch.__version__)
    if made is None or made[1] == here:
        return
    raise OtherTorchArtifactError(
        f"{what} was made by {made[0]} and this environment runs torch {torch.__version__}: precompile "
        f"does not check which torch made an artifact, so load it with torch {made[1]} (--python-env) "
        "or capture it again here")


def sidecar_report(artifact_path: str) -> dict | None:
    """The report the studio's export wrote beside NAME.py (NAME.json), if any and readable."""
    import json
    import os

    path = os.path.splitext(os.fspath(artifact_path))[0] + ".json"
    try:
        if os.path.getsize(path) > MAX_REPORT_BYTES:
            return None
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError, TypeError):
        return None
    return report if isinstance(report, dict) else None


class PrecompileFrontEnd:
    """What the worker needs of one precompile API."""

    api: str = ""  # "precompile-call" (2.14) or "capture-load" (2.15): the report's words

    def capture(self, fn: Callable, args: tuple, *, backend: str, tracer: str,
                decompositions: Any) -> tuple[str, bytes]:
        """The studio's own capture of ``fn(*args)``: (python_code, cache). It leaves the
        arguments as it found them (parameters' ``.grad`` included)."""
        raise NotImplementedError

    def load(self, python_code: str, cache: bytes) -> Callable:
        """The artifact loaded as a user's reload would load it."""
        raise NotImplementedError

    def load_files(self, artifact_path: str, cache_path: str) -> Callable:
        """The pair exported as two files (NAME.py, NAME.cache) loaded as a user's server loads
        it with this torch's own API, nothing of the studio's in between."""
        raise NotImplementedError

    def recording(self, record: Record) -> contextlib.AbstractContextManager:
        """For a script's run: every capture it makes through the public API goes through
        ``record``; the script still sees the API's own results and exceptions. Every load it
        makes of a pair another torch series made is refused (refuse_other_torch)."""
        raise NotImplementedError

    def other_api_message(self, exc: BaseException) -> str | None:
        """When ``exc`` is what this torch raises for a call of the other version's API (a bare
        ``'module' object is not callable``, a missing attribute, a path that is python_code):
        one line naming both APIs with the rewrite; else None. Read after the fact, so a script
        that asks which API it has (``callable(...)``, ``hasattr(...)``) is told the truth."""
        return None

    def other_api_error(self, exc: BaseException) -> BaseException:
        """``exc``, or an OtherApiError with its message and traceback (the script's line)."""
        message = self.other_api_message(exc)
        if message is None:
            return exc
        return OtherApiError(message).with_traceback(exc.__traceback__)

    @staticmethod
    def internals():
        """torch._precompile: ``_capture``, the ``make_fx`` it calls, ``_intern_param_buffers``,
        the cache envelope's ``_CACHE_FORMAT`` / ``_CACHE_VERSION`` (the same in both APIs)."""
        import torch._precompile as internals

        return internals


@contextlib.contextmanager
def patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    """``owner.name = value`` for the block; what was there (or its absence) comes back."""
    missing = object()
    before = owner.__dict__.get(name, missing) if hasattr(owner, "__dict__") else getattr(owner, name, missing)
    setattr(owner, name, value)
    try:
        yield
    finally:
        if before is missing:
            with contextlib.suppress(AttributeError):
                delattr(owner, name)
        else:
            setattr(owner, name, before)
