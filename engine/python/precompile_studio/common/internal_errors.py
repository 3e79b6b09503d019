"""Failures of the studio's own code that a run survives: the report's ``internal_errors``.

The worker catches an exception of its own checker, probe, hooks, timing, naming or extraction
so that one bug never loses the user's run; each such catch goes through this module, so that the
bug is still seen: ``with survive("where: what was being done"):`` around the work, or
``record(where, exc)`` in an ``except`` that also does something of its own. An exception of the
user's code (fn, the script, runtime_inputs) is an outcome the report already says and is never
recorded here; nor is an expected probe ("does this torch have that attribute").

One collector per worker run: ``worker.run`` calls ``reset()`` first and puts ``entries()`` in
the report. An entry is {where, error: "TypeName: message" (bounded), at: the innermost frame of
this package in the traceback ("precompile_studio/capture/probe.py:425"), count}; the same failure
at the same place counts up instead of repeating, and past MAX_ENTRIES places one last entry
counts the rest. Nothing here raises.
"""
from __future__ import annotations

import os
import sys
import threading

MAX_ENTRIES = 50
MAX_ERROR_CHARS = 300
OVERFLOW_WHERE = "internal_errors: more"

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PACKAGE_PARENT = os.path.dirname(_PACKAGE_DIR)
_THIS_FILE = os.path.abspath(__file__)

_lock = threading.Lock()  # the probe's and the profiler's hooks may run on torch's threads
_entries: list[dict] = []
_index: dict[tuple[str, str, str], dict] = {}
_dropped = 0


def reset() -> None:
    """Forget everything recorded (the start of a run)."""
    global _dropped
    with _lock:
        _entries.clear()
        _index.clear()
        _dropped = 0


def entries() -> list[dict]:
    """The report's ``internal_errors``: a copy of what was recorded since the last reset."""
    with _lock:
        out = [dict(e) for e in _entries]
        if _dropped:
            out.append({"where": OVERFLOW_WHERE, "error": f"{_dropped} more, at other places (not kept)",
                        "at": "", "count": _dropped})
    return out


def record(where: str, exc: BaseException) -> None:
    """Note that the studio's own code raised ``exc`` while doing ``where`` and the run goes on."""
    global _dropped
    try:
        error, at = _error_text(exc), _innermost(exc)
    except Exception:  # noqa: BLE001 - this module never raises; the entry says less
        error, at = type(exc).__name__, ""
    key = (where, error, at)
    with _lock:
        entry = _index.get(key)
        if entry is not None:
            entry["count"] += 1
        elif len(_entries) < MAX_ENTRIES:
            entry = {"where": where, "error": error, "at": at, "count": 1}
            _entries.append(entry)
            _index[key] = entry
        else:
            _dropped += 1


class survive:  # noqa: N801 - used as a function: with survive("where"):
    """``with survive(where):`` runs the block; an Exception out of it is recorded (``record``)
    and the run goes on after the block. SystemExit and KeyboardInterrupt are not caught. A class,
    not a generator: some blocks run once per traced node or per torch event."""

    __slots__ = ("where",)

    def __init__(self, where: str):
        self.where = where

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, tb) -> bool:
        if not isinstance(exc, Exception):
            return False
        record(self.where, exc)  # the studio's own failure: recorded, the run goes on
        return True


def _error_text(exc: BaseException) -> str:
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - an exception whose str() raises
        message = "<message not printable>"
    text = " ".join(f"{type(exc).__name__}: {message}".split())
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 3] + "..."


def _in_package(filename: str) -> bool:
    """A file of this package, this module left out (survive's own frame)."""
    path = os.path.abspath(filename)
    return path.startswith(_PACKAGE_DIR + os.sep) and path != _THIS_FILE


def _where(filename: str, line: int | None) -> str:
    return f"{os.path.relpath(os.path.abspath(filename), _PACKAGE_PARENT)}:{line}"


def _innermost(exc: BaseException) -> str:
    """file:line of the innermost frame of this package in the traceback (the caller's where the
    exception has none there)."""
    found = ""
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if _in_package(filename):
            found = _where(filename, tb.tb_lineno)
        tb = tb.tb_next
    if found:
        return found
    f = sys._getframe(1)
    while f is not None:
        filename = f.f_code.co_filename
        if _in_package(filename):
            return _where(filename, f.f_lineno)
        f = f.f_back
    return ""
