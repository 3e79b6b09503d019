"""Runs deploy/probe.py in a fresh process of this environment's Python and reads its result.

The child sees what this worker sees (its sys.path: the studio's package and the user's
environment), in the script's folder, with its own Inductor and Triton cache folders (the
caller's ``cache_dir``: a fresh one measures a cold start), and inherits the worker's process
group, so a cancel or the run's timeout kills it with the worker. Its output is kept in a file
and only its last lines are read, to say why a child that wrote no result ended.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

TAIL_BYTES = 4000


def _tail(path: str) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - TAIL_BYTES))
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [line for line in text.splitlines() if line.strip()]
    return " | ".join(lines[-3:])[:600]


def run_probe(request: dict, work: str, name: str, cache_dir: str | None = None,
              timeout: float | None = None) -> dict:
    """The probe's result for ``request`` (probe.py), run in ``work`` under ``name``; a child that
    wrote none is an ``error`` naming its exit and its last words."""
    req, res, log = (os.path.join(work, f"{name}.{ext}") for ext in ("request.json", "result.json", "log"))
    with open(req, "w", encoding="utf-8") as f:
        json.dump(request, f)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
    env.pop("PYTHONHOME", None)
    if cache_dir is not None:
        os.makedirs(cache_dir, exist_ok=True)
        env["TORCHINDUCTOR_CACHE_DIR"] = cache_dir
        env["TRITON_CACHE_DIR"] = os.path.join(cache_dir, "triton")
    script_dir = os.path.dirname(os.path.abspath(request["script"]))
    with open(log, "wb") as out:
        try:
            proc = subprocess.run([sys.executable, "-m", "precompile_studio.deploy.probe", req, res],
                                  cwd=script_dir, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                  stderr=subprocess.STDOUT, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return {"error": {"stage": "probe", "message": f"the fresh process did not finish in {timeout:.0f} s"}}
        except OSError as exc:
            return {"error": {"stage": "probe", "message": f"the fresh process could not start: {exc}"}}
    try:
        with open(res, encoding="utf-8") as f:
            result = json.load(f)
    except (OSError, ValueError):
        how = (f"was killed by signal {-proc.returncode}" if proc.returncode < 0
               else f"exited with code {proc.returncode}")
        last = _tail(log)
        return {"error": {"stage": "probe", "message": f"the fresh process {how} without a result"
                                                        + (f"; its last output: {last}" if last else "")}}
    if not isinstance(result, dict):
        return {"error": {"stage": "probe", "message": "the result is not an object"}}
    return result
