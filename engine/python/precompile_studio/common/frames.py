"""Whose code a frame is: torch's, the studio's, the standard library's, a package's or the user's.

A violation raised below the user's code (a library's forward reading a mask's value, a
library's cache building ``torch.tensor([])`` inside fn) is reported as a chain:

    the user's line -> the first frame outside torch (a package's file, line, code, function,
    package and version) -> the torch op

:func:`chain_from_traceback` builds it from an exception; the capture probe records the same
frames for a constant tensor's node (``CaptureProbe.const_frames``), and
:func:`chain_from_frames` builds it from those.
"""
from __future__ import annotations

import linecache
import os
import sys
import sysconfig
from functools import lru_cache

_TORCH_TOPS = frozenset({"torch", "functorch", "torchgen", "torch_xla"})


@lru_cache(maxsize=1)
def _stdlib_dirs() -> tuple[str, ...]:
    out = []
    for key in ("stdlib", "platstdlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            out.append(os.path.realpath(p) + os.sep)
    return tuple(out)


def top_module(module_name: str | None) -> str:
    return (module_name or "").split(".")[0]


def owner(filename: str, module_name: str | None, script_path: str | None = None) -> str:
    """torch | studio | stdlib | package | user for one frame."""
    f = filename.replace("\\", "/")
    top = top_module(module_name)
    if top in _TORCH_TOPS or "/site-packages/torch/" in f:
        return "torch"
    if top == "precompile_studio" or "/precompile_studio/" in f:
        return "studio"
    if filename.startswith("<"):
        # exec'd code: the artifact's python_code is torch's; a script's own is the user's
        return "torch" if top in _TORCH_TOPS else "stdlib"
    if script_path and os.path.realpath(filename) == os.path.realpath(script_path):
        return "user"
    if "/site-packages/" in f or "/dist-packages/" in f:
        return "package"
    real = os.path.realpath(filename)
    if any(real.startswith(d) for d in _stdlib_dirs()):
        return "stdlib"
    return "user"


@lru_cache(maxsize=64)
def package_version(top: str) -> tuple[str | None, str | None]:
    """(distribution name, version) of a top-level module, via importlib.metadata."""
    if not top:
        return None, None
    from importlib import metadata

    try:
        return top, metadata.version(top)
    except metadata.PackageNotFoundError:
        pass
    except Exception:  # noqa: BLE001 - a broken dist-info must not lose the report
        return None, None
    try:
        dists = metadata.packages_distributions().get(top) or []
    except Exception:  # noqa: BLE001 - the environment's broken metadata, as above
        dists = []
    for d in dists:
        try:
            return d, metadata.version(d)
        except Exception:  # noqa: BLE001 - the environment's broken metadata, as above
            continue
    mod = sys.modules.get(top)
    v = getattr(mod, "__version__", None)
    return (top, str(v)) if v is not None else (None, None)


def code_at(filename: str, line: int | None, col: int | None = None, end_col: int | None = None) -> str | None:
    """The source on that line (the sub-expression when columns are known and on one line)."""
    if not line:
        return None
    text = linecache.getline(filename, line)
    if not text:
        return None
    if col is not None and end_col is not None and 0 <= col < end_col <= len(text):
        sub = text[col:end_col].strip()
        if sub:
            return sub
    return text.strip() or None


def step(role: str, filename: str, line: int | None, function: str | None, module_name: str | None,
         col: int | None = None, end_col: int | None = None) -> dict:
    """One link of a chain: {role, file, line, code, function[, package, version]}."""
    d: dict = {"role": role, "file": filename, "line": int(line) if line else None,
               "code": code_at(filename, line), "function": function}
    if role == "library":
        top = top_module(module_name) or None
        dist, version = package_version(top) if top else (None, None)
        d["package"] = dist or top
        d["version"] = version
    return d


def _tb_entries(exc: BaseException) -> list[tuple]:
    """[(filename, line, function, module name, col, end_col)] innermost last, following causes."""
    out: list[tuple] = []
    tb = exc.__traceback__
    while tb is not None:
        out.append(frame_entry(tb.tb_frame, tb.tb_lineno, tb.tb_lasti))
        tb = tb.tb_next
    return out


def frame_entry(f, line: int | None = None, lasti: int | None = None) -> tuple:
    """(filename, line, function, module name, col, end_col) of a live frame."""
    code = f.f_code
    line = line if line is not None else f.f_lineno
    lasti = lasti if lasti is not None else f.f_lasti
    col = end_col = None
    try:
        pos = list(code.co_positions())[lasti // 2]
        if pos[0] == pos[1] == line:
            col, end_col = pos[2], pos[3]
    except (IndexError, AttributeError, ValueError, TypeError):
        pass
    return (code.co_filename, line, code.co_name, f.f_globals.get("__name__"), col, end_col)


def chain_from_entries(entries: list[tuple], script_path: str | None, op: str | None) -> list[dict] | None:
    """The chain when a third-party package's frame sits between the user's line and torch.

    ``entries``: outermost first, (filename, line, function, module name[, col, end_col]).
    None when no package frame is below the user's code (the user's own line called torch).
    """
    owners = [owner(e[0], e[3], script_path) for e in entries]
    user_i = None
    for i, o in enumerate(owners):
        if o == "user":
            user_i = i
    start = (user_i + 1) if user_i is not None else 0
    # torch frames may sit between them (nn.Module.__call__): the package frame that called
    # the op is the innermost one, the entry the outermost one below the user's line
    entry_i = lib_i = None
    for i in range(start, len(entries)):
        if owners[i] == "package":
            if entry_i is None:
                entry_i = i
            lib_i = i
    if lib_i is None:
        return None
    chain: list[dict] = []
    if user_i is not None:
        e = entries[user_i]
        chain.append(step("user", e[0], e[1], e[2], e[3]))
    if entry_i is not None and entry_i != lib_i:
        e = entries[entry_i]
        chain.append(dict(step("library", e[0], e[1], e[2], e[3]), role="entry"))
    e = entries[lib_i]
    chain.append(step("library", e[0], e[1], e[2], e[3], *(e[4:6] if len(e) >= 6 else (None, None))))
    chain.append({"role": "torch", "op": op})
    return chain


def chain_from_traceback(exc: BaseException, script_path: str | None, op: str | None) -> list[dict] | None:
    return chain_from_entries(_tb_entries(exc), script_path, op)


def library_step(chain: list[dict] | None) -> dict | None:
    """The innermost package frame of a chain (the one that called torch)."""
    for s in reversed(chain or []):
        if s.get("role") == "library":
            return s
    return None


def library_file(filename: str) -> bool:
    """Whether a code object's file is not the user's: a package (site- or dist-packages), the
    standard library, this package, or code without a file ("<string>", "<frozen ...>")."""
    f = filename.replace("\\", "/")
    return (
        "/site-packages/" in f
        or "/dist-packages/" in f
        or "/lib/python3" in f
        or "/precompile_studio/" in f
        or filename.startswith("<")
    )
