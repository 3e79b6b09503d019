"""The cold-start ledger of a capture: what its artifact saves when a server starts.

Each step is a fresh process (child.py running probe.py), so no cache of this worker helps:

=====================  ==========================================================================
``eager``              ``fn`` called once
``compile_cold``       ``torch.compile(fn)`` called once, its Inductor cache folder empty
``compile_warm``       the same in another process, over the folder the cold one filled
``precompiled``        the pair loaded with its cache (a fresh cache folder) and called once
``precompiled_no_cache``  the same pair with the kernel bundle taken out of its cache (JIT)
=====================  ==========================================================================

A step's ``first_call_s`` is the time from the first line of the server's own code after
``import torch`` (timed apart, ``import_s``) and the script (``script_s``: building the model
and the inputs) to the first result: a compile's or a load's time included.
"""
from __future__ import annotations

import os
import shutil
import statistics
import tempfile
from collections.abc import Callable

from precompile_studio.deploy.child import run_probe

STEPS = ("eager", "compile_cold", "compile_warm", "precompiled", "precompiled_no_cache")
WORDS = {"eager": "eager", "compile_cold": "torch.compile, cold cache", "compile_warm": "torch.compile, warm cache",
         "precompiled": "precompiled, with its cache", "precompiled_no_cache": "precompiled, without its cache (JIT)"}


def not_measured(reason: str) -> dict:
    return {"ran": False, "reason": reason, "steps": [], "import_s": None, "message": reason}


def _seconds(x: float | None) -> str:
    if x is None:
        return "?"
    return f"{x:.2f} s" if x < 1 else f"{x:.1f} s"  # 0.41 s, 4.0 s, 31.8 s


def _message(steps: dict[str, dict]) -> str:
    pre = steps.get("precompiled", {})
    if pre.get("error"):
        return f"the precompiled pair did not start: {pre['error']['message']}"
    cold, warm = steps.get("compile_cold", {}), steps.get("compile_warm", {})
    parts = []
    if cold.get("first_call_s") is not None:
        parts.append(f"{_seconds(cold['first_call_s'])} for torch.compile cold")
    if warm.get("first_call_s") is not None:
        parts.append(f"{_seconds(warm['first_call_s'])} warm")
    first = f"first call {_seconds(pre.get('first_call_s'))}"
    return first + (", against " + " and ".join(parts) if parts else "")


def ledger(script: str, backend: str, tracer: str, python_code: str, cache: bytes,
           on_step: Callable[[str], None] | None = None, timeout: float | None = None) -> dict:
    """The ``cold_start`` section of a capture (docs/report.schema.json)."""
    from precompile_studio.verify.load import no_cache_envelope

    work = tempfile.mkdtemp(prefix="ps-cold-start-")
    try:
        code_path = os.path.join(work, "artifact.py")
        cache_path = os.path.join(work, "artifact.cache")
        bare_path = os.path.join(work, "artifact-no-kernels.cache")
        with open(code_path, "w", encoding="utf-8") as f:
            f.write(python_code)
        with open(cache_path, "wb") as f:
            f.write(cache)
        with open(bare_path, "wb") as f:
            f.write(no_cache_envelope(cache, python_code, backend))
        base = {"script": script, "backend": backend, "tracer": tracer}
        compile_cache = os.path.join(work, "compile-cache")
        plans = {
            "eager": ({"mode": "eager"}, os.path.join(work, "eager-cache")),
            "compile_cold": ({"mode": "compile"}, compile_cache),
            "compile_warm": ({"mode": "compile"}, compile_cache),
            "precompiled": ({"mode": "load", "python_code": code_path, "cache": cache_path},
                            os.path.join(work, "load-cache")),
            "precompiled_no_cache": ({"mode": "load", "python_code": code_path, "cache": bare_path},
                                     os.path.join(work, "load-no-cache")),
        }
        results: dict[str, dict] = {}
        for step in STEPS:
            if on_step:
                on_step(WORDS[step])
            request, folder = plans[step]
            results[step] = run_probe({**base, **request}, work, step, cache_dir=folder, timeout=timeout)
        steps = [{"step": s, "first_call_s": r.get("first_call_s"), "load_s": r.get("load_s"),
                  "import_s": r.get("import_s"), "script_s": r.get("script_s"),
                  "kernels_compiled": r.get("kernels_compiled"),
                  "error": r.get("error")} for s, r in results.items()]
        imports = [r["import_s"] for r in results.values() if r.get("import_s") is not None]
        pre, cold = results["precompiled"].get("first_call_s"), results["compile_cold"].get("first_call_s")
        return {"ran": True, "reason": None, "steps": steps,
                "import_s": statistics.median(imports) if imports else None,
                "saving": (cold / pre) if pre and cold else None,
                "message": _message(results)}
    finally:
        shutil.rmtree(work, ignore_errors=True)
