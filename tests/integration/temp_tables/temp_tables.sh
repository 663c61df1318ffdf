#!/bin/bash
# Temporary tables through a global connection, end to end: a private 2 x 2
# cluster (always taken down), temp_client.py driving the driver with pyodbc
# through unixODBC, and calling back helper.sh to look at the servers and to
# break members.
# usage: temp_tables.sh GCCTL PYTHON CLIENT SPEC DIR
GCCTL=$1
PYTHON=$2
CLIENT=$3
SPEC=$4
DIR=$5
source "$(dirname "$0")/../gcctl/lib.sh"
own_cluster "$SPEC"
write_fault_helper

# Rows of the sharded table, on both groups, for the joins.
sql G1N1 "INSERT INTO accounts (id, owner) SELECT g, 'seed' FROM generate_series(1, 40) g" >/dev/null
for m in $(members); do
    wait_until "$m" "SELECT count(*) FROM accounts" 40
    su_sql "$m" "SELECT pg_stat_statements_reset()" >/dev/null
done
# Two keys, one owned by each group, for pinning transactions.
key_of() {
    sql G1N1 "SELECT min(a.id) FROM accounts a JOIN gcluster.shards s
               ON s.name = a.tableoid::regclass::text WHERE s.group_name = '$1'"
}
run_client "$PYTHON" "$CLIENT" "$DIR/helper.sh" gtemp "$(key_of G1)" "$(key_of G2)" \
    || fail "temp_client.py failed"
echo PASS
