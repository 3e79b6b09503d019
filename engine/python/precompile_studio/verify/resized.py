"""The artifact at other sizes of the dims marked with ``mark_unbacked`` (verify step 7b).

A dim marked with ``torch._dynamo.decorators.mark_unbacked`` is captured as an unbacked size:
the contract says one artifact serves any size of it. Verification holds it to that:

- **other sizes**: every marked dim at another size at once (dims that share a ``shape_id`` move
  together), within the marks' min/max: fresh values (perturbed.py's draws), eager fn and the
  artifact called side by side and judged as the example is (perturbed.judged_trial). An artifact
  that raises where eager does not, or computes a wrong answer, has baked a size.
- **unequal sizes**: dims marked independently (no shared ``shape_id``) get symbols of their own,
  yet precompile bakes a *silent* equal-size assumption where the graph needs them equal (it does
  not yet check the relational asserts, e.g. ``Eq(u0, u1)``, the capture records). For each pair
  of independent dims of the same example size, the second alone moves: where eager fn refuses
  and the artifact returns a result, the artifact has accepted sizes that fn rejects -- a finding
  ("unshared-shape-id"): both inputs and dims, the op that ties them and its line (the first
  graph node that takes both symbols and keeps one), the measured results, and the fix (a shared
  ``shape_id``). Eager and the artifact both refusing is the shared-``shape_id`` behaviour: fine.
  Eager accepting (the dims are not tied) is one more trial judged as above.
- **a shared shape_id at unequal sizes**: one dim of a shared ``shape_id`` moves alone; the
  artifact refusing at the call is what the shared id promises (ok), and returning a result
  where eager fn refuses is the finding above.

Within the verification budget, like the perturbed trials: a trial is two calls.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from precompile_studio.common.calls import fresh_copy, rng_fork, seeded_call
from precompile_studio.common.inputs import dynamic_marks, leaf_names
from precompile_studio.common.outcomes import TrialStatus
from precompile_studio.verify.budget import SKIPPED, budgeted, over_budget
from precompile_studio.verify.perturbed import _fresh_values, judged_trial

MAX_PAIRS = 4  # independent pairs tried at unequal sizes, at most

FIX_SHARE = ("Mark both dims with one shape_id so the artifact checks that they are equal at the "
             "call: mark_unbacked({a}, {da}, shape_id=\"{sid}\") and mark_unbacked({b}, {db}, shape_id=\"{sid}\").")


@dataclass(frozen=True)
class Mark:
    """One marked dim of one flattened user-input tensor."""

    leaf: int         # the tensor's index among the flattened user-input leaves (graph placeholder order)
    name: str         # the user's name of the tensor: ``x``, ``batch['ids']``
    dim: int
    size: int         # the example's size of it
    shape_id: str | None
    lo: int | None
    hi: int | None

    def label(self) -> str:
        return f"{self.name} dim {self.dim}"


def marks_of(snapshot: tuple, argnames: list[str]) -> list[Mark]:
    """Every marked dim of the snapshot's user inputs, in leaf and dim order."""
    import torch
    import torch.utils._pytree as pytree

    user = tuple(a for a in snapshot if not isinstance(a, torch.nn.Module))
    flat = pytree.tree_flatten(user)[0]
    names = leaf_names(tuple(snapshot), argnames)
    out = []
    for i, t in enumerate(flat):
        if not isinstance(t, torch.Tensor):
            continue
        for m in dynamic_marks(t):
            out.append(Mark(i, names[i] if i < len(names) else f"input[{i}]", m["dim"], int(t.shape[m["dim"]]),
                            m["shape_id"], m["min"], m["max"]))
    return out


def groups_of(marks: list[Mark]) -> list[list[Mark]]:
    """Marks that share a shape_id together (one symbol), every other mark alone."""
    by_id: dict[str, list[Mark]] = {}
    out: list[list[Mark]] = []
    for m in marks:
        if m.shape_id is None:
            out.append([m])
        elif m.shape_id in by_id:
            by_id[m.shape_id].append(m)
        else:
            by_id[m.shape_id] = [m]
            out.append(by_id[m.shape_id])
    return out


