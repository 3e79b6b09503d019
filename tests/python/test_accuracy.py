"""The accuracy judge (accuracy.py), the verification budget (budget.py) and the graph's writes
(state.graph_may_mutate): unit tests, and three eager-backend scripts whose artifacts differ from
eager by a decomposition -- by rounding (matches), by float16 arithmetic (numerics drift) and by
another function (wrong)."""
import math

import pytest
import torch

from conftest import precompile_api, run_script
from precompile_studio.common.compare import compare
from precompile_studio.verify import accuracy
from precompile_studio.verify.accuracy import float64_args, judge, judge_tensor, robust_error, summarise
from precompile_studio.verify.budget import VerifyBudget


# --------------------------------------------------------------------------- robust error
def test_robust_error_does_not_explode_on_near_zero_elements():
    ref = torch.ones(1000, dtype=torch.float64)
    ref[5] = 1e-12
    val = ref.clone()
    val[5] = 1e-6  # element-wise, a relative error of a million
    assert robust_error(val, ref) == pytest.approx(1e-6 / math.sqrt(1000), rel=1e-3)
    r = compare(ref.float(), val.float())
    assert r["max_rel_diff"] > 1e5 and r["rms_rel_diff"] < 1e-6


def test_robust_error_is_relative_to_the_reference_rms_and_absolute_where_it_is_zero():
    ref = torch.full((100,), 1e6, dtype=torch.float64)
    assert robust_error(ref + 1.0, ref) == pytest.approx(1e-6)
    assert robust_error(torch.full((4,), 0.5), torch.zeros(4, dtype=torch.float64)) == pytest.approx(0.5)
    assert robust_error(torch.zeros(0), torch.zeros(0, dtype=torch.float64)) == 0.0


def test_robust_error_of_non_finite_values():
    ref = torch.tensor([1.0, 2.0, math.inf], dtype=torch.float64)
    assert robust_error(torch.tensor([1.0, 2.0, math.inf]), ref) == 0.0
    assert robust_error(torch.tensor([1.0, math.nan, math.inf]), ref) == math.inf
    assert robust_error(torch.tensor([1.0, 2.0, 5.0]), ref) == math.inf


# --------------------------------------------------------------------------- per tensor
def _case(scale_eager: float, scale_art: float, n: int = 4096, dtype=torch.float32):
    g = torch.Generator().manual_seed(0)
    ref = torch.randn(n, generator=g, dtype=torch.float64)
    noise = torch.randn(n, generator=g, dtype=torch.float64)
    return (ref + scale_eager * noise).to(dtype), (ref + scale_art * noise.flip(0)).to(dtype), ref


def test_within_a_multiple_of_eager_error_matches():
    e, a, r = _case(1e-6, 1.5e-6)
    t = judge_tensor("w", "grads", e, a, r)
    assert t["verdict"] == "matches" and 1.0 < t["ratio"] < 2.0
    # an artifact closer to float64 than eager is never worse than eager
    e, a, r = _case(1e-3, 0.0)
    assert judge_tensor("w", "grads", e, a, r)["verdict"] == "matches"


def test_far_beyond_eager_error_is_drift_and_huge_errors_are_wrong():
    e, a, r = _case(1e-7, 1e-2)
    t = judge_tensor("w", "grads", e, a, r)
    assert t["verdict"] == "drift"
    assert t["eager_error"] < 1e-6 and t["artifact_error"] == pytest.approx(1e-2, rel=0.05)
    assert t["ratio"] > 1e3
    e, a, r = _case(1e-7, 0.5)
    assert judge_tensor("w", "grads", e, a, r)["verdict"] == "wrong"
    # a big error where eager is just as far off (ill-conditioned) is not wrong
    e, a, r = _case(0.3, 0.5)
    assert judge_tensor("w", "grads", e, a, r)["verdict"] == "matches"


def test_contract_problems_are_wrong():
    x = torch.ones(3)
    ref = x.double()
    assert judge_tensor("o", "outputs", x, torch.ones(4), ref)["verdict"] == "wrong"
    assert "sizes" in judge_tensor("o", "outputs", x, torch.ones(4), ref)["note"]
    assert judge_tensor("o", "outputs", x, x.double(), ref)["verdict"] == "wrong"
    assert judge_tensor("o", "outputs", x, torch.tensor([1.0, math.nan, 1.0]), ref)["verdict"] == "wrong"
    assert judge_tensor("o", "outputs", 3, 4, 3)["verdict"] == "wrong"
    # no float64 value to judge against: no verdict
    assert judge_tensor("o", "outputs", x, x + 1, None)["verdict"] is None


def test_integer_outputs_are_judged_by_the_elements_that_flip():
    ref = torch.arange(100)
    eager = ref.clone()
    art = ref.clone()
    art[3] = 0
    assert judge_tensor("i", "outputs", eager, art, ref)["verdict"] == "drift"
    art[:50] = 0
    assert judge_tensor("i", "outputs", eager, art, ref)["verdict"] == "wrong"
    eager[7] = 0  # eager flips as many: rounding
    assert judge_tensor("i", "outputs", eager, art[:], ref)["verdict"] == "wrong"


