"""[real-models] benchmark: what the default `precompile-studio run SCRIPT` costs against the plain
baseline a user would write (plain_verify.py: precompile + load + one call compared with eager),
on torchvision resnet50 and vit_b_16 inference (eager backend) and a transformers GPT-2 training
step (inductor); also mobilenet_v3_small (eager) and transformers BERT and Llama inference (eager).
Targets: at most 1.10x the wall time on the three torchvision models ([torch-2.15]: on each torch),
1.25x on the transformers models, and 1.4x the peak memory.

Each run is a cold process; wall time is the process's, peak memory the largest resident set of
the process and its children (wait4: the studio's front end and its worker). The two alternate,
round by round, after one warm-up run of each (page cache, Inductor's cache shared by both), so
machine noise hits both alike. Noise only ever adds time, so the fastest round of each side is
compared (timeit's rule; the medians are printed too); peak memory does not vary: medians.

GPT-2 needs transformers, which the studio's environment does not have: the bench runs it from
the user environment named by PS_BENCH_USER_ENV (a venv with the same torch build, torchvision and
transformers), the studio through `run SCRIPT --python-env ENV`, the baseline with ENV's python.
Without it, GPT-2 is skipped with a message.

usage: bench_verify_cost.py BUILD_DIR [--rounds N] [--models resnet50,vit_b_16,mobilenet_v3_small,gpt2,bert,llama]
environment: PS_BENCH_USER_ENV (see above); PS_BENCH_BEFORE_PACKAGE=DIR also measures the studio
with the Python package in DIR (e.g. an older engine/python) in the same rounds, for a before /
after comparison.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
WALL_TARGET, PEAK_TARGET = 1.25, 1.40
WALL_TARGET_TORCHVISION = 1.10  # resnet50, vit_b_16, mobilenet_v3_small
MODELS = {  # name: (script, needs the user environment, environment for the script)
    "resnet50": ("torchvision_inference.py", False, {"PS_BENCH_TORCHVISION_MODEL": "resnet50"}),
    "vit_b_16": ("torchvision_inference.py", False, {"PS_BENCH_TORCHVISION_MODEL": "vit_b_16"}),
    "mobilenet_v3_small": ("torchvision_inference.py", False, {"PS_BENCH_TORCHVISION_MODEL": "mobilenet_v3_small"}),
    "gpt2": ("gpt2_training.py", True, {}),  # transformers: from the user environment
    "bert": ("bert_inference.py", True, {}),
    "llama": ("llama_inference.py", True, {}),
}


def run(cmd: list[str], env: dict) -> dict:
    """{wall_s, peak_mb, rc, out} of one cold process (and its children)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = p.stdout.read()
    _pid, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return {"wall_s": wall, "peak_mb": usage.ru_maxrss / 1024.0, "rc": p.returncode,
            "out": out.decode("utf-8", "replace")}


def studio_figures(out: str) -> dict:
    """Nodes, timings and verdict from the studio's --json report."""
    try:
        rep = json.loads(out)
        cap = rep["captures"][0]
    except (ValueError, KeyError, IndexError):
        return {"verdict": "no report"}
    t = cap.get("timings_s") or {}
    v = cap.get("verify") or {}
    return {"nodes": (cap.get("graph") or {}).get("nodes"), "precompile": t.get("precompile"),
            "verify": t.get("verify"), "load": t.get("load"), "status": rep.get("status"),
            "verdict": (v.get("accuracy") or {}).get("verdict") or v.get("status"),
            "skipped": (v.get("budget") or {}).get("skipped", [])}


