#!/usr/bin/env bash
# Prints the path of the test-only Python environment (packaging/test-env.sh makes it): keyed by
# a hash of requirements-test.txt and test-env.sh, beside the studio's environment.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
key=$(cat "$root/packaging/requirements-test.txt" "$root/packaging/test-env.sh" | sha256sum | cut -c1-16)
echo "${XDG_CACHE_HOME:-$HOME/.cache}/precompile-studio/test-env-$key"