# --------------------------------------------------------------------------- the verdict
def _entries(names, ok=False):
    return [{"name": n, "result": {"ok": ok}} for n in names]


def test_the_verdict_names_the_worst_tensors_with_both_errors():
    grads = {f"model.w{i}": None for i in range(62)}
    result = {"outputs": _entries(["call1.out[0]"], ok=True), "grads": _entries(grads)}
    for i in range(len(grads)):
        if i < 2:
            result["grads"][i]["result"]["ok"] = True
    e_vals, a_vals, r_vals = {"outputs": {}}, {"outputs": {}}, {"outputs": {}}
    e_vals["grads"], a_vals["grads"], r_vals["grads"] = {}, {}, {}
    for i, n in enumerate(grads):
        e, a, r = _case(5.9e-6, 1.2e-2 * (1 + i / 100))
        e_vals["grads"][n], a_vals["grads"][n], r_vals["grads"][n] = e, a, r
    acc = judge(result, e_vals, a_vals, r_vals)
    assert acc["verdict"] == "numerics drift"
    assert acc["judged"] == 60 and acc["drift"] == 60 and acc["wrong"] == 0
    assert acc["worst"][0] == "model.w61"
    assert acc["message"].startswith("numerics drift in 60 of 62 gradients")
    assert "model.w61 (artifact 0.019, eager 5.9e-06" in acc["message"]
    assert acc["eager_error"] == pytest.approx(5.9e-6, rel=0.05)  # medians over the 60
    assert acc["artifact_error"] == pytest.approx(1.2e-2 * 1.315, rel=0.05)


def test_a_verdict_is_the_worst_of_its_tensors():
    m = {"name": "a", "kind": "outputs", "verdict": "matches", "eager_error": 1e-7, "artifact_error": 1e-7,
         "ratio": 1.0}
    d = {**m, "name": "b", "verdict": "drift", "artifact_error": 1e-3, "ratio": 1e4}
    w = {**m, "name": "c", "verdict": "wrong", "artifact_error": 0.9, "ratio": 9e6}
    n = {**m, "name": "d", "verdict": None, "note": "no float64 value"}
    assert summarise([m], {})["verdict"] == "matches"
    assert summarise([m, d], {})["verdict"] == "numerics drift"
    assert summarise([m, d, w], {})["verdict"] == "wrong"
    assert summarise([m, d, n], {})["verdict"] is None
    assert summarise([m, d, n], {})["message"].startswith("no verdict")
    assert accuracy.drift_warning(summarise([d], {}))["rule"] == "numerics-drift"


def test_float64_args_cast_models_and_floating_tensors_only():
    model = torch.nn.BatchNorm1d(3)
    x, labels = torch.randn(2, 3, requires_grad=True), torch.tensor([1, 2])
    m64, x64, l64 = float64_args((model, x, labels))
    assert m64 is not model and m64.weight.dtype == torch.float64 and m64.running_mean.dtype == torch.float64
    assert m64.num_batches_tracked.dtype == torch.int64
    assert x64.dtype == torch.float64 and x64.requires_grad and x64.is_leaf
    assert l64.dtype == torch.int64
    assert model.weight.dtype == torch.float32  # the snapshot is untouched


# --------------------------------------------------------------------------- the budget
def test_the_budget_is_a_fraction_of_the_work_with_a_floor():
    b = VerifyBudget(work_s=100.0, elements=10**7)
    assert b.allowance_s == pytest.approx(10.0)
    assert b.fits(9.0) and not b.fits(11.0)
    b.spend(9.0)
    assert not b.fits(2.0)
    b.skip("second call")
    assert b.report()["skipped"] == ["second call"] and "--deep-verify" in b.report()["how"]
    assert VerifyBudget(work_s=1.0, elements=10**7).allowance_s == 1.0
    assert not VerifyBudget(work_s=1.0, elements=10**7).fits(0.3, share=0.2)
    small = VerifyBudget(work_s=1.0, elements=1000)  # counted, not timed: every check runs
    assert small.fits(1e9) and small.report()["small"] is True
    deep = VerifyBudget(work_s=1.0, deep=True)
    assert deep.fits(1e9) and deep.report()["allowance_s"] is None


# --------------------------------------------------------------------------- end to end
def test_a_float16_sum_in_the_artifact_is_numerics_drift_not_a_mismatch():
    rep = run_script("acc_drift.py")
    assert rep["status"] == "ok"
    assert rep["message"].startswith("acc_drift: numerics drift in 2 of 2 outputs"), rep["message"]
    cap = rep["captures"][0]
    assert cap["status"] == "ok" and cap["outcome"] is None
    ver = cap["verify"]
    assert ver["status"] == "drift" and ver["matches_eager"] is False
    acc = ver["accuracy"]
    assert acc["verdict"] == "numerics drift" and acc["reference"] == "float64"
    assert acc["eager_error"] < 1e-6 < 1e-5 < acc["artifact_error"] < 1e-2
    assert [w["rule"] for w in cap["warnings"]] == ["numerics-drift"]
    assert ver["perturbed"]["ran"] is False and "drifted" in ver["perturbed"]["reason"]


