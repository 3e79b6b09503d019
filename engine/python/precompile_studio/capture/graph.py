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
- ``module`` {path, type}: the innermost nn.Module being called (``model.0``, ``Linear``);
- ``phase``: forward / backward; ``backward_of``: the forward node it differentiates;
- ``output``: for nodes that feed the graph output, their roles
  ([{index, role: result|gradient, param}]);
- constants (get_attr tensors, which invariant 1 rejects): ``qualname`` is the user's name
  (``scale``, ``model.weight_scale``), ``binding`` {name, origin, defined, used} says where it
  came from (:mod:`precompile_studio.constants`), and ``violation`` {invariant, rule} marks
  the node as the violation.
"""
from __future__ import annotations

from typing import Any

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
        except Exception:  # sparse / exotic layouts have no strides
            return {"shape": list(v.shape), "dtype": _dtype(v.dtype), "stride": None, "device": str(v.device)}
    return None


def _scalar(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)


def _leaf_names(probe) -> list[str]:
    """Display names of the user-input leaves, in placeholder order ('x', "batch['ids']")."""
    import torch
    import torch.utils._pytree as pytree

    args = probe.args or ()
    positions = [i for i, a in enumerate(args) if not isinstance(a, torch.nn.Module)]
    user_inputs = tuple(args[i] for i in positions)
    try:
        leaves, _ = pytree.tree_flatten_with_path(user_inputs)
    except Exception:
        return []
    out = []
    for path, _leaf in leaves:
        if not path:
            out.append("input")
            continue
        first = path[0]
        idx = getattr(first, "idx", None)
        base = probe.argnames[positions[idx]] if idx is not None and idx < len(positions) else "input"
        rest = pytree.keystr(tuple(path[1:])) if len(path) > 1 else ""
        out.append(base + rest)
    return out


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
    except Exception:  # noqa: BLE001 - a graph without names beats no graph
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


def extract_graph(probe) -> dict | None:
    """The report's "graph" object, or None when no graph was captured."""
    gm = probe.gm
    if gm is None:
        return None
    cap = probe.capture
    graph = gm.graph
    info = probe.info

    param_names = list(cap.param_names) if cap is not None else list(probe.param_names)
    buffer_names = list(cap.buffer_names) if cap is not None else list(probe.buffer_names)
    n_params, n_buffers = len(param_names), len(buffer_names)
    grad_indices = list(cap.grad_param_indices) if cap is not None else None

    # Every name a lifted tensor has (tied weights: several), qualified with the arg name.
    aliases: dict[int, list[str]] = {}
    for mi, n, uidx in probe.alias_entries:
        aliases.setdefault(uidx, []).append(_qualify(probe, n, mi))
    qual_params = [_qualify(probe, n) for n in param_names]
    qual_buffers = [_qualify(probe, n) for n in buffer_names]
    leaf_names = _leaf_names(probe)
    constants = _constant_names(probe)

    nodes_out: list[dict] = []
    ops: dict[str, int] = {}
    placeholders = 0
    output_roles: dict[str, list[dict]] = {}
    outputs_list: list[dict] = []
    output_node = None
    counts = {"forward": 0, "backward": 0}

    for node in graph.nodes:
        if node.op == "output":
            output_node = node
            break
    if output_node is not None:
        flat = output_node.args[0] if output_node.args else []
        if not isinstance(flat, (list, tuple)):
            flat = [flat]
        n_out = len(flat)
        n_grads = len(grad_indices) if grad_indices is not None else 0
        from torch.fx import Node

        for i, a in enumerate(flat):
            if grad_indices is None:
                role, param = None, None
            elif i >= n_out - n_grads:
                role = "gradient"
                k = i - (n_out - n_grads)
                pi = grad_indices[k]
                param = qual_params[pi] if pi < len(qual_params) else None
            else:
                role, param = "result", None
            entry = {"index": i, "role": role, "param": param}
            if isinstance(a, Node):
                entry_out = dict(entry, node=a.name)
                output_roles.setdefault(a.name, []).append(entry)
            else:
                entry_out = dict(entry, node=None, value=_scalar(a))
            outputs_list.append(entry_out)

    for node in graph.nodes:
        op = node.op
        d: dict[str, Any] = {
            "name": node.name,
            "op": op,
            "target": target_name(node),
            "inputs": [n.name for n in node.all_input_nodes],
        }
        val = node.meta.get("val")
        tm = _tensor_meta(val)
        if tm is not None:
            d.update(tm)
        elif isinstance(val, (list, tuple)):
            d["values"] = [_tensor_meta(v) or {"value": _scalar(v)} for v in val]
        elif val is not None and op != "output":
            d["value"] = _scalar(val)
        if op == "placeholder":
            i = placeholders
            placeholders += 1
            if i < n_params:
                d["kind"] = "parameter"
                d["param"] = param_names[i]
                d["qualname"] = qual_params[i]
                al = aliases.get(i, [])
                if len(al) > 1:
                    d["aliases"] = [a for a in al if a != qual_params[i]]
            elif i < n_params + n_buffers:
                j = i - n_params
                d["kind"] = "buffer"
                d["param"] = buffer_names[j]
                d["qualname"] = qual_buffers[j]
                al = aliases.get(i, [])
                if len(al) > 1:
                    d["aliases"] = [a for a in al if a != qual_buffers[j]]
            else:
                j = i - n_params - n_buffers
                d["kind"] = "input"
                d["qualname"] = leaf_names[j] if j < len(leaf_names) else f"input[{j}]"
        elif op == "get_attr":
            d["kind"] = "constant"
            _mark_constant(d, constants.get(node.name))
        elif op == "output":
            d["kind"] = "output"
        else:
            d["kind"] = "compute"
            if op == "call_function":
                t = d["target"]
                ops[t] = ops.get(t, 0) + 1
        ni = info.get(node)
        if ni is not None:
            d["source"] = {"file": ni.file, "line": ni.line} if ni.line is not None else None
            d["module"] = {"path": ni.module[0], "type": ni.module[1]} if ni.module else None
            d["phase"] = ni.phase
            if ni.phase in counts:
                counts[ni.phase] += 1
            if ni.forward is not None:
                d["backward_of"] = ni.forward.name
            if ni.trigger is not None and ni.trigger[1] is not None:
                d["trigger"] = {"file": ni.trigger[0], "line": ni.trigger[1]}
            if ni.param is not None and ni.param < len(qual_params):
                d["grad_of"] = qual_params[ni.param]
        else:
            d["source"] = None
            d["module"] = None
            d["phase"] = None
        roles = output_roles.get(node.name)
        if roles:
            d["output"] = roles
        nodes_out.append(d)

    modules = [{"path": p, "type": t} for p, t in probe.module_types.items()]
    return {
        "nodes": len(nodes_out),
        "inputs": placeholders,
        "outputs": len(outputs_list),
        "ops": dict(sorted(ops.items(), key=lambda kv: (-kv[1], kv[0]))),
        "parameters": n_params,
        "buffers": n_buffers,
        "user_inputs": max(placeholders - n_params - n_buffers, 0),
        "gradients": len(grad_indices) if grad_indices is not None else None,
        "forward_nodes": counts["forward"],
        "backward_nodes": counts["backward"],
        "complete": probe.capture is not None,
        "node_list": nodes_out,
        "output_list": outputs_list,
        "modules": modules,
    }
