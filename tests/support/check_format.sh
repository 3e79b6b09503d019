#!/usr/bin/env bash
# Checks that every C++ file of the project follows .clang-format (make test runs this as the
# ctest cxx_format). With --fix, formats them in place instead.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
if ! command -v clang-format >/dev/null; then
    echo "clang-format is not installed: packaging/bootstrap.sh installs it" >&2
    exit 1
fi
mapfile -t files < <(find app engine ui tests \( -name '*.cpp' -o -name '*.h' \) -not -path '*/fixtures/*' | sort)
if [ "${1:-}" = "--fix" ]; then
    clang-format -i "${files[@]}"
    exit 0
fi
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/ps-format-$$.log; then
    grep -E '^[^ ].*: (error|warning):' /tmp/ps-format-$$.log | cut -d: -f1 | sort -u | sed 's/^/not formatted: /' >&2
    rm -f /tmp/ps-format-$$.log
    echo "run tests/support/check_format.sh --fix" >&2
    exit 1
fi
rm -f /tmp/ps-format-$$.log
echo "${#files[@]} C++ files follow .clang-format"
