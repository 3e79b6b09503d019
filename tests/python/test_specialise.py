"""Where a shape specialisation comes from (capture/specialise.py): a runtime input-shape
rejection points at the line of fn whose guard the runtime sizes break, in the user's names."""
import os

import pytest

from conftest import for_api, marker_line, run_script, script_path


def _runtime(rep):
    cap = rep["captures"][0]
    rt = cap["verify"]["runtime"]
    assert rt["status"] == "violation"
    assert rt["violation"]["rule"] == "input-shape"
    return cap, rt["violation"]


def _same_file(loc, script):
    return os.path.realpath(loc["file"]) == os.path.realpath(script_path(script))


def test_shape_branch_is_named_at_its_line():
    rep = run_script("spec_branch.py")
    cap, v = _runtime(rep)
    line = marker_line("spec_branch.py")
    spec = cap["specialisation"]
    assert spec["status"] == "found", spec
    g = spec["guards"][0]
    assert g["expr"] == "x.shape[0] <= 2" and g["false_at_runtime"] is True
    assert _same_file(g["location"], "spec_branch.py") and g["location"]["line"] == line
    assert g["location"]["code"] == "if x.shape[0] > 2:  # HERE"
    assert g["stack"][0]["function"] == "fn"
    # the rejection, the capture's outcome and the run point at the branch ...
    assert _same_file(v["location"], "spec_branch.py") and v["location"]["line"] == line
    assert cap["outcome"]["location"] == v["location"]
    assert "x.shape[0] <= 2" in v["summary"] and "if x.shape[0] > 2:" in v["summary"]
    assert "x.shape[0] = 4" in v["summary"] and "# HERE" not in v["summary"]
    assert "mark_unbacked cannot help" in v["fix"]
    assert "x.shape[0] <= 2" in rep["message"]
    # ... and keep the runtime_inputs line as the second place
    assert v["details"]["runtime_location"]["line"] == marker_line("spec_branch.py", "# RUNTIME")
    assert v["details"]["guard"] == "x.shape[0] <= 2"
    assert cap["timings_s"]["specialise"] > 0


def test_static_capture_keeps_the_runtime_line_and_says_why():
    rep = run_script("spec_static.py")
    cap, v = _runtime(rep)
    spec = cap["specialisation"]
    assert spec["status"] == "none", spec
    assert not any(g["false_at_runtime"] for g in spec["guards"])
    assert _same_file(v["location"], "spec_static.py") and v["location"]["line"] == marker_line("spec_static.py")
    assert "only because precompile captures static shapes" in v["summary"]


def test_failed_symbolic_trace_falls_back_and_says_so():
    rep = run_script("spec_numpy.py")
    cap, v = _runtime(rep)
    spec = cap["specialisation"]
    assert spec["status"] == "failed" and ".numpy()" in spec["reason"], spec
    assert spec["reason"].startswith("the symbolic trace failed")
    assert v["location"]["line"] == marker_line("spec_numpy.py")
    assert v["details"]["specialisation"]["status"] == "failed"
    assert "summary" not in v or "static shapes" not in v["summary"]


def test_no_rejection_no_symbolic_trace():
    rep = run_script("rt_inference.py")
    cap = rep["captures"][0]
    assert "specialisation" not in cap
    assert "specialise" not in cap["timings_s"]


def test_guards_in_the_users_names_for_nested_inputs_and_models():
    import torch

    from precompile_studio.capture.specialise import trace_guards
    from precompile_studio.common.inputs import leaf_names, leaf_shapes

    def fn(model, batch):
        x = batch["x"]
        if x.shape[0] >= batch["y"].shape[1]:
            return model(x).sum()
        return model(x).mean()

    args = (torch.nn.Linear(3, 2), {"x": torch.randn(5, 3), "y": torch.randn(2, 4)})
    assert leaf_names(args, ["model", "batch"]) == ["batch['x']", "batch['y']"]
    runtime = leaf_shapes((torch.nn.Linear(3, 2), {"x": torch.randn(3, 3), "y": torch.randn(2, 4)}))
    assert runtime == [(3, 3), (2, 4)]
    spec = trace_guards(fn, args, ["model", "batch"], __file__, None, runtime=runtime)
    assert spec["status"] == "found", spec
    g = spec["guards"][0]
    assert g["expr"] == "batch['x'].shape[0] >= batch['y'].shape[1]" and g["false_at_runtime"]
    assert g["location"]["file"] == __file__ and "if x.shape[0] >=" in g["location"]["code"]


