"""Name a baked constant the way the user wrote it (invariant 1).

make_fx turns a tensor that fn closes over into a ``get_attr`` node named
``_tensor_constant0``; precompile then rejects it by that name. While the trace runs, the
capture probe calls :func:`frame_bindings` on every frame of the stack that creates a
``get_attr`` node and keeps, per frame, which names there hold which tensor (by id: the
GraphModule keeps the tensor alive, so the id stays valid). After the trace,
:func:`name_constants` matches each constant tensor of the GraphModule to those names and
says, per node:

- ``name``: the user's Python name (``scale``, ``self.weight_scale``, ``bias``);
- ``origin``: global | closure cell | module attribute | default argument | local variable |
  argument | literal (a tensor built inside fn, e.g. ``torch.tensor([...])``) | unknown;
- ``qualname``: for a module attribute, the path through fn's argument (``model.weight_scale``);
- ``defined``: the line that binds the name (the assignment, the ``self.x =`` line, the default);
- ``used``: the user's line that reads it;
- ``chain``: when the read happens inside a third-party package, user line -> package frame ->
  the torch op (:mod:`precompile_studio.frames`).
"""
from __future__ import annotations

import ast
import inspect
import os
from functools import lru_cache

from precompile_studio.common import internal_errors
from precompile_studio.common.frames import chain_from_entries, owner

ORIGINS = ("global", "closure cell", "module attribute", "default argument", "local variable",
           "argument", "literal", "unknown")


def _is_tensor(v) -> bool:
    try:
        import torch
    except ImportError:  # pragma: no cover
        return False
    return isinstance(v, torch.Tensor) and not isinstance(v, torch.nn.Parameter)


def frame_bindings(f) -> list[tuple]:
    """[(name, origin, id(tensor), extra)] for the tensors a frame can name.

    extra: the module class for a module attribute, else None. Called by the probe only for
    the frames of a get_attr node's creation; reads, never writes.
    """
    import torch

    code = f.f_code
    loc = f.f_locals
    out: list[tuple] = []
    if code.co_name == "<module>":
        # a script that calls precompile at its top level: its globals are not fn's reads
        return []
    nargs = code.co_argcount + code.co_kwonlyargcount
    args = set(code.co_varnames[:nargs])
    free = set(code.co_freevars)
    for name, v in loc.items():
        if name == "self" and isinstance(v, torch.nn.Module):
            for attr, av in vars(v).items():
                if _is_tensor(av):
                    out.append((f"self.{attr}", "module attribute", id(av), (type(v), id(v))))
            continue
        if not _is_tensor(v):
            continue
        origin = "closure cell" if name in free else "argument" if name in args else "local variable"
        out.append((name, origin, id(v), None))
    g = f.f_globals
    for name in code.co_names:
        v = g.get(name)
        if v is not None and _is_tensor(v):
            out.append((name, "global", id(v), None))
    return out


@lru_cache(maxsize=32)
def _tree(path: str, mtime: float):
    try:
        with open(path, encoding="utf-8") as fh:
            return ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError):
        return None


def _parse(path: str | None):
    if not path or path.startswith("<"):
        return None
    try:
        return _tree(path, os.path.getmtime(path))
    except OSError:
        return None


def _assigns(node, name: str):
    """Statements under node that bind `name` (=, :=, +=, annotated, for, with, import)."""
    for n in ast.walk(node):
        targets: list = []
        if isinstance(n, ast.Assign):
            targets = n.targets
        elif isinstance(n, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            targets = [n.target]
        elif isinstance(n, (ast.For, ast.With)):
            targets = [n.target] if isinstance(n, ast.For) else [i.optional_vars for i in n.items if i.optional_vars]
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            if any((a.asname or a.name.split(".")[0]) == name for a in n.names):
                yield n
            continue
        for t in targets:
            if any(isinstance(x, ast.Name) and x.id == name for x in ast.walk(t)):
                yield n
                break


def _def_at(tree, first_line: int):
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            lines = [n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])]
            if first_line in lines:
                return n
    return None


