#!/usr/bin/env bash
# Runs every benchmark under tests/bench (never part of `make test`). Each prints a readable
# table and one `BENCH <name> <value> <unit> <target>` line per figure; the BENCH lines are
# collected at the end. usage: run_all.sh BUILD_DIR
set -uo pipefail
build=$(cd "${1:-build}" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
python="$(bash "$root/packaging/python-env-path.sh")/bin/python"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() { echo "== $*"; "$@" 2>&1 | tee -a "$log"; }

run bash "$root/tests/bench/foundation/bench_run_overhead.sh" "$build"
PYTHONPATH="$root/engine/python" run "$python" "$root/tests/bench/worker_sees/bench_extraction_overhead.py"
# [real-models]: the default run against plain precompile + load + one compared call; GPT-2 runs
# from PS_BENCH_USER_ENV (a venv with transformers) and is skipped, saying so, without it.
run "$python" "$root/tests/bench/real_models/bench_verify_cost.py" "$build"
# [trust]: the regression gallery for false contract warnings (torchvision on inductor, 3 seeds each)
run "$python" "$root/tests/bench/real_models/bench_false_warnings.py" "$build"
# [overlays]: run --profile against run on resnet18 inference (inductor), the profiler's overhead per call
run "$python" "$root/tests/bench/profile/bench_profile_overhead.py" "$build"
# [deploy]: the cold-start ledger of resnet18 and a small GPT (inductor), and library check against a plain load + call
run "$python" "$root/tests/bench/deploy/bench_cold_start.py" "$build"
# [share]: the HTML report's graph panel on a 10k-node graph in headless Chromium (ready, Expand All)
PYTHONPATH="$root/tests/support" run "$python" "$root/tests/bench/share/bench_graph_page.py" "$build"
# bench_library: SQLite and PostgreSQL (a server of its own) side by side at 10,000 runs;
# PS_BENCH_LIBRARY_100K=1 also grows both to 100,000 runs (about 3 minutes more).
for exe in bench_library bench_window bench_graph bench_compare bench_remote; do
    [ -x "$build/bin/$exe" ] && run "$build/bin/$exe"
done
echo
echo "== all BENCH lines"
grep '^BENCH ' "$log"
