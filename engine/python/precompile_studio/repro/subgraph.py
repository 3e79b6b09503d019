"""The piece of a captured ATen graph a repro runs: from a drift start forward.

A cut is a run of the graph's own nodes, in graph order: the start node, then every node that
reads (transitively) what the cut computed, up to a number of ops. Two kinds of node come with
the ops without counting as one: the elements (``getitem``) of an op of several outputs, and the
floating casts that feed an op (a decomposition's ``.to(float16)`` before a matmul is the cause of
the drift at that matmul, so the repro must hold it). What the cut reads from outside it are its
inputs; what it computes that the rest of the graph (or nobody) reads are its outputs.

``source`` writes the cut as a plain Python function over ``torch.ops.aten`` that needs nothing
but torch, three ways: as captured (what the backend compiles), as eager computes it (a narrowing
floating cast replaced by a copy, as eager fn has none: localise's eager mode), and in float64
(every floating dtype it names made float64: the reference).
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

MODES = ("captured", "eager", "float64")
# The names a repro script defines for the code FX writes (script.py's imports; FX's own builtins).
SCRIPT_NAMES = {"torch", "inf", "nan", "device", "math", "os", "sys", "getattr", "NoneType", "operator", "builtins",
                "fx_pytree", "pytree"}


@dataclass
class Cut:
    """Nodes of one graph (``nodes`` in graph order), what they read from outside (``inputs``) and
    the values they give (``outputs``); ``graph`` and ``start`` make it again at another size."""

    graph: Any = None
    start: str = ""
    nodes: list = field(default_factory=list)
    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    brought: set = field(default_factory=set)  # the nodes brought in behind the ops (casts...)
    bring: Any = None
    back: int = 0

    @property
    def names(self) -> list[str]:
        return [n.name for n in self.nodes]

    @property
    def computing(self) -> list:
        """Every node of the cut that computes, brought ones too (not the elements of another's outputs)."""
        return [n for n in self.nodes if _computes(n) and not _is_item(n)]

    @property
    def ops(self) -> list:
        """The nodes that count: neither an element of another's outputs nor a cast brought in."""
        return [n for n in self.nodes if _computes(n) and not _is_item(n) and n not in self.brought]


def _computes(node) -> bool:
    return node.op == "call_function"


def _is_item(node) -> bool:
    return node.target is operator.getitem


def is_cast(node) -> bool:
    import torch

    return node.op == "call_function" and node.target in (
        torch.ops.aten._to_copy.default, torch.ops.prims.convert_element_type.default)


def _several(node) -> bool:
    """A node whose value is a tuple or list (native_batch_norm_backward): its elements stand for it."""
    return isinstance(node.meta.get("val"), (tuple, list))


def _behind(nodes: list, inside: set, bring, limit: int, depth: int | None = None) -> list:
    """The nodes behind ``nodes`` (what they read, transitively through nodes brought) that
    ``bring`` says come with them, nearest first, at most ``limit`` (and ``depth`` steps)."""
    found: list = []
    seen: set = set(inside)
    todo = [(n, 0) for n in nodes]
    while todo and len(found) < limit:
        n, d = todo.pop(0)
        if depth is not None and d >= depth:
            continue
        for i in n.all_input_nodes:
            if i in seen:
                continue
            seen.add(i)
            if _computes(i) and bring(i):
                found.append(i)
                todo.append((i, d + 1))
                if len(found) == limit:
                    break
    return found


def cut(graph, start: str, max_ops: int, bring=None, max_brought: int = 64, back: int = 0) -> Cut:
    """The cut from the node named ``start``: it and the nodes downstream of it, at most
    ``max_ops`` ops, with the nodes behind them that ``bring`` says come along (default: the
    floating casts; the repro brings too what localise could not compare, since where the drift
    starts may lie there), at most ``max_brought``; ``back``: also every node that computes within
    that many steps behind the start (where a drift that starts at the start is made upstream of it:
    a ReLU's mask flipped by a forward's rounding shows in the backward's sums). The first k ops of
    a cut are the cut of k ops.
    Raises KeyError for a name the graph does not hold and ValueError for a start that computes
    nothing (a placeholder, the output) or is itself an element of another node's outputs."""
    nodes = list(graph.nodes)
    by_name = {n.name: n for n in nodes}
    first = by_name[start]
    if not _computes(first):
        raise ValueError(f"{start} is a {first.op}, not a node that computes")
    if _is_item(first):
        raise ValueError(f"{start} is an element of {first.args[0]}; start there")
    if max_ops < 1:
        raise ValueError("a cut holds at least one op")
    taken: set = set()
    ops = 0
    for n in nodes[nodes.index(first):]:
        if not (n is first or (_computes(n) and any(i in taken for i in n.all_input_nodes))):
            continue
        if _is_item(n):
            if n.args[0] in taken:
                taken.add(n)
            continue
        if ops == max_ops:
            break
        ops += 1
        taken.add(n)
    brought: set = set(_behind([first], taken, lambda n: True, max_brought, back)) if back > 0 else set()
    taken.update(brought)
    order = {n: i for i, n in enumerate(nodes)}
    while True:
        more = _behind(sorted(taken, key=order.__getitem__), taken, bring or is_cast, max_brought - len(brought))
        # an element of a node inside that something inside reads comes too
        more += [i for n in taken for i in n.all_input_nodes
                 if _is_item(i) and i.args[0] in taken and i not in taken and i not in more]
        if not more:
            break
        brought.update(more)
        taken.update(more)
    inside = sorted(taken, key=order.__getitem__)
    inputs: list = []
    for n in inside:
        for i in n.all_input_nodes:
            if i not in taken and i not in inputs:
                inputs.append(i)
    # A value of the cut is an output when something outside the cut reads it, or when nothing in
    # it does (the far end); a node of several values is given by its elements, a cast brought in
    # by what reads it.
    outputs = [n for n in inside
               if not _several(n) and n not in brought
               and (any(u not in taken for u in n.users) or not any(u in taken for u in n.users))]
    return Cut(graph=graph, start=start, bring=bring, back=back, nodes=inside, inputs=inputs, outputs=outputs,
               brought=brought)


def shorter(c: Cut, keep: int) -> Cut:
    """The same cut with only its first ``keep`` ops (dropped from the far end)."""
    if keep >= len(c.ops):
        return c
    return cut(c.graph, c.start, keep, c.bring, back=c.back)


def _float_dtype(v) -> bool:
    import torch

    return isinstance(v, torch.dtype) and v.is_floating_point


def _narrows(node) -> bool:
    """A cast to a narrower floating dtype than its input's (as the capture saw them)."""
    import torch

    src = node.all_input_nodes[0].meta.get("val") if node.all_input_nodes else None
    dst = node.meta.get("val")
    return (isinstance(src, torch.Tensor) and isinstance(dst, torch.Tensor) and src.is_floating_point()
            and dst.is_floating_point() and dst.dtype.itemsize < src.dtype.itemsize)


def source(c: Cut, name: str = "subgraph", mode: str = "captured") -> str:
    """``def NAME(in_0, ...): ... return (out_0, ...)``: the cut's nodes as FX writes them, over
    ``torch.ops.aten`` and ``operator``, parameters named after the graph's own nodes. ``mode``:
    one of MODES."""
    import torch
    import torch.fx as fx

    if mode not in MODES:
        raise ValueError(f"mode is one of {MODES}, not {mode!r}")
    g = fx.Graph()
    env: dict[Any, Any] = {}

    def as64(v):
        return torch.float64 if _float_dtype(v) else v

    for i in c.inputs:
        p = g.placeholder(i.name)
        p.meta = dict(i.meta)
        env[i] = p
    for n in c.nodes:
        if mode == "eager" and is_cast(n) and _narrows(n):
            env[n] = g.call_function(torch.ops.aten.clone.default, (env[n.all_input_nodes[0]],))
            continue
        new = g.node_copy(n, lambda x: env[x])
        if mode == "float64":
            new.args = tuple(as64(a) for a in new.args)
            new.kwargs = {k: as64(v) for k, v in new.kwargs.items()}
        env[n] = new
    g.output(tuple(env[o] for o in c.outputs))
    written = g.python_code(root_module="self")
    unknown = set(written.globals) - SCRIPT_NAMES
    if unknown:
        raise ValueError(f"the cut's code needs {', '.join(sorted(unknown))}, which a plain-torch script does "
                         "not define")
    code = written.src
    # FX writes a method: `def forward(self, a, b):`; a repro wants a plain function.
    code = code.replace("def forward(self, ", f"def {name}(", 1).replace("def forward(self):", f"def {name}():", 1)
    return code.strip() + "\n"
