"""The graph in the report is the one precompile captured, with lines and module paths."""
import pytest
import torch

from conftest import for_api, marker_line, precompile, run_script, script_path
from precompile_studio.capture.probe import CaptureProbe


def _step(model, x):
    loss = model(x).pow(2).mean()
    loss.backward()
    return loss


def _models():
    torch.manual_seed(0)
    yield "mlp", (torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2)),
                  torch.randn(3, 4))
    yield "batchnorm", (torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.BatchNorm1d(6)).train(),
                        torch.randn(5, 4))
    layer = torch.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
    yield "transformer", (torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False),
                          torch.randn(2, 5, 16))


@pytest.mark.parametrize("name,args", list(_models()), ids=lambda v: v if isinstance(v, str) else "")
def test_probe_does_not_change_the_capture(name, args):
    import copy

    from torch._precompile import _capture

    a1, a2, a3, a4 = (copy.deepcopy(args) for _ in range(4))
    plain_gm = _capture(_step, a1).gm
    plain_code, _ = precompile(_step, *a2, backend="eager")
    with CaptureProbe(__file__, backend="eager") as probe:
        probed_code, _ = precompile(_step, *a3, backend="eager")
    assert probe.gm is not None and probe.capture is not None
    assert probe.gm.code == plain_gm.code
    assert probed_code == plain_code  # eager python_code inlines gm.code
    # and the instrumentation is gone again
    with CaptureProbe(__file__, backend="eager") as probe2:
        pass
    again = _capture(_step, a4).gm
    assert again.code == plain_gm.code and not probe2.info
    assert len(probe.info) > 0


def _graph(name):
    rep = run_script(name)
    assert rep["status"] == "ok", rep["message"]
    cap = rep["captures"][0]
    return cap, cap["graph"], {n["name"]: n for n in cap["graph"]["node_list"]}


def test_training_step_graph():
    cap, g, nodes = _graph("rt_train.py")
    nl = g["node_list"]
    assert g["nodes"] == len(nl)
    assert g["inputs"] == 6 and g["parameters"] == 4 and g["user_inputs"] == 2 and g["gradients"] == 4
    assert g["ops"]["aten.addmm.default"] == 2
    ph = [n for n in nl if n["op"] == "placeholder"]
    assert [n["kind"] for n in ph] == ["parameter"] * 4 + ["input"] * 2
    assert [n["qualname"] for n in ph] == ["model.0.weight", "model.0.bias", "model.2.weight",
                                           "model.2.bias", "x", "t"]
    assert ph[0]["param"] == "0.weight" and ph[0]["shape"] == [8, 4] and ph[0]["stride"] == [4, 1]
    assert ph[0]["dtype"] == "float32" and ph[0]["device"] == "cpu"
    roles = [(o["role"], o["param"]) for o in g["output_list"]]
    assert roles == [("result", None), ("gradient", "model.0.weight"), ("gradient", "model.0.bias"),
                     ("gradient", "model.2.weight"), ("gradient", "model.2.bias")]
    fwd, bwd = marker_line("rt_train.py", "# FORWARD"), marker_line("rt_train.py", "# BACKWARD")
    addmm = nodes["addmm"]
    assert addmm["module"] == {"path": "model.0", "type": "Linear"}
    assert addmm["source"]["line"] == fwd and addmm["phase"] == "forward"
    assert addmm["inputs"] == ["flat_2", "flat_5", "t"]
    assert nodes["relu"]["module"] == {"path": "model.1", "type": "ReLU"}
    assert nodes["mse_loss"]["module"] is None
    back = [n for n in nl if n.get("phase") == "backward"]
    assert back and all(n["trigger"]["line"] == bwd for n in back)
    # backward nodes of Linear know their module via the forward node they differentiate
    lin_back = [n for n in back if (n.get("module") or {}).get("path") == "model.2"]
    assert lin_back and all(n["source"]["line"] == fwd for n in lin_back)
    assert all(nodes[n["backward_of"]]["phase"] == "forward" for n in back if n.get("backward_of"))
    out = nodes["output"]
    assert out["inputs"] == [o["node"] for o in g["output_list"]]
    assert {m["path"]: m["type"] for m in g["modules"]}["model.2"] == "Linear"


def test_tied_weights_are_one_input_and_one_gradient():
    cap, g, nodes = _graph("rt_tied.py")
    ph = [n for n in g["node_list"] if n["op"] == "placeholder"]
    params = [n for n in ph if n["kind"] == "parameter"]
    assert len(params) == 1
    assert params[0]["qualname"] == "model.embed.weight"
    assert params[0]["aliases"] == ["model.out.weight"]
    assert g["gradients"] == 1
    assert cap["verify"]["matches_eager"] and cap["verify"]["grads_match"]


def test_two_model_arguments():
    cap, g, nodes = _graph("rt_two_models.py")
    ph = [n for n in g["node_list"] if n["kind"] in ("parameter",)]
    assert [n["param"] for n in ph] == ["m0.weight", "m0.bias", "m1.weight", "m1.bias"]
    assert [n["qualname"] for n in ph] == ["encoder.weight", "encoder.bias", "head.weight", "head.bias"]
    mods = {n["module"]["path"] for n in g["node_list"] if n.get("module")}
    assert {"encoder", "head"} <= mods
    assert cap["verify"]["matches_eager"] and cap["verify"]["grads_match"]


