"""[repro] (precompile_studio/repro/make.py, script.py): from where a drift starts to the smallest
script that reproduces it in plain torch, confirmed in a fresh process, or why none can be."""
import math
import os
import subprocess
import sys

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

from conftest import run_script
from precompile_studio.repro import script as scripts
from precompile_studio.repro.make import Search, Trial
from precompile_studio.repro.subgraph import cut
from precompile_studio.verify.accuracy import floor, multiplier, robust_error

# python repro.py with the studio's package unimportable: the script needs torch only
_NO_STUDIO = ("import runpy, sys; sys.modules['precompile_studio'] = None; "
              "sys.argv = ['repro.py']; runpy.run_path('repro.py', run_name='__main__')")


def _fresh(folder: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-I", "-c", _NO_STUDIO], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=600, check=False)


def test_a_float16_matmul_drift_is_written_as_a_small_script_that_reproduces_in_plain_torch(tmp_path):
    events: list = []
    rep = run_script("acc_drift.py", events, repro={"dir": str(tmp_path), "budget": 60})
    r = rep["repro"]
    assert r["status"] == "written", r["reason"]
    assert r["capture"] == "acc_drift" and r["start"] == "mm" and r["ops"][-1] == "mm"
    # the float16 casts that make the drift come with the mm (localise compares no cast)
    assert sum(o.startswith("_to_copy") for o in r["ops"]) == 2 and len(r["ops"]) < r["graph_ops"]
    assert r["reason"].startswith(f"reproduces in plain torch: {len(r['ops'])} of the graph's")
    assert sorted(os.listdir(tmp_path)) == ["inputs.pt", "repro.py"]  # nothing staged is left
    assert r["fresh"]["exit"] == 1 and "reproduces" in r["fresh"]["output"]
    # shrunk: fewer input elements than the run's 32x64 input and 64x64 weight
    assert r["elements"] < 32 * 64 + 64 * 64
    assert any(o["outside"] for o in r["outputs"])
    # progress: each step said as the repro stage's detail
    details = [e.get("detail") for e in events if e.get("stage") == "repro" and e.get("detail")]
    assert any("reproduces" in d for d in details) and details[-1] == "running repro.py in a fresh process"

    text = (tmp_path / "repro.py").read_text()
    assert "precompile_studio" not in text
    # the header a bug report can use: versions, ops, the verdict, where the nodes come from
    assert f"torch {torch.__version__}" in text and "aten.mm.default" in text
    assert "numerics drift" in text and "acc_drift.py:10 in _addmm_in_half" in text
    done = _fresh(str(tmp_path))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "reproduces: the compiled error is outside eager's band (exit 1)" in done.stdout


def test_a_run_whose_verdict_is_matches_writes_no_repro_and_says_why(tmp_path):
    rep = run_script("acc_rounding.py", repro={"dir": str(tmp_path)})
    assert rep["captures"][0]["verify"]["accuracy"]["verdict"] == "matches"
    r = rep["repro"]
    assert r["status"] == "none" and "verdict is matches" in r["reason"]
    assert os.listdir(tmp_path) == []


def test_a_capture_the_run_does_not_have_is_named_with_the_ones_it_has(tmp_path):
    rep = run_script("acc_drift.py", repro={"dir": str(tmp_path), "capture": "other"})
    assert rep["repro"] == {"status": "none", "reason": "the run has no capture other (its captures: acc_drift)"}


def test_a_node_not_in_the_graph_is_said(tmp_path):
    rep = run_script("acc_drift.py", repro={"dir": str(tmp_path), "node": "no_such_node"})
    assert rep["repro"]["status"] == "none"
    assert rep["repro"]["reason"].startswith("no node no_such_node in the captured graph")


def _chain():
    def f(x):
        a = x * 1.5
        b = a.sin()
        c = b + 1
        d = c.exp()
        e = d / 3
        return e.cos()

    x = torch.randn(8, 16)
    gm = make_fx(f)(x)
    return gm, x


class _Needs(Trial):
    """A trial that reproduces only while its cut holds at least ``need`` ops (a divergence that
    vanishes when the cut is shrunk below it)."""

    need = 3

    def run(self) -> bool:
        self.rows = [("out", "float32", 1, 1.0, 0.0, 0.0, len(self.cut.ops) >= self.need)]
        return self.rows[0][-1]


def test_a_divergence_that_vanishes_while_shrinking_keeps_the_last_size_that_reproduced():
    gm, x = _chain()
    start = next(n.name for n in gm.graph.nodes if n.op == "call_function")
    values = {n.name: x for n in gm.graph.nodes if n.op == "placeholder"}
    header = scripts.Header(title="t", made_with={}, verdict="v")
    steps: list[str] = []
    search = Search(lambda c, v: _Needs(c, v, header, "eager", 0), 60.0, steps.append)
    found, why = search.grow(gm.graph, start, lambda c: values)
    assert found is not None and len(found.cut.ops) == 4, why  # 1, 2 did not; 4 did
    best = search.shrink(found, lambda c: values)
    assert len(best.cut.ops) == 3  # 3 still did, 2 did not: the last that reproduced is kept
    assert [s.split(",")[0] for s in steps[:4]] == ["1 op", "2 ops", "4 ops", "3 ops"]
    assert "does not reproduce" in steps[-1] or len(steps) > 4


def test_the_scripts_judge_is_the_studios():
    space = scripts.load(scripts.text(scripts.Header("t", {}, "v"), captured="def subgraph(x):\n    return (x,)\n",
                                      eager="def subgraph_eager(x):\n    return (x,)\n",
                                      float64="def subgraph_float64(x):\n    return (x,)\n",
                                      inputs=["x"], outputs=["x"], backend="eager", seed=0))
    torch.manual_seed(1)
    ref = torch.randn(2000, dtype=torch.float64)
    for value in (ref.float(), ref.half(), (ref + 1e-3 * torch.randn(2000, dtype=torch.float64)).float(),
                  torch.where(ref > 2, torch.tensor(math.inf, dtype=torch.float64), ref).float()):
        assert space["error"](value, ref) == pytest.approx(robust_error(value, ref), rel=1e-12)
    for dtype, numel in ((torch.float32, 2000), (torch.float32, 10), (torch.float16, 5000), (torch.bfloat16, 5)):
        assert space["band"](dtype, numel, 1e-6) == pytest.approx(multiplier(dtype, numel) * 1e-6 + floor(dtype))
    assert space["outside"](math.inf, 1e-6, torch.float32, 10) and not space["outside"](math.inf, math.inf,
                                                                                          torch.float32, 10)


def test_a_cut_brings_what_localise_could_not_compare_and_can_reach_back():
    gm, _x = _chain()
    names = [n.name for n in gm.graph.nodes if n.op == "call_function"]
    start = names[3]  # exp
    plain = cut(gm.graph, start, 1)
    assert plain.names == [start]
    unobserved = set(names[1:3])  # sin and add were not compared: where the drift starts may lie
    brought = cut(gm.graph, start, 1, bring=lambda n: n.name in unobserved)
    assert brought.names == names[1:4] and [o.name for o in brought.outputs] == [start]
    back = cut(gm.graph, start, 1, back=2)
    assert back.names == names[1:4] and len(back.ops) == 1


def test_a_wrong_verdict_an_overflow_to_inf_is_reproduced_too(tmp_path):
    rep = run_script("acc_wrong_overflow.py", repro={"dir": str(tmp_path), "budget": 60})
    assert rep["captures"][0]["verify"]["accuracy"]["verdict"] == "wrong"
    r = rep["repro"]
    assert r["status"] == "written" and r["start"] == "mm", r["reason"]
    inf = [o for o in r["outputs"] if o["outside"]]
    assert inf and inf[0]["compiled_error"] is None  # inf: no JSON number
    assert "compiled inf against eager" in r["reason"]
    assert r["fresh"]["exit"] == 1
