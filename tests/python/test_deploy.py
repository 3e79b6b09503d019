"""Where an artifact goes (precompile_studio/deploy/): its stamps, a stored pair loaded in a fresh
process as a server would (check.py), and the cold-start ledger (cold_start.py). Real torch, real
fresh processes; the ledger is asserted only by relations that must hold, never by times."""
import shutil

import pytest

from conftest import precompile, precompile_api, run_script, script_path
from precompile_studio.deploy import stamps
from precompile_studio.deploy.check import check
from precompile_studio.script.loader import execute, read_source
from precompile_studio.script.names import read_contract

SMALL = "deploy_small.py"


def _pair(folder, backend: str):
    """The small model's pair on ``backend``, written as an export writes it (NAME.py, NAME.cache)."""
    source = read_source(script_path(SMALL))
    spec = read_contract(execute(source), source, backend, None)
    code, cache = precompile(spec.fn, *spec.example_inputs(), backend=backend)
    (folder / "small.py").write_text(code, encoding="utf-8")
    (folder / "small.cache").write_bytes(cache)
    return folder


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    return _pair(tmp_path_factory.mktemp("pair"), "inductor")


@pytest.fixture(scope="module")
def eager_pair(tmp_path_factory):
    """The same on the eager backend: no kernel to compile, so a check takes a few seconds."""
    return _pair(tmp_path_factory.mktemp("eager-pair"), "eager")


def _check(folder, backend="eager"):
    return check(script_path(SMALL), backend, "make_fx", str(folder / "small.py"), str(folder / "small.cache"),
                 stamps.current())


def test_stamps_name_what_the_artifact_depends_on():
    import torch

    here = stamps.current()
    assert here["torch"] == torch.__version__ and here["python"].count(".") == 2
    assert here["cpu_isa"] and here["arch"]
    assert here["gpus"] == [] or all("." in g for g in here["gpus"])
    assert stamps.differences(here, here) == []
    other = {**here, "torch": "2.14.1+cu130" if here["torch"].startswith("2.15") else "2.15.0+cu132",
             "cpu_isa": "avx512" if here["cpu_isa"] != "avx512" else "avx2"}
    diffs = stamps.differences(other, here)
    # the series first (said once, not again as the build), then the instruction set
    assert [d["stamp"] for d in diffs] == ["torch_series", "cpu_isa"]
    assert diffs[0]["effect"] == "refused" and diffs[1]["effect"] == "fallback"
    assert "instruction set" in stamps.sentence(diffs[1])
    # an eager artifact has no kernels: the instruction set does not matter to it
    assert [d["stamp"] for d in stamps.differences(other, here, inductor=False)] == ["torch_series"]
    # GPU kernels built for sm 8.0 run on a host that has 8.0 and 9.0; not on one with 9.0 only
    assert stamps.differences({**here, "gpus": ["8.0"]}, {**here, "gpus": ["8.0", "9.0"]}, uses_gpu=True) == []
    assert [d["stamp"] for d in stamps.differences({**here, "gpus": ["8.0"]}, {**here, "gpus": ["9.0"]},
                                                   uses_gpu=True)] == ["gpus"]


def test_a_run_records_its_stamps():
    report = run_script(SMALL, verify=False, backend="eager")
    assert report["status"] == "ok"
    # an eager artifact has no C++ kernels: the instruction set is not read for it
    assert report["stamps"] == {**stamps.current(), "cpu_isa": None}


@pytest.mark.skipif(precompile_api() != "capture-load", reason="an inductor capture and a check: once")
def test_a_pair_checked_here_runs_and_matches_eager(pair):
    out = _check(pair, "inductor")
    assert out["differences"] == [] and out["target"]["torch"] == stamps.current()["torch"]
    assert out["accuracy"]["verdict"] == "matches"
    assert out["first_call_s"] > 0 and out["load_s"] > 0
    # On the CPU the cache holds no C++ kernels (it primes Triton binaries and autotune
    # results): a fresh load compiles them, and the check says so rather than "loads".
    assert out["kernels_compiled"] >= 1
    assert out["outcome"] == "fallback" and "C++ kernels" in out["reason"]


