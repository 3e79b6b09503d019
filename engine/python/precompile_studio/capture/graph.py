"""Serialise the graph precompile captured (the one it lowered) for the report.

The GraphModule and the per-node source lines and module paths come from a
:class:`~precompile_studio.probe.CaptureProbe` that watched the precompile call; nothing
here traces anything.

Per node: name, op, target, inputs, shape, dtype, stride, device (for a tuple-valued node,
``values`` lists each element), and

- ``kind``: parameter / buffer / input (placeholders), constant (get_attr), compute, output;
- placeholders: ``param`` (torch's name, as in
  PARAM_NAMES, e.g. ``0.weight``), ``qualname`` (with fn's argument name, ``model.0.weight``)
  and ``aliases`` (tied weights: the other names of the same tensor);
- ``source`` {file, line}: the user's line that produced it (for a backward node, the
  forward line it differentiates; ``trigger`` is the line that called ``backward``);
- ``stack``: the frames that made it, innermost first, as indices into the graph's ``frames``
  ({file, line, function, code, owner, package}: capture/stacks.py); a backward node has the
  stack of the forward node it differentiates;
- ``module`` {path, type}: the innermost nn.Module being called (``model.0``, ``Linear``);
- ``phase``: forward / backward; ``backward_of``: the forward node it differentiates;
- ``item``: an ``operator.getitem`` node's index into its input's tuple (``values``);
- ``output``: for nodes that feed the graph output, their roles
  ([{index, role: result|gradient, param}]);
- constants (get_attr tensors, which invariant 1 rejects): ``qualname`` is the user's name
  (``scale``, ``model.weight_scale``), ``binding`` {name, origin, defined, used} says where it
  came from (:mod:`precompile_studio.constants`), and ``violation`` {invariant, rule} marks
  the node as the violation.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from precompile_studio.capture.stacks import frames_table
from precompile_studio.common import internal_errors
from precompile_studio.common.inputs import dynamic_marks, leaf_names

_DTYPE_NAMES: dict[Any, str] = {}


def _dtype(d) -> str:
    s = _DTYPE_NAMES.get(d)
    if s is None:
        s = _DTYPE_NAMES[d] = str(d).replace("torch.", "")
    return s


def target_name(node) -> str:
    t = node.target
    if isinstance(t, str):
        return t
    import torch

    if isinstance(t, torch._ops.OpOverload):
        return str(t)  # "aten.addmm.default"
    if isinstance(t, torch._ops.HigherOrderOperator):
        return f"hop.{t.name()}"
    mod = getattr(t, "__module__", None) or ""
    name = getattr(t, "__qualname__", None) or getattr(t, "__name__", None) or repr(t)
    if mod in ("_operator", "operator"):
        mod = "operator"
    return f"{mod}.{name}" if mod else name


def _tensor_meta(v) -> dict | None:
    import torch

    if isinstance(v, torch.Tensor):
        try:
            return {
                "shape": [int(s) if not isinstance(s, torch.SymInt) else str(s) for s in v.shape],
                "dtype": _dtype(v.dtype),
                "stride": [int(s) if not isinstance(s, torch.SymInt) else str(s) for s in v.stride()],
                "device": str(v.device),
            }
        except Exception:  # noqa: BLE001 - sparse / exotic layouts have no strides
            return {"shape": list(v.shape), "dtype": _dtype(v.dtype), "stride": None, "device": str(v.device)}
    return None


def _scalar(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)


def _leaf_names(probe) -> list[str]:
    """Display names of the user-input leaves, in placeholder order ('x', "batch['ids']")."""
    try:
        return leaf_names(tuple(probe.args or ()), probe.argnames)
    except Exception as e:  # noqa: BLE001 - unnamed: the placeholders say input[j]
        internal_errors.record("graph: the inputs' names", e)
        return []


def _leaf_marks(probe) -> list[list[dict]]:
    """Each user-input leaf's dims marked with mark_unbacked (common.inputs.dynamic_marks), in
    placeholder order; [] for a leaf with none."""
    import torch
    import torch.utils._pytree as pytree

    try:
        user = tuple(a for a in (probe.args or ()) if not isinstance(a, torch.nn.Module))
        return [dynamic_marks(t) if isinstance(t, torch.Tensor) else [] for t in pytree.tree_flatten(user)[0]]
    except Exception as e:  # noqa: BLE001 - unknown: the placeholders' symbols still show
        internal_errors.record("graph: the inputs' dynamic marks", e)
        return []


def _qualify(probe, torch_name: str, module_index: int | None = None) -> str:
    """'0.weight' -> 'model.0.weight'; 'm1.0.weight' -> 'other.0.weight'."""
    positions = probe.module_positions
    if not positions:
        return torch_name
    if len(positions) > 1:
        head, _, rest = torch_name.partition(".")
        if module_index is None and head.startswith("m") and head[1:].isdigit():
            module_index = int(head[1:])
            torch_name = rest
    mi = module_index or 0
    if mi >= len(positions):
        return torch_name
    base = probe.argnames[positions[mi]]
    return f"{base}.{torch_name}" if torch_name else base


def _constant_names(probe) -> dict:
    try:
        from precompile_studio.contract.constants import name_constants

        return name_constants(probe)
    except Exception as e:  # noqa: BLE001 - a graph without names beats no graph
        internal_errors.record("graph: naming the tensor constants", e)
        return {}


def _mark_constant(d: dict, naming: dict | None) -> None:
    """A tensor constant is what invariant 1 rejects: give it the user's name and mark it."""
    if naming is None:
        return
    from precompile_studio.contract.constants import display_name

    shown = display_name(naming)
    if shown:
        d["qualname"] = shown
    d["binding"] = {k: naming.get(k) for k in ("name", "origin", "defined", "used")}
    d["violation"] = {"invariant": 1, "rule": "constant-tensor"}


