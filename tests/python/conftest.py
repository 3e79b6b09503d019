"""Shared helpers for the engine/python tests.

Every test session gets its own Inductor cache dir and studio cache dir (cold lowering,
so the kernel-origin mapping is exercised), removed at exit.
"""
import atexit
import json
import os
import shutil
import sys
import tempfile

_TMP = tempfile.mkdtemp(prefix="precompile-studio-pytest-")
os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(_TMP, "inductor")
os.environ["PRECOMPILE_STUDIO_CACHE_DIR"] = os.path.join(_TMP, "studio")
atexit.register(shutil.rmtree, _TMP, True)

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE_PY = os.path.normpath(os.path.join(HERE, "..", "..", "engine", "python"))
if ENGINE_PY not in sys.path:
    sys.path.insert(0, ENGINE_PY)

SCRIPTS = os.path.join(HERE, "scripts")
collect_ignore = ["scripts"]

import pytest  # noqa: E402


def script_path(name: str) -> str:
    return os.path.join(SCRIPTS, name)


def marker_line(name: str, marker: str = "# HERE") -> int:
    with open(script_path(name)) as f:
        for i, line in enumerate(f, 1):
            if marker in line:
                return i
    raise AssertionError(f"{marker!r} not in {name}")


def run_script(name: str, events: list | None = None, **request) -> dict:
    from precompile_studio import worker

    req = {"script": script_path(name), **request}
    sink = events if events is not None else []
    out = worker.run(json.dumps(req), lambda e: sink.append(json.loads(e)))
    return json.loads(out)


@pytest.fixture
def run():
    return run_script
