#!/usr/bin/env bash
# Makes the test-only Python environment at $(packaging/test-env-path.sh); idempotent (a
# .complete marker says it is whole). `make test` runs it before ctest; the tests find it through
# the environment variable PS_TEST_ENV (the folder; its python is $PS_TEST_ENV/bin/python).
#
#   1. a venv with packaging/requirements-test.txt (lines ending in "# no-deps" installed apart
#      with pip's --no-deps)
#   2. junit-10.xsd (Jenkins xUnit's JUnit schema, MIT, Gregory Boissinot) into the folder,
#      read out of pytest's sdist on PyPI (it is in no wheel and no Debian package): the JUnit
#      tests validate the studio's XML against it
#
# Environment: PS_PYTHON (the interpreter the environment is made from, default python3).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
log() { printf '[test-env] %s\n' "$*" >&2; }
# The pytest release whose sdist carries testing/example_scripts/junit-10.xsd.
junit_xsd_sdist=pytest==9.2.0

env_dir=$(bash packaging/test-env-path.sh)
[ -f "$env_dir/.complete" ] && exit 0

log "making the test environment $env_dir"
rm -rf "$env_dir"
mkdir -p "$(dirname "$env_dir")"
"${PS_PYTHON:-python3}" -m venv "$env_dir"
pip=("$env_dir/bin/pip" install --quiet --disable-pip-version-check)
reqs=$(mktemp)
nodeps=$(mktemp)
sdist=$(mktemp -d)
trap 'rm -rf "$reqs" "$nodeps" "$sdist"' EXIT
grep -v -E '#\s*no-deps\s*$' packaging/requirements-test.txt >"$reqs" || true
grep -E '#\s*no-deps\s*$' packaging/requirements-test.txt | sed -E 's/\s*#.*$//' >"$nodeps" || true
"${pip[@]}" -r "$reqs"
[ -s "$nodeps" ] && "${pip[@]}" --no-deps -r "$nodeps"

"$env_dir/bin/pip" download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    "$junit_xsd_sdist" -d "$sdist"
"$env_dir/bin/python" - "$sdist" "$env_dir/junit-10.xsd" <<'PY'
import pathlib, sys, tarfile
sdists = sorted(pathlib.Path(sys.argv[1]).glob("pytest-*.tar.gz"))
if not sdists:
    sys.exit("test-env: no pytest sdist was downloaded")
with tarfile.open(sdists[0]) as tar:
    members = [m for m in tar.getmembers() if m.name.endswith("/testing/example_scripts/junit-10.xsd")]
    if not members:
        sys.exit(f"test-env: {sdists[0].name} has no testing/example_scripts/junit-10.xsd")
    pathlib.Path(sys.argv[2]).write_bytes(tar.extractfile(members[0]).read())
PY
"$env_dir/bin/python" -c 'import xmlschema, model_explorer, dacite; xmlschema.XMLSchema(__import__("sys").argv[1])' \
    "$env_dir/junit-10.xsd"
touch "$env_dir/.complete"
log "test environment ready"
