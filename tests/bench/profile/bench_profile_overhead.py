"""[overlays] benchmark: what `run --profile` costs against `run`, on the resnet18 inference gallery
script (tests/gallery/resnet18_inference.py) lowered with inductor, in one invocation.

Prints a table and BENCH lines: the wall of each command (cold processes, alternating, after one
warm-up of each so Inductor's cache is warm for both; the fastest round of each compared, noise
only ever adds time), their ratio, and from the profiled report: the profiler's own overhead per
artifact call (profiled_wall_us - wall_us), the kernels' self time against the profiled wall, and
the kernels named and mapped to graph nodes.

usage: bench_profile_overhead.py BUILD_DIR [--rounds N]
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
SCRIPT = os.path.join(ROOT, "tests", "gallery", "resnet18_inference.py")
RATIO_TARGET = 1.5  # run --profile against run: five more calls plus five profiled


def studio(build: str, profile: bool, env: dict) -> tuple[float, dict]:
    cmd = [os.path.join(build, "bin", "precompile-studio"), "run", SCRIPT, "--backend", "inductor", "--json",
           "--no-store"] + (["--profile"] if profile else [])
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, check=False)
    wall = time.perf_counter() - t0
    try:
        report = json.loads(p.stdout)
    except ValueError:
        report = {}
    return wall, report


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    # Inductor's and the studio's caches of their own: the warm-up's cold lowering teaches the studio
    # which graph nodes each C++ kernel computes (capture/lowering.py), so the warm runs map them too
    caches = tempfile.mkdtemp(prefix="ps-bench-profile-")
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": os.path.join(caches, "inductor"),
           "PRECOMPILE_STUDIO_CACHE_DIR": os.path.join(caches, "studio")}
    try:
        return measure(build, a.rounds, env)
    finally:
        shutil.rmtree(caches, ignore_errors=True)


def measure(build: str, rounds: int, env: dict) -> int:
    studio(build, False, env)  # warm-up: page cache, Inductor's cache
    studio(build, True, env)
    plain, profiled, reports = [], [], []
    for _ in range(rounds):
        plain.append(studio(build, False, env)[0])
        wall, report = studio(build, True, env)
        profiled.append(wall)
        reports.append(report)
    caps = [(r.get("captures") or [{}])[0] for r in reports]
    profiles = [c.get("profile") or {} for c in caps]
    best = min(range(len(profiles)), key=lambda i: profiles[i].get("profiled_wall_us") or float("inf"))
    p = profiles[best]
    if not p.get("kernels"):
        print(f"run --profile made no profile: {p.get('error') or 'no report'}", file=sys.stderr)
        return 1
    lowering = caps[best].get("lowering") or {}
    kernels = p["kernels"]
    self_us = sum(k["self_us"] for k in kernels)
    mapped = sum(1 for k in kernels if k["nodes"])
    ratio = min(profiled) / min(plain)
    overhead_ms = p["overhead_us"] / 1000
    print("resnet18 inference (inductor), tests/gallery/resnet18_inference.py")
    print(f"{'':34} {'fastest':>9} {'median':>9}")
    print(f"{'run (s)':34} {min(plain):9.2f} {sorted(plain)[len(plain) // 2]:9.2f}")
    print(f"{'run --profile (s)':34} {min(profiled):9.2f} {sorted(profiled)[len(profiled) // 2]:9.2f}")
    print(f"ratio run --profile / run: {ratio:.2f}x (target at most {RATIO_TARGET}x)")
    print(f"one artifact call: {p['wall_us'] / 1000:.2f} ms without the profiler, "
          f"{p['profiled_wall_us'] / 1000:.2f} ms under it ({p['calls']} calls): "
          f"profiler overhead {overhead_ms:.2f} ms ({100 * p['overhead_us'] / p['wall_us']:.0f} %)")
    print(f"kernels' self time {self_us / 1000:.2f} ms + {p['unattributed_us'] / 1000:.2f} ms unattributed "
          f"= {(self_us + p['unattributed_us']) / 1000:.2f} ms against the profiled wall "
          f"{p['profiled_wall_us'] / 1000:.2f} ms")
    print(f"kernels: {len(kernels)} ({mapped} mapped to graph nodes; lowering: "
          f"{len(lowering.get('kernels') or [])} kernels, {len(lowering.get('extern_calls') or [])} extern calls)")
    print(f"BENCH profile_run_ratio {ratio:.3f} x {RATIO_TARGET}")
    print(f"BENCH profile_overhead_per_call {overhead_ms:.3f} ms -")
    print(f"BENCH profile_kernels_share_of_wall {self_us / p['profiled_wall_us']:.3f} fraction -")
    return 0


if __name__ == "__main__":
    sys.exit(main())
