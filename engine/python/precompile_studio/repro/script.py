"""The text of a repro: ``repro.py`` beside ``inputs.pt``, needing nothing but torch.

The script runs the cut three ways -- in float64 (the reference), as eager computes it at the
run's dtype, and compiled with the run's backend -- prints each output's error against float64
as the studio's judge measures it (verify/accuracy.py: RMS of the difference over RMS of the
reference, over its finite elements, in float64) with eager's band (``multiplier`` times eager's
error plus a tenth of the dtype's relative tolerance), and exits 1 when a compiled error is
outside it, 0 when it no longer reproduces. The studio runs the same text (``load``) while it
shrinks the cut, so what it measured is what the script does.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from precompile_studio.common.compare import TOLERANCES
from precompile_studio.verify.accuracy import MULTIPLIER, SMALL


@dataclass
class Header:
    """What a bug report needs at the top of the script."""

    title: str                      # "numerics drift from native_batch_norm_backward_4 (model.layer4.0.bn1)"
    made_with: dict                 # versions where it was made: python, torch, triton, device
    verdict: str                    # the studio's verdict with its numbers (the judge's message)
    ops: list[str] = field(default_factory=list)         # "aten.mm.default x2"
    lines: list[str] = field(default_factory=list)       # per node: "mm_1  <- model.py:12 in forward <- ..."
    shrink: str = ""                # how it was shrunk


_JUDGE = '''
RTOL = @RTOL@
MULTIPLIER, SMALL = @MULTIPLIER@, @SMALL@


def error(value, reference):
    """RMS(value - reference) / RMS(reference) over the reference's finite elements, in float64."""
    v, r = value.detach().to(torch.float64), reference.detach().to(torch.float64)
    finite = torch.isfinite(r)
    if bool((finite & ~torch.isfinite(v)).any()):
        return math.inf
    if not bool(finite.all()):
        same = (torch.isnan(r) & torch.isnan(v)) | (r == v)
        if not bool(same[~finite].all()):
            return math.inf
        v, r = v[finite], r[finite]
    if r.numel() == 0:
        return 0.0

    def rms(t):
        return float(t.pow(2).sum().sqrt()) / math.sqrt(t.numel())

    err, scale = rms(v - r), rms(r)
    return err / scale if scale > 0 else err


def band(dtype, numel, eager_error):
    """The error eager's own allows: the studio's judge's band."""
    m = 3.0 if dtype in (torch.float16, torch.bfloat16) or numel < SMALL else MULTIPLIER
    return m * eager_error + RTOL.get(str(dtype).replace("torch.", ""), 0.0) / 10


def outside(err, eager_error, dtype, numel):
    if math.isinf(err):
        return not math.isinf(eager_error)
    return err > band(dtype, numel, eager_error)


def _copies(inputs, to64=False):
    out = []
    for x in inputs:
        if isinstance(x, torch.Tensor):
            x = x.clone()  # a graph may write into its inputs: each run starts from the saved values
            if to64 and x.is_floating_point():
                x = x.to(torch.float64)
        out.append(x)
    return out


def run(inputs):
    """[(output, dtype, elements, compiled error, eager error, band, outside)] for the floating outputs."""
    torch._dynamo.reset()
    with torch.no_grad():
        torch.manual_seed(SEED)
        reference = subgraph_float64(*_copies(inputs, to64=True))
        torch.manual_seed(SEED)
        eager = subgraph_eager(*_copies(inputs))
        compiled_fn = torch.compile(subgraph, backend=BACKEND)
        torch.manual_seed(SEED)
        compiled = compiled_fn(*_copies(inputs))
    rows = []
    for name, r, e, c in zip(OUTPUTS, reference, eager, compiled):
        if not (isinstance(e, torch.Tensor) and e.is_floating_point()):
            continue
        ee, ce = error(e, r), error(c, r)
        rows.append((name, str(e.dtype).replace("torch.", ""), e.numel(), ce, ee, band(e.dtype, e.numel(), ee),
                     outside(ce, ee, e.dtype, e.numel())))
    return rows


