"""Load an artifact as a reload on this machine would (the API's front end: api/front_end.py),
timed, its log classified, a failure classified as a violation or an error. ``no_cache_envelope``
is the same cache without its kernel bundle, for the from-scratch reload of ``--deep-verify``
(loaded in a fresh Inductor cache dir: every kernel compiled again)."""
from __future__ import annotations

import contextlib
import hashlib
import io
import time

from precompile_studio.api.choose import current
from precompile_studio.common.outcomes import Status
from precompile_studio.contract.precompile_log import captured, message_of
from precompile_studio.contract.violations import Context, classify_exception, classify_warning

DEEP_ONLY = ("the from-scratch reload (no kernel bundle, fresh Inductor caches: every kernel "
             "compiled again) runs only with --deep-verify")


@contextlib.contextmanager
def _fresh_inductor(enabled: bool):
    if not enabled:
        yield
        return
    from torch._inductor.utils import fresh_cache

    with fresh_cache():
        yield


def no_cache_envelope(cache: bytes, python_code: str, backend: str) -> bytes:
    """The same envelope without the kernel bundle: load() then has nothing to prime."""
    import torch

    try:
        blob = torch.load(io.BytesIO(cache), weights_only=True)
        blob = dict(blob)
    except Exception:  # noqa: BLE001 - the pair's cache (maybe the script's own) is unreadable: a bare envelope
        internals = current().internals()
        blob = {"format": internals._CACHE_FORMAT, "version": internals._CACHE_VERSION, "backend": backend,
                "code_hash": hashlib.sha256(python_code.encode()).hexdigest()}
    blob["artifact"] = None
    buf = io.BytesIO()
    torch.save(blob, buf)
    return buf.getvalue()


def load_artifact(python_code: str, cache: bytes, ctx: Context | None = None, fresh: bool = False):
    """(callable or None, seconds, violation or None, warnings) of precompile.load."""
    warnings: list[dict] = []
    ctx = ctx or Context()
    records: list = []
    with captured(records.append):
        t0 = time.perf_counter()
        try:
            with _fresh_inductor(fresh):
                f = current().load(python_code, cache)
            err = None
        except Exception as exc:  # noqa: BLE001 - every load failure is reported
            f = None
            ctx.phase = "load"
            _contract, err = classify_exception(exc, ctx)
            err["status"] = Status.VIOLATION if _contract else Status.ERROR
        dt = time.perf_counter() - t0
    warnings.extend(classify_warning(message_of(r)) for r in records)
    return f, dt, err, warnings
