"""Verify an artifact inside the worker: load it, run it beside eager fn, compare, judge.

``run_verify`` is the list of the steps below, each a function of its own (``load_step``,
``arguments``, ``call_both``, ``compare_outputs`` / ``compare_arguments`` / ``tolerance_summary``,
``judge_accuracy``, ``time_calls``, ``perturbed_trials``, ``runtime_step``). A step reads the
``Job`` (what is verified, the budget) and fills its part of ``Out`` (the verify dict, the timings,
the capture's warnings); a load or call that fails ends the verification (``Out.failed``).

1. ``precompile.load(python_code, cache)`` (load.py) as a reload on this machine would (timed: "load"). With
   ``deep`` (``--deep-verify``) also a load without the cache's kernel bundle (an envelope with
   artifact=None, so nothing primes the caches) in a fresh Inductor cache dir with Inductor's
   in-memory code caches cleared, so its kernels JIT (timed: "load_no_cache"); by default the
   report says it was skipped and how to ask for it. The first load is the one verified.
2. The arguments: where the captured graph writes nothing and computes no gradient
   (state.graph_may_mutate), eager fn and the artifact take the same arguments (the snapshot
   taken before precompile ran; for the studio's own precompile call it shares the models'
   parameters, see fresh_copy), checked afterwards by their version counters ("args":
   "shared"); otherwise each takes a deep copy of the snapshot ("copied").
3. Eager fn and the artifact are called once each with the same RNG seed; a second time each
   where the budget allows (budget.py: gradients accumulate like eager's, statistics update).
   Where the example tensors live on a GPU, every timed call waits for its device before the
   clock starts and before it stops (common.devices): a GPU call returns once its kernels are
   queued. The comparisons and the float64 run happen on the tensors' own device.
4. ``compare`` each output, each parameter's gradient, each buffer (BatchNorm statistics), each
   parameter and each user-input tensor (mutated inputs); in shared mode there is nothing but
   the outputs to compare.
5. Where something is outside the tight tolerance: the accuracy judge (accuracy.py) runs eager
   once more in float64 and names the verdict: matches (rounding: status ok), numerics drift
   (status "drift": the capture stays ok, with a numerics-drift warning), or wrong (status
   "mismatch").
6. Latency: the compared calls' times, plus a few more calls within the budget ("call",
   "call_eager").
7. The contract checker's perturbed trials (perturbed.py), within the budget, when the example
   matched; then the dims marked with mark_unbacked at other sizes, and independently marked
   dims at unequal sizes (resized.py).
8. ``runtime_inputs`` (runtime.py): call the artifact on them and report ok (and whether it matches eager on
   a copy) or the classified violation.
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from precompile_studio.common import internal_errors
from precompile_studio.common.calls import compare_values, fresh_copy, leaves, rng_fork, seeded_call, summarise
from precompile_studio.common.devices import tensor_devices, timed
from precompile_studio.common.errors import describe
from precompile_studio.common.outcomes import Judgement, Status, VerifyStatus
from precompile_studio.common.state import Versions, compare_state, state_tensors
from precompile_studio.contract.violations import Context, classify_exception
from precompile_studio.verify import accuracy
from precompile_studio.verify.budget import VerifyBudget, count_elements
from precompile_studio.verify.load import DEEP_ONLY, load_artifact, no_cache_envelope
from precompile_studio.verify.runtime import check_runtime

LATENCY_SAMPLES = 5    # calls of each timed at most, the compared ones included
LATENCY_CHEAP_S = 0.2  # a call slower than this is timed only where it was compared
LATENCY_SHARE = 0.2    # of the budget's allowance, for the calls timed past the compared ones


@dataclass
class Job:
    """What one verification checks and how: the same for every step (the budget is spent)."""

    fn: Callable
    snapshot: tuple
    names: list[str]
    seed: int
    ctx: Context
    shared: bool          # eager fn and the artifact take the same arguments (graph writes nothing)
    budget: VerifyBudget
    devices: list[str] = field(default_factory=list)  # the example tensors' (synchronised around timed calls)

    def context(self, **changes) -> Context:
        """A copy of the job's Context for one classification, with ``changes`` set."""
        c = Context(**{**self.ctx.__dict__})
        for k, v in changes.items():
            setattr(c, k, v)
        return c


