"""The contract checker (precompile_studio/contract/checker.py): what precompile does not enforce.

It must point at the line where a tensor's value became a Python value (whether make_fx
refuses the read, which makes it the capture's violation, or lets it through silently, which
makes it a warning), catch a divergence on perturbed inputs, flag closed-over Python scalars,
and say nothing at all about a clean MLP, a training step or a BatchNorm model.
"""
import copy
import os

import pytest
import torch

from conftest import for_api, marker_line, precompile, run_script, script_path
from precompile_studio.capture.probe import CaptureProbe
from precompile_studio.contract import checker
from precompile_studio.verify import perturbed


def _cap(rep):
    assert rep["captures"], rep["message"]
    return rep["captures"][0]


def _here(name, w):
    loc = w["location"]
    assert loc is not None, w
    assert os.path.realpath(loc["file"]) == os.path.realpath(script_path(name))
    return loc["line"]


def _points_at_line(rep, name, marker="# HERE"):
    """Invariant-3 findings (the violation or warnings) naming the marker line."""
    line = marker_line(name, marker)
    cap = _cap(rep)
    found = []
    v = cap["violation"]
    if v and v["invariant"] == 3 and v["location"] and v["location"]["line"] == line:
        found.append(("violation", v["rule"]))
    for w in cap["warnings"]:
        if w["invariant"] == 3 and w["location"] and w["location"]["line"] == line:
            found.append(("warning", w["rule"]))
    return found


def _check_fields(w):
    for key in ("invariant", "rule", "message", "fix", "location"):
        assert key in w, (key, w)
    assert w["fix"] and w["fix"].endswith(".") and w["fix"].count(". ") == 0, w["fix"]


# --------------------------------------------------------------------------- what make_fx does
READS = {
    "bool": (lambda x: x * 2 if x.sum() > 0 else x, True),
    "item": (lambda x: x * x.sum().item(), True),
    "int": (lambda x: x * int(x.sum()), True),
    "float": (lambda x: x * float(x.sum()), True),
    "tolist": (lambda x: x * x.sum().tolist(), False),
    "numpy": (lambda x: x * float(x.sum().detach().numpy()), False),
}


@pytest.mark.parametrize("read", list(READS))
def test_what_make_fx_does_with_a_value_read(read):
    """torch 2.14's make_fx (tracing_mode="real"): reads through an op raise, the others pass."""
    fn, raises = READS[read]
    if raises:
        with pytest.raises(RuntimeError, match="trying to get value out of a tracing tensor"):
            precompile(fn, torch.ones(3), backend="eager")
    else:
        code, _ = precompile(fn, torch.ones(3), backend="eager")
        assert "3.0" in code  # the example's sum, baked as a constant


# --------------------------------------------------------------------------- (a) value reads
def test_branch_on_a_tensor_value_points_at_its_line():
    rep = run_script("chk_branch.py")
    # make_fx refuses bool(): the capture's violation names the line, no warning repeats it
    assert _points_at_line(rep, "chk_branch.py") == [("violation", "data-dependent-value")]
    assert _cap(rep)["warnings"] == []


def test_item_points_at_its_line():
    rep = run_script("chk_item.py")
    assert _points_at_line(rep, "chk_item.py") == [("violation", "data-dependent-value")]
    assert _cap(rep)["violation"]["fix"]


def test_branch_on_tolist_is_a_warning_with_the_line_and_a_wrong_trial_a_mismatch():
    rep = run_script("chk_tolist_branch.py")
    cap = _cap(rep)
    # the example matches, but a perturbed trial measured a wrong answer: the run is not ok
    assert cap["verify"]["matches_eager"] is True
    assert cap["status"] == "mismatch" and rep["status"] == "mismatch", rep["message"]
    assert cap["outcome"]["rule"] == "perturbed-divergence" and cap["outcome"]["invariant"] == 3
    assert "other values" in rep["message"] and "float64" in rep["message"], rep["message"]
    found = _points_at_line(rep, "chk_tolist_branch.py")
    assert ("warning", "value-to-python") in found
    # the negated inputs take the other branch in eager fn: a divergence, at the same line
    assert ("warning", "perturbed-divergence") in found
    w = next(w for w in cap["warnings"] if w["rule"] == "value-to-python")
    _check_fields(w)
    assert ".tolist()" in w["message"] and "3.0" in w["message"]
    assert cap["verify"]["perturbed"]["diverged"] is True


