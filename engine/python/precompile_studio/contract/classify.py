"""Decide whether an exception from a precompile call is a contract outcome or an error.

A contract outcome (status "violation") is what precompile's programming model answers with:
PrecompileError, NotImplementedError for an unimplemented tracer, ValueError for a bad
backend or tracer string, and the raw arity TypeError of a fn that needs keyword arguments.
Everything else that escapes the capture (an exception raised inside fn, a bug) is an
"error". The violation dict (invariant, rule, explanation, fix, location) comes from
:mod:`precompile_studio.contract.violations`.
"""
from __future__ import annotations

from precompile_studio.common.outcomes import Status
from precompile_studio.contract.violations import Context, classify_exception


def classify(exc: BaseException, script_path: str | None, context: Context | None = None) -> tuple[str, dict]:
    """(status, violation dict) for an exception out of a precompile call."""
    ctx = context or Context(script_path=script_path)
    if ctx.script_path is None:
        ctx.script_path = script_path
    contract, violation = classify_exception(exc, ctx)
    return (Status.VIOLATION if contract else Status.ERROR), violation
