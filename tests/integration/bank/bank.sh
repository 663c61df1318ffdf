#!/bin/bash
# The bank fault test (docs/fault-tests.md): a private 3 x 2 synchronous
# cluster, always taken down (a frozen server is continued first); bank.py
# runs the clients, the chaos and the checks, and calls back here (the
# helper) for superuser SQL, kill -9, SIGSTOP/SIGCONT and gcctl.
# usage: bank.sh GCCTL PYTHON BANK_PY SPEC FAILOVER_MD DIR
GCCTL=$1
PYTHON=$2
PY=$3
SPEC=$4
DOC=$5
DIR=$6
LIB=$(cd "$(dirname "$0")/../gcctl" && pwd)/lib.sh
source "$LIB"
own_cluster "$SPEC"

write_fault_helper

run_client timeout 150 "$PYTHON" "$PY" bank "$DIR/helper.sh" "$DOC" \
    || fail "bank.py failed"
echo PASS