def test_item_caught_by_fn_is_a_warning():
    rep = run_script("chk_caught_item.py")
    # fn's except branch (k = 1.0) is what the artifact keeps: it differs from eager (k = 4.0)
    assert _cap(rep)["status"] == "mismatch" and rep["status"] == "mismatch"
    assert _cap(rep)["outcome"]["rule"] == "differs-from-eager"
    assert ("warning", "value-to-python") in _points_at_line(rep, "chk_caught_item.py")
    w = next(w for w in _cap(rep)["warnings"] if w["rule"] == "value-to-python")
    assert w["details"]["refused"] is True and "caught" in w["message"]


def test_numpy_read_is_a_warning():
    rep = run_script("chk_numpy.py")
    assert ("warning", "value-to-python") in _points_at_line(rep, "chk_numpy.py")


def test_data_dependent_size_is_a_warning():
    rep = run_script("chk_mask.py")
    cap = _cap(rep)
    w = next(w for w in cap["warnings"] if w["rule"] == "data-dependent-size")
    _check_fields(w)
    assert _here("chk_mask.py", w) == marker_line("chk_mask.py")
    assert w["details"]["shape"] == [3]


# --------------------------------------------------------------------------- (c) scalars
def test_closed_over_scalars_are_flagged_where_they_are_read():
    rep = run_script("chk_scalars.py")
    cap = _cap(rep)
    assert cap["status"] == "ok"
    got = {w["details"]["name"]: _here("chk_scalars.py", w) for w in cap["warnings"]
           if w["rule"] == "closed-over-scalar"}
    assert got == {
        "SCALE": marker_line("chk_scalars.py"),
        "k": marker_line("chk_scalars.py"),
        "USE_BIAS": marker_line("chk_scalars.py", "# BIAS"),
        "LAYERS": marker_line("chk_scalars.py", "# LAYERS"),
        "ALPHA": marker_line("chk_scalars.py", "# ALPHA"),  # in a method forward calls
    }
    for w in cap["warnings"]:
        _check_fields(w)
        assert w["invariant"] == 1
    assert all(w["rule"] == "closed-over-scalar" for w in cap["warnings"])


# --------------------------------------------------------------------------- (b) perturbed
def test_perturb_keeps_the_spec_and_aliasing():
    torch.manual_seed(0)
    base = torch.randn(4, 6)
    model = torch.nn.Linear(3, 3)
    args = (model, base.t(), base[:, 1:3], torch.randn(3).expand(5, 3), torch.tensor([0, 2, 1, 2]),
            {"mask": torch.tensor([True, False, True]), "n": 3}, torch.randn(2, requires_grad=True))
    out, changed = perturbed.perturb(args, "fresh", torch.Generator().manual_seed(1))
    assert changed == 6
    assert out[0] is not model and torch.equal(out[0].weight, model.weight)
    for a, b in zip(torch.utils._pytree.tree_leaves(args[1:]), torch.utils._pytree.tree_leaves(out[1:])):
        if isinstance(a, torch.Tensor):
            assert (a.shape, a.stride(), a.dtype, a.storage_offset(), a.requires_grad) == \
                   (b.shape, b.stride(), b.dtype, b.storage_offset(), b.requires_grad)
        else:
            assert a == b
    assert not torch.equal(out[1], args[1])
    # the two views of `base` still share one (fresh) storage
    assert out[1].untyped_storage().data_ptr() == out[2].untyped_storage().data_ptr()
    # integer labels are shuffled, never invented
    assert sorted(out[4].tolist()) == sorted(args[4].tolist())
    neg, _ = perturbed.perturb(args, "negated", torch.Generator().manual_seed(1))
    assert torch.equal(neg[1], -out[1])


def test_perturbed_check_reports_a_baked_artifact():
    def fn(x):
        return x * 2

    baked = torch.ones(3) * 2  # an "artifact" that kept the example's result

    def artifact(x):
        return baked.clone()

    summary, warnings = perturbed.perturbed_check(fn=fn, artifact=artifact, snapshot=(torch.ones(3),),
                                                names=["x"], seed=0, location={"file": "f.py", "line": 3})
    assert summary["ran"] and summary["diverged"] is True
    (w,) = warnings
    assert (w["invariant"], w["rule"], w["location"]["line"]) == (3, "perturbed-divergence", 3)
    _check_fields(w)
    summary, warnings = perturbed.perturbed_check(fn=fn, artifact=fn, snapshot=(torch.ones(3),),
                                                names=["x"], seed=0)
    assert summary["diverged"] is False and warnings == []