def test_batchnorm_buffers():
    cap, g, nodes = _graph("rt_batchnorm.py")
    bufs = [n for n in g["node_list"] if n.get("kind") == "buffer"]
    assert [n["qualname"] for n in bufs] == ["model.1.running_mean", "model.1.running_var",
                                             "model.1.num_batches_tracked"]
    ver = cap["verify"]
    assert ver["matches_eager"] and ver["buffers_match"] and ver["grads_match"]
    assert {b["name"] for b in ver["buffers"]} == {"model.1.running_mean", "model.1.running_var",
                                                   "model.1.num_batches_tracked"}


def test_getitem_records_the_tuple_element_it_takes():
    """A getitem says which element of its input's tuple it is (item), also where two elements
    share a layout (batch norm's mean and invstd), so that an export need not guess."""
    cap, g, nodes = _graph("rt_batchnorm.py")
    getitems = [n for n in g["node_list"] if n["target"] == "operator.getitem"]
    assert getitems
    for n in getitems:
        source = nodes[n["inputs"][0]]
        assert 0 <= n["item"] < len(source["values"])
        element = source["values"][n["item"]]
        assert (element.get("shape"), element.get("dtype")) == (n.get("shape"), n.get("dtype")), n["name"]
    by_source = {}
    for n in getitems:
        by_source.setdefault(n["inputs"][0], []).append(n["item"])
    batch_norm = [s for s in by_source if nodes[s]["target"].startswith("aten.native_batch_norm.")]
    assert batch_norm and all(len(set(by_source[s])) == len(by_source[s]) for s in by_source)
    assert {1, 2} <= set(by_source[batch_norm[0]]), "the mean and invstd the backward reads, told apart"


def test_decomposition_table_removes_the_op():
    cap, g, nodes = _graph("rt_decomp.py")
    assert "aten.silu.default" not in g["ops"]
    assert "aten.sigmoid.default" in g["ops"]
    assert cap["verify"]["matches_eager"]


@pytest.mark.parametrize("script", ["rt_inference.py", "rt_alias.py", "rt_mutation.py"])
def test_round_trip_eager(script):
    cap, g, nodes = _graph(script)
    ver = cap["verify"]
    assert ver["ran"] and ver["status"] == "ok" and ver["matches_eager"] is True
    assert ver["calls"] == 2
    assert ver["max_abs_diff"] == 0.0
    if script == "rt_mutation.py":
        assert ver["inputs_match"] is True and len(ver["inputs"]) == 2
    if script == "rt_inference.py":
        assert ver["grads_match"] is None
    for key in ("load", "call", "call_eager"):  # load_no_cache: only with deep_verify
        assert cap["timings_s"][key] > 0


def test_eager_lowering_map():
    cap, g, nodes = _graph("rt_train.py")
    low = cap["lowering"]
    kinds = [s["kind"] for s in low["sections"]]
    assert kinds == ["header", "captured_graph", "graph_function", "graph_call", "metadata", "driver"]
    mapped = {name for _line, name in low["node_lines"]}
    assert mapped == set(nodes)
    sec = {s["kind"]: s for s in low["sections"]}
    assert sec["graph_function"]["start"] < sec["metadata"]["start"] < sec["driver"]["start"]


def test_eager_lowering_lines_match_python_code(tmp_path):
    rep = run_script("rt_train.py", out_dir=str(tmp_path))
    cap = rep["captures"][0]
    lines = open(cap["artifact"]["files"]["python_code"]).read().split("\n")
    for line, name in cap["lowering"]["node_lines"]:
        text = lines[line - 1]
        if name == "output":
            assert text.startswith("    return "), text
        else:
            assert name in text, (line, name, text)
    sec = {s["kind"]: s for s in cap["lowering"]["sections"]}
    assert lines[sec["metadata"]["start"]].startswith("# 2. Calling-convention metadata")
    assert lines[sec["graph_function"]["start"] - 1].startswith("def _graph_forward(")
    assert cap["cache"]["entries"] == [] and cap["cache"]["code_hash_ok"] is True
    assert cap["cache"]["backend"] == "eager" and cap["cache"]["version"] == 1


def test_script_that_calls_precompile_itself():
    rep = run_script(for_api("rec_self_call.py"))
    assert rep["status"] == "ok", rep["message"]
    cap = rep["captures"][0]
    assert cap["name"] == "step"
    g = cap["graph"]
    addmm = [n for n in g["node_list"] if n["target"] == "aten.addmm.default"][0]
    assert addmm["module"] == {"path": "m", "type": "Linear"}
    relu = [n for n in g["node_list"] if n["target"] == "aten.relu.default"][0]
    assert relu["source"]["line"] == marker_line(for_api("rec_self_call.py"), "# STEP")
    assert cap["verify"]["matches_eager"] is True


def test_stages_and_no_verify():
    events = []
    rep = run_script("rt_inference.py", events=events)
    stages = [e["stage"] for e in events if e.get("type") == "stage" and not e.get("detail")]
    assert stages == ["script", "capture", "lower", "verify"]
    events = []
    rep = run_script("rt_inference.py", events=events, verify=False)
    stages = [e["stage"] for e in events if e.get("type") == "stage" and not e.get("detail")]
    assert stages == ["script", "capture", "lower"]
    cap = rep["captures"][0]
    assert cap["verify"]["ran"] is False and "load" not in cap["timings_s"]
    assert cap["graph"]["nodes"] > 0
    import json

    json.dumps(rep)  # serialisable as is
    assert script_path("rt_inference.py") == rep["script"]