@dataclass
class Out:
    """What the steps produce: the verify dict, the timings and the capture's warnings."""

    result: dict
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[dict] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """A load or a call failed: the result says why, and no later step runs."""
        return self.result["status"] in (VerifyStatus.VIOLATION, VerifyStatus.ERROR)

    def parts(self) -> tuple[dict, dict, list[dict]]:
        return self.result, self.timings, self.warnings


@dataclass
class Args:
    """The arguments of eager fn and of the artifact (one tuple when shared) and, when shared, the
    version counters they started from."""

    eager: tuple
    artifact: tuple
    versions: Versions | None = None


@dataclass
class Times:
    """Seconds of each call of eager fn and of the artifact, the compared ones first."""

    eager: list[float] = field(default_factory=list)
    artifact: list[float] = field(default_factory=list)


def new_job(fn: Callable, snapshot: tuple, argnames: list[str] | None, seed: int, context: Context | None,
            shared: bool, work_s: float, deep: bool, devices: list[str] | None = None) -> Job:
    try:
        elements = count_elements(snapshot)
    except Exception as e:  # noqa: BLE001 - not counted: the budget decides
        internal_errors.record("verify: counting the inputs' elements", e)
        elements = None
    if devices is None:
        try:
            devices = tensor_devices(snapshot)
        except Exception as e:  # noqa: BLE001 - unknown: only CUDA, where initialised, is waited for
            internal_errors.record("verify: the inputs' devices", e)
            devices = []
    return Job(fn=fn, snapshot=snapshot, names=argnames or [f"arg{i}" for i in range(len(snapshot))],
               seed=seed, ctx=context or Context(), shared=shared, budget=VerifyBudget(work_s, deep, elements),
               devices=list(devices))


def new_result(seed: int, shared: bool) -> dict:
    """The verify dict before any step: the fields every verification has, in the report's order."""
    return {
        "ran": True,
        "status": VerifyStatus.OK,
        "matches_eager": None,
        "max_abs_diff": None,
        "max_rel_diff": None,
        "grads_match": None,
        "buffers_match": None,
        "inputs_match": None,
        "outputs": [],
        "grads": [],
        "buffers": [],
        "parameters": [],
        "inputs": [],
        "calls": 0,
        "seed": seed,
        "args": "shared" if shared else "copied",
        "load_violation": None,
        "call_violation": None,
        "error": None,
        "runtime": None,
        "perturbed": None,
        "accuracy": None,
        "budget": None,
        "load_log": [],
        "load_no_cache": {"ran": False, "reason": DEEP_ONLY},
        "load_no_cache_dir": None,
    }


# --------------------------------------------------------------------------- 1. load
def load_step(job: Job, out: Out, python_code: str, cache: bytes):
    """The artifact, timed ("load", part of the work the budget is a fraction of); where load
    fails, the result's load_violation and status say why (``out.failed``)."""
    f, t_load, err, w = load_artifact(python_code, cache, job.context())
    out.timings["load"] = t_load
    job.budget.add_work(t_load)
    out.result["load_log"].extend(w)
    out.warnings.extend(x for x in w if x["rule"] != "untrusted-python-code")
    if err is not None:
        contract = err.get("status") == Status.VIOLATION
        out.result.update(status=VerifyStatus.VIOLATION if contract else VerifyStatus.ERROR,
                          load_violation=err, matches_eager=False)
    return f


def load_no_cache_step(job: Job, out: Out, python_code: str, cache: bytes, backend: str) -> None:
    """(``deep`` only) the from-scratch reload, timed ("load_no_cache"); not verified."""
    inductor = backend == "inductor"
    _f2, t_nc, _err2, w2 = load_artifact(python_code, no_cache_envelope(cache, python_code, backend),
                                         job.context(), fresh=inductor)
    out.timings["load_no_cache"] = t_nc
    out.result["load_log"].extend(w2)
    out.result["load_no_cache"] = {"ran": True}
    out.result["load_no_cache_dir"] = "fresh" if inductor else None


