#!/usr/bin/env bash
# Prints the requirements file of a torch series: requirements.txt for the default series (the
# one `make run` and `precompile-studio setup` make: torch 2.15), requirements-torchX.Y.txt for
# another supported one; an unsupported series is an error naming the supported ones.
#   requirements-file.sh [SERIES]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
series=${1:-2.15}
case "$series" in
    2.15) echo "$root/packaging/requirements.txt" ;;
    2.14) echo "$root/packaging/requirements-torch2.14.txt" ;;
    *) echo "requirements-file.sh: torch $series is not supported (2.14 or 2.15)" >&2; exit 2 ;;
esac
