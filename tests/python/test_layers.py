"""The Python package reads by feature and has no import cycle (docs/ARCHITECTURE.md):

    common  <-  contract  <-  verify  <-  capture  <-  worker
    common  <-  script    <-  capture
    api     <-  verify, capture   (the precompile API's front ends: nothing of the package below)

Every import of the package is counted, those inside functions included, so that a cycle cannot
hide behind a deferred import.
"""
import ast
import os

import pytest

from conftest import ENGINE_PY

pytestmark = pytest.mark.torch_free

LAYERS = {"api": set(), "common": set(), "contract": {"common"}, "script": {"common"},
          "verify": {"api", "common", "contract"}, "capture": {"api", "common", "contract", "script", "verify"},
          "deploy": {"api", "common", "contract", "script", "verify"},
          "repro": {"api", "common", "contract", "script", "verify"}}


def _modules() -> dict[str, str]:
    out = {}
    for folder, _dirs, files in os.walk(os.path.join(ENGINE_PY, "precompile_studio")):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                name = os.path.relpath(path, ENGINE_PY)[:-3].replace(os.sep, ".")
                out[name.removesuffix(".__init__")] = path
    return out


def _imports(modules: dict[str, str]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("precompile_studio"):
                assert node.level == 0, f"{name}: relative import (write the package path)"
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    edges[name].add(target if target in modules else node.module)
    return edges


def test_no_module_imports_itself_through_others():
    edges = _imports(_modules())
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m):
        state[m] = 1
        path.append(m)
        for n in sorted(edges.get(m, ())):
            assert state.get(n) != 1, "import cycle: " + " -> ".join(path[path.index(n):] + [n])
            if n in edges and not state.get(n):
                visit(n)
        path.pop()
        state[m] = 2

    for m in sorted(edges):
        if not state.get(m):
            visit(m)


def test_each_folder_imports_only_the_folders_below_it():
    modules = _modules()
    for name, targets in _imports(modules).items():
        parts = name.split(".")
        if len(parts) < 3:
            continue  # precompile_studio.worker, the entry point, may import any folder
        for t in targets:
            folder = t.split(".")[1] if t.count(".") >= 1 else t
            if folder != parts[1]:
                assert folder in LAYERS[parts[1]], f"{name} imports {t}: {parts[1]}/ may import only {LAYERS[parts[1]]}"
