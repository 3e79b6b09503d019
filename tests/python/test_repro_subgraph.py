"""[repro]'s cut of a captured ATen graph (precompile_studio/repro/subgraph.py): from a start
node forward, its inputs and outputs, shortened from the far end, and written as a plain function
that computes what the graph computed."""
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

from precompile_studio.repro.subgraph import cut, shorter, source


def _graph():
    def f(x, w, b):
        h = torch.addmm(b, x, w)
        g = torch.nn.functional.gelu(h)
        s = g.softmax(-1)
        side = x.sum()  # not downstream of the start
        return s * 2 + side, h

    args = (torch.randn(4, 8), torch.randn(8, 6), torch.randn(6))
    return make_fx(f)(*args), args, f


def test_a_cut_takes_the_start_and_what_reads_it_and_names_its_inputs_and_outputs():
    gm, _args, _f = _graph()
    names = [n.name for n in gm.graph.nodes]
    start = next(n for n in names if n.startswith("addmm"))
    c = cut(gm.graph, start, 3)
    assert c.names[0] == start and len(c.names) == 3
    assert [i.op for i in c.inputs] == ["placeholder"] * 3  # b, x, w
    assert not any(n.name.startswith("sum") for n in c.nodes)  # not downstream of the start
    # the start is read outside the cut (it is returned): an output; so is the far end
    assert c.outputs[0].name == start and c.outputs[-1] is c.nodes[-1]
    # shorter: from the far end, the inputs it no longer reads dropped
    one = shorter(c, 1)
    assert one.names == [start] and one.outputs == [one.nodes[0]]
    with pytest.raises(KeyError):
        cut(gm.graph, "no_such_node", 3)
    with pytest.raises(ValueError):
        cut(gm.graph, next(n.name for n in gm.graph.nodes if n.op == "placeholder"), 3)


def _values(gm, args) -> dict:
    """Every node's value in one run of the graph, by name."""
    kept = {}

    class Keep(torch.fx.Interpreter):
        def run_node(self, n):
            kept[n.name] = super().run_node(n)
            return kept[n.name]

    Keep(gm).run(*args)
    return kept


def test_the_written_function_computes_what_the_graph_computed():
    gm, args, _f = _graph()
    start = next(n.name for n in gm.graph.nodes if n.name.startswith("addmm"))
    c = cut(gm.graph, start, 10)
    # the far end reads a value made outside the cut (x.sum()): an input of the cut
    assert [i.name for i in c.inputs if i.op != "placeholder"] == ["sum_1"]
    text = source(c)
    assert text.startswith("def subgraph(") and "torch.ops.aten" in text
    space: dict = {"torch": torch}
    exec(compile(text, "<repro>", "exec"), space)
    values = _values(gm, args)
    got = space["subgraph"](*[values[i.name] for i in c.inputs])
    assert len(got) == len(c.outputs) == 2
    for value, node in zip(got, c.outputs):
        assert torch.equal(value, values[node.name]), node.name


def test_a_cut_with_a_factory_op_runs_in_a_repro_scripts_names():
    """FX writes device(type='cpu') for a factory op (where's 0.0): the script defines it."""
    from precompile_studio.repro import script as scripts

    def f(x):
        return torch.where(x > 0, x, 0.0).exp()

    x = torch.randn(4, 5)
    gm = make_fx(f)(x)
    start = next(n.name for n in gm.graph.nodes if n.name.startswith("where"))
    c = cut(gm.graph, start, 10, back=3)
    assert [i.name for i in c.inputs] == ["x_1"]
    header = scripts.Header("t", {}, "v")
    text = scripts.text(header, captured=source(c), eager=source(c, "subgraph_eager", "eager"),
                        float64=source(c, "subgraph_float64", "float64"), inputs=[i.name for i in c.inputs],
                        outputs=[o.name for o in c.outputs], backend="eager", seed=0)
    assert "device(type='cpu')" in text
    space = scripts.load(text)
    got = space["subgraph"](x)
    assert torch.equal(got[-1], f(x))
    rows = space["run"]([x])
    assert rows and not any(r[-1] for r in rows)  # the eager backend: within eager's band
