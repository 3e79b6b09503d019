"""The stack that made each node: the frames between precompile's trace and the op.

precompile traces with make_fx without torch's own stack recording (and the studio must not
turn it on: it prints ``node.stack_trace`` into ``gm.code``; it also keeps only frames named
``forward``). So the capture probe walks the Python stack itself when a node is created
(:meth:`StackWalker.walk`), from the op outwards up to precompile's ``flat_fn`` (the frame
that calls the user's ``fn``), and keeps the frames a user would want to read:

- the user's own code and any installed package's (``common.frames.owner``: user, package),
  e.g. ``torchvision/models/resnet.py:268  x = self.conv1(x)``;
- torch's ``torch/nn/`` files (a module's ``forward``, ``functional.py``) but not
  ``nn/modules/module.py`` (``_call_impl``, the same two frames under every module call);

innermost first, as (file, line, function, module name). Each code object is judged once
(the walk runs for every node). The report gets them interned (:func:`frames_table`): one
``graph.frames`` list of {file, line, function, code, owner, package?} and per node ``stack``,
indices into it; the code text is read (linecache) only then.
"""
from __future__ import annotations

import os

from precompile_studio.common.frames import code_at, owner, top_module

# A walk never goes further out than this many frames (a recursion in fn, a deep model).
MAX_DEPTH = 400

_DROP, _KEEP, _STOP = 0, 1, 2


def _precompile_file(filename: str) -> bool:
    return filename.replace("\\", "/").endswith("/torch/_precompile.py")


class StackWalker:
    """Walks a node's frames; one per capture (the judgement of each code object is cached)."""

    def __init__(self, script_path: str | None):
        self.script_path = os.path.realpath(script_path) if script_path else None
        # id(code) -> (code, _DROP | _KEEP | _STOP, module name); the code object is kept in
        # the entry so that its id stays valid.
        self._codes: dict[int, tuple] = {}

    def _judge(self, code, f_globals) -> tuple:
        filename = code.co_filename
        module = f_globals.get("__name__") if f_globals is not None else None
        if code.co_name == "flat_fn" and _precompile_file(filename):
            verdict = _STOP
        else:
            who = owner(filename, module, self.script_path)
            if who in ("user", "package"):
                verdict = _KEEP
            elif who == "torch":
                f = filename.replace("\\", "/")
                verdict = _KEEP if "/torch/nn/" in f and not f.endswith("/nn/modules/module.py") else _DROP
            else:
                verdict = _DROP
        entry = (code, verdict, module)
        self._codes[id(code)] = entry
        return entry

    def walk(self, frame) -> tuple:
        """The kept frames from ``frame`` out to ``flat_fn``, innermost first: a tuple of
        (file, line, function, module name)."""
        return self._walk(frame)[0]

    def walk_in_fn(self, frame) -> tuple | None:
        """As :meth:`walk`, or None where the walk never reaches ``flat_fn`` (the frame is not
        inside the user's ``fn``: e.g. a guard made while precompile fakes the inputs)."""
        out, reached = self._walk(frame)
        return out if reached else None

    def _walk(self, frame) -> tuple[tuple, bool]:
        codes = self._codes
        out = []
        depth = 0
        while frame is not None and depth < MAX_DEPTH:
            code = frame.f_code
            e = codes.get(id(code))
            if e is None or e[0] is not code:
                e = self._judge(code, frame.f_globals)
            if e[1] == _STOP:
                return tuple(out), True
            if e[1] == _KEEP:
                out.append((code.co_filename, frame.f_lineno, code.co_name, e[2]))
            frame = frame.f_back
            depth += 1
        return tuple(out), False


def frames_table(stacks, script_path: str | None) -> tuple[list[dict], list[list[int]]]:
    """(the report's ``graph.frames``, each stack as indices into it) for ``stacks``, an
    iterable of walks (:meth:`StackWalker.walk`; None or () for a node without one)."""
    index: dict[tuple, int] = {}
    frames: list[dict] = []
    out: list[list[int]] = []
    for stack in stacks:
        ids: list[int] = []
        for file, line, function, module in stack or ():
            key = (file, line, function)
            i = index.get(key)
            if i is None:
                i = index[key] = len(frames)
                frames.append(_frame(file, line, function, module, script_path))
            ids.append(i)
        out.append(ids)
    return frames, out


def _frame(file: str, line: int | None, function: str, module: str | None, script_path: str | None) -> dict:
    who = owner(file, module, script_path)
    d: dict = {"file": file, "line": int(line) if line else None, "function": function,
               "code": code_at(file, line), "owner": who if who in ("user", "package", "torch") else "user"}
    if who in ("package", "torch"):
        top = top_module(module)
        if not top and who == "torch":
            top = "torch"
        if top:
            d["package"] = top
    return d
