#!/bin/bash
# The member layer against a real 1 x 2 cluster (always taken down; a
# stopped server is always continued, even when the test fails).
# usage: member_health.sh GCCTL MEMBER_HEALTH SPEC DIR
GCCTL=$1
HEALTH=$2
SPEC=$3
DIR=$4
source "$(dirname "$0")/../gcctl/lib.sh"
own_cluster "$SPEC"

base=$(sed -n 's/^base: //p' "$DIR/local.state")
pidfile="$base/G1N1/postmaster.pid"
# Continues G1N1's postmaster and its children (the test stops them).
continue_server() {
    local pm
    pm=$(head -1 "$pidfile" 2>/dev/null) || return 0
    [ -n "$pm" ] || return 0
    kill -CONT "$pm" 2>/dev/null
    for c in $(ps -o pid= --ppid "$pm" 2>/dev/null); do kill -CONT "$c" 2>/dev/null; done
    return 0
}
trap 'continue_server; "$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true' EXIT

"$HEALTH" 127.0.0.1 "$(port_of G1N1)" 127.0.0.1 "$(port_of G1N2)" "$pidfile" \
    || fail "member_health failed"
echo PASS
