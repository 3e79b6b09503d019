"""Bench: the regression gallery for false contract warnings ([trust]).

Runs real torchvision models through the studio (`precompile-studio run --json --no-store
--deep-verify`: every check, so that all three perturbed trials run on every seed, whatever the
budget of a tenth of the work would allow) on inductor, each with several seeds (fresh weights,
inputs and so trial values), and prints per model the verdicts and every warning seen.
Numerics drift is the backend's arithmetic and is expected on a training step; any other warning
on these clean models is a false one. Target: none. The "tight" column counts the trials that
were outside the dtype's tight tolerance and so went to the float64 judge: each of them was a
perturbed-divergence warning under the absolute tolerance the trials used before [trust].

It also reports the compile-time breakdown's coverage ([provenance]): the share of each
capture's precompile time that its compile_profile names (1 - other / precompile), on the first
seed (a cold capture: the bench's Inductor cache is empty, inductor's FX graph cache misses) and
the lowest over the later seeds (warm: the FX graph cache hits). Target: at least 90 %.

usage: bench_false_warnings.py BUILD_DIR [--models a,b,...] [--seeds N]
Kernels are cached between seeds (one Inductor cache dir for the bench); deep verification's
reload without the cache compiles them again on every run, which is most of the bench's time.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ("resnet18", "resnet50", "mobilenet_v3_small", "vit_b_16", "resnet18_train")


def run_one(studio: str, model: str, seed: int, env: dict) -> dict:
    e = dict(env, PS_GALLERY_MODEL=model, PS_GALLERY_SEED=str(seed))
    t0 = time.perf_counter()
    command = [studio, "run", os.path.join(HERE, "gallery_model.py"), "--json", "--no-store", "--deep-verify"]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=e)
    wall = time.perf_counter() - t0
    try:
        report = json.loads(done.stdout)
    except ValueError:
        return {"exit": done.returncode, "wall": wall, "verdict": "no report", "warnings": [], "trials": [],
                "named": []}
    warnings, trials, named = [], [], []
    for c in report.get("captures") or []:
        named.append(profile_coverage(c))
        warnings += [w.get("rule") or "?" for w in c.get("warnings") or []]
        p = (c.get("verify") or {}).get("perturbed") or {}
        trials += [f"{t.get('kind')}:{t.get('status')}" + ("(judged)" if t.get("accuracy") else "")
                   for t in p.get("trials") or []]
    for w in report.get("warnings") or []:
        warnings.append(w.get("rule") or "?")
    first = (report.get("message") or "").split("\n")[0]
    verdict = "numerics drift" if "numerics drift" in first else report.get("status")
    return {"exit": done.returncode, "wall": wall, "verdict": verdict, "warnings": warnings, "trials": trials,
            "named": [n for n in named if n is not None]}


def profile_coverage(capture: dict) -> float | None:
    """The share of the capture's precompile time its compile_profile names, in %; None without one."""
    profile = capture.get("compile_profile")
    total = (capture.get("timings_s") or {}).get("precompile")
    if not profile or not total:
        return None
    other = sum(p["seconds"] for p in profile if p.get("phase") == "other")
    return 100.0 * (1.0 - other / total)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--seeds", type=int, default=int(os.environ.get("PS_BENCH_SEEDS", "3")))
    opts = ap.parse_args()
    studio = os.path.join(opts.build, "bin", "precompile-studio")
    tmp = tempfile.mkdtemp(prefix="ps-bench-gallery-")
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, "inductor"),
               PRECOMPILE_STUDIO_CACHE_DIR=os.path.join(tmp, "studio"))
    rows = []
    coverage = []  # (model, named % of the cold capture, lowest named % of the warm ones)
    false_total = 0
    try:
        for model in opts.models.split(","):
            seen = collections.Counter()
            verdicts = collections.Counter()
            judged = 0
            cold, warm = None, []
            for seed in range(opts.seeds):
                r = run_one(studio, model, seed, env)
                judged += sum(1 for t in r["trials"] if t.endswith("(judged)"))
                if r["named"]:
                    if seed == 0:
                        cold = min(r["named"])
                    else:
                        warm.append(min(r["named"]))
                verdicts[r["verdict"]] += 1
                seen.update(r["warnings"])
                print(f"  {model} seed {seed}: {r['verdict']} (exit {r['exit']}, {r['wall']:.0f} s) "
                      f"warnings {r['warnings'] or '-'} trials {' '.join(r['trials']) or '-'}", flush=True)
            false = sum(n for rule, n in seen.items() if rule != "numerics-drift")
            false_total += false
            rows.append((model, dict(verdicts), dict(seen), false, judged))
            coverage.append((model, cold, min(warm) if warm else None))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    print(f"{'model':<20} {'runs':>4}  {'verdicts':<34} {'warnings seen':<40} {'false':>5} {'tight':>5}")
    for model, verdicts, seen, false, judged in rows:
        v = ", ".join(f"{k} x{n}" for k, n in verdicts.items())
        w = ", ".join(f"{k} x{n}" for k, n in seen.items()) or "none"
        print(f"{model:<20} {opts.seeds:>4}  {v:<34} {w:<40} {false:>5} {judged:>5}")
    for model, _v, _s, false, judged in rows:
        print(f"BENCH false_warnings.{model} {false} warnings 0")
        print(f"BENCH false_warnings.{model}.judged_trials {judged} trials -")
    print(f"BENCH false_warnings.total {false_total} warnings 0")
    for model, cold, warm in coverage:
        if cold is not None:
            print(f"BENCH compile_profile.{model}.cold_named {cold:.2f} % 90")
        if warm is not None:
            print(f"BENCH compile_profile.{model}.warm_named {warm:.2f} % 90")
    return 0


if __name__ == "__main__":
    sys.exit(main())
