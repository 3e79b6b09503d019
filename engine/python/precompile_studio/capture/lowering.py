"""Map python_code: where each section starts and ends, and what each kernel computes.

Sections are line ranges (1-based, inclusive) found from the banners torch writes:

inductor: header, compiled_graph (1.), inside it inner_module (Inductor's output code),
  inductor_kernels, inner_call (``Runner.call`` / ``def call(args)``), aot_wrappers
  (AOTAutograd's codegen'd runtime wrappers) and entry_call (the composed ``call``); then
  metadata (2., calling convention) and driver (3.).
eager: header, captured_graph (1.), inside it graph_function (the make_fx code) and
  graph_call; then metadata and driver.

Kernels (inductor): every ``name = async_compile.<kind>(...)`` definition (``cpp_pybinding``
on the CPU, ``triton`` on a GPU), its line range, its call sites (``name(...)``, a Triton
kernel's ``name.run(..., stream=stream0)``), and the captured-graph nodes it computes.
Inductor prints "Source Nodes: [...]" comments for extern kernels and Triton kernels, and
they are read where every name in them is the captured graph's; not for C++ kernels nor for
Triton combo (foreach) kernels, and a Triton comment may name a node Inductor's own passes
made: for those the probe records the origins Inductor tracks while it defines the kernel
(CppScheduling and TritonScheduling alike), of which the captured graph's are kept (a kernel
may also compute nodes the lowering added, such as the copies into BatchNorm's running
statistics). When the lowering was served from Inductor's
FX-graph cache no kernel is defined, so the studio keeps what it learned from a cold lowering
of the same graph in a small side file (keyed by the captured graph's code and the kernel's
source); then the comment's names that are the captured graph's, and as a last resort the
ATen op names derived from the kernel's descriptive name.

eager lines: which node each line of the captured graph computes.
"""
from __future__ import annotations

import hashlib
import json
import os
import re

from precompile_studio.common import internal_errors

_BANNER = "# " + "=" * 70
_KERNEL_DEF = re.compile(r"^([A-Za-z_]\w*) = async_compile\.(\w+)\(")
_SOURCE_NODES = re.compile(r"Source Nodes: \[([^\]]*)\](?:, Original ATen: \[([^\]]*)\])?")
_ASSIGN = re.compile(r"^    ([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*,?\s*=\s")
# Lines Inductor's GPU wrapper writes between a kernel's "Source Nodes" comment and its call: the
# device's raw stream, fetched once before the first kernel call on it.
_BETWEEN = re.compile(r"^\w+ = get_raw_stream\(")
_EXTERN = re.compile(r"^(?:[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*=\s*)?"
                     r"(extern_kernels\.\w+|torch\.ops\.[\w.]+|aten\.[\w.]+)\(")
_KINDS = {"cpp_pybinding": "cpp", "cpp": "cpp", "triton": "triton", "halide": "halide",
          "mps": "mps", "pallas": "pallas"}


def _find(lines: list[str], pred, start: int = 0, stop: int | None = None) -> int | None:
    stop = len(lines) if stop is None else stop
    for i in range(start, stop):
        if pred(lines[i]):
            return i
    return None


def _rfind(lines: list[str], pred, start: int, stop: int) -> int | None:
    for i in range(stop - 1, start - 1, -1):
        if pred(lines[i]):
            return i
    return None


def _banner_start(lines: list[str], title_idx: int) -> int:
    """Index of the banner line above a section title (or the title itself)."""
    if title_idx > 0 and lines[title_idx - 1] == _BANNER:
        return title_idx - 1
    return title_idx


def _section(kind, title, start, end, parent=None) -> dict:
    return {"kind": kind, "title": title, "start": start + 1, "end": end + 1, "parent": parent}


def _names(text: str | None) -> list[str]:
    if not text:
        return []
    return [t.strip() for t in text.split(",") if t.strip()]


def _origins_path() -> str:
    base = os.environ.get("PRECOMPILE_STUDIO_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "precompile-studio"
    )
    return os.path.join(base, "kernel-origins")


def _graph_key(gm_code: str | None) -> str | None:
    if not gm_code:
        return None
    import torch

    return hashlib.sha256((torch.__version__ + "\0" + gm_code).encode()).hexdigest()


