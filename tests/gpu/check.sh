#!/usr/bin/env bash
# The studio on a GPU: resnet18 inference and a resnet18 training step, model and inputs on
# CUDA, backend inductor, each run through `precompile-studio run SCRIPT --json --no-store` and
# checked by check_gpu.py (the schema, the verdict: matches or numerics drift, the devices the
# report records, every Triton kernel mapped to graph nodes). For a machine with a GPU: about
# 3-5 minutes, most of it Inductor compiling Triton kernels (a fresh kernel cache each time, so
# that the kernel mapping is the cold lowering's).
#
#   tests/gpu/check.sh            build/bin/precompile-studio (made with `make build` when absent)
#   PS_BUILD_DIR=DIR tests/gpu/check.sh
#
# Exit 0: both checks held; 1: a check failed, or there is no CUDA device; 2: no studio to run.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${PS_BUILD_DIR:-$root/build}
studio=$build/bin/precompile-studio
py=$(bash "$root/packaging/python-env-path.sh")/bin/python

if [ ! -x "$py" ] || [ ! -x "$studio" ]; then
    echo "check.sh: no studio build at $build: running make build"
    make -C "$root" build BUILD="$build" || { echo "check.sh: make build failed"; exit 2; }
fi
if [ ! -x "$studio" ]; then
    echo "check.sh: no $studio after make build"
    exit 2
fi

if ! gpus=$("$py" -c '
import sys, torch
if not torch.cuda.is_available():
    sys.exit(1)
print(", ".join(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())))
' 2>/dev/null); then
    echo "no CUDA device: this check needs a GPU"
    exit 1
fi
echo "check.sh: torch $("$py" -c 'import torch; print(torch.__version__)' 2>/dev/null) on $gpus"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/precompile-studio-gpu-check-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export TORCHINDUCTOR_CACHE_DIR=$scratch/inductor
export PRECOMPILE_STUDIO_CACHE_DIR=$scratch/studio
export XDG_DATA_HOME=$scratch/data
export PS_GPU_CHECK_DEVICE=cuda

status=0
for script in resnet18_inference.py resnet18_training.py; do
    "$py" "$root/tests/gpu/check_gpu.py" "$studio" "$root/tests/gpu/$script" --device cuda --kernels triton \
        --timeout 240 || status=1
done
if [ "$status" -eq 0 ]; then
    echo "check.sh: ok: both GPU checks held"
else
    echo "check.sh: FAILED (see the lines above)"
fi
exit "$status"
