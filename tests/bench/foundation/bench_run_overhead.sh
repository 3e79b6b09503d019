#!/usr/bin/env bash
# [foundation] benchmark: wall time of `precompile-studio run --no-verify --no-store` against a
# plain `python script.py` calling torch.compiler.precompile on the same fn. Each run is a cold
# process; both share one Inductor cache directory warmed first, so both see the same cache
# state; the two alternate, round by round, so machine noise hits both alike.
# usage: bench_run_overhead.sh BUILD_DIR [ROUNDS]
set -euo pipefail
build=$(cd "$1" && pwd)
rounds=${2:-7}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
python="$(bash "$root/packaging/python-env-path.sh")/bin/python"
studio="$build/bin/precompile-studio"
script="$root/resources/examples/training_step.py"
export TORCHINDUCTOR_CACHE_DIR=$(mktemp -d)
trap 'rm -rf "$TORCHINDUCTOR_CACHE_DIR"' EXIT

now() { date +%s.%N; }
time_studio() { local t0; t0=$(now); "$studio" run "$script" --no-verify --no-store >/dev/null 2>&1; echo "$(now) - $t0" | bc -l; }
time_plain() { local t0; t0=$(now); "$python" "$root/tests/bench/foundation/plain_precompile.py" "$script" >/dev/null 2>&1; echo "$(now) - $t0" | bc -l; }

time_studio >/dev/null  # warm the Inductor cache and the page cache for both
time_plain >/dev/null
studio_times=(); plain_times=()
for ((i = 0; i < rounds; i++)); do
    if ((i % 2)); then
        plain_times+=("$(time_plain)"); studio_times+=("$(time_studio)")
    else
        studio_times+=("$(time_studio)"); plain_times+=("$(time_plain)")
    fi
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
s=$(median "${studio_times[@]}"); p=$(median "${plain_times[@]}")
ratio=$(echo "$s / $p" | bc -l)
printf '\n%-44s %10s\n' "run overhead (training step, inductor, warm cache)" "median s"
printf '%-44s %10.3f\n' "precompile-studio run --no-verify --no-store" "$s" "python script.py (plain precompile)" "$p"
printf '%-44s %10.3f\n' "ratio studio / plain" "$ratio"
printf 'BENCH run.overhead_ratio %.3f x <=1.10\n' "$ratio"
printf 'BENCH run.studio_wall %.3f s -\n' "$s"
printf 'BENCH run.plain_wall %.3f s -\n' "$p"
