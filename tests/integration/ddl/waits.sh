#!/bin/bash
# Cluster DDL that waits for another session's lock ends when the
# application says so: SQL_ATTR_QUERY_TIMEOUT (HYT00) and SQLCancel from
# another thread (57014) reach the DDL's statement on the group's primary
# where it waits, and the DDL is undone on every group. A private 2-group
# cluster (always taken down); statements through the driver with pyodbc;
# the servers checked with libpq (psql).
# usage: waits.sh GCCTL PYTHON SPEC DIR
GCCTL=$1
PYTHON=$2
SPEC=$3
DIR=$4
source "$(dirname "$0")/../gcctl/lib.sh"
source "$(dirname "$0")/ddl_lib.sh"
own_cluster "$SPEC"
app_owns_public_tables

# A cluster-wide DDL runs group by group, G1 first: the lock is held on
# G2, so G1's part is already prepared when the DDL waits there.
waits_on=$(primary_of G2)
holder_pid=""
# hold_lock: a session on $waits_on holds ROW EXCLUSIVE on accounts (as a
# writer's open transaction does: ALTER TABLE and CREATE INDEX wait for
# it), for at most 50 s.
hold_lock() {
    PGAPPNAME=gcodbc_lock_holder psql -X -q -h 127.0.0.1 -p "$(port_of "$waits_on")" -U app -d app \
        -c "BEGIN" -c "LOCK TABLE accounts IN ROW EXCLUSIVE MODE" -c "SELECT pg_sleep(50)" \
        >/dev/null 2>&1 &
    holder_pid=$!
    for _ in $(seq 1 100); do
        [ "$(sql "$waits_on" "SELECT count(*) FROM pg_stat_activity
              WHERE application_name = 'gcodbc_lock_holder' AND query LIKE 'SELECT pg_sleep%'")" = 1 ] \
            && return
        sleep 0.1
    done
    fail "the lock holder did not start on $waits_on"
}
release_lock() {
    su_sql "$waits_on" "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                        WHERE application_name = 'gcodbc_lock_holder'" >/dev/null
    wait "$holder_pid" 2>/dev/null
    holder_pid=""
}
trap '[ -n "$holder_pid" ] && kill "$holder_pid" 2>/dev/null; take_down' EXIT

# waiting MODE TIMEOUT CANCEL_AFTER SQL...: wait_client.py on the cluster's DSN.
waiting() {
    run_client "$PYTHON" "$(dirname "$0")/wait_client.py" gddl "$@"
}
# ended_within LINE STATE LOW HIGH: LINE is `error STATE SECONDS ...` with
# LOW <= SECONDS <= HIGH.
ended_within() {
    local word state seconds
    read -r word state seconds _ <<<"$1"
    [ "$word" = error ] && [ "$state" = "$2" ] &&
        awk -v s="$seconds" -v lo="$3" -v hi="$4" 'BEGIN { exit !(s >= lo && s <= hi) }'
}
no_column() {
    on_every "SELECT count(*) FROM information_schema.columns
              WHERE table_name = 'accounts' AND column_name = '$1'" 0 "$2"
}
nothing_left() {
    no_prepared_left "$1"
    [ "$(sql "$waits_on" "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")" = 0 ] \
        || fail "$1: a statement still waits for a lock on $waits_on"
}

hold_lock
# 1. Autocommit: the query timeout ends the DDL waiting on G2 (HYT00,
# about 2 s); G1's prepared part is rolled back.
out=$(waiting autocommit 2 0 "ALTER TABLE accounts ADD COLUMN w1 int")
ended_within "$out" HYT00 1.5 10 || fail "ALTER TABLE waiting for a lock, query timeout 2 s: $out"
case $out in *"timeout expired"*"group G2"*"nothing was changed on any group"*) ;;
    *) fail "the timeout's message does not say where and what was undone: $out" ;; esac
no_column w1 "a timed-out ALTER TABLE"
nothing_left "after a timed-out ALTER TABLE"
echo "ok: ALTER TABLE waiting for a lock on $waits_on ended by the query timeout: $out"

# 2. In a transaction: the DDL alone is undone (rollback level 2, the
# default); the transaction's earlier write stays and commits.
out=$(waiting commit 2 0 "INSERT INTO accounts (id, owner) VALUES (1001, 'before')" \
      "ALTER TABLE accounts ADD COLUMN w2 int" "SELECT owner FROM accounts WHERE id = 1001")
[ "$(first_words "$out")" = "ok 1 error HYT00 ok 1 row before commit " ] \
    || fail "a timed-out ALTER TABLE in a transaction: $out"
