#!/bin/bash
# gcctl resolve settles the prepared transactions a transaction across
# groups left behind, by its coordinator group's decision
# (docs/failover.md, "In-doubt transactions"): made for real on the demo
# cluster (G2's primary prepared under gids whose coordinator is G1), then
# checked on the servers: nothing left prepared, each row as decided, the
# decisions cleaned up.
# usage: resolve.sh GCCTL DIR
GCCTL=$1
DIR=$2
source "$(dirname "$0")/lib.sh"

run="gcx:$$:$(date +%s)."   # what this run's gids start with
gid() { echo "${run}00000000$1:$1:$2"; }
A=$(gid 1 G1)   # coordinator committed: committed
B=$(gid 2 G1)   # no decision: rolled back
C=$(gid 3 G1)   # coordinator still open, then commits: committed after waiting
D=$(gid 4 G1)   # coordinator still open, then rolls back: rolled back
E=$(gid 5 G9)   # names a group the cluster does not have: left
F=$(gid 6 G1)   # coordinator group down: left, then rolled back once it is up

cleanup() {
    "$GCCTL" local start-member G1N1 --dir "$DIR" >/dev/null 2>&1 || true
    for m in G1N1 G2N1; do
        for g in $(su_sql "$m" "SELECT gid FROM pg_prepared_xacts WHERE gid LIKE 'gcx:%' OR gid LIKE 'gcodbc_ddl_%'" 2>/dev/null); do
            su_sql "$m" "ROLLBACK PREPARED '$g'" >/dev/null 2>&1
        done
    done
}
trap cleanup EXIT

in_doubt_setup a b c d e f
prepare a "$A"
prepare b "$B"
prepare c "$C"
prepare d "$D"
prepare e "$E"
sql G1N1 "SELECT gcluster.decide_commit('$A', true)" >/dev/null

# Coordinators of C and D: their decision written, their transaction open.
coordinator() {
    psql -X -q -At -h 127.0.0.1 -p "$(port_of G1N1)" -U app -d app \
        -c "BEGIN" -c "SELECT gcluster.decide_commit('$1', true)" -c "SELECT pg_sleep(4)" \
        -c "$2" >/dev/null
}
coordinator "$C" COMMIT &
coord_c=$!
coordinator "$D" ROLLBACK &
coord_d=$!
wait_until G1N1 "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(4)'" 2

# Within the grace (default 10 s): nothing is touched, the exit says so.
out=$("$GCCTL" resolve --dir "$DIR" 2>&1) && fail "resolve within the grace exited 0: $out"
echo "$out"
[ "$(echo "$out" | grep -c 'left: prepared .* within the grace of 10 s')" -eq 5 ] \
    || fail "not every transaction was left for the grace"
