#!/usr/bin/env bash
# The HTML report's page scripts checked by ESLint (Debian's eslint; its rules in
# engine/share/page/.eslintrc.json: eslint:recommended, strict equality, const, no var).
# Debian's eslint finds its modules under /usr/share/nodejs, which a node from elsewhere does not
# search by itself: NODE_PATH says so.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if ! command -v eslint >/dev/null; then
    echo "check_js: eslint is not installed (Debian: apt-get install eslint; packaging/debian-packages.txt lists it)" >&2
    exit 2
fi
cd "$root"  # its ignore rules take paths relative to where it runs
NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH} eslint --max-warnings 0 engine/share/page
echo "check_js: the page's scripts pass ESLint"
