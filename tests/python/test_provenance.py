"""What a run was made from (provenance.py): the report's provenance and each capture's inputs
and decompositions, which `library diff` compares to say why two runs differ."""
import hashlib

from conftest import script_path


def test_the_run_names_its_script_torch_python_and_environment(run):
    report = run("rt_train.py", verify=False)
    prov = report["provenance"]
    with open(script_path("rt_train.py"), "rb") as f:
        assert prov["script_sha256"] == hashlib.sha256(f.read()).hexdigest()
    import torch

    assert prov["torch"]["version"] == torch.__version__
    assert prov["torch"]["git"] == torch.version.git_version
    assert prov["python"].count(".") == 2
    assert prov["machine"]["arch"]
    # eager: inductor never ran, so no ISA is claimed
    assert prov["machine"]["cpu_vec_isa"] is None


def test_each_capture_describes_its_inputs_structure(run):
    cap = run("rt_train.py", verify=False)["captures"][0]
    entries = {e["path"]: e for e in cap["inputs"]["entries"]}
    assert list(entries) == ["model", "x", "t"]
    model = entries["model"]
    assert model["kind"] == "module" and model["type"] == "Sequential"
    assert model["parameters"] == 4 and model["parameter_elements"] == 4 * 8 + 8 + 8 * 2 + 2
    assert len(model["structure_sha256"]) == 64
    x = entries["x"]
    assert (x["kind"], x["shape"], x["stride"], x["dtype"], x["device"]) == ("tensor", [3, 4], [4, 1], "float32", "cpu")
    assert cap["decompositions"] is None


def test_a_decomposition_table_is_named(run):
    cap = run("acc_wrong.py", verify=False)["captures"][0]
    assert cap["decompositions"]["count"] == 1
    assert cap["decompositions"]["ops"] == ["aten.tanh.default"]
    assert len(cap["decompositions"]["sha256"]) == 64


def test_inductor_names_the_cpu_vector_isa_it_compiled_for(run):
    prov = run("ind_train.py", verify=False)["provenance"]
    assert prov["machine"]["cpu_vec_isa"] is not None


def test_dims_marked_dynamic_are_described_with_their_shape_id_and_bounds():
    import torch
    from torch._dynamo.decorators import mark_unbacked

    from precompile_studio.script.provenance import describe_inputs

    a, b, c = torch.randn(4, 3), torch.randn(4, 3), torch.randn(2, 5)
    mark_unbacked(a, 0, shape_id="batch")
    mark_unbacked(b, 0, shape_id="batch")
    mark_unbacked(c, 1, min=2, max=64)
    entries = {e["path"]: e for e in describe_inputs((a, b, c), ["a", "b", "c"])["entries"]}
    assert entries["a"]["dynamic"] == [{"dim": 0, "shape_id": "batch", "min": None, "max": None}]
    assert entries["b"]["dynamic"][0]["shape_id"] == "batch"
    assert entries["c"]["dynamic"] == [{"dim": 1, "shape_id": None, "min": 2, "max": 64}]
    plain = describe_inputs((torch.randn(2),), ["x"])["entries"][0]
    assert "dynamic" not in plain


def test_a_nested_input_is_described_without_a_shape_where_its_dims_are_ragged():
    import warnings

    import torch

    from precompile_studio.script.provenance import describe_inputs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the strided layout's "prototype stage" warning
        strided = torch.nested.nested_tensor([torch.randn(2, 3), torch.randn(4, 3)])
        jagged = torch.nested.nested_tensor([torch.randn(2, 3), torch.randn(4, 3)], layout=torch.jagged)
    s, j = describe_inputs((strided, jagged), ["s", "j"])["entries"]
    assert s["nested"] is True and "shape" not in s and s["stride"] is None and s["dtype"] == "float32"
    assert j["nested"] is True and len(j["shape"]) == 3 and j["shape"][0] == 2 and isinstance(j["shape"][1], str)