# --------------------------------------------------------------------------- 2. the arguments
def arguments(job: Job) -> Args:
    """The snapshot itself for both, with its version counters (shared), or a deep copy each."""
    if job.shared:
        args = tuple(job.snapshot)
        return Args(args, args, Versions(args, job.names))
    return Args(fresh_copy(job.snapshot), fresh_copy(job.snapshot))


# --------------------------------------------------------------------------- 3. the calls
def call_both(job: Job, out: Out, f: Callable, args: Args) -> tuple[list[tuple], Times]:
    """([(eager's outputs, the artifact's) per call], their times): eager fn and the artifact
    once each under the same seed, a second time each where the budget allows (result "calls").
    Where eager fn raises, the result's error says so; where the artifact does, its
    call_violation (``out.failed``; the calls made so far are returned)."""
    outputs: list[tuple] = []
    times = Times()
    budget = job.budget
    for k in range(2):
        # a pair costs about twice the cheaper first call (a first call pays for warming up)
        if k == 1 and not budget.fits(2 * min(times.eager[0], times.artifact[0])):
            budget.skip("second call")
            break
        try:
            out_e, dt = timed(job.devices, lambda k=k: seeded_call(job.fn, args.eager, job.seed + k))
            times.eager.append(dt)
        except Exception as exc:  # noqa: BLE001 - eager fn raised: the verification's error, reported
            out.result.update(status=VerifyStatus.ERROR, matches_eager=False,
                              error={**describe(exc, job.ctx.script_path), "where": "eager fn on the example inputs"})
            break
        try:
            out_a, dt = timed(job.devices, lambda k=k: seeded_call(f, args.artifact, job.seed + k))
            times.artifact.append(dt)
        except Exception as exc:  # noqa: BLE001 - the artifact raised: a call violation, reported
            contract, v = classify_exception(exc, job.context(phase="call"))
            out.result.update(status=VerifyStatus.VIOLATION if contract else VerifyStatus.ERROR, matches_eager=False,
                              call_violation=v)
            break
        outputs.append((out_e, out_a))
        if k == 0:
            budget.add_work(times.eager[0] + times.artifact[0])
        else:
            budget.spend(times.eager[1] + times.artifact[1])
        out.result["calls"] = k + 1
    return outputs, times


# --------------------------------------------------------------------------- 4. compare
def compare_outputs(result: dict, outputs: list[tuple]) -> tuple[list[list], list[list]]:
    """Each call's outputs, leaf by leaf, into result["outputs"] ("call1.out[0]", ...; a call whose
    structures differ is one entry, not ok); (eager's leaves, the artifact's leaves) per call."""
    leaves_e, leaves_a = [], []
    for k, (oe, oa) in enumerate(outputs):
        le, se = leaves(oe)
        la, sa = leaves(oa)
        leaves_e.append(le)
        leaves_a.append(la)
        if se != sa or len(le) != len(la):
            result["outputs"].append({"name": f"call{k + 1}", "result": {
                "ok": False, "note": f"output structure differs: eager {se} vs artifact {sa}"}})
            continue
        for i, (x, y) in enumerate(zip(le, la)):
            result["outputs"].append({"name": f"call{k + 1}.out[{i}]", "result": compare_values(x, y)})
    return leaves_e, leaves_a


def compare_arguments(job: Job, result: dict, args: Args) -> None:
    """What the calls left in their arguments. Shared: nothing may have been written (a write is
    an entry, not ok); copied: each gradient, buffer, parameter and mutated input, eager's against
    the artifact's."""
    if job.shared:
        for kind, name in args.versions.changed(args.eager):
            result[kind].append({"name": name, "result": {"ok": False, "note": (
                "written in place by a call, though the captured graph writes to nothing: eager fn "
                "and the artifact disagree about it")}})
        return
    state = compare_state(args.eager, args.artifact, job.names, compare_values)
    for key in ("grads", "buffers", "parameters", "inputs"):
        result[key] = state[key]


