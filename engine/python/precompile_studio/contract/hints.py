"""The one-line summary of a violation, in the words of a precompile user.

Some of torch's messages end with advice for someone driving the tracer themselves ("try
setting tracing_mode='symbolic' in your make_fx call"); a precompile user never calls make_fx,
so the summary leaves that advice out and says what happened in fn instead. torch's full
message stays in the violation's ``message``.
"""
from __future__ import annotations

import os
import re

# torch's advice that does not apply to a precompile user: (regex, why it does not apply)
MISLEADING: tuple[tuple[str, str], ...] = (
    (r"\s*It may be possible to trace this with dynamic shapes; try setting tracing_mode='symbolic' "
     r"in your make_fx call\.?",
     "precompile runs make_fx itself; its tracing mode is not an option"),
)

_OP = re.compile(r"tracing tensor with (\S+)")


def strip_misleading(message: str) -> str:
    for pattern, _why in MISLEADING:
        message = re.sub(pattern, "", message)
    return message.strip()


def _lib(step: dict | None) -> str:
    if not step:
        return ""
    ver = f" {step['version']}" if step.get("version") else ""
    expr = step.get("code")
    code = f": `{expr}`" if expr else ""
    return (f" inside {step.get('package')}{ver} ({os.path.basename(step.get('file') or '?')}:"
            f"{step.get('line')}){code}")


def summary(rule: str | None, message: str, details: dict, library: dict | None) -> str | None:
    """Our one line for a violation, or None to keep torch's first line."""
    if details.get("mismatch"):
        return details["mismatch"]
    if rule == "data-dependent-value":
        m = _OP.search(message)
        op = m.group(1) if m else "a value read"
        return (f"fn reads a traced tensor's value into Python ({op}){_lib(library)}; precompile "
                "records one path through fn and cannot re-decide a value-dependent branch")
    if rule == "constant-tensor":
        consts = details.get("constants") or []
        if library:
            more = f" (and {len(consts) - 1} more)" if len(consts) > 1 else ""
            return (f"a tensor that is not an input of fn{more} is built or held{_lib(library)}; it "
                    "would be baked into the graph")
        named = [c for c in consts if c.get("name") or c.get("origin") == "literal"]
        if named:
            c = named[0]
            what = (f"the {c['origin']} `{c.get('qualname') or c['name']}`" if c.get("name")
                    else "a tensor literal built")
            defined = c.get("defined") or {}
            where = f" (defined at line {defined['line']})" if defined.get("line") and c.get("name") else ""
            more = f" and {len(consts) - 1} more" if len(consts) > 1 else ""
            return (f"fn reads {what}{where}{more}{_lib(library)}: a tensor that is not an input "
                    "would be baked into the graph")
        if library:
            return f"a tensor that is not an input would be baked into the graph{_lib(library)}"
        return None
    if library:
        first = strip_misleading(message).splitlines()
        return (first[0] if first else message) + _lib(library).replace(" inside", " (raised inside", 1) + ")"
    cleaned = strip_misleading(message)
    if cleaned != message.strip():
        first = cleaned.splitlines()
        return first[0] if first else None
    return None