@dataclass
class _Names:
    """What the graph's placeholders and outputs are called: torch's names of the lifted
    parameters and buffers, the same qualified with fn's argument names, every name of each
    lifted tensor (tied weights), the user-input leaves, the constants' bindings, and which
    parameters get a gradient output (None: the capture did not say)."""

    params: list[str]
    buffers: list[str]
    qual_params: list[str]
    qual_buffers: list[str]
    aliases: dict[int, list[str]]
    leaves: list[str]
    constants: dict
    grad_indices: list[int] | None
    marks: list[list[dict]] = field(default_factory=list)  # each leaf's mark_unbacked dims


def _names(probe) -> _Names:
    cap = probe.capture
    param_names = list(cap.param_names) if cap is not None else list(probe.param_names)
    buffer_names = list(cap.buffer_names) if cap is not None else list(probe.buffer_names)
    grad_indices = list(cap.grad_param_indices) if cap is not None else None
    # Every name a lifted tensor has (tied weights: several), qualified with the arg name.
    aliases: dict[int, list[str]] = {}
    for mi, n, uidx in probe.alias_entries:
        aliases.setdefault(uidx, []).append(_qualify(probe, n, mi))
    return _Names(params=param_names, buffers=buffer_names,
                  qual_params=[_qualify(probe, n) for n in param_names],
                  qual_buffers=[_qualify(probe, n) for n in buffer_names],
                  aliases=aliases, leaves=_leaf_names(probe), constants=_constant_names(probe),
                  grad_indices=grad_indices, marks=_leaf_marks(probe))


def _output_role(i: int, n_out: int, names: _Names) -> dict:
    """{index, role, param} of the graph's i-th output: the trailing outputs are the gradients of
    the parameters grad_indices names, the others results (no role where that is unknown)."""
    grad_indices = names.grad_indices
    n_grads = len(grad_indices) if grad_indices is not None else 0
    if grad_indices is None:
        role, param = None, None
    elif i >= n_out - n_grads:
        role = "gradient"
        pi = grad_indices[i - (n_out - n_grads)]
        param = names.qual_params[pi] if pi < len(names.qual_params) else None
    else:
        role, param = "result", None
    return {"index": i, "role": role, "param": param}


def _outputs(graph, names: _Names) -> tuple[list[dict], dict[str, list[dict]]]:
    """(the report's output_list, {node name: its output roles}) from the graph's output node."""
    output_node = next((node for node in graph.nodes if node.op == "output"), None)
    outputs_list: list[dict] = []
    output_roles: dict[str, list[dict]] = {}
    if output_node is None:
        return outputs_list, output_roles
    from torch.fx import Node

    flat = output_node.args[0] if output_node.args else []
    if not isinstance(flat, (list, tuple)):
        flat = [flat]
    for i, a in enumerate(flat):
        entry = _output_role(i, len(flat), names)
        if isinstance(a, Node):
            outputs_list.append(dict(entry, node=a.name))
            output_roles.setdefault(a.name, []).append(entry)
        else:
            outputs_list.append(dict(entry, node=None, value=_scalar(a)))
    return outputs_list, output_roles


def _node_base(node) -> dict[str, Any]:
    """name, op, target, inputs, and what the node's value is (tensor meta, values, value)."""
    d: dict[str, Any] = {
        "name": node.name,
        "op": node.op,
        "target": target_name(node),
        "inputs": [n.name for n in node.all_input_nodes],
    }
    if d["target"] == "operator.getitem" and len(node.args) > 1 and type(node.args[1]) is int:
        d["item"] = node.args[1]  # which element of its input's tuple
    val = node.meta.get("val")
    tm = _tensor_meta(val)
    if tm is not None:
        d.update(tm)
    elif isinstance(val, (list, tuple)):
        d["values"] = [_tensor_meta(v) or {"value": _scalar(v)} for v in val]
    elif val is not None and node.op != "output":
        d["value"] = _scalar(val)
    return d


