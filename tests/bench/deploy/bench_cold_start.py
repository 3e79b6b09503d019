"""[deploy] benchmark: what precompile saves at start-up, and what `library check` costs.

For resnet18 inference (tests/gallery/resnet18_inference.py) and a small GPT's training step
(tests/bench/graph/transformer_step.py), both on inductor: `run --cold-start` measures each step in
a fresh process (eager, torch.compile with an empty and a warm Inductor cache, the pair with and
without its cache). Then `library check` of the stored run against a plain cold process that
loads the pair and calls it once (plain_load_call.py), alternating, fastest of each compared
(noise only ever adds time).

Prints a table per model and BENCH lines:
  deploy.<model>.precompiled_over_compile_cold  the precompiled first call / torch.compile cold's (target < 1)
  deploy.<model>.precompiled_first_call         seconds
  deploy.<model>.compile_cold_first_call        seconds
  deploy.<model>.check_over_plain_load          library check's wall / a plain load + call's (target 3)

usage: bench_cold_start.py BUILD_DIR [--rounds N]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
MODELS = {"resnet18": os.path.join(ROOT, "tests", "gallery", "resnet18_inference.py"),
          "gpt": os.path.join(ROOT, "tests", "bench", "graph", "transformer_step.py")}
CHECK_TARGET = 3.0  # the check: a studio and a worker process, then the probe's own, eager and the judge
STEPS = ("eager", "compile_cold", "compile_warm", "precompiled", "precompiled_no_cache")


def timed(cmd: list[str], env: dict) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, env=env, check=False, text=True)
    return time.perf_counter() - t0, p


def bench(build: str, name: str, script: str, rounds: int, work: str, env: dict) -> int:
    studio = os.path.join(build, "bin", "precompile-studio")
    lib = os.path.join(work, f"{name}.db")
    _wall, p = timed([studio, "--library", lib, "run", script, "--backend", "inductor", "--cold-start", "--json"], env)
    try:
        report = json.loads(p.stdout)
    except ValueError:
        print(f"{name}: run --cold-start made no report: {p.stderr[-500:]}", file=sys.stderr)
        return 1
    ledger = (report.get("captures") or [{}])[0].get("cold_start") or {}
    if not ledger.get("ran"):
        print(f"{name}: no ledger: {ledger.get('reason') or report.get('message')}", file=sys.stderr)
        return 1
    steps = {s["step"]: s for s in ledger["steps"]}
    print(f"{name} ({os.path.relpath(script, ROOT)}), inductor: {ledger['message']}")
    print(f"  {'step':34} {'first call':>11} {'kernels':>8}")
    for step in STEPS:
        s = steps.get(step, {})
        t = s.get("first_call_s")
        print(f"  {step:34} {t if t is not None else float('nan'):10.2f}s {s.get('kernels_compiled') or 0:8}"
              + (f"  failed: {s['error']['message'][:80]}" if s.get("error") else ""))
    print(f"  import torch apart: {ledger.get('import_s') or 0:.2f} s")
    pre, cold = steps["precompiled"].get("first_call_s"), steps["compile_cold"].get("first_call_s")

    run_id = str(report["run_id"])
    out = os.path.join(work, name)
    exported = subprocess.run([studio, "--library", lib, "library", "export", run_id, out, "--json"],
                              stdout=subprocess.PIPE, text=True, env=env, check=False)
    pair = [f for f in json.loads(exported.stdout)["files"] if f.endswith(".py")][0]
    python = os.path.join(subprocess.run(["bash", os.path.join(ROOT, "packaging", "python-env-path.sh")],
                                         stdout=subprocess.PIPE, text=True, check=True).stdout.strip(), "bin", "python")
    plain_cmd = [python, os.path.join(HERE, "plain_load_call.py"), script, pair, pair[:-3] + ".cache"]
    check_cmd = [studio, "--library", lib, "library", "check", run_id, "--json"]
    plain, check = [], []
    for _ in range(rounds):
        # each with an Inductor cache folder of its own, empty: the check loads in an empty one too
        for cmd, into in ((plain_cmd, plain), (check_cmd, check)):
            cache = tempfile.mkdtemp(dir=work)
            wall, p = timed(cmd, {**env, "TORCHINDUCTOR_CACHE_DIR": cache})
            if p.returncode not in (0, 1):
                print(f"{name}: {' '.join(cmd[:4])} failed: {p.stderr[-400:]}", file=sys.stderr)
                return 1
            into.append(wall)
    outcome = json.loads(p.stdout)["targets"][0]["check"]
    ratio = min(check) / min(plain)
    print(f"  library check {min(check):.2f} s (outcome {outcome['outcome']}, first call "
          f"{outcome['first_call_s']:.2f} s) against a plain load + call {min(plain):.2f} s: {ratio:.2f}x "
          f"(target at most {CHECK_TARGET}x)")
    print(f"BENCH deploy.{name}.precompiled_over_compile_cold {pre / cold:.3f} x <1")
    print(f"BENCH deploy.{name}.precompiled_first_call {pre:.2f} s -")
    print(f"BENCH deploy.{name}.compile_cold_first_call {cold:.2f} s -")
    print(f"BENCH deploy.{name}.check_over_plain_load {ratio:.3f} x {CHECK_TARGET}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--model", choices=sorted(MODELS), action="append")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="ps-bench-deploy-")
    env = {**os.environ, "PRECOMPILE_STUDIO_CACHE_DIR": os.path.join(work, "studio"),
           "TORCHINDUCTOR_CACHE_DIR": os.path.join(work, "inductor")}
    try:
        code = 0
        for name in a.model or list(MODELS):
            code |= bench(os.path.abspath(a.build), name, MODELS[name], a.rounds, work, env)
        return code
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
