"""The compile-time breakdown: where a capture's precompile time went (capture/compile_profile.py).

The phases must add up to the measured precompile time, and on a cold inductor capture nearly all
of it must be named (tracing, AOTAutograd, Inductor's lowering, code generation, the cache,
imports): `other` is what the studio could not attribute. These are coverage assertions, not
timing targets (tests/bench/real_models/bench_verify_cost.py measures coverage on resnet18).
"""
import pytest

from conftest import run_script

PHASES = ["tracing", "aot_autograd", "inductor_lowering", "code_generation", "cache", "imports", "studio",
          "other"]


def phases(cap) -> dict:
    prof = cap["compile_profile"]
    names = [p["phase"] for p in prof]
    assert names == [p for p in PHASES if p in names], names  # the documented order, each once
    assert names[-1] == "other"
    return {p["phase"]: p["seconds"] for p in prof}


def check_trace(trace) -> None:
    """Every event inside the window, on a known thread, and each thread's events well nested."""
    assert trace["threads"][0]["main"] is True
    assert sum(t["main"] for t in trace["threads"]) == 1
    end = trace["seconds"] + 1e-6
    by_thread: dict[int, list] = {}
    for e in trace["events"]:
        assert 0 <= e["start_s"] and e["start_s"] + e["dur_s"] <= end, e
        assert 0 <= e["thread"] < len(trace["threads"])
        by_thread.setdefault(e["thread"], []).append(e)
    for events in by_thread.values():
        stack: list[float] = []
        for e in sorted(events, key=lambda e: (e["start_s"], -e["dur_s"])):
            while stack and stack[-1] <= e["start_s"] + 1e-6:
                stack.pop()
            stop = e["start_s"] + e["dur_s"]
            assert not stack or stop <= stack[-1] + 2e-6, f"{e['name']} outlives its parent"
            stack.append(stop)


@pytest.fixture(scope="module")
def cold():
    rep = run_script("prof_mlp.py", verify=False)
    assert rep["status"] == "ok", rep["message"]
    return rep["captures"][0]


def test_a_cold_inductor_capture_is_broken_down_into_named_phases(cold):
    p = phases(cold)
    total = cold["timings_s"]["precompile"]
    assert sum(p.values()) == pytest.approx(total, abs=1e-4)
    for phase in ("tracing", "aot_autograd", "inductor_lowering", "code_generation", "cache"):
        assert p.get(phase, 0) > 0, phase
    # the kernels were generated and compiled, not read from the cache
    assert cold["compile_trace"]["fxgraph_cache"]["miss"] >= 1
    # coverage: what the studio cannot name stays under a tenth of the measured time
    assert p["other"] < 0.1 * total, p


def test_the_trace_holds_torch_events_and_the_studios_spans(cold):
    trace = cold["compile_trace"]
    assert trace["torch_events"] is True
    names = {e["name"] for e in trace["events"]}
    assert {"create_aot_dispatcher_function", "inductor_compile", "code_gen"} <= names
    assert "_precompile._capture" in names and "_precompile.PrecompiledModule.to_python_code" in names
    cats = {e["cat"] for e in trace["events"]}
    assert cats == {"torch", "studio"}
    check_trace(trace)


def test_a_second_capture_hits_the_cache_and_still_adds_up():
    rep = run_script("prof_mlp.py", verify=False)
    cap = rep["captures"][0]
    p = phases(cap)
    assert sum(p.values()) == pytest.approx(cap["timings_s"]["precompile"], abs=1e-4)
    assert cap["compile_trace"]["fxgraph_cache"]["hit"] >= 1
    assert p.get("tracing", 0) > 0 and p.get("aot_autograd", 0) > 0
    check_trace(cap["compile_trace"])