def tolerance_summary(result: dict) -> bool:
    """The compared entries in figures: matches_eager and within_tolerance (every entry within the
    tight tolerance), the largest differences, the per-group flags. Returns within_tolerance."""
    all_entries = result["outputs"] + result["grads"] + result["buffers"] + result["parameters"] + result["inputs"]
    ok, mad, mrd = summarise(all_entries)
    result["matches_eager"] = ok
    result["within_tolerance"] = ok
    result["max_abs_diff"] = mad
    result["max_rel_diff"] = mrd
    result["grads_match"] = summarise(result["grads"])[0] if result["grads"] else None
    result["buffers_match"] = summarise(result["buffers"])[0] if result["buffers"] else None
    result["inputs_match"] = summarise(result["inputs"])[0] if result["inputs"] else None
    return ok


# --------------------------------------------------------------------------- 5. the accuracy judge
def _values(outs: list, args: tuple, names: list[str], shared: bool) -> dict[str, dict]:
    """{kind: {entry name: value}} for the accuracy judge, keyed like verify's entries."""
    vals: dict[str, dict] = {"outputs": {}}
    for k, values in enumerate(outs):
        for i, x in enumerate(values):
            vals["outputs"][f"call{k + 1}.out[{i}]"] = x
    vals.update(state_tensors(args, names) if not shared else {"grads": {}, "buffers": {}, "parameters": {},
                                                                  "inputs": {}})
    return vals


def _judge(result, fn, snapshot, names, seed, eager_vals, art_vals, timings) -> dict:
    t0 = time.perf_counter()
    try:
        ref_outs, ref_state = accuracy.reference_run(fn, snapshot, names, seed, max(1, result["calls"]))
    except Exception as exc:  # noqa: BLE001 - no reference: no verdict, the mismatch stands
        timings["accuracy"] = time.perf_counter() - t0
        return accuracy.no_verdict(exc)
    ref_vals = _values(ref_outs, (), names, True)
    ref_vals.update(ref_state)
    acc = accuracy.judge(result, eager_vals, art_vals, ref_vals)
    timings["accuracy"] = time.perf_counter() - t0
    return acc


def _follow_verdict(result: dict, acc: dict) -> None:
    """matches_eager and the per-group flags say what the accuracy judge says (one verdict
    everywhere): a value outside the tight tolerance that the judge calls rounding matches; drift,
    wrong and no verdict do not. The tight comparison stays, under its own name, in
    ``within_tolerance`` and in each entry's ``result.ok``."""
    rounding = {(t.get("kind"), t.get("name")) for t in acc.get("tensors") or []
                if t.get("verdict") == Judgement.MATCHES}

    def matches(key: str, entries: list[dict]) -> bool:
        return all((e.get("result") or {}).get("ok") or (key, e.get("name")) in rounding for e in entries)

    result["matches_eager"] = acc.get("verdict") == Judgement.MATCHES
    for key, flag in (("grads", "grads_match"), ("buffers", "buffers_match"), ("inputs", "inputs_match")):
        if result.get(key):
            result[flag] = matches(key, result[key])


def status_of_verdict(verdict: str | None) -> VerifyStatus:
    """The verify status a verdict of the judge gives: rounding is ok, drift drift, wrong and no
    verdict a mismatch."""
    if verdict == Judgement.MATCHES:
        return VerifyStatus.OK
    if verdict == Judgement.DRIFT:
        return VerifyStatus.DRIFT
    return VerifyStatus.MISMATCH


