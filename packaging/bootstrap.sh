#!/usr/bin/env bash
# Sets up everything Precompile Studio needs on a fresh Debian machine, then builds it.
# Idempotent: each step is skipped when its result is already there.
#
#   1. the Debian packages in packaging/debian-packages.txt (apt is skipped when all are in)
#   2. a Python environment per torch series (PS_TORCH_SERIES, default 2.15) with its requirements
#      file (packaging/requirements-file.sh), outside the checkout, under
#      ${XDG_CACHE_HOME:-$HOME/.cache}/precompile-studio/env-<hash of that file>, then
#      packaging/requirements-dev.txt (jsonschema, ruff: tests and lint) into it
#   3. the CMake configure (Ninja, RelWithDebInfo) and build into ./build
#
# Environment: PS_BUILD_DIR (default build), PS_PYTHON (the interpreter the environment is
# made from, default python3), PS_TORCH_SERIES ("2.15 2.14": the environments to make; default
# 2.15), PS_SKIP_BUILD=1 to stop after step 2.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
log() { printf '[bootstrap] %s\n' "$*" >&2; }

# 1. Debian packages -----------------------------------------------------------------------
mapfile -t packages < <(grep -v -E '^\s*(#|$)' packaging/debian-packages.txt)
missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# 2. Python environments ------------------------------------------------------------------
# One per torch series (docs/design/torch-versions.md): PS_TORCH_SERIES names those to make
# (default: 2.15, the default series; `make test` asks for "2.15 2.14"), and one already complete
# is kept in the build, so `make run` after `make test` keeps both workers. pip runs with
# PIP_CONSTRAINT=/dev/null: a machine's own constraint file (one that caps torch, say) must not
# decide the release the studio pins; the machine's configuration itself is left alone.
make_env() {
    local series=$1 env_dir requirements
    env_dir=$(bash packaging/python-env-path.sh "$series")
    requirements=$(bash packaging/requirements-file.sh "$series")
    if [ ! -f "$env_dir/.complete" ]; then
        log "making the Python environment $env_dir for torch $series (torch is large: this takes a few minutes)"
        rm -rf "$env_dir"
        mkdir -p "$(dirname "$env_dir")"
        "${PS_PYTHON:-python3}" -m venv "$env_dir"
        PIP_CONSTRAINT=/dev/null "$env_dir/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
        "$env_dir/bin/python" -c 'import torch, pybind11; print("torch", torch.__version__)' >&2
        touch "$env_dir/.complete"
    fi
    # The test and lint tools (requirements-dev.txt), into the same environment; a marker named
    # after the file's hash says they are in.
    local dev_marker
    dev_marker="$env_dir/.dev-$(sha256sum packaging/requirements-dev.txt | cut -c1-16)"
    if [ ! -f "$dev_marker" ]; then
        log "installing packaging/requirements-dev.txt into $env_dir"
        PIP_CONSTRAINT=/dev/null "$env_dir/bin/pip" install --quiet --disable-pip-version-check -r packaging/requirements-dev.txt
        rm -f "$env_dir"/.dev-*
        touch "$dev_marker"
    fi
}
wanted=${PS_TORCH_SERIES:-2.15}
for series in $wanted; do
    make_env "$series"
done
env_dir=""
extra_envs=""
for series in 2.15 2.14; do
    dir=$(bash packaging/python-env-path.sh "$series")
    case " $wanted " in *" $series "*) ;; *) [ -f "$dir/.complete" ] || continue ;; esac
    if [ -z "$env_dir" ]; then env_dir=$dir; else extra_envs="${extra_envs:+$extra_envs;}$dir"; fi
done

[ "${PS_SKIP_BUILD:-0}" = 1 ] && exit 0

# 3. Configure and build ---------------------------------------------------------------------
build_dir=${PS_BUILD_DIR:-build}
if [ ! -f "$build_dir/build.ninja" ] || ! grep -q "PS_PYTHON_ENV:PATH=$env_dir\$" "$build_dir/CMakeCache.txt" 2>/dev/null \
    || ! grep -qx "PS_EXTRA_PYTHON_ENVS:STRING=$extra_envs" "$build_dir/CMakeCache.txt" 2>/dev/null; then
    log "configuring $build_dir (torch environments: $env_dir${extra_envs:+ $extra_envs})"
    cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DPS_PYTHON_ENV:PATH="$env_dir" -DPS_EXTRA_PYTHON_ENVS:STRING="$extra_envs" >&2
fi
cmake --build "$build_dir" >&2
