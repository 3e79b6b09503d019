"""A page holding the HTML report's graph panel alone, for its tests and its bench.

The page is built from the real parts: engine/share/page/graph-engine.js, graph-draw.js and
graph.js (GRAPH_SCRIPTS, in the order the report loads them) and graph.css, the built
engine.wasm (base64 in script#ps-engine, as the report carries it) and a graph as
ps::share::PageGraph::toJson wrote it, under the report page's CSP; `marks` are the diff page's
({node name: "added"|"removed"|"changed"}). When drawn it sets document.body.dataset.ready = "1",
window.panel (the PsGraph panel) and window.readyMs (from the navigation's start). Also:
synthetic_graph, a graph section of any size shaped like a model.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "engine" / "share" / "page"
# The graph panel's script files, in the order the report joins them (PageAssets::builtIn).
GRAPH_SCRIPTS = ("graph-engine.js", "graph-draw.js", "graph.js")
CSP = "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data:"


def _script_json(value) -> str:
    # Inside <script>: no "</" may end it early.
    return json.dumps(value).replace("</", "<\\/")


def graph_script() -> str:
    """The graph panel's script as the report carries it: its files joined in order."""
    parts = ((PAGE / name).read_text() for name in GRAPH_SCRIPTS)
    return "".join(part if part.endswith("\n") else part + "\n" for part in parts)


def write_harness(path: Path, graph: dict, wasm: Path, marks: dict | None = None) -> Path:
    engine = base64.b64encode(Path(wasm).read_bytes()).decode()
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<title>graph panel</title>
<style>{(PAGE / "graph.css").read_text()}</style></head>
<body>
<div id="g"></div>
<script type="application/octet-stream" id="ps-engine">{engine}</script>
<script type="application/json" id="data">{_script_json(graph)}</script>
<script type="application/json" id="marks">{_script_json(marks)}</script>
<script>{graph_script()}</script>
<script>
const data = JSON.parse(document.getElementById('data').textContent);
const marks = JSON.parse(document.getElementById('marks').textContent);
PsGraph.create(document.getElementById('g'), marks ? {{graph: data, marks}} : {{graph: data}}).then((panel) => {{
  window.panel = panel;
  window.readyMs = performance.now();
  document.body.dataset.ready = '1';
}}).catch((e) => {{
  document.body.textContent = 'graph failed: ' + e;
  console.error('graph failed: ' + e);
}});
</script></body></html>"""
    path = Path(path)
    path.write_text(page)
    return path


def synthetic_graph(blocks: int, layers_per_block: int = 4) -> dict:
    """A graph section like a transformer's: `blocks` blocks under model.blocks, each with an
    attention and an MLP module of `layers_per_block` Linear layers (weight, bias, addmm, relu)
    and a residual add: about blocks * (2 * layers_per_block * 4 + 1) nodes."""
    nodes = [
        {
            "name": "x",
            "op": "placeholder",
            "kind": "input",
            "target": "x",
            "qualname": "x",
            "shape": [8, 64],
            "stride": [64, 1],
            "dtype": "float32",
            "module": None,
            "inputs": [],
        }
    ]
    modules = [{"path": "model", "type": "Model"}, {"path": "model.blocks", "type": "ModuleList"}]
    prev = "x"
    for b in range(blocks):
        block = f"model.blocks.{b}"
        modules.append({"path": block, "type": "Block"})
        start = prev
        for part in ("attn", "mlp"):
            mod = f"{block}.{part}"
            modules.append({"path": mod, "type": "Attention" if part == "attn" else "MLP"})
            for k in range(layers_per_block):
                lin = f"{mod}.{k}"
                modules.append({"path": lin, "type": "Linear"})
                tag = f"b{b}_{part}{k}"
                w, bias = f"w_{tag}", f"bias_{tag}"
                nodes.append(
                    {
                        "name": w,
                        "op": "placeholder",
                        "kind": "parameter",
                        "target": w,
                        "qualname": f"{lin}.weight",
                        "shape": [64, 64],
                        "stride": [64, 1],
                        "dtype": "float32",
                        "module": None,
                        "inputs": [],
                    }
                )
                nodes.append(
                    {
                        "name": bias,
                        "op": "placeholder",
                        "kind": "parameter",
                        "target": bias,
                        "qualname": f"{lin}.bias",
                        "shape": [64],
                        "stride": [1],
                        "dtype": "float32",
                        "module": None,
                        "inputs": [],
                    }
                )
                mm = f"addmm_{tag}"
                nodes.append(
                    {
                        "name": mm,
                        "op": "call_function",
                        "kind": "compute",
                        "target": "aten.addmm.default",
                        "shape": [8, 64],
                        "stride": [64, 1],
                        "dtype": "float32",
                        "module": {"path": lin, "type": "Linear"},
                        "inputs": [bias, prev, w],
                    }
                )
                relu = f"relu_{tag}"
                nodes.append(
                    {
                        "name": relu,
                        "op": "call_function",
                        "kind": "compute",
                        "target": "aten.relu.default",
                        "shape": [8, 64],
                        "stride": [64, 1],
                        "dtype": "float32",
                        "module": {"path": mod, "type": "Attention" if part == "attn" else "MLP"},
                        "inputs": [mm],
                    }
                )
                prev = relu
        add = f"add_b{b}"
        nodes.append(
            {
                "name": add,
                "op": "call_function",
                "kind": "compute",
                "target": "aten.add.Tensor",
                "shape": [8, 64],
                "stride": [64, 1],
                "dtype": "float32",
                "module": {"path": block, "type": "Block"},
                "inputs": [prev, start],
            }
        )
        prev = add
    nodes.append(
        {"name": "output", "op": "output", "kind": "output", "target": "output", "module": None, "inputs": [prev]}
    )
    return {"node_list": nodes, "modules": modules, "complete": True}
