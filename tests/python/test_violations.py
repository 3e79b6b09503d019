"""Every invariant and limit, triggered for real, classified with its number and line.

These also fail when torch rewords a message: the classifier matches torch's fixed
opening texts, and test_every_torch_message_is_classified reads them out of the
installed torch source.
"""
import ast
import io
import os

import pytest
import torch

from conftest import marker_line, other_api, precompile, precompile_api, run_script, script_path
from precompile_studio.contract import violations
from precompile_studio.contract.violations import Context, classify_exception, classify_warning, match_rule

CAPTURE_CASES = [
    # script, invariant, rule
    ("inv1_closure.py", 1, "constant-tensor"),
    ("inv1_attr.py", 1, "constant-tensor"),
    ("control_flow.py", None, "control-flow-subgraph"),
    ("data_dependent.py", 3, "data-dependent-value"),
    ("inv4_effectful.py", 4, "effectful-op"),
    ("inv5_buffer.py", 5, "buffer-received-gradient"),
    ("inv5_input.py", 5, "input-received-gradient"),
    ("tracer_dynamo.py", None, "tracer-not-implemented"),
    ("bad_backend.py", None, "unknown-backend"),
    ("keyword_only.py", None, "positional-arguments-only"),
    ("output_namedtuple.py", None, "output-structure-not-serializable"),
    # torch fails on a nested input in words of its own on both torches: the studio names it
    ("nested_input.py", 3, "nested-tensor-example"),
]


def _check(v, script, invariant, rule, kind=None):
    assert v is not None
    assert v["rule"] == rule, v["message"]
    assert v["invariant"] == invariant
    assert v["explanation"]
    if rule != "internal":
        assert v["fix"]
    if kind:
        assert v["kind"] == kind
    loc = v["location"]
    assert loc is not None, v
    assert os.path.realpath(loc["file"]) == os.path.realpath(script_path(script))
    assert loc["line"] == marker_line(script)


@pytest.mark.parametrize("script,invariant,rule", CAPTURE_CASES, ids=[c[0] for c in CAPTURE_CASES])
def test_capture_violation(script, invariant, rule):
    if script == "tracer_dynamo.py" and precompile_api() == "capture-load":
        rule = "capture-tracer-type"  # 2.15 takes the tracer as a MakeFxTracer object, no string
    rep = run_script(script)
    assert rep["status"] == "violation", rep["message"]
    cap = rep["captures"][0]
    assert cap["status"] == "violation"
    _check(cap["violation"], script, invariant, rule)
    assert cap["verify"] is None


CAPTURE_BLOCK_CASES = [
    ("capture_no_call_capture.py", "capture-no-call", "PrecompileError", "inside the `with` block"),
    ("capture_partial_capture.py", "capture-partial", "TypeError", "instead of `partial(fn, model)`"),
]


@pytest.mark.skipif(precompile_api() != "capture-load", reason="torch 2.15's capture block")
@pytest.mark.parametrize("script,rule,kind,fix", CAPTURE_BLOCK_CASES, ids=[c[0] for c in CAPTURE_BLOCK_CASES])
def test_a_capture_block_refusal_is_at_its_line_with_the_fix(script, rule, kind, fix):
    rep = run_script(script)
    assert rep["status"] == "violation", rep["message"]
    v = rep["violation"]
    _check(v, script, None, rule, kind)
    assert fix in v["fix"]
    assert "\n" not in rep["message"]


def test_invariant_1_names_the_constant_and_keeps_the_graph():
    rep = run_script("inv1_closure.py")
    cap = rep["captures"][0]
    consts = cap["violation"]["details"]["constants"]
    assert consts and consts[0]["location"]["line"] == marker_line("inv1_closure.py")
    g = cap["graph"]
    assert g is not None and g["complete"] is False
    kinds = {n["name"]: n.get("kind") for n in g["node_list"]}
    assert consts[0]["node"] in kinds and kinds[consts[0]["node"]] == "constant"


def test_invariant_3_mark_dynamic_points_at_example_inputs():
    rep = run_script("inv3_mark_dynamic.py")
    v = rep["captures"][0]["violation"]
    assert (v["invariant"], v["rule"]) == (3, "mark-dynamic-unsupported")
    from precompile_studio.script.loader import read_source

    src = read_source(script_path("inv3_mark_dynamic.py"))
    assert v["location"]["line"] == src.line_of("example_inputs")


@pytest.mark.parametrize("script,rule", [("no_compute.py", "no-compute-graph"),
                                         ("non_tensor_output.py", "non-tensor-output")])
def test_inductor_limits(script, rule):
    rep = run_script(script)
    cap = rep["captures"][0]
    assert cap["status"] == "violation"
    _check(cap["violation"], script, None, rule, "PrecompileError")


RUNTIME_CASES = [
    ("inv2_runtime_model.py", 2, "param-buffer-mismatch"),
    ("inv3_runtime_shape.py", 3, "input-shape"),
    ("inv6_runtime_dtype.py", 6, "input-dtype"),
    ("inv2_runtime_param_dtype.py", 2, "param-buffer-mismatch"),   # a float64 model, float32 input
    ("inv2_runtime_param_layout.py", 6, "input-layout"),           # a channels-last conv weight
]


