"""Map precompile's contract outcomes to {invariant, rule, kind, message, explanation, fix, location}.

The rules (torch's fixed message texts, the invariants) are in :mod:`precompile_studio.rules`;
where an outcome points, in :mod:`precompile_studio.locate`. On top of torch's message this
module adds what the user needs in their own words:

- ``summary``: our one line (:mod:`precompile_studio.hints`), without torch advice that does not
  apply to a precompile user; torch's full text stays in ``message``;
- ``chain``: for a violation raised inside a third-party package, user line -> the package's
  frame (file, line, code, package, version) -> the torch op (:mod:`precompile_studio.frames`),
  with a fix that speaks to that case (:mod:`precompile_studio.libraries`);
- for a baked constant, each constant's Python name, origin and lines
  (:mod:`precompile_studio.constants`);
- for a parameter- or buffer-level mismatch, the parameter's name
  (:mod:`precompile_studio.params`).
"""
from __future__ import annotations

import re
import traceback

from precompile_studio.common import internal_errors
from precompile_studio.contract.locate import Context, _fn_location, _innermost_frame, is_arity_error, locate
from precompile_studio.contract.rules import (
    INVARIANTS,
    RULES,
    WARNING_RULES,
    Rule,
    match_rule,
    match_warning,
    mentioned_invariants,
    rule_named,
)

__all__ = [
    "INVARIANTS", "RULES", "WARNING_RULES", "Context", "Rule", "classify_exception",
    "classify_warning", "format_traceback", "is_arity_error", "match_rule", "match_warning",
    "mentioned_invariants", "rule_named", "_fn_location",
]

_OP = re.compile(r"tracing tensor with (\S+)")


def _constant_fix(constants: list[dict]) -> str | None:
    """The fix for the first named constant, in the user's names."""
    c = next((c for c in constants if c.get("name") or c.get("origin") == "literal"), None)
    if c is None:
        return None
    origin, name = c.get("origin"), c.get("name")
    line = (c.get("defined") or {}).get("line")
    at = f" (line {line})" if line else ""
    if origin == "module attribute":
        attr = name.split(".", 1)[-1]
        return (f"Register `{name}`{at} as a buffer of its module (self.register_buffer(\"{attr}\", ...)) "
                "or as an nn.Parameter: then it reaches fn as an input of the module argument.")
    if origin == "literal":
        return (f"Build the tensor{at} outside fn and pass it in as an argument of fn (add it to "
                "example_inputs).")
    if origin == "default argument":
        return (f"Pass `{name}` explicitly: add it to example_inputs instead of relying on its default{at}, "
                "or register it on a module argument as a buffer.")
    return (f"Pass the {origin} `{name}`{at} to fn as an argument (add a parameter to fn and the tensor "
            "to example_inputs), or register it on a module argument as a buffer.")


def _enrich(rule: Rule | None, exc: BaseException, message: str, ctx: Context, violation: dict) -> None:
    """Add the user's names, the chain below user code and our summary (never raises)."""
    from precompile_studio.common.frames import chain_from_traceback, library_step
    from precompile_studio.contract.hints import summary
    from precompile_studio.contract.libraries import library_fix

    name = rule.rule if rule else None
    details = violation["details"]
    chain = None
    if name == "constant-tensor" and ctx.probe is not None:
        from precompile_studio.contract.constants import name_constants

        names = name_constants(ctx.probe)
        for c in details.get("constants", []):
            n = names.get(c.get("node"))
            if n:
                c.update({k: v for k, v in n.items() if k != "chain"})
                if n.get("used"):
                    c["location"] = n["used"]
                if n.get("chain") and chain is None:
                    chain = n["chain"]
        if details.get("constants") and details["constants"][0].get("location"):
            violation["location"] = details["constants"][0]["location"]
        named = _constant_fix(details.get("constants") or [])
        if named:
            violation["fix"] = named
    elif name in ("input-layout", "param-buffer-mismatch"):
        from precompile_studio.contract.params import describe_param_mismatch

        found = describe_param_mismatch(exc, message)
        if found:
            details.update(found)
            if found.get("fix"):
                violation["fix"] = details.pop("fix")
    else:
        m = _OP.search(message)
        chain = chain_from_traceback(exc, ctx.script_path, m.group(1) if m else None)
    if chain:
        violation["chain"] = chain
    lib = library_step(chain)
    if lib is not None and name in ("data-dependent-value", "constant-tensor"):
        fix, pattern = library_fix(lib, name)
        violation["fix"] = fix
        if pattern:
            violation["library_pattern"] = pattern
    s = summary(name, message, details, lib)
    if s:
        violation["summary"] = s


