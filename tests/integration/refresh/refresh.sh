#!/bin/bash
# A global connection follows scale-out and ALTER SYSTEM RECONNECT GLOBAL
# CONNECTION, with the servers as witnesses: a private 2-group cluster
# (always taken down), refresh_client.py through pyodbc, then isql.
# usage: refresh.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/../gcctl/lib.sh"
own_cluster "$SPEC"
base=$(sed -n 's/^base: //p' "$DIR/local.state")
os_user=$(sed -n 's/^user: //p' "$DIR/local.state")

run_client /usr/bin/python3 \
    "$(dirname "$0")/refresh_client.py" "$GCCTL" "$DIR" "$base/sock" "$os_user" \
    || fail "refresh_client.py"

# RECONNECT from isql (SQLPrepare/SQLExecute): the version rises everywhere.
before=$(sql G1N1 "SELECT version FROM gcluster.version")
for m in G2N1 G3N1; do
    v=$(sql "$m" "SELECT version FROM gcluster.version")
    [ "$v" -gt "$before" ] && before=$v
done
out=$(echo "ALTER SYSTEM RECONNECT GLOBAL CONNECTION" |
      run_client isql -b grefresh 2>&1) \
    || fail "isql RECONNECT: $out"
for m in G1N1 G2N1 G3N1; do
    v=$(sql "$m" "SELECT version FROM gcluster.version")
    [ "$v" = $((before + 1)) ] || fail "after isql RECONNECT $m has version $v, expected $((before + 1))"
done
echo "ok: RECONNECT through isql: version $((before + 1)) on every primary"
echo PASS