@pytest.mark.parametrize("script,invariant,rule", RUNTIME_CASES, ids=[c[0] for c in RUNTIME_CASES])
def test_runtime_violation(script, invariant, rule):
    rep = run_script(script)
    cap = rep["captures"][0]
    ver = cap["verify"]
    assert ver["ran"] and ver["status"] == "ok" and ver["matches_eager"] is True
    rt = ver["runtime"]
    assert rt["status"] == "violation"
    _check(rt["violation"], script, invariant, rule, "PrecompileError")
    assert rt["violation"]["phase"] == "call"
    # The rejected runtime call is the capture's outcome, and the run's.
    assert cap["status"] == "violation" and cap["violation"] is None
    o = cap["outcome"]
    assert (o["where"], o["invariant"], o["rule"], o["kind"]) == ("runtime", invariant, rule, "PrecompileError")
    assert o["location"] == rt["violation"]["location"]
    assert rep["status"] == "violation"
    assert rep["message"].startswith(f"{cap['name']}: runtime call rejected: invariant {invariant} ({rule}): ")


# --------------------------------------------------------------------------- load (7)
def _eager_artifact():
    model = torch.nn.Linear(3, 2)
    return precompile(lambda m, x: m(x), model, torch.randn(2, 3), backend="eager")


def _tamper(cache: bytes, **changes) -> bytes:
    blob = dict(torch.load(io.BytesIO(cache), weights_only=True))
    blob.update(changes)
    buf = io.BytesIO()
    torch.save(blob, buf)
    return buf.getvalue()


@pytest.mark.parametrize("how,rule", [
    ("code_hash", "cache-code-hash-mismatch"),
    ("backend", "cache-backend-mismatch"),
    ("invalid_code", "python-code-invalid"),
    ("no_metadata", "python-code-no-metadata"),
])
def test_load_refuses_tampered_pair(how, rule):
    from precompile_studio.verify.pipeline import load_artifact

    code, cache = _eager_artifact()
    if how == "code_hash":
        cache = _tamper(cache, code_hash="0" * 64)
    elif how == "backend":
        cache = _tamper(cache, backend="inductor")
    elif how == "invalid_code":
        code = code + "\n)))\n"
    elif how == "no_metadata":
        code = code.replace("OUT_SPEC = ", "OUT_SPEC_GONE = ", 1)
    f, _dt, err, _w = load_artifact(code, cache, Context())
    assert f is None
    assert err["status"] == "violation"
    assert (err["invariant"], err["rule"], err["phase"]) == (7, rule, "load")


@pytest.mark.parametrize("how,rule", [
    ("garbage", "cache-envelope-unreadable"),
    ("format", "cache-format-mismatch"),
])
def test_load_falls_back_with_a_warning(how, rule):
    from precompile_studio.verify.pipeline import load_artifact

    code, cache = _eager_artifact()
    cache = b"not a torch.save file" if how == "garbage" else _tamper(cache, version=99)
    f, _dt, err, warnings = load_artifact(code, cache, Context())
    assert err is None and f is not None
    rules = [w["rule"] for w in warnings]
    assert rule in rules and "untrusted-python-code" in rules
    assert all(w["invariant"] == 7 for w in warnings)


# --------------------------------------------------------------------------- drift
_TORCH = os.path.dirname(torch.__file__)


def _templates(path: str, names: set[str]) -> list[tuple[str, str]]:
    """(callee, message) for every call to one of names with a literal first argument;
    interpolated values become 'X'."""
    with open(path) as f:
        tree = ast.parse(f.read())
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        callee = func.id if isinstance(func, ast.Name) else (func.attr if isinstance(func, ast.Attribute) else None)
        if callee not in names:
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            out.append((callee, arg.value))
        elif isinstance(arg, ast.JoinedStr):
            parts = []
            for v in arg.values:
                parts.append(v.value if isinstance(v, ast.Constant) else "X")
            out.append((callee, "".join(parts)))
    return out


