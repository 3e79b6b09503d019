"""The status of a capture and of a run, decided after verification.

A capture's ``status`` says what came of the whole capture, verification included:

- ``violation``: precompile raised a contract error at capture, or the artifact's load or
  call on the example inputs was rejected (verify.status "violation"), or the call on
  ``runtime_inputs`` was (verify.runtime.status "violation");
- ``error``: a non-contract exception at capture, verify.status "error" (eager fn failed on
  the example inputs, a load or call failed in other words), or verify.runtime.status
  "error" (runtime_inputs() raised, or the runtime call did in other words);
- ``mismatch``: the artifact ran but differs from eager fn (verify.status "mismatch", or
  verify.runtime.matches_eager is False), or a perturbed trial measured it computing a wrong
  answer where eager does not (verify.perturbed.diverged: the artifact is specialised to the
  example's values; a hazard without such a measurement stays a warning), or a marked dim at
  another size did (verify.resized.diverged: a trial wrong at other sizes, or independently
  marked dims at unequal sizes that the artifact accepted where eager fn refuses);
- ``ok``: none of these, verification skipped included -- and a numerics drift: where the
  artifact differs from eager beyond tolerance, the accuracy judge (accuracy.py) compares both
  with a float64 run of eager; "wrong" is a mismatch, but "numerics drift" (the backend's
  arithmetic, far beyond eager's own rounding, not a contract problem) leaves the capture ok
  with verify.status "drift" and a numerics-drift warning, and the run's message and verdict
  say "numerics drift" (``drift_message``).

The capture's ``outcome`` names the first cause of that status (null when ok):
``{where: capture|load|call|verify|runtime, invariant, rule, kind, message, location}``.
The run's status is the worst capture status (error > violation > mismatch > ok) and its
message names the first capture with that status and its cause, in one line.
"""
from __future__ import annotations

from precompile_studio.common.outcomes import Judgement, RuntimeStatus, Status, TrialStatus, VerifyStatus
from precompile_studio.verify.resized import finding

# The noun each kind of compared value is counted in, in the order verify lists them.
_NOUNS = (("outputs", "output", "outputs"), ("grads", "gradient", "gradients"),
          ("buffers", "buffer", "buffers"), ("parameters", "parameter", "parameters"),
          ("inputs", "mutated input", "mutated inputs"))

# Words a run message puts before the cause, per place.
_LEADS = {
    ("load", Status.VIOLATION): "load rejected",
    ("load", Status.ERROR): "load failed",
    ("call", Status.VIOLATION): "call on the example inputs rejected",
    ("call", Status.ERROR): "call on the example inputs failed",
    ("verify", Status.ERROR): "verification failed",
    ("runtime", Status.VIOLATION): "runtime call rejected",
    ("runtime", Status.ERROR): "runtime call failed",
}


def _first_line(text) -> str:
    lines = str(text or "").strip().splitlines()
    return lines[0].strip() if lines else ""


def _from_violation(where: str, v: dict | None, default_rule: str = "error") -> dict:
    """The outcome of a classified exception (a violation dict of violations.py)."""
    v = v or {}
    return {
        "where": where,
        "invariant": v.get("invariant"),
        "rule": v.get("rule") or default_rule,
        "kind": v.get("kind"),
        "message": v.get("summary") or _first_line(v.get("message")),  # summary: violations.py's own words
        "location": v.get("location"),
    }


