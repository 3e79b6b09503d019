"""The user's own packages on the worker's sys.path: a venv they name and their PYTHONPATH.

The worker always runs the studio's Python and torch (the libtorch it links). A user's
environment contributes everything else -- transformers, timm, their project -- from its site
folders, which go on sys.path after the standard library and ahead of the studio's own
site-packages, with their .pth files processed as Python's ``site`` would (editable installs
work). ``attach`` runs once, at warm-up, after torch was imported from the studio's
environment, so ``import torch`` keeps meaning that torch; a torch in the user's folders is
accepted only when it is the same build (version and git hash), and then never imported.

Modules imported before the user's folders were attached (torch's own dependencies, such as
numpy or sympy) stay the studio's copies; ``attach`` lists those the user's folders also hold
("pinned"), so that a version difference can be explained.
"""
from __future__ import annotations

import ast
import importlib
import json
import os
import site
import sys


class EnvironmentProblem(Exception):
    """The user's environment cannot be used; the message is one line saying why and what to do."""


def _read_torch_version(torch_dir: str) -> tuple[str | None, str | None]:
    """(__version__, git_version) from a torch package's version.py, read without importing it."""
    path = os.path.join(torch_dir, "version.py")
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None, None
    found: dict[str, str] = {}
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        value = getattr(node, "value", None)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            for t in targets:
                if isinstance(t, ast.Name):
                    found[t.id] = value.value
    return found.get("__version__"), found.get("git_version")


def check_torch(folder: str, label: str) -> str | None:
    """None when ``folder`` has no torch; a description when its torch is the studio's build;
    raises EnvironmentProblem when it is another build."""
    torch_dir = os.path.join(folder, "torch")
    if not os.path.isdir(torch_dir):
        return None
    import torch

    mine = (torch.__version__, getattr(torch.version, "git_version", None))
    theirs = _read_torch_version(torch_dir)
    if theirs[0] is None:
        raise EnvironmentProblem(
            f"{label} has a torch whose build cannot be read ({torch_dir}/version.py is missing or "
            f"unreadable); the studio runs torch {mine[0]}: install torch=={mine[0].split('+')[0]} there, or remove it")
    if theirs != mine:
        wanted = mine[0].split("+")[0]
        git = f" (git {theirs[1][:12]})" if theirs[1] and theirs[0] == mine[0] else ""
        mine_git = f" (git {mine[1][:12]})" if mine[1] and theirs[0] == mine[0] else ""
        raise EnvironmentProblem(
            f"{label} has torch {theirs[0]}{git} but the studio's worker runs torch {mine[0]}{mine_git}: "
            f"install torch=={wanted} in it (the same build the studio uses), or leave torch out of it")
    return f"torch {theirs[0]} (the studio's build; the studio's copy is the one imported)"


def _insertion_index() -> int:
    """Where the user's folders go: before the studio environment's first site folder."""
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix)}
    for i, entry in enumerate(sys.path):
        real = os.path.realpath(entry) if entry else ""
        if "site-packages" in real and any(real.startswith(p + os.sep) for p in prefixes):
            return i
    return len(sys.path)


def _top_level_names(folder: str) -> set[str]:
    names = set()
    try:
        entries = os.listdir(folder)
    except OSError:
        return names
    for name in entries:
        full = os.path.join(folder, name)
        if os.path.isdir(full) and os.path.exists(os.path.join(full, "__init__.py")):
            names.add(name)
        elif name.endswith(".py"):
            names.add(name[:-3])
        elif name.endswith(".so") and "." in name:
            names.add(name.split(".", 1)[0])
    return names


def _pinned(folders: list[str]) -> list[str]:
    """Modules already imported from elsewhere that the user's folders also hold."""
    out = []
    real_folders = [os.path.realpath(f) + os.sep for f in folders]
    for folder in folders:
        for name in sorted(_top_level_names(folder)):
            module = sys.modules.get(name)
            where = getattr(module, "__file__", None) if module is not None else None
            if not where or name == "torch":
                continue
            if not any(os.path.realpath(where).startswith(f) for f in real_folders) and name not in out:
                out.append(name)
    return out


_ATTACHED: dict = {}


def attached() -> dict:
    """What attach() put on sys.path (path, site_dirs, ...); empty when no environment was attached."""
    return dict(_ATTACHED)


def attach(user_env: str, site_dirs: list[str]) -> str:
    """Put the user's folders (and PYTHONPATH) on sys.path; a JSON object for the hello.

    On a problem the object is {"problem": one line}; nothing is added then.
    """
    pythonpath = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    try:
        torch_note = None
        for folder in site_dirs:
            torch_note = check_torch(folder, f"the Python environment {user_env}") or torch_note
        for folder in pythonpath:
            check_torch(folder, f"PYTHONPATH's {folder}")
    except EnvironmentProblem as e:
        return json.dumps({"problem": str(e)})

    before = list(sys.path)
    known = set(before)
    for folder in site_dirs:
        site.addsitedir(folder, known)  # appends it and what its .pth files name
    added = [p for p in sys.path[len(before):]]
    del sys.path[len(before):]
    added = [os.path.abspath(p) for p in pythonpath if os.path.abspath(p) not in known] + added
    at = _insertion_index()
    sys.path[at:at] = added
    importlib.invalidate_caches()
    info = {
        "path": user_env or None,
        "site_dirs": site_dirs,
        "pythonpath": pythonpath,
        "torch": torch_note,
        "pinned": _pinned(site_dirs),
    }
    _ATTACHED.clear()
    _ATTACHED.update(info)
    return json.dumps(info)
