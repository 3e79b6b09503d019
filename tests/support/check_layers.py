"""The C++ layering, checked: every `#include "folder/..."` of the project's C++ against one table of
allowed edges (docs/ARCHITECTURE.md, "Include edges"), and the third-party headers that only one
layer may see. A new upward or undeclared edge fails with the file and line that makes it.

usage: check_layers.py [ROOT]        (ROOT: the source tree; default: this checkout)
       check_layers.py --self-test   (the checker fails on an injected upward include)
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

# folder -> the folders its files may include (besides its own). engine/X is named X.
EDGES = {
    "app": {"ui", "commands", "library", "protocol", "remote", "host"},
    "ui": {"run", "protocol", "remote", "library", "model", "graph", "compare", "lessons", "share", "install"},
    "commands": {"run", "remote", "protocol", "library", "model", "graph", "compare", "lessons", "share", "install"},
    "run": {"protocol", "remote", "library", "model"},
    "remote": {"protocol", "model"},
    "host": {"protocol", "model"},
    "library": {"model", "graph", "compare"},
    "share": {"model", "graph", "compare"},
    "protocol": {"model", "install"},
    "compare": {"model"},
    "lessons": {"install"},
    "graph": set(),
    "model": set(),
    "install": set(),
}
# Edges only some files of a folder may make: (folder, included folder) -> those files.
ONLY_FROM = {
    ("app", "host"): {"app/worker_main.cpp"},
    ("app", "ui"): {"app/GuiLauncher.cpp"},
    ("ui", "library"): {"ui/library/RunStore.cpp"},
}
# Inside engine/library: the back ends (sqlite/, postgres/) may include core/ but not each other, and
# core/ reaches a back end only where the facade picks one (its store factory).
BACKENDS = {"sqlite", "postgres"}
CORE_TO_BACKEND = {"engine/library/core/ArtifactLibrary.cpp"}
# Third-party headers only one layer may include: header prefix -> (where, what it is).
CONFINED = [
    (re.compile(r"^(Python\.h|pybind11/|torch/|ATen/|c10/)"), lambda p: p.startswith("engine/host/"),
     "Python and torch headers belong to engine/host"),
    (re.compile(r"^(sqlite3\.h|libpq-fe\.h)$"), lambda p: p.startswith("engine/library/") and p.endswith(".cpp"),
     "database client headers belong to engine/library's .cpp files"),
    (re.compile(r"^Q[A-Za-z]+$|^Qt[A-Za-z]+/|^Qsci/"), lambda p: p.startswith("ui/") or p == "app/GuiLauncher.cpp",
     "Qt belongs to ui/ and app/GuiLauncher.cpp"),
]
SOURCES = ("app", "engine", "ui")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def folder_of(rel: str) -> str | None:
    """The layer a source file belongs to: app, ui, or engine/X as X (None: not C++ of ours)."""
    parts = rel.split("/")
    if parts[0] in ("app", "ui"):
        return parts[0]
    if parts[0] == "engine" and len(parts) > 2 and parts[1] != "python":
        return parts[1]
    return None


def backend_problems(rel: str, number: int, header: str) -> list[str]:
    """engine/library's own folders: core below the back ends, the back ends apart."""
    parts, inc = rel.split("/"), header.split("/")
    if len(parts) < 4 or len(inc) < 3:
        if len(parts) < 4:
            return []
        return [f"{rel}:{number}: {header}: name the library's folder (core, sqlite, postgres)"]
    sub, target = parts[2], inc[1]
    if sub == target or target == "core":
        return []
    if sub == "core" and target in BACKENDS and rel in CORE_TO_BACKEND:
        return []
    return [f"{rel}:{number}: library/{sub} -> library/{target} ({header}): the back ends include core only, "
            f"and core reaches a back end only from {', '.join(sorted(CORE_TO_BACKEND))}"]


def problems(root: str) -> list[str]:
    out = []
    for top in SOURCES:
        for folder, _dirs, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                layer = folder_of(rel)
                if layer is None:
                    continue
                if layer not in EDGES:
                    out.append(f"{rel}: folder '{layer}' is not in the table of layers (tests/support/check_layers.py)")
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        quote, header = m.groups()
                        for pattern, allowed, why in CONFINED:
                            if pattern.match(header) and not allowed(rel):
                                out.append(f"{rel}:{number}: includes <{header}>: {why}")
                        if quote != '"' or "/" not in header:
                            continue
                        target = header.split("/")[0]
                        if layer == target == "library":
                            out += backend_problems(rel, number, header)
                        if target == layer or target not in EDGES:
                            continue
                        if target not in EDGES[layer]:
                            out.append(f"{rel}:{number}: {layer} -> {target} ({header}) is not an allowed edge; "
                                       f"{layer} may include {', '.join(sorted(EDGES[layer])) or 'nothing'}")
                        elif (layer, target) in ONLY_FROM and rel not in ONLY_FROM[(layer, target)]:
                            out.append(f"{rel}:{number}: {layer} -> {target} ({header}) only from "
                                       f"{', '.join(sorted(ONLY_FROM[(layer, target)]))}")
    return out


def self_test() -> int:
    """Copies the tree's C++ and injects one upward include: the check must name it."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    with tempfile.TemporaryDirectory() as scratch:
        for top in SOURCES:
            shutil.copytree(os.path.join(root, top), os.path.join(scratch, top),
                            ignore=shutil.ignore_patterns("python", "*.js", "*.css", "*.html", "*.png", "*.svg"))
        victim = os.path.join(scratch, "engine", "model", "Report.h")
        with open(victim, "a", encoding="utf-8") as f:
            f.write('#include "ui/window/MainWindow.h"\n')
        backend = os.path.join(scratch, "engine", "library", "sqlite", "SqliteStore.h")
        with open(backend, "a", encoding="utf-8") as f:
            f.write('#include "library/postgres/PostgresStore.h"\n')
        got = subprocess.run([sys.executable, __file__, scratch], capture_output=True, text=True)
        named = "engine/model/Report.h" in got.stdout and "model -> ui" in got.stdout
        across = ("engine/library/sqlite/SqliteStore.h" in got.stdout
                  and "library/sqlite -> library/postgres" in got.stdout)
        if got.returncode != 1 or not named or not across:
            print("self-test: an injected include (model -> ui, library/sqlite -> library/postgres) was not "
                  f"caught: rc {got.returncode}\n{got.stdout}")
            return 1
    print("self-test: an injected model -> ui include and a library/sqlite -> library/postgres one are caught")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
    found = problems(root)
    for p in found:
        print(p)
    if found:
        print(f"{len(found)} include(s) against the layering (docs/ARCHITECTURE.md, \"Include edges\")")
        return 1
    print("layering: every include follows the table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
