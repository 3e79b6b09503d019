"""What the studio adds to a precompile call, on a 4-layer transformer encoder training step.

Not a test (pytest does not collect it); run it with the studio's python:

    PYTHONPATH=engine/python python tests/bench/worker_sees/bench_extraction_overhead.py [--backend inductor|eager]
        [--rounds N] [--d-model 64] [--decompose]

Each round calls bare precompile (this torch's API, through the studio's front end) and the studio's capture
(``capture.run_capture``: the probe during the call, then graph extraction, lowering map,
cache inspection, classification) on the same computation, alternating, in one process,
after one warm-up call of each (so both see Inductor's FX-graph cache equally warm).
"extra" is the studio's own time measured inside the studio's call; "delta" is the
wall-clock difference between the two calls (noisier). Then the warm-load speed-up, as
verification measures it: ``load`` with the cache (a reload on this machine) against
``load`` without it in a fresh Inductor cache dir (kernels JIT); and, for the record, a
load in a fresh dir primed only by the cache's bundle.

Prints a table and one ``BENCH <name> <value> <unit> <target>`` line per figure.
"""
from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "..", "engine", "python")))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--d-model", type=int, default=64)
    ap.add_argument("--decompose", action="store_true",
                    help="capture with the core ATen decomposition table (more nodes)")
    ap.add_argument("--no-load", action="store_true")
    ns = ap.parse_args()
    if "TORCHINDUCTOR_CACHE_DIR" not in os.environ:
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-inductor-")

    import torch

    from precompile_studio.api.choose import current  # this torch's precompile API (2.14 or 2.15)
    from precompile_studio.capture.runner import run_capture
    from precompile_studio.verify.load import load_artifact, no_cache_envelope

    torch.manual_seed(0)
    d = ns.d_model
    layer = torch.nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.1, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, 4, enable_nested_tensor=False).train()
    x = torch.randn(8, 32, d)
    decomps = None
    if ns.decompose:
        from torch._decomp import core_aten_decompositions

        decomps = core_aten_decompositions()

    def train_step(model, x):
        loss = model(x).square().mean()
        loss.backward()
        return loss

    def bare():
        m = copy.deepcopy(model)
        t0 = time.perf_counter()
        out = current().capture(train_step, (m, x), backend=ns.backend, tracer="make_fx", decompositions=decomps)
        return time.perf_counter() - t0, out

    def studio():
        m = copy.deepcopy(model)
        t0 = time.perf_counter()
        rec = run_capture(
            lambda: current().capture(train_step, (m, x), backend=ns.backend, tracer="make_fx",
                                      decompositions=decomps),
            "train_step", ns.backend, "make_fx", __file__, fn=train_step, args=(m, x),
        )
        return time.perf_counter() - t0, rec

    print(f"backend={ns.backend} d_model={d} decompose={ns.decompose} torch={torch.__version__}", flush=True)
    t_cold, _ = bare()
    print(f"warm-up bare precompile (cold caches): {t_cold:.2f} s", flush=True)
    studio()
    rows = []
    for r in range(ns.rounds):
        tb, (code, cache) = bare()
        ts, rec = studio()
        assert rec.status == "ok", rec.violation
        assert rec.python_code == code, "the studio changed python_code"
        extra = rec.timings["studio_overhead"]
        rows.append((tb, ts, extra, rec))
        print(f"round {r + 1}: bare {tb:.3f} s  studio {ts:.3f} s  extra {extra:.4f} s "
              f"(hooks {rec.probe.hook_s:.4f}, graph {rec.timings['extract_graph']:.4f}, "
              f"lowering {rec.timings['extract_lowering']:.4f}, "
              f"cache {rec.timings['inspect_cache']:.4f})", flush=True)
    rec = rows[-1][3]
    nodes = rec.graph["nodes"]
    pre = statistics.median(r[0] for r in rows)
    extra = statistics.median(r[2] for r in rows)
    delta = statistics.median(r[1] - r[0] for r in rows)
    print(f"\n{'nodes':<28}{nodes}")
    print(f"{'precompile (bare, median)':<28}{pre:.3f} s")
    print(f"{'studio extra (median)':<28}{extra:.4f} s  ({100 * extra / pre:.2f} %)")
    print(f"{'wall delta (median)':<28}{delta:.4f} s  ({100 * delta / pre:.2f} %)")
    tag = f"{ns.backend}{'.decomposed' if ns.decompose else ''}"
    print(f"BENCH worker_sees.{tag}.nodes {nodes} count -")
    print(f"BENCH worker_sees.{tag}.precompile {pre:.4f} s -")
    print(f"BENCH worker_sees.{tag}.extra {extra:.4f} s -")
    print(f"BENCH worker_sees.{tag}.extra_ratio {extra / pre:.4f} ratio <=0.05")
    print(f"BENCH worker_sees.{tag}.wall_delta_ratio {delta / pre:.4f} ratio <=0.05")

    if ns.backend == "inductor" and not ns.no_load:
        code, cache = rec.python_code, rec.cache
        # what verification reports: a reload on this machine, and a JIT load
        _f, t_warm, err, _ = load_artifact(code, cache)
        assert err is None, err
        _f, t_jit, err, _ = load_artifact(code, no_cache_envelope(cache, code, "inductor"), fresh=True)
        assert err is None, err
        # and what the bundle alone is worth: a fresh cache dir primed only by it
        _f, t_bundle, err, _ = load_artifact(code, cache, fresh=True)
        assert err is None, err
        print(f"{'load with cache':<28}{t_warm:.3f} s")
        print(f"{'load without cache (JIT)':<28}{t_jit:.3f} s")
        print(f"{'load, fresh dir + bundle':<28}{t_bundle:.3f} s")
        print(f"BENCH worker_sees.load_with_cache {t_warm:.4f} s -")
        print(f"BENCH worker_sees.load_no_cache {t_jit:.4f} s -")
        print(f"BENCH worker_sees.warm_load_speedup {t_jit / t_warm:.3f} ratio -")
        print(f"BENCH worker_sees.bundle_only_load_speedup {t_jit / t_bundle:.3f} ratio -")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
