"""The report's schema (docs/report.schema.json) and the status vocabulary (outcome.py).

Every report run_script returns is validated against the schema (conftest.check_report);
these tests show that the check can fail, that the front end's own reports pass it, and pin
the capture and run status rules on hand-made verify results.
"""
import copy

import pytest

from conftest import check_report
from precompile_studio.common.errors import one_line
from precompile_studio.verify.outcome import capture_message, capture_outcome, run_status

pytestmark = pytest.mark.torch_free

LOC = {"file": "/tmp/s.py", "line": 16}


def _violation(rule="input-dtype", invariant=6, kind="PrecompileError", message="precompile: bad dtype\nmore"):
    return {"invariant": invariant, "invariants": [invariant] if invariant else [], "rule": rule, "kind": kind,
            "phase": "call", "message": message, "explanation": "", "fix": "cast it", "location": LOC,
            "details": {}, "traceback": ""}


def _cmp(ok, diff=0.0):
    return {"ok": ok, "max_abs_diff": diff, "max_rel_diff": diff, "mismatched": 0 if ok else 1,
            "sizes_match": True, "dtypes_match": True}


def _verify(status="ok", **over):
    v = {"ran": True, "status": status, "matches_eager": status == "ok", "max_abs_diff": 0.0,
         "outputs": [{"name": "call1.out[0]", "result": _cmp(True)}], "grads": [], "buffers": [],
         "parameters": [], "inputs": [], "load_violation": None, "call_violation": None, "error": None,
         "runtime": None, "perturbed": None, "load_log": []}
    v.update(over)
    return v


def _capture(name="mlp", status="ok", violation=None, verify=None):
    final, outcome = capture_outcome(status, violation, verify)
    return {"name": name, "backend": "eager", "tracer": "make_fx", "status": final, "outcome": outcome,
            "violation": violation, "warnings": [], "artifact": None, "graph": None, "lowering": None,
            "cache": None, "verify": verify, "timings_s": {"script": 0.1}}


def _report(*captures, status="ok", message="1 capture ok"):
    return {"schema": 1, "script": "/tmp/s.py", "status": status, "message": message, "captures": list(captures)}


# --------------------------------------------------------------------------- the schema
def test_the_check_rejects_an_unknown_status():
    good = _report(_capture(verify=_verify()))
    check_report(good)
    bad = copy.deepcopy(good)
    bad["status"] = "okay"
    with pytest.raises(AssertionError, match=r"\$\.status: 'okay' is not one of"):
        check_report(bad)


def test_the_check_names_the_path_inside_a_capture():
    bad = _report(_capture(verify=_verify()))
    bad["captures"][0]["verify"]["runtime"] = {"status": "rejected", "violation": None}
    with pytest.raises(AssertionError, match=r"\$\.captures\[0\]\.verify\.runtime\.status"):
        check_report(bad)


def test_a_non_ok_capture_needs_its_outcome():
    bad = _report(_capture(status="violation", violation=_violation()), status="violation")
    bad["captures"][0]["outcome"] = None
    with pytest.raises(AssertionError, match=r"\$\.captures\[0\]\.outcome"):
        check_report(bad)


@pytest.mark.parametrize("status", ["timeout", "worker_died", "cancelled", "protocol_error", "error"])
def test_front_end_reports_pass(status):
    # What the front end writes when no worker report came (model::Report::failed), with the
    # fields it adds.
    check_report({"schema": 1, "script": "/tmp/s.py", "status": status, "message": "the run was stopped",
                  "run_id": None, "captures": [], "stored": False, "store_error": "disk full",
                  "log": {"bytes": 10, "dropped_bytes": 0}, "location": LOC,
                  "error": {"kind": "HostError", "message": "boom", "traceback": ""},
                  "exported": ["/tmp/out/s.py", "/tmp/out/s.cache", "/tmp/out/s.json"],
                  "start_failure": "python"})


# --------------------------------------------------------------------------- capture status
def test_capture_time_outcomes_keep_their_status():
    v = _violation(rule="constant-tensor", invariant=1)
    assert capture_outcome("violation", v, None) == ("violation", {
        "where": "capture", "invariant": 1, "rule": "constant-tensor", "kind": "PrecompileError",
        "message": "precompile: bad dtype", "location": LOC})
    err = _violation(rule=None, invariant=None, kind="KeyError", message="'nope'")
    status, o = capture_outcome("error", err, None)
    assert status == "error" and (o["where"], o["rule"], o["kind"]) == ("capture", "error", "KeyError")


@pytest.mark.parametrize("verify", [None, _verify(), {"ran": False, "status": "skipped", "reason": "--no-verify"}])
def test_ok_stays_ok(verify):
    assert capture_outcome("ok", None, verify) == ("ok", None)


