"""run --profile (verify/profile.py): the verified artifact's calls under torch.profiler, per kernel
(inductor) or per ATen op (eager), each mapped to the graph nodes it computes; the figures add up
to the profiled wall, and the wrappers that name the call sites are gone afterwards."""
import torch

from conftest import precompile, precompile_load
from precompile_studio.capture.lowering import map_python_code
from precompile_studio.verify.call_sites import loaded_namespace
from precompile_studio.verify.profile import profile_artifact


def _sums_to_wall(p: dict) -> None:
    total = sum(k["self_us"] for k in p["kernels"]) + p["unattributed_us"]
    assert abs(total - p["profiled_wall_us"]) <= 0.05 * p["profiled_wall_us"], p
    assert p["overhead_us"] == p["profiled_wall_us"] - p["wall_us"]
    assert p["calls"] >= 1 and p["wall_us"] > 0


def test_inductor_kernels_are_named_and_mapped_to_every_node_a_kernel_computes(run):
    report = run("kp_mlp.py", profile=True)  # run_script checks the report against the schema
    cap = report["captures"][0]
    p = cap["profile"]
    assert "error" not in p, p
    assert cap["verify"]["status"] == "ok"
    names = [k["name"] for k in p["kernels"]]
    assert any(n.startswith("cpp_fused_") for n in names), names
    assert names.count("extern_kernels.addmm") == 2, names
    low = cap["lowering"]
    mapped = {n for k in low["kernels"] + low["extern_calls"] for n in k["nodes"]}
    profiled = {n for k in p["kernels"] for n in k["nodes"]}
    assert mapped and mapped <= profiled
    assert all(k["count"] == 1 for k in p["kernels"])
    assert p["kernels"] == sorted(p["kernels"], key=lambda k: -k["self_us"])
    _sums_to_wall(p)


def test_eager_ops_are_the_graph_nodes_in_turn(run):
    report = run("kp_mlp.py", profile=True, backend="eager")
    cap = report["captures"][0]
    p = cap["profile"]
    assert "error" not in p, p
    computed = {n["name"] for n in cap["graph"]["node_list"] if n["op"] == "call_function"}
    by_node = {k["nodes"][0]: k["name"] for k in p["kernels"]}
    assert computed <= set(by_node), (computed, by_node)
    assert by_node["addmm"] == "aten::addmm" and by_node["relu"] == "aten::relu"
    _sums_to_wall(p)


def test_without_the_flag_there_is_no_profile(run):
    cap = run("kp_mlp.py")["captures"][0]
    assert "profile" not in cap and "profile" not in cap["timings_s"]


def test_without_verification_the_profile_says_why(run):
    cap = run("kp_mlp.py", profile=True, verify=False, backend="eager")["captures"][0]
    assert cap["profile"]["calls"] == 0 and "verification was turned off" in cap["profile"]["error"]


def test_the_wrappers_are_removed_and_the_artifact_computes_the_same():
    model = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.ReLU()).eval()
    x = torch.randn(3, 5)

    def fn(m, x):
        with torch.no_grad():
            return m(x)

    code, cache = precompile(fn, model, x, backend="inductor")
    f = precompile_load(code, cache)
    ns = loaded_namespace(f)
    before = dict(ns)
    expected = f(model, x)
    p = profile_artifact(f, (model, x), map_python_code(code, "inductor"), "inductor")
    assert "error" not in p and p["kernels"], p
    assert all(ns[k] is v for k, v in before.items()) and set(ns) == set(before)
    assert torch.equal(f(model, x), expected)


def test_a_failing_call_is_the_profiles_error_not_an_exception():
    def broken(*_args):
        raise RuntimeError("boom")

    lowering = {"backend": "eager", "node_lines": [[3, "relu"]]}
    p = profile_artifact(broken, (), lowering, "eager")
    assert p["error"] == "the loaded artifact exposes no module namespace to profile"
    broken._loaded_forward = broken
    p = profile_artifact(broken, (), lowering, "eager")
    assert p["error"] == "RuntimeError: boom" and p["kernels"] == []  # the artifact's failure: no internal error
