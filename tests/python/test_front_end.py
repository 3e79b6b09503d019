"""The precompile API's front ends (precompile_studio/api/): what the worker relies on of each."""
import os

import pytest
import torch

from conftest import precompile, precompile_api, precompile_load, run_script
from precompile_studio.api.choose import current


def _train(model, x):
    loss = model(x).pow(2).mean()
    loss.backward()
    return loss


def test_the_front_end_is_chosen_by_what_torch_has():
    api = current()
    assert api.api == ("precompile-call" if callable(torch.compiler.precompile) else "capture-load")


def test_the_studios_capture_leaves_the_arguments_as_it_found_them():
    """2.15's capture serves the artifact once after tracing, which scatters gradients: the studio's
    own capture puts them back, so verification starts from the state 2.14 leaves."""
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    x = torch.randn(4, 3)
    before = model.weight.grad
    code, cache = precompile(_train, model, x, backend="eager")
    assert model.weight.grad is before is None
    assert code and cache
    f = precompile_load(code, cache)
    f(model, x)  # the artifact itself does scatter them, as eager .backward() would
    assert model.weight.grad is not None


@pytest.mark.skipif(precompile_api() != "capture-load", reason="torch 2.15's capture block writes a file pair")
def test_a_scripts_capture_block_still_writes_its_pair_where_it_asks(tmp_path, monkeypatch):
    monkeypatch.setenv("CAPTURE_OUT", str(tmp_path))
    rep = run_script("capture_writes_pair.py")
    assert rep["status"] == "ok", rep["message"]
    assert [c["name"] for c in rep["captures"]] == ["step"]
    code = (tmp_path / "step.py").read_bytes()
    cache = (tmp_path / "step.cache").read_bytes()
    import hashlib

    art = rep["captures"][0]["artifact"]
    assert hashlib.sha256(code).hexdigest() == art["python_code_sha256"]
    assert hashlib.sha256(cache).hexdigest() == art["cache_sha256"]
    assert os.path.getsize(tmp_path / "step.py") == art["python_code_bytes"]
