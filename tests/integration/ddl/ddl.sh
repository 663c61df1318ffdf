#!/bin/bash
# DDL through a global connection, end to end: a private 2-group cluster
# (always taken down), statements sent through the driver with pyodbc, and
# each group's primary checked with libpq (psql).
# usage: ddl.sh GCCTL PYTHON CLIENT SPEC DIR
GCCTL=$1
PYTHON=$2
CLIENT=$3
SPEC=$4
DIR=$5
source "$(dirname "$0")/../gcctl/lib.sh"
own_cluster "$SPEC"

base=$(sed -n 's/^base: //p' "$DIR/local.state")
os_user=$(sed -n 's/^user: //p' "$DIR/local.state")
su() {
    psql -X -q -At -v ON_ERROR_STOP=1 -h "$base/sock" -p "$(port_of "$1")" -U "$os_user" -d app -c "$2" \
        || fail "superuser SQL on $1 failed: $2"
}
# odbc [--manual] SQL: what the application sees.
odbc() {
    # shellcheck disable=SC2086 # GC_CLIENT_ENV is NAME=value words
    env ${GC_CLIENT_ENV:-} ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" "$PYTHON" "$CLIENT" gddl "$@" \
        || fail "the client failed on: $*"
}
# odbc_cs CONNECTION-STRING [--repeat N] SQL: the same with a connection string.
odbc_cs() {
    # shellcheck disable=SC2086 # GC_CLIENT_ENV is NAME=value words
    env ${GC_CLIENT_ENV:-} ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" "$PYTHON" "$CLIENT" "$@" \
        || fail "the client failed on: $*"
}
# app_calls MEMBER LIKE: pg_stat_statements calls of the application role's
# statements whose text starts with LIKE.
app_calls() {
    su "$1" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE userid = 'app'::regrole AND query LIKE '$2%'"
}
# on_every PRIMARY-QUERY EXPECTED WHAT: the same answer on each group's primary.
on_every() {
    for g in G1 G2; do
        got=$(sql "$(primary_of "$g")" "$1")
        [ "$got" = "$2" ] || fail "$3: group $g's primary answers '$got' to '$1', expected '$2'"
    done
}
no_prepared_left() {
    on_every "SELECT count(*) FROM pg_prepared_xacts" 0 "$1"
}
version() {
    sql "$(primary_of "$1")" "SELECT version FROM gcluster.version"
}

# gcctl creates the spec's tables as the superuser; DDL on them needs their
# owner, so the application role is made the owner here.
for g in G1 G2; do
    su "$(primary_of "$g")" "DO \$\$ DECLARE r regclass; BEGIN
        FOR r IN SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
                 AND c.relkind IN ('r', 'p', 'f') LOOP
            EXECUTE format('ALTER TABLE %s OWNER TO app', r);
        END LOOP; END \$\$" >/dev/null
done
v0=$(version G1)
# 1. CREATE TABLE of a new unpartitioned table: a solo table.
out=$(odbc "CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL, at date DEFAULT '2026-01-01')")
[ "${out%% *}" = ok ] || fail "CREATE TABLE: $out"
kinds=$(for g in G1 G2; do sql "$(primary_of "$g")" "SELECT relkind FROM pg_class WHERE oid = 'notes'::regclass"; done | sort | tr -d '\n')
[ "$kinds" = fr ] || fail "the solo table is not plain on one group and foreign on the other: '$kinds'"
no_prepared_left "after CREATE TABLE"
sql G1N1 "INSERT INTO notes (id, body) VALUES (1, 'from G1')" >/dev/null
sql G2N1 "INSERT INTO notes (id, body) VALUES (2, 'from G2')" >/dev/null
on_every "SELECT string_agg(id || ':' || body || ':' || at, ',' ORDER BY id) FROM notes" \
    "1:from G1:2026-01-01,2:from G2:2026-01-01" "the solo table read through each primary"
echo "ok: CREATE TABLE made a solo table: plain on one group, foreign on the other, read and written through both"
v1=$(version G1)
[ "$v1" -gt "$v0" ] && [ "$(version G2)" = "$v1" ] \
    || fail "catalog version after CREATE TABLE: G1 $v1, G2 $(version G2), before $v0"
echo "ok: the catalog version rose on every group to $v1"

# 1b. The solo table is registered in the catalog of every group, in the
# DDL's own transaction, marked as made by a driver; the application role
# still cannot write the catalog itself.
owner=""
for g in G1 G2; do
    [ "$(sql "$(primary_of "$g")" "SELECT relkind FROM pg_class WHERE oid = 'notes'::regclass")" = r ] && owner=$g
done
other=G1
[ "$owner" = G1 ] && other=G2
on_every "SELECT method || ':' || owner_group || ':' || origin FROM gcluster.tables WHERE name = 'notes'" \
    "solo:$owner:ddl" "the solo table's catalog row"