def judge_accuracy(job: Job, out: Out, within: bool, leaves_e: list, leaves_a: list, args: Args) -> None:
    """Within the tight tolerance the verdict is just that; otherwise the float64 judge names it
    (timed: "accuracy"), and the result's flags and status follow it (drift adds a warning)."""
    result = out.result
    if within:
        result["accuracy"] = accuracy.tolerance_verdict()
        return
    acc = _judge(result, job.fn, job.snapshot, job.names, job.seed,
                 _values(leaves_e, args.eager, job.names, job.shared),
                 _values(leaves_a, args.artifact, job.names, job.shared), out.timings)
    result["accuracy"] = acc
    _follow_verdict(result, acc)
    result["status"] = status_of_verdict(acc["verdict"])
    if result["status"] == VerifyStatus.DRIFT:
        out.warnings.append(accuracy.drift_warning(acc))


# --------------------------------------------------------------------------- 6. latency
def time_calls(out: Out, budget: VerifyBudget, fn: Callable, f: Callable, args: Args, times: Times,
               devices: list[str] | tuple[str, ...] = ()) -> None:
    """The median call of each ("call", "call_eager"; "call_samples" in the result): the compared
    calls' times and, while calls are cheap and within a share of the budget, a few more (added to
    ``times``), each waiting for ``devices`` (common.devices.timed). Best effort: a call that raises
    leaves the figures out."""
    times_e, times_a = times.eager, times.artifact
    try:
        while (len(times_a) < LATENCY_SAMPLES and times_a[-1] < LATENCY_CHEAP_S
               and budget.fits(times_a[-1] + times_e[-1], share=LATENCY_SHARE)):
            times_a.append(timed(devices, lambda: f(*args.artifact))[1])
            times_e.append(timed(devices, lambda: fn(*args.eager))[1])
            budget.spend(times_a[-1] + times_e[-1])
        out.timings["call"] = statistics.median(times_a)
        out.timings["call_eager"] = statistics.median(times_e)
        out.result["call_samples"] = len(times_a)
    except Exception:  # noqa: BLE001 - timing is best effort: fn or the artifact may raise on a later call
        pass


# --------------------------------------------------------------------------- 7. perturbed trials
def _trial_estimate(times_e: list[float], times_a: list[float], shared: bool) -> float:
    """A perturbed trial: a pair of calls (the last measured), and two deep copies unless shared."""
    pair = times_e[-1] + times_a[-1] if len(times_e) > 1 else 2 * min(times_e[0], times_a[0])
    return pair if shared else 1.2 * pair


def perturbed_trials(job: Job, out: Out, f: Callable, times: Times, location: dict | None) -> None:
    """The contract checker's perturbed inputs (timed: "perturbed"), only worth it when the
    example matched; a drifted example says why they did not run."""
    result = out.result
    if result["status"] == VerifyStatus.DRIFT:
        result["perturbed"] = {"ran": False, "trials": [], "diverged": None,
                               "reason": "the example itself drifted (numerics): perturbed inputs would "
                                         "show the same drift"}
    if result["status"] != VerifyStatus.OK:
        return
    from precompile_studio.verify.perturbed import perturbed_check

    t0 = time.perf_counter()
    try:
        summary, pw = perturbed_check(fn=job.fn, artifact=f, snapshot=job.snapshot, names=job.names,
                                      seed=job.seed, context=job.ctx, location=location, budget=job.budget,
                                      estimate_s=_trial_estimate(times.eager, times.artifact, job.shared),
                                      shared=job.shared, devices=job.devices)
    except Exception as exc:  # noqa: BLE001 - a checker bug must not lose the run
        internal_errors.record("checker: the perturbed trials", exc)
        summary, pw = {"ran": False, "trials": [], "diverged": None,
                       "reason": f"checker error: {type(exc).__name__}: {exc}"}, []
    result["perturbed"] = summary
    out.warnings.extend(pw)
    out.timings["perturbed"] = time.perf_counter() - t0


