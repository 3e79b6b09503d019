"""Calls the loaded artifact's python_code makes, seen from the line that makes them.

``run --profile`` (profile.py) and drift localisation (localise.py) both need to act around
each call python_code makes through ``extern_kernels``, ``aten`` or ``torch.ops``, knowing
the python_code line it came from: the profile opens a ``record_function`` named after the
line, localisation copies what the call wrote. :class:`CallSiteProxy` stands in for such a
name in the loaded module's globals and hands each call from python_code to ``around(line,
call, kwargs)``; :class:`TorchWithOps` is ``torch`` with only its ``ops`` proxied. Both are put
in place for the calls that need them only, and the originals put back by their users.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

CODE_FILE = "<precompile>"  # the file name precompile.load compiles python_code under

# around(line, call, kwargs) -> what the call returns; ``call()`` makes the real call
Around = Callable[[int, Callable[[], Any], dict], Any]


def loaded_namespace(f: Callable) -> dict | None:
    """The globals python_code was executed in (precompile.load's module namespace)."""
    fwd = getattr(f, "_loaded_forward", None)
    ns = getattr(fwd, "__globals__", None)
    return ns if isinstance(ns, dict) else None


class CallSiteProxy:
    """A callable, or a namespace of them (``extern_kernels``, ``aten``, ``torch.ops``), whose
    calls from python_code go through ``around``; other calls, and plain values, are the
    target's own."""

    __slots__ = ("_target", "_around")

    def __init__(self, target, around: Around):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_around", around)

    def __getattr__(self, name):
        value = getattr(self._target, name)
        if isinstance(value, (int, float, str, bool, type(None))):
            return value
        return CallSiteProxy(value, self._around)

    def __call__(self, *args, **kwargs):
        frame = sys._getframe(1)
        if frame.f_code.co_filename != CODE_FILE:
            return self._target(*args, **kwargs)
        return self._around(frame.f_lineno, lambda: self._target(*args, **kwargs), kwargs)


class TorchWithOps:
    """``torch`` as python_code sees it, with ``torch.ops`` proxied; every other name is torch's."""

    def __init__(self, torch_module, around: Around):
        self._torch = torch_module
        self.ops = CallSiteProxy(torch_module.ops, around)

    def __getattr__(self, name):
        return getattr(self._torch, name)
