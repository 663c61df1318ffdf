#!/bin/bash
# Failover of the global connection, end to end (docs/failover.md): a
# private 2 x 2 cluster (always taken down); failover.py (or auto_promotion.py,
# on a cluster with ha: true) drives the driver
# through unixODBC and calls back here (as a helper command) to break and
# mend members; the servers say where each statement ran. The compound
# fault test (tests/integration/compound) runs its own client the same way.
# usage: failover.sh GCCTL CLIENT_PY SPEC DIR
GCCTL=$1
PY=$2
SPEC=$3
DIR=$4
LIB=$(cd "$(dirname "$0")/../gcctl" && pwd)/lib.sh
source "$LIB"
own_cluster "$SPEC"

sql G1N1 "INSERT INTO accounts (id, owner) SELECT g, 'seed' FROM generate_series(1, 200) g" >/dev/null
for m in $(members); do
    wait_until "$m" "SELECT count(*) FROM accounts" 200
done
write_fault_helper
# The DSN gcctl wrote is named after the cluster.
run_client /usr/bin/python3 "$PY" "$(sed -n 's/^cluster: *\([^ #]*\).*/\1/p' "$SPEC")" "$DIR/helper.sh" \
    || fail "failover.py failed"
echo PASS