out=$(sql_may_fail G1N1 "INSERT INTO gcluster.tables (name, method, key) VALUES ('forged', 'solo', '{}')")
case $out in *"permission denied"*) ;; *) fail "the application role wrote gcluster.tables: $out" ;; esac
out=$(sql_may_fail G1N1 "SELECT gcluster.register_solo_table('gcluster.version'::regclass, 'G1')")
case $out in *"only the owner"*) ;; *) fail "the application role registered a table it does not own: $out" ;; esac
echo "ok: the solo table is in gcluster.tables on every group (owner $owner, origin ddl); the role cannot forge rows"

# 1c. The router sends statements on the solo table to its owner group: the
# servers' pg_stat_statements say which primary ran them. A group that is
# not the owner would run them through its foreign table (a different text,
# with public.notes, on the owner).
for g in G1 G2; do su "$(primary_of "$g")" "SELECT pg_stat_statements_reset()" >/dev/null; done
out=$(odbc_cs "DSN=gddl;DirectExecuteRouting=Yes;LocalityGroupPolicy=0" --repeat 20 \
    "SELECT body FROM notes WHERE id = ?")
[ "${out%% *}" = ok ] || fail "SELECT on the solo table: $out"
got_owner=$(app_calls "$(primary_of "$owner")" 'SELECT body FROM notes WHERE id = $1')
got_other=$(app_calls "$(primary_of "$other")" 'SELECT body FROM notes WHERE id = $1')
[ "$got_owner" = 20 ] && [ "$got_other" = 0 ] \
    || fail "statements on the solo table: $got_owner on owner $owner, $got_other on $other (want 20 and 0)"
echo "ok: 20 statements on the solo table ran on its owner group $owner, none on $other"

# 1d. gcctl apply leaves the rows a driver made.
"$GCCTL" apply "$SPEC" --dir "$DIR" >/dev/null || fail "gcctl apply"
on_every "SELECT method || ':' || owner_group || ':' || origin FROM gcluster.tables WHERE name = 'notes'" \
    "solo:$owner:ddl" "the solo table's catalog row after gcctl apply"
on_every "SELECT string_agg(name || ':' || origin, ',' ORDER BY name) FROM gcluster.tables" \
    "accounts:spec,notes:ddl" "the catalog's tables after gcctl apply"
echo "ok: gcctl apply kept the driver's catalog row and its own"

# 2. CREATE INDEX and ALTER TABLE ADD COLUMN on the sharded table.
out=$(odbc "CREATE INDEX accounts_owner_idx ON accounts (owner)")
[ "${out%% *}" = ok ] || fail "CREATE INDEX: $out"
on_every "SELECT count(*) FROM pg_index WHERE indexrelid = to_regclass('accounts_owner_idx')" 1 "CREATE INDEX"
out=$(odbc "ALTER TABLE accounts ADD COLUMN note text")
[ "${out%% *}" = ok ] || fail "ALTER TABLE ADD COLUMN: $out"
on_every "SELECT count(*) FROM pg_attribute WHERE attrelid = 'accounts'::regclass AND attname = 'note'" 1 "ADD COLUMN"
# Every shard has it, local or foreign: rows of both groups written and read through one primary.
sql G1N1 "INSERT INTO accounts (id, owner, note) SELECT g, 'o', 'n' || g FROM generate_series(1, 8) g" >/dev/null
on_every "SELECT count(*) FROM accounts WHERE note = 'n' || id" 8 "the new column through every shard"
echo "ok: CREATE INDEX and ALTER TABLE ADD COLUMN show on every group's primary"
no_prepared_left "after CREATE INDEX / ALTER TABLE"

# 3. A DDL that fails on one group leaves every group unchanged.
sql G2N1 "CREATE TABLE clash_idx_holder (x int)" "CREATE INDEX clash_idx ON clash_idx_holder (x)" >/dev/null
out=$(odbc "CREATE INDEX clash_idx ON accounts (balance)")
case $out in
error\ 42P07*G2*) ;;
*) fail "a DDL failing on G2 gave: $out" ;;
esac
[ "$(sql G1N1 "SELECT to_regclass('clash_idx') IS NULL")" = t ] || fail "G1 kept the index of a failed DDL"
sql G1N1 "CREATE TABLE clash (x int)" >/dev/null
out=$(odbc "CREATE TABLE clash (x int, y int)")
[ "${out%% *}" = error ] || fail "CREATE TABLE of a name taken on G1 gave: $out"
[ "$(sql G2N1 "SELECT to_regclass('clash') IS NULL")" = t ] || fail "G2 kept the table of a failed DDL"
no_prepared_left "after failed DDL"
echo "ok: a DDL failing on one group left every group unchanged, no prepared transaction left ($out)"