def other_size(group: list[Mark]) -> int | None:
    """A size of the group other than the example's, within every mark's bounds: one more,
    else one less (never under 2: 0 and 1 are sizes the capture may treat apart); None if none."""
    size = group[0].size
    lo = max([2] + [m.lo for m in group if m.lo is not None])
    his = [m.hi for m in group if m.hi is not None]
    hi = min(his) if his else None
    for cand in (size + 1, size - 1):
        if cand >= lo and (hi is None or cand <= hi):
            return cand
    return None


def resized(snapshot: tuple, sizes: dict[tuple[int, int], int], seed: int, copy_models: bool) -> tuple:
    """The snapshot with the marked dims at ``sizes`` ({(leaf, dim): size}): each resized tensor
    holds fresh values drawn like a perturbed trial's (from the example's mean and spread, under
    ``seed``), laid out contiguously (channels-last kept); every other argument as it is (models
    deep-copied unless ``copy_models`` is False)."""
    import torch
    import torch.utils._pytree as pytree

    base = fresh_copy(snapshot) if copy_models else tuple(snapshot)
    positions = [i for i, a in enumerate(base) if not isinstance(a, torch.nn.Module)]
    flat, spec = pytree.tree_flatten(tuple(base[i] for i in positions))
    gen = torch.Generator().manual_seed(seed)
    for leaf, t in enumerate(flat):
        dims = {d: s for (lf, d), s in sizes.items() if lf == leaf}
        if not dims or not isinstance(t, torch.Tensor):
            continue
        shape = [dims.get(d, s) for d, s in enumerate(t.shape)]
        n = 1
        for s in shape:
            n *= s
        new = _fresh_values(t, "fresh", n, gen).to(t.device).reshape(shape)
        if t.dim() == 4 and t.is_contiguous(memory_format=torch.channels_last) and not t.is_contiguous():
            new = new.contiguous(memory_format=torch.channels_last)
        if t.requires_grad:
            new = new.detach().requires_grad_(True)
        flat[leaf] = new
    user = pytree.tree_unflatten(flat, spec)
    out = list(base)
    for k, i in enumerate(positions):
        out[i] = user[k]
    return tuple(out)


def _symbol(placeholders: list[dict], mark: Mark) -> str | None:
    """The mark's symbol in the captured graph (``u0``): its placeholder's size at the dim."""
    if mark.leaf >= len(placeholders):
        return None
    shape = placeholders[mark.leaf].get("shape") or []
    return str(shape[mark.dim]) if mark.dim < len(shape) and isinstance(shape[mark.dim], str) else None


def tying_op(graph: dict | None, a: Mark, b: Mark) -> dict | None:
    """The first graph node that takes both marks' symbols and keeps only one of them (``a + b``
    at rows u0 and u1 gives rows u0): {op, node, file, line}; None where the graph does not say."""
    nodes = (graph or {}).get("node_list") or []
    placeholders = [n for n in nodes if n.get("kind") == "input"]
    sa, sb = _symbol(placeholders, a), _symbol(placeholders, b)
    if sa is None or sb is None or sa == sb:
        return None
    shapes = {n["name"]: [str(s) for s in n.get("shape") or []] for n in nodes}
    for n in nodes:
        if n.get("op") != "call_function":
            continue
        seen = {s for i in n.get("inputs") or [] for s in shapes.get(i, [])}
        if sa in seen and sb in seen:
            out = set(shapes.get(n["name"], []))
            if not (sa in out and sb in out):
                src = n.get("source") or {}
                return {"op": n.get("target"), "node": n["name"], "file": src.get("file"), "line": src.get("line"),
                        "symbols": [sa, sb]}
    return None


def _shape_text(value: Any) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        return "(" + ", ".join(str(s) for s in value.shape) + ")"
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], torch.Tensor):
        return _shape_text(value[0])
    return type(value).__name__