def _precompiles_own(exc: BaseException) -> bool:
    """Raised by precompile's own argument checking (its innermost frame is torch's)."""
    last = _innermost_frame(exc)
    return last is not None and last.tb_frame.f_code.co_filename.replace("\\", "/").endswith(
        ("torch/_precompile.py", "torch/_precompile_driver.py"))


def match_exception(exc: BaseException, message: str) -> tuple[Rule | None, bool]:
    """(the rule, whether it is a contract outcome) of an exception: every PrecompileError is
    one; a NotImplementedError, ValueError or plain RuntimeError where a rule knows its words;
    the TypeError of fn called positionally; a NotImplementedError or ValueError precompile
    raised itself in words no rule knows yet (no rule)."""
    try:
        from torch._precompile import PrecompileError
    except ImportError:  # pragma: no cover
        PrecompileError = ()  # type: ignore[assignment]
    if isinstance(exc, PrecompileError):
        return match_rule(message, "PrecompileError"), True
    rule = None
    if isinstance(exc, NotImplementedError):
        rule = match_rule(message, "NotImplementedError")
    elif isinstance(exc, ValueError):
        rule = match_rule(message, "ValueError")
    elif isinstance(exc, TypeError) and (rule := match_rule(message, "TypeError")) is not None:
        return rule, True
    elif is_arity_error(exc):
        return rule_named("positional-arguments-only"), True
    elif type(exc) is RuntimeError:
        rule = match_rule(message, "RuntimeError")
    if rule is not None:
        return rule, True
    return None, isinstance(exc, (NotImplementedError, ValueError)) and _precompiles_own(exc)


def _explanation(rule: Rule) -> str:
    """The rule's invariant in words, then the rule's own explanation."""
    inv = rule.invariant
    title, text = INVARIANTS.get(inv, (None, None)) if inv else (None, None)
    explanation = rule.explanation or (f"Invariant {inv} — {title}: {text}" if inv else "")
    if rule.explanation and inv:
        explanation = f"Invariant {inv} — {title}: {text} {rule.explanation}"
    return explanation


def _ruled(rule: Rule, desc: dict, ctx: Context, location: dict | None, details: dict) -> dict:
    inv = rule.invariant
    return {
        "invariant": inv,
        "invariants": list(rule.invariants or ((inv,) if inv else ())),
        "rule": rule.rule,
        "kind": desc["kind"],
        "phase": ctx.phase or rule.phase,
        "message": desc["message"],
        "explanation": _explanation(rule),
        "fix": rule.fix,
        "location": location,
        "details": details,
        "traceback": desc["traceback"],
    }


def _unruled(contract: bool, desc: dict, ctx: Context, location: dict | None, details: dict) -> dict:
    """No rule: "unclassified" where it is a contract outcome, else a plain error."""
    return {
        "invariant": None,
        "invariants": [],
        "rule": "unclassified" if contract else None,
        "kind": desc["kind"],
        "phase": ctx.phase,
        "message": desc["message"],
        "explanation": (
            "precompile reported this in words the studio does not know (torch may have "
            "changed its message); the full text is kept." if contract else None
        ),
        "fix": None,
        "location": location or desc["location"],
        "details": details,
        "traceback": desc["traceback"],
        "mentions": mentioned_invariants(desc["message"]),
    }


def classify_exception(exc: BaseException, ctx: Context | None = None) -> tuple[bool, dict]:
    """(is_contract_outcome, violation dict) for an exception out of precompile / load / a call."""
    from precompile_studio.common.errors import describe

    ctx = ctx or Context()
    desc = describe(exc, ctx.script_path)
    message = desc["message"]
    rule, contract = match_exception(exc, message)
    location, details = locate(rule, exc, message, ctx)
    if rule is not None:
        violation = _ruled(rule, desc, ctx, location, details)
    else:
        violation = _unruled(contract, desc, ctx, location, details)
    with internal_errors.survive("violations: the words of the violation"):  # a courtesy; never lose it
        _enrich(rule, exc, message, ctx, violation)
    return contract, violation


def classify_warning(message: str, location: dict | None = None) -> dict:
    r = match_warning(message)
    return {
        "invariant": r.invariant if r else None,
        "rule": r.rule if r else "unclassified",
        "message": message,
        "fix": r.fix if r else None,
        "location": location,
    }


def format_traceback(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
