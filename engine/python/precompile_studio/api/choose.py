"""Which front end (front_end.py) this torch's precompile needs: chosen by what
``torch.compiler.precompile`` is, not by a version string; a torch with neither API is refused
in one line naming the supported versions."""
from __future__ import annotations

from precompile_studio.api.front_end import PrecompileFrontEnd

SUPPORTED = ("2.14", "2.15")


class UnsupportedTorch(RuntimeError):
    """torch's precompile is neither API the studio knows."""


_CURRENT: PrecompileFrontEnd | None = None


def current() -> PrecompileFrontEnd:
    """The front end for the imported torch (chosen once)."""
    global _CURRENT
    if _CURRENT is None:
        _CURRENT = _choose()
    return _CURRENT


def _choose() -> PrecompileFrontEnd:
    import torch
    import torch.compiler

    api = getattr(torch.compiler, "precompile", None)
    if api is not None and callable(api) and hasattr(api, "load"):
        from precompile_studio.api.call_api import CallApi

        return CallApi()
    if api is not None and hasattr(api, "capture") and hasattr(api, "load"):
        from precompile_studio.api.capture_api import CaptureApi

        return CaptureApi()
    raise UnsupportedTorch(
        f"torch {torch.__version__} has no precompile API the studio knows: the studio supports "
        f"torch {' and '.join(SUPPORTED)} (torch==2.14.1 or torch==2.15.0)")
