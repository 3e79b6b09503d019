"""Bench: the HTML report's graph panel on a 10k-node graph in headless Chromium.

A synthetic model-shaped graph section of about 10,000 nodes (tests/support/graph_page_harness.py)
goes through PageGraph::toJson (engine_probe --page-graph) into the graph panel's page (graph*.js,
graph.css, engine.wasm inline, the report's CSP), opened from disk in headless Chromium:

  ready      navigation start to the panel drawn (wasm compiled, graph opened, opening state laid
             out and drawn), median of 3 fresh tabs; target 2 s (issue [share])
  expand_all Expand All on it: the engine's layout of every node plus drawing what is in view, to
             the second animation frame after; target 2 s
  zoom_frame one wheel step of the fully expanded graph, to the next animation frame
Beside it, a real capture whose layout is harder than a model's chain of blocks: ready and Expand All (to
the second frame, what is in view drawn; and to the rest drawn after it, in slices) on
the resnet18 training step (tests/fixtures/graphs/resnet18_training_drift.json: forward and
backward bands, activations saved for the backward as long edges); its Expand All's target is
[layout-2]'s 0.3 s for the relayout of a big training view.

And the real thing: tests/bench/share/wide_model.py (830 blocks, about 10,000 captured nodes) run
by the studio with `run --html` (eager, not verified, not stored), the report page opened from
disk: ready (an upper bound: when the poll saw document.body.dataset.ready, from the navigation's
start) and Expand All in its graph panel.

usage: bench_graph_page.py BUILD_DIR [--blocks N] [--no-report]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "support"))

from cdp_pipe import Browser, find_chromium  # noqa: E402
from graph_page_harness import synthetic_graph, write_harness  # noqa: E402

FRAME = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
# Ten wheel steps in and out at the view's centre, each to the second frame after: ms per frame.
ZOOM_STEPS = (
    "(async () => { const svg = document.querySelector('#g svg.ps-graph');"
    " const r = svg.getBoundingClientRect(); const t = performance.now();"
    " for (let i = 0; i < 10; i++) {"
    " svg.dispatchEvent(new WheelEvent('wheel', {deltaY: i % 2 ? 40 : -40,"
    " clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, cancelable: true}));"
    f" await {FRAME}; }} return (performance.now() - t) / 20; }})()"
)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--blocks", type=int, default=303)  # 303 blocks: 10,001 nodes
    parser.add_argument("--no-report", action="store_true", help="skip the real run exported with run --html")
    args = parser.parse_args()
    build = Path(args.build).resolve()
    probe, wasm = build / "bin" / "engine_probe", build / "engine" / "share" / "engine.wasm"
    for f in (probe, wasm):
        if not f.is_file():
            print(f"bench_graph_page: {f} is not built (ninja -C {build} engine_probe)", file=sys.stderr)
            return 2
    if find_chromium() is None:
        print("bench_graph_page: skipped, no Chromium (Debian package chromium)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        section = synthetic_graph(args.blocks)
        nodes = len(section["node_list"])
        (tmp / "g.json").write_text(json.dumps({"graph": section}))
        t0 = time.monotonic()
        out = subprocess.run([str(probe), "--page-graph", str(tmp / "g.json")], check=True, capture_output=True)
        to_json_s = time.monotonic() - t0
        page_file = write_harness(tmp / "graph.html", json.loads(out.stdout), wasm)
        size = page_file.stat().st_size
        ready, expand, pan, items = [], [], [], 0
        with Browser() as browser:
            for _ in range(3):
                page = browser.open(page_file, timeout=60)
                ready.append(page.eval("window.readyMs"))
                expand.append(
                    page.eval(
                        f"(async () => {{ const t = performance.now(); panel.expandAll(); await {FRAME};"
                        " return performance.now() - t; })()"
                    )
                )
                items = page.eval("panel.visibleItems()")
                pan.append(page.eval(ZOOM_STEPS))
                drawn = page.eval("document.querySelectorAll('#g g.ps-node, #g g.ps-module').length")
                page.assert_clean()
            fixture = Path(__file__).resolve().parents[2] / "fixtures" / "graphs" / "resnet18_training_drift.json"
            out = subprocess.run([str(probe), "--page-graph", str(fixture)], check=True, capture_output=True)
            step = json.loads(out.stdout)
            step_file = write_harness(tmp / "step.html", step, wasm)
            step_expand, step_ready, step_whole = [], [], []
            for _ in range(3):
                page = browser.open(step_file, timeout=60)
                step_ready.append(page.eval("window.readyMs"))
                shown, whole = page.eval(
                    f"(async () => {{ const t = performance.now(); const whole = panel.expandAll(); await {FRAME};"
                    " const shown = performance.now() - t; await whole; return [shown, performance.now() - t]; })()"
                )
                step_expand.append(shown)
                step_whole.append(whole)
                page.assert_clean()
        report = None if args.no_report else bench_report(build, tmp)
    r, e, p = statistics.median(ready), statistics.median(expand), statistics.median(pan)
    print(f"graph panel, {nodes} nodes ({items} boxes expanded, {drawn} in the DOM), page {size / 1e6:.2f} MB")
    print(f"  PageGraph::toJson (engine_probe, process)  {to_json_s * 1000:8.0f} ms")
    print(f"  navigation to ready                         {r:8.0f} ms   (runs: {', '.join(f'{x:.0f}' for x in ready)})")
    print(
        f"  Expand All to drawn                         {e:8.0f} ms   (runs: {', '.join(f'{x:.0f}' for x in expand)})"
    )
    print(f"  zoom step to frame (expanded)               {p:8.1f} ms")
    s, sr = statistics.median(step_expand), statistics.median(step_ready)
    sw = statistics.median(step_whole)
    print(
        f"  resnet18 training step ({step['nodes']} nodes): ready {sr:.0f} ms, Expand All to drawn in view {s:.0f} ms"
        f" (runs: {', '.join(f'{x:.0f}' for x in step_expand)}), the rest drawn by {sw:.0f} ms"
    )
    if report:
        print(
            f"  report of a real run ({report['nodes']} nodes, page {report['size'] / 1e6:.2f} MB, run --html "
            f"{report['run_s']:.0f} s): ready <= {report['ready']:.0f} ms, "
            f"Expand All to drawn {report['expand']:.0f} ms"
        )
    print(f"BENCH share.graph_page.ready_{nodes}_nodes {r:.0f} ms 2000")
    print(f"BENCH share.graph_page.expand_all_{nodes}_nodes {e:.0f} ms 2000")
    print(f"BENCH share.graph_page.zoom_frame_{nodes}_nodes {p:.1f} ms 100")
    print(f"BENCH share.graph_page.ready_resnet18_training {sr:.0f} ms 2000")
    # [layout-2]: the relayout of a big training view within 0.3 s
    print(f"BENCH share.graph_page.expand_all_resnet18_training {s:.0f} ms 300")
    if report:
        print(f"BENCH share.html_report.ready_{report['nodes']}_nodes {report['ready']:.0f} ms 2000")
        print(f"BENCH share.html_report.expand_all_{report['nodes']}_nodes {report['expand']:.0f} ms 2000")
    return 0


def bench_report(build: Path, tmp: Path) -> dict | None:
    script = Path(__file__).resolve().parent / "wide_model.py"
    page_file = tmp / "wide.html"
    t0 = time.monotonic()
    run = subprocess.run(
        [
            str(build / "bin" / "precompile-studio"),
            "run",
            str(script),
            "--no-store",
            "--no-verify",
            "--html",
            str(page_file),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    run_s = time.monotonic() - t0
    if run.returncode != 0 or not page_file.is_file():
        print(f"bench_graph_page: run --html failed ({run.returncode}): {run.stderr.strip()[-400:]}", file=sys.stderr)
        return None
    ready, expand, nodes = [], [], 0
    with Browser() as browser:
        for _ in range(3):
            page = browser.open(page_file, timeout=120)
            ready.append(page.eval("performance.now()"))
            panel = "document.querySelector('.ps-graph-container').psGraph"
            expand.append(
                page.eval(
                    f"(async () => {{ const t = performance.now(); {panel}.expandAll(); await {FRAME};"
                    " return performance.now() - t; })()"
                )
            )
            nodes = page.eval(f"{panel}.visibleItems()")
            page.assert_clean()
    return {
        "nodes": nodes,
        "size": page_file.stat().st_size,
        "run_s": run_s,
        "ready": statistics.median(ready),
        "expand": statistics.median(expand),
    }


if __name__ == "__main__":
    sys.exit(main())