def _differs(entries: dict, nouns=_NOUNS) -> str:
    """'60 of 62 gradients differ from eager (max abs diff 0.03)' for verify's entry lists."""
    parts: list[str] = []
    bad_total = 0
    worst: float | None = None
    note = None
    for key, one, many in nouns:
        group = entries.get(key) or []
        bad = [e for e in group if not (e.get("result") or {}).get("ok")]
        if not bad:
            continue
        bad_total += len(bad)
        parts.append(f"{len(bad)} of {len(group)} {one if len(group) == 1 else many}")
        for e in bad:
            r = e.get("result") or {}
            d = r.get("max_abs_diff")
            if r.get("sizes_match") is False or r.get("dtypes_match") is False:
                note = note or f"{e.get('name')}: " + (
                    f"sizes {r['sizes'][0]} (eager) vs {r['sizes'][1]} (artifact)"
                    if r.get("sizes_match") is False else
                    f"dtypes {r['dtypes'][0]} (eager) vs {r['dtypes'][1]} (artifact)")
            elif isinstance(d, (int, float)):
                worst = d if worst is None else max(worst, d)
            elif r.get("note"):
                note = note or f"{e.get('name')}: {r['note']}"
    if not parts:
        return "differs from eager"
    verb = "differs" if bad_total == 1 else "differ"
    text = f"{', '.join(parts)} {verb} from eager"
    if worst is not None:
        return f"{text} (max abs diff {worst:.3g})"
    if note:
        return f"{text} ({note})"
    return text


def _judged(verify: dict) -> str:
    """A mismatch in words: the accuracy judge's when it found the artifact wrong."""
    acc = verify.get("accuracy") or {}
    text = _first_line(acc.get("message"))
    if acc.get("verdict") == Judgement.WRONG and text:
        return text
    if text.startswith("no verdict"):
        return f"{_differs(verify)}; {text}"
    return _differs(verify)


def drift_message(captures: list[dict]) -> str | None:
    """'NAME: numerics drift in ...' for the first capture whose verification drifted."""
    for c in captures:
        v = c.get("verify") or {}
        if c.get("status") == Status.OK and v.get("status") == VerifyStatus.DRIFT:
            text = _first_line((v.get("accuracy") or {}).get("message")) or "numerics drift"
            return f"{c.get('name')}: {text}"
    return None


def _mismatch(where: str, message: str) -> dict:
    return {"where": where, "invariant": None, "rule": "differs-from-eager", "kind": None,
            "message": message, "location": None}


def _perturbed_mismatch(perturbed: dict) -> dict:
    """A perturbed trial that diverged is measured evidence of a wrong result (the artifact is
    specialised to the example's values): a mismatch, naming the trial and what it measured."""
    trial = next((t for t in perturbed.get("trials") or [] if t.get("status") == TrialStatus.DIVERGED), {})
    note = _first_line(trial.get("note")) or "the artifact and eager fn disagree"
    return {"where": "verify", "invariant": 3, "rule": "perturbed-divergence", "kind": None,
            "message": f"on inputs with other values ({trial.get('inputs') or 'a perturbed trial'}), {note}",
            "location": None}


def _resized_mismatch(resized: dict) -> dict:
    """A marked dim at another size measured wrong, or independently marked dims whose unequal
    sizes the artifact accepted where eager fn refuses: a mismatch saying the trial's finding."""
    found = (TrialStatus.ACCEPTED, TrialStatus.DIVERGED)
    trial = next((t for t in resized.get("trials") or [] if t.get("status") in found), {})
    f = finding({"status": TrialStatus.DIVERGED, **trial}, None)
    return {"where": "verify", "invariant": 3, "rule": f["rule"], "kind": None,
            "message": _first_line(f["message"]), "location": f["location"]}


def _runtime_differs(rt: dict) -> str:
    entries = rt.get("outputs")
    if not entries:
        return "on runtime_inputs the output structure differs from eager's"
    return "on runtime_inputs, " + _differs({"values": entries}, (("values", "value", "values"),))


