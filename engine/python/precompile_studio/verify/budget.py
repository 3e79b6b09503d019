"""How much verification a capture gets by default: at the cost of the work it checks.

Verification always loads the artifact, calls it and eager fn once each on the example inputs,
compares what they returned and left behind, and -- where they differ -- judges the difference
against a float64 run of eager (accuracy.py). Everything past that is optional and runs in this
order while its estimated cost fits the allowance: a second call of each (gradients must
accumulate, running statistics update again), a few more calls to time (within a fifth of the
allowance), the contract checker's perturbed trials. The allowance is a fraction of the work
being checked (running the script, precompile, load and the first calls), with a floor. Small
models and inputs (at most ``SMALL_ELEMENTS`` tensor elements in all: counted, not timed, so
that what runs does not depend on how busy the machine is) get every check, as does ``deep``
(``--deep-verify``), which also adds the from-scratch reload (``load_no_cache``). What did not
fit is listed in the report, with how to ask for it.
"""
from __future__ import annotations

import time
from typing import Any

FRACTION = 0.10     # of the work checked
FLOOR_S = 1.0       # seconds every capture may spend on the optional checks
SMALL_ELEMENTS = 1_000_000  # parameters, buffers and input tensors: 4 MB of float32
HOW = "run with --deep-verify for every check"


def count_elements(args: tuple) -> int:
    """Tensor elements in the arguments: parameters, buffers and the tensors among the inputs."""
    from precompile_studio.common.state import state_tensors

    seen: set[int] = set()
    n = 0
    for kind, tensors in state_tensors(tuple(args), []).items():
        if kind == "grads":
            continue
        for t in tensors.values():
            if t is not None and id(t) not in seen:
                seen.add(id(t))
                n += t.numel()
    return n


class VerifyBudget:
    def __init__(self, work_s: float, deep: bool = False, elements: int | None = None):
        self.deep = deep
        self.small = elements is not None and elements <= SMALL_ELEMENTS
        self.elements = elements
        self.work_s = max(0.0, work_s)
        self.spent_s = 0.0
        self.skipped: list[str] = []

    @property
    def unlimited(self) -> bool:
        return self.deep or self.small

    @property
    def allowance_s(self) -> float:
        return float("inf") if self.unlimited else max(FLOOR_S, FRACTION * self.work_s)

    def add_work(self, seconds: float) -> None:
        """More of the work being checked (load, the first calls) raises the allowance."""
        self.work_s += max(0.0, seconds)

    def fits(self, estimate_s: float, share: float = 1.0) -> bool:
        """Whether spending estimate_s more stays within ``share`` of the allowance."""
        return self.unlimited or self.spent_s + max(0.0, estimate_s) <= share * self.allowance_s

    def spend(self, seconds: float) -> None:
        self.spent_s += max(0.0, seconds)

    def skip(self, what: str) -> None:
        if what not in self.skipped:
            self.skipped.append(what)

    def report(self) -> dict:
        out = {"deep": self.deep, "small": self.small, "elements": self.elements,
               "allowance_s": None if self.unlimited else round(self.allowance_s, 3),
               "spent_s": round(self.spent_s, 3), "skipped": list(self.skipped)}
        if self.skipped:
            out["how"] = HOW
        return out



SKIPPED = object()  # budgeted(): the trial did not fit


def budgeted(budget: VerifyBudget | None, estimate_s: float, devices, what: str, run) -> tuple[Any, float]:
    """(run()'s result, the seconds it took: the next trial's estimate) where ``estimate_s`` fits
    the budget (None: no budget), the devices waited for around it (common.devices); else
    (SKIPPED, estimate_s), ``what`` noted as skipped."""
    from precompile_studio.common.devices import synchronize

    if budget is not None and not budget.fits(estimate_s):
        budget.skip(what)
        return SKIPPED, estimate_s
    synchronize(devices)
    t0 = time.perf_counter()
    try:
        result = run()
    finally:
        synchronize(devices)
        elapsed = time.perf_counter() - t0
        if budget is not None:
            budget.spend(elapsed)
    return result, elapsed


def over_budget(estimate_s: float) -> str:
    """A skipped trial's reason."""
    return f"over the verification budget (about {estimate_s:.2g} s a trial)"