def _sizes_text(sizes: dict[tuple[int, int], int], marks: list[Mark]) -> str:
    by = {(m.leaf, m.dim): m for m in marks}
    return ", ".join(f"{by[k].label()} = {v}" for k, v in sizes.items() if k in by)


@dataclass
class Trials:
    """What the trials share: the calls, their inputs and the budget."""

    fn: Callable
    artifact: Callable
    snapshot: tuple
    names: list[str]
    seed: int
    context: Any
    shared: bool
    budget: Any
    devices: tuple | list


def _args(tr: Trials, sizes: dict, seed: int) -> tuple[tuple, tuple]:
    eager = resized(tr.snapshot, sizes, seed, copy_models=not tr.shared)
    return eager, (eager if tr.shared else fresh_copy(eager))


def _other_sizes_trial(tr: Trials, marks: list[Mark], sizes: dict, i: int) -> dict:
    trial: dict = {"kind": "other-sizes", "sizes": _sizes_text(sizes, marks)}
    seed = tr.seed + 211 + i
    judged_trial(tr.fn, tr.artifact, _args(tr, sizes, seed),
                 lambda: resized(tr.snapshot, sizes, seed, copy_models=False), tr.names, seed, tr.context,
                 tr.shared, trial)
    if trial.get("status") == TrialStatus.DIVERGED:
        trial["note"] = f"at {trial['sizes']}: {trial['note']}"
    return trial


def _unequal_trial(tr: Trials, a: Mark, b: Mark, size: int, i: int,
                   graph: dict | None, kind: str = "unequal-sizes") -> dict:
    sizes = {(b.leaf, b.dim): size}
    trial: dict = {"kind": kind, "sizes": f"{a.label()} = {a.size}, {b.label()} = {size}",
                   "dims": [a.label(), b.label()]}
    seed = tr.seed + 307 + i
    eager_args, art_args = _args(tr, sizes, seed)
    with rng_fork():
        try:
            seeded_call(tr.fn, eager_args, seed)
        except Exception as e:  # noqa: BLE001 - eager refuses unequal sizes: the dims are tied
            eager_error = f"{type(e).__name__}: {str(e).splitlines()[0][:240] if str(e) else ''}"
        else:
            eager_error = None
        if eager_error is not None or kind == "shared-unequal":
            try:
                out = seeded_call(tr.artifact, art_args, seed)
            except Exception as e:  # noqa: BLE001 - refused at the call: the shared-shape_id behaviour
                eager = f"eager fn raised {eager_error}" if eager_error else "eager fn accepts them"
                trial.update(status=TrialStatus.OK,
                             note=f"the artifact refused them at the call ({type(e).__name__}); {eager}")
                return trial
            if eager_error is None:
                trial.update(status=TrialStatus.OK, note=f"both accept unequal sizes ({_shape_text(out)})")
                return trial
            trial.update(status=TrialStatus.ACCEPTED, eager_error=eager_error, artifact_result=_shape_text(out),
                         tie=tying_op(graph, a, b),
                         note=(f"the artifact returned {_shape_text(out)} without an error at {trial['sizes']}, "
                               f"where eager fn raised {eager_error}"))
            return trial
    # eager accepts unequal sizes: the dims are not tied; judged as any other size
    judged_trial(tr.fn, tr.artifact, (eager_args, art_args),
                 lambda: resized(tr.snapshot, sizes, seed, copy_models=False), tr.names, seed, tr.context,
                 tr.shared, trial)
    if trial.get("status") == TrialStatus.DIVERGED:
        trial["note"] = f"at {trial['sizes']}: {trial['note']}"
    return trial


def _pairs(groups: list[list[Mark]]) -> list[tuple[Mark, Mark]]:
    """Independent dims of the same example size, first marks of different groups, at most MAX_PAIRS."""
    out = []
    for x in range(len(groups)):
        for y in range(x + 1, len(groups)):
            a, b = groups[x][0], groups[y][0]
            if a.size == b.size:
                out.append((a, b))
    return out[:MAX_PAIRS]