def test_another_function_in_the_artifact_is_wrong():
    rep = run_script("acc_wrong.py")
    assert rep["status"] == "mismatch"
    cap = rep["captures"][0]
    assert cap["verify"]["accuracy"]["verdict"] == "wrong"
    assert cap["outcome"]["rule"] == "differs-from-eager"
    assert cap["outcome"]["message"].startswith("wrong: 2 of 2 outputs differ from eager beyond any rounding")


def test_runtime_inputs_are_judged_against_float64_too():
    rep = run_script("rt_drift.py")
    assert rep["status"] == "ok", rep["message"]
    cap = rep["captures"][0]
    assert cap["outcome"] is None
    rt = cap["verify"]["runtime"]
    assert rt["status"] == "ok" and rt["within_tolerance"] is False  # outside tolerance ...
    assert rt["accuracy"]["verdict"] == "numerics drift"           # ... by the backend's arithmetic
    assert rt["matches_eager"] is False  # drift is not a match: the verdict says drift
    assert rt["accuracy"]["eager_error"] < 1e-6 < 1e-5 < rt["accuracy"]["artifact_error"] < 1e-2
    drifts = [w for w in cap["warnings"] if w["rule"] == "numerics-drift"]
    assert len(drifts) == 2 and drifts[1]["where"] == "runtime"


def test_a_more_accurate_artifact_matches():
    rep = run_script("acc_rounding.py")
    assert rep["status"] == "ok" and rep["message"] == "1 capture ok"
    ver = rep["captures"][0]["verify"]
    assert ver["status"] == "ok" and ver["within_tolerance"] is False  # outside tolerance ...
    assert ver["accuracy"]["verdict"] == "matches"                      # ... but only rounding
    assert ver["matches_eager"] is True  # one verdict: the fields say what the judge says
    assert ver["accuracy"]["artifact_error"] < ver["accuracy"]["eager_error"]
    assert rep["captures"][0]["warnings"] == []


def test_deep_verify_runs_the_from_scratch_reload_and_the_default_says_it_did_not():
    cap = run_script("rt_inference.py")["captures"][0]
    assert "load_no_cache" not in cap["timings_s"]
    assert cap["verify"]["load_no_cache"]["ran"] is False
    assert "--deep-verify" in cap["verify"]["load_no_cache"]["reason"]
    deep = run_script("rt_inference.py", deep_verify=True)["captures"][0]
    assert deep["timings_s"]["load_no_cache"] > 0 and deep["verify"]["load_no_cache"]["ran"] is True
    assert deep["verify"]["budget"]["deep"] is True and deep["verify"]["budget"]["skipped"] == []


@pytest.mark.parametrize("script, mutates", [
    ("rt_inference.py", False), ("rt_train.py", True), ("rt_mutation.py", True), ("rt_batchnorm.py", True),
    ("st_bn_forward.py", True), ("st_data_write.py", True),
])
def test_verification_shares_the_arguments_only_where_the_graph_writes_nothing(script, mutates):
    cap = run_script(script)["captures"][0]
    if script == "st_data_write.py" and precompile_api() == "capture-load":
        # torch 2.15's capture serves the artifact once after tracing, so it refuses a fn that
        # writes a parameter in place (the write would land twice)
        assert cap["violation"]["rule"] == "capture-updates-parameter"
        return
    ver = cap["verify"]
    assert ver["args"] == ("copied" if mutates else "shared")
    assert ver["status"] == "ok"


# --------------------------------------------------------------------------- the cost
def test_the_studio_snapshot_shares_parameters_and_copies_the_rest():
    from precompile_studio.verify.pipeline import fresh_copy

    model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
    x = torch.randn(2, 3)
    m, y = fresh_copy((model, x), share_parameters=True)
    assert m is not model and m[0].weight is model[0].weight
    assert m[1].running_mean is not model[1].running_mean and y is not x
    m2, _ = fresh_copy((model, x))
    assert m2[0].weight is not model[0].weight


def test_perturbed_trials_that_do_not_fit_the_budget_are_listed_as_skipped():
    from precompile_studio.verify.perturbed import perturbed_check

    budget = VerifyBudget(work_s=1.0, elements=10**7)
    budget.spend(0.9)

    def fn(x):
        return x * 2

    summary, warnings = perturbed_check(fn=fn, artifact=fn, snapshot=(torch.ones(3),), names=["x"], seed=0,
                                        budget=budget, estimate_s=0.5)
    assert warnings == [] and summary["ran"] is False and summary["diverged"] is None
    assert [t["status"] for t in summary["trials"]] == ["skipped"] * 3
    assert "budget" in summary["reason"]
    assert budget.skipped == ["perturbed trial fresh", "perturbed trial negated", "perturbed trial small"]
