#!/usr/bin/env bash
# Prints the path of the studio's Python environment for a torch series (default: the default
# series, torch 2.15): keyed by a hash of its requirements file (requirements.txt for the
# default, requirements-torchX.Y.txt for another), so that every clone with the same
# requirements shares one environment.
#   python-env-path.sh [SERIES]      e.g. python-env-path.sh 2.14
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
file=$(bash "$root/packaging/requirements-file.sh" "${1:-}")
key=$(sha256sum "$file" | cut -c1-16)
echo "${XDG_CACHE_HOME:-$HOME/.cache}/precompile-studio/env-$key"
