#!/bin/bash
# Brings up a private 3 x 2 local cluster, runs the topology / parallel
# connect test program against it, and always takes the cluster down, pass
# or fail. Any postmaster the program stopped with SIGSTOP is resumed first
# (a stopped server would never shut down).
# usage: run_cluster_test.sh GCCTL TEST_PROGRAM SPEC DIR
set -u
GCCTL=$1
PROGRAM=$2
SPEC=$3
DIR=$4

resume_all() {
    local base
    base=$(sed -n 's/^base: //p' "$DIR/local.state" 2>/dev/null)
    [ -n "$base" ] || return 0
    for pidfile in "$base"/*/postmaster.pid; do
        [ -f "$pidfile" ] && kill -CONT "$(head -1 "$pidfile")" 2>/dev/null
    done
    return 0
}
cleanup() {
    resume_all
    "$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true
}

"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true   # left over from an aborted run
trap cleanup EXIT
trap 'exit 1' INT TERM
"$GCCTL" local up "$SPEC" --dir "$DIR" >/dev/null || { echo "FAIL: local up $SPEC" >&2; exit 1; }
"$PROGRAM" "$DIR" "$GCCTL"
