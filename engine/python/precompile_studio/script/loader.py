"""Load a user script into a fresh module, as the script contract says.

The script runs in a module of its own (never ``__main__``), with its folder on sys.path so
that it can import its neighbours. Reading, decoding and compiling are checked first so that
an empty, binary or non-UTF-8 file is reported as such instead of as a confusing SyntaxError.
"""
from __future__ import annotations

import ast
import os
import sys
import types
from dataclasses import dataclass, field

from precompile_studio.common.errors import ContractError

MODULE_NAME = "__precompile_studio_script__"


@dataclass
class ScriptSource:
    path: str
    text: str
    tree: ast.Module
    code: types.CodeType
    definitions: dict[str, int] = field(default_factory=dict)

    def line_of(self, name: str) -> int | None:
        return self.definitions.get(name)


def _top_level_definitions(tree: ast.Module) -> dict[str, int]:
    """Line of the last top-level statement that binds each name."""
    found: dict[str, int] = {}

    def bind(target: ast.AST, line: int) -> None:
        if isinstance(target, ast.Name):
            found[target.id] = line
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                bind(elt, line)

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found[node.name] = node.lineno
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                bind(t, node.lineno)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            bind(node.target, node.lineno)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                found[(alias.asname or alias.name).split(".")[0]] = node.lineno
    return found


def read_source(path: str) -> ScriptSource:
    """Read, decode and compile a script; raise ContractError or SyntaxError naming the cause."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ContractError(f"cannot read {path}: {e.strerror}", path) from None
    if not data.strip():
        raise ContractError(
            f"{path} is empty: a script defines fn and example_inputs "
            "(or calls torch.compiler.precompile itself)",
            path,
        )
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data[:nul].count(b"\n") + 1
        raise ContractError(
            f"this is a binary file, not a Python script (NUL byte at offset {nul}, line {line})",
            path,
            line,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ContractError(
            f"the file is not UTF-8 text: byte 0x{data[e.start]:02x} at offset {e.start} (line {line})",
            path,
            line,
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    tree = ast.parse(text, filename=path)
    code = compile(tree, path, "exec", dont_inherit=True)
    return ScriptSource(path, text, tree, code, _top_level_definitions(tree))


def execute(source: ScriptSource) -> types.ModuleType:
    """Run the compiled script in a fresh module and return it."""
    module = types.ModuleType(MODULE_NAME)
    module.__file__ = source.path
    module.__builtins__ = __builtins__
    sys.modules[MODULE_NAME] = module
    folder = os.path.dirname(os.path.abspath(source.path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    exec(source.code, module.__dict__)
    return module
