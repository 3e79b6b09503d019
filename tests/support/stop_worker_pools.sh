#!/usr/bin/env bash
# Ends the worker pools (protocol::WorkerPool) that a test run left in FOLDER: each pool holds
# KEY.sock.lock with its pid; only a process that is a pool of that folder is killed.
set -u
folder="${1:?usage: stop_worker_pools.sh FOLDER}"
for lock in "$folder"/*.sock.lock; do
    [ -e "$lock" ] || continue
    pid="$(head -c 32 "$lock" | tr -dc 0-9)"
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || continue
    if tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "--pool ${lock%.lock}"; then
        kill "$pid" 2>/dev/null || true
    fi
done
exit 0
