"""Where a classified outcome points: the user's line, from the capture probe or the traceback.

:class:`Context` is what the caller knows (script, probe, fn, phase); :func:`locate` turns a
rule, an exception and that context into (location, details).
"""
from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from precompile_studio.contract.rules import ARITY, Rule


@dataclass
class Context:
    """What is known where the exception happened (all optional)."""

    script_path: str | None = None
    source: Any = None                # ScriptSource of the studio's script
    probe: Any = None                 # CaptureProbe of the precompile call
    fn: Callable | None = None
    phase: str | None = None          # capture | load | call
    call_location: dict | None = None  # e.g. the runtime_inputs line for a runtime call
    name_lines: dict | None = None    # {"backend": 3, "tracer": 4} definition lines


def _innermost_frame(exc: BaseException):
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    return last


def is_arity_error(exc: BaseException) -> bool:
    """The raw TypeError Python raises when precompile calls fn positionally."""
    if not isinstance(exc, TypeError) or not ARITY.search(str(exc)):
        return False
    last = _innermost_frame(exc)
    if last is None:
        return False
    code = last.tb_frame.f_code
    return code.co_filename.replace("\\", "/").endswith("torch/_precompile.py") and code.co_name == "flat_fn"


def _loc(file, line) -> dict | None:
    return {"file": file, "line": int(line)} if file and line else None


def _node_loc(probe, node) -> dict | None:
    ni = probe.info.get(node) if probe is not None else None
    if ni is not None and ni.line is not None:
        return _loc(ni.file, ni.line)
    return None


def _users_loc(probe, node) -> dict | None:
    loc = _node_loc(probe, node)
    if loc:
        return loc
    for u in node.users:
        loc = _node_loc(probe, u)
        if loc:
            return loc
    return None


def _graph(probe):
    if probe is None:
        return None
    if probe.gm is not None:
        return probe.gm.graph
    return probe.graph


def _fn_location(fn, source=None, want_return: bool = False) -> dict | None:
    """The def line of fn, or (want_return) the line of its last return statement."""
    code = getattr(fn, "__code__", None)
    if code is None:
        # the method itself, for its code (not a callable() test)
        call = getattr(fn, "forward", None) or getattr(type(fn), "__call__", None)  # noqa: B004
        code = getattr(call, "__code__", None)
    if code is None:
        return None
    file, first = code.co_filename, code.co_firstlineno
    if want_return:
        tree = None
        if source is not None and os.path.realpath(source.path) == os.path.realpath(file):
            tree = source.tree
        else:
            try:
                with open(file, encoding="utf-8") as f:
                    tree = ast.parse(f.read())
            except (OSError, SyntaxError, ValueError):
                tree = None
        if tree is not None:
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    node.lineno == first or (node.decorator_list and node.decorator_list[0].lineno == first)
                ):
                    returns = [n for n in ast.walk(node) if isinstance(n, ast.Return)]
                    if returns:
                        return _loc(file, max(r.lineno for r in returns))
                if isinstance(node, ast.Lambda) and node.lineno == first:
                    return _loc(file, node.body.lineno)
    return _loc(file, first)


def _traceback_user_location(exc: BaseException, script_path: str | None) -> dict | None:
    from precompile_studio.common.errors import user_location

    seen = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        loc = user_location(e, script_path)
        if loc:
            return loc
        e = e.__cause__ or e.__context__
    return None


def _offending_targets(message: str, key: str) -> list[str]:
    i = message.find(key)
    if i < 0:
        return []
    return re.findall(r"'([^']+)'", message[i + len(key):].split("].")[0] + "]")


_ELSEWHERE = object()  # a rule's own way found nothing: the general ways apply

_EXAMPLE_MARKS = ("mark-dynamic-unsupported", "specialize-on-unsupported", "unbacked-subclass",
                  "unbacked-memory-format", "nested-tensor-input", "nested-tensor-example")
_SETTINGS = {"unknown-backend": "backend", "unbacked-needs-inductor": "backend",
             "unknown-tracer": "tracer", "tracer-not-implemented": "tracer", "capture-tracer-type": "tracer"}