def _where():
    import platform

    try:
        import triton
        tri = triton.__version__
    except Exception:
        tri = None
    dev = torch.cuda.get_device_name(0) if torch.cuda.is_available() else platform.processor() or platform.machine()
    return f"python {platform.python_version()}, torch {torch.__version__}, triton {tri}, {dev}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    inputs = torch.load(os.path.join(here, "inputs.pt"))
    print(f"{TITLE}\\n  here: {_where()}\\n  backend: {BACKEND}")
    rows = run([inputs[name] for name in INPUTS])
    print(f"  {'output':<28} {'dtype':<9} {'elements':>9}  {'compiled':>9} {'eager':>9} {'band':>9}")
    for name, dtype, numel, ce, ee, b, out in rows:
        mark = "  OUTSIDE eager's band" if out else ""
        print(f"  {name:<28} {dtype:<9} {numel:>9}  {ce:>9.2g} {ee:>9.2g} {b:>9.2g}{mark}")
    if any(r[-1] for r in rows):
        print("reproduces: the compiled error is outside eager's band (exit 1)")
        return 1
    print("does not reproduce here: every compiled error is within eager's band (exit 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''


def text(header: Header, *, captured: str, eager: str, float64: str, inputs: list[str], outputs: list[str],
         backend: str, seed: int) -> str:
    """The whole script. ``captured``/``eager``/``float64``: ``source`` of the cut in each mode
    (the same text is written once)."""
    def doc_lines(title: str, lines: list[str]) -> str:
        return f"{title}\n" + "".join(f"    {ln}\n" for ln in lines) if lines else ""

    made = ", ".join(f"{k} {v}" for k, v in header.made_with.items())
    doc = (f"{header.title}\n\n"
           f"Made with: {made}\n"
           + textwrap.fill(f"The studio's verdict: {header.verdict}", 100, subsequent_indent="    ") + "\n"
           + (f"Shrunk: {header.shrink}\n" if header.shrink else "")
           + "\n" + doc_lines("Ops:", header.ops)
           + doc_lines("Where the nodes come from (innermost frame first):", header.lines)
           + "\nRun: python repro.py  (needs only torch; inputs.pt beside it). Exit 1: the compiled error\n"
             "is outside eager's band (it reproduces); 0: it does not; 2: it could not run.\n")
    doc = doc.replace('"""', "'''").replace("\\", "\\\\")
    parts = [f'"""{doc}"""',
             "import math\nimport os\nimport sys\nfrom math import inf, nan  # noqa: F401 - constants FX may write\n\n"
             "import torch\nfrom torch import device  # noqa: F401 - FX writes device(type='cpu')\n",
             f"TITLE = {header.title!r}\nBACKEND = {backend!r}\nSEED = {seed!r}\n"
             f"INPUTS = {inputs!r}\nOUTPUTS = {outputs!r}\n"]
    parts.append(captured)
    parts.append(eager if eager != _renamed(captured, "subgraph_eager") else "subgraph_eager = subgraph\n")
    parts.append(float64 if float64 != _renamed(captured, "subgraph_float64") else "subgraph_float64 = subgraph\n")
    rtol = {k: v[1] for k, v in TOLERANCES.items() if not k.startswith("complex")}
    judge = _JUDGE
    for key, value in (("@RTOL@", rtol), ("@MULTIPLIER@", MULTIPLIER), ("@SMALL@", SMALL)):
        judge = judge.replace(key, repr(value))
    parts.append(textwrap.dedent(judge).lstrip("\n"))
    return "\n\n".join(p.rstrip("\n") + "\n" for p in parts)


def _renamed(src: str, name: str) -> str:
    return src.replace("def subgraph(", f"def {name}(", 1)


def load(script_text: str) -> dict:
    """The script's names (``run``, ``INPUTS``...), as ``python repro.py`` would define them."""
    space: dict = {"__name__": "precompile_studio_repro", "__file__": "repro.py"}
    exec(compile(script_text, "repro.py", "exec"), space)  # noqa: S102 - the text the studio just wrote
    return space
