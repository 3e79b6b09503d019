"""Violations in the user's own words (issue 15): the names of baked constants, the chain
below user code into a third-party package, torch advice that does not apply replaced, and the
runtime model's parameter named in a layout mismatch.

The packages under tests/fixtures/site-packages are fakes of our own (see its README): a fake
`transformers` reproducing, with the real file and function names, the two patterns of
transformers 5.25.0 that precompile rejects, and `tinylib`, which no table knows.
"""
import os
import shutil
import subprocess

import pytest

from conftest import marker_line, script_path
from precompile_studio.contract import libraries

FIXTURE_PKGS = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "fixtures", "site-packages"))


def _line_of(path: str, text: str) -> int:
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if text in line:
                return i
    raise AssertionError(f"{text!r} not in {path}")


def _capture(report):
    assert report["status"] == "violation", report["message"]
    return report["captures"][0]


# ------------------------------------------------------------------ baked constants (invariant 1)
def test_constants_are_named_with_origin_and_lines(run):
    report = run("const_origins.py")
    v = _capture(report)["violation"]
    assert v["rule"] == "constant-tensor"
    got = {c["name"]: c for c in v["details"]["constants"]}
    assert set(got) == {"offset", "shift", "bias", "self.gain"}
    expect = {"offset": ("global", "global"), "shift": ("closure cell", "closure"),
              "bias": ("default argument", "default"), "self.gain": ("module attribute", "attribute")}
    for name, (origin, tag) in expect.items():
        c = got[name]
        assert c["origin"] == origin, name
        assert c["defined"]["line"] == marker_line("const_origins.py", f"# DEF {tag}"), name
        assert c["used"]["line"] == marker_line("const_origins.py", f"# USE {tag}"), name
        assert c["location"] == c["used"]
    assert got["self.gain"]["qualname"] == "model.gain"
    # the one line and the fix name the user's variable, not torch's _tensor_constant
    assert "_tensor_constant" not in v["summary"]
    assert "`model.gain`" in v["summary"] and "and 3 more" in v["summary"]
    assert "self.register_buffer(\"gain\"" in v["fix"]
    assert "model.gain" in report["message"]


def test_constant_node_is_marked_in_the_graph(run):
    report = run("inv1_closure.py")
    graph = _capture(report)["graph"]
    consts = [n for n in graph["node_list"] if n["kind"] == "constant"]
    assert len(consts) == 1
    node = consts[0]
    assert node["qualname"] == "scale"
    assert node["violation"] == {"invariant": 1, "rule": "constant-tensor"}
    assert node["binding"]["origin"] == "global"
    assert node["binding"]["defined"]["line"] == _line_of(script_path("inv1_closure.py"), "scale = ")
    assert node["binding"]["used"]["line"] == marker_line("inv1_closure.py")
    # nothing else is marked
    assert all("violation" not in n for n in graph["node_list"] if n is not node)


# ------------------------------------------------------------------ below user code
def _chain(v):
    roles = [s["role"] for s in v["chain"]]
    assert roles[0] == "user" and roles[-1] == "torch" and "library" in roles, roles
    return v["chain"][0], next(s for s in v["chain"] if s["role"] == "library"), v["chain"][-1]


def test_library_value_read_chain_and_known_remedy(run):
    v = _capture(run("lib_mask.py"))["violation"]
    assert v["rule"] == "data-dependent-value"
    user, lib, op = _chain(v)
    assert user["line"] == marker_line("lib_mask.py") and "use_cache=False" in user["code"]
    lib_file = os.path.join(FIXTURE_PKGS, "transformers", "masking_utils.py")
    assert lib["file"] == lib_file and lib["line"] == _line_of(lib_file, ".all()")
    assert (lib["package"], lib["version"]) == ("transformers", "0.0.1")
    assert lib["function"] == "find_packed_sequence_indices"
    assert op["op"] == "aten._local_scalar_dense.default"
    # the location stays the user's line; the fix speaks to the library case
    assert v["location"]["line"] == marker_line("lib_mask.py")
    assert v["library_pattern"]["name"] == "transformers-packed-sequence-check"
    assert "attention_mask" in v["fix"] and "torch.where" not in v["fix"]
    assert "transformers 0.0.1" in v["summary"] and "masking_utils.py" in v["summary"]


def test_encoder_padding_mask_read_gets_the_4d_mask_remedy(run):
    v = _capture(run("lib_bidir_mask.py"))["violation"]
    assert v["rule"] == "data-dependent-value"
    user, lib, _op = _chain(v)
    assert user["line"] == marker_line("lib_bidir_mask.py")
    assert lib["function"] == "_ignore_bidirectional_mask_sdpa"
    assert v["library_pattern"]["name"] == "transformers-bidirectional-mask-all"
    assert "4-D" in v["fix"] and "outside fn" in v["fix"]


def test_library_cache_literal_chain_and_known_remedy(run):
    v = _capture(run("lib_cache.py"))["violation"]
    assert v["rule"] == "constant-tensor"
    user, lib, op = _chain(v)
    assert user["line"] == marker_line("lib_cache.py")
    assert lib["file"].endswith("transformers/cache_utils.py") and "torch.tensor([]" in lib["code"]
    assert op["op"] == "aten.lift_fresh_copy.default"
    assert v["library_pattern"]["name"] == "transformers-cache-tensor-literal"
    assert "use_cache=False" in v["fix"] and "hoist" not in v["fix"]
    const = v["details"]["constants"][0]
    assert const["origin"] == "literal" and const["used"]["line"] == marker_line("lib_cache.py")


