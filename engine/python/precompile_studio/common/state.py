"""What a call of fn (or of its artifact) can leave behind in its arguments, and how to compare it.

- ``state_tensors``: by name, the gradients, buffers and parameters of the model arguments and
  the tensors among the other arguments (user inputs a call may mutate);
- ``compare_state``: those of eager's arguments against the artifact's, through verify's
  comparator; parameters only where a call could have changed them;
- ``Versions``: the version counters of every tensor of the arguments (and whether each
  parameter has a .grad), to tell afterwards whether a call wrote to any of them;
- ``graph_may_mutate``: whether the graph precompile captured writes to its inputs or computes
  gradients. A graph that does neither lets verification hand eager fn and the artifact the
  same arguments instead of two deep copies (checked afterwards with ``Versions``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

KINDS = ("grads", "buffers", "parameters", "inputs")


def arg_name(names: list[str], i: int) -> str:
    return names[i] if i < len(names) else f"arg{i}"


def state_tensors(args: tuple, names: list[str], parameters: bool = True) -> dict[str, dict[str, Any]]:
    """{kind: {name: tensor}}; a gradient that is None is kept as None (it is a fact too)."""
    import torch
    import torch.utils._pytree as pytree

    out: dict[str, dict[str, Any]] = {k: {} for k in KINDS}
    for i, a in enumerate(args):
        base = arg_name(names, i)
        if isinstance(a, torch.nn.Module):
            for n, p in a.named_parameters():
                key = f"{base}.{n}"
                if parameters:
                    out["parameters"][key] = p
                out["grads"][key] = p.grad
            for n, b in a.named_buffers():
                out["buffers"][f"{base}.{n}"] = b
            continue
        try:
            leaves, _ = pytree.tree_flatten_with_path(a)
        except Exception:  # noqa: BLE001 - an argument pytree cannot walk holds no state we compare
            continue
        for path, x in leaves:
            if isinstance(x, torch.Tensor):
                out["inputs"][base + pytree.keystr(path)] = x
    return out


def compare_state(eager_args: tuple, art_args: tuple, names: list[str], comparator: Callable[[Any, Any], dict],
                  parameters: bool = True) -> dict[str, list[dict]]:
    """Gradients, buffers, (parameters) and user-input tensors of eager's args against the artifact's."""
    e = state_tensors(eager_args, names, parameters)
    a = state_tensors(art_args, names, parameters)
    out: dict[str, list[dict]] = {k: [] for k in KINDS}
    for kind in KINDS:
        other = a[kind]
        for name, x in e[kind].items():
            if name not in other:
                continue
            y = other[name]
            if kind == "grads":
                if x is None and y is None:
                    continue
                if x is None or y is None:
                    out[kind].append({"name": name, "result": {
                        "ok": False,
                        "note": "eager left .grad None" if x is None else "the artifact left .grad None",
                    }})
                    continue
            out[kind].append({"name": name, "result": comparator(x, y)})
    return out


class Versions:
    """The version counter of every tensor of some arguments (and which parameters have a .grad).

    An in-place write (``add_``, ``copy_``, an optimizer step, BatchNorm's running statistics)
    bumps a tensor's version; setting ``.grad`` is seen through the grads. ``.data`` writes are
    not counted, but precompile traces them as in-place ops, so a graph with none has none.
    """

    def __init__(self, args: tuple, names: list[str]):
        self.names = names
        self.before = self._read(args)

    def _read(self, args: tuple) -> dict[tuple[str, str], tuple]:
        seen: dict[tuple[str, str], tuple] = {}
        for kind, tensors in state_tensors(args, self.names).items():
            for name, t in tensors.items():
                if kind == "grads":
                    seen[(kind, name)] = (t is not None, _version(t) if t is not None else None)
                elif t is not None:
                    seen[(kind, name)] = (_version(t),)
        return seen

    def changed(self, args: tuple) -> list[tuple[str, str]]:
        """(kind, name) of each tensor (or .grad) some call wrote since this was made."""
        now = self._read(args)
        return [key for key, v in now.items() if self.before.get(key) != v]


def _version(t) -> int | None:
    try:
        return t._version
    except RuntimeError:  # an inference tensor keeps no version counter (and cannot be written)
        return None


# Targets a graph may call that never write to their arguments.
_PURE_CALLABLES = ("_operator.", "operator.")


def _arg(node, i: int, arg):
    return node.args[i] if i < len(node.args) else node.kwargs.get(arg.name)


def _nodes_in(value) -> list:
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _nodes_in(v)]
    return [value]


def _trains(node, schema) -> bool:
    """BatchNorm in training mode updates its running statistics in place, yet its schema
    (aten.native_batch_norm) declares no write and the update bumps no version counter."""
    for i, arg in enumerate(schema.arguments):
        if arg.name in ("training", "train"):
            value = _arg(node, i, arg)
            return (arg.default_value if value is None and i >= len(node.args) else value) is not False
    return False


def graph_may_mutate(probe) -> bool | None:
    """True when the captured graph writes to an input (or a view of one) or computes gradients.

    In-place ops on the graph's own intermediates (``relu_`` after a convolution) write nothing
    the caller sees. None: the graph is not known.
    """
    import torch

    gm = getattr(probe, "gm", None) if probe is not None else None
    capture = getattr(probe, "capture", None) if probe is not None else None
    if gm is None or capture is None:
        return None
    if getattr(capture, "grad_param_indices", None):
        return True
    inputs: set = set()  # placeholders and the views of them
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            inputs.add(node)
            continue
        if node.op in ("output", "get_attr"):
            continue
        if node.op != "call_function":
            return True  # call_method / call_module: not what make_fx records; be careful
        target = node.target
        if isinstance(target, torch._ops.OpOverload):
            schema = target._schema
            for i, arg in enumerate(schema.arguments):
                info = arg.alias_info
                if info is not None and info.is_write and any(n in inputs for n in _nodes_in(_arg(node, i, arg))):
                    return True
            if _trains(node, schema):
                stats = [_arg(node, i, a) for i, a in enumerate(schema.arguments) if a.name.startswith("running_")]
                if any(n in inputs for v in stats for n in _nodes_in(v)):
                    return True
            if any(r.alias_info is not None for r in schema.returns):
                for i, arg in enumerate(schema.arguments):
                    if arg.alias_info is not None and any(n in inputs for n in _nodes_in(_arg(node, i, arg))):
                        inputs.add(node)
            continue
        mod = getattr(target, "__module__", "") or ""
        if not any((mod + ".").startswith(p) for p in _PURE_CALLABLES):
            return True  # a higher-order op or a Python callable: assume it may write
        if node.args and any(n in inputs for n in _nodes_in(node.args[0])):
            inputs.add(node)  # getitem of a view op's tuple of views
    return False