[ "$(sql G2N1 "SELECT count(*) FROM pg_prepared_xacts WHERE left(gid, ${#run}) = '$run'")" = 5 ] \
    || fail "resolve touched transactions within the grace"
echo "ok: transactions within the grace are left to their coordinator"

# --grace 0: each by its coordinator's decision, waiting for C and D.
start=$(date +%s.%N)
out=$("$GCCTL" resolve --dir "$DIR" --grace 0 2>&1) && fail "resolve left nothing, but E names no group: $out"
secs=$(echo "$(date +%s.%N) - $start" | bc)
echo "$out"
wait "$coord_c" || fail "coordinator of C failed"
wait "$coord_d" || fail "coordinator of D failed"
echo "$out" | grep -q "^$A  G2  committed$" || fail "A not committed"
echo "$out" | grep -q "^$B  G2  rolled back$" || fail "B not rolled back"
echo "$out" | grep -q "^$C  G2  committed$" || fail "C not committed after its coordinator"
echo "$out" | grep -q "^$D  G2  rolled back$" || fail "D not rolled back after its coordinator"
echo "$out" | grep -q "^$E  G2  left: its coordinator group G9 is not in this cluster$" || fail "E not left"
echo "$out" | grep -q "in doubt: 2 committed, 2 rolled back, 1 left" || fail "summary"
(( $(echo "$secs >= 1.5" | bc) )) || fail "resolve did not wait for the open coordinators (${secs} s)"
[ "$(probe_rows)" = "a1,b0,c1,d0,e0,f0" ] \
    || fail "rows not as decided: $(probe_rows)"
echo "ok: committed iff the coordinator committed, waiting ${secs} s for open coordinators"

# Decisions: commits removed (prepared nowhere), rollbacks kept (1 h by
# default); B and D were decided "roll back".
echo "$out" | grep -q "decisions removed: 2$" || fail "commit decisions not removed"
decisions=$(sql G1N1 "SELECT string_agg(gid || '=' || committed, ',' ORDER BY gid) FROM gcluster.commit_decisions")
[ "$decisions" = "$B=false,$D=false" ] || fail "decisions: $decisions"
su_sql G2N1 "ROLLBACK PREPARED '$E'"
out=$("$GCCTL" resolve --dir "$DIR" --grace 0 --keep-rollbacks 0 2>&1) || fail "resolve with nothing in doubt: $out"
echo "$out" | grep -q "decisions removed: 2$" || fail "rollback decisions not removed: $out"
[ "$(sql G1N1 "SELECT count(*) FROM gcluster.commit_decisions")" = 0 ] || fail "decisions left"
echo "ok: decisions no prepared transaction needs are removed"

# The coordinator group down: left, decisions kept; back up: rolled back.
prepare f "$F"
"$GCCTL" local stop-member G1N1 --dir "$DIR" --mode fast >/dev/null || fail "stop G1N1"
out=$("$GCCTL" resolve --dir "$DIR" --grace 0 2>&1) && fail "resolve with G1 down exited 0: $out"
echo "$out"
echo "$out" | grep -q "group G1 (G1N1) did not answer" || fail "G1 down not reported"
echo "$out" | grep -q "^$F  G2  left: its coordinator group G1 did not answer" || fail "F not left"
echo "$out" | grep -q "decisions kept: not every group answered" || fail "cleanup not skipped"
"$GCCTL" local start-member G1N1 --dir "$DIR" >/dev/null || fail "start G1N1"
out=$("$GCCTL" resolve --dir "$DIR" --grace 0 --keep-rollbacks 0 2>&1) || fail "resolve after G1 came back: $out"
echo "$out" | grep -q "^$F  G2  rolled back$" || fail "F not rolled back: $out"
[ "$(sql G2N1 "SELECT v FROM resolve_probe WHERE k = 'f'")" = 0 ] || fail "F applied"
echo "ok: a group down leaves its transactions and keeps the decisions"

# Cluster DDL left prepared is listed with what to run, never touched.
ddl="gcodbc_ddl_$$_$(date +%s)_1"
sql G2N1 "BEGIN" "UPDATE resolve_probe SET v = 2 WHERE k = 'a'" "PREPARE TRANSACTION '$ddl'"
out=$("$GCCTL" resolve --dir "$DIR" 2>&1) && fail "resolve with DDL prepared exited 0: $out"
echo "$out" | grep -q "^$ddl  cluster DDL prepared on G2N1 only: run COMMIT PREPARED '$ddl' there if the change is on the other groups, else ROLLBACK PREPARED '$ddl'$" \
    || fail "DDL not listed: $out"
[ "$(sql G2N1 "SELECT count(*) FROM pg_prepared_xacts WHERE gid = '$ddl'")" = 1 ] || fail "DDL touched"
su_sql G2N1 "ROLLBACK PREPARED '$ddl'"
echo "ok: prepared cluster DDL is listed with the statement to run"

out=$("$GCCTL" resolve --dir "$DIR" --grace soon 2>&1) && fail "--grace soon accepted"
[ "$out" = "gcctl: --grace needs a number of seconds (0 to 1000000), not 'soon'" ] || fail "bad --grace: $out"
[ "$(sql G2N1 "SELECT count(*) FROM pg_prepared_xacts")" = 0 ] || fail "prepared transactions left"
su_sql G2N1 "DROP TABLE resolve_probe"
echo PASS
