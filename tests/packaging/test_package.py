"""The Debian package, built from this build and checked as a user's machine sees it.

`make deb`'s cpack builds the package into a temporary folder; lintian and appstreamcli check it;
it is unpacked with dpkg -x into a temporary root whose installed studio (root/usr/bin) must find
its worker, Python package, examples and lessons by its own location, with no PS_* variable, and
its environment in the per-user cache path; `setup` makes an environment from a local wheel
(no network) and is checked for its progress lines, marker, idempotence and failures.
"""

import gzip
import hashlib
import os
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

BUILD = Path(os.environ["PS_BUILD_DIR"])
TEST_ENV = Path(os.environ["PS_TEST_PYTHON_ENV"])
TORCH_SERIES = os.environ["PS_TEST_TORCH_SERIES"].split(",")
CPACK = os.environ.get("PS_CPACK") or "cpack"


def run(args, env=None, timeout=300, cwd=None):
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, env=env, timeout=timeout, cwd=cwd
    )


def clean_env(**extra):
    """The environment of a user's shell: no PS_* variable of the build or the tests."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PS_") and k != "PYTHONPATH"}
    env.update({k: str(v) for k, v in extra.items()})
    return env


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    out = tmp_path_factory.mktemp("deb")
    config = BUILD / "CPackConfig.cmake"
    r = run([CPACK, "-G", "DEB", "-B", out, "-D", f"CPACK_OUTPUT_FILE_PREFIX={out}", "--config", config], timeout=400)
    assert r.returncode == 0, r.stdout + r.stderr
    debs = list(out.glob("precompile-studio_*_amd64.deb"))
    assert len(debs) == 1, f"{list(out.iterdir())}: {r.stdout}"
    return debs[0]


@pytest.fixture(scope="module")
def root(package, tmp_path_factory):
    root = tmp_path_factory.mktemp("root")
    r = run(["dpkg-deb", "-x", package, root])
    assert r.returncode == 0, r.stderr
    return root


@pytest.fixture(scope="module")
def studio(root):
    return root / "usr" / "bin" / "precompile-studio"


def environment_key(requirements: Path) -> str:
    """packaging/python-env-path.sh's key: the first 16 hex digits of the file's sha256."""
    return hashlib.sha256(requirements.read_bytes()).hexdigest()[:16]


def test_control_fields_and_layout(package, root):
    fields = run(["dpkg-deb", "-f", package, "Package", "Version", "Depends", "Section"]).stdout
    assert "Package: precompile-studio" in fields
    # The version is git describe's (or the project's without git): 0.1.0+gitN.gHASH-1 here.
    version = run(["dpkg-deb", "-f", package, "Version"]).stdout.strip()
    assert version.startswith("0.1.0") and version.endswith("-1"), version
    depends = run(["dpkg-deb", "-f", package, "Depends"]).stdout
    for dep in ("libqt6widgets6", "libqscintilla2-qt6", "libsqlite3-0", "libzstd1", "libssl3", "libpq5",
                "libpython3.11", "python3.11-venv"):
        assert dep in depends, f"{dep} not in Depends: {depends}"
    for path in (
        "usr/bin/precompile-studio",
        "usr/lib/precompile-studio/python/precompile_studio/worker.py",
        "usr/share/precompile-studio/examples/plain_function.py",
        "usr/share/precompile-studio/lessons/inv1-closed-over-tensor/broken.py",
        "usr/share/precompile-studio/requirements.txt",
        "usr/share/precompile-studio/requirements-torch2.14.txt",
        # a worker per torch series the build has (make test's: both)
        *(f"usr/lib/precompile-studio/precompile-studio-worker-{s}" for s in TORCH_SERIES),
        "usr/share/applications/precompile-studio.desktop",
        "usr/share/icons/hicolor/scalable/apps/precompile-studio.svg",
        "usr/share/man/man1/precompile-studio.1.gz",
        "usr/share/doc/precompile-studio/copyright",
        "usr/share/doc/precompile-studio/changelog.Debian.gz",
    ):
        assert (root / path).is_file(), path
    # Nothing of the build machine: no RUNPATH into a build's environment, no __pycache__.
    for series in TORCH_SERIES:
        dynamic = run(["readelf", "-d", root / f"usr/lib/precompile-studio/precompile-studio-worker-{series}"]).stdout
        assert "RUNPATH" not in dynamic and "RPATH" not in dynamic, dynamic
    assert not list(root.rglob("__pycache__"))
    # The requirements are the ones `make run` installs, so the environment's key is the same.
    src = Path(__file__).resolve().parents[2] / "packaging" / "requirements.txt"
    assert (root / "usr/share/precompile-studio/requirements.txt").read_bytes() == src.read_bytes()
    changelog = gzip.decompress((root / "usr/share/doc/precompile-studio/changelog.Debian.gz").read_bytes())
    assert changelog.decode().startswith(f"precompile-studio ({version}) ")


def test_lintian_finds_no_error_or_warning(package):
    r = run(["lintian", "--fail-on", "error,warning", package])
    assert r.returncode == 0, r.stdout + r.stderr
    assert not [line for line in r.stdout.splitlines() if line[:2] in ("E:", "W:")], r.stdout


def test_appstream_metainfo_is_valid(root):
    metainfo = list((root / "usr/share/metainfo").glob("*.metainfo.xml"))
    assert len(metainfo) == 1
    r = run(["appstreamcli", "validate", "--no-net", metainfo[0]])
    assert r.returncode == 0, r.stdout + r.stderr
    text = metainfo[0].read_text()
    assert "<launchable type=\"desktop-id\">precompile-studio.desktop</launchable>" in text


def test_man_page_renders_every_subcommand(root, studio):
    page = root / "usr/share/man/man1/precompile-studio.1.gz"
    r = run(["man", "-l", page], env=clean_env(MANWIDTH="100", MAN_KEEP_FORMATTING="0", PAGER="cat"))
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip() == "", r.stderr  # troff's warnings: a broken page
    text = re.sub(".\b", "", r.stdout)  # man's bold and underline by overstriking, when not on a terminal
    assert "PRECOMPILE-STUDIO(1)" in text and "SUBCOMMANDS" in text and "FILES" in text
    # Every subcommand of the installed binary's --help has its own section.
    helptext = run([studio, "--help"], env=clean_env()).stdout
    listed = helptext.split("Subcommands:")[1].split("\n\n")[0].split("\n")
    names = [line.split()[0] for line in listed if line.startswith("  ") and line.split()]
    assert {"run", "setup", "lessons", "library"} <= set(names), names
    for name in names:
        assert f"precompile-studio {name}" in text, name
    # Nested ones too, and the options of one of them as --help prints them.
    assert "precompile-studio library ls" in text and "--requirements" in text


def test_installed_studio_prints_version_and_help(studio):
    r = run([studio, "--version"], env=clean_env())
    assert r.returncode == 0 and r.stdout.startswith("precompile-studio "), r.stdout + r.stderr
    r = run([studio, "--help"], env=clean_env())
    assert r.returncode == 0 and "setup" in r.stdout and "run" in r.stdout


def test_installed_studio_finds_its_lessons(studio, tmp_path):
    r = run([studio, "lessons", "ls"], env=clean_env(HOME=tmp_path, XDG_DATA_HOME=tmp_path / "data"))
    assert r.returncode == 0, r.stderr
    assert "inv1-closed-over-tensor" in r.stdout


def test_installed_studio_runs_an_example_with_the_per_user_environment(root, studio, tmp_path):
    cache = tmp_path / "cache"
    key = environment_key(root / "usr/share/precompile-studio/requirements.txt")
    (cache / "precompile-studio").mkdir(parents=True)
    # The per-user path an installed studio looks in, pointing at the test environment.
    (cache / "precompile-studio" / f"env-{key}").symlink_to(TEST_ENV)
    env = clean_env(HOME=tmp_path, XDG_CACHE_HOME=cache, XDG_DATA_HOME=tmp_path / "data")
    example = root / "usr/share/precompile-studio/examples/plain_function.py"
    r = run([studio, "run", example, "--library", tmp_path / "lib.db"], env=env, cwd=tmp_path, timeout=400)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok: 1 capture ok" in r.stdout and "accuracy: matches" in r.stdout, r.stdout

    # The run used the package's Python code, not a source tree's: without it the worker cannot start.
    python_dir = root / "usr/lib/precompile-studio/python"
    hidden = root / "usr/lib/precompile-studio/python-hidden"
    python_dir.rename(hidden)
    try:
        r = run([studio, "run", example, "--no-store", "--no-verify"], env=env, cwd=tmp_path, timeout=300)
    finally:
        hidden.rename(python_dir)
    assert r.returncode == 2, r.stdout + r.stderr

    # --python-env names an environment with torch: used when the per-user one is missing.
    empty = clean_env(HOME=tmp_path, XDG_CACHE_HOME=tmp_path / "empty", XDG_DATA_HOME=tmp_path / "data")
    r = run([studio, "--python-env", TEST_ENV, "run", example, "--no-store", "--no-verify"], env=empty, cwd=tmp_path,
            timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_installed_studio_opens_its_window(root, studio, tmp_path):
    # Qt's offscreen platform: the window is built (plugins, icon, examples menu, the worker
    # located) and stays up; a window that cannot start exits at once.
    env = clean_env(HOME=tmp_path, XDG_CACHE_HOME=tmp_path / "cache", XDG_DATA_HOME=tmp_path / "data",
                    XDG_CONFIG_HOME=tmp_path / "config", QT_QPA_PLATFORM="offscreen")
    example = root / "usr/share/precompile-studio/examples/plain_function.py"
    window = subprocess.Popen([str(studio), "open", str(example)], env=env, cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        code = window.wait(timeout=8)
    except subprocess.TimeoutExpired:
        code = None
    finally:
        window.terminate()
        output = window.communicate(timeout=30)[0]
    assert code is None, f"the window exited with {code}: {output}"


def test_installed_studio_without_an_environment_names_setup(root, studio, tmp_path):
    env = clean_env(HOME=tmp_path, XDG_CACHE_HOME=tmp_path / "cache", XDG_DATA_HOME=tmp_path / "data")
    example = root / "usr/share/precompile-studio/examples/plain_function.py"
    r = run([studio, "run", example, "--no-store"], env=env, cwd=tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    message = r.stdout + r.stderr
    assert "precompile-studio setup" in message and str(tmp_path / "cache" / "precompile-studio") in message, message


def make_wheel(folder: Path) -> Path:
    """A one-module wheel, made here so that pip needs no index (--no-index)."""
    wheel = folder / "ps_setup_probe-1.0-py3-none-any.whl"
    files = {
        "ps_setup_probe.py": "ANSWER = 42\n",
        "ps_setup_probe-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: ps-setup-probe\nVersion: 1.0\n",
        "ps_setup_probe-1.0.dist-info/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = "".join(f"{name},,\n" for name in files) + "ps_setup_probe-1.0.dist-info/RECORD,,\n"
    with zipfile.ZipFile(wheel, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
        z.writestr("ps_setup_probe-1.0.dist-info/RECORD", record)
    return wheel


def test_setup_makes_an_environment_once_and_says_so(studio, tmp_path):
    env = clean_env(HOME=tmp_path, XDG_CACHE_HOME=tmp_path / "cache")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(f"--no-index\n{make_wheel(tmp_path)}\n")
    target = tmp_path / "env"
    r = run([studio, "setup", "--python-env", target, "--requirements", requirements], env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    for step in ("[setup] 1/3", "[setup] 2/3", "[setup] 3/3", "[setup] done"):
        assert any(line.startswith(step) for line in lines), r.stdout
    assert any(line.startswith("[setup] pip: ") and "ps-setup-probe" in line for line in lines), r.stdout
    assert (target / ".complete").read_text().endswith(requirements.read_text())
    probe = run([target / "bin/python", "-c", "import ps_setup_probe; print(ps_setup_probe.ANSWER)"])
    assert probe.stdout.strip() == "42", probe.stderr

    # Again: nothing to do, said in one line.
    r = run([studio, "setup", "--python-env", target, "--requirements", requirements], env=env)
    assert r.returncode == 0 and r.stdout.startswith("[setup] the environment is already complete"), r.stdout
    assert "1/3" not in r.stdout

    # Other requirements: installed into it, the marker rewritten.
    requirements.write_text(f"--no-index\n{make_wheel(tmp_path)}\n# changed\n")
    r = run([studio, "setup", "--python-env", target, "--requirements", requirements], env=env)
    assert r.returncode == 0 and "made from other requirements" in r.stdout, r.stdout + r.stderr
    assert (target / ".complete").read_text().endswith("# changed\n")


def test_setup_failures_are_one_line_and_leave_no_marker(studio, tmp_path):
    env = clean_env(HOME=tmp_path, XDG_CACHE_HOME=tmp_path / "cache")
    bad = tmp_path / "bad.txt"
    bad.write_text("--no-index\nps-no-such-package==1.0\n")
    target = tmp_path / "env"
    r = run([studio, "setup", "--python-env", target, "--requirements", bad], env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    errors = r.stderr.strip().splitlines()
    assert len(errors) == 1 and "pip could not install" in errors[0] and str(target) in errors[0], r.stderr
    assert not (target / ".complete").exists()

    r = run([studio, "setup", "--python-env", target, "--requirements", tmp_path / "absent.txt"], env=env)
    assert r.returncode == 2 and "no requirements file" in r.stderr, r.stderr

    folder = tmp_path / "not-an-env"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    r = run([studio, "setup", "--python-env", folder, "--requirements", bad], env=env)
    assert r.returncode == 2 and "is not a Python environment" in r.stderr, r.stderr
    assert (folder / "notes.txt").read_text() == "mine\n"  # a user's folder is never touched

    r = run([studio, "setup", "--python-env", tmp_path / "env3", "--requirements", bad, "--python", "no-such-python"],
            env=env)
    assert r.returncode == 2 and "no no-such-python" in r.stderr, r.stderr


    # A torch the studio has no worker for: one line naming the supported ones, nothing made.
    r = run([studio, "setup", "--torch", "2.9.1", "--python-env", tmp_path / "env4"], env=env)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "torch 2.9.1 is not supported" in r.stderr and "torch==2.14.1 or torch==2.15.0" in r.stderr, r.stderr
    assert not (tmp_path / "env4").exists()


def test_setup_for_another_torch_uses_that_torchs_requirements(root, studio, tmp_path):
    """`setup --torch 2.14.1` works on the per-user environment keyed by requirements-torch2.14.txt,
    plain `setup` on the one keyed by requirements.txt (torch 2.15)."""
    env = clean_env(HOME=tmp_path, XDG_CACHE_HOME=tmp_path / "cache")
    for torch, requirements in (("2.14.1", "requirements-torch2.14.txt"), (None, "requirements.txt")):
        key = environment_key(root / "usr/share/precompile-studio" / requirements)
        made = tmp_path / "cache" / "precompile-studio" / f"env-{key}"
        (made / "bin").mkdir(parents=True)
        (made / "bin" / "python").write_text("")
        (made / ".complete").write_text("")  # bootstrap's marker: complete, whatever its requirements
        r = run([studio, "setup", *(["--torch", torch] if torch else [])], env=env)
        assert r.returncode == 0, r.stdout + r.stderr
        assert r.stdout.startswith(f"[setup] the environment is already complete: {made}"), r.stdout