@pytest.mark.skipif(precompile_api() != "capture-load", reason="the same driver code in both series: once")
def test_a_damaged_cache_falls_back_in_precompiles_words(eager_pair, tmp_path):
    shutil.copy(eager_pair / "small.py", tmp_path / "small.py")
    (tmp_path / "small.cache").write_bytes(b"not a torch.save file")
    out = _check(tmp_path)
    assert out["outcome"] == "fallback"
    assert "cache envelope" in out["precompile_message"]
    assert out["precompile_message"] in out["reason"]
    assert out["accuracy"]["verdict"] == "matches"


@pytest.mark.skipif(precompile_api() != "capture-load", reason="the same driver code in both series: once")
def test_another_captures_cache_is_refused_at_load(eager_pair, tmp_path):
    shutil.copy(eager_pair / "small.py", tmp_path / "small.py")
    import torch

    blob = torch.load(str(eager_pair / "small.cache"), weights_only=True)
    blob["code_hash"] = "0" * 64
    torch.save(blob, str(tmp_path / "small.cache"))
    out = _check(tmp_path)
    assert out["outcome"] == "refused"
    assert "code_hash" in out["precompile_message"] and out["reason"].startswith("refused at loading it")
    assert out["first_call_s"] is None


def test_a_removed_cache_is_said(eager_pair, tmp_path):
    shutil.copy(eager_pair / "small.py", tmp_path / "small.py")
    out = _check(tmp_path)
    # torch 2.14's load takes the bytes (the file cannot be read); 2.15's takes the path
    assert out["outcome"] == "refused" and "small.cache" in out["reason"]


@pytest.mark.skipif(precompile_api() != "capture-load", reason="the same driver code in both series: once")
def test_a_script_that_fails_there_is_an_error_not_a_refusal(eager_pair, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no data on this host')\n", encoding="utf-8")
    out = check(str(broken), "eager", "make_fx", str(eager_pair / "small.py"), str(eager_pair / "small.cache"), None)
    assert out["outcome"] == "error"
    assert "no data on this host" in out["reason"] and "running the script" in out["reason"]


@pytest.mark.skipif(precompile_api() != "capture-load", reason="five fresh processes: in the default series only")
def test_the_cold_start_ledger_holds_its_relations():
    events = []
    report = run_script(SMALL, events, verify=False, cold_start=True)
    ledger = report["captures"][0]["cold_start"]
    assert ledger["ran"], ledger
    steps = {s["step"]: s for s in ledger["steps"]}
    assert list(steps) == ["eager", "compile_cold", "compile_warm", "precompiled", "precompiled_no_cache"]
    assert all(s["error"] is None for s in steps.values()), steps
    first = {k: s["first_call_s"] for k, s in steps.items()}
    assert all(t is not None and t > 0 for t in first.values()), first
    # The saving is the ledger's own arithmetic on its two first calls. That the pair starts
    # faster than torch.compile from nothing is a measurement, made where nothing else runs
    # (tests/bench/deploy/bench_cold_start.py, BENCH deploy.*.precompiled_over_compile_cold < 1):
    # in a loaded suite, five fresh processes on two cores can come out in any order.
    assert ledger["saving"] == pytest.approx(first["compile_cold"] / first["precompiled"])
    # a warm Inductor cache serves torch.compile's kernels: nothing compiled the second time
    assert steps["compile_cold"]["kernels_compiled"] >= 1 and steps["compile_warm"]["kernels_compiled"] == 0
    assert ledger["import_s"] > 0
    assert report["stamps"]["cpu_isa"]  # an inductor run says which instruction set it built for
    assert ledger["message"].startswith("first call ") and "torch.compile cold" in ledger["message"]
    assert any(e.get("stage") == "cold_start" for e in events)
