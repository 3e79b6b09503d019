"""Each node carries the stack that made it: user, package and torch.nn frames, innermost first."""
import os

from conftest import marker_line, run_script, script_path


def _frames(graph, node):
    return [graph["frames"][i] for i in node.get("stack", [])]


def _tail(path: str, parts: int = 3) -> str:
    return "/".join(path.replace("\\", "/").split("/")[-parts:])


def test_resnet18_nodes_have_torchvision_frames_with_the_users_line_outermost():
    rep = run_script("stk_resnet18.py", verify=False)
    assert rep["status"] == "ok", rep["message"]
    g = rep["captures"][0]["graph"]
    frames = g["frames"]
    assert frames, "the graph lists no frames"
    compute = [n for n in g["node_list"] if n["kind"] == "compute"]
    assert compute and all(n.get("stack") for n in compute)
    # the first convolution: conv.py's two frames, then resnet.py's `x = self.conv1(x)`, then fn
    conv = next(n for n in compute if n["target"].startswith("aten.convolution"))
    stack = _frames(g, conv)
    names = [(_tail(f["file"]), f["function"]) for f in stack]
    assert names[0] == ("nn/modules/conv.py", "_conv_forward"), names
    resnet = [f for f in stack if _tail(f["file"]) == "torchvision/models/resnet.py"]
    assert [f["function"] for f in resnet] == ["_forward_impl", "forward"], names
    assert resnet[0]["code"] == "x = self.conv1(x)"
    assert resnet[0]["owner"] == "package" and resnet[0]["package"] == "torchvision"
    with open(resnet[0]["file"]) as f:  # the line is the file's own
        assert f.read().splitlines()[resnet[0]["line"] - 1].strip() == "x = self.conv1(x)"
    outer = stack[-1]
    assert os.path.realpath(outer["file"]) == os.path.realpath(script_path("stk_resnet18.py"))
    assert outer["line"] == marker_line("stk_resnet18.py") and outer["owner"] == "user"
    assert outer["function"] == "fn" and "package" not in outer
    # torch's own machinery (module.py's _call_impl, the tracer, the dispatcher) is left out
    assert not any(f["file"].endswith("nn/modules/module.py") for f in frames)
    assert all(f["owner"] != "torch" or "/torch/nn/" in f["file"].replace("\\", "/") for f in frames)
    # a BasicBlock's second convolution names its own line
    blocks = {f["code"] for f in frames if _tail(f["file"]) == "torchvision/models/resnet.py"}
    assert {"out = self.conv2(out)", "out = self.bn1(out)", "x = self.layer4(x)"} <= blocks
    # placeholders and the output were made by precompile itself
    assert not any(n.get("stack") for n in g["node_list"] if n["op"] in ("placeholder", "output"))
    # interned: each frame listed once
    keys = [(f["file"], f["line"], f["function"]) for f in frames]
    assert len(keys) == len(set(keys))


def test_backward_nodes_carry_their_forward_nodes_stack():
    rep = run_script("rt_train.py", verify=False)
    assert rep["status"] == "ok", rep["message"]
    g = rep["captures"][0]["graph"]
    nodes = {n["name"]: n for n in g["node_list"]}
    back = [n for n in g["node_list"] if n.get("phase") == "backward" and n.get("backward_of")]
    assert back
    for n in back:
        assert n["stack"] == nodes[n["backward_of"]]["stack"], n["name"]
    # the forward addmm: linear.py's forward, then fn's `out = model(x)`
    addmm = _frames(g, nodes["addmm"])
    assert _tail(addmm[0]["file"]) == "nn/modules/linear.py" and addmm[0]["function"] == "forward"
    assert addmm[-1]["line"] == marker_line("rt_train.py", "# FORWARD") and addmm[-1]["owner"] == "user"
    # a gradient accumulation has no forward node: its stack is the backward call's
    own = [n for n in g["node_list"] if n.get("phase") == "backward" and not n.get("backward_of") and n.get("stack")]
    for n in own:
        assert _frames(g, n)[-1]["line"] == marker_line("rt_train.py", "# BACKWARD")


def test_a_report_without_stacks_still_follows_the_schema():
    from conftest import check_report

    rep = run_script("rt_train.py", verify=False)
    g = rep["captures"][0]["graph"]
    del g["frames"]
    for n in g["node_list"]:
        n.pop("stack", None)
    check_report(rep)  # reports kept from before stacks were recorded
