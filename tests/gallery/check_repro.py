"""[repro] on a real model: `library repro` of a stored gallery run, and the written script run in a
fresh Python process that cannot import the studio. check_gallery.py --repro calls check() on the
run it has just stored (one run of the model serves both checks).

Asserts: `library repro RUN DIR --json` exits 0 with a repro written whose cut holds far fewer ops
than the graph (a tenth at most) and which exited 1 in the studio's fresh process; repro.py's
header names the versions, the ops and the script's lines; and `python repro.py` here, with the
studio's package made unimportable, exits 1 and says it reproduces.
"""
import json
import os
import subprocess
import sys

NO_STUDIO = ("import runpy, sys; sys.modules['precompile_studio'] = None; "
             "sys.argv = ['repro.py']; runpy.run_path('repro.py', run_name='__main__')")


def fail(message: str) -> None:
    print(f"check_repro: {message}", file=sys.stderr)
    sys.exit(1)


def check(studio: str, library: str, run_id: int, script: str, tmp: str, budget: str = "60") -> str:
    """Fails (exit 1) unless run `run_id` of `library` gives a repro as the module says; returns
    the line that says what reproduced."""
    out = os.path.join(tmp, "repro")
    done = subprocess.run([studio, "--library", library, "library", "repro", str(run_id), out, "--json",
                           "--budget", budget], stdout=subprocess.PIPE)
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
    name = os.path.basename(script)
    for needed in ("Made with: python ", "torch ", "Ops:", f"{name}:", "The studio's verdict: numerics drift"):
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
    return f"{ops} of {graph_ops} ops reproduce the drift in plain torch"