@pytest.mark.parametrize("script,rule,function", [
    ("lib_generic_read.py", "data-dependent-value", "normalise"),
    ("lib_generic_literal.py", "constant-tensor", "add_bias"),
])
def test_unknown_library_gets_the_third_party_fix(run, script, rule, function):
    v = _capture(run(script))["violation"]
    assert v["rule"] == rule
    _user, lib, _op = _chain(v)
    assert (lib["package"], lib["version"], lib["function"]) == ("tinylib", "1.2.3", function)
    assert "library_pattern" not in v
    assert "inside tinylib 1.2.3" in v["fix"] and "you cannot edit it" in v["fix"]
    assert "argument" in v["fix"] and "wrapper" in v["fix"]


def test_user_code_violation_has_no_chain(run):
    v = _capture(run("data_dependent.py"))["violation"]
    assert "chain" not in v
    assert "torch.where" in v["fix"]


def test_known_pattern_table_matches_on_package_file_and_function():
    step = {"package": "transformers", "file": "/x/site-packages/transformers/masking_utils.py",
            "function": "_ignore_causal_mask_sdpa", "code": "if padding_mask is None or fast_all(padding_mask):"}
    assert libraries.known_pattern(step, "data-dependent-value").name == "transformers-sdpa-mask-all"
    assert libraries.known_pattern(step, "constant-tensor") is None
    assert libraries.known_pattern(dict(step, package="other"), "data-dependent-value") is None
    for p in libraries.KNOWN:
        assert p.seen and p.remedy


# ------------------------------------------------------------------ torch hints
def test_make_fx_hint_is_replaced_but_kept_in_message(run):
    report = run("data_dependent.py")
    v = _capture(report)["violation"]
    assert "tracing_mode='symbolic'" in v["message"]
    assert "tracing_mode" not in v["summary"] and "make_fx call" not in v["summary"]
    assert "tracing_mode" not in report["message"]
    assert "value" in report["message"]


# ------------------------------------------------------------------ parameter-level mismatch
def test_weight_layout_names_the_runtime_models_parameter(run):
    report = run("rt_weight_layout.py")
    runtime = report["captures"][0]["verify"]["runtime"]
    v = runtime["violation"]
    assert v["rule"] == "input-layout"
    d = v["details"]
    assert (d["tensor"], d["kind"], d["owner"]) == ("weight", "parameter", "the runtime model's")
    assert d["shape"] == [3, 4] and d["stride"] == [1, 3]
    assert d["traced_stride_at"] == {"0": 4, "1": 1}
    assert "the runtime model's parameter `weight`" in v["summary"]
    assert "`weight`" in v["fix"]


# ------------------------------------------------------------------ real transformers, when available
UENV = os.environ.get("PS_TEST_USER_ENV", "/root/uenv")
STUDIO = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin", "precompile-studio"))


@pytest.mark.skipif(not (os.path.isdir(os.path.join(UENV, "lib")) and os.path.exists(STUDIO)),
                    reason="needs a user environment with transformers and a built studio")
def test_real_transformers_gpt2_points_into_masking_utils(tmp_path):
    import json

    probe = subprocess.run([os.path.join(UENV, "bin", "python"), "-c", "import transformers"],
                           capture_output=True)
    if probe.returncode != 0 or shutil.which(STUDIO) is None:
        pytest.skip("transformers is not installed in the user environment")
    script = tmp_path / "gpt2.py"
    script.write_text(
        "import torch\nfrom transformers import GPT2Config, GPT2LMHeadModel\n\nbackend = 'eager'\n"
        "model = GPT2LMHeadModel(GPT2Config(n_layer=1, n_head=2, n_embd=16, vocab_size=64, n_positions=32)).eval()\n"
        "\n\ndef fn(model, ids):\n    return model(input_ids=ids, use_cache=False).logits\n\n\n"
        "example_inputs = (model, torch.randint(0, 64, (1, 8)))\n")
    out = subprocess.run([STUDIO, "run", str(script), "--python-env", UENV, "--no-store", "--json"],
                         capture_output=True, text=True, timeout=600)
    report = json.loads(out.stdout)
    v = report["captures"][0]["violation"]
    assert v["rule"] == "data-dependent-value"
    lib = next(s for s in v["chain"] if s["role"] == "library")
    assert lib["package"] == "transformers" and lib["file"].endswith("masking_utils.py")
    assert v["location"]["line"] == 9  # the return line of fn
    assert "library_pattern" in v


@pytest.mark.skipif(not (os.path.isdir(os.path.join(UENV, "lib")) and os.path.exists(STUDIO)),
                    reason="needs a user environment with transformers and a built studio")
def test_real_transformers_bert_mask_gets_the_4d_mask_remedy(tmp_path):
    import json

    probe = subprocess.run([os.path.join(UENV, "bin", "python"), "-c", "import transformers"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip("transformers is not installed in the user environment")
    script = tmp_path / "bert.py"
    script.write_text(
        "import torch\nfrom transformers import BertConfig, BertModel\n\nbackend = 'eager'\n"
        "model = BertModel(BertConfig(num_hidden_layers=1, hidden_size=32, num_attention_heads=2,"
        " intermediate_size=64, vocab_size=64, max_position_embeddings=32)).eval()\n"
        "\n\ndef fn(model, ids, mask):\n    return model(input_ids=ids, attention_mask=mask).last_hidden_state\n\n\n"
        "example_inputs = (model, torch.randint(0, 64, (1, 8)), torch.ones(1, 8, dtype=torch.long))\n")
    out = subprocess.run([STUDIO, "run", str(script), "--python-env", UENV, "--no-store", "--json"],
                         capture_output=True, text=True, timeout=600)
    v = json.loads(out.stdout)["captures"][0]["violation"]
    assert v["rule"] == "data-dependent-value"
    assert v["library_pattern"]["name"] == "transformers-bidirectional-mask-all"
    assert v["location"]["line"] == 9
