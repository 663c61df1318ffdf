#!/bin/bash
# stop-member / start-member, then promote: a group keeps serving through
# its standby, cross-group access follows the new primary, the other standby
# follows it too, and the catalog and version say so.
# usage: failover.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/lib.sh"

# A three-member group G1 so that promote has another standby to repoint.
spec=$(mktemp)
sed 's/^  - {name: G1N2, group: G1, host: 127.0.0.1, port: 0}$/&\n  - {name: G1N3, group: G1, host: 127.0.0.1, port: 0}/' "$SPEC" >"$spec"
own_cluster "$spec"
trap '"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true; rm -f "$spec"' EXIT

sql G2N1 "INSERT INTO accounts SELECT g, 'a', 0 FROM generate_series(1, 100) g"

# Stop and start a standby; it catches up with what it missed.
"$GCCTL" local stop-member G1N2 --dir "$DIR" --mode fast || fail "stop-member"
sql_may_fail G1N2 "SELECT 1" >/dev/null && fail "G1N2 still answers after stop-member"
sql G1N1 "INSERT INTO accounts SELECT g, 'b', 0 FROM generate_series(101, 200) g"
"$GCCTL" local start-member G1N2 --dir "$DIR" || fail "start-member"
wait_until G1N2 "SELECT count(*) FROM accounts" 200
echo "ok: stop-member and start-member"

# Kill the primary, promote a standby.
v0=$(sql G2N1 "SELECT version FROM gcluster.version")
"$GCCTL" promote G1N2 --dir "$DIR" 2>&1 | grep -q "still running" || fail "promote while the primary runs was not refused"
"$GCCTL" local stop-member G1N1 --dir "$DIR" --mode immediate || fail "stop-member immediate"
"$GCCTL" promote G1N2 --dir "$DIR" || fail "promote"
[ "$(sql G1N2 "SELECT pg_is_in_recovery()")" = f ] || fail "G1N2 is still in recovery"
[ "$(primary_of G1)" = G1N2 ] || fail "locator.yaml does not list G1N2 first"
v1=$(sql G2N1 "SELECT version FROM gcluster.version")
[ "$v1" -gt "$v0" ] || fail "promote did not raise the version"
for m in G1N2 G2N1; do
    [ "$(sql "$m" "SELECT role FROM gcluster.members WHERE name = 'G1N2'")" = primary ] || fail "$m catalog: G1N2 not primary"
done
# Writes from the other group reach G1's shards on the new primary.
sql G2N1 "INSERT INTO accounts SELECT g, 'c', 0 FROM generate_series(201, 300) g"
[ "$(sql G1N2 "SELECT count(*) FROM accounts")" = 300 ] || fail "new primary does not see 300 rows"
# The third member now streams from the new primary.
wait_until G1N3 "SELECT count(*) FROM accounts" 300
wait_until G1N3 "SELECT pg_is_in_recovery()" t
"$GCCTL" status --dir "$DIR" | grep -E '^G1N2 +G1 .* primary +primary ' >/dev/null || fail "status does not show G1N2 as primary"
echo "ok: promote (version $v0 -> $v1), FDW and the other standby follow"
echo PASS
