"""Keep a C++ library's log lines out of the user's terminal while the studio uses it.

torch's profiler (kineto) writes to file descriptor 2 from C++ whenever a profile starts and
stops -- ``USDT:... profiler_start`` and, on a machine without a GPU,
``ERROR:... gpuGetDeviceCount failed with code 35`` -- lines the user did not ask for and that
read as if the run had failed. Python's ``sys.stderr`` cannot catch them, so
:class:`NativeLogFilter` points fd 2 at a temporary file for the duration of a block and then
writes back every line that is not such a log line: nothing else written meanwhile is lost.
"""
from __future__ import annotations

import os
import re
import sys
import tempfile

# kineto's (glog-style) prefix: LEVEL:YYYY-MM-DD HH:MM:SS PID:TID File.cpp:LINE]
_NATIVE_LOG = re.compile(rb"^(?:USDT|INFO|WARNING|ERROR):\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \d+:\d+ [\w.]+\.cpp:\d+\]")


class NativeLogFilter:
    """Context manager: fd 2 goes to a temporary file; on exit, the lines that are not a native
    library's log lines go back to fd 2. ``dropped`` counts the lines left out."""

    def __init__(self) -> None:
        self.dropped = 0
        self._saved: int | None = None
        self._tmp = None

    def __enter__(self) -> NativeLogFilter:
        try:
            sys.stderr.flush()
            self._tmp = tempfile.TemporaryFile()
            self._saved = os.dup(2)
            os.dup2(self._tmp.fileno(), 2)
        except OSError:  # no fd 2 to borrow: let the lines through
            self._restore()
        return self

    def __exit__(self, *exc) -> None:
        if self._saved is None:
            return
        try:
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - a closed stream must not lose the restore
            pass
        os.dup2(self._saved, 2)
        try:
            self._tmp.seek(0)
            kept = []
            for line in self._tmp:
                if _NATIVE_LOG.match(line):
                    self.dropped += 1
                else:
                    kept.append(line)
            if kept:
                os.write(2, b"".join(kept))
        finally:
            self._restore()

    def _restore(self) -> None:
        if self._saved is not None:
            os.close(self._saved)
            self._saved = None
        if self._tmp is not None:
            self._tmp.close()
            self._tmp = None
