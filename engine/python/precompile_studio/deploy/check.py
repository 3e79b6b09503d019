"""Will it load there: a stored pair loaded in this environment as a user's server would load it.

The pair is loaded in a fresh process with plain ``torch.compiler.precompile`` and an empty
Inductor cache folder (so nothing this machine compiled before can stand in for the pair's own
cache), called once with the example inputs the script builds here, and judged against eager
``fn`` here. The outcome is one of:

- ``loads``: loaded and called with no kernel compiled (its cache was reused);
- ``fallback``: it ran, but compiled its kernels (or precompile logged that it could not use
  the cache); the reason names the stamp that explains it where one does;
- ``refused``: the load or the first call raised (precompile's words, and the stamp behind it);
- ``error``: the script itself could not run here (not the artifact's doing).
"""
from __future__ import annotations

import os
import tempfile

from precompile_studio.common.outcomes import CheckOutcome
from precompile_studio.deploy import stamps
from precompile_studio.deploy.child import run_probe

# What torch._precompile logs when it cannot use a pair's cache and compiles instead (its
# load's other warning, that python_code is executable input, says nothing about the cache).
UNTRUSTED = "untrusted"


def _cache_warnings(log: list[str]) -> list[str]:
    return [m for m in log if UNTRUSTED not in m.lower()]


def _explain(diffs: list[dict], effect: str) -> dict | None:
    return next((d for d in diffs if d["effect"] == effect), None) or (diffs[0] if diffs else None)


def outcome(result: dict, made: dict | None, uses_gpu: bool, inductor: bool) -> dict:
    """The check's section (docs/report.schema.json, ``check``) from the probe's result."""
    here = result.get("stamps")
    diffs = stamps.differences(made, here, uses_gpu=uses_gpu, inductor=inductor)
    out: dict = {"target": here, "differences": diffs, "first_call_s": result.get("first_call_s"),
                 "load_s": result.get("load_s"), "import_s": result.get("import_s"),
                 "kernels_compiled": result.get("kernels_compiled"), "log": result.get("log") or [],
                 "accuracy": result.get("accuracy"), "stamp": None, "precompile_message": None}
    error = result.get("error")
    if error and error.get("stage") in ("load", "call"):
        d = _explain(diffs, "refused")
        where = "loading it" if error["stage"] == "load" else "its first call"
        out.update(outcome=CheckOutcome.REFUSED, precompile_message=error["message"],
                   stamp=d["stamp"] if d else None,
                   reason=f"refused at {where}: {error['message']}" + (f" ({stamps.sentence(d)})" if d else ""))
        return out
    if error and error.get("stage") != "eager":
        while_ = _STAGE_WORDS.get(error.get("stage"), "probing")
        out.update(outcome=CheckOutcome.ERROR, reason=f"could not be checked: {error['message']} (while {while_})")
        return out
    warned = _cache_warnings(out["log"])
    compiled = result.get("kernels_compiled") or 0
    if warned or compiled:
        d = _explain(diffs, "fallback")
        what = (f"precompile could not use its cache ({warned[0]})" if warned
                else f"{compiled} kernel{'s' if compiled != 1 else ''} compiled at load")
        because = stamps.sentence(d) if d else _NO_STAMP_CPU if not uses_gpu and not warned else _NO_STAMP
        out.update(outcome=CheckOutcome.FALLBACK, stamp=d["stamp"] if d else None,
                   precompile_message=warned[0] if warned else None,
                   reason=f"loads but falls back to compiling: {what}; {because}")
        return out
    reason = "loads with its cache: no kernel compiled" if inductor else "loads (an eager artifact has no kernels)"
    if diffs:
        reason += f", though {stamps.sentence(diffs[0])}"
    if error:  # eager fn failed here after the artifact ran
        reason += f"; eager fn could not run here to compare ({error['message']})"
    out.update(outcome=CheckOutcome.LOADS, reason=reason)
    return out


_NO_STAMP_CPU = ("no stamp differs: precompile's cache carries GPU (Triton) kernels and autotune results, "
                 "not Inductor's C++ kernels, so an artifact for the CPU compiles them at its first load "
                 "on every machine whose Inductor cache does not hold them yet")
_NO_STAMP = "no stamp differs, yet the cache did not hold these kernels"
_STAGE_WORDS = {"import": "importing torch", "script": "running the script", "probe": "starting a fresh process"}


def check(script: str, backend: str, tracer: str, python_code_path: str, cache_path: str, made: dict | None,
          uses_gpu: bool = False, timeout: float | None = None) -> dict:
    """Loads the pair at the two paths in a fresh process here; the ``check`` section."""
    with tempfile.TemporaryDirectory(prefix="ps-check-") as work:
        request = {"mode": "load", "script": script, "backend": backend, "tracer": tracer,
                   "python_code": python_code_path, "cache": cache_path, "compare": True}
        result = run_probe(request, work, "check", cache_dir=os.path.join(work, "inductor-cache"), timeout=timeout)
    return outcome(result, made, uses_gpu=uses_gpu, inductor=backend == "inductor")