def _placeholder(d: dict, i: int, names: _Names) -> None:
    """The i-th placeholder: a parameter, a buffer (torch's name, the qualified one, the tied
    aliases) or a user input (its leaf name)."""
    n_params, n_buffers = len(names.params), len(names.buffers)
    if i < n_params + n_buffers:
        is_param = i < n_params
        j = i if is_param else i - n_params
        qual = names.qual_params[j] if is_param else names.qual_buffers[j]
        d["kind"] = "parameter" if is_param else "buffer"
        d["param"] = names.params[j] if is_param else names.buffers[j]
        d["qualname"] = qual
        al = names.aliases.get(i, [])
        if len(al) > 1:
            d["aliases"] = [a for a in al if a != qual]
        return
    j = i - n_params - n_buffers
    d["kind"] = "input"
    d["qualname"] = names.leaves[j] if j < len(names.leaves) else f"input[{j}]"
    marks = names.marks[j] if j < len(names.marks) else []
    if marks:
        shape = d.get("shape") or []
        # each marked dim with the symbol the capture gave it (u0): one artifact serves any size
        d["dynamic"] = [{**m, "symbol": str(shape[m["dim"]]) if m["dim"] < len(shape) else None} for m in marks]


def _kind(d: dict, node, names: _Names, placeholder_index: int) -> None:
    op = node.op
    if op == "placeholder":
        _placeholder(d, placeholder_index, names)
    elif op == "get_attr":
        d["kind"] = "constant"
        _mark_constant(d, names.constants.get(node.name))
    elif op == "output":
        d["kind"] = "output"
    else:
        d["kind"] = "compute"


def _where(d: dict, ni, qual_params: list[str]) -> None:
    """What the probe saw of the node: the user's line, the module, the phase, and for a
    backward node the forward node, the line that called backward and the parameter."""
    if ni is None:
        d["source"] = None
        d["module"] = None
        d["phase"] = None
        return
    d["source"] = {"file": ni.file, "line": ni.line} if ni.line is not None else None
    d["module"] = {"path": ni.module[0], "type": ni.module[1]} if ni.module else None
    d["phase"] = ni.phase
    if ni.forward is not None:
        d["backward_of"] = ni.forward.name
    if ni.trigger is not None and ni.trigger[1] is not None:
        d["trigger"] = {"file": ni.trigger[0], "line": ni.trigger[1]}
    if ni.param is not None and ni.param < len(qual_params):
        d["grad_of"] = qual_params[ni.param]


def _ops(nodes: list[dict]) -> dict[str, int]:
    """How often each call_function target occurs, the most frequent first."""
    ops: dict[str, int] = {}
    for d in nodes:
        if d["op"] == "call_function":
            ops[d["target"]] = ops.get(d["target"], 0) + 1
    return dict(sorted(ops.items(), key=lambda kv: (-kv[1], kv[0])))


def extract_graph(probe) -> dict | None:
    """The report's "graph" object, or None when no graph was captured."""
    gm = probe.gm
    if gm is None:
        return None
    names = _names(probe)
    outputs_list, output_roles = _outputs(gm.graph, names)
    nodes_out: list[dict] = []
    placeholders = 0
    infos = [probe.info.get(node) for node in gm.graph.nodes]
    frames, stacks = frames_table((ni.stack if ni is not None else () for ni in infos), probe.script_path)
    for node, stack in zip(gm.graph.nodes, stacks):
        d = _node_base(node)
        _kind(d, node, names, placeholders)
        placeholders += node.op == "placeholder"
        _where(d, probe.info.get(node), names.qual_params)
        if stack:
            d["stack"] = stack
        roles = output_roles.get(node.name)
        if roles:
            d["output"] = roles
        nodes_out.append(d)

    n_params, n_buffers = len(names.params), len(names.buffers)
    phases = [d["phase"] for d in nodes_out]
    return {
        "nodes": len(nodes_out),
        "inputs": placeholders,
        "outputs": len(outputs_list),
        "ops": _ops(nodes_out),
        "parameters": n_params,
        "buffers": n_buffers,
        "user_inputs": max(placeholders - n_params - n_buffers, 0),
        "gradients": len(names.grad_indices) if names.grad_indices is not None else None,
        "forward_nodes": phases.count("forward"),
        "backward_nodes": phases.count("backward"),
        "complete": probe.capture is not None,
        "node_list": nodes_out,
        "output_list": outputs_list,
        "modules": [{"path": p, "type": t} for p, t in probe.module_types.items()],
        "frames": frames,
    }
