#!/bin/bash
# Connect time with members that never answer (docs/global-connection.md,
# "Connecting"): a private 2 x 2 cluster (always taken down, frozen servers
# continued first); silent_members.py connects through unixODBC and calls
# back here to freeze and continue members.
# usage: silent_members.sh GCCTL PY SPEC DIR
GCCTL=$1
PY=$2
SPEC=$3
DIR=$4
LIB=$(cd "$(dirname "$0")/../gcctl" && pwd)/lib.sh
source "$LIB"
own_cluster "$SPEC"
write_fault_helper
run_client /usr/bin/python3 "$PY" gquick "$DIR/helper.sh" "$DIR" \
    || fail "silent_members.py failed"
echo PASS