def test_what_a_capture_does_now_is_sent_as_its_stages_detail(monkeypatch):
    """A long lowering is seen to move: each new phase or torch event goes out as the detail of
    the stage under way (the same stage, its capture), and nothing after the run."""
    from precompile_studio.capture import compile_profile

    monkeypatch.setattr(compile_profile, "SAY_EVERY_S", 0.0)
    events: list = []
    rep = run_script("prof_mlp.py", events=events, verify=False)
    assert rep["status"] == "ok", rep["message"]
    details = [e for e in events if e.get("type") == "stage" and e.get("detail")]
    assert details, [e for e in events if e.get("type") == "stage"]
    assert {e["stage"] for e in details} <= {"capture", "lower"}
    words = [e["detail"] for e in details]
    assert "tracing" in words
    assert any(w.startswith("inductor lowering") for w in words), words
    assert all(e.get("capture") for e in details)  # the capture it belongs to
    assert compile_profile._listener is None  # nobody hears a call after the run


def test_the_eager_backend_is_tracing_and_writing_python_code():
    rep = run_script("prof_mlp.py", verify=False, backend="eager")
    cap = rep["captures"][0]
    p = phases(cap)
    assert sum(p.values()) == pytest.approx(cap["timings_s"]["precompile"], abs=1e-4)
    assert p["tracing"] > 0 and p.get("code_generation", 0) > 0
    assert "aot_autograd" not in p and "inductor_lowering" not in p
    check_trace(cap["compile_trace"])


def test_without_torchs_event_hook_only_the_studios_spans_are_named(monkeypatch):
    import torch._dynamo.utils as du

    monkeypatch.delattr(du, "record_chromium_event_internal")
    rep = run_script("prof_mlp.py", verify=False, backend="eager")
    cap = rep["captures"][0]
    assert cap["status"] == "ok"
    trace = cap["compile_trace"]
    assert trace["torch_events"] is False and "not available" in trace["note"]
    assert {e["cat"] for e in trace["events"]} == {"studio"}
    p = phases(cap)
    assert p["tracing"] > 0
    assert sum(p.values()) == pytest.approx(cap["timings_s"]["precompile"], abs=1e-4)


@pytest.mark.allows_internal_errors
def test_a_failing_profile_never_loses_the_capture(monkeypatch):
    from precompile_studio.capture import runner

    def broken(*a, **kw):
        raise RuntimeError("profiler bug")

    monkeypatch.setattr(runner, "compile_profile", broken)
    rep = run_script("prof_mlp.py", verify=False, backend="eager")
    cap = rep["captures"][0]
    assert cap["status"] == "ok" and cap["artifact"] is not None
    assert cap["compile_profile"] is None and cap["compile_trace"] is None
    assert [(e["where"], e["error"]) for e in rep["internal_errors"]] == [
        ("capture: the compile profile", "RuntimeError: profiler bug")]


def test_the_hooks_are_gone_after_the_call():
    import builtins
    import importlib

    import torch._dynamo.utils as du
    import torch._precompile as P

    before = (builtins.__import__, importlib.import_module, du.record_chromium_event_internal, P._capture,
              P.PrecompiledModule.__dict__["to_python_code"])
    run_script("prof_mlp.py", verify=False, backend="eager")
    after = (builtins.__import__, importlib.import_module, du.record_chromium_event_internal, P._capture,
             P.PrecompiledModule.__dict__["to_python_code"])
    assert before == after


def test_each_instant_goes_to_the_innermost_event_that_names_a_phase():
    from precompile_studio.capture.compile_profile import phase_seconds

    s = 1_000_000_000

    def ev(name, phase, start, end, thread=1):
        return {"name": name, "phase": phase, "start_ns": start * s, "end_ns": end * s, "thread": thread}

    events = [
        ev("inductor_compile", "inductor_lowering", 0, 10),
        ev("code_gen", "code_generation", 2, 8),
        ev("compile_file", None, 3, 4),          # no phase of its own: its parent's
        ev("import x", "imports", 5, 6),          # inside code_gen, named: imports
        ev("GraphLowering.run", None, 11, 12),    # under no named event: other
        ev("compile_file", "cache", 0, 20, thread=2),  # another thread: the trace only
    ]
    t = phase_seconds(events, 1, 0, 20 * s)
    assert t["inductor_lowering"] == pytest.approx(4)
    assert t["code_generation"] == pytest.approx(5)
    assert t["imports"] == pytest.approx(1)
    assert t["cache"] == 0 and t["other"] == 0  # other is the caller's: what no event names
