"""The verify pipeline's steps on their own (verify/pipeline.py): the calls and what stops them,
the comparison of outputs, the tolerance summary, the verdict's status and the latency samples.
The end-to-end behaviour is pinned by the scripts in test_accuracy.py and test_violations.py."""
import pytest
import torch

from precompile_studio.common.outcomes import Judgement
from precompile_studio.contract.violations import Context
from precompile_studio.verify.budget import VerifyBudget
from precompile_studio.verify.pipeline import (
    LATENCY_SAMPLES,
    Args,
    Out,
    Times,
    call_both,
    compare_outputs,
    new_job,
    new_result,
    status_of_verdict,
    time_calls,
    tolerance_summary,
)


class Counted:
    def __init__(self, fn=lambda x: x * 2):
        self.fn = fn
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        return self.fn(*args)


def _job(fn, budget: VerifyBudget | None = None):
    job = new_job(fn, (torch.ones(3),), ["x"], seed=7, context=Context(), shared=True, work_s=0.0, deep=False)
    if budget is not None:
        job.budget = budget
    return job


def _args():
    x = torch.ones(3)
    return Args((x,), (x,))


# --------------------------------------------------------------------------- calls
def test_both_are_called_twice_under_the_same_seeds_where_the_budget_allows():
    seen = []

    def fn(x):
        seen.append(torch.rand(1).item())
        return x + 1

    out = Out(new_result(7, True))
    outputs, times = call_both(_job(fn), out, fn, _args())
    assert out.result["calls"] == 2 and not out.failed
    assert len(outputs) == 2 and len(times.eager) == len(times.artifact) == 2
    assert seen[0] == seen[1] != seen[2] == seen[3]  # eager and artifact: seed, then seed + 1


def test_the_second_call_is_skipped_when_it_does_not_fit_the_budget():
    budget = VerifyBudget(work_s=0.0, elements=10**7)  # not small: the floor allowance
    budget.spend(budget.allowance_s)
    fn, f = Counted(), Counted()
    out = Out(new_result(7, True))
    outputs, times = call_both(_job(fn, budget=budget), out, f, _args())
    assert (fn.calls, f.calls, out.result["calls"], len(outputs)) == (1, 1, 1, 1)
    assert budget.skipped == ["second call"] and not out.failed


def test_eager_failing_stops_before_the_artifact_is_called():
    f = Counted()
    out = Out(new_result(7, True))

    def fn(x):
        raise ValueError("no")

    outputs, _times = call_both(_job(fn), out, f, _args())
    assert out.failed and out.result["status"] == "error" and out.result["matches_eager"] is False
    assert out.result["error"]["where"] == "eager fn on the example inputs"
    assert "no" in out.result["error"]["message"]
    assert f.calls == 0 and outputs == [] and out.result["calls"] == 0


def test_the_artifact_failing_is_classified_and_stops():
    fn = Counted()
    out = Out(new_result(7, True))

    def f(x):
        raise RuntimeError("artifact says no")

    outputs, _times = call_both(_job(fn), out, f, _args())
    assert out.failed and out.result["call_violation"] is not None
    assert out.result["call_violation"]["phase"] == "call"
    assert fn.calls == 1 and outputs == [] and out.result["error"] is None


# --------------------------------------------------------------------------- compare
def test_outputs_are_compared_leaf_by_leaf_and_a_different_structure_is_one_entry():
    result = new_result(0, True)
    a, b = torch.ones(2), torch.zeros(2)
    leaves_e, leaves_a = compare_outputs(result, [((a, a), (a, b)), ((a, a), [a, a])])
    names = [e["name"] for e in result["outputs"]]
    assert names == ["call1.out[0]", "call1.out[1]", "call2"]
    assert [e["result"]["ok"] for e in result["outputs"]] == [True, False, False]
    assert "output structure differs" in result["outputs"][2]["result"]["note"]
    assert [len(x) for x in leaves_e] == [2, 2] and leaves_a[0][1] is b


def test_the_tolerance_summary_names_the_groups_that_were_compared():
    result = new_result(0, False)
    result["outputs"] = [{"name": "call1.out[0]", "result": {"ok": True, "max_abs_diff": 0.5, "max_rel_diff": 0.1}}]
    result["grads"] = [{"name": "w", "result": {"ok": False, "max_abs_diff": 2.0, "max_rel_diff": 0.05}}]
    assert tolerance_summary(result) is False
    assert (result["matches_eager"], result["within_tolerance"]) == (False, False)
    assert (result["max_abs_diff"], result["max_rel_diff"]) == (2.0, 0.1)
    assert (result["grads_match"], result["buffers_match"], result["inputs_match"]) == (False, None, None)
    result["grads"][0]["result"]["ok"] = True
    assert tolerance_summary(result) is True and result["grads_match"] is True


@pytest.mark.parametrize("verdict, status", [
    (Judgement.MATCHES, "ok"), (Judgement.DRIFT, "drift"), ("numerics drift", "drift"),
    (Judgement.WRONG, "mismatch"), (None, "mismatch"),
])
def test_the_status_follows_the_judges_verdict(verdict, status):
    assert status_of_verdict(verdict) == status


# --------------------------------------------------------------------------- latency
def test_cheap_calls_are_timed_a_few_more_times():
    fn, f = Counted(), Counted()
    out = Out(new_result(0, True))
    times = Times([1e-4], [1e-4])
    time_calls(out, VerifyBudget(0.0, elements=3), fn, f, _args(), times)
    assert out.result["call_samples"] == LATENCY_SAMPLES == len(times.eager)
    assert fn.calls == f.calls == LATENCY_SAMPLES - 1
    assert out.timings["call"] > 0 and out.timings["call_eager"] > 0


def test_a_slow_call_or_a_spent_budget_is_timed_only_where_it_was_compared():
    fn, f = Counted(), Counted()
    out = Out(new_result(0, True))
    time_calls(out, VerifyBudget(0.0, elements=3), fn, f, _args(), Times([0.3, 0.5], [0.25, 0.5]))
    assert fn.calls == f.calls == 0
    assert out.result["call_samples"] == 2 and out.timings["call"] == 0.375
    budget = VerifyBudget(0.0, elements=10**7)
    budget.spend(0.2 * budget.allowance_s)
    time_calls(out, budget, fn, f, _args(), Times([1e-4], [1e-4]))
    assert fn.calls == f.calls == 0 and out.result["call_samples"] == 1


def test_timing_is_best_effort():
    def f(x):
        raise RuntimeError("not twice")

    out = Out(new_result(0, True))
    time_calls(out, VerifyBudget(0.0, elements=3), Counted(), f, _args(), Times([1e-4], [1e-4]))
    assert "call" not in out.timings and "call_samples" not in out.result