def _causes(status: str, violation: dict | None, verify: dict | None) -> list[tuple[Status, dict]]:
    """Every (status, outcome) of one capture, in the order they happened."""
    if status in (Status.VIOLATION, Status.ERROR):
        return [(Status(status), _from_violation("capture", violation))]
    out: list[tuple[Status, dict]] = []
    if not verify:
        return out
    vs = verify.get("status")
    if vs in (VerifyStatus.VIOLATION, VerifyStatus.ERROR):
        vs = Status(vs)
        if verify.get("load_violation"):
            out.append((vs, _from_violation("load", verify["load_violation"])))
        elif verify.get("call_violation"):
            out.append((vs, _from_violation("call", verify["call_violation"])))
        else:
            err = verify.get("error") or {}
            rule = "eager-error" if err.get("where") else "verify-error"
            o = _from_violation("verify", err, rule)
            o["rule"] = rule
            if err.get("where"):
                o["message"] = f"{err['where']} raised {err.get('kind')}: {o['message']}"
            out.append((vs, o))
    elif vs == VerifyStatus.MISMATCH:
        out.append((Status.MISMATCH, _mismatch("verify", _judged(verify))))
    elif (verify.get("perturbed") or {}).get("diverged") is True:
        out.append((Status.MISMATCH, _perturbed_mismatch(verify["perturbed"])))
    elif (verify.get("resized") or {}).get("diverged") is True:
        out.append((Status.MISMATCH, _resized_mismatch(verify["resized"])))
    rt = verify.get("runtime")
    if isinstance(rt, dict):
        rs = rt.get("status")
        if rs == RuntimeStatus.VIOLATION:
            out.append((Status.VIOLATION, _from_violation("runtime", rt.get("violation"))))
        elif rs == RuntimeStatus.ERROR:
            if rt.get("violation"):
                out.append((Status.ERROR, _from_violation("runtime", rt["violation"])))
            else:
                err = rt.get("error") or {}
                o = _from_violation("runtime", err, "runtime-inputs-error")
                o["rule"] = "runtime-inputs-error"
                o["message"] = f"{err.get('where') or 'runtime_inputs()'} raised {err.get('kind')}: {o['message']}"
                out.append((Status.ERROR, o))
        elif rt.get("matches_eager") is False and (rt.get("accuracy") or {}).get("verdict") not in (
                Judgement.MATCHES, Judgement.DRIFT):
            out.append((Status.MISMATCH, _mismatch("runtime", _runtime_differs(rt))))
    return out


def capture_outcome(status: str, violation: dict | None, verify: dict | None) -> tuple[Status, dict | None]:
    """(final status, outcome) of a capture from its capture-time status and its verify."""
    causes = _causes(status, violation, verify)
    if not causes:
        return Status.OK, None
    worst = max(s.severity for s, _ in causes)
    return next((s, o) for s, o in causes if s.severity == worst)


def _cause_name(outcome: dict) -> str:
    inv, rule = outcome.get("invariant"), outcome.get("rule")
    if inv is not None:
        return f"invariant {inv} ({rule})"
    if rule and rule not in ("error", "unclassified"):
        return str(rule)
    return ""


def capture_message(capture: dict, one_line_of_violation) -> str:
    """The one-line cause of a non-ok capture, without its name."""
    o = capture.get("outcome") or {}
    where = o.get("where")
    if where == "capture" or not o:
        return one_line_of_violation(capture.get("violation") or {})
    if capture["status"] == Status.MISMATCH:
        return o.get("message") or "differs from eager"
    lead = _LEADS.get((where, capture["status"]), capture["status"])
    if o.get("rule") in ("eager-error", "verify-error", "runtime-inputs-error"):
        return f"{lead}: {o.get('message')}"
    name = _cause_name(o)
    kind = o.get("kind")
    text = o.get("message") or ""
    if not name and kind:
        text = f"{kind}: {text}"
    return ": ".join(p for p in (lead, name, text) if p)


def run_status(captures: list[dict]) -> tuple[Status, dict | None]:
    """(the worst capture status, the first capture with it, or None when all are ok). A word that
    names no status counts as an error."""
    if not captures:
        return Status.OK, None
    status = max((Status.of(c.get("status")) for c in captures), key=lambda s: s.severity)
    if status is Status.OK:
        return Status.OK, None
    first = next(c for c in captures if Status.of(c.get("status")) is status)
    return status, first