ended_within "$(echo "$out" | sed -n 2p)" HYT00 1.5 10 || fail "the timeout in a transaction: $out"
no_column w2 "a timed-out ALTER TABLE in a transaction"
on_every "SELECT owner FROM accounts WHERE id = 1001" before "the row the transaction wrote before the timed-out DDL"
nothing_left "after a timed-out ALTER TABLE in a transaction"
echo "ok: in a transaction, the timed-out DDL was undone alone; the transaction's write committed"

# 3. SQLCancel from another thread, no query timeout: 57014, undone.
out=$(waiting autocommit 0 1 "CREATE INDEX accounts_owner_w ON accounts (owner)")
ended_within "$out" 57014 0.5 10 || fail "CREATE INDEX waiting for a lock, SQLCancel after 1 s: $out"
on_every "SELECT count(*) FROM pg_class WHERE relname LIKE 'accounts_owner_w%'" 0 \
    "an index of a cancelled CREATE INDEX"
nothing_left "after a cancelled CREATE INDEX"
echo "ok: CREATE INDEX waiting for a lock on $waits_on ended by SQLCancel: $out"

release_lock
# 4. The timeout passes while G1's PREPARE TRANSACTION waits for a
# synchronous standby that does not exist (let go after 4 s; a cancel
# does not end that wait): G2 is not prepared, G1's part is rolled back,
# HYT00 once G1 answers. Before the decision, a cancel always wins.
first=$(primary_of G1)
hold_commits "$first"
(sleep 4; release_commits "$first") &
releaser=$!
out=$(waiting autocommit 2 0 "ALTER TABLE accounts ADD COLUMN w4 int")
wait "$releaser"
ended_within "$out" HYT00 3.5 15 || fail "ALTER TABLE timed out while a group prepared: $out"
no_column w4 "an ALTER TABLE timed out while a group prepared"
nothing_left "after an ALTER TABLE timed out while a group prepared"
echo "ok: a timeout that passed while a group prepared undid the DDL on every group: $out"

# 5. Nothing in the way, the same DDL with the same timeout runs everywhere.
out=$(waiting autocommit 2 0 "ALTER TABLE accounts ADD COLUMN w5 int")
[ "${out%% *}" = ok ] || fail "ALTER TABLE with nothing in its way: $out"
on_every "SELECT count(*) FROM information_schema.columns
          WHERE table_name = 'accounts' AND column_name = 'w5'" 1 "the column of an ALTER TABLE that ran"
nothing_left "after ALTER TABLE"
echo "ok: with the lock released, ALTER TABLE under the same timeout ran on every group"

# 6. A text of several statements with DDL runs statement by statement; the
# query timeout is the text's, not each statement's: two sleeps of 2 s
# around a CREATE TABLE, timeout 3 s, end at about 3 s (HYT00), the text
# undone whole (before, each statement had its own 3 s and the text ran).
out=$(waiting autocommit 3 0 "SELECT pg_sleep(2); CREATE TABLE tw6 (id int); SELECT pg_sleep(2)")
ended_within "$out" HYT00 2.5 10 || fail "a text of 4 s under a query timeout of 3 s: $out"
on_every "SELECT count(*) FROM pg_class WHERE relname = 'tw6'" 0 "the table of a timed-out text"
nothing_left "after a timed-out text"
echo "ok: the query timeout ended a text of several statements as a whole: $out"

# 7. SQLCancel between two statements of such a text ends it there. The
# text's COMMIT waits for a synchronous standby that does not exist; the
# cancel ends that wait (PostgreSQL: committed locally, a warning), and
# before, the text went on to its CREATE TABLE.
for g in G1 G2; do hold_commits "$(primary_of "$g")"; done
(sleep 4; for g in G1 G2; do release_commits "$(primary_of "$g")"; done) &
releaser=$!
out=$(waiting autocommit 0 1 \
      "BEGIN; INSERT INTO accounts (id, owner) VALUES (1007, 'text'); COMMIT; CREATE TABLE tw7 (id int)")
wait "$releaser"
ended_within "$out" 57014 0.5 3.5 || fail "SQLCancel while a text's COMMIT waited: $out"
on_every "SELECT count(*) FROM pg_class WHERE relname = 'tw7'" 0 "the table after a cancelled text"
on_every "SELECT owner FROM accounts WHERE id = 1007" text "the row the text committed before the cancel"
nothing_left "after a cancelled text"
echo "ok: SQLCancel between two statements of a text ended it before the next: $out"
