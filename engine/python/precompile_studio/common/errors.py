"""Turn exceptions into the report's plain dicts, with the user's file and line."""
from __future__ import annotations

import os
import traceback
from types import TracebackType

from precompile_studio.common.frames import library_file


class ContractError(Exception):
    """The script does not follow the script contract (no fn, bad example_inputs, ...).

    Carries the line where the offending name was defined, when there is one.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.file = file
        self.line = line


def user_location(exc: BaseException, script_path: str | None) -> dict | None:
    """The innermost frame of the traceback that is in the user's code.

    Prefers the script itself; falls back to the innermost frame that is not in the
    standard library, site-packages or this package.
    """
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return {"file": exc.filename, "line": int(exc.lineno)}
    if isinstance(exc, ContractError):
        return {"file": exc.file, "line": exc.line} if exc.line else None
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    script_real = os.path.realpath(script_path) if script_path else None
    best = None
    for fr in frames:
        if script_real and os.path.realpath(fr.filename) == script_real:
            best = fr
    if best is None:
        for fr in frames:
            if not library_file(fr.filename):
                best = fr
    if best is None:
        return None
    return {"file": best.filename, "line": best.lineno}


def _trim_traceback(tb: TracebackType | None) -> TracebackType | None:
    """Drop the frames of this package from the front of a traceback."""
    while tb is not None and "/precompile_studio/" in tb.tb_frame.f_code.co_filename.replace("\\", "/"):
        tb = tb.tb_next
    return tb


def describe(exc: BaseException, script_path: str | None) -> dict:
    """{kind, message, traceback, location} for one exception."""
    kind = type(exc).__name__
    if isinstance(exc, SyntaxError):
        message = exc.msg or str(exc)
    else:
        message = str(exc)
    if isinstance(exc, SystemExit):
        message = f"the script called sys.exit({exc.code!r})"
    tb_text = "".join(
        traceback.format_exception(type(exc), exc, _trim_traceback(exc.__traceback__))
    )
    return {
        "kind": kind,
        "message": message,
        "traceback": tb_text,
        "location": user_location(exc, script_path),
    }


def one_line(desc: dict) -> str:
    """The one-line cause: 'file:line: Kind: message'."""
    loc = desc.get("location")
    where = f"{loc['file']}:{loc['line']}: " if loc and loc.get("line") else ""
    first = (desc.get("message") or "").strip().splitlines()
    # a violation's own one line (violations.py: the user's names, no torch advice that does
    # not apply to precompile) wins over the first line of torch's message
    text = desc.get("summary") or (first[0] if first else "")
    kind = desc.get("kind")
    if kind in ("ContractError", "SystemExit", None):
        return f"{where}{text}"
    return f"{where}{kind}: {text}"
