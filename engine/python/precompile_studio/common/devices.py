"""Where a call's tensors live, waiting for the devices that compute asynchronously, and the GPUs
this worker sees.

- ``tensor_devices(args)``: the distinct devices of the tensors in a call's arguments (tensors in
  nested tuples, lists and dicts; models' parameters and buffers), in order of first appearance:
  ``["cpu"]``, ``["cuda:0"]``, ``["cuda:0", "cpu"]`` (a capture's ``devices`` in the report).
- ``synchronize(devices)``: wait until the asynchronous devices among them (CUDA, XPU, MPS)
  have finished the work queued on them; the CPU needs nothing. A GPU call returns once its
  kernels are queued, so a call timed without it measures its launches, not its work. CUDA is
  also waited for where this process has initialised it though no example tensor is on it (fn
  moves its inputs there itself).
- ``timed(devices, call)``: (the call's result, its seconds), the devices synchronised before
  and after.
- ``cuda_devices()``: the worker's hello: each CUDA device visible (index, name, memory,
  compute capability); an empty list without a driver or a GPU, without raising and without
  waiting on one.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

_HOST = ("cpu", "meta")  # devices whose work is done when the op returns (or that do none)


def tensor_devices(args: Any) -> list[str]:
    """The distinct devices of the tensors in ``args``, in order of first appearance."""
    import torch
    import torch.utils._pytree as pytree

    out: list[str] = []

    def note(t) -> None:
        d = str(t.device)
        if d not in out:
            out.append(d)

    def visit(v) -> None:
        if isinstance(v, torch.nn.Module):
            for p in v.parameters():
                note(p)
            for b in v.buffers():
                note(b)
        elif isinstance(v, torch.Tensor):
            note(v)

    values = args if isinstance(args, (tuple, list)) else (args,)
    for a in values:
        if isinstance(a, torch.nn.Module):
            visit(a)
            continue
        for leaf in pytree.tree_leaves(a):
            visit(leaf)
    return out


def asynchronous(devices: list[str]) -> list[str]:
    """The devices among ``devices`` whose work runs after the op returns (not the CPU)."""
    return [d for d in devices if d.split(":")[0] not in _HOST]


def synchronize(devices: list[str] | tuple[str, ...] = ()) -> None:
    """Wait for the work queued on each asynchronous device in ``devices`` (and on CUDA where this
    process has initialised it); never raises."""
    try:
        import torch
    except Exception:  # noqa: BLE001 - nothing to wait for
        return
    kinds = set()
    for d in asynchronous(list(devices)):
        kind = d.split(":")[0]
        kinds.add(kind)
        mod = getattr(torch, kind, None)
        sync = getattr(mod, "synchronize", None)
        if not callable(sync):
            continue
        try:
            sync(d)
        except TypeError:  # torch.mps.synchronize takes no device
            try:
                sync()
            except Exception:  # noqa: BLE001 - the device's (or the user's work's) failure, not timed better by failing
                pass
        except Exception:  # noqa: BLE001 - a device that cannot be waited for is not timed better by failing
            pass
    if "cuda" not in kinds:
        try:
            if torch.cuda.is_initialized():
                torch.cuda.synchronize()
        except Exception:  # noqa: BLE001 - a failing CUDA context (the user's work): nothing to wait for
            pass


def timed(devices: list[str] | tuple[str, ...], call: Callable[[], Any]) -> tuple[Any, float]:
    """(call(), its seconds), the devices synchronised before the clock starts and before it stops."""
    synchronize(devices)
    t0 = time.perf_counter()
    value = call()
    synchronize(devices)
    return value, time.perf_counter() - t0


def cuda_devices() -> list[dict]:
    """[{index, name, memory_bytes, capability: "9.0"}] per CUDA device visible; [] without CUDA."""
    try:
        import torch

        if not torch.cuda.is_available():
            return []
        count = torch.cuda.device_count()
    except Exception:  # noqa: BLE001 - no driver, a broken one: no devices
        return []
    out = []
    for i in range(count):
        try:
            p = torch.cuda.get_device_properties(i)
            out.append({"index": i, "name": str(p.name), "memory_bytes": int(p.total_memory),
                        "capability": f"{p.major}.{p.minor}"})
        except Exception:  # noqa: BLE001 - a device that cannot be described is left out
            continue
    return out
