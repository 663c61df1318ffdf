#!/bin/bash
# Brings up a private 3 x 2 local cluster, runs the topology / parallel
# connect test program against it, and always takes the cluster down, pass
# or fail (own_cluster, tests/integration/gcctl/lib.sh). Any postmaster the
# program stopped with SIGSTOP is continued first (a stopped server would
# never shut down).
# usage: run_cluster_test.sh GCCTL TEST_PROGRAM SPEC DIR
GCCTL=$1
PROGRAM=$2
SPEC=$3
DIR=$4
source "$(dirname "$0")/../gcctl/lib.sh"

own_cluster "$SPEC" >/dev/null
"$PROGRAM" "$DIR" "$GCCTL"
