"""Where an artifact's call spends its time (``run --profile``): per kernel (inductor) or per ATen op
(eager), the graph nodes each computes, measured with ``torch.profiler`` after verification.

Inductor's C++ kernels (``cpp_fused_*``) emit no profiler event of their own, and which line of
python_code issued an ATen op is not in an event unless the profiler records Python stacks (which
times every Python call and buries the kernels under it). So for the profiled calls only, the
names the artifact's code calls through -- each kernel, ``extern_kernels``, ``aten`` and
``torch.ops`` -- are replaced in the loaded module's globals by thin wrappers that open a
``record_function`` named after the python_code line that called them; the originals are put
back before this module returns, whatever happens (verification and the unprofiled timing never
see a wrapper). A line is then a call site the lowering map already knows:

- inductor: a kernel's call lines (``lowering.kernels[].calls``, its nodes) and each extern call
  (``lowering.extern_calls[]``: its line and nodes);
- eager: the line of ``_graph_forward`` that computes a node (``lowering.node_lines``). Chosen
  over the order of ATen events because an op may emit none or several events (views, nested
  calls), while a line is exactly one node.

Timing: one warm-up call, then ``calls`` calls timed without the profiler (the median is
``wall_us``), then ``calls`` calls under it, each inside a ``ps::call`` record (the mean of
those records' durations is ``profiled_wall_us``). A site's time is its record's total (the
kernel and any ATen ops under it); ``unattributed_us`` is the call record's time outside every
site (Python glue, allocations, the calling convention). Figures are per artifact call.
Where the example tensors live on a GPU every call waits for its devices before the clock stops
(common.devices), so the walls include the device's work; the sites' times are then the host's
(kernel launches) and the wait is unattributed: CUDA kernels are not timed one by one yet.
"""
from __future__ import annotations

import statistics
from collections.abc import Callable

from precompile_studio.common import internal_errors
from precompile_studio.common.devices import synchronize, timed
from precompile_studio.common.native_log import NativeLogFilter
from precompile_studio.verify.call_sites import CallSiteProxy, TorchWithOps, loaded_namespace

MAX_CALLS = 5        # calls timed, and as many profiled
BUDGET_S = 10.0      # seconds the profiled and unprofiled calls may take together, past the warm-up
_SITE = "ps@"        # record_function prefix of a call site, followed by its python_code line
_CALL = "ps::call"


def profile_artifact(f: Callable, args: tuple, lowering: dict | None, backend: str,
                     call_s: float | None = None, devices: list[str] | tuple[str, ...] = ()) -> dict:
    """The report's ``profile`` for artifact ``f`` on ``args``; a failure is ``{"error": ...}``
    with whatever was measured, never an exception."""
    out: dict = {"calls": 0, "wall_us": None, "profiled_wall_us": None, "overhead_us": None,
                 "kernels": [], "unattributed_us": None}
    artifact_calls = False  # while the artifact runs on its own: its failure is its own, not the studio's
    try:
        sites = call_sites(lowering, backend)
        if not sites:
            out["error"] = "the lowering map names no call sites to profile (python_code not mapped)"
            return out
        namespace = loaded_namespace(f)
        if namespace is None:
            out["error"] = "the loaded artifact exposes no module namespace to profile"
            return out
        artifact_calls = True
        warm = timed(devices, lambda: f(*args))[1]  # warm-up
        per = max(warm, call_s or 0.0)
        calls = max(1, min(MAX_CALLS, int(BUDGET_S / (2 * per)) if per > 0 else MAX_CALLS))
        walls = []
        for _ in range(calls):
            walls.append(timed(devices, lambda: f(*args))[1])
        artifact_calls = False
        out["calls"] = calls
        out["wall_us"] = statistics.median(walls) * 1e6
        events = _profiled(f, args, namespace, sites, calls, tuple(devices or ()))
        kernels, unattributed, profiled = attribute(events, sites, calls)
        out["profiled_wall_us"] = profiled
        out["overhead_us"] = profiled - out["wall_us"]
        out["kernels"] = kernels
        out["unattributed_us"] = unattributed
    except Exception as exc:  # noqa: BLE001 - a profiling failure never loses the run
        if not artifact_calls:
            internal_errors.record("profile: the artifact's kernels", exc)
        out["error"] = f"{type(exc).__name__}: {exc}"
    return out