def test_a_baked_artifact_warning_gives_the_evidence_against_float64():
    baked = torch.ones(1000) * 2

    summary, warnings = perturbed.perturbed_check(fn=lambda x: x * 2, artifact=lambda x: baked.clone(),
                                                snapshot=(torch.ones(1000),), names=["x"], seed=0)
    (w,) = warnings
    first = summary["trials"][0]
    assert first["status"] == "diverged" and first["accuracy"]["verdict"] == "wrong"
    # the trial, the value, the artifact's and eager's errors against float64
    assert "fresh values" in w["message"] and "out[0]" in w["message"]
    assert "against eager's" in w["message"] and "float64" in w["message"]


def _near_zero_bump(x):
    """x * 2 with its element nearest zero off by 1e-4 of the output's RMS: outside the tight float32
    tolerance (1e-5 + 1e-4 |e|) at the example's scale, far inside rounding by RMS (1e-4 / sqrt(1000))."""
    out = x * 2
    out.view(-1)[out.abs().argmin()] += 1e-4 * float(out.pow(2).mean().sqrt())
    return out


def test_a_trial_outside_the_tight_tolerance_but_within_rounding_is_no_divergence():
    # resnet's case: a max abs diff of a few 1e-5 on near-zero elements, which an absolute
    # tolerance calls a divergence by chance (5 runs in 14), the float64 judge calls rounding.
    x = torch.randn(1000, generator=torch.Generator().manual_seed(3))
    summary, warnings = perturbed.perturbed_check(fn=lambda x: x * 2, artifact=_near_zero_bump,
                                                snapshot=(x,), names=["x"], seed=0)
    assert warnings == []
    assert summary["diverged"] is False
    assert [t["status"] for t in summary["trials"]] == ["ok", "ok", "ok"]
    # the first two are outside the tight tolerance and judged; the small one is within it
    assert [t.get("accuracy", {}).get("verdict") for t in summary["trials"]] == ["matches", "matches", None]


def test_a_trial_that_drifts_is_drift_with_its_figures_not_a_divergence():
    x = torch.randn(1000, generator=torch.Generator().manual_seed(3))
    summary, warnings = perturbed.perturbed_check(fn=lambda x: x * 2, artifact=lambda x: x * 2 * (1 + 1e-3),
                                                snapshot=(x,), names=["x"], seed=0)
    assert warnings == []
    assert summary["diverged"] is False and summary["drifted"] is True
    trial = summary["trials"][0]
    assert trial["status"] == "drift" and trial["accuracy"]["verdict"] == "numerics drift"
    assert trial["note"].startswith("numerics drift in 1 of 1 output")
    assert trial["accuracy"]["artifact_error"] > 100 * trial["accuracy"]["eager_error"]


def test_without_a_float64_run_only_a_difference_no_rounding_makes_diverges():
    def fn64_refused(x):
        if x.dtype == torch.float64:
            raise TypeError("this model runs in float32 only")
        return x * 2

    x = torch.randn(1000, generator=torch.Generator().manual_seed(3))
    summary, warnings = perturbed.perturbed_check(fn=fn64_refused, artifact=_near_zero_bump, snapshot=(x,),
                                                names=["x"], seed=0)
    assert warnings == [] and summary["diverged"] is False
    assert "no float64 verdict" in summary["trials"][0]["note"]
    baked = torch.ones(1000) * 2
    summary, warnings = perturbed.perturbed_check(fn=fn64_refused, artifact=lambda x: baked.clone(), snapshot=(x,),
                                                names=["x"], seed=0)
    assert summary["diverged"] is True and len(warnings) == 1
    assert "no float64 verdict" in warnings[0]["message"]


def test_perturbed_check_skips_inputs_it_cannot_perturb():
    summary, warnings = perturbed.perturbed_check(fn=lambda m: m.weight.sum(), artifact=lambda m: m.weight.sum(),
                                                snapshot=(torch.nn.Linear(2, 2),), names=["m"], seed=0)
    assert summary["ran"] is False and "no plain tensor inputs" in summary["reason"] and warnings == []