def test_a_torch_without_the_hooks_is_a_failure_said_not_a_lost_capture(monkeypatch):
    import torch
    import torch._precompile

    from precompile_studio.capture.specialise import trace_guards

    monkeypatch.delattr(torch._precompile, "make_fx")
    spec = trace_guards(lambda x: x * 2, (torch.randn(2),), ["x"], None, None)
    assert spec["status"] == "failed" and spec["guards"] == []


@pytest.mark.parametrize("budget,trace_s,status", [(None, 100.0, "found"), (1.0, 0.01, "found"),
                                                   (1.0, 100.0, "skipped")])
def test_the_budget_decides(budget, trace_s, status):
    """Unlimited (small inputs, --deep-verify): always; else while 4 traces fit in 10 s or the
    verification allowance."""
    import torch

    from precompile_studio.capture.runner import CaptureRecord
    from precompile_studio.capture.specialise import explain_rejection

    def fn(x):
        return x.sin() if x.shape[0] > 2 else x.cos()

    rec = CaptureRecord(name="fn", backend="eager", tracer="make_fx", fn=fn, snapshot=(torch.randn(2, 3),),
                        argnames=["x"])
    rec.timings["trace"] = trace_s
    violation = {"rule": "input-shape", "location": {"file": "s.py", "line": 9}, "details": {}}
    rec.verify = {"runtime": {"status": "violation", "violation": violation}}
    spec = explain_rejection(rec, [(4, 3)], budget)
    assert spec["status"] == status, spec
    if status == "skipped":
        assert "--deep-verify" in spec["reason"] and violation["location"]["line"] == 9
    else:
        assert violation["location"]["line"] != 9 and violation["details"]["runtime_location"]["line"] == 9


def test_a_guard_that_cannot_be_judged_at_the_runtime_rank_is_not_called_held():
    import torch

    from precompile_studio.capture.specialise import explain, trace_guards

    def fn(x):
        return x.sum(1) if x.shape[1] > 1 else x

    spec = trace_guards(fn, (torch.randn(2, 3),), ["x"], __file__, None, runtime=[(4,)])
    assert spec["status"] == "none" and spec["undecided"] == 1, spec
    violation = {"rule": "input-shape", "location": {"file": "s.py", "line": 9}}
    explain(violation, spec, ["x"], [(4,)])
    assert "cannot be judged" in violation["summary"] and "still holds" not in violation["summary"]
    assert violation["location"]["line"] == 9


def test_the_scripts_own_call_at_another_batch_is_named_at_the_branch():
    rep = run_script(for_api("spec_script_call.py"))
    assert rep["status"] == "violation", rep["message"]
    v = rep["violation"]
    assert v["rule"] == "input-shape"
    assert _same_file(v["location"], for_api("spec_script_call.py"))
    assert v["location"]["line"] == marker_line(for_api("spec_script_call.py"))
    assert v["details"]["runtime_location"]["line"] == marker_line(for_api("spec_script_call.py"), "# CALL")
    assert "the script's call passes x.shape[0] = 4" in v["summary"]
    assert rep["message"] == f"{v['location']['file']}:{v['location']['line']}: PrecompileError: {v['summary']}"
    spec = rep["captures"][0]["specialisation"]
    assert spec["status"] == "found" and spec["guards"][0]["expr"] == "x.shape[0] <= 2"


def test_runtime_sizes_from_precompiles_message():
    from precompile_studio.capture.specialise import runtime_from_message

    msg = "precompile: a runtime input has shape (4, 3) but the artifact was traced with shape (2, 3); ..."
    assert runtime_from_message(msg, [(2, 3), (5,)]) == [(4, 3), (5,)]
    assert runtime_from_message(msg, [(2, 3), (2, 3)]) is None  # which one is not known
    assert runtime_from_message("another message", [(2, 3)]) is None


def test_a_trace_ended_by_a_value_decision_names_that_line():
    rep = run_script("spec_value.py")
    cap, v = _runtime(rep)
    spec = cap["specialisation"]
    assert spec["status"] == "failed", spec
    assert f"a tensor's value at spec_value.py:{marker_line('spec_value.py')} (`if peak > 1.0:`)" in spec["reason"]
    assert "mark_unbacked" not in spec["reason"]  # precompile's words for its own case, not this one
    assert v["location"]["line"] == marker_line("spec_value.py", "# RUNTIME")  # the fallback
