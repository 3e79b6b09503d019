"""Warnings torch._precompile logs during the loads and calls a script makes itself.

A script that calls ``torch.compiler.precompile.load`` on a pair whose cache envelope cannot be
read gets a warning that the load falls back to JIT (invariant 7): torch only logs it, so
without this it reaches stderr and nothing else. ``ScriptWarnings`` collects each one while the
script runs (precompile_log.captured), classified like verification's
(violations.classify_warning) and located at the script's innermost line on the stack when it
was logged.
"""
from __future__ import annotations

import contextlib
import logging
import os
import sys

from precompile_studio.contract.precompile_log import captured, message_of
from precompile_studio.contract.violations import classify_warning

_QUIET_RULES = {"untrusted-python-code"}  # said on every load; the studio explains it elsewhere


class ScriptWarnings:
    """``with ScriptWarnings(path) as found:`` -- ``found`` fills with warning dicts."""

    def __init__(self, script: str):
        self.script = os.path.abspath(script)
        self.found: list[dict] = []
        self._stack = contextlib.ExitStack()

    def _script_line(self) -> int | None:
        frame = sys._getframe(1)
        while frame is not None:
            if os.path.abspath(frame.f_code.co_filename) == self.script:
                return frame.f_lineno
            frame = frame.f_back
        return None

    def _take(self, record: logging.LogRecord) -> None:
        line = self._script_line()
        w = classify_warning(message_of(record), {"file": self.script, "line": line} if line else None)
        if w["rule"] not in _QUIET_RULES:
            w["where"] = "script"
            self.found.append(w)

    def __enter__(self) -> list[dict]:
        self._stack.enter_context(captured(self._take))
        return self.found

    def __exit__(self, *exc) -> None:
        self._stack.close()
