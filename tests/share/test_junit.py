"""`precompile-studio run a.py b.py ... --junit FILE` with the real binary and the real worker (eager
backend, nothing stored): the exit code is the worst of the runs', the file validates against
Jenkins xUnit's junit-10.xsd (the one the test environment took from pytest's sdist: xmllint and
xmlschema both), the violation is exactly one failure with its source line and fix, the ok
script's cases pass, and a script that raises before any capture is an <error>."""

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "resources" / "examples"
VIOLATION = EXAMPLES / "violation_closed_over_tensor.py"
OK = EXAMPLES / "plain_function.py"


def studio() -> str:
    path = os.environ.get("PS_STUDIO")
    if not path or not os.access(path, os.X_OK):
        pytest.fail(f"PS_STUDIO must name the built precompile-studio (got {path!r})")
    return os.path.abspath(path)  # the runs below start in their own folders


def schema() -> Path:
    env = os.environ.get("PS_TEST_ENV", "")
    xsd = Path(env) / "junit-10.xsd"
    if not env or not xsd.is_file():
        pytest.fail(f"no junit-10.xsd in the test environment {env!r}: run packaging/test-env.sh (make test does)")
    return xsd


def run(*args, cwd=None):
    return subprocess.run(
        [studio(), "run", *map(str, args), "--backend", "eager", "--no-store"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
    )


def validate(xml_file: Path) -> None:
    """Both validators must accept the file: xmllint (libxml2) and xmlschema (the test env's)."""
    xsd = schema()
    xmllint = shutil.which("xmllint")
    if xmllint is None:
        pytest.fail("no xmllint: Debian package libxml2-utils (packaging/debian-packages.txt)")
    lint = subprocess.run([xmllint, "--noout", "--schema", str(xsd), str(xml_file)], capture_output=True, text=True)
    assert lint.returncode == 0, lint.stderr
    python = Path(os.environ["PS_TEST_ENV"]) / "bin" / "python"
    code = "import sys, xmlschema; xmlschema.XMLSchema(sys.argv[1]).validate(sys.argv[2])"
    check = subprocess.run(
        [str(python), "-c", code, xsd, xml_file],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr


def suites(xml_file: Path) -> dict[str, ET.Element]:
    root = ET.parse(xml_file).getroot()
    assert root.tag == "testsuites"
    return {s.get("name"): s for s in root.findall("testsuite")}


def test_a_violation_and_an_ok_script(tmp_path):
    out = tmp_path / "out.xml"
    result = run(VIOLATION, OK, "--junit", out, cwd=tmp_path)
    assert result.returncode == 1, result.stderr[-3000:]
    # the summaries under a header each, one closing line
    assert f"=== [1/2] {VIOLATION} ===" in result.stdout
    assert f"=== [2/2] {OK} ===" in result.stdout
    assert result.stdout.rstrip().endswith("2 scripts: 1 ok, 1 problem found (exit 1)"), result.stdout[-500:]
    validate(out)

    root = ET.parse(out).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "1", "0")
    found = suites(out)
    assert set(found) == {str(VIOLATION), str(OK)}

    bad = found[str(VIOLATION)]
    failures = bad.findall("testcase/failure")
    assert len(failures) == 1 and not bad.findall("testcase/error")
    case = bad.find("testcase")
    assert case.get("name") == "violation_closed_over_tensor"
    assert case.get("classname") == str(VIOLATION)
    assert float(case.get("time")) > 0
    failure = failures[0]
    assert failure.get("type") == "violation"
    message = failure.get("message")
    assert message.startswith(f"{VIOLATION}:21: invariant 1: PrecompileError: fn reads the global `offset`"), message
    # the source line as the file has it, and the fix
    assert f"{VIOLATION}:21  return self.lin(x) + offset\n" in failure.text
    assert "fix: Pass the global `offset`" in failure.text

    good = found[str(OK)]
    cases = good.findall("testcase")
    assert [c.get("name") for c in cases] == ["plain_function"]
    assert all(len(c) == 0 for c in cases), ET.tostring(good, encoding="unicode")
    assert (good.get("tests"), good.get("failures"), good.get("errors")) == ("1", "0", "0")


def test_a_script_that_raises_before_any_capture_is_an_error(tmp_path):
    raises = tmp_path / "raises.py"
    raises.write_text('import torch\n\nraise RuntimeError("the data folder is missing")\n')
    out = tmp_path / "out.xml"
    result = run("raises.py", OK, "--junit", out, cwd=tmp_path)
    assert result.returncode == 2, result.stderr[-3000:]
    assert result.stdout.rstrip().endswith("2 scripts: 1 ok, 1 could not run (exit 2)"), result.stdout[-500:]
    validate(out)
    found = suites(out)
    failed = found["raises.py"]
    errors = failed.findall("testcase/error")
    assert len(errors) == 1 and not failed.findall("testcase/failure")
    assert failed.find("testcase").get("name") == "raises.py"
    assert "RuntimeError: the data folder is missing" in errors[0].get("message")
    assert f"{raises}:3  raise RuntimeError(\"the data folder is missing\")" in errors[0].text
    assert "Traceback (most recent call last):" in errors[0].text
    assert not found[str(OK)].findall("testcase/*")


def test_several_scripts_json_is_an_array_and_trace_wants_one_script(tmp_path):
    result = run(OK, tmp_path / "missing.py", "--json")
    assert result.returncode == 2, result.stderr[-3000:]
    reports = json.loads(result.stdout)
    assert [r["status"] for r in reports] == ["ok", "error"]
    assert reports[1]["message"].startswith("no such file:")

    refused = run(OK, OK, "--trace", tmp_path / "t.json")
    assert refused.returncode == 2
    assert "--trace writes one file for one run" in refused.stderr
    assert refused.stdout == ""


def test_a_junit_file_that_cannot_be_written_fails_the_run(tmp_path):
    result = run(OK, "--junit", tmp_path / "no" / "such" / "dir" / "out.xml")
    assert result.returncode == 2
    assert "JUnit XML not written: cannot write" in result.stderr
    assert ": ok: 1 capture ok" in result.stdout


def test_several_scripts_export_into_one_folder_and_a_file_written_twice_is_an_export_failure(tmp_path):
    folder = tmp_path / "exported"
    result = run(OK, OK, "--export", folder)
    assert result.returncode == 2, result.stderr[-3000:]
    assert "was also exported by an earlier script of this run and is overwritten" in result.stderr
    assert result.stdout.rstrip().endswith("2 scripts: 1 ok, 1 output not written (exit 2)"), result.stdout[-500:]
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["plain_function.cache", "plain_function.json", "plain_function.py"]
