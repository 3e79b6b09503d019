"""Warnings torch._precompile logs during the loads and calls a script makes itself.

A script that calls ``torch.compiler.precompile.load`` on a pair whose cache envelope cannot be
read gets a warning that the load falls back to JIT (invariant 7): torch only logs it, so
without this it reaches stderr and nothing else. ``ScriptWarnings`` collects each one while the
script runs, classified like verification's (violations.classify_warning) and located at the
script's innermost line on the stack when it was logged.
"""
from __future__ import annotations

import logging
import os
import sys

from .violations import classify_warning

_QUIET_RULES = {"untrusted-python-code"}  # said on every load; the studio explains it elsewhere


class _Handler(logging.Handler):
    def __init__(self, script: str, sink: list[dict]):
        super().__init__(logging.WARNING)
        self.script = os.path.abspath(script)
        self.sink = sink

    def _script_line(self) -> int | None:
        frame = sys._getframe(1)
        while frame is not None:
            if os.path.abspath(frame.f_code.co_filename) == self.script:
                return frame.f_lineno
            frame = frame.f_back
        return None

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record still says something
            message = str(record.msg)
        line = self._script_line()
        w = classify_warning(message, {"file": self.script, "line": line} if line else None)
        if w["rule"] in _QUIET_RULES:
            return
        w["where"] = "script"
        self.sink.append(w)


class ScriptWarnings:
    """``with ScriptWarnings(path) as found:`` -- ``found`` fills with warning dicts."""

    def __init__(self, script: str):
        self.found: list[dict] = []
        self._handler = _Handler(script, self.found)
        self._log = logging.getLogger("torch._precompile")
        self._propagate = True

    def __enter__(self) -> list[dict]:
        self._log.addHandler(self._handler)
        self._propagate = self._log.propagate
        self._log.propagate = False
        return self.found

    def __exit__(self, *exc) -> None:
        self._log.removeHandler(self._handler)
        self._log.propagate = self._propagate