# --------------------------------------------------------------------------- no false positives
@pytest.mark.parametrize("name", ["chk_clean_mlp.py", "chk_clean_train.py", "chk_clean_batchnorm.py"])
def test_no_warning_on_clean_models(name):
    rep = run_script(name)
    assert rep["status"] == "ok", rep["message"]
    cap = _cap(rep)
    assert cap["warnings"] == []
    ver = cap["verify"]
    assert ver["matches_eager"] is True
    assert ver["perturbed"]["ran"] is True and ver["perturbed"]["diverged"] is False
    assert [t["status"] for t in ver["perturbed"]["trials"]] == ["ok", "ok", "ok"]


def test_checker_can_be_turned_off():
    rep = run_script("chk_tolist_branch.py", checker=False)
    cap = _cap(rep)
    assert cap["warnings"] == [] and cap["verify"]["perturbed"] is None


# --------------------------------------------------------------------------- a checker bug is seen
@pytest.mark.allows_internal_errors
def test_a_checker_bug_is_an_internal_error_and_the_run_goes_on(monkeypatch):
    from precompile_studio.common import internal_errors

    def broken(*a, **kw):
        raise RuntimeError("injected checker bug")

    real = checker.closed_over_scalar_warnings
    monkeypatch.setattr(checker, "closed_over_scalar_warnings", broken)
    rep = run_script("chk_scalars.py")
    cap = _cap(rep)
    assert rep["status"] == "ok" and cap["status"] == "ok" and cap["verify"]["matches_eager"] is True
    assert not [w for w in cap["warnings"] if w["rule"] == "closed-over-scalar"]  # the finding is lost, said below
    with open(checker.__file__, encoding="utf-8") as f:
        line = next(i for i, text in enumerate(f, 1) if "out += closed_over_scalar_warnings(" in text)
    assert rep["internal_errors"] == [{
        "where": "checker: closed-over scalars",
        "error": "RuntimeError: injected checker bug",
        "at": f"precompile_studio/contract/checker.py:{line}",  # the innermost frame of the package
        "count": 1,
    }]

    # the next run starts with none: neither that run's nor one recorded between runs
    monkeypatch.setattr(checker, "closed_over_scalar_warnings", real)
    internal_errors.record("between runs", RuntimeError("not this run's"))
    rep = run_script("chk_scalars.py")
    assert rep["internal_errors"] == [] and any(w["rule"] == "closed-over-scalar" for w in _cap(rep)["warnings"])


# --------------------------------------------------------------------------- no change to the capture
def _step(model, x):
    loss = model(x).pow(2).mean()
    loss.backward()
    return loss


def _tolist_fn(x):
    return x * 2 if x.sum().tolist() > 0 else x


@pytest.mark.parametrize("case", ["mlp", "batchnorm", "tolist"])
def test_checker_does_not_change_the_capture(case):
    torch.manual_seed(0)
    if case == "mlp":
        fn, args = _step, (torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2)),
                           torch.randn(3, 4))
    elif case == "batchnorm":
        fn, args = _step, (torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.BatchNorm1d(6)).train(),
                           torch.randn(5, 4))
    else:
        fn, args = _tolist_fn, (torch.ones(3),)
    before = dict(vars(torch.Tensor))
    plain, _ = precompile(fn, *copy.deepcopy(args), backend="eager")
    session = checker.CheckSession(__file__)
    with CaptureProbe(__file__, backend="eager") as probe:
        probe.trace_contexts.append(session.trace)
        checked, _ = precompile(fn, *copy.deepcopy(args), backend="eager")
    assert checked == plain
    assert dict(vars(torch.Tensor)) == before  # every wrapped method is restored
    reads = session.reads.reads
    if case == "tolist":
        assert [(r.method, r.raised) for r in reads] == [("tolist", False)]
    else:
        assert reads == []


# --------------------------------------------------------------------------- a script's own load
def test_a_script_that_loads_a_mismatched_pair_ends_in_a_violation():
    rep = run_script(for_api("script_load_mismatch.py"))
    assert rep["status"] == "violation"
    v = rep["violation"]
    assert (v["invariant"], v["rule"]) == (7, "cache-code-hash-mismatch")
    assert v["location"]["line"] == marker_line(for_api("script_load_mismatch.py"))
    assert v["fix"]
    assert [c["status"] for c in rep["captures"]] == ["ok", "ok"]
