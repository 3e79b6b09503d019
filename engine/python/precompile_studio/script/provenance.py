"""What a run was made from, so that two runs can be compared and their difference explained.

The run's ``provenance`` object names the script (path, sha256 of its bytes), torch (version and
git hash), Python, the machine (platform, the CPU vector ISA inductor compiles for) and the
environment the script ran in. Each capture's ``inputs`` describes the example inputs' structure
(tensors: shape, dtype, stride, device, requires_grad; modules: class and parameter count;
other values: their type), and ``decompositions`` the decomposition table passed to precompile.
Everything here is read, never computed at a cost: the vector ISA is only asked of inductor when
inductor already ran (it caches its answer).
"""
from __future__ import annotations

import hashlib
import platform
import sys
from typing import Any

from precompile_studio.common.inputs import dynamic_marks
from precompile_studio.script import environment

# A description is bounded: a script may pass a list of thousands of tensors.
MAX_INPUT_ENTRIES = 512
MAX_DECOMPOSITION_NAMES = 2000


def _shape(values) -> list:
    out = []
    for v in values:
        try:
            out.append(int(v))
        except Exception:  # noqa: BLE001 - a symbolic size
            out.append(str(v))
    return out


def _tensor(t) -> dict:
    d: dict[str, Any] = {"kind": "tensor"}
    if t.is_nested:
        d["nested"] = True
    try:
        d["shape"] = _shape(t.shape)
    except RuntimeError:
        if not t.is_nested:
            raise
        # a nested tensor of the strided layout has ragged dims and no shape (the jagged layout names them j1)
    d.update(dtype=str(t.dtype).removeprefix("torch."), device=str(t.device), requires_grad=bool(t.requires_grad))
    try:
        d["stride"] = _shape(t.stride())
    except Exception:  # noqa: BLE001 - sparse and other layouts have no strides
        d["stride"] = None
    marks = dynamic_marks(t)
    if marks:
        d["dynamic"] = marks
    return d


def _module(m) -> dict:
    params = list(m.parameters())
    buffers = list(m.buffers())
    digest = hashlib.sha256()
    for name, p in m.named_parameters():
        digest.update(f"{name}:{tuple(p.shape)}:{p.dtype}:{p.requires_grad};".encode())
    for name, b in m.named_buffers():
        digest.update(f"{name}:{tuple(b.shape)}:{b.dtype};".encode())
    return {
        "kind": "module",
        "type": type(m).__qualname__,
        "training": bool(m.training),
        "parameters": len(params),
        "parameter_elements": int(sum(p.numel() for p in params)),
        "buffers": len(buffers),
        # the parameters' and buffers' names, shapes and dtypes (not their values)
        "structure_sha256": digest.hexdigest(),
    }


def describe_inputs(args: tuple, names: list[str]) -> dict:
    """The example inputs' structure: a flat list of entries named by their path."""
    import torch

    entries: list[dict] = []
    truncated = False

    def visit(value, path: str, depth: int) -> None:
        nonlocal truncated
        if len(entries) >= MAX_INPUT_ENTRIES:
            truncated = True
            return
        if isinstance(value, torch.Tensor):
            entries.append({"path": path, **_tensor(value)})
        elif isinstance(value, torch.nn.Module):
            entries.append({"path": path, **_module(value)})
        elif isinstance(value, (list, tuple)) and depth < 8:
            entries.append({"path": path, "kind": type(value).__name__, "length": len(value)})
            for i, item in enumerate(value):
                visit(item, f"{path}[{i}]", depth + 1)
        elif isinstance(value, dict) and depth < 8:
            entries.append({"path": path, "kind": "dict", "length": len(value)})
            for key, item in value.items():
                visit(item, f"{path}[{key!r}]", depth + 1)
        elif isinstance(value, (bool, int, float, str)) or value is None:
            entries.append({"path": path, "kind": "value", "type": type(value).__name__,
                            "value": value if not isinstance(value, str) else value[:200]})
        else:
            entries.append({"path": path, "kind": "object", "type": type(value).__qualname__})

    for i, value in enumerate(args):
        visit(value, names[i] if i < len(names) else f"arg{i}", 0)
    return {"entries": entries, "truncated": truncated}


def describe_decompositions(table) -> dict | None:
    """The decomposition table passed to precompile: None when none was passed."""
    if table is None:
        return None
    try:
        names = sorted({str(op) for op in table})
    except TypeError:
        return {"count": None, "ops": [], "sha256": None, "error": f"not iterable: {type(table).__name__}"}
    digest = hashlib.sha256("\n".join(names).encode()).hexdigest()
    return {"count": len(names), "ops": names[:MAX_DECOMPOSITION_NAMES], "sha256": digest}


def _vec_isa(used_inductor: bool) -> str | None:
    if not used_inductor:
        return None
    try:
        from torch._inductor import cpu_vec_isa

        isa = cpu_vec_isa.pick_vec_isa()
        return str(isa) or None
    except Exception:  # noqa: BLE001 - an older or changed inductor: unknown
        return None


def run_provenance(script: str, script_bytes: bytes | None, captures: list[dict]) -> dict:
    """The run's ``provenance`` object (docs/report.schema.json)."""
    import torch

    used_inductor = any(c.get("backend") == "inductor" and c.get("artifact") for c in captures)
    attached = environment.attached()
    return {
        "script": script,
        "script_sha256": hashlib.sha256(script_bytes).hexdigest() if script_bytes is not None else None,
        "torch": {
            "version": torch.__version__,
            "git": getattr(torch.version, "git_version", None),
            "cuda": getattr(torch.version, "cuda", None),
        },
        "python": sys.version.split()[0],
        "machine": {
            "system": platform.system(),
            "arch": platform.machine(),
            "cpu_vec_isa": _vec_isa(used_inductor),
        },
        "environment": {
            "executable": sys.executable,
            "prefix": sys.prefix,
            "user_env": attached.get("path"),
            "site_dirs": attached.get("site_dirs", []),
        },
    }
