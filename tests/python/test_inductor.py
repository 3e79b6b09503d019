"""The inductor backend: one cold lowering of a training step, inspected from every side.

Inductor compiles C++ kernels with g++, so this file runs precompile on inductor as few
times as it can: one worker run (cold caches: kernels JIT, kernel origins come from the
lowering), one plain precompile (to compare python_code), one more worker run without
verification (warm: the lowering comes from Inductor's FX-graph cache).
"""
import io

import pytest
import torch

from conftest import marker_line, precompile, run_script, script_path

SCRIPT = "ind_train.py"


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    out = tmp_path_factory.mktemp("ind")
    events = []
    # deep_verify: the from-scratch reload (load_no_cache) runs too, as --deep-verify asks
    rep = run_script(SCRIPT, events=events, out_dir=str(out), deep_verify=True)
    # runtime_inputs passes a transposed input: rejected (invariant 6), so the run is a violation
    assert rep["status"] == "violation", rep["message"]
    cap = rep["captures"][0]
    code = open(cap["artifact"]["files"]["python_code"]).read()
    cache = open(cap["artifact"]["files"]["cache"], "rb").read()
    return rep, cap, code, cache, events


def test_round_trip_matches_eager(first):
    rep, cap, code, cache, events = first
    ver = cap["verify"]
    assert ver["ran"] and ver["matches_eager"] is True and ver["grads_match"] is True
    assert len(ver["grads"]) == 4 and ver["calls"] == 2
    assert ver["max_abs_diff"] < 1e-4
    for key in ("precompile", "load", "load_no_cache", "call", "call_eager", "extract", "inspect_cache"):
        assert cap["timings_s"][key] > 0, key
    assert [e["stage"] for e in events if e.get("type") == "stage" and not e.get("detail")] == [
        "script", "capture", "lower", "verify"]


def test_contract_checker_is_quiet_on_an_inductor_training_step(first):
    # No false positive: inductor's own rounding on the perturbed inputs stays in tolerance.
    rep, cap, code, cache, events = first
    assert cap["warnings"] == []
    p = cap["verify"]["perturbed"]
    assert p["ran"] is True and p["diverged"] is False


def test_stride_mismatch_at_runtime_is_invariant_6(first):
    rep, cap, code, cache, events = first
    rt = cap["verify"]["runtime"]
    assert rt["status"] == "violation"
    v = rt["violation"]
    assert (v["invariant"], v["rule"], v["kind"]) == (6, "input-layout", "PrecompileError")
    assert v["invariants"] == [3, 6]
    assert v["location"]["line"] == marker_line(SCRIPT)
    assert cap["status"] == "violation" and cap["outcome"]["where"] == "runtime"


def test_cache_contents(first):
    rep, cap, code, cache, events = first
    c = cap["cache"]
    assert c["format"] == "torch.compiler.precompile" and c["version"] == 1
    assert c["backend"] == "inductor" and c["code_hash_ok"] is True and c["error"] is None
    assert c["entries"] and all(e["bytes"] > 0 and e["key"] for e in c["entries"])
    assert "inductor" in {e["kind"] for e in c["entries"]}
    assert c["artifact_bytes"] < c["bytes"] == len(cache)


def test_lowering_sections_and_kernels(first):
    rep, cap, code, cache, events = first
    lines = code.split("\n")
    low = cap["lowering"]
    sec = {s["kind"]: s for s in low["sections"]}
    for kind in ("header", "compiled_graph", "inner_module", "inductor_kernels", "inner_call",
                 "aot_wrappers", "entry_call", "metadata", "driver"):
        assert kind in sec, kind
    order = [sec[k]["start"] for k in ("compiled_graph", "inner_module", "inductor_kernels", "inner_call",
                                       "aot_wrappers", "entry_call", "metadata", "driver")]
    assert order == sorted(order)
    assert lines[sec["entry_call"]["start"] - 1].startswith("def call(flat_inputs)")
    assert lines[sec["metadata"]["start"]].startswith("# 2. Calling-convention metadata")
    assert lines[sec["driver"]["start"]].startswith("# 3. Driver")
    names = {n["name"] for n in cap["graph"]["node_list"]}
    kernels = low["kernels"]
    assert kernels
    for k in kernels:
        assert lines[k["def_line"] - 1].startswith(f"{k['name']} = async_compile.")
        assert k["start"] <= k["def_line"] < k["end"]
        assert lines[k["end"] - 1].startswith("'''")
        assert k["nodes_from"] == "lowering", k
        assert k["nodes"] and set(k["nodes"]) <= names
        assert k["calls"] and all(k["name"] in lines[c - 1] for c in k["calls"])
    assert any("relu" in k["nodes"] for k in kernels)
    ext = low["extern_calls"]
    assert ext and any("addmm" in e["nodes"] for e in ext)
    for e in ext:
        assert set(e["nodes"]) <= names


def test_probe_does_not_change_python_code_and_warm_lowering(first):
    rep, cap, code, cache, events = first
    from precompile_studio.script.loader import execute, read_source

    mod = execute(read_source(script_path(SCRIPT)))
    plain_code, _ = precompile(mod.fn, *mod.example_inputs(), backend="inductor")
    assert plain_code == code
    # warm: Inductor serves the lowering from its FX-graph cache, so no kernel is defined;
    # the kernel origins come from what the first run learned.
    rep2 = run_script(SCRIPT, verify=False)
    cap2 = rep2["captures"][0]
    assert cap2["artifact"]["python_code_sha256"] == cap["artifact"]["python_code_sha256"]
    k2 = {k["name"]: k for k in cap2["lowering"]["kernels"]}
    for k in cap["lowering"]["kernels"]:
        assert k2[k["name"]]["nodes"] == k["nodes"]
        assert k2[k["name"]]["nodes_from"] == "studio-cache"


def test_tampered_inductor_cache_is_refused_at_load(first):
    rep, cap, code, cache, events = first
    from precompile_studio.contract.violations import Context
    from precompile_studio.verify.pipeline import load_artifact

    blob = dict(torch.load(io.BytesIO(cache), weights_only=True))
    blob["code_hash"] = "f" * 64
    buf = io.BytesIO()
    torch.save(blob, buf)
    f, _dt, err, _w = load_artifact(code, buf.getvalue(), Context())
    assert f is None and (err["invariant"], err["rule"]) == (7, "cache-code-hash-mismatch")
