#!/bin/bash
# replication: synchronous. A bad value is refused as file:line:column; on a
# synchronous cluster a COMMIT waits while the group's standby is stopped and
# returns once it is back; promote leaves a group without another standby
# committing alone, and add-member makes it wait for a standby again.
# usage: sync_replication.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/lib.sh"

spec=$(mktemp)
bad=$(mktemp --suffix=.yaml)
out=$(mktemp)
trap 'rm -f "$spec" "$bad" "$out"' EXIT

# A bad value names the file, line and column of the value.
printf 'cluster: x\ndatabase: app\nuser: app\npassword: p\nreplication: sometimes\nmembers:\n  - {name: A, group: G1}\n' >"$bad"
msg=$("$GCCTL" check "$bad" 2>&1) && fail "replication: sometimes was accepted"
case "$msg" in
    *"$bad:5:14: replication must be synchronous or asynchronous, not 'sometimes'"*) ;;
    *) fail "bad replication value: got '$msg'" ;;
esac
echo "ok: a bad replication value is refused: $msg"

sed 's/^password: app$/&\nreplication: synchronous/' "$SPEC" >"$spec"
grep -q '^replication: synchronous$' "$spec" || fail "could not make the synchronous spec"
own_cluster "$spec"
trap '"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true; rm -f "$spec" "$bad" "$out"' EXIT
grep -q '^replication: synchronous$' "$DIR/cluster.yaml" || fail "cluster.yaml lost the replication option"

for m in G1N1 G2N1; do
    wait_until "$m" "SHOW synchronous_standby_names" '*' || fail "$m: synchronous_standby_names is not '*'"
    wait_until "$m" "SHOW synchronous_commit" on || fail "$m: synchronous_commit is not on"
done
sql G1N1 "INSERT INTO settings VALUES ('a', '1')" >/dev/null
echo "ok: local up made both primaries synchronous"

# apply switches the mode both ways.
"$GCCTL" apply "$SPEC" --dir "$DIR" >/dev/null || fail "apply of the asynchronous spec"
for m in G1N1 G2N1; do
    wait_until "$m" "SHOW synchronous_standby_names" '' || fail "$m: apply (asynchronous) left synchronous_standby_names set"
done
grep -q '^replication:' "$DIR/cluster.yaml" && fail "cluster.yaml still says synchronous"
"$GCCTL" apply "$spec" --dir "$DIR" >/dev/null || fail "apply of the synchronous spec"
for m in G1N1 G2N1; do
    wait_until "$m" "SHOW synchronous_standby_names" '*' || fail "$m: apply (synchronous) did not set synchronous_standby_names"
done
echo "ok: apply turns synchronous replication off and on again"

# The standby stopped: a COMMIT waits for it and returns once it has
# started. (statement_timeout cannot bound it: PostgreSQL turns the timeout
# off before committing; timeout(1) does.)
"$GCCTL" local stop-member G1N2 --dir "$DIR" --mode fast || fail "stop-member"
timeout 30 psql -X -q -At -h 127.0.0.1 -p "$(port_of G1N1)" -U app -d app \
    -c "INSERT INTO settings VALUES ('c', '3')" >"$out" 2>&1 &
writer=$!
trap 'kill "$writer" 2>/dev/null; "$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true; rm -f "$spec" "$bad" "$out"' EXIT
sleep 1.5
kill -0 "$writer" 2>/dev/null || fail "the commit returned with the standby stopped: $(cat "$out")"
[ "$(psql -X -q -At -h "$(sed -n 's/^base: //p' "$DIR/local.state")/sock" -p "$(port_of G1N1)" \
     -U "$(sed -n 's/^user: //p' "$DIR/local.state")" -d app \
     -c "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")" = 1 ] \
    || fail "no session waits on SyncRep"
t0=$(date +%s%N)
"$GCCTL" local start-member G1N2 --dir "$DIR" || fail "start-member"
for _ in $(seq 1 150); do kill -0 "$writer" 2>/dev/null || break; sleep 0.1; done
kill -0 "$writer" 2>/dev/null && { kill "$writer"; fail "the commit still waits 15 s after the standby started"; }
wait "$writer" || fail "the waiting commit failed: $(cat "$out")"
grep -q "canceling" "$out" && fail "the waiting commit was cancelled: $(cat "$out")"
echo "ok: a commit waited 1.5 s with the standby stopped (wait event SyncRep)"
echo "ok: the waiting commit returned $(( ($(date +%s%N) - t0) / 1000000 )) ms after start-member was run"
wait_until G1N2 "SELECT v FROM settings WHERE k = 'c'" 3

# Promote with no other standby in the group: the new primary commits alone.
"$GCCTL" local stop-member G1N1 --dir "$DIR" --mode immediate || fail "stop-member immediate"
"$GCCTL" promote G1N2 --dir "$DIR" || fail "promote"
wait_until "G1N2" "SHOW synchronous_standby_names" '' || fail "promote left synchronous_standby_names set on G1N2"
timeout 10 psql -X -q -At -h 127.0.0.1 -p "$(port_of G1N2)" -U app -d app \
    -c "INSERT INTO settings VALUES ('d', '4')" >"$out" 2>&1 || fail "commit after promote: $(cat "$out")"
echo "ok: promote cleared synchronous_standby_names; the new primary commits alone"

# add-member gives the group a standby again, and the primary waits for it.
"$GCCTL" add-member G1N3 --group G1 --dir "$DIR" || fail "add-member"
wait_until "G1N2" "SHOW synchronous_standby_names" '*' || fail "add-member did not make G1N2 synchronous again"
timeout 10 psql -X -q -At -h 127.0.0.1 -p "$(port_of G1N2)" -U app -d app \
    -c "INSERT INTO settings VALUES ('e', '5')" >"$out" 2>&1 || fail "commit with G1N3 streaming: $(cat "$out")"
wait_until G1N3 "SELECT v FROM settings WHERE k = 'e'" 5
echo "ok: add-member made G1N2 synchronous again"
echo PASS
