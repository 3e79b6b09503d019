"""``library repro``: from where a drift starts to the smallest script that shows it in plain torch.

Made in the worker right after a capture is verified again (its captured graph, example inputs
and verdict in hand): the cut of the graph from the drift start (subgraph.py) grows 1, 2, 4 ...
ops until the compiled error leaves eager's band (the divergence is established), then drops ops
from its far end and halves its inputs (fewer rows or channels, where the ops allow) while it
still does, within a budget; the smallest that reproduces is written (script.py) and run once
in a fresh Python process that has nothing but torch, and only a script that exits 1 there is
kept. Where no cut reproduces it, the section says why and no script is left.

The section (the report's ``repro``): status ``written`` or ``none``, reason, start, the files,
ops and elements kept, the graph's size, the shrink's steps and seconds, and the fresh run's
exit and output.
"""
from __future__ import annotations

import itertools
import logging
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from precompile_studio.common import internal_errors
from precompile_studio.common.calls import fresh_copy
from precompile_studio.common.outcomes import Judgement
from precompile_studio.repro import script as scripts
from precompile_studio.repro.subgraph import Cut, cut, is_cast, shorter, source
from precompile_studio.verify.accuracy import _num

FORWARD = 16          # the most ops a cut holds forward of the start
BACK = 16             # the most steps behind the start it reaches back
MIN_SIZE = 4          # a dimension is not narrowed below this
BUDGET_S = 120.0      # the shrink's default budget (--budget)
FRESH_S = 300.0       # the fresh process that confirms it: an import of torch and one compile


def none(reason: str, **extra) -> dict:
    return {"status": "none", "reason": reason, **extra}


# --------------------------------------------------------------------------- what can be reproduced
def refusal(verify: dict | None) -> str | None:
    """Why this capture's verification gives nothing to reproduce; None when it does."""
    verify = verify or {}
    acc = verify.get("accuracy") or {}
    verdict = acc.get("verdict")
    runtime = verify.get("runtime") or {}
    if verdict in (Judgement.DRIFT, Judgement.WRONG):
        return None
    if runtime.get("status") == "violation":
        rule = (runtime.get("violation") or {}).get("rule") or "a guard"
        return (f"the artifact rejected the runtime inputs ({rule}): a rejection is a guard of the whole "
                "artifact on its inputs, which no subgraph of the captured graph raises; the violation's "
                "fix says what to change")
    if verdict == Judgement.MATCHES:
        return ("the run's verdict is matches: the artifact's numbers are within eager's band against "
                "float64, so there is no divergence to reproduce")
    if not verify.get("ran", True) or verdict is None:
        why = verify.get("reason") or acc.get("message") or verify.get("status") or "it was not verified"
        return f"the capture has no accuracy verdict to reproduce ({why})"
    return f"the run's verdict is {verdict}: nothing to reproduce"


def _start(gm, acc: dict, node: str | None) -> str:
    """The node the cut starts from: the one asked, else the first drift start; an element of a
    node of several outputs (getitem_88) is named by that node."""
    import operator

    by_name = {n.name: n for n in gm.graph.nodes}
    name = node or next(iter(acc.get("drift_starts") or []), None)
    if name is None:
        raise LookupError("the verification named no drift start (localise: "
                          f"{(acc.get('localise') or {}).get('reason') or (acc.get('localise') or {}).get('status')})")
    n = by_name.get(name)
    if n is None:
        raise LookupError(f"no node {name} in the captured graph ({len(by_name)} nodes)")
    if n.target is operator.getitem and n.args and hasattr(n.args[0], "name"):
        n = n.args[0]
    if n.op != "call_function":
        raise LookupError(f"{name} is a {n.op}, not a node that computes")
    return n.name


def _random(c: Cut) -> str | None:
    import torch

    for n in c.computing:
        if torch.Tag.nondeterministic_seeded in getattr(n.target, "tags", ()):
            return n.name
    return None


