"""Run one script through the studio on a GPU and assert what the report says about it.

usage: check_gpu.py STUDIO SCRIPT [--device cuda] [--kernels triton] [--timeout S]

Runs `STUDIO run SCRIPT --json --no-store` and asserts:
- the report follows docs/report.schema.json (where jsonschema is installed; said where not);
- the run is ok (exit 0) with one ok capture, and the accuracy verdict is "matches" or
  "numerics drift" (verify.status ok or drift), never wrong;
- the capture's `devices` are all of type DEVICE ("cuda:0"), and so are the compared values'
  (verify.outputs[i].result.devices);
- at least one kernel of kind KERNELS ("triton") is in the lowering, and every one of them maps
  to at least one node of the captured graph, each of its nodes a node of that graph;
- where the report has the `worker` object, it lists at least one CUDA device.

`--device cpu --kernels cpp` checks the same script run on the CPU (PS_GPU_CHECK_DEVICE=cpu),
to try this checker on a machine without a GPU. Exit 0: every assertion held; 1: one did not
(the line says which, then a brief of the report); 2: usage.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))


def fail(script: str, message: str, report: dict | None = None) -> None:
    print(f"check_gpu: {script}: FAIL: {message}", file=sys.stderr)
    if report is not None:
        brief = {k: report.get(k) for k in ("status", "message")}
        for c in report.get("captures") or []:
            v = c.get("verify") or {}
            brief.setdefault("captures", []).append({
                "name": c.get("name"), "status": c.get("status"), "outcome": c.get("outcome"),
                "devices": c.get("devices"),
                "verify": {k: v.get(k) for k in ("status", "args", "calls", "matches_eager", "max_abs_diff", "error",
                                                 "load_violation", "call_violation")},
                "accuracy": {k: (v.get("accuracy") or {}).get(k) for k in ("verdict", "message")},
                "timings_s": c.get("timings_s")})
        if report.get("error"):
            brief["error"] = report["error"]
        print(json.dumps(brief, indent=1)[:8000], file=sys.stderr)
    sys.exit(1)


def schema_problems(report: dict) -> list[str] | None:
    """The report's departures from docs/report.schema.json; None where jsonschema is missing."""
    try:
        import jsonschema
        import validate_report
    except ImportError:
        return None
    with open(validate_report.SCHEMA) as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
    return validate_report.problems(report, validator)


def kernel_problems(cap: dict, kind: str) -> tuple[int, list[str]]:
    """(the number of kernels of ``kind``, the ones that map to no node of the captured graph)."""
    graph = cap.get("graph") or {}
    names = {n.get("name") for n in graph.get("node_list") or []}
    lowering = cap.get("lowering") or {}
    kernels = [k for k in lowering.get("kernels") or [] if k.get("kind") == kind]
    bad = []
    for k in kernels:
        nodes = k.get("nodes") or []
        unknown = [n for n in nodes if n not in names]
        if not nodes or unknown:
            bad.append(f"{k.get('name')} (nodes {nodes}, from {k.get('nodes_from')}"
                       + (f", not in the graph: {unknown}" if unknown else "") + ")")
    return len(kernels), bad


def check(report: dict, returncode: int, script: str, device: str, kind: str) -> str:
    """Every assertion of the module's docstring; returns the summary line."""
    problems = schema_problems(report)
    if problems:
        fail(script, "the report does not follow docs/report.schema.json:\n  " + "\n  ".join(problems[:20]))
    if returncode != 0 or report.get("status") != "ok":
        fail(script, f"expected an ok run (exit 0), got {report.get('status')} (exit {returncode})", report)
    caps = report.get("captures") or []
    if len(caps) != 1 or caps[0].get("status") != "ok":
        fail(script, "expected one ok capture", report)
    cap = caps[0]
    ver = cap.get("verify") or {}
    verdict = (ver.get("accuracy") or {}).get("verdict")
    if ver.get("status") not in ("ok", "drift") or verdict not in ("matches", "numerics drift"):
        fail(script, f"expected the verdict matches or numerics drift, got {verdict!r} "
                     f"(verify.status {ver.get('status')!r})", report)
    devices = cap.get("devices")
    if not devices or any(d.split(":")[0] != device for d in devices):
        fail(script, f"expected the example tensors on {device}, the report says {devices!r}", report)
    for entry in ver.get("outputs") or []:
        seen = (entry.get("result") or {}).get("devices")
        if seen and any(d.split(":")[0] != device for d in seen):
            fail(script, f"{entry.get('name')} was compared on {seen}, not on {device}", report)
    count, bad = kernel_problems(cap, kind)
    if count == 0:
        fail(script, f"no {kind} kernel in the lowering", report)
    if bad:
        fail(script, f"{len(bad)} of {count} {kind} kernels map to no graph node: " + "; ".join(bad[:10]), report)
    worker = report.get("worker")
    if device == "cuda" and isinstance(worker, dict) and "devices" in worker and not worker["devices"]:
        fail(script, "the report's worker lists no CUDA device", report)
    t = cap.get("timings_s") or {}
    figures = ", ".join(f"{k} {t[k]:.3g} s" for k in ("precompile", "load", "call", "call_eager") if k in t)
    schema = "schema ok" if problems is not None else "schema not checked (no jsonschema)"
    return (f"{report.get('message')}; devices {devices}; verdict {verdict}; {count} {kind} kernels, "
            f"each mapped to graph nodes; {schema}; {figures}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("studio")
    ap.add_argument("script")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--kernels", default="triton")
    ap.add_argument("--timeout", type=float, default=280.0)
    opts = ap.parse_args()
    script = os.path.basename(opts.script)
    t0 = time.monotonic()
    cmd = [opts.studio, "run", opts.script, "--json", "--no-store", "--timeout", str(opts.timeout)]
    done = subprocess.run(cmd, stdout=subprocess.PIPE)
    try:
        report = json.loads(done.stdout)
    except ValueError as e:
        fail(script, f"no JSON report ({e}); exit {done.returncode}")
    line = check(report, done.returncode, script, opts.device, opts.kernels)
    print(f"check_gpu: {script}: ok in {time.monotonic() - t0:.0f} s: {line}")


if __name__ == "__main__":
    main()
