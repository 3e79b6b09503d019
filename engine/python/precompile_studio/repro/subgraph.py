"""The piece of a captured ATen graph a repro runs: from a drift start forward.

A cut is a run of the graph's own nodes, in graph order: the start node, then every node that
reads (transitively) what the cut computed, up to a number of compute nodes. What the cut reads
from outside it are its inputs; what it computes that the rest of the graph (or nobody) reads
are its outputs. ``source`` writes the cut as a plain Python function over ``torch.ops.aten`` that
needs nothing but torch.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Cut:
    """Nodes of one graph (``nodes`` in graph order), what they read from outside (``inputs``) and
    the values they give (``outputs``)."""

    nodes: list = field(default_factory=list)
    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [n.name for n in self.nodes]


def _computes(node) -> bool:
    return node.op == "call_function"


def cut(graph, start: str, max_nodes: int) -> Cut:
    """The cut from the node named ``start``: it and the nodes downstream of it, at most
    ``max_nodes`` of them that compute. Raises KeyError for a name the graph does not hold and
    ValueError for a start that computes nothing (a placeholder, the output)."""
    nodes = list(graph.nodes)
    by_name = {n.name: n for n in nodes}
    first = by_name[start]
    if not _computes(first):
        raise ValueError(f"{start} is a {first.op}, not a node that computes")
    if max_nodes < 1:
        raise ValueError("a cut holds at least one node")
    taken: list = []
    inside: set = set()
    for n in nodes[nodes.index(first):]:
        if len(taken) == max_nodes:
            break
        if n is first or (_computes(n) and any(i in inside for i in n.all_input_nodes)):
            taken.append(n)
            inside.add(n)
    inputs: list = []
    for n in taken:
        for i in n.all_input_nodes:
            if i not in inside and i not in inputs:
                inputs.append(i)
    # A value of the cut is an output when something outside the cut reads it, or when nothing
    # in it does (the far end); getitems of a multi-output node stand for it.
    outputs = [n for n in taken
               if any(u not in inside for u in n.users) or not any(u in inside for u in n.users)]
    return Cut(nodes=taken, inputs=inputs, outputs=outputs)


def shorter(c: Cut, keep: int) -> Cut:
    """The same cut with only its first ``keep`` nodes (dropped from the far end)."""
    if keep >= len(c.nodes):
        return c
    if keep < 1:
        raise ValueError("a cut holds at least one node")
    head = c.nodes[:keep]
    inside = set(head)
    inputs = [i for i in c.inputs if any(i in n.all_input_nodes for n in head)]
    outputs = [n for n in head if any(u not in inside for u in n.users) or not any(u in inside for u in n.users)]
    return Cut(nodes=head, inputs=inputs, outputs=outputs)


def source(c: Cut, name: str = "subgraph") -> str:
    """``def NAME(in_0, ...): ... return (out_0, ...)``: the cut's nodes as FX writes them, over
    ``torch.ops.aten`` and ``operator``, parameters named after the graph's own nodes."""
    import torch.fx as fx

    g = fx.Graph()
    env: dict[Any, Any] = {}
    for i in c.inputs:
        p = g.placeholder(i.name)
        p.meta = dict(i.meta)
        env[i] = p
    for n in c.nodes:
        env[n] = g.node_copy(n, lambda x: env[x])
    g.output(tuple(env[o] for o in c.outputs))
    code = g.python_code(root_module="self").src
    # FX writes a method: `def forward(self, a, b):`; a repro wants a plain function.
    code = code.replace("def forward(self, ", f"def {name}(", 1).replace("def forward(self):", f"def {name}():", 1)
    return code.strip() + "\n"