def test_load_and_call_rejections_are_violations():
    lv = {**_violation(rule="cache-code-hash-mismatch", invariant=7), "status": "violation"}
    status, o = capture_outcome("ok", None, _verify("violation", load_violation=lv, matches_eager=False))
    assert status == "violation" and (o["where"], o["invariant"]) == ("load", 7)
    status, o = capture_outcome("ok", None, _verify("violation", call_violation=_violation(), matches_eager=False))
    assert status == "violation" and (o["where"], o["rule"]) == ("call", "input-dtype")
    # a load that failed in words no rule knows is an error
    le = {**_violation(rule=None, invariant=None, kind="OSError"), "status": "error"}
    status, o = capture_outcome("ok", None, _verify("error", load_violation=le, matches_eager=False))
    assert status == "error" and (o["where"], o["rule"], o["kind"]) == ("load", "error", "OSError")


def test_eager_failing_on_the_example_is_an_error():
    err = {"kind": "ValueError", "message": "no", "traceback": "", "location": LOC,
           "where": "eager fn on the example inputs"}
    status, o = capture_outcome("ok", None, _verify("error", error=err, matches_eager=False))
    assert status == "error"
    assert (o["where"], o["rule"]) == ("verify", "eager-error")
    assert o["message"] == "eager fn on the example inputs raised ValueError: no"


def test_runtime_outcomes():
    rv = {"status": "violation", "violation": _violation()}
    status, o = capture_outcome("ok", None, _verify(runtime=rv))
    assert status == "violation" and (o["where"], o["invariant"], o["rule"]) == ("runtime", 6, "input-dtype")
    assert o["message"] == "precompile: bad dtype"
    re_ = {"status": "error", "violation": None,
           "error": {"kind": "OSError", "message": "gone", "traceback": "", "location": None,
                     "where": "runtime_inputs()"}}
    status, o = capture_outcome("ok", None, _verify(runtime=re_))
    assert status == "error" and o["rule"] == "runtime-inputs-error"
    assert o["message"] == "runtime_inputs() raised OSError: gone"
    rm = {"status": "ok", "violation": None, "matches_eager": False, "max_abs_diff": 1.0,
          "outputs": [{"name": "out[0]", "result": _cmp(False, 1.0)}, {"name": "out[1]", "result": _cmp(True)}]}
    status, o = capture_outcome("ok", None, _verify(runtime=rm))
    assert status == "mismatch" and (o["where"], o["rule"]) == ("runtime", "differs-from-eager")
    assert o["message"] == "on runtime_inputs, 1 of 2 values differs from eager (max abs diff 1)"


def test_mismatch_counts_what_differs():
    grads = [{"name": f"model.w{i}", "result": _cmp(i >= 2, 0.03 if i < 2 else 0.0)} for i in range(4)]
    status, o = capture_outcome("ok", None, _verify("mismatch", matches_eager=False, grads=grads))
    assert status == "mismatch"
    assert o["message"] == "2 of 4 gradients differ from eager (max abs diff 0.03)"
    none_grad = [{"name": "model.w", "result": {"ok": False, "note": "the artifact left .grad None"}}]
    _s, o = capture_outcome("ok", None, _verify("mismatch", matches_eager=False, grads=none_grad))
    assert o["message"] == "1 of 1 gradient differs from eager (model.w: the artifact left .grad None)"


def test_a_runtime_violation_outweighs_a_mismatch():
    rv = {"status": "violation", "violation": _violation()}
    grads = [{"name": "model.w", "result": _cmp(False, 0.5)}]
    status, o = capture_outcome("ok", None, _verify("mismatch", matches_eager=False, grads=grads, runtime=rv))
    assert status == "violation" and o["where"] == "runtime"


# --------------------------------------------------------------------------- run status
def test_run_status_is_the_worst_capture():
    ok = _capture("a", verify=_verify())
    mm = _capture("b", verify=_verify("mismatch", matches_eager=False,
                                      outputs=[{"name": "call1.out[0]", "result": _cmp(False, 2.0)}]))
    rv = _capture("c", verify=_verify(runtime={"status": "violation", "violation": _violation()}))
    er = _capture("d", status="error", violation=_violation(rule=None, invariant=None, kind="KeyError"))
    assert run_status([ok]) == ("ok", None)
    assert run_status([ok, mm]) == ("mismatch", mm)
    assert run_status([mm, rv, ok]) == ("violation", rv)
    assert run_status([rv, er]) == ("error", er)
    for c in (ok, mm, rv, er):
        check_report(_report(c, status=run_status([c])[0]))


def test_run_messages():
    rv = _capture("mlp", verify=_verify(runtime={"status": "violation", "violation": _violation()}))
    assert capture_message(rv, one_line) == "runtime call rejected: invariant 6 (input-dtype): precompile: bad dtype"
    mm = _capture("net", verify=_verify("mismatch", matches_eager=False,
                                        grads=[{"name": "w", "result": _cmp(False, 0.25)}]))
    assert capture_message(mm, one_line) == "1 of 1 gradient differs from eager (max abs diff 0.25)"
    cap = _capture("f", status="violation", violation=_violation(rule="constant-tensor", invariant=1))
    assert capture_message(cap, one_line) == "/tmp/s.py:16: PrecompileError: precompile: bad dtype"
