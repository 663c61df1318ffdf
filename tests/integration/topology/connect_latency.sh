#!/bin/bash
# How long a global connection takes to open when every round trip to a
# member is slow: a private 3 x 2 cluster (always taken down) whose catalog
# is pointed at delaying proxies, one per member; connect_latency.py times
# the driver through unixODBC.
# usage: connect_latency.sh GCCTL CONNECT_LATENCY_PY SPEC DIR
GCCTL=$1
PY=$2
SPEC=$3
DIR=$4
LIB=$(cd "$(dirname "$0")/../gcctl" && pwd)/lib.sh
source "$LIB"
own_cluster "$SPEC" >/dev/null
write_fault_helper
run_client /usr/bin/python3 "$PY" topo "$DIR/helper.sh" "$DIR" \
    || fail "connect_latency.py failed"
echo PASS