def resized_check(*, fn: Callable, artifact: Callable, snapshot: tuple, names: list[str], seed: int,
                  context=None, budget=None, estimate_s: float = 0.0, shared: bool = False,
                  devices: tuple | list = (), graph: dict | None = None,
                  location: dict | None = None) -> tuple[dict | None, list[dict]]:
    """(summary for verify["resized"], warnings); (None, []) where no dim is marked."""
    marks = marks_of(snapshot, names)
    if not marks:
        return None, []
    groups = groups_of(marks)
    tr = Trials(fn, artifact, snapshot, names, seed, context, shared, budget, devices)
    summary: dict = {"ran": False, "marks": [{"input": m.name, "dim": m.dim, "size": m.size,
                                              "shape_id": m.shape_id} for m in marks], "trials": []}
    sizes = {}
    for g in groups:
        s = other_size(g)
        if s is not None:
            sizes.update({(m.leaf, m.dim): s for m in g})
    plans: list[tuple[str, Callable[[], dict]]] = []
    if sizes:
        plans.append(("trial at other sizes of the marked dims",
                      lambda: _other_sizes_trial(tr, marks, sizes, 0)))
    for i, (a, b) in enumerate(_pairs(groups)):
        s = other_size([b])
        if s is not None:
            plans.append((f"unequal sizes of {a.label()} and {b.label()}",
                          lambda a=a, b=b, s=s, i=i: _unequal_trial(tr, a, b, s, i, graph)))
    for i, g in enumerate(gr for gr in groups if len({m.leaf for m in gr}) > 1):
        a = g[0]
        b = next(m for m in g if m.leaf != a.leaf)
        s = other_size([b])
        if s is not None:
            plans.append((f"unequal sizes of {a.label()} and {b.label()} (shape_id {a.shape_id})",
                          lambda a=a, b=b, s=s, i=i: _unequal_trial(tr, a, b, s, 50 + i, graph,
                                                                    "shared-unequal")))
    if not plans:
        summary["reason"] = "no other size fits the marks' bounds"
    for what, run in plans:
        trial, estimate_s = budgeted(budget, estimate_s, devices, what, run)
        if trial is SKIPPED:
            summary["trials"].append({"kind": what, "status": TrialStatus.SKIPPED, "reason": over_budget(estimate_s)})
            continue
        summary["ran"] = True
        summary["trials"].append(trial)
    bad = [t for t in summary["trials"] if t.get("status") in ("diverged", "accepted")]
    summary["diverged"] = bool(bad) if summary["ran"] else None
    return summary, [finding(t, location) for t in bad]


def finding(trial: dict, location: dict | None) -> dict:
    """The warning for a bad trial (its rule, message, fix and location; the capture's outcome says
    the same): unshared-shape-id (unequal sizes accepted) or resized-divergence."""
    if trial["status"] == TrialStatus.ACCEPTED:
        a, b = trial["dims"]
        tie = trial.get("tie")
        where = (f"; {tie['op']} at line {tie['line']} needs them equal" if tie and tie.get("line")
                 else "; the graph needs them equal")
        an, ad = a.rsplit(" dim ", 1)
        bn, bd = b.rsplit(" dim ", 1)
        return {"invariant": 3, "rule": "unshared-shape-id",
                "message": (f"{a} and {b} are marked independently{where}: {trial['note']} -- precompile "
                            "baked an equal-size assumption it does not check"),
                "fix": FIX_SHARE.format(a=an, da=ad, b=bn, db=bd, sid="batch" if ad == "0" else f"dim{ad}"),
                "location": ({"file": tie["file"], "line": tie["line"]} if tie and tie.get("line") else location),
                "details": {"trial": trial}}
    return {"invariant": 3, "rule": "resized-divergence",
            "message": (f"{trial.get('note')} -- the artifact does not serve every size the mark_unbacked marks "
                        "promise"),
            "fix": ("Find where fn reads a marked size into Python (int(x.shape[0]), a Python loop over it) "
                    "and keep it symbolic, or leave that dim static."),
            "location": location, "details": {"trial": trial}}
