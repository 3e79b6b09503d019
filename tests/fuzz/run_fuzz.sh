#!/usr/bin/env bash
# Runs each libFuzzer target in BUILD_DIR/bin for SECONDS, starting from tests/fuzz/corpus/<target>
# (read-only: new inputs go to BUILD_DIR/corpus/<target>). The targets: those named, else one per
# seed folder under tests/fuzz/corpus/. Prints one line per target:
#   FUZZ <target> <executions> execs <seconds> s <findings>
# and exits non-zero when any target found a crash, a leak, a timeout or an out-of-memory.
# Usage: run_fuzz.sh BUILD_DIR SECONDS [TARGET...]
set -u
build=${1:?build dir}
seconds=${2:?seconds per target}
shift 2
targets=("$@")
here=$(cd "$(dirname "$0")" && pwd)
if [ ${#targets[@]} -eq 0 ]; then
    for seeds in "$here"/corpus/fuzz_*/; do
        targets+=("$(basename "$seeds")")
    done
fi
status=0
for t in "${targets[@]}"; do
    work="$build/corpus/$t"
    artifacts="$build/artifacts/$t"
    log="$build/logs/$t.log"
    mkdir -p "$work" "$artifacts" "$(dirname "$log")"
    touch "$log.start"
    start=$(date +%s)
    "$build/bin/$t" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$work" "$here/corpus/$t" >"$log" 2>&1
    rc=$?
    elapsed=$(($(date +%s) - start))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    findings=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
        -o -name 'oom-*' -o -name 'slow-unit-*' \) -newer "$log.start" 2>/dev/null | grep -cv slow-unit)
    if [ "$rc" -ne 0 ] && [ "$findings" -eq 0 ]; then
        findings=1  # a failure that left no artifact (e.g. the target did not start)
    fi
    echo "FUZZ $t ${execs:-0} execs $elapsed s $findings"
    if [ "$rc" -ne 0 ] || [ "$findings" -ne 0 ]; then
        status=1
        echo "  $t failed (exit $rc); log: $log; inputs: $artifacts/" >&2
        grep -m1 -A25 -E '^==[0-9]+==ERROR|runtime error|uncaught exception|terminate called|deadly signal' "$log" >&2
    fi
done
exit $status
