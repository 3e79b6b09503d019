#!/usr/bin/env bash
# Prints the path of the studio's Python environment: keyed by a hash of requirements.txt so
# that every clone with the same requirements shares one environment.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
key=$(sha256sum "$root/packaging/requirements.txt" | cut -c1-16)
echo "${XDG_CACHE_HOME:-$HOME/.cache}/precompile-studio/env-$key"
