"""Where a capture's tensors live (captures[i].devices), the worker's hello (hostname, cuda,
devices) and verification on the tensors' own device (common/devices.py).

The CUDA tests skip without a GPU; tests/gpu/check.sh runs real models through the studio there.
"""
import json
import socket

import pytest
import torch

from conftest import run_script
from precompile_studio.common import devices
from precompile_studio.common.compare import compare, rms
from precompile_studio.verify import accuracy

CUDA = torch.cuda.is_available()
needs_cuda = pytest.mark.skipif(not CUDA, reason="needs a CUDA device")


def test_tensor_devices_in_order_of_first_appearance():
    model = torch.nn.Linear(2, 2)
    args = (model, {"a": torch.zeros(1, device="meta"), "b": [torch.ones(1), 3]}, "text", None)
    assert devices.tensor_devices(args) == ["cpu", "meta"]
    assert devices.tensor_devices(()) == []
    assert devices.tensor_devices((1, 2.0)) == []
    # a buffer elsewhere than the parameters
    bn = torch.nn.BatchNorm1d(2)
    bn.running_mean = torch.zeros(2, device="meta")
    assert devices.tensor_devices((bn,)) == ["cpu", "meta"]


def test_synchronize_and_timed_never_fail_without_the_device():
    devices.synchronize([])
    devices.synchronize(["cpu", "meta"])
    devices.synchronize(["cuda:0", "xpu:0", "mps"])  # not here: nothing to wait for, no exception
    value, seconds = devices.timed(["cpu"], lambda: 42)
    assert value == 42 and seconds >= 0
    assert devices.asynchronous(["cpu", "cuda:0", "meta", "cuda:1"]) == ["cuda:0", "cuda:1"]


def test_hello_names_the_host_and_its_cuda_devices():
    from precompile_studio import worker

    hello = json.loads(worker.warm_up())
    assert hello["hostname"] == socket.gethostname()
    assert hello["cuda"] == torch.version.cuda
    assert isinstance(hello["devices"], list)
    if not CUDA:
        assert hello["devices"] == []
    for i, d in enumerate(hello["devices"]):
        assert set(d) == {"index", "name", "memory_bytes", "capability"}
        assert d["index"] == i and isinstance(d["name"], str) and d["memory_bytes"] > 0
        major, minor = d["capability"].split(".")
        assert major.isdigit() and minor.isdigit()


def test_cuda_devices_without_a_driver_is_empty_and_quiet(monkeypatch):
    def no_driver():
        raise RuntimeError("Found no NVIDIA driver on your system")

    monkeypatch.setattr(torch.cuda, "is_available", no_driver)
    assert devices.cuda_devices() == []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)

    def broken(i):
        raise RuntimeError("CUDA driver version is insufficient")

    monkeypatch.setattr(torch.cuda, "get_device_properties", broken)
    assert devices.cuda_devices() == []


def test_a_capture_records_its_example_devices():
    rep = run_script("chk_clean_mlp.py")
    (cap,) = rep["captures"]
    assert cap["devices"] == ["cpu"]


# --------------------------------------------------------------------------- on a GPU
@needs_cuda
def test_cuda_devices_describe_each_visible_device():
    found = devices.cuda_devices()
    assert len(found) == torch.cuda.device_count()
    p = torch.cuda.get_device_properties(0)
    assert found[0]["name"] == p.name and found[0]["capability"] == f"{p.major}.{p.minor}"


@needs_cuda
def test_compare_and_the_judge_stay_on_the_gpu():
    g = torch.Generator(device="cuda").manual_seed(0)
    e = torch.randn(3000, device="cuda", generator=g)
    a = e + 1e-3 * torch.randn(3000, device="cuda", generator=g)
    r = compare(e, a)
    assert r["devices"] == ["cuda:0", "cuda:0"] and r["devices_match"] and not r["ok"]
    cpu = compare(e.cpu(), a.cpu())
    for key in ("max_abs_diff", "rms_rel_diff", "mismatched"):
        assert cpu[key] == pytest.approx(r[key], rel=1e-5), key
    assert rms(e) == pytest.approx(rms(e.cpu()), rel=1e-9)
    ref = e.double()
    t = accuracy.judge_tensor("out[0]", "outputs", e, a, ref)
    assert t["verdict"] in ("drift", "wrong") and t["artifact_error"] > 0
    model = torch.nn.Linear(3, 3).cuda()
    m64, x64 = accuracy.float64_args((model, torch.randn(2, 3, device="cuda")))
    assert m64.weight.dtype == torch.float64 and m64.weight.device.type == "cuda"
    assert x64.dtype == torch.float64 and x64.device.type == "cuda"


@needs_cuda
def test_a_training_step_on_cuda_verifies_and_maps_its_triton_kernels():
    rep = run_script("gpu_train.py")
    (cap,) = rep["captures"]
    assert cap["devices"] == ["cuda:0"]
    assert cap["status"] == "ok", cap["outcome"]
    assert cap["verify"]["status"] in ("ok", "drift")
    assert cap["verify"]["accuracy"]["verdict"] in ("matches", "numerics drift")
    names = {n["name"] for n in cap["graph"]["node_list"]}
    triton = [k for k in cap["lowering"]["kernels"] if k["kind"] == "triton"]
    assert triton
    for k in triton:
        assert k["nodes"] and set(k["nodes"]) <= names, k
    for entry in cap["verify"]["outputs"]:
        assert entry["result"].get("devices", ["cuda:0"])[0] == "cuda:0"
