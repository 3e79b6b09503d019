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
REPORT_SCHEMA = os.path.normpath(os.path.join(HERE, "..", "..", "docs", "report.schema.json"))
collect_ignore = ["scripts"]

import pytest  # noqa: E402

# `make check` runs the modules marked torch_free (pytestmark = pytest.mark.torch_free) with
# PS_TORCH_FREE=1: the others are not collected, and an import of torch fails, so that a module
# that starts to need torch says so instead of slowing the fast loop.
TORCH_FREE = os.environ.get("PS_TORCH_FREE") == "1"


class _NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("torch imported by a test marked torch_free (tests/python/conftest.py)")
        return None


if TORCH_FREE:
    sys.meta_path.insert(0, _NoTorch())


def pytest_configure(config):
    config.addinivalue_line("markers", "torch_free: the module's tests import no torch (make check runs them)")
    config.addinivalue_line("markers", "allows_internal_errors: the test makes the studio's own code fail on "
                                       "purpose, so its reports may carry internal_errors")


def pytest_ignore_collect(collection_path, config):
    """With PS_TORCH_FREE=1 a module not marked torch_free is not even imported."""
    name = collection_path.name
    if TORCH_FREE and name.startswith("test_") and name.endswith(".py"):
        return "pytestmark = pytest.mark.torch_free" not in collection_path.read_text(encoding="utf-8")
    return None



def precompile(fn, *example_inputs, backend="inductor", tracer="make_fx", decompositions=None):
    """(python_code, cache) of fn through this torch's precompile API (api/front_end.py)."""
    from precompile_studio.api.choose import current

    return current().capture(fn, example_inputs, backend=backend, tracer=tracer, decompositions=decompositions)


def precompile_load(python_code, cache):
    """The pair loaded through this torch's precompile API."""
    from precompile_studio.api.choose import current

    return current().load(python_code, cache)


def precompile_api() -> str:
    """"precompile-call" (torch 2.14) or "capture-load" (torch 2.15)."""
    from precompile_studio.api.choose import current

    return current().api

_validator = None


def report_validator():
    """A validator of docs/report.schema.json (JSON Schema 2020-12), made once."""
    global _validator
    if _validator is None:
        import jsonschema

        with open(REPORT_SCHEMA) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        _validator = jsonschema.Draft202012Validator(schema)
    return _validator


def _leaf_errors(error):
    """The innermost errors under an anyOf / oneOf (what a reader can act on)."""
    if not error.context:
        return [error]
    deepest = max(len(e.absolute_path) for e in error.context)
    if deepest <= len(error.absolute_path):
        return [error]
    return [leaf for e in error.context if len(e.absolute_path) == deepest for leaf in _leaf_errors(e)]


def check_report(report: dict) -> None:
    """Fail, naming each JSON path, when the report does not follow docs/report.schema.json."""
    errors = sorted((leaf for e in report_validator().iter_errors(report) for leaf in _leaf_errors(e)),
                    key=lambda e: e.json_path)
    if errors:
        lines = [f"{e.json_path}: {e.message[:300]}" for e in errors[:20]]
        more = f"\n  ... and {len(errors) - 20} more" if len(errors) > 20 else ""
        raise AssertionError("the report does not follow docs/report.schema.json:\n  "
                             + "\n  ".join(lines) + more)


def for_api(name: str) -> str:
    """A script that calls precompile itself, in this torch's API: NAME.py is written for 2.14's
    call, NAME_capture.py for 2.15's capture block."""
    return name if precompile_api() == "precompile-call" else name[:-3] + "_capture.py"


def other_api(name: str) -> str:
    """The same script written for the other torch version's API (see for_api)."""
    return name[:-3] + "_capture.py" if precompile_api() == "precompile-call" else name


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
    report = json.loads(out)
    check_report(report)
    assert isinstance(report.get("internal_errors"), list), "the worker's report carries internal_errors"
    return report


@pytest.fixture(autouse=True)
def _no_internal_errors(request, monkeypatch):
    """No test ends with a failure of the studio's own code that a run survived (the report's
    internal_errors, common/internal_errors.py), in a report worker.run made or recorded while
    the test called the package's parts itself; a test marked allows_internal_errors makes one
    on purpose."""
    from precompile_studio import worker
    from precompile_studio.common import internal_errors

    seen: list[dict] = []
    real_run = worker.run

    def run(request_json, emit):
        try:
            return real_run(request_json, emit)
        finally:
            seen.extend(internal_errors.entries())  # what that run's report says
            internal_errors.reset()

    internal_errors.reset()
    monkeypatch.setattr(worker, "run", run)
    yield
    seen.extend(internal_errors.entries())
    internal_errors.reset()
    if seen and request.node.get_closest_marker("allows_internal_errors") is None:
        lines = [f"{e['where']}: {e['error']} (at {e['at']}, {e['count']}x)" for e in seen]
        pytest.fail("the studio's own code failed and the run went on (internal_errors; mark the test "
                    "allows_internal_errors if it means to):\n  " + "\n  ".join(lines), pytrace=False)


@pytest.fixture
def run():
    return run_script
