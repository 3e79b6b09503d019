"""Run one gallery script through the studio (`precompile-studio run SCRIPT --json --no-store`),
check the report against docs/report.schema.json and assert the accuracy verdict.

usage: check_gallery.py STUDIO SCRIPT --verdict matches|drift [--args shared|copied] [--repro]

matches: the run is ok, every capture verified ok with the verdict "matches".
drift:   the run is ok (exit 0) and says "numerics drift" first (and where it starts: drift_starts,
         nodes of the graph); the capture stays ok with
         verify.status "drift", a numerics-drift warning, and the drifting tensors named with both
         errors against float64 (the artifact's far beyond eager's).
--repro: the run is stored (in a library of its own) instead, and `library repro` of it must
         reproduce the drift in plain torch (check_repro.py).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))

import check_repro  # noqa: E402
import jsonschema  # noqa: E402
import validate_report  # noqa: E402


def fail(message: str, report: dict | None = None) -> None:
    print(f"check_gallery: {message}", file=sys.stderr)
    if report is not None:
        brief = {k: report.get(k) for k in ("status", "message")}
        for c in report.get("captures") or []:
            v = c.get("verify") or {}
            brief.setdefault("captures", []).append({
                "name": c.get("name"), "status": c.get("status"), "outcome": c.get("outcome"),
                "verify": {k: v.get(k) for k in ("status", "args", "calls", "matches_eager", "max_abs_diff")},
                "accuracy": {k: (v.get("accuracy") or {}).get(k) for k in
                             ("verdict", "message", "eager_error", "artifact_error", "ratio", "worst")},
                "timings_s": c.get("timings_s")})
        print(json.dumps(brief, indent=1)[:6000], file=sys.stderr)
    sys.exit(1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("studio")
    ap.add_argument("script")
    ap.add_argument("--verdict", choices=["matches", "drift"], required=True)
    ap.add_argument("--args", choices=["shared", "copied"])
    ap.add_argument("--repro", action="store_true")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="check-gallery-") as tmp:
        library = os.path.join(tmp, "library.db")
        store = (["--library", library], []) if opts.repro else ([], ["--no-store"])
        done = subprocess.run([opts.studio, *store[0], "run", opts.script, "--json", *store[1]], stdout=subprocess.PIPE)
        report = verdict(opts, done)
        said = report["message"]
        if opts.repro:
            if not report.get("run_id"):
                fail(f"the run was not stored: {report.get('store_error') or report.get('message')}")
            said += "; " + check_repro.check(opts.studio, library, report["run_id"], opts.script, tmp)
    print(f"check_gallery: {os.path.basename(opts.script)}: {said}")


def verdict(opts: argparse.Namespace, done: subprocess.CompletedProcess) -> dict:
    """Fails unless the run's report says what --verdict expects; returns the report."""
    try:
        report = json.loads(done.stdout)
    except ValueError as e:
        fail(f"no JSON report ({e}); exit {done.returncode}")
    with open(validate_report.SCHEMA) as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
    problems = validate_report.problems(report, validator)
    if problems:
        fail("the report does not follow the schema:\n  " + "\n  ".join(problems[:20]))
    if done.returncode != 0 or report["status"] != "ok":
        fail(f"expected an ok run (exit 0), got {report['status']} (exit {done.returncode})", report)
    caps = report["captures"]
    if len(caps) != 1 or caps[0]["status"] != "ok":
        fail("expected one ok capture", report)
    cap = caps[0]
    ver = cap["verify"]
    acc = ver.get("accuracy") or {}
    if opts.args and ver.get("args") != opts.args:
        fail(f"expected args {opts.args}, got {ver.get('args')}", report)
    if opts.verdict == "matches":
        if ver["status"] != "ok" or acc.get("verdict") != "matches" or cap["warnings"]:
            fail("expected the verdict 'matches' with no warning", report)
        if report["message"] != "1 capture ok":
            fail(f"unexpected message {report['message']!r}", report)
    else:
        if ver["status"] != "drift" or acc.get("verdict") != "numerics drift":
            fail("expected verify.status 'drift' and the verdict 'numerics drift'", report)
        if not report["message"].startswith(f"{cap['name']}: numerics drift in "):
            fail(f"the run's message does not lead with the drift: {report['message']!r}", report)
        if [w["rule"] for w in cap["warnings"]] != ["numerics-drift"]:
            fail("expected exactly one warning, numerics-drift", report)
        drifting = [t for t in acc["tensors"] if t["verdict"] == "drift"]
        if not drifting or acc["drift"] != len(drifting) or acc["wrong"] != 0:
            fail("expected drifting tensors and no wrong one", report)
        worst = acc["worst"][0]
        if worst not in report["message"] or worst not in cap["warnings"][0]["message"]:
            fail(f"the worst tensor {worst} is not named", report)
        for t in drifting:
            if not (t["artifact_error"] is not None and t["eager_error"] is not None
                    and t["artifact_error"] > 2 * t["eager_error"]):
                fail(f"{t['name']}: a drifting tensor's error must be far beyond eager's: {t}", report)
        if not acc["artifact_error"] > 10 * acc["eager_error"]:
            fail("the verdict's figures: the artifact's error must be far beyond eager's", report)
        # where it starts: nodes of the graph, named in the message
        if (acc.get("localise") or {}).get("status") != "done":
            fail(f"expected the drift localised: {acc.get('localise')}", report)
        graph_nodes = {n["name"] for n in cap["graph"]["node_list"]}
        starts = acc.get("drift_starts") or []
        if not starts or not set(starts) <= graph_nodes:
            fail(f"expected drift_starts naming nodes of the graph: {starts}", report)
        if "drift starts at " not in report["message"]:
            fail(f"the run's message does not say where the drift starts: {report['message']!r}", report)
    return report


if __name__ == "__main__":
    main()
