"""Decide whether an exception from a precompile call is a contract outcome or an error.

A contract outcome (status "violation") is what precompile's programming model answers with:
PrecompileError, NotImplementedError for an unimplemented tracer, ValueError for a bad
backend or tracer string. Everything else that escapes the capture (an exception raised
inside fn, a bug) is an "error".
"""
from __future__ import annotations

from .errors import describe


def _is_precompile_error(exc: BaseException) -> bool:
    try:
        from torch._precompile import PrecompileError
    except ImportError:  # pragma: no cover - torch always present in the worker
        return False
    return isinstance(exc, PrecompileError)


def _raised_by_precompile_api(exc: BaseException) -> bool:
    """True when the innermost frame is precompile's own argument checking."""
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    return last is not None and last.tb_frame.f_code.co_filename.endswith(
        ("torch/_precompile.py", "torch/_precompile_driver.py")
    )


def classify(exc: BaseException, script_path: str | None) -> tuple[str, dict]:
    """(status, violation dict) for an exception out of a precompile call."""
    desc = describe(exc, script_path)
    violation = {
        "invariant": None,
        "rule": None,
        "kind": desc["kind"],
        "message": desc["message"],
        "explanation": None,
        "fix": None,
        "location": desc["location"],
        "traceback": desc["traceback"],
    }
    contract = _is_precompile_error(exc) or (
        isinstance(exc, (NotImplementedError, ValueError)) and _raised_by_precompile_api(exc)
    )
    return ("violation" if contract else "error"), violation