def _load_origins(key: str | None) -> dict:
    if key is None:
        return {}
    try:
        with open(os.path.join(_origins_path(), key + ".json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def _save_origins(key: str | None, data: dict) -> None:
    if key is None or not data:
        return
    try:
        folder = _origins_path()
        os.makedirs(folder, exist_ok=True)
        tmp = os.path.join(folder, f".{key}.{os.getpid()}.tmp")
        with open(tmp, "w") as f:
            json.dump(data, f)
        os.replace(tmp, os.path.join(folder, key + ".json"))
    except OSError:
        pass


def _ops_from_name(name: str, known_ops: set[str]) -> list[str]:
    """'cpp_fused_mse_loss_mse_loss_backward_sum_1' -> ['aten.mse_loss', ...] (longest match)."""
    m = re.match(r"^(?:cpp|triton_\w+?)_fused_(.*?)(?:_\d+)?$", name)
    if not m:
        return []
    words = m.group(1).split("_")
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            cand = "_".join(words[i:j])
            if cand in known_ops:
                if f"aten.{cand}" not in out:
                    out.append(f"aten.{cand}")
                i = j
                break
        else:
            i += 1
    return out


def _part_starts(lines: list[str], t1: int | None) -> tuple[int | None, int | None, int | None]:
    """First lines of parts 1 (its title at t1), 2 (metadata) and 3 (driver), both backends."""
    n = len(lines)
    t2 = _rfind(lines, lambda s: s.startswith("# 2. Calling-convention metadata"), 0, n)
    t3 = _rfind(lines, lambda s: s.startswith("# 3. Driver"), 0, n)
    return tuple(_banner_start(lines, t) if t is not None else None for t in (t1, t2, t3))


def _metadata_and_driver(lines: list[str], s2: int | None, s3: int | None) -> list[dict]:
    """The sections of parts 2 and 3, which both backends emit alike."""
    n = len(lines)
    out = []
    if s2 is not None:
        out.append(_section("metadata", "Calling-convention metadata", s2, (s3 if s3 is not None else n) - 1))
    if s3 is not None:
        end = n - 1
        while end > s3 and not lines[end].strip():
            end -= 1
        out.append(_section("driver", "Driver", s3, end))
    return out


def map_inductor(python_code: str, probe=None) -> dict:
    lines = python_code.split("\n")
    n = len(lines)
    sections: list[dict] = []
    t1 = _find(lines, lambda s: s.startswith("# 1. Compiled graph"))
    s1, s2, s3 = _part_starts(lines, t1)
    if s1 is not None and s1 > 0:
        sections.append(_section("header", "Header", 0, s1 - 1))
    kernels: list[dict] = []
    externs: list[dict] = []
    if s1 is not None:
        end1 = (s2 if s2 is not None else n) - 1
        sections.append(_section("compiled_graph", lines[t1][2:].strip(), s1, end1))
        ti = _find(lines, lambda s: s.startswith("# Inner Inductor output code"), s1, end1 + 1)
        tw = _find(lines, lambda s: s.startswith("# AOTAutograd runtime wrappers"), s1, end1 + 1)
        inner_end = _find(lines, lambda s: s == "_inner_call = call", ti or s1, end1 + 1)
        if ti is not None:
            si = _banner_start(lines, ti)
            ie = inner_end if inner_end is not None else ((_banner_start(lines, tw) - 1) if tw else end1)
            sections.append(_section("inner_module", "Inner Inductor output code", si, ie, "compiled_graph"))
            kernels = _kernel_defs(lines, si, ie)
            if kernels:
                ks, ke = kernels[0]["_start"], kernels[-1]["_end"]
                sections.append(_section("inductor_kernels", "Inductor kernels", ks, ke, "inner_module"))
            cstart = _find(lines, lambda s: s.startswith("class Runner") or s.startswith("def call(args)"),
                           kernels[-1]["_end"] if kernels else si, ie + 1)
            if cstart is not None:
                cend = ie - 1 if inner_end is not None else ie
                while cend > cstart and not lines[cend].strip():
                    cend -= 1
                sections.append(_section("inner_call", "Inductor call", cstart, cend, "inner_module"))
                externs = _call_sites(lines, cstart, cend, kernels)
        if tw is not None:
            sw = _banner_start(lines, tw)
            entry = _rfind(lines, lambda s: s.startswith("def call(flat_inputs)"), sw, end1 + 1)
            we = (entry - 1) if entry is not None else end1
            sections.append(_section("aot_wrappers", "AOTAutograd runtime wrappers", sw, we, "compiled_graph"))
            if entry is not None:
                ee = end1
                while ee > entry and not lines[ee].strip():
                    ee -= 1
                sections.append(_section("entry_call", "Composed call(flat_inputs)", entry, ee, "compiled_graph"))
    sections.extend(_metadata_and_driver(lines, s2, s3))

    _attach_nodes(kernels, probe)
    for k in kernels:
        k["start"], k["end"] = k.pop("_start") + 1, k.pop("_end") + 1
    return {"backend": "inductor", "sections": sections, "kernels": kernels, "extern_calls": externs}


def _kernel_defs(lines: list[str], start: int, end: int) -> list[dict]:
    """Kernel definitions in [start, end]: the ``name = async_compile.<kind>(`` line through
    its closing quotes, plus the comment block Inductor writes right above a kernel
    (Triton: kernel path, "Source Nodes", node mapping, graph fragment)."""
    out = []
    i = start
    while i <= end:
        m = _KERNEL_DEF.match(lines[i])
        if not m:
            i += 1
            continue
        first = i
        while first - 1 >= start and lines[first - 1].startswith("#"):
            first -= 1
        j = i + 1
        while j <= end and not (lines[j].startswith("'''") or lines[j].startswith('"""')):
            j += 1
        j = min(j, end)
        body = "\n".join(lines[first : j + 1])
        nodes: list[str] = []
        ops: list[str] = []
        for sm in _SOURCE_NODES.finditer(body):
            for nm in _names(sm.group(1)):
                if nm not in nodes:
                    nodes.append(nm)
            for op in _names(sm.group(2)):
                if op not in ops:
                    ops.append(op)
        out.append({
            "name": m.group(1),
            "kind": _KINDS.get(m.group(2), m.group(2)),
            "_start": first,
            "_end": j,
            "def_line": i + 1,
            "source_sha256": hashlib.sha256("\n".join(lines[i : j + 1]).encode()).hexdigest(),
            "nodes": nodes,
            "ops": ops,
            "nodes_from": "comment" if nodes else None,
            "calls": [],
        })
        i = j + 1
    return out


def _call_sites(lines: list[str], start: int, end: int, kernels: list[dict]) -> list[dict]:
    """Call lines of each kernel, and the extern kernel calls with their Source Nodes (a kernel's
    own comment above its call is skipped, with the stream line a GPU wrapper writes after it)."""
    by_name = {k["name"]: k for k in kernels}
    call_re = re.compile(r"\b(" + "|".join(map(re.escape, by_name)) + r")(?:\.run)?\(") if by_name else None
    externs = []
    pending = None  # (line index, nodes, ops) of the last Source Nodes comment
    for i in range(start, end + 1):
        s = lines[i].strip()
        if s.startswith("#"):
            m = _SOURCE_NODES.search(s)
            if m:
                pending = (i, _names(m.group(1)), _names(m.group(2)))
            continue
        if not s or (pending is not None and _BETWEEN.match(s)):
            continue
        km = call_re.search(s) if call_re else None
        if km:
            k = by_name[km.group(1)]
            k["calls"].append(i + 1)
            if pending and pending[1] and not k["nodes"]:
                k["nodes"], k["ops"], k["nodes_from"] = list(pending[1]), list(pending[2]), "comment"
            pending = None
            continue
        if pending is not None:
            em = _EXTERN.match(s)  # "extern_kernels.mm(...)", "buf0 = extern_kernels.convolution(...)"
            externs.append({
                "name": em.group(1) if em else s.split("(")[0][:80],
                "kind": "extern",
                "start": pending[0] + 1,
                "end": i + 1,
                "nodes": pending[1],
                "ops": pending[2],
            })
            pending = None
    return externs


def _attach_nodes(kernels: list[dict], probe) -> None:
    """Fill the nodes of kernels without a usable "Source Nodes" comment (C++, Triton combo
    kernels) from the probe (cold lowering) or the side file (warm)."""
    if not kernels:
        return
    gm = getattr(probe, "gm", None) if probe is not None else None
    try:
        key = _graph_key(gm.code) if gm is not None else None
    except Exception as e:  # noqa: BLE001 - no key: the side file is not read
        internal_errors.record("lowering: the graph's key", e)
        key = None
    seen: dict[str, dict] = {}
    for rec in getattr(probe, "kernels", None) or []:
        d = seen.setdefault(rec["name"], {"nodes": [], "ops": []})
        for nm in rec["nodes"]:
            if nm not in d["nodes"]:
                d["nodes"].append(nm)
        for op in rec["ops"]:
            if op not in d["ops"]:
                d["ops"].append(op)
    known = set()
    if gm is not None:
        known = {n.name for n in gm.graph.nodes}
    stored = _load_origins(key) if key else {}
    learned = dict(stored)
    changed = False
    for k in kernels:
        comment = k["nodes"]
        if comment and (not known or all(nm in known for nm in comment)):
            continue  # the "Source Nodes" Inductor printed above the kernel name captured nodes
        rec = seen.get(k["name"])
        # the captured nodes among the kernel's origins: the lowering also computes nodes of its own
        # (the copies into a mutated buffer that AOTAutograd appends: BatchNorm's running stats)
        nodes = [nm for nm in rec["nodes"] if not known or nm in known] if rec else []
        if nodes:
            k["nodes"], k["ops"], k["nodes_from"] = nodes, rec["ops"], "lowering"
            entry = {"nodes": nodes, "ops": rec["ops"]}
            if learned.get(k["source_sha256"]) != entry:
                learned[k["source_sha256"]] = entry
                changed = True
            continue
        rec = stored.get(k["source_sha256"])
        if rec:
            k["nodes"], k["ops"], k["nodes_from"] = list(rec["nodes"]), list(rec["ops"]), "studio-cache"
            continue
        if comment:
            # some of the printed names are not the captured graph's (nodes Inductor's own passes
            # made): the ones that are
            k["nodes"] = [nm for nm in comment if nm in known]
            if k["nodes"]:
                continue
            k["nodes_from"] = None
        if gm is not None:
            import torch

            packets = set()
            for n in gm.graph.nodes:
                if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload):
                    packets.add(n.target._overloadpacket.__name__)
            k["ops"] = _ops_from_name(k["name"], packets)
            k["nodes_from"] = "kernel-name" if k["ops"] else None
    if changed:
        _save_origins(key, learned)


def map_eager(python_code: str, probe=None) -> dict:
    lines = python_code.split("\n")
    n = len(lines)
    sections: list[dict] = []
    t1 = _find(lines, lambda s: s.startswith("# 1. Captured ATen graph"))
    s1, s2, s3 = _part_starts(lines, t1)
    if s1 is not None and s1 > 0:
        sections.append(_section("header", "Header", 0, s1 - 1))
    node_lines: list[list] = []
    if s1 is not None:
        end1 = (s2 if s2 is not None else n) - 1
        sections.append(_section("captured_graph", lines[t1][2:].strip(), s1, end1))
        gf = _find(lines, lambda s: s.startswith("def _graph_forward("), s1, end1 + 1)
        gc = _find(lines, lambda s: s.startswith("class _GraphSelf"), s1, end1 + 1)
        if gf is not None:
            ge = (gc - 1) if gc is not None else end1
            while ge > gf and not lines[ge].strip():
                ge -= 1
            sections.append(_section("graph_function", "Captured graph (make_fx code)", gf, ge, "captured_graph"))
            node_lines = _eager_node_lines(lines, gf, ge, probe)
        if gc is not None:
            ce = end1
            while ce > gc and not lines[ce].strip():
                ce -= 1
            sections.append(_section("graph_call", "call(args)", gc, ce, "captured_graph"))
    sections.extend(_metadata_and_driver(lines, s2, s3))
    return {"backend": "eager", "sections": sections, "node_lines": node_lines}


def _eager_node_lines(lines: list[str], start: int, end: int, probe) -> list[list]:
    """[[line, node name], ...] for the lines of _graph_forward."""
    gm = getattr(probe, "gm", None) if probe is not None else None
    known = None
    output = None
    if gm is not None:
        known = set()
        for nd in gm.graph.nodes:
            known.add(nd.name)
            if nd.op == "output":
                output = nd.name
    out: list[list] = []
    for i in range(start + 1, end + 1):
        s = lines[i]
        m = _ASSIGN.match(s)
        if m:
            names = [t.strip() for t in m.group(1).split(",") if t.strip()]
            for nm in names:
                if known is None or nm in known:
                    out.append([i + 1, nm])
            continue
        if s.startswith("    return ") and output is not None:
            out.append([i + 1, output])
    return out


def map_python_code(python_code: str | None, backend: str, probe=None) -> dict | None:
    if not python_code:
        return None
    if backend == "eager":
        return map_eager(python_code, probe)
    return map_inductor(python_code, probe)