def _definition(binding: tuple, frame_file: str, first_line: int, use_line: int | None,
                globals_file: str | None) -> dict | None:
    name, origin, _id, extra = binding
    if origin == "global":
        tree = _parse(globals_file)
        if tree is None:
            return None
        lines = [s.lineno for s in tree.body for n in _assigns(s, name) if n is not None]
        return {"file": globals_file, "line": max(lines)} if lines else None
    if origin == "module attribute" and extra is not None:
        cls = extra[0]
        attr = name.split(".", 1)[1]
        for klass in getattr(cls, "__mro__", (cls,)):
            try:
                path = inspect.getsourcefile(klass)
            except TypeError:
                continue
            tree = _parse(path)
            if tree is None:
                continue
            for c in ast.walk(tree):
                if isinstance(c, ast.ClassDef) and c.name == klass.__name__:
                    for n in ast.walk(c):
                        if isinstance(n, (ast.Assign, ast.AnnAssign)):
                            ts = n.targets if isinstance(n, ast.Assign) else [n.target]
                            if any(isinstance(t, ast.Attribute) and t.attr == attr
                                   and isinstance(t.value, ast.Name) and t.value.id == "self" for t in ts):
                                return {"file": path, "line": n.lineno}
        return None
    tree = _parse(frame_file)
    if tree is None:
        return None
    fdef = _def_at(tree, first_line)
    if origin in ("argument", "default argument") and fdef is not None:
        a = fdef.args
        positional = a.posonlyargs + a.args
        pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults))
        pairs += [(k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
        for arg, default in pairs:
            if arg.arg == name:
                return {"file": frame_file, "line": default.lineno, "default": True}
        return None
    if origin == "local variable" and fdef is not None:
        lines = [n.lineno for n in _assigns(fdef, name) if use_line is None or n.lineno <= use_line]
        return {"file": frame_file, "line": max(lines)} if lines else None
    if origin == "closure cell":
        lines = [n.lineno for n in _assigns(tree, name) if n.lineno < first_line]
        return {"file": frame_file, "line": max(lines)} if lines else None
    return None


def _pick(matches: list[tuple]) -> tuple | None:
    """The binding to report: the innermost frame that names it by something other than an
    argument (where the code reads it from), else the innermost argument (a default)."""
    for m in reversed(matches):
        if m[1][1] != "argument":
            return m
    return matches[-1] if matches else None


def name_constants(probe) -> dict[str, dict]:
    """{node name: naming} for every get_attr tensor constant of the probe's graph."""
    cached = getattr(probe, "_constant_names", None)
    if cached is not None:
        return cached
    out: dict[str, dict] = {}
    gm = getattr(probe, "gm", None)
    records = getattr(probe, "const_frames", {}) or {}
    if gm is not None:
        for node in gm.graph.nodes:
            if node.op != "get_attr":
                continue
            try:
                value = getattr(gm, node.target)
            except AttributeError:
                continue
            if not _is_tensor(value):
                continue
            try:
                out[node.name] = _name_one(probe, node, value, records.get(node))
            except Exception as e:  # noqa: BLE001 - naming is a courtesy; keep the report
                internal_errors.record("constants: naming a tensor constant", e)
                out[node.name] = {"name": None, "origin": "unknown", "error": f"{type(e).__name__}: {e}"}
    try:
        probe._constant_names = out
    except AttributeError:
        pass
    return out


def _name_one(probe, node, value, record) -> dict:
    script = getattr(probe, "script_path", None)
    used = None
    ni = probe.info.get(node) if getattr(probe, "info", None) is not None else None
    if ni is not None and ni.line is not None:
        used = {"file": ni.file, "line": ni.line}
    users = [str(u.target) for u in node.users]
    op = users[0] if users else None
    result: dict = {"name": None, "origin": "unknown", "qualname": None, "defined": None, "used": used}
    if record is None:
        return result
    entries, bindings = record  # outermost first; bindings: [(frame index, binding, meta)]
    matches = [(i, b, meta) for i, b, meta in bindings if b[2] == id(value)]
    chain = chain_from_entries(entries, script, op)
    if chain:
        result["chain"] = chain
    picked = _pick(matches)
    if picked is not None:
        i, b, meta = picked
        frame_file, first_line, globals_file = meta
        origin = b[1]
        use_line = entries[i][1]
        defined = _definition(b, frame_file, first_line, use_line, globals_file)
        if origin == "argument" and defined is not None and defined.pop("default", False):
            origin = "default argument"
        result.update(name=b[0], origin=origin, defined=defined)
        if origin == "module attribute" and b[3] is not None:
            path = probe.module_paths.get(b[3][1], (None, None))[0]
            result["qualname"] = f"{path}.{b[0].split('.', 1)[1]}" if path else b[0]
        if used is None or owner(entries[i][0], entries[i][3], script) == "user":
            result["used"] = {"file": entries[i][0], "line": use_line}
        return result
    if any("lift_fresh" in u for u in users):
        # torch.tensor([...]) / torch.as_tensor(list) built inside fn: the innermost
        # non-torch frame is the line that built it.
        for e in reversed(entries):
            if owner(e[0], e[3], script) in ("user", "package"):
                result.update(origin="literal", defined={"file": e[0], "line": e[1]})
                break
    return result


def display_name(naming: dict | None) -> str | None:
    """'scale' / 'model.weight_scale' / 'a tensor literal' for a node's title."""
    if not naming:
        return None
    if naming.get("qualname"):
        return naming["qualname"]
    if naming.get("name"):
        return naming["name"]
    if naming.get("origin") == "literal":
        return "tensor literal"
    return None