def fmt(x, spec=".2f") -> str:
    return "-" if x is None else format(x, spec)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--rounds", type=int, default=int(os.environ.get("PS_BENCH_ROUNDS", "3")))
    ap.add_argument("--models", default="resnet50,vit_b_16,mobilenet_v3_small,gpt2,bert,llama")
    ap.add_argument("--no-warmup", action="store_true")
    ap.add_argument("--torch", default=os.environ.get("PS_BENCH_TORCH", "2.15,2.14"),
                    help="the torch series to measure, each with the studio's environment of it (a series whose "
                         "environment is not made is skipped)")
    opts = ap.parse_args()
    studio = os.path.join(os.path.abspath(opts.build), "bin", "precompile-studio")
    user_env = os.environ.get("PS_BENCH_USER_ENV", "")
    before = os.environ.get("PS_BENCH_BEFORE_PACKAGE", "")
    scratch = tempfile.mkdtemp(prefix="ps-bench-verify-")
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": os.path.join(scratch, "inductor"),
           "PRECOMPILE_STUDIO_CACHE_DIR": os.path.join(scratch, "studio"),
           "XDG_DATA_HOME": os.path.join(scratch, "data")}
    results = []
    try:
        for series, model in [(t, m) for t in opts.torch.split(",") for m in opts.models.split(",")]:
            torch_env = subprocess.run(["bash", os.path.join(ROOT, "packaging", "python-env-path.sh"), series],
                                       capture_output=True, text=True).stdout.strip()
            if not os.path.exists(os.path.join(torch_env, ".complete")):
                print(f"== torch {series} {model}: skipped: no environment {torch_env} (make test makes both)",
                      flush=True)
                continue
            # the studio runs the worker of that torch (its environment in PS_PYTHON_ENV)
            studio_python = os.path.join(torch_env, "bin", "python")
            script, needs_user_env, model_env = MODELS[model]
            script = os.path.join(HERE, script)
            python, extra = studio_python, []
            if needs_user_env:
                ok = user_env and subprocess.run([os.path.join(user_env, "bin", "python"), "-c", "import transformers"],
                                                 capture_output=True).returncode == 0
                if not ok:
                    print(f"== {model}: skipped: set PS_BENCH_USER_ENV to a venv with torch (the studio's build), "
                          "torchvision and transformers, e.g. python3 -m venv V && V/bin/pip install "
                          "torch==2.14.1 torchvision==0.29.1 transformers", flush=True)
                    continue
                python, extra = os.path.join(user_env, "bin", "python"), ["--python-env", user_env]
            run_env = {**env, **model_env, "PS_PYTHON_ENV": torch_env}
            sides = {"studio": ([studio, "run", script, "--json", "--no-store", *extra], run_env),
                     "plain": ([python, os.path.join(HERE, "plain_verify.py"), script], run_env)}
            if before:
                sides["before"] = (sides["studio"][0], {**run_env, "PS_PYTHON_PACKAGE_DIR": before})
            order = list(sides)
            print(f"== torch {series} {model}: {opts.rounds} round(s) of {', '.join(order)}", flush=True)
            if not opts.no_warmup:
                for side in order:
                    run(*sides[side])
            got: dict[str, list[dict]] = {s: [] for s in order}
            for r in range(opts.rounds):
                for side in (order if r % 2 == 0 else list(reversed(order))):
                    res = run(*sides[side])
                    got[side].append(res)
                    print(f"   {side:7s} round {r + 1}: {res['wall_s']:7.2f} s {res['peak_mb']:7.0f} MB rc {res['rc']}",
                          flush=True)
            row = {"model": model, "torch": series, **studio_figures(got["studio"][-1]["out"])}
            for side in order:
                row[f"{side}_wall"] = min(x["wall_s"] for x in got[side])
                row[f"{side}_wall_median"] = statistics.median(x["wall_s"] for x in got[side])
                row[f"{side}_peak"] = statistics.median(x["peak_mb"] for x in got[side])
            results.append(row)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print()
    print("wall: the fastest round of each side; peak: the median")
    head = (f"{'torch':5s} {'model':10s} {'nodes':>6s} {'precomp':>8s} {'verify':>7s} {'load':>6s} {'studio s':>9s} "
            f"{'plain s':>8s} {'wall x':>7s} {'studio MB':>10s} {'plain MB':>9s} {'peak x':>7s}  verdict")
    if before:
        head += "  | before s  before MB  before wall x  before peak x"
    print(head)
    for row in results:
        wall = row["studio_wall"] / row["plain_wall"]
        peak = row["studio_peak"] / row["plain_peak"]
        line = (f"{row['torch']:5s} {row['model']:10s} {fmt(row.get('nodes'), 'd'):>6s} "
                f"{fmt(row.get('precompile')):>8s} "
                f"{fmt(row.get('verify')):>7s} {fmt(row.get('load')):>6s} {row['studio_wall']:9.2f} "
                f"{row['plain_wall']:8.2f} {wall:7.2f} {row['studio_peak']:10.0f} {row['plain_peak']:9.0f} "
                f"{peak:7.2f}  {row.get('verdict')}")
        if before:
            line += (f"  | {row['before_wall']:8.2f} {row['before_peak']:10.0f} "
                     f"{row['before_wall'] / row['plain_wall']:14.2f} {row['before_peak'] / row['plain_peak']:14.2f}")
        print(line)
        print(f"{'':10s} median wall: studio {row['studio_wall_median']:.2f} s, plain {row['plain_wall_median']:.2f} s"
              + (f", before {row['before_wall_median']:.2f} s" if before else ""))
        if row.get("skipped"):
            print(f"{'':10s} within budget, skipped: {', '.join(row['skipped'])}")
    print()
    for row in results:
        m = f"torch{row['torch']}.{row['model']}"
        target = WALL_TARGET_TORCHVISION if MODELS[row["model"]][0] == "torchvision_inference.py" else WALL_TARGET
        print(f"BENCH verify_cost.{m}.wall_ratio {row['studio_wall'] / row['plain_wall']:.3f} x <={target}")
        print(f"BENCH verify_cost.{m}.peak_ratio {row['studio_peak'] / row['plain_peak']:.3f} x <={PEAK_TARGET}")
        print(f"BENCH verify_cost.{m}.studio_wall {row['studio_wall']:.2f} s -")
        print(f"BENCH verify_cost.{m}.plain_wall {row['plain_wall']:.2f} s -")
        print(f"BENCH verify_cost.{m}.studio_peak {row['studio_peak']:.0f} MB -")
        print(f"BENCH verify_cost.{m}.plain_peak {row['plain_peak']:.0f} MB -")
        if before:
            print(f"BENCH verify_cost.{m}.before_wall_ratio {row['before_wall'] / row['plain_wall']:.3f} x -")
            print(f"BENCH verify_cost.{m}.before_peak_ratio {row['before_peak'] / row['plain_peak']:.3f} x -")
    return 0


if __name__ == "__main__":
    sys.exit(main())
