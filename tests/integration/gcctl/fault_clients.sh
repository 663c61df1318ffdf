#!/bin/bash
# A fault test whose client program runs the clients, the faults and the
# checks (bank, lost_writes; docs/fault-tests.md): brings up a private
# cluster from SPEC, always taken down (a frozen server is continued
# first), and runs PY (Debian's python3, with pyodbc) with the cluster's DSN
# (named after the cluster), the helper it calls back for superuser SQL,
# kill -9, SIGSTOP/SIGCONT and gcctl (lib.sh, write_fault_helper), and
# docs/failover.md, within SECONDS.
# usage: fault_clients.sh GCCTL PY SPEC FAILOVER_MD DIR SECONDS
GCCTL=$1
PY=$2
SPEC=$3
DOC=$4
DIR=$5
SECONDS_ALLOWED=$6
source "$(dirname "$0")/lib.sh"
own_cluster "$SPEC"

write_fault_helper

dsn=$(sed -n 's/^cluster: *//p' "$SPEC")
run_client timeout "$SECONDS_ALLOWED" /usr/bin/python3 "$PY" "$dsn" "$DIR/helper.sh" "$DOC" \
    || fail "$(basename "$PY") failed"
echo PASS
