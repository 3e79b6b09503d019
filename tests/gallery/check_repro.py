"""[repro] on a real model: a gallery run stored, then `library repro` of it, and the written
script run in a fresh Python process that cannot import the studio.

usage: check_repro.py STUDIO SCRIPT [--budget SECONDS]

Asserts: the run is stored; `library repro RUN DIR --json` exits 0 with a repro written whose
cut holds far fewer ops than the graph (a tenth at most) and which exited 1 in the studio's fresh
process; repro.py's header names the versions, the ops and the script's lines; and `python
repro.py` here, with the studio's package made unimportable, exits 1 and says it reproduces.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

NO_STUDIO = ("import runpy, sys; sys.modules['precompile_studio'] = None; "
             "sys.argv = ['repro.py']; runpy.run_path('repro.py', run_name='__main__')")


def fail(message: str) -> None:
    print(f"check_repro: {message}", file=sys.stderr)
    sys.exit(1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("studio")
    ap.add_argument("script")
    ap.add_argument("--budget", default="60")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="check-repro-") as tmp:
        lib = os.path.join(tmp, "library.db")
        done = subprocess.run([opts.studio, "--library", lib, "run", opts.script, "--json"], stdout=subprocess.PIPE)
        report = json.loads(done.stdout)
        run_id = report.get("run_id")
        if not run_id:
            fail(f"the run was not stored: {report.get('store_error') or report.get('message')}")
        out = os.path.join(tmp, "repro")
        done = subprocess.run([opts.studio, "--library", lib, "library", "repro", str(run_id), out, "--json",
                               "--budget", opts.budget], stdout=subprocess.PIPE)
        try:
            answer = json.loads(done.stdout)
        except ValueError as e:
            fail(f"library repro wrote no JSON ({e}); exit {done.returncode}")
        repro = answer.get("repro") or {}
        print(json.dumps({k: v for k, v in repro.items() if k != "fresh"}, indent=1)[:3000])
        if done.returncode != 0 or repro.get("status") != "written":
            fail(f"expected a repro written (exit 0), got exit {done.returncode}: {repro.get('reason')}")
        ops, graph_ops = len(repro["ops"]), repro["graph_ops"]
        if not 0 < ops <= graph_ops // 10:
            fail(f"the repro holds {ops} of the graph's {graph_ops} ops: not far fewer")
        if (repro.get("fresh") or {}).get("exit") != 1:
            fail(f"the studio's fresh process did not reproduce it: {repro.get('fresh')}")
        with open(os.path.join(out, "repro.py"), encoding="utf-8") as f:
            text = f.read()
        script = os.path.basename(opts.script)
        for needed in ("Made with: python ", "torch ", "Ops:", f"{script}:", "The studio's verdict: numerics drift"):
            if needed not in text:
                fail(f"repro.py's header lacks {needed!r}")
        if "precompile_studio" in text:
            fail("repro.py names the studio's package")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        ran = subprocess.run([sys.executable, "-I", "-c", NO_STUDIO], cwd=out, env=env, capture_output=True,
                             text=True, timeout=900)
        print(ran.stdout[-2000:])
        if ran.returncode != 1 or "reproduces:" not in ran.stdout:
            fail(f"python repro.py exited {ran.returncode}, not 1: {(ran.stdout + ran.stderr)[-1500:]}")
    print(f"check_repro: {ops} of {graph_ops} ops reproduce the drift in plain torch")


if __name__ == "__main__":
    main()
