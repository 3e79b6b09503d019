"""Dims marked with mark_unbacked (verify/resized.py): seen, and held to "one artifact serves any size".

Real captures on this environment's torch (2.14 and 2.15 both capture marked dims as unbacked
sizes): a marked batch dim runs at another size; dims marked independently that the graph needs
equal are a mismatch measured at unequal sizes (the artifact returns, eager raises), named at the
op that ties them; a shared shape_id is no finding; a guard on a marked dim and mark_unbacked on
the eager backend are refusals at their lines.
"""
import os

import torch

from conftest import marker_line, precompile, precompile_load, run_script, script_path
from precompile_studio.verify import resized


def _cap(rep):
    assert rep["captures"], rep["message"]
    return rep["captures"][0]


def _trials(cap):
    return {t["kind"]: t for t in cap["verify"]["resized"]["trials"]}


def test_plain_torch_accepts_unequal_sizes_of_independently_marked_dims():
    """The hazard the studio reports, measured on plain torch: no error, a result of a's rows."""
    from torch._dynamo.decorators import mark_unbacked

    a, b = torch.randn(4, 3), torch.randn(4, 3)
    mark_unbacked(a, 0)
    mark_unbacked(b, 0)
    art = precompile_load(*precompile(lambda a, b: a * 2 + b, a, b))
    assert tuple(art(torch.randn(5, 3), torch.randn(2, 3)).shape) == (5, 3)
    try:
        torch.randn(5, 3) * 2 + torch.randn(2, 3)
    except RuntimeError:
        pass
    else:
        raise AssertionError("eager accepted unequal sizes")


def test_independent_marks_the_graph_ties_are_a_mismatch_at_the_op():
    rep = run_script("dyn_unshared.py")
    cap = _cap(rep)
    assert rep["status"] == "mismatch" and cap["status"] == "mismatch"
    line = marker_line("dyn_unshared.py")
    o = cap["outcome"]
    assert (o["rule"], o["invariant"], o["location"]["line"]) == ("unshared-shape-id", 3, line)
    assert "a dim 0 and b dim 0 are marked independently" in o["message"] and "aten.add.Tensor" in o["message"]
    assert "dyn_unshared" in rep["message"] and "unshared-shape-id" not in rep["message"].split(":")[0]
    t = _trials(cap)["unequal-sizes"]
    assert t["status"] == "accepted" and t["artifact_result"] == "(4, 3)"
    assert t["eager_error"].startswith("RuntimeError: The size of tensor a (4) must match")
    assert t["tie"]["symbols"] == ["u0", "u1"] and t["tie"]["line"] == line
    w = next(w for w in cap["warnings"] if w["rule"] == "unshared-shape-id")
    assert os.path.realpath(w["location"]["file"]) == os.path.realpath(script_path("dyn_unshared.py"))
    assert 'mark_unbacked(a, 0, shape_id="batch") and mark_unbacked(b, 0, shape_id="batch")' in w["fix"]
    # the equal sizes the contract promises still work
    assert _trials(cap)["other-sizes"]["status"] == "ok"


def test_a_shared_shape_id_is_no_finding():
    rep = run_script("dyn_shared.py")
    cap = _cap(rep)
    assert rep["status"] == "ok", rep["message"]
    assert not [w for w in cap["warnings"] if w["rule"] in ("unshared-shape-id", "resized-divergence")]
    trials = _trials(cap)
    assert list(trials) == ["other-sizes", "shared-unequal"]
    assert trials["other-sizes"] == {**trials["other-sizes"], "status": "ok", "sizes": "a dim 0 = 5, b dim 0 = 5"}
    # one symbol: the artifact itself refuses unequal sizes at the call, as eager fn does
    t = trials["shared-unequal"]
    assert t["status"] == "ok" and t["sizes"] == "a dim 0 = 4, b dim 0 = 5"
    assert t["note"].startswith("the artifact refused them at the call (PrecompileError); eager fn raised RuntimeError")
    dyn = [e["dynamic"] for e in cap["inputs"]["entries"] if e.get("dynamic")]
    assert dyn == [[{"dim": 0, "shape_id": "rows", "min": None, "max": None}]] * 2
    # one symbol for both: the capture bound them together
    placeholders = [n for n in cap["graph"]["node_list"] if n.get("kind") == "input"]
    assert [(n["qualname"], n["dynamic"][0]["symbol"], n["dynamic"][0]["shape_id"]) for n in placeholders] == [
        ("a", "u0", "rows"), ("b", "u0", "rows")]


def test_a_marked_batch_dim_is_verified_at_another_size():
    rep = run_script("dyn_batch.py")
    cap = _cap(rep)
    assert rep["status"] == "ok", rep["message"]
    r = cap["verify"]["resized"]
    assert r["marks"] == [{"input": "x", "dim": 0, "size": 6, "shape_id": None}]
    assert r["trials"][0]["kind"] == "other-sizes" and r["trials"][0]["sizes"] == "x dim 0 = 7"
    assert r["trials"][0]["status"] == "ok" and r["diverged"] is False
    x = next(n for n in cap["graph"]["node_list"] if n.get("qualname") == "x")
    assert x["shape"] == ["u0", 8]
    assert x["dynamic"] == [{"dim": 0, "symbol": "u0", "shape_id": None, "min": None, "max": None}]


def test_unmarked_inputs_have_no_resized_trials():
    cap = _cap(run_script("chk_clean_mlp.py"))
    assert "resized" not in cap["verify"]


def test_a_guard_on_a_marked_dim_is_refused_at_the_line_that_guards():
    rep = run_script("dyn_guard.py")
    v = _cap(rep)["violation"]
    assert rep["status"] == "violation"
    assert (v["rule"], v["invariant"], v["location"]["line"]) == ("guard-on-unbacked-dim", 3,
                                                                  marker_line("dyn_guard.py"))


def test_mark_unbacked_on_the_eager_backend_is_explained_at_the_backend_line():
    rep = run_script("dyn_eager.py")
    v = _cap(rep)["violation"]
    assert (v["rule"], v["location"]["line"]) == ("unbacked-needs-inductor", marker_line("dyn_eager.py", "backend ="))
    assert "inductor" in v["fix"]


def test_an_artifact_wrong_at_another_size_is_a_divergence():
    """The checker itself: an artifact that is right only at the example's size (a stand-in for one
    that baked it) diverges at the other size, with the sizes in the note."""
    from torch._dynamo.decorators import mark_unbacked

    x = torch.randn(6, 3)
    mark_unbacked(x, 0)

    def fn(x):
        return x.cos()

    def baked(x):
        return x.cos() if x.shape[0] == 6 else x.sin()

    summary, warnings = resized.resized_check(fn=fn, artifact=baked, snapshot=(x,), names=["x"], seed=1)
    assert summary["diverged"] is True
    assert summary["trials"][0]["status"] == "diverged" and summary["trials"][0]["note"].startswith("at x dim 0 = 7")
    assert [w["rule"] for w in warnings] == ["resized-divergence"]


def test_other_sizes_keep_within_the_marks_bounds():
    m = resized.Mark(0, "x", 0, 8, None, None, 8)
    assert resized.other_size([m]) == 7
    assert resized.other_size([resized.Mark(0, "x", 0, 2, None, 2, 2)]) is None
    a, b = resized.Mark(0, "a", 0, 4, "s", None, None), resized.Mark(1, "b", 0, 4, "s", 3, 4)
    c = resized.Mark(2, "c", 1, 4, None, None, None)
    assert resized.groups_of([a, b, c]) == [[a, b], [c]]
    assert resized.other_size([a, b]) == 3
