"""What an artifact depends on, stamped where it is made and read again where it is loaded.

An inductor artifact holds generated graph code and compiled kernels. They are valid only where
the same torch (and, on a GPU, Triton) generated them, for the same CPU instruction set (the C++
kernels are built with its vector width, and inductor keys its cache by it) and the same GPU
architectures. ``current()`` reads these facts of this process; ``differences(made, here)`` says
which differ and what each does to a load there, most decisive first, so that a check's fallback
or refusal names the stamp behind it.
"""
from __future__ import annotations

import platform
import sys

from precompile_studio.api.front_end import series

# The stamps, in the order a difference decides a load: another machine architecture or torch
# series cannot run the artifact at all; another build, Triton, ISA or GPU recompiles kernels.
ORDER = ("arch", "torch_series", "torch", "python", "triton", "cpu_isa", "gpus", "precompile_api")

# What a difference in each does to a load of the artifact ("refused": precompile cannot run it,
# "fallback": it loads but compiles its kernels again, "note": recorded, not expected to matter).
EFFECT = {
    "arch": "refused",
    "torch_series": "refused",
    "precompile_api": "refused",
    "torch": "fallback",
    "python": "fallback",
    "triton": "fallback",
    "cpu_isa": "fallback",
    "gpus": "fallback",
}

WHY = {
    "arch": "the kernels were compiled for another machine architecture",
    "torch_series": "an artifact's graph code and cache are generated for the torch series that made it",
    "precompile_api": "the other torch series' precompile API wrote it",
    "torch": "inductor keys its caches by torch's build, so the kernels are compiled again",
    "python": "inductor keys its caches by the Python version, so the kernels are compiled again",
    "triton": "GPU kernels are cached per Triton build, so they are compiled again",
    "cpu_isa": "the C++ kernels were built for another CPU instruction set, so they are compiled again",
    "gpus": "the GPU kernels were built for another GPU architecture, so they are compiled again",
}

NAMES = {"arch": "machine", "torch_series": "torch series", "torch": "torch", "python": "Python",
         "triton": "Triton", "cpu_isa": "CPU instruction set", "gpus": "GPU architecture",
         "precompile_api": "precompile API"}


def _series(version: str | None) -> str | None:
    return series(version) if version else None


def _triton() -> str | None:
    """Triton's version without importing it (importing triton takes seconds and a GPU driver)."""
    from importlib import metadata

    for dist in ("triton", "pytorch-triton"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
        except Exception:  # noqa: BLE001 - broken metadata: unknown
            return None
    return None


def _cpu_isa() -> str | None:
    """The vector instruction set inductor builds C++ kernels for here ("avx512", "avx2", "neon"),
    "none" where it uses none, None where inductor cannot say."""
    try:
        from torch._inductor import cpu_vec_isa

        return str(cpu_vec_isa.pick_vec_isa()) or "none"
    except Exception:  # noqa: BLE001 - an inductor without the module, or a probe that failed
        return None


def _gpus() -> list[str]:
    from precompile_studio.common.devices import cuda_devices

    return sorted({d["capability"] for d in cuda_devices() if d.get("capability")})


def current(cpu_isa: bool = True) -> dict:
    """This process's stamps (docs/report.schema.json, ``stamps``); ``cpu_isa`` False leaves the
    instruction set unknown (finding it builds a test program: a run with no inductor kernel
    does not pay for it)."""
    import torch

    from precompile_studio.api.choose import current as front_end

    try:
        api = front_end().api
    except Exception:  # noqa: BLE001 - a torch with no precompile API: said by the load itself
        api = None
    return {
        "arch": platform.machine(),
        "python": sys.version.split()[0],
        "torch": torch.__version__,
        "torch_git": getattr(torch.version, "git_version", None),
        "cuda": getattr(torch.version, "cuda", None),
        "triton": _triton(),
        "cpu_isa": _cpu_isa() if cpu_isa else None,
        "gpus": _gpus(),
        "precompile_api": api,
    }


def _value(stamps: dict, key: str):
    if key == "torch_series":
        return _series(stamps.get("torch"))
    return stamps.get(key)


def _words(value) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, list):
        return ", ".join(f"sm {v}" for v in value) or "no GPU"
    return str(value)


def differences(made: dict | None, here: dict | None, uses_gpu: bool = False, inductor: bool = True) -> list[dict]:
    """[{stamp, name, made, here, effect, why}] for each stamp that differs between where the
    artifact was made and here, most decisive first. A stamp unknown on either side is not a
    difference. ``inductor``: an eager artifact has no kernels (only arch and torch decide);
    ``uses_gpu``: Triton and the GPUs matter only to an artifact with GPU kernels."""
    if not isinstance(made, dict) or not isinstance(here, dict):
        return []
    out = []
    for key in ORDER:
        if key in ("triton", "gpus") and not uses_gpu:
            continue
        if key in ("cpu_isa", "python") and not inductor:
            continue
        a, b = _value(made, key), _value(here, key)
        if a is None or b is None or a == b:
            continue
        if key == "torch" and _series(made.get("torch")) != _series(here.get("torch")):
            continue  # said once, as the series
        if key == "gpus" and set(a) <= set(b):
            continue  # every architecture it was built for is here
        out.append({"stamp": key, "name": NAMES[key], "made": _words(a), "here": _words(b),
                    "effect": EFFECT[key], "why": WHY[key]})
    return out


def sentence(diff: dict) -> str:
    """'CPU instruction set avx512 where it was made, avx2 here: the C++ kernels were built ...'"""
    return f"{diff['name']} {diff['made']} where it was made, {diff['here']} here: {diff['why']}"