# --------------------------------------------------------------------------- the cut's inputs
def input_values(gm, snapshot: tuple, seed: int, wanted: set[str]) -> dict:
    """The values of the graph's nodes named in ``wanted`` in one run of the graph as eager fn
    computes it (localise's eager mode: at the run's dtype, narrowing casts left out), each a
    detached copy; the other values freed after their last use."""
    import torch

    from precompile_studio.verify.localise import _Runner, flat_inputs

    nodes = list(gm.graph.nodes)
    last_use: dict = {}
    for n in nodes:
        for i in n.all_input_nodes:
            last_use[i] = n
    runner = _Runner(gm, flat_inputs(fresh_copy(snapshot)), "eager")
    kept: dict = {}
    torch.manual_seed(seed)
    with torch.no_grad():
        for n in nodes:
            if len(kept) == len(wanted):
                break
            v = runner.run(n)
            if n.name in wanted:
                kept[n.name] = v.detach().clone() if isinstance(v, torch.Tensor) else v
            for i in n.all_input_nodes:
                if last_use.get(i) is n:
                    runner.free(i)
    missing = wanted - kept.keys()
    if missing:
        raise LookupError(f"the run of the graph gave no value for {sorted(missing)[:3]}")
    return kept


# --------------------------------------------------------------------------- one candidate
class Trial:
    """A cut and its inputs, as a script; ``rows`` once run."""

    def __init__(self, c: Cut, values: dict, header: scripts.Header, backend: str, seed: int):
        self.cut, self.values = c, values
        self.names = [i.name for i in c.inputs]
        self.text = scripts.text(
            header, captured=source(c, "subgraph"), eager=source(c, "subgraph_eager", "eager"),
            float64=source(c, "subgraph_float64", "float64"), inputs=self.names,
            outputs=[o.name for o in c.outputs], backend=backend, seed=seed)
        self.rows: list | None = None
        self.error: str | None = None
        self.reshaped = any(getattr(values.get(i.name), "shape", None) != getattr(i.meta.get("val"), "shape", None)
                            for i in c.inputs)

    def run(self) -> bool:
        """Whether it reproduces (a compiled error outside eager's band). Inputs of shapes the
        capture did not see are first run on fake tensors: an ATen kernel given sizes that do not
        fit each other may write out of bounds instead of raising."""
        try:
            space = scripts.load(self.text)
            inputs = [self.values[n] for n in self.names]
            if self.reshaped:
                fits(space["subgraph_eager"], inputs)
            self.rows = space["run"](inputs)
        except Exception as e:  # noqa: BLE001 - a candidate that cannot run does not reproduce
            self.error = f"{type(e).__name__}: {str(e)[:200]}"
            return False
        return any(r[-1] for r in self.rows)

    @property
    def elements(self) -> int:
        import torch

        return sum(v.numel() for n, v in self.values.items() if n in self.names and isinstance(v, torch.Tensor))


