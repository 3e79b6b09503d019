"""The HTML report's graph panel (engine/share/page/graph*.js + engine.wasm) in headless Chromium.

A harness page of our own (tests/support/graph_page_harness.py: the graph panel alone, with the
report page's CSP) is written per test from the real parts: graph-engine.js, graph-draw.js,
graph.js, graph.css, the built engine.wasm (base64, as the report carries it) and
PageGraph::toJson of a real capture (tests/fixtures/graphs), printed by the native engine_probe.
The same engine entry built natively (engine_probe) is the reference every layout the page
computes is compared with, number for number.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from cdp_pipe import Browser, find_chromium
from graph_page_harness import synthetic_graph, write_harness

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "graphs"
PAGE = ROOT / "engine" / "share" / "page"
CSP = "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data:"

pytestmark = pytest.mark.skipif(
    find_chromium() is None, reason="no Chromium (/usr/lib/chromium/chromium; Debian package chromium)"
)


def _built(var: str) -> Path:
    value = os.environ.get(var)
    if not value or not Path(value).is_file():
        pytest.fail(f"${var} does not name a built file ({value!r}): run through ctest (share_graph_page)")
    return Path(value)


def probe(*args: str) -> list[str]:
    out = subprocess.run(
        [str(_built("PS_ENGINE_PROBE")), *args], check=True, capture_output=True, text=True, timeout=120
    )
    return out.stdout.splitlines()


def native_layouts(fixture: str | Path, ops: list[str]) -> list[list[float]]:
    return [json.loads(line) for line in probe(str(FIXTURES / fixture), *ops)]


def page_graph(fixture: str | Path) -> dict:
    return json.loads(probe("--page-graph", str(FIXTURES / fixture))[0])


def harness(tmp_path: Path, graph: dict, marks: dict | None = None) -> Path:
    return write_harness(tmp_path / "graph.html", graph, _built("PS_ENGINE_WASM"), marks)


@pytest.fixture(scope="module")
def browser():
    with Browser() as b:
        yield b


def opening_ops(graph: dict) -> list[str]:
    return ["collapse_all", *("expand:" + p for p in graph["opening"]["expanded"])]


@pytest.mark.parametrize("fixture", ["resnet18_inference.json", "training_step.json"])
def test_wasm_layout_equals_native(browser, tmp_path, fixture):
    graph = page_graph(fixture)
    page = browser.open(harness(tmp_path, graph))
    modules = page.eval("Array.from(document.querySelectorAll('#g g.ps-module')).map(e => e.dataset.path)")
    assert modules, "the opening view shows no collapsed module"
    # The opening, three modules expanded one after the other, everything, nothing.
    to_expand = modules[:3]
    ops = [*opening_ops(graph), "layout"]
    got = [page.eval("panel.layoutNumbers()")]
    for path in to_expand:
        page.eval(f"panel.expand({json.dumps(path)})")
        ops += [f"expand:{path}", "layout"]
        got.append(page.eval("panel.layoutNumbers()"))
    page.eval("panel.expandAll()")
    got.append(page.eval("panel.layoutNumbers()"))
    page.eval("panel.collapseAll()")
    got.append(page.eval("panel.layoutNumbers()"))
    ops += ["expand_all", "layout", "collapse_all", "layout"]
    want = native_layouts(fixture, ops)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g[0] == w[0], f"layout {k}: {g[0]} items in the page, {w[0]} native"
        assert g == w, f"layout {k} of {fixture} differs from the native engine's"
    # The opening layout the page was written with is the one its engine computes.
    assert got[0] == graph["opening"]["layout"]
    page.eval("panel.collapseAll()")
    for path in graph["opening"]["expanded"]:
        page.eval(f"panel.expand({json.dumps(path)})")
    assert page.eval("panel.layoutNumbers()") == graph["opening"]["layout"]
    # Expanding really changed the view.
    assert got[-2][0] > got[0][0] > got[-1][0] or got[-2][0] > got[-1][0]
    page.assert_clean()


def test_resnet18_panel_interactive(browser, tmp_path):
    fixture = "resnet18_inference_profiled.json"
    graph = page_graph(fixture)
    page = browser.open(harness(tmp_path, graph))
    count = "document.querySelectorAll('#g g.ps-node').length"
    nodes_before = page.eval(count)
    assert page.eval("document.querySelectorAll('#g g.ps-module').length") > 0
    assert page.eval("document.getElementById('g').dataset.ready") == "1"

    # A real click on a collapsed module expands it: more nodes, the native layout.
    collapsed = page.eval("Array.from(document.querySelectorAll('#g g.ps-module')).map(e => e.dataset.path)")

    time = next(lens for lens in graph["lenses"] if lens["name"] == "time")
    timed = {graph["graph"]["node_list"][i]["name"]: text for i, _, text in time["nodes"]}

    def shown_node(module: str):
        # A computed node of the module with a source line, a kernel and a time.
        for n in graph["graph"]["node_list"]:
            if n["name"] not in timed:
                continue
            mod = (n.get("module") or {}).get("path", "")
            if (
                n["op"] == "call_function"
                and n.get("source")
                and n["name"] in graph["kernels"]
                and (mod == module or mod.startswith(module + "."))
            ):
                return n
        return None

    path = next((p for p in collapsed if shown_node(p)), None)
    assert path, f"no collapsed module with a kernel node in the opening view: {collapsed}"
    box_at = "(s => {{ const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top]; }})({})"
    before = page.eval(box_at.format(json.dumps(f'#g g.ps-module[data-path="{path}"] rect')))
    page.click(f'#g g.ps-module[data-path="{path}"]')
    page.wait_for(f"document.querySelector('#g g.ps-module-frame[data-path=\"{path}\"]') !== null")
    # The view stays on the module: its frame's corner is where its box's was.
    after = page.eval(box_at.format(json.dumps(f'#g g.ps-module-frame[data-path="{path}"] .ps-frame')))
    assert abs(after[0] - before[0]) < 1 and abs(after[1] - before[1]) < 1, (before, after)
    assert page.eval(count) > nodes_before
    want = native_layouts(fixture, [*opening_ops(graph), f"expand:{path}", "layout"])[0]
    assert page.eval("panel.layoutNumbers()") == want

    # A node clicked: its details show its shape, the source line and the code there, its kernel.
    node = shown_node(path)
    page.eval(f"document.querySelector('#g g.ps-node[data-name=\"{node['name']}\"]') !== null") or pytest.fail(
        f"{node['name']} of {path} is not drawn after expanding it"
    )
    page.click(f'#g g.ps-node[data-name="{node["name"]}"]')
    details = page.eval("document.querySelector('#g .ps-graph-details').textContent")
    shape = "[" + ", ".join(str(s) for s in node["shape"]) + "]"
    assert node["name"] in details
    assert shape in details
    assert f"{node['source']['file']}:{node['source']['line']}" in details
    assert graph["kernels"][node["name"]] in details
    assert f"time{timed[node['name']]}" in details  # the time lens's value, in the window's words
    assert page.eval(
        f"document.querySelector('#g g.ps-node[data-name=\"{node['name']}\"]').classList.contains('ps-selected')"
    )

    # The selection stays on the node through a relayout (its item's index changes).
    page.eval("panel.expandAll()")
    assert page.eval("Array.from(document.querySelectorAll('#g g.ps-selected')).map(e => e.dataset.name)") == [
        node["name"]
    ]

    # Search: typed, the matches are counted and marked; Enter goes to one, revealing it.
    page.type("#g input.ps-graph-search", "convolution")
    # the page's search is the engine's (graph::GraphSearch in engine.wasm): what the native engine
    # finds in the same graph, the window's search
    given = tmp_path / "page_graph.json"
    given.write_text(json.dumps(graph))
    found = json.loads(probe(str(given), "search:convolution")[0])
    want_matches = len(found)
    assert want_matches > 1
    nodes = graph["graph"]["node_list"]
    assert all("convolution" in nodes[i]["name"] + nodes[i].get("target", "") for i in found)
    assert page.eval("document.querySelector('#g .ps-graph-count').textContent") == f"{want_matches} matches"
    page.key("#g input.ps-graph-search", "Enter")
    first = page.eval("document.querySelector('#g .ps-graph-details h4').textContent")
    assert "convolution" in first
    page.key("#g input.ps-graph-search", "Enter")
    second = page.eval("document.querySelector('#g .ps-graph-details h4').textContent")
    assert "convolution" in second and second != first
    assert page.eval("document.querySelectorAll('#g g.ps-node.ps-match').length") >= 1

    # Lens: time colours the boxes and shows a legend in units.
    options = page.eval("Array.from(document.querySelectorAll('#g select.ps-graph-lens option')).map(o => o.value)")
    assert options == ["", "time", "memory"]
    page.eval(
        "(() => { const s = document.querySelector('#g select.ps-graph-lens');"
        " s.value = 'time'; s.dispatchEvent(new Event('change')); })()"
    )
    assert page.eval("!document.querySelector('#g .ps-graph-legend').hidden")
    assert "time" in page.eval("document.querySelector('#g .ps-graph-legend').textContent")
    assert page.eval("document.querySelectorAll('#g g.ps-node rect[style*=\"fill\"]').length") > 0
    page.eval("panel.setLens(null)")
    assert page.eval("document.querySelector('#g .ps-graph-legend').hidden")

    # Collapse from the frame's title.
    page.click(f'#g g.ps-module-frame[data-path="{path}"] .ps-frame-title')
    page.wait_for(f"document.querySelector('#g g.ps-module[data-path=\"{path}\"]') !== null")
    page.assert_clean()


def test_training_step_phases(browser, tmp_path):
    fixture = "resnet18_training_drift.json"
    graph = page_graph(fixture)
    page = browser.open(harness(tmp_path, graph))
    assert page.eval("document.querySelectorAll('#g button[data-phase]').length") == 2
    page.click('#g button[data-phase="backward"]')
    pressed = "document.querySelector('#g button[data-phase=\"{}\"]').getAttribute('aria-pressed')"
    assert page.eval(pressed.format("backward")) == "true"
    # The forward is dimmed, the backward not; the backward group is at the top of the view.
    assert page.eval("document.querySelectorAll('#g .ps-other-phase').length") > 0
    dimmed = page.eval(
        "Array.from(document.querySelectorAll('#g .ps-other-phase')).map(e => e.dataset.path || e.dataset.name)"
    )
    phase_of = {n["name"]: n.get("phase") for n in graph["graph"]["node_list"]}
    for d in dimmed:
        assert not d.startswith("backward:") and phase_of.get(d) != "backward", f"{d} of the backward is dimmed"
    lit = page.eval(
        "Array.from(document.querySelectorAll('#g g.ps-module:not(.ps-other-phase), "
        "#g g.ps-node:not(.ps-other-phase)'))"
        ".map(e => e.dataset.path || e.dataset.name)"
    )
    assert any(d.startswith("backward:") or phase_of.get(d) == "backward" for d in lit)
    top = page.eval(
        "(() => { const f = document.querySelector('#g g.ps-module-frame[data-path=\"backward:\"] .ps-frame');"
        " const v = document.querySelector('#g .ps-graph-view').getBoundingClientRect();"
        " return f.getBoundingClientRect().top - v.top; })()"
    )
    assert -30 < top < 60
    page.click('#g button[data-phase="forward"]')
    assert page.eval(pressed.format("forward")) == "true"
    assert page.eval(pressed.format("backward")) == "false"
    # The error lens frames the nodes that leave eager's band.
    page.eval("panel.setLens('error')")
    page.eval("panel.expandAll()")
    assert page.eval("document.querySelectorAll('#g g.ps-leaves-band').length") > 0
    page.assert_clean()


def test_a_training_views_expand_all_draws_the_view_first_and_the_rest_after_it(browser, tmp_path):
    # resnet18's training step expanded: about 600 boxes, drawn whole (under 1,500) but not at once.
    graph = page_graph("resnet18_training_drift.json")
    page = browser.open(harness(tmp_path, graph))
    # Right after the call (before any slice of the rest): every box in view is drawn, and only
    # boxes within a screen of the view are.
    first = page.eval(
        "(() => { window.whole = panel.expandAll();"
        " const [tx, ty, k] = document.querySelector('#g g.ps-viewport').getAttribute('transform')"
        "   .match(/-?[0-9]+(\\.[0-9]+)?(e[+-]?[0-9]+)?/g).map(Number);"
        " const v = document.querySelector('#g .ps-graph-view'); const w = v.clientWidth, h = v.clientHeight;"
        " const a = panel.layoutNumbers(); const n = a[0]; const inView = [], near = [];"
        " for (let i = 0; i < n; i++) { const [x, y, bw, bh] = a.slice(4 + 6 * i + 2, 4 + 6 * i + 6);"
        "   const sx = x * k + tx, sy = y * k + ty, sw = bw * k, sh = bh * k;"
        "   if (sx + sw >= 0 && sx <= w && sy + sh >= 0 && sy <= h) inView.push(i);"
        "   if (sx + sw >= -w - 1 && sx <= 2 * w + 1 && sy + sh >= -h - 1 && sy <= 2 * h + 1) near.push(i); }"
        " const drawn = Array.from(document.querySelectorAll('#g [data-item]')).map(e => Number(e.dataset.item));"
        " return {n, inView, near, drawn, ready: document.querySelector('#g').dataset.ready}; })()"
    )
    assert first["n"] > 500
    assert first["ready"] == "0"
    assert first["inView"], "nothing in view after Expand All"
    assert set(first["inView"]) <= set(first["drawn"]), "a box in view is not drawn"
    assert set(first["drawn"]) <= set(first["near"]), "a box far out of view was drawn at once"
    assert len(first["drawn"]) < first["n"] / 2
    # The call's promise settles once the rest is in: every box, route and frame drawn once.
    page.eval("window.whole")
    assert page.eval("document.querySelector('#g').dataset.ready") == "1"
    drawn = page.eval("Array.from(document.querySelectorAll('#g [data-item]')).map(e => Number(e.dataset.item))")
    assert sorted(drawn) == list(range(first["n"]))
    routes = page.eval("document.querySelectorAll('#g path.ps-edge').length")
    assert routes == page.eval("(() => { const a = panel.layoutNumbers(); let i = 4 + 6 * a[0]; i += 1 + 3 * a[i];"
                               " return a[i]; })()")
    # Panning while the rest is drawn: what comes into view is drawn first, nothing twice.
    page.eval("panel.collapseAll()")
    last = json.dumps(graph["graph"]["node_list"][-1]["name"])
    assert page.eval(
        f"(() => {{ window.whole = panel.expandAll(); panel.select({last});"
        f" return document.querySelector('#g g.ps-node[data-name=' + JSON.stringify({last}) + ']') !== null; }})()"
    ), "the selected node was not drawn when the view went to it"
    page.eval("window.whole")
    drawn = page.eval("Array.from(document.querySelectorAll('#g [data-item]')).map(e => Number(e.dataset.item))")
    assert sorted(drawn) == list(range(first["n"]))
    page.assert_clean()


def test_big_graph_draws_what_is_in_view(browser, tmp_path):
    # 3,302 nodes: fully expanded, past the 1,500 boxes drawn whole.
    fixture = tmp_path / "big.json"
    fixture.write_text(json.dumps({"graph": synthetic_graph(100)}))
    graph = page_graph(fixture)
    page = browser.open(harness(tmp_path, graph))
    page.eval("panel.expandAll()")
    total = page.eval("panel.visibleItems()")
    assert total == len(graph["graph"]["node_list"])
    drawn = page.eval("document.querySelectorAll('#g g.ps-node').length")
    assert 0 < drawn < total / 4, f"{drawn} of {total} boxes in the DOM"
    assert page.eval("panel.layoutNumbers()") == native_layouts(fixture, ["expand_all", "layout"])[0]
    # A node far below: selected, the view goes there and it is drawn.
    assert page.eval("document.querySelector('#g g.ps-node[data-name=\"add_b99\"]')") is None
    page.eval("panel.select('add_b99')")
    page.wait_for("document.querySelector('#g g.ps-node[data-name=\"add_b99\"]') !== null")
    assert "add_b99" in page.eval("document.querySelector('#g .ps-graph-details h4').textContent")
    page.assert_clean()


def test_diff_marks(browser, tmp_path):
    fixture = "resnet18_inference.json"
    graph = page_graph(fixture)
    computed = [n["name"] for n in graph["graph"]["node_list"] if n["op"] == "call_function"]
    marks = {computed[0]: "added", computed[1]: "changed", computed[-1]: "removed"}
    page = browser.open(harness(tmp_path, graph, marks))
    page.eval("panel.expandAll()")
    for name, mark in marks.items():
        assert page.eval(
            f"document.querySelector('#g g.ps-node[data-name=\"{name}\"]').classList.contains('ps-mark-{mark}')"
        )
    assert page.eval("document.querySelectorAll('#g [class*=\"ps-mark-\"]').length") == 3
    # Collapsed, the modules holding them say so.
    page.eval("panel.collapseAll()")
    assert page.eval("document.querySelectorAll('#g g.ps-module.ps-has-marks').length") >= 1
    page.eval(f"panel.select({json.dumps(computed[1])})")
    assert "changed" in page.eval("document.querySelector('#g .ps-graph-details').textContent")
    page.assert_clean()


def test_pan_by_drag_and_zoom_by_wheel(browser, tmp_path):
    page = browser.open(harness(tmp_path, page_graph("resnet18_inference.json")))
    transform = "document.querySelector('#g g.ps-viewport').getAttribute('transform')"
    view = page.eval(
        "(() => { const r = document.querySelector('#g .ps-graph-view').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()"
    )
    # A real drag on the background, from a point right of the graph (no box there).
    x, y = view[0] + view[2] - 20, view[1] + view[3] / 2
    start = page.eval(transform)
    page._call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    page._call("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1})
    for step in range(1, 6):
        page._call(
            "Input.dispatchMouseEvent",
            {"type": "mouseMoved", "x": x - 20 * step, "y": y - 30 * step, "button": "left", "buttons": 1},
        )
    page._call("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x - 100, "y": y - 150, "button": "left"})
    moved = page.eval(transform)
    tx0, ty0 = (float(v) for v in start.split("(")[1].split(")")[0].split(","))
    tx1, ty1 = (float(v) for v in moved.split("(")[1].split(")")[0].split(","))
    assert (round(tx1 - tx0), round(ty1 - ty0)) == (-100, -150)
    # A real wheel turn zooms in around the pointer.
    scale = (
        "Number(document.querySelector('#g g.ps-viewport').getAttribute('transform').split('scale(')[1].split(')')[0])"
    )
    k0 = page.eval(scale)
    page._call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": -200})
    page.wait_for(f"{scale} > {k0}")
    page.assert_clean()


def test_a_marked_input_says_its_dynamic_dims(browser, tmp_path):
    capture = json.loads((FIXTURES / "resnet18_inference.json").read_text())
    x = next(n for n in capture["graph"]["node_list"] if n.get("kind") == "input")
    x["dynamic"] = [{"dim": 0, "symbol": "u0", "shape_id": "batch", "min": 2, "max": None}]
    marked = tmp_path / "marked.json"
    marked.write_text(json.dumps(capture))
    graph = page_graph(marked)  # the engine words the marks (GraphModel), as the window's details do
    page = browser.open(harness(tmp_path, graph))
    page.eval("panel.expandAll()")
    page.eval(f"panel.select({json.dumps(x['name'])})")
    details = page.eval("document.querySelector('#g .ps-graph-details').textContent")
    assert "dynamicdim 0 = u0 (shape_id batch, min 2) \u2014 any size" in details, details
    # an input without marks has no such row
    other = next(n for n in graph["graph"]["node_list"] if n.get("kind") == "parameter")
    page.eval(f"panel.select({json.dumps(other['name'])})")
    assert "dynamic" not in page.eval("document.querySelector('#g .ps-graph-details').textContent")
    page.assert_clean()


# Where each drawn box is and which module frames' outlines hold its centre (isPointInFill in the
# layout's coordinates): node boxes by name, collapsed module boxes by path.
FRAMED_BOXES = r"""(() => {
  const svg = document.querySelector('#g svg.ps-graph');
  const frames = Array.from(document.querySelectorAll('#g g.ps-module-frame'));
  return Array.from(document.querySelectorAll('#g g.ps-node, #g g.ps-module')).map((g) => {
    const at = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec(g.getAttribute('transform'));
    const r = g.querySelector('rect');
    const p = svg.createSVGPoint();
    p.x = Number(at[1]) + Number(r.getAttribute('width')) / 2;
    p.y = Number(at[2]) + Number(r.getAttribute('height')) / 2;
    const inside = frames.filter((f) => Array.from(f.querySelectorAll('.ps-frame')).some((e) => e.isPointInFill(p)));
    return [g.dataset.name || null, g.dataset.path || null, inside.map((f) => f.dataset.path).sort()];
  });
})()"""


def test_frames_hold_what_their_module_computes(browser, tmp_path):
    # A module's frame goes around the boxes it computes and no other: not around an input, not
    # around another module's boxes (a ReLU called twice in a BasicBlock has a frame at each call,
    # not one across conv2 and bn2), and frames nest as their modules do.
    graph = page_graph("resnet18_inference.json")
    nodes = {n["name"]: n for n in graph["graph"]["node_list"]}
    page = browser.open(harness(tmp_path, graph))
    for state in ("opening", "expanded"):
        if state == "expanded":
            page.eval("panel.expandAll()")
        frames = page.eval("Array.from(document.querySelectorAll('#g g.ps-module-frame')).map(g => g.dataset.path)")
        assert frames

        def above(path: str, frames=frames) -> list[str]:
            return sorted(f for f in frames if path.startswith(f + "."))

        boxes = page.eval(FRAMED_BOXES)
        for name, path, inside in boxes:
            if path is not None:  # a collapsed module: inside the frames of the modules above it
                assert inside == above(path), (state, path, inside)
                continue
            node = nodes[name]
            if node["op"] == "placeholder":
                # an input in no frame; a parameter at most in its own modules' (laid out beside them)
                assert node.get("kind") != "input" or not inside, (state, name, inside)
                assert set(inside) <= set(above(node.get("qualname") or "")), (state, name, inside)
                continue
            module = (node.get("module") or {}).get("path") or ""
            assert inside == above(module + "."), (state, name, module, inside)
    # A training step: its inputs (x, and the loss's y) in no frame, opened and expanded.
    graph = page_graph("resnet18_training_drift.json")
    inputs = {n["name"] for n in graph["graph"]["node_list"] if n.get("kind") == "input"}
    page = browser.open(harness(tmp_path, graph))
    for state in ("opening", "expanded"):
        if state == "expanded":
            page.eval("panel.expandAll()")
        framed = [(name, inside) for name, _, inside in page.eval(FRAMED_BOXES) if name in inputs and inside]
        assert not framed, (state, framed)
    page.assert_clean()


def test_opening_view_fits_or_centres_the_top(browser, tmp_path):
    # The window opens a graph whole (GraphCanvas::fitScene). The page opens it whole and centred
    # where its text can still be read (zoom 0.5), else its top at the widest zoom not under that,
    # centred: never a corner of it.
    def opening(fixture):
        page = browser.open(harness(tmp_path, page_graph(fixture)))
        width, height = page.eval("panel.layoutNumbers().slice(1, 3)")
        view = page.eval("[document.querySelector('#g .ps-graph-view')].map(v => [v.clientWidth, v.clientHeight])[0]")
        t = page.eval("document.querySelector('#g g.ps-viewport').getAttribute('transform')")
        x, y = (float(v) for v in t.split("translate(")[1].split(")")[0].split(","))
        k = float(t.split("scale(")[1].split(")")[0])
        page.assert_clean()
        return width, height, view, x, y, k

    # training_step fits at a readable zoom: whole, centred both ways.
    width, height, (w, h), x, y, k = opening("training_step.json")
    assert 0.5 <= k <= 1 and width * k <= w and height * k <= h
    assert abs(x + width * k / 2 - w / 2) < 1 and abs(y + height * k / 2 - h / 2) < 1
    # The resnet18 training step is too big for that: its top, centred, at zoom 0.5 (it is wider
    # than the view there, so the view shows its middle, not its left edge).
    width, height, (w, h), x, y, k = opening("resnet18_training_drift.json")
    assert k == 0.5 and width * k > w
    assert abs(x + width * k / 2 - w / 2) < 1 and 0 <= y <= 30