def test_every_torch_message_is_classified():
    pre = os.path.join(_TORCH, "_precompile.py")
    drv = os.path.join(_TORCH, "_precompile_driver.py")
    seen_rules = set()
    msgs = _templates(pre, {"PrecompileError", "NotImplementedError", "ValueError"})
    msgs += [(c, m) for c, m in _templates(pre, {"TypeError"}) if m.startswith("precompile.capture")]
    msgs += _templates(drv, {"_fail"})
    assert len(msgs) >= 30, "torch's precompile messages moved: update the classifier"
    kinds = {"PrecompileError": "PrecompileError", "_fail": "PrecompileError",
             "NotImplementedError": "NotImplementedError", "ValueError": "ValueError", "TypeError": "TypeError"}
    for callee, msg in msgs:
        if callee == "PrecompileError" and msg.startswith("precompile cannot compile this computation: X"):
            msg = msg.replace(": X", ": effectful op X", 1)
        r = match_rule(msg, kinds[callee])
        assert r is not None, f"unclassified torch message: {msg[:120]!r}"
        seen_rules.add(r.rule)
    # _unsupported's reason, built at its call site
    assert any('"effectful op' in line or "f\"effectful op" in line for line in open(pre))
    std = os.path.join(_TORCH, "_functorch", "_aot_autograd", "to_standalone_python.py")
    lower = [m for c, m in _templates(std, {"NotImplementedError"}) if "effectful op" in m]
    assert lower and match_rule(lower[0], "NotImplementedError").rule == "effectful-op-lowering"
    seen_rules.add("effectful-op-lowering")
    ptx = os.path.join(_TORCH, "fx", "experimental", "proxy_tensor.py")
    dd = [m for c, m in _templates(ptx, {"RuntimeError"}) if match_rule(m, "RuntimeError")]
    assert dd, "make_fx's data-dependent error moved"
    seen_rules.add("data-dependent-value")
    series = ".".join(torch.__version__.split(".")[:2])
    expected = {r.rule for r in violations.RULES if series in r.torch}
    assert expected - seen_rules == set(), f"rules no message of torch {series} produces any more"


def test_every_load_warning_is_classified():
    pre = os.path.join(_TORCH, "_precompile.py")
    msgs = [m for _c, m in _templates(pre, {"warning"})]
    seen = set()
    for m in msgs:
        w = classify_warning(m)
        assert w["rule"] != "unclassified", m
        seen.add(w["rule"])
    series = ".".join(torch.__version__.split(".")[:2])
    assert seen == {r.rule for r in violations.WARNING_RULES if series in r.torch}


def test_unknown_message_is_kept_unclassified():
    from torch._precompile import PrecompileError

    try:
        raise PrecompileError("precompile: a brand-new check failed (invariant 4).")
    except PrecompileError as e:
        contract, v = classify_exception(e, Context())
    assert contract is True
    assert v["invariant"] is None and v["rule"] == "unclassified"
    assert v["message"] == "precompile: a brand-new check failed (invariant 4)."
    assert v["mentions"] == [4]


def test_exception_inside_fn_is_an_error_not_a_violation(tmp_path):
    p = tmp_path / "boom.py"
    p.write_text("import torch\nbackend = 'eager'\n\ndef fn(x):\n    raise KeyError('nope')\n\n"
                 "example_inputs = (torch.randn(2),)\n")
    import json

    from conftest import check_report
    from precompile_studio import worker

    rep = json.loads(worker.run(json.dumps({"script": str(p)}), lambda e: None))
    check_report(rep)
    cap = rep["captures"][0]
    assert cap["status"] == "error"
    assert rep["status"] == "error"
    assert cap["outcome"]["where"] == "capture" and cap["outcome"]["kind"] == "KeyError"
    assert cap["violation"]["rule"] is None
    assert cap["violation"]["location"]["line"] == 5


def _raised(exc_type, message: str, filename: str = "<user>") -> BaseException:
    try:
        exec(compile(f"raise {exc_type.__name__}({message!r})", filename, "exec"), {exc_type.__name__: exc_type})
    except exc_type as e:
        return e
    raise AssertionError("not raised")


def test_which_exceptions_are_contract_outcomes():
    from precompile_studio.contract.violations import match_exception

    read = "It appears that you're trying to get value out of a tracing tensor with aten._local_scalar_dense"
    rule, contract = match_exception(_raised(RuntimeError, read), read)
    assert contract is True and rule.rule == "data-dependent-value"

    class Sub(RuntimeError):
        pass

    assert match_exception(_raised(Sub, read), read) == (None, False)  # only a plain RuntimeError
    unknown = "a brand-new argument check"
    assert match_exception(_raised(ValueError, unknown), unknown) == (None, False)
    torch_file = os.path.join("site-packages", "torch", "_precompile.py")
    own = _raised(ValueError, unknown, torch_file)
    assert match_exception(own, unknown) == (None, True)  # precompile's own check, words unknown
    assert match_exception(_raised(KeyError, unknown, torch_file), unknown) == (None, False)


def test_a_script_written_for_the_other_torch_gets_the_rewrite_at_its_line():
    """torch 2.15 made precompile a module (capture / load(paths)); a script of the other version's
    API is told both APIs and the rewrite, at the line that calls it, never a bare TypeError."""
    name = other_api("rec_self_call.py")
    rep = run_script(name)
    v = rep["violation"]
    assert rep["status"] == "violation" and v["rule"] == "other-precompile-api", rep["message"]
    assert v["location"]["line"] == marker_line(name, "# API")
    assert "torch 2.14" in v["message"] and "torch 2.15" in v["message"]
    assert "precompile.capture" in v["message"] and "precompile(fn" in v["message"]  # both APIs
    assert "\n" not in rep["message"] and "not callable" not in rep["message"]


def test_a_script_that_asks_which_api_it_has_is_told_the_truth():
    rep = run_script("either_api.py")
    assert rep["status"] == "ok", rep["message"]
    assert len(rep["captures"]) == 1 and rep["captures"][0]["name"] == "fn"