def _constant_location(probe, g, message: str, details: dict):
    """The first line that used a baked constant the message names; details["constants"]."""
    m = re.search(r"Offending constants \(target, shape, dtype\): (\[.*\])\. Fix", message, re.S)
    targets = []
    if m:
        try:
            targets = [t[0] for t in ast.literal_eval(m.group(1))]
        except (ValueError, SyntaxError):
            targets = re.findall(r"\('([^']+)'", m.group(1))
    consts = []
    first = None
    for node in g.nodes:
        if node.op == "get_attr" and (not targets or node.target in targets):
            loc = _users_loc(probe, node)
            consts.append({"target": node.target, "node": node.name, "users": [u.name for u in node.users],
                           "location": loc})
            if first is None and loc:
                first = loc
    details["constants"] = consts
    return first or _ELSEWHERE


def _subgraph_location(probe, g, message: str, details: dict):
    """The line of the first control-flow subgraph the message names; details["subgraphs"]."""
    targets = _offending_targets(message, "Offending get_attr targets:")
    for node in g.nodes:
        if node.op == "get_attr" and (not targets or node.target in targets):
            loc = _users_loc(probe, node)
            details.setdefault("subgraphs", []).append({"target": node.target, "location": loc})
            if loc:
                return loc
    return _ELSEWHERE


def _effectful_location(probe, g, message: str, details: dict):
    """The line of the effectful op's node; details["op"] (and "node")."""
    m = re.search(r"effectful op \(?([\w.:]+)", message)
    op = m.group(1).rstrip(".") if m else None
    details["op"] = op
    if op:
        for node in g.nodes:
            if node.op == "call_function" and str(node.target) in (op, op.replace("::", ".")):
                loc = _node_loc(probe, node)
                if loc:
                    details["node"] = node.name
                    return loc
    return _ELSEWHERE


_IN_GRAPH = {"constant-tensor": _constant_location, "control-flow-subgraph": _subgraph_location,
             "effectful-op": _effectful_location, "effectful-op-lowering": _effectful_location}


def _rule_location(name: str | None, message: str, ctx: Context, details: dict):
    """Where the rule's own way points (the graph's nodes, the backward call, fn's def or return),
    or _ELSEWHERE."""
    probe = ctx.probe
    g = _graph(probe)
    if name in _IN_GRAPH and g is not None:
        return _IN_GRAPH[name](probe, g, message, details)
    if name in ("buffer-received-gradient", "input-received-gradient") and probe is not None:
        # the last backward node's trigger: the line that called backward
        for ni in reversed(list(probe.info.values())):
            if ni.phase == "backward" and ni.trigger and ni.trigger[1]:
                return _loc(*ni.trigger)
        return _ELSEWHERE
    if name in ("no-compute-graph", "non-tensor-output", "output-structure-not-serializable",
                "positional-arguments-only"):
        fn = ctx.fn or (probe.fn if probe is not None else None)
        if fn is not None:
            return _fn_location(fn, ctx.source, want_return=name != "positional-arguments-only") or _ELSEWHERE
    return _ELSEWHERE


def _setting_location(name: str | None, exc: BaseException, ctx: Context):
    """Rules about what the script set up: the example inputs' marks, the backend or tracer
    named; the user's frame of the traceback, else the name's definition line."""
    if name in _EXAMPLE_MARKS:
        # The marks were put on the example inputs: point at them.
        loc = _traceback_user_location(exc, ctx.script_path)
        if loc is None and ctx.name_lines and ctx.name_lines.get("example_inputs") and ctx.script_path:
            loc = _loc(ctx.script_path, ctx.name_lines["example_inputs"])
        return loc
    if name in _SETTINGS:
        key = _SETTINGS[name]
        loc = _traceback_user_location(exc, ctx.script_path)
        if loc:
            return loc
        if ctx.name_lines and ctx.name_lines.get(key) and ctx.script_path:
            return _loc(ctx.script_path, ctx.name_lines[key])
        return None
    return _ELSEWHERE


def locate(rule: Rule | None, exc: BaseException, message: str, ctx: Context) -> tuple[dict | None, dict]:
    """(location, details) for a classified exception: where the rule's own way points; else,
    for a runtime call's input rule, the call's line; else the marks or settings the rule is
    about; else the user's frame of the traceback (or the call's line)."""
    details: dict = {}
    name = rule.rule if rule else None
    loc = _rule_location(name, message, ctx, details)
    if loc is not _ELSEWHERE:
        return loc, details
    if rule is not None and rule.phase == "call" and rule.invariant in (2, 3, 6) and ctx.call_location:
        return ctx.call_location, details
    loc = _setting_location(name, exc, ctx)
    if loc is not _ELSEWHERE:
        return loc, details
    loc = _traceback_user_location(exc, ctx.script_path)
    if loc is None and ctx.call_location and (rule is None or rule.phase == "call"):
        loc = ctx.call_location
    return loc, details
