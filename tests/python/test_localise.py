"""Where a numerics drift or a mismatch starts (verify/localise.py): per graph node the artifact's
error against a float64 run of the captured graph next to eager's own, and the first nodes that
leave eager's band named in the verdict's message."""
import pytest
import torch

from conftest import run_script
from precompile_studio.common import internal_errors
from precompile_studio.verify import localise as L


def _acc(report: dict) -> dict:
    return report["captures"][0]["verify"]["accuracy"]


def test_a_float16_matmul_decomposition_drifts_from_the_mm_node():
    rep = run_script("acc_drift.py")
    acc = _acc(rep)
    assert acc["verdict"] == "numerics drift"
    assert acc["localise"]["status"] == "done" and acc["localise"]["observed"] >= 2
    assert acc["drift_starts"] == ["mm"]
    by_node = {n["node"]: n for n in acc["nodes"]}
    mm = by_node["mm"]
    assert mm["leaves_band"] and mm["error"] > 100 * mm["eager_error"]
    # casts are no computation of their own: not compared, the drift is the mm's
    assert not any(name.startswith("_to_copy") for name in by_node)
    assert "; drift starts at mm (model): against a float64 run" in rep["message"]
    assert rep["captures"][0]["warnings"][0]["message"] == acc["message"]
    assert rep["captures"][0]["status"] == "ok"  # the verdict and status are the judge's alone


def test_a_wrong_artifact_names_where_the_difference_starts():
    rep = run_script("acc_wrong_overflow.py")
    acc = _acc(rep)
    assert acc["verdict"] == "wrong"
    assert acc["drift_starts"] == ["mm"]
    mm = next(n for n in acc["nodes"] if n["node"] == "mm")
    assert mm["leaves_band"] and mm["error"] is None  # inf: not a JSON number
    assert "the difference starts at mm (model)" in acc["message"]
    assert rep["captures"][0]["status"] == "mismatch"


def test_a_matching_capture_is_not_localised():
    acc = _acc(run_script("acc_rounding.py"))
    assert acc["verdict"] == "matches"
    assert "localise" not in acc and "nodes" not in acc


def test_inductor_buffers_are_mapped_to_their_nodes(monkeypatch):
    # a capture that matches, localised all the same: every buffer observed is inside the band
    monkeypatch.setattr(L, "LOCALISED", ("matches", "numerics drift", "wrong"))
    rep = run_script("ind_train.py")
    acc = _acc(rep)
    assert acc["localise"]["status"] == "done", acc["localise"]
    names = {n["node"] for n in acc["nodes"]}
    graph = {n["name"] for n in rep["captures"][0]["graph"]["node_list"]}
    assert names and names <= graph
    assert any(name.startswith("addmm") for name in names)
    assert acc["drift_starts"] == [] and not any(n["leaves_band"] for n in acc["nodes"])


def _verify(allowance, spent=0.0):
    return {"accuracy": {"verdict": "numerics drift", "message": "numerics drift in 1 of 1 outputs: x"},
            "budget": {"deep": False, "allowance_s": allowance, "spent_s": spent, "skipped": []}}


def test_a_localisation_over_the_budget_is_skipped_and_said():
    v = _verify(allowance=2.0, spent=1.5)
    L.localise_verified(v, {"call_eager": 8.0}, [], gm=None, snapshot=(), seed=0, backend="eager")  # 32 s > 30 s
    loc = v["accuracy"]["localise"]
    assert loc["status"] == "skipped" and "--deep-verify" in loc["reason"]
    assert v["budget"]["skipped"] == ["localising the drift"] and "how" in v["budget"]
    assert v["accuracy"]["message"] == "numerics drift in 1 of 1 outputs: x"


@pytest.mark.allows_internal_errors  # a graph that is no graph: localise's own failure, on purpose
def test_a_localisation_that_fails_keeps_the_verdict():
    v = _verify(allowance=None)
    L.localise_verified(v, {}, [], gm=object(), snapshot=(torch.ones(2),), seed=0, backend="eager")
    loc = v["accuracy"]["localise"]
    assert loc["status"] == "failed" and loc["reason"]
    assert v["accuracy"]["verdict"] == "numerics drift" and v["accuracy"]["message"].endswith(": x")
    assert [e["where"] for e in internal_errors.entries()] == ["localise: where the difference starts"]


def test_drift_starts_where_inputs_are_inside_the_band_not_where_it_spreads():
    def f(x, y):
        a = x.sin()
        b = a.cos()          # leaves: a start (its input a is inside)
        c = b * 2            # leaves, but only because b did
        d = y.exp()          # inside
        e = d.view(-1)       # not observed: passes d's state on
        g = e + 1            # leaves, inputs inside through e: a start
        return c, g

    gm = torch.fx.symbolic_trace(f)
    nodes = list(gm.graph.nodes)
    assert [n.name for n in nodes if n.op == "call_method" or n.op == "call_function"] == [
        "sin", "cos", "mul", "exp", "view", "add"]
    observed = {"sin": (0, 0, False), "cos": (1, 0, True), "mul": (1, 0, True), "exp": (0, 0, False),
                "add": (1, 0, True)}
    assert L.drift_starts(nodes, observed) == ["cos", "add"]


@pytest.mark.parametrize("verdict,expected", [
    ("numerics drift", "numerics drift in 2 of 3 gradients; drift starts at mm (model.fc): against x"),
    ("wrong", "wrong: 1 of 1 outputs differ (x); the difference starts at mm (model.fc)"),
])
def test_the_message_names_where_it_starts(verdict, expected):
    msg = {"numerics drift": "numerics drift in 2 of 3 gradients: against x",
           "wrong": "wrong: 1 of 1 outputs differ (x)"}[verdict]
    phrase = L.starts_phrase(["getitem_3"], {"mm": "model.fc"}, {"getitem_3": "mm"})
    assert L.with_starts(msg, verdict, phrase) == expected
    many = L.starts_phrase(["a", "b", "c", "d"], {})
    assert many == "a, b, c and 1 more"


def test_a_start_on_an_element_of_a_node_of_several_outputs_is_named_by_that_node_once():
    """native_batch_norm_backward's getitems: the start is the node, the getitems beside it."""
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    both = graph.call_function(torch.ops.aten.var_mean.correction, (x,))
    import operator

    first = graph.call_function(operator.getitem, (both, 0))
    second = graph.call_function(operator.getitem, (both, 1))
    graph.output((first, second))
    nodes = list(graph.nodes)
    observed = {first.name: (1.0, 1e-6, True), second.name: (1.0, 1e-6, True)}
    starts, via = L.named_starts(nodes, observed)
    assert starts == [both.name]
    assert via == {both.name: [first.name, second.name]}

