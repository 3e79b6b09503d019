#!/usr/bin/env bash
# The fresh build's cost: a clean configure and `cmake --build` of the whole project, unity build
# (the default) against file by file (-DCMAKE_UNITY_BUILD=OFF), one after the other on this
# machine, each into a scratch folder of its own with the same torch environments as BUILD_DIR.
# Wall seconds and CPU seconds of each, and their ratios. Takes as long as two fresh builds
# (about half an hour on 2 cores); never part of `make test` or `make bench` (run it by hand).
# usage: build_time.sh BUILD_DIR [TARGET...]   (no target: everything)
set -euo pipefail
build=$(cd "${1:?usage: build_time.sh BUILD_DIR [TARGET...]}" && pwd)
shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ps-bench-build-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
targets=()
for t in "$@"; do targets+=(--target "$t"); done

measure() {  # measure NAME UNITY: prints "wall cpu" in seconds
    local dir="$scratch/$1"
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD="$2" \
        -DPS_PYTHON_ENV="$(cache PS_PYTHON_ENV)" -DPS_EXTRA_PYTHON_ENVS="$(cache PS_EXTRA_PYTHON_ENVS)" >/dev/null
    /usr/bin/time -f "%e %U %S" -o "$dir/time" cmake --build "$dir" "${targets[@]}" >"$dir/build.log" 2>&1 \
        || { echo "build $1 failed: $dir/build.log" >&2; tail -20 "$dir/build.log" >&2; exit 1; }
    awk '{printf "%.1f %.1f\n", $1, $2 + $3}' "$dir/time"
    rm -rf "$dir"
}

echo "fresh build of ${*:-everything} on $(nproc) cores"
read -r uwall ucpu < <(measure unity ON)
read -r fwall fcpu < <(measure files OFF)
printf '%-14s %9s %9s\n' "" "wall s" "cpu s"
printf '%-14s %9.1f %9.1f\n' "unity (default)" "$uwall" "$ucpu" "file by file" "$fwall" "$fcpu"
awk -v uw="$uwall" -v fw="$fwall" -v uc="$ucpu" -v fc="$fcpu" 'BEGIN {
    printf "BENCH build.fresh_wall %.1f s -\n", uw
    printf "BENCH build.unity_wall_ratio %.3f x <=0.70\n", uw / fw
    printf "BENCH build.unity_cpu_ratio %.3f x -\n", uc / fc }'
