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


# --------------------------------------------------------------------------- a pair another torch made
PAIRS = os.path.join(os.path.dirname(__file__), "fixtures", "pairs")  # torchX.Y.{py,cache,json}: fn(x) = x * 2 + 1


def _series() -> str:
    return ".".join(torch.__version__.split("+")[0].split(".")[:2])


def _other_series() -> str:
    return "2.14" if _series() == "2.15" else "2.15"


def _load_script() -> str:
    return "load_other_torch.py" if precompile_api() == "precompile-call" else "load_other_torch_capture.py"


def test_a_pair_made_by_this_torch_loads_in_a_script(monkeypatch, capfd):
    monkeypatch.setenv("PAIR", os.path.join(PAIRS, "torch" + _series()))
    rep = run_script(_load_script())
    assert "tensor([3., 3., 3., 3.])" in capfd.readouterr().out  # loaded and called: 1 * 2 + 1
    # the run itself has nothing to verify: a script that only loads defines no capture
    assert rep.get("violation") is None and rep["message"].startswith("the script defines no `fn`")


def test_a_pair_another_torch_made_is_refused_at_the_load_naming_that_torch(monkeypatch):
    """Plain torch loads it without a word (measured both ways on eager and inductor pairs); the
    studio refuses it at the script's load, naming the torch from the report exported beside it."""
    from conftest import marker_line

    stem = os.path.join(PAIRS, "torch" + _other_series())
    monkeypatch.setenv("PAIR", stem)
    rep = run_script(_load_script())
    assert rep["status"] == "violation"
    v = rep["violation"]
    assert v["rule"] == "artifact-other-torch", v
    assert v["location"]["line"] == marker_line(_load_script())
    made = "torch 2.14.1+cu130" if _other_series() == "2.14" else "torch 2.15.0+cu132"
    if precompile_api() == "capture-load":  # 2.15's load takes paths: the report beside NAME.py names it
        assert f"was made by {made} and this environment runs torch {torch.__version__}" in v["message"]
    else:  # 2.14's load takes the pair in memory: the cache envelope names the API
        assert "was made by torch 2.15's capture(...)" in v["message"] and "has tracer field" in v["message"]
    assert f"load it with torch {_other_series()}" in v["message"]
    assert "--python-env" in v["fix"]
    assert "\n" not in rep["message"]


def test_without_the_report_the_cache_envelope_names_the_api(tmp_path, monkeypatch):
    for ext in (".py", ".cache"):
        with open(os.path.join(PAIRS, "torch" + _other_series() + ext), "rb") as f, \
                open(tmp_path / ("pair" + ext), "wb") as g:
            g.write(f.read())
    monkeypatch.setenv("PAIR", str(tmp_path / "pair"))
    rep = run_script(_load_script())
    assert rep["violation"]["rule"] == "artifact-other-torch"
    words = "precompile(fn, *example_inputs) (its cache has no tracer field)" if _other_series() == "2.14" \
        else "capture(...) / load(artifact_path, cache_path) (its cache has tracer field)"
    assert f"was made by torch {_other_series()}'s {words}" in rep["violation"]["message"]