# --------------------------------------------------------------------------- the call sites
def call_sites(lowering: dict | None, backend: str) -> dict[int, dict]:
    """{python_code line: {"key", "name", "nodes"}}: what each line that calls a kernel or an op
    computes. ``key`` groups lines into one kernel entry (a kernel called from several lines)."""
    sites: dict[int, dict] = {}
    if not lowering or lowering.get("error"):
        return sites
    if backend == "eager":
        for line, node in lowering.get("node_lines") or []:
            sites.setdefault(int(line), {"key": f"node:{node}", "name": None, "nodes": []})["nodes"].append(node)
        return sites
    for k in lowering.get("kernels") or []:
        for line in k.get("calls") or []:
            sites[int(line)] = {"key": f"kernel:{k['name']}", "name": k["name"], "nodes": list(k.get("nodes") or [])}
    for e in lowering.get("extern_calls") or []:
        line = int(e["end"])
        sites[line] = {"key": f"extern:{line}", "name": e["name"], "nodes": list(e.get("nodes") or [])}
    return sites


# --------------------------------------------------------------------------- the wrappers
def _wrappers(namespace: dict, sites: dict[int, dict]) -> dict[str, object]:
    """{global name: its traced stand-in} for the names python_code calls kernels and ops through:
    a call from a known site line runs inside a ``record_function`` naming that line."""
    import torch

    lines = set(sites)

    def around(line: int, call, _kwargs):
        if line not in lines:
            return call()
        with torch.profiler.record_function(f"{_SITE}{line}"):
            return call()

    out: dict[str, object] = {}
    names = {s["name"] for s in sites.values() if s["name"]} | {"extern_kernels", "aten"}
    for name in names:
        value = namespace.get(name)
        if value is not None and (callable(value) or name in ("extern_kernels", "aten")):
            out[name] = CallSiteProxy(value, around)
    if namespace.get("torch") is torch:
        out["torch"] = TorchWithOps(torch, around)
    return out


def _profiled(f: Callable, args: tuple, namespace: dict, sites: dict[int, dict], calls: int,
              devices: tuple[str, ...] = ()):
    """The profiler's events of ``calls`` calls with the wrappers in place, which are removed
    before returning."""
    from torch.profiler import ProfilerActivity, profile, record_function

    wrappers = _wrappers(namespace, sites)
    saved = {name: namespace[name] for name in wrappers}
    try:
        with NativeLogFilter(), profile(activities=[ProfilerActivity.CPU]) as prof:
            f(*args)  # the profiler's own first-call cost, outside every record (not counted)
            namespace.update(wrappers)
            for _ in range(calls):
                synchronize(devices)
                with record_function(_CALL):
                    f(*args)
                    synchronize(devices)
    finally:
        namespace.update(saved)
    return prof.events()


# --------------------------------------------------------------------------- attribution
def attribute(events, sites: dict[int, dict], calls: int) -> tuple[list[dict], float, float]:
    """(kernels sorted by self time, unattributed µs, the call's µs), per artifact call, from the
    profiler's events: each call-site record's total goes to its site's kernel; what the
    ``ps::call`` records hold outside every site record is unattributed."""
    entries: dict[str, dict] = {}
    call_total = 0.0
    site_total = 0.0
    for e in events:
        name = e.name
        if name == _CALL:
            call_total += e.cpu_time_total
            continue
        if not name.startswith(_SITE):
            continue
        if _inside_site(e):
            continue  # a site called from inside another (not expected): counted in the outer one
        try:
            site = sites[int(name[len(_SITE):])]
        except (KeyError, ValueError):
            continue
        entry = entries.get(site["key"])
        if entry is None:
            entry = entries[site["key"]] = {"name": site["name"] or _op_name(e), "nodes": list(site["nodes"]),
                                            "count": 0, "self_us": 0.0}
        entry["count"] += 1
        entry["self_us"] += e.cpu_time_total
        site_total += e.cpu_time_total
    kernels = []
    for entry in entries.values():
        entry["count"] = round(entry["count"] / calls)
        entry["self_us"] = entry["self_us"] / calls
        kernels.append(entry)
    kernels.sort(key=lambda k: -k["self_us"])
    return kernels, max(0.0, call_total - site_total) / calls, call_total / calls


def _inside_site(e) -> bool:
    p = e.cpu_parent
    while p is not None:
        if p.name.startswith(_SITE):
            return True
        p = p.cpu_parent
    return False


def _op_name(e) -> str:
    """The ATen op an eager line ran: the first event under its record (``aten::addmm``)."""
    children = sorted(e.cpu_children, key=lambda c: c.time_range.start)
    return children[0].name if children else "python"