def resized_trials(job: Job, out: Out, f: Callable, times: Times, graph: dict | None,
                   location: dict | None) -> None:
    """The marked dims at other sizes (resized.py; timed: "resized"), when the example matched;
    nothing in the report where no dim is marked."""
    if out.result["status"] != VerifyStatus.OK:
        return
    from precompile_studio.verify.resized import resized_check

    t0 = time.perf_counter()
    try:
        summary, warnings = resized_check(fn=job.fn, artifact=f, snapshot=job.snapshot, names=job.names,
                                          seed=job.seed, context=job.ctx, budget=job.budget,
                                          estimate_s=_trial_estimate(times.eager, times.artifact, job.shared),
                                          shared=job.shared, devices=job.devices, graph=graph, location=location)
    except Exception as exc:  # noqa: BLE001 - a checker bug must not lose the run
        internal_errors.record("checker: the resized trials", exc)
        summary, warnings = {"ran": False, "marks": [], "trials": [], "diverged": None,
                             "reason": f"checker error: {type(exc).__name__}: {exc}"}, []
    if summary is None:
        return
    out.result["resized"] = summary
    out.warnings.extend(warnings)
    out.timings["resized"] = time.perf_counter() - t0


# --------------------------------------------------------------------------- 8. runtime inputs
def runtime_step(job: Job, out: Out, f: Callable, runtime_inputs: Callable[[], tuple],
                 location: dict | None) -> None:
    """The artifact on the script's runtime_inputs (runtime.py), its warnings the capture's."""
    out.result["runtime"] = check_runtime(job.fn, f, runtime_inputs, job.ctx, location, job.seed, job.snapshot)
    out.warnings.extend(out.result["runtime"].pop("warnings", []))


def run_verify(
    *,
    fn: Callable,
    snapshot: tuple,
    python_code: str,
    cache: bytes,
    backend: str,
    argnames: list[str] | None = None,
    runtime_inputs: Callable[[], tuple] | None = None,
    context: Context | None = None,
    runtime_location: dict | None = None,
    seed: int = 20261202,
    perturb: bool = False,
    perturb_location: dict | None = None,
    deep: bool = False,
    work_s: float = 0.0,
    may_mutate: bool | None = None,
    devices: list[str] | None = None,
    profile: Callable[[Callable, tuple], None] | None = None,
    graph: dict | None = None,
) -> tuple[dict, dict, list[dict]]:
    """(verify dict, timings, warnings): the steps of the module's docstring, in order.

    ``work_s``: seconds of the work being checked (script and precompile), which sets the
    budget of the optional checks; ``deep``: every check, no budget; ``may_mutate``: whether the
    captured graph may write to its arguments (False: both calls share them); ``devices``: the
    example tensors' devices (common.devices.tensor_devices of the snapshot where not given);
    ``profile``: called last with the verified artifact and its arguments (``run --profile``,
    verify/profile.py), where no call failed; ``graph``: the captured graph (capture/graph.py),
    where the resized trials look for the op that ties two marked dims.
    """
    shared = may_mutate is False
    job = new_job(fn, snapshot, argnames, seed, context, shared, work_s, deep, devices)
    out = Out(new_result(seed, shared))

    f = load_step(job, out, python_code, cache)                          # 1
    if out.failed:
        return out.parts()
    if deep:
        load_no_cache_step(job, out, python_code, cache, backend)
    args = arguments(job)                                                 # 2
    with rng_fork():
        outputs, times = call_both(job, out, f, args)                     # 3
        if out.failed:
            return out.parts()
        leaves_e, leaves_a = compare_outputs(out.result, outputs)         # 4
        del outputs
        compare_arguments(job, out.result, args)
        within = tolerance_summary(out.result)
        judge_accuracy(job, out, within, leaves_e, leaves_a, args)        # 5
        del leaves_e, leaves_a
        time_calls(out, job.budget, fn, f, args, times, job.devices)      # 6
        del args  # the perturbed trials make their own
        if perturb:
            perturbed_trials(job, out, f, times, perturb_location)        # 7
        resized_trials(job, out, f, times, graph, perturb_location)
        if runtime_inputs is not None:
            runtime_step(job, out, f, runtime_inputs, runtime_location)   # 8
        if profile is not None:
            profile(f, arguments(job).artifact)                           # run --profile
    out.result["budget"] = job.budget.report()
    return out.parts()