def fits(fn, inputs: list) -> None:
    """Runs ``fn`` on fake tensors of the inputs' shapes (meta kernels check sizes); raises
    ValueError where the shapes do not fit the ops."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    quiet = logging.getLogger("torch._subclasses.fake_tensor")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # it logs each refusal's traceback: a refusal is the answer here
    try:
        with FakeTensorMode() as mode:
            fn(*[mode.from_tensor(v) if isinstance(v, torch.Tensor) else v for v in inputs])
    except Exception as e:  # noqa: BLE001 - any refusal means these shapes do not fit
        raise ValueError(f"the ops do not take inputs of these shapes ({type(e).__name__})") from None
    finally:
        quiet.setLevel(level)


def narrowed(values: dict, names: list[str], name: str, dim: int, together: bool) -> dict | None:
    """The inputs with input ``name`` halved along ``dim`` (its first half); ``together``: every
    other input with a dimension of that size halved along its first such dimension with it (the
    channels of an activation and of its norm's weight and statistics). None where that would leave fewer
    than MIN_SIZE (a repro of one element shows rounding, not the pattern a bug report needs)."""
    import torch

    t = values[name]
    if not isinstance(t, torch.Tensor) or dim >= t.dim() or t.shape[dim] < 2 * MIN_SIZE:
        return None
    size = t.shape[dim]
    out = dict(values)
    out[name] = t.narrow(dim, 0, size // 2).clone()
    for n in names if together else []:
        v = values[n]
        if n != name and isinstance(v, torch.Tensor) and size in v.shape:
            out[n] = v.narrow(list(v.shape).index(size), 0, size // 2).clone()
    return out


def _same(a: dict, b: dict | None) -> bool:
    """Whether two narrowings give the same shapes (trying the second would repeat the first)."""
    return b is not None and all(getattr(a[k], "shape", None) == getattr(b[k], "shape", None) for k in a)


def _size(c: Cut) -> str:
    """'3 ops', '27 ops (4 steps back)'."""
    n = len(c.computing)  # what the script runs: the nodes brought from behind too
    words = f"{n} op{'s' if n != 1 else ''}"
    if c.back:
        words += f" ({c.back} steps back)"
    return words


def candidates(graph, start: str, bring=None):
    """The cuts grow tries, in order: forward 1, 2, 4 ... FORWARD ops, then the start with 1, 2,
    4 ... BACK steps behind it; each only when it holds more than the one before."""
    last = None
    k = 1
    while k <= FORWARD:
        c = cut(graph, start, k, bring)
        if last is None or len(c.ops) > len(last.ops):
            yield c
        last = c
        k *= 2
    last = None
    d = 1
    while d <= BACK:
        c = cut(graph, start, 1, bring, back=d)
        if last is None or len(c.nodes) > len(last.nodes):
            yield c
        last = c
        d *= 2


# --------------------------------------------------------------------------- the search
class Search:
    """Grow, then shrink, within ``budget`` seconds; ``on_step`` hears each step in words."""

    def __init__(self, make: Callable[[Cut, dict], Trial], budget: float, on_step: Callable[[str], None]):
        self.make, self.budget, self.on_step = make, budget, on_step
        self.t0 = time.perf_counter()
        self.steps = 0
        self.errors = 0  # trials that could not run (their last error kept)
        self.last_error: str | None = None

    def left(self) -> float:
        return self.budget - (time.perf_counter() - self.t0)

    def tries(self, c: Cut, values: dict) -> Trial | None:
        """The trial when it reproduces."""
        self.steps += 1
        t = self.make(c, values)
        ok = t.run()
        if t.error:
            self.errors += 1
            self.last_error = t.error
        self.on_step(f"{_size(c)}, {t.elements} input elements: "
                     + ("reproduces" if ok else "does not reproduce" + (f" ({t.error})" if t.error else "")))
        return t if ok else None

    def grow(self, graph, start: str, values: Callable[[Cut], dict], bring=None) -> tuple[Trial | None, str]:
        """The first cut that reproduces: forward from the start 1, 2, 4 ... ops, then back from
        it 1, 2, 4 ... steps; and why none did."""
        tried: list[str] = []
        why = ""
        for c in candidates(graph, start, bring):
            rand = _random(c)
            if rand:
                why = (f"a larger cut would hold {rand}, a random op whose numbers differ between eager and a "
                       "compiled run")
                continue
            tried.append(_size(c))
            found = self.tries(c, values(c))
            if found is not None:
                return found, ""
            if self.left() <= 0:
                return None, f"the budget ran out after {', '.join(tried)}"
        return None, f"tried {', '.join(tried) or 'nothing'}" + (f"; {why}" if why else "")

    def shrink(self, best: Trial, values: Callable[[Cut], dict]) -> Trial:
        """Ops dropped from the far end, then steps back, then inputs halved, while it
        reproduces; the last that did."""
        while len(best.cut.ops) > 1 and self.left() > 0:
            c = shorter(best.cut, len(best.cut.ops) - 1)
            found = self.tries(c, values(c))
            if found is None:
                break
            best = found
        lo = best.cut.back // 2  # the last back that did not reproduce (grow doubles it)
        while best.cut.back - lo > 1 and self.left() > 0:
            mid = (lo + best.cut.back) // 2
            c = cut(best.cut.graph, best.cut.start, len(best.cut.ops), best.cut.bring, back=mid)
            found = self.tries(c, values(c))
            if found is None:
                lo = mid
            else:
                best = found
        # halving an indexed tensor leaves indices past its end: no narrowing where indices come in
        progress = not any(getattr(best.values[n], "dtype", None) is not None
                           and not (best.values[n].is_floating_point() or best.values[n].is_complex())
                           for n in best.names)
        while progress and self.left() > 0:
            progress = False
            order = sorted(best.names, key=lambda n: -getattr(best.values[n], "numel", lambda: 0)())
            for name in order:
                for dim, together in itertools.product(range(getattr(best.values[name], "dim", lambda: 0)()),
                                                       (False, True)):
                    if self.left() <= 0:
                        return best
                    smaller = narrowed(best.values, best.names, name, dim, together)
                    if smaller is None or (together and _same(smaller, narrowed(best.values, best.names, name,
                                                                                  dim, False))):
                        continue
                    found = self.tries(best.cut, smaller)
                    if found is not None:
                        best, progress = found, True
                        break
                if progress:
                    break
        return best


# --------------------------------------------------------------------------- the header
def _made_with() -> dict:
    import torch

    try:
        import triton
        tri = triton.__version__
    except Exception:  # noqa: BLE001 - no Triton (a CPU build)
        tri = None
    dev = torch.cuda.get_device_name(0) if torch.cuda.is_available() else (
        f"CPU {platform.processor() or platform.machine()}")
    return {"python": platform.python_version(), "torch": torch.__version__, "triton": tri, "device": dev}


def _ops(c: Cut) -> list[str]:
    counts: dict[str, int] = {}
    for n in c.nodes:
        if n.op == "call_function":
            name = str(n.target).replace("aten::", "aten.") if "aten" in str(n.target) else getattr(
                n.target, "__name__", str(n.target))
            counts[name] = counts.get(name, 0) + 1
    return [f"{k}" + (f" x{v}" if v > 1 else "") for k, v in counts.items()]


def _is_view(node) -> bool:
    schema = getattr(node.target, "_schema", None)
    return schema is not None and any(r.alias_info is not None and not r.alias_info.is_write for r in schema.returns)


def _lines(c: Cut, probe) -> list[str]:
    """Per op (views left out): where it came from, innermost frame first, library frames too, to
    the script's line (a long stack keeps its two innermost and two outermost frames)."""
    out = []
    info = getattr(probe, "info", None) or {}
    script = os.path.abspath(getattr(probe, "script_path", "") or "")
    for n in c.computing:
        if _is_view(n):
            continue
        ni = info.get(n)
        frames = []
        for file, line, function, _module in getattr(ni, "stack", None) or ():
            frames.append(f"{os.path.basename(file)}:{line} in {function}")
            if script and os.path.abspath(file) == script:
                break
        if len(frames) > 5:
            frames = [*frames[:2], "...", *frames[-2:]]
        if not frames and ni is not None and getattr(ni, "line", None):
            frames.append(f"{os.path.basename(ni.file)}:{ni.line}")
        where = " <- ".join(frames) if frames else "no source line recorded"
        trigger = getattr(ni, "trigger", None)
        if trigger and trigger[1]:
            where += f" (its backward, from {os.path.basename(trigger[0])}:{trigger[1]})"
        out.append(f"{n.name}: {where}")
    return out


# --------------------------------------------------------------------------- the fresh process
def run_fresh(folder: str, timeout: float = FRESH_S) -> dict:
    """``python repro.py`` in a fresh process of this environment with nothing of the studio on
    its path: {exit, seconds, output}."""
    import torch

    if torch.cuda.is_available():
        torch.cuda.empty_cache()  # the child's tensors need the GPU memory the trials held
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-I", "repro.py"], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"exit": None, "seconds": round(time.perf_counter() - t0, 3),
                "output": f"the fresh process did not finish in {timeout:.0f} s"}
    except OSError as e:
        return {"exit": None, "seconds": 0.0, "output": f"the fresh process could not start: {e}"}
    text = (proc.stdout + proc.stderr).strip()
    return {"exit": proc.returncode, "seconds": round(time.perf_counter() - t0, 3), "output": text[-4000:]}