# 4. Refusals: inside a transaction, PARTITION OF, CONCURRENTLY.
out=$(odbc --manual "CREATE TABLE in_txn (x int)")
case $out in error\ 25000*) ;; *) fail "DDL with autocommit off gave: $out" ;; esac
out=$(odbc "CREATE TABLE accounts_x PARTITION OF accounts FOR VALUES WITH (MODULUS 8, REMAINDER 7)")
case $out in error\ 0A000*) ;; *) fail "PARTITION OF gave: $out" ;; esac
out=$(odbc "CREATE INDEX CONCURRENTLY c_idx ON accounts (balance)")
case $out in error\ 0A000*) ;; *) fail "CONCURRENTLY gave: $out" ;; esac
on_every "SELECT count(*) FROM pg_class WHERE relname IN ('in_txn', 'accounts_x', 'c_idx')" 0 "refused DDL"
echo "ok: DDL in a transaction (25000), PARTITION OF and CONCURRENTLY (0A000) are refused"

# 5. TRUNCATE is data: one primary empties every shard through postgres_fdw.
out=$(odbc "TRUNCATE accounts")
[ "${out%% *}" = ok ] || fail "TRUNCATE: $out"
on_every "SELECT count(*) FROM accounts" 0 "TRUNCATE"
echo "ok: TRUNCATE of a sharded table empties every shard"

# 6. DROP reaches every group.
out=$(odbc "DROP TABLE notes")
[ "${out%% *}" = ok ] || fail "DROP TABLE: $out"
on_every "SELECT to_regclass('notes') IS NULL" t "DROP TABLE"
on_every "SELECT count(*) FROM gcluster.tables WHERE name = 'notes'" 0 "DROP TABLE's catalog row"
on_every "SELECT count(*) FROM gcluster.tables WHERE name = 'accounts'" 1 "gcctl's catalog row"
echo "ok: DROP TABLE reached every group and removed the solo table's catalog row"

# 6b. A PREPARE TRANSACTION whose answer is lost: on G2's primary,
# synchronous replication to a standby that does not exist makes PREPARE
# wait after preparing locally; that backend is terminated. The driver must
# leave every group unchanged and no prepared transaction behind.
su G2N1 "ALTER SYSTEM SET synchronous_standby_names = 'gcodbc_no_such_standby'" >/dev/null
su G2N1 "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 1 50); do
    [ "$(su G2N1 "SHOW synchronous_standby_names")" = gcodbc_no_such_standby ] && break
    sleep 0.1
done
odbc "ALTER TABLE accounts ADD COLUMN lost_prepare int" >"$DIR/lost_prepare.out" &
client=$!
waiting=""
for _ in $(seq 1 150); do
    waiting=$(su G2N1 "SELECT pid FROM pg_stat_activity
                       WHERE wait_event = 'SyncRep' AND query LIKE 'PREPARE TRANSACTION%'")
    [ -n "$waiting" ] && break
    sleep 0.1
done
[ -n "$waiting" ] || { kill "$client"; fail "no PREPARE TRANSACTION waited for synchronous replication on G2N1"; }
[ "$(su G2N1 "SELECT count(*) FROM pg_prepared_xacts")" = 1 ] \
    || fail "the waiting PREPARE TRANSACTION had not prepared on G2N1"
su G2N1 "SELECT pg_terminate_backend($waiting)" >/dev/null
# Releases the driver's ROLLBACK PREPARED, which waits for the same
# replication until the setting is gone.
su G2N1 "ALTER SYSTEM RESET synchronous_standby_names" >/dev/null
su G2N1 "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 1 300); do
    kill -0 "$client" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$client" 2>/dev/null; then
    kill "$client"
    fail "the client did not return within 30 s of the lost PREPARE"
fi
wait "$client" || fail "the client failed on the lost PREPARE"
out=$(cat "$DIR/lost_prepare.out")
case $out in
error\ *G2*"rolled back"*) ;;
*) fail "a lost PREPARE TRANSACTION gave: $out" ;;
esac
on_every "SELECT count(*) FROM pg_attribute WHERE attrelid = 'accounts'::regclass AND attname = 'lost_prepare'" \
    0 "the DDL whose PREPARE was lost"
no_prepared_left "after a lost PREPARE TRANSACTION"
echo "ok: a PREPARE TRANSACTION whose answer was lost left every group unchanged and nothing prepared ($out)"

# 7. max_prepared_transactions = 0 on one primary: refused, nothing changes.
su G2N1 "ALTER SYSTEM SET max_prepared_transactions = 0" >/dev/null
"$GCCTL" local stop-member G2N1 --dir "$DIR" >/dev/null || fail "stop-member G2N1"
"$GCCTL" local start-member G2N1 --dir "$DIR" >/dev/null || fail "start-member G2N1"
out=$(odbc "CREATE TABLE after_restart (x int)")
case $out in error\ 55000*max_prepared_transactions*G2N1*) ;; *) fail "max_prepared_transactions=0 gave: $out" ;; esac
on_every "SELECT to_regclass('after_restart') IS NULL" t "refused DDL"
echo "ok: refused with 55000 when a primary allows no prepared transactions"
echo "PASS"
