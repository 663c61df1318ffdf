#!/bin/bash
# The global session (GlobalSession=Yes), end to end on a private 3 x 2
# cluster (always taken down): 64 global connections in one process, their
# server backends counted in pg_stat_activity on every member, without and
# with the key; then settings, prepared statements and refusals.
# usage: global_session.sh GCCTL PROGRAM SPEC DIR
GCCTL=$1
PROGRAM=$2
SPEC=$3
DIR=$4
source "$(dirname "$0")/../gcctl/lib.sh"
own_cluster "$SPEC"
DSN=$(sed -n 's/^\[\(.*\)\]$/\1/p' "$DIR/odbc.ini" | head -1)

sql G1N1 "INSERT INTO accounts (id) SELECT g FROM generate_series(1, 64) g" >/dev/null

# backends [STATE]: the test's server sessions on every member, summed.
backends() {
    local total=0 n
    for m in $(members); do
        n=$(su_sql "$m" "SELECT count(*) FROM pg_stat_activity
                         WHERE application_name = 'gsession' ${1:+AND state = '$1'}")
        total=$((total + n))
    done
    echo "$total"
}

# run_count Yes|No: runs the program, calling check_connected and
# check_transactions at its two pauses.
run_count() {
    local fifo="$DIR/gsession.fifo" out="$DIR/gsession.out"
    rm -f "$fifo" "$out"
    mkfifo "$fifo"
    run_client "$PROGRAM" "$DSN" count "$1" <"$fifo" >"$out" &
    local pid=$!
    exec 3>"$fifo"
    for phase in connected transactions; do
        for _ in $(seq 1 600); do
            [ "$(grep -c '^ready' "$out")" -ge "$([ $phase = connected ] && echo 1 || echo 2)" ] && break
            kill -0 "$pid" 2>/dev/null || fail "global_session count $1 stopped early"
            sleep 0.1
        done
        "check_${phase}_$1"
        echo >&3
    done
    exec 3>&-
    wait "$pid" || fail "global_session count $1 failed"
}

check_connected_No() {
    got=$(backends)
    [ "$got" = 384 ] || fail "without GlobalSession, 64 connections hold $got backends, expected 384"
    echo "ok: without GlobalSession: 64 connections x 6 members = $got backends"
}
check_transactions_No() { :; }
# member_backends M [STATE]: the test's server sessions on member M.
member_backends() {
    su_sql "$1" "SELECT count(*) FROM pg_stat_activity
                 WHERE application_name = 'gsession' ${2:+AND state = '$2'}"
}

# Sessions follow concurrent transactions: on each member, no more backends
# than the transactions it runs at once, and at most one kept idle by the
# pool where it runs none (the statements before used it one at a time).
check_connected_Yes() {
    got=$(backends)
    for m in $(members); do
        n=$(member_backends "$m")
        [ "$n" -le 1 ] ||
            fail "with GlobalSession, 64 connections used one after another hold $n backends on $m, expected at most 1"
    done
    [ "$got" -ge 1 ] || fail "with GlobalSession, the 64 connections' statements left no backend at all"
    echo "ok: with GlobalSession: 64 connections, one statement at a time: $got backends (at most 1 per member)"
}
check_transactions_Yes() {
    got=$(backends)
    busy=$(backends "idle in transaction")
    [ "$busy" = 8 ] || fail "8 open transactions show $busy backends idle in transaction"
    for m in $(members); do
        n=$(member_backends "$m")
        t=$(member_backends "$m" "idle in transaction")
        [ "$n" -le "$((t > 1 ? t : 1))" ] ||
            fail "with GlobalSession, $m holds $n backends for $t open transactions"
    done
    echo "ok: with GlobalSession: 8 open transactions hold 8 backends; $got in all (per member, at most its open transactions, or 1 idle)"
}

run_count No
run_count Yes
run_client "$PROGRAM" "$DSN" leak || fail "settings, prepared statements or refusals"
run_client "$PROGRAM" "$DSN" wait || fail "a waiter for a shared session"
run_client "$PROGRAM" "$DSN" threads || fail "threads sharing a bounded pool"

# Idle shared sessions terminated by the servers are never handed out.
fifo="$DIR/gsession.fifo" out="$DIR/gsession.out"
rm -f "$fifo" "$out"
mkfifo "$fifo"
run_client "$PROGRAM" "$DSN" kill <"$fifo" >"$out" &
pid=$!
exec 3>"$fifo"
for _ in $(seq 1 600); do
    grep -q '^ready' "$out" && break
    kill -0 "$pid" 2>/dev/null || fail "global_session kill stopped early"
    sleep 0.1
done
for m in $(members); do
    su_sql "$m" "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                 WHERE application_name = 'gsession' AND state = 'idle'" >/dev/null
done
for m in $(members); do
    for _ in $(seq 1 100); do
        [ "$(su_sql "$m" "SELECT count(*) FROM pg_stat_activity
                          WHERE application_name = 'gsession'")" = 0 ] && break
        sleep 0.1
    done
done
echo >&3
exec 3>&-
wait "$pid" || fail "after the idle sessions were terminated: $(cat "$out")"
cat "$out"
echo PASS