def _write(folder: str, trial: Trial) -> None:
    import torch

    with open(os.path.join(folder, "repro.py"), "w", encoding="utf-8") as f:
        f.write(trial.text)
    torch.save({n: trial.values[n] for n in trial.names}, os.path.join(folder, "inputs.pt"))


# --------------------------------------------------------------------------- the whole
def make_repro(rec, request: dict, on_step: Callable[[str], None] = lambda words: None) -> dict:
    """The report's ``repro`` for a verified capture record (capture/runner.py's CaptureRecord):
    ``request``: {"dir", "node" (optional), "budget" (seconds)}."""
    t0 = time.perf_counter()
    why = refusal(rec.verify)
    if why:
        return none(why)
    gm = getattr(rec.probe, "gm", None)
    if gm is None or rec.snapshot is None:
        return none("the captured graph or the example inputs were not kept, so there is nothing to cut")
    acc = rec.verify["accuracy"]
    seed = rec.verify.get("seed") or 0
    try:
        start = _start(gm, acc, request.get("node"))
    except LookupError as e:
        return none(str(e))
    budget = float(request.get("budget") or BUDGET_S)
    verdict = acc.get("message") or acc.get("verdict") or ""
    graph_ops = len(Cut(nodes=list(gm.graph.nodes)).computing)

    # the values every cut up to MAX_OPS may read, from one run of the graph
    on_step(f"running the graph to {start} for the cut's inputs")
    # what localise could not compare comes with the cut: where the drift starts may lie there
    observed = {e.get("node") for e in acc.get("nodes") or [] if isinstance(e, dict)}

    def bring(n) -> bool:
        return is_cast(n) or (bool(observed) and n.name not in observed)

    # every cut grow tries, and those the shrink may (every step back up to BACK)
    wanted: set[str] = set()
    for c in [*candidates(gm.graph, start, bring), *(cut(gm.graph, start, 1, bring, back=d) for d in range(1, BACK))]:
        wanted.update(i.name for i in c.inputs)
    try:
        values = input_values(gm, rec.snapshot, seed, wanted)
    except Exception as e:  # noqa: BLE001 - said in the section, the run stands
        internal_errors.record("repro: the cut's inputs", e)
        return none(f"the graph could not be run to {start}: {type(e).__name__}: {e}")

    def values_of(c: Cut) -> dict:
        """The values, with any input of ``c`` not yet run for added (one more run of the graph)."""
        missing = {i.name for i in c.inputs} - values.keys()
        if missing:
            values.update(input_values(gm, rec.snapshot, seed, missing))
        return values

    made = _made_with()
    script = os.path.basename(rec.context.script_path) if rec.context and rec.context.script_path else ""
    title_of = f"{acc.get('verdict')} from {start}" + (f" in {script}" if script else "")

    def header(c: Cut, shrink: str = "") -> scripts.Header:
        return scripts.Header(title=title_of, made_with=made, verdict=verdict, ops=_ops(c),
                              lines=_lines(c, rec.probe), shrink=shrink)

    def make(c: Cut, vals: dict) -> Trial:
        return Trial(c, vals, header(c), str(rec.backend), seed)

    search = Search(make, budget, on_step)
    found, why = search.grow(gm.graph, start, values_of, bring)
    if found is None:
        ran = search.steps - search.errors
        if search.left() <= 0:
            words = (f"no cut around {start} reproduced it before the budget ran out ({why}); a larger --budget "
                     "tries larger cuts")
        elif ran == 0:
            words = f"no cut around {start} could be run ({why})"
        else:
            words = (f"no cut around {start} reproduces it: {ran} of {search.steps} gave compiled errors within "
                     f"eager's band ({why}); the divergence needs more of the graph (a backend may fuse the whole "
                     "graph differently from a piece of it)")
        if search.errors:
            words += f"; {search.errors} could not run, the last: {search.last_error}"
        return none(words,
                    start=start, graph_ops=graph_ops, steps=search.steps,
                    shrink_s=round(time.perf_counter() - t0, 3))
    grown, grown_elements = len(found.cut.computing), found.elements
    best = search.shrink(found, values_of)
    elapsed = time.perf_counter() - t0
    ops = len(best.cut.computing)
    shrink_words = (f"the first cut to reproduce held {grown} ops and {grown_elements} input elements; shrunk to "
                    f"{ops} of the graph's {graph_ops} ops and {best.elements} elements in {search.steps} steps, "
                    f"{elapsed:.1f} s")
    final = Trial(best.cut, best.values, header(best.cut, shrink_words), str(rec.backend), seed)

    folder = request.get("dir") or "."
    try:
        os.makedirs(folder, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise PermissionError(13, "not writable")
        staging = tempfile.mkdtemp(prefix="precompile-studio-repro-")  # not DIR: a killed worker leaves nothing there
    except OSError as e:
        return none(f"cannot write into {folder}: {e.strerror or e}")
    try:
        _write(staging, final)
        on_step("running repro.py in a fresh process")
        fresh = run_fresh(staging)
        if fresh["exit"] != 1 or "reproduces:" not in fresh["output"]:
            last = fresh["output"].splitlines()[-1] if fresh["output"] else ""
            return none(f"the smallest cut reproduced here but not in a fresh process (exit {fresh['exit']}: {last})",
                        start=start, graph_ops=graph_ops, fresh=fresh, steps=search.steps)
        files = []
        for name in ("inputs.pt", "repro.py"):  # the script last: never a new script beside old inputs
            shutil.copyfile(os.path.join(staging, name), os.path.join(folder, name))
            files.insert(0, os.path.abspath(os.path.join(folder, name)))
    except OSError as e:
        return none(f"cannot write the repro into {folder}: {e.strerror or e}")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    worst = max(best.rows or [], key=lambda r: (r[-1], r[3] / r[5] if r[5] else 0.0), default=None)
    return {
        "status": "written",
        "reason": (f"reproduces in plain torch: {ops} of the graph's {graph_ops} ops, "
                   + (f"from {best.cut.back} steps behind {start} to it" if best.cut.back else f"from {start}")
                   + (f"; {worst[0]}: compiled {worst[3]:.2g} against eager {worst[4]:.2g} (band {worst[5]:.2g})"
                      if worst else "")),
        "start": start,
        "files": files,
        "ops": [n.name for n in best.cut.computing],
        "graph_ops": graph_ops,
        "grown_ops": grown,
        "grown_elements": grown_elements,
        "back": best.cut.back,
        "elements": best.elements,
        "steps": search.steps,
        "shrink_s": round(elapsed, 3),
        "budget_s": budget,
        "outputs": [{"name": r[0], "dtype": r[1], "elements": r[2], "compiled_error": _num(r[3]),
                     "eager_error": _num(r[4]), "band": _num(r[5]), "outside": bool(r[6])} for r in best.rows or []],
        "made_with": made,
        "fresh": fresh,
    }
