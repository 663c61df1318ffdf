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
source "$(dirname "$0")/ddl_lib.sh"
own_cluster "$SPEC"

# odbc [--manual] SQL: what the application sees.
odbc() {
    run_client "$PYTHON" "$CLIENT" gddl "$@" \
        || fail "the client failed on: $*"
}
# odbc_cs CONNECTION-STRING [--repeat N] SQL: the same with a connection string.
odbc_cs() {
    run_client "$PYTHON" "$CLIENT" "$@" \
        || fail "the client failed on: $*"
}
# app_calls MEMBER LIKE: pg_stat_statements calls of the application role's
# statements whose text starts with LIKE.
app_calls() {
    su_sql "$1" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE userid = 'app'::regrole AND query LIKE '$2%'"
}
version() {
    sql "$(primary_of "$1")" "SELECT version FROM gcluster.version"
}

app_owns_public_tables
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
for g in G1 G2; do su_sql "$(primary_of "$g")" "SELECT pg_stat_statements_reset()" >/dev/null; done
out=$(odbc_cs "DSN=gddl;DirectExecuteRouting=Yes;LocalityGroupPolicy=0" --repeat 20 \
    "SELECT body FROM notes WHERE id = ?")
[ "${out%% *}" = ok ] || fail "SELECT on the solo table: $out"
got_owner=$(app_calls "$(primary_of "$owner")" 'SELECT body FROM notes WHERE id = $1')
got_other=$(app_calls "$(primary_of "$other")" 'SELECT body FROM notes WHERE id = $1')
[ "$got_owner" = 20 ] && [ "$got_other" = 0 ] \
    || fail "statements on the solo table: $got_owner on owner $owner, $got_other on $other (want 20 and 0)"
echo "ok: 20 statements on the solo table ran on its owner group $owner, none on $other"

# 1c'. Statements on a solo table sent by SQLExecDirect (not routed by key)
# in autocommit, the policy naming the other group, run on the owner too: a
# serial key gets its value there (through postgres_fdw the foreign table
# has no default and would send NULL: 23502), INSERT ... RETURNING answers
# it, an UPDATE without a key and a SELECT run there, and so do nextval
# and setval of its sequence.
out=$(odbc_cs "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$owner" \
    "CREATE TABLE serial_notes (id serial PRIMARY KEY, body text)")
[ "${out%% *}" = ok ] || fail "CREATE TABLE serial_notes: $out"
for g in G1 G2; do su_sql "$(primary_of "$g")" "SELECT pg_stat_statements_reset()" >/dev/null; done
away="DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$other"
out=$(odbc_cs "$away" "INSERT INTO serial_notes (body) VALUES ('direct')")
[ "$out" = "ok 1" ] || fail "INSERT of a serial solo table by SQLExecDirect from $other: $out"
out=$(odbc_cs "$away" --fetch "INSERT INTO serial_notes (body) VALUES ('returning') RETURNING id")
[ "$out" = "$(printf 'ok 1\n2')" ] || fail "INSERT ... RETURNING of a serial solo table: $out"
out=$(odbc_cs "$away" "UPDATE serial_notes SET body = body || '!'")
[ "$out" = "ok 2" ] || fail "UPDATE of a serial solo table by SQLExecDirect: $out"
[ "$(sql "$(primary_of "$owner")" "SELECT string_agg(id || ':' || body, ',' ORDER BY id) FROM serial_notes")" \
    = "1:direct!,2:returning!" ] || fail "the serial solo table's rows on its owner"
got_owner=$(app_calls "$(primary_of "$owner")" 'INSERT INTO serial_notes')
got_other=$(app_calls "$(primary_of "$other")" 'INSERT INTO serial_notes')
[ "$got_owner" = 2 ] && [ "$got_other" = 0 ] \
    || fail "INSERTs of the serial solo table: $got_owner on owner $owner, $got_other on $other (want 2 and 0)"
[ "$(app_calls "$(primary_of "$owner")" 'UPDATE serial_notes')" = 1 ] \
    || fail "the UPDATE of the serial solo table did not run on its owner $owner"
out=$(odbc_cs "$away" --fetch "SELECT count(*) FROM serial_notes")
[ "$out" = "$(printf 'ok 1\n2')" ] || fail "SELECT of the serial solo table from $other: $out"
[ "$(app_calls "$(primary_of "$owner")" 'SELECT count(*) FROM serial_notes')" = 1 ] \
    && [ "$(app_calls "$(primary_of "$other")" 'SELECT count(*) FROM serial_notes')" = 0 ] \
    || fail "a read of the solo table by SQLExecDirect should run on its owner $owner"
# Its sequence lives on the owner only: nextval and setval naming it run
# there, in autocommit and in a transaction (pyodbc's default) alike; from
# the other group they would find no such relation (42P01).
out=$(odbc_cs "$away" --fetch "SELECT nextval('serial_notes_id_seq')")
[ "$out" = "$(printf 'ok 1
3')" ] || fail "nextval of the solo table's sequence from $other: $out"
out=$(odbc_cs "$away" --manual --fetch "SELECT setval('public.Serial_Notes_Id_Seq'::regclass, 41)")
[ "$out" = "$(printf 'ok 1
41')" ] || fail "setval of the solo table's sequence in a transaction: $out"
[ "$(app_calls "$(primary_of "$owner")" 'SELECT nextval(')" = 1 ] \
    && [ "$(app_calls "$(primary_of "$owner")" 'SELECT setval(')" = 1 ] \
    || fail "nextval and setval of the solo table's sequence did not run on its owner $owner"
# ALTER SEQUENCE of it runs where it exists: on the owner only (elsewhere
# 42P01 would undo it everywhere), and leaves its step alone.
out=$(odbc "ALTER SEQUENCE serial_notes_id_seq RESTART WITH 500")
[ "${out%% *}" = ok ] || fail "ALTER SEQUENCE of the solo table's sequence: $out"
out=$(odbc_cs "$away" --fetch "SELECT nextval('serial_notes_id_seq')")
[ "$out" = "$(printf 'ok 1\n500')" ] || fail "nextval after ALTER SEQUENCE ... RESTART WITH 500: $out"
odbc "DROP TABLE serial_notes" >/dev/null
echo "ok: SQLExecDirect statements on a solo table with a serial key, and nextval/setval/ALTER SEQUENCE of its sequence, ran on its owner $owner from $other's policy"

# 1c''. A solo table in a schema of its own, outside the search_path: its
# catalog row names the schema, so every shard map finds it, whichever
# group it was read from. Writes in transactions (pyodbc's default), the
# policy naming the other group, run on its owner; through the foreign
# twin the other group's member would refuse them (a transaction's write
# through postgres_fdw). SQLTables calls the twin a TABLE. A second solo
# table of the name in another schema is refused (42P07, nothing made), and
# DROP SCHEMA ... CASCADE takes the row with the table. The owner is G1,
# whose member the driver reads the shard map from: there the table is a
# plain one, known as solo only by its row.
home="DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=G1"
there="DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=G2"
for ddl in "CREATE SCHEMA app_s" "CREATE TABLE app_s.items (id int PRIMARY KEY, v text)" "CREATE SCHEMA app_t"; do
    out=$(odbc_cs "$home" "$ddl")
    [ "${out%% *}" = ok ] || fail "$ddl: $out"
done
on_every "SELECT schema_name || '.' || name || ':' || owner_group FROM gcluster.tables WHERE name = 'items'" \
    "app_s.items:G1" "the catalog row of a solo table in schema app_s"
for g in G1 G2; do su_sql "$(primary_of "$g")" "SELECT pg_stat_statements_reset()" >/dev/null; done
out=$(run_client "$PYTHON" - "$there" <<'PY' 2>&1
import sys
import pyodbc
conn = pyodbc.connect(sys.argv[1], autocommit=False)
cur = conn.cursor()
for i in range(10):
    cur.execute("INSERT INTO app_s.items VALUES (?, 'x')", i)
    conn.commit()
cur.execute("UPDATE app_s.items SET v = 'y' WHERE id < 5")
conn.commit()
kinds = {r.table_type for r in cur.tables(table="items", schema="app_s")}
print("ok", ",".join(sorted(kinds)))
PY
) || fail "writes to app_s.items in transactions from G2: $out"
[ "$out" = "ok TABLE" ] || fail "writes to app_s.items from G2, SQLTables: $out"
[ "$(sql "$(primary_of G1)" "SELECT count(*) || ':' || count(*) FILTER (WHERE v = 'y') FROM app_s.items")" = "10:5" ] \
    || fail "app_s.items' rows on its owner G1"
[ "$(app_calls "$(primary_of G1)" 'INSERT INTO app_s.items')" = 10 ] \
    && [ "$(app_calls "$(primary_of G2)" 'INSERT INTO app_s.items')" = 0 ] \
    || fail "the INSERTs into app_s.items should all run on its owner G1"
out=$(odbc_cs "$home" "CREATE TABLE app_t.items (id int)")
case $out in "error 42P07 "*"exists in schema app_s"*) ;; *) fail "a second solo table items: $out" ;; esac
on_every "SELECT to_regclass('app_t.items') IS NULL" t "app_t.items after its refused CREATE TABLE"
on_every "SELECT schema_name FROM gcluster.tables WHERE name = 'items'" app_s "the row of app_s.items"
out=$(odbc "DROP SCHEMA app_s, app_t CASCADE")
[ "${out%% *}" = ok ] || fail "DROP SCHEMA app_s, app_t CASCADE: $out"
on_every "SELECT count(*) FROM gcluster.tables WHERE name = 'items'" 0 "the row of app_s.items after DROP SCHEMA"
echo "ok: a solo table in schema app_s: found by every map, written in transactions on its owner G1 from G2; a second one of its name refused (42P07)"

# 1d. gcctl apply leaves the rows a driver made.
"$GCCTL" apply "$SPEC" --dir "$DIR" >/dev/null || fail "gcctl apply"
on_every "SELECT method || ':' || owner_group || ':' || origin FROM gcluster.tables WHERE name = 'notes'" \
    "solo:$owner:ddl" "the solo table's catalog row after gcctl apply"
on_every "SELECT string_agg(name || ':' || origin, ',' ORDER BY name) FROM gcluster.tables" \
    "accounts:spec,notes:ddl" "the catalog's tables after gcctl apply"
echo "ok: gcctl apply kept the driver's catalog row and its own"

# 1e. DDL on a solo table: what runs on its owner group and what on the
# groups where it is a foreign table, all in one two-phase commit.
out=$(odbc "CREATE TABLE gc_solo (a int)")
[ "${out%% *}" = ok ] || fail "CREATE TABLE gc_solo: $out"
sowner=""
for g in G1 G2; do
    [ "$(sql "$(primary_of "$g")" "SELECT relkind FROM pg_class WHERE oid = 'gc_solo'::regclass")" = r ] && sowner=$g
done
[ -n "$sowner" ] || fail "gc_solo has no owner group"
sother=G1
[ "$sowner" = G1 ] && sother=G2
# on_owner_other QUERY OWNER-ANSWER OTHER-ANSWER WHAT
on_owner_other() {
    local got
    got=$(sql "$(primary_of "$sowner")" "$1")
    [ "$got" = "$2" ] || fail "$4: owner $sowner answers '$got' to '$1', expected '$2'"
    got=$(sql "$(primary_of "$sother")" "$1")
    [ "$got" = "$3" ] || fail "$4: group $sother answers '$got' to '$1', expected '$3'"
}
solo_columns="SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod)
    || CASE WHEN attnotnull THEN ' nn' ELSE '' END, ',' ORDER BY attnum)
    FROM pg_attribute WHERE attrelid = 'gc_solo'::regclass AND attnum > 0 AND NOT attisdropped"
out=$(odbc "COMMENT ON TABLE gc_solo IS 'c'")
[ "${out%% *}" = ok ] || fail "COMMENT ON TABLE of a solo table: $out"
on_every "SELECT obj_description('gc_solo'::regclass, 'pg_class')" c "COMMENT ON TABLE of a solo table"
out=$(odbc "CREATE INDEX gc_solo_a_idx ON gc_solo (a)")
[ "${out%% *}" = ok ] || fail "CREATE INDEX on a solo table: $out"
on_owner_other "SELECT count(*) FROM pg_index WHERE indrelid = 'gc_solo'::regclass" 1 0 \
    "CREATE INDEX on a solo table"
out=$(odbc "ALTER TABLE gc_solo ADD COLUMN b numeric(8,2) NOT NULL DEFAULT 1.5, ADD COLUMN note text")
[ "${out%% *}" = ok ] || fail "ALTER TABLE ADD COLUMN on a solo table: $out"
on_every "$solo_columns" "a integer,b numeric(8,2) nn,note text" "ADD COLUMN on a solo table"
on_every "SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'gc_solo'::regclass" \
    "1.5" "the new column's default on a solo table"
# written through the foreign table, the default applies and the row lands on the owner
sql "$(primary_of "$sother")" "INSERT INTO gc_solo (a, note) VALUES (7, 'via $sother')" >/dev/null
on_every "SELECT a || ':' || b || ':' || note FROM gc_solo" "7:1.50:via $sother" "a row written through the foreign table"
out=$(odbc "ALTER TABLE gc_solo ADD PRIMARY KEY (a)")
[ "${out%% *}" = ok ] || fail "ALTER TABLE ADD PRIMARY KEY on a solo table: $out"
on_owner_other "SELECT string_agg(contype::text, ',') FROM pg_constraint WHERE conrelid = 'gc_solo'::regclass" \
    p "" "ADD PRIMARY KEY on a solo table"
out=$(odbc "ALTER TABLE gc_solo RENAME COLUMN b TO amount")
[ "${out%% *}" = ok ] || fail "ALTER TABLE RENAME COLUMN on a solo table: $out"
on_owner_other "$solo_columns" "a integer nn,amount numeric(8,2) nn,note text" \
    "a integer,amount numeric(8,2) nn,note text" "RENAME COLUMN on a solo table"
on_every "SELECT amount FROM gc_solo WHERE a = 7" 1.50 "the renamed column read through each group"
out=$(odbc "ALTER TABLE gc_solo ALTER COLUMN amount TYPE numeric(10,3) USING amount * 1")
[ "${out%% *}" = ok ] || fail "ALTER COLUMN TYPE ... USING on a solo table: $out"
on_every "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'gc_solo'::regclass AND attname = 'amount'" \
    "numeric(10,3)" "ALTER COLUMN TYPE on a solo table"
out=$(odbc "GRANT SELECT ON TABLE gc_solo TO PUBLIC")
[ "${out%% *}" = ok ] || fail "GRANT on a solo table: $out"
on_every "SELECT has_table_privilege('public', 'gc_solo', 'SELECT')" t "GRANT on a solo table"
out=$(odbc "CREATE FUNCTION gc_solo_touch() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN NEW.note := 'touched'; RETURN NEW; END \$\$")
[ "${out%% *}" = ok ] || fail "CREATE FUNCTION: $out"
out=$(odbc "CREATE TRIGGER gc_solo_touch BEFORE INSERT ON gc_solo FOR EACH ROW EXECUTE FUNCTION gc_solo_touch()")
[ "${out%% *}" = ok ] || fail "CREATE TRIGGER on a solo table: $out"
on_owner_other "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'gc_solo'::regclass AND tgname <> 'gcluster_refuse_remote_write'" 1 0 \
    "CREATE TRIGGER on a solo table"
# The foreign twin has gcctl's trigger refusing non-atomic writes of a
# global connection (docs/global-connection.md, "Writes through
# postgres_fdw"), given by the driver's CREATE TABLE; the owner has none.
on_owner_other "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'gc_solo'::regclass AND tgname = 'gcluster_refuse_remote_write'" 0 1 \
    "the refusing trigger on a solo table's foreign twin"
sql "$(primary_of "$sother")" "INSERT INTO gc_solo (a, note) VALUES (8, 'x')" >/dev/null
on_every "SELECT note FROM gc_solo WHERE a = 8" touched "the owner's trigger, once, for a row written through the foreign table"
no_prepared_left "after DDL on a solo table"
echo "ok: COMMENT, CREATE INDEX, ADD COLUMN, ADD PRIMARY KEY, RENAME COLUMN, ALTER TYPE, GRANT and CREATE TRIGGER on a solo table (owner $sowner)"

# A step that fails on the foreign side undoes the owner's part too: the
# column is already there on the foreign table of group $sother only.
su_sql "$(primary_of "$sother")" "ALTER FOREIGN TABLE gc_solo ADD COLUMN clash int" >/dev/null
before_owner=$(sql "$(primary_of "$sowner")" "$solo_columns")
out=$(odbc "ALTER TABLE gc_solo ADD COLUMN clash int, ADD COLUMN other_new int")
case $out in error\ 42701*"$sother"*) ;; *) fail "ADD COLUMN failing on the foreign side gave: $out" ;; esac
[ "$(sql "$(primary_of "$sowner")" "$solo_columns")" = "$before_owner" ] \
    || fail "the owner kept part of a DDL that failed on group $sother"
su_sql "$(primary_of "$sother")" "ALTER FOREIGN TABLE gc_solo DROP COLUMN clash" >/dev/null
# Forms with no exact counterpart are refused before anything runs.
for refused in "ALTER TABLE gc_solo RENAME TO gc_solo2" "ALTER TABLE gc_solo SET SCHEMA gcluster" \
               "ALTER TABLE gc_solo ADD COLUMN z int, INHERIT accounts"; do
    out=$(odbc "$refused")
    case $out in error\ 0A000*) ;; *) fail "'$refused' on a solo table gave: $out" ;; esac
done
on_every "SELECT count(*) FROM pg_class WHERE relname IN ('gc_solo2') OR (relname = 'gc_solo' AND relnamespace = 'gcluster'::regnamespace)" \
    0 "refused DDL on a solo table"
on_every "SELECT count(*) FROM pg_attribute WHERE attrelid = 'gc_solo'::regclass AND attname IN ('z', 'other_new')" \
    0 "refused or failed ADD COLUMN on a solo table"
no_prepared_left "after failed DDL on a solo table"
echo "ok: a DDL on a solo table failing on the foreign side left the owner unchanged; RENAME TO, SET SCHEMA, INHERIT refused (0A000)"

# Catalog functions on a solo table answer from its owner, every time, with
# a random group policy moving the connection between calls.
answers=$(run_client "$PYTHON" \
    "$(dirname "$CLIENT")/solo_catalog.py" "DSN=gddl;LocalityGroupPolicy=0" gc_solo 10) \
    || fail "the catalog client failed"
expect="TABLE|a|gc_solo_pkey|a,amount,note||TABLE"
[ "$(echo "$answers" | sort -u)" = "$expect" ] && [ "$(echo "$answers" | wc -l)" = 10 ] \
    || fail "catalog functions on a solo table, 10 rounds, want '$expect' each time: $(echo "$answers" | sort | uniq -c | tr '\n' ';')"
echo "ok: SQLTables (by name and by pattern), SQLPrimaryKeys, SQLStatistics, SQLColumns and SQLForeignKeys on a solo table gave the owner's answer 10 times in a row"
# The same in transactions the group policy opens on the other group
# (autocommit off, pyodbc's default): the owner answers outside the
# transaction, leaving no transaction open there (a general connection to
# the owner's primary counts the sessions in a transaction).
owner_cs="Driver=gcodbc;Servername=127.0.0.1;Port=$(port_of "$(primary_of "$sowner")");Database=app;UID=app;PWD=app"
answers=$(run_client "$PYTHON" "$(dirname "$CLIENT")/solo_catalog.py" \
    "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$sother" gc_solo 5 manual \
    "$owner_cs") \
    || fail "the catalog client failed in transactions"
[ "$(echo "$answers" | sort -u)" = "$expect|0" ] && [ "$(echo "$answers" | wc -l)" = 5 ] \
    || fail "catalog functions on a solo table in transactions on group $sother, 5 rounds, want '$expect|0' each time (the last field: transactions open on the owner $sowner): $(echo "$answers" | sort | uniq -c | tr '\n' ';')"
# After DDL in the transaction (its owner's primary joined it), the owner
# answers inside the transaction: the new column shows, and goes with the
# rollback (each round adds it again).
answers=$(run_client "$PYTHON" "$(dirname "$CLIENT")/solo_catalog.py" \
    "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$sother" gc_solo 3 ddl \
    "$owner_cs") \
    || fail "the catalog client failed after DDL in transactions"
want_ddl="TABLE|a|gc_solo_pkey|a,amount,note,in_txn||TABLE|1"
[ "$(echo "$answers" | sort -u)" = "$want_ddl" ] && [ "$(echo "$answers" | wc -l)" = 3 ] \
    || fail "catalog functions on a solo table after DDL in transactions on group $sother, 3 rounds, want '$want_ddl' each time: $(echo "$answers" | sort | uniq -c | tr '\n' ';')"
on_every "SELECT count(*) FROM pg_attribute WHERE attrelid = 'gc_solo'::regclass AND attname = 'in_txn'" \
    0 "a column added in rolled-back transactions"
echo "ok: the same 5 times in transactions on group $sother, answered by the owner $sowner outside them; after DDL in the transaction (3 times), inside it, the new column shown"

# DROP INDEX of the owner's index and DROP TRIGGER: where they exist.
out=$(odbc "DROP INDEX gc_solo_a_idx")
[ "${out%% *}" = ok ] || fail "DROP INDEX on a solo table: $out"
out=$(odbc "DROP TRIGGER gc_solo_touch ON gc_solo")
[ "${out%% *}" = ok ] || fail "DROP TRIGGER on a solo table: $out"
on_every "SELECT count(*) FROM pg_class WHERE relname = 'gc_solo_a_idx'" 0 "DROP INDEX on a solo table"
on_every "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'gc_solo'::regclass AND tgname <> 'gcluster_refuse_remote_write'" 0 "DROP TRIGGER on a solo table"
out=$(odbc "DROP TABLE gc_solo")
[ "${out%% *}" = ok ] || fail "DROP TABLE gc_solo: $out"
echo "ok: DROP INDEX and DROP TRIGGER on a solo table ran where they exist"

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

# 2a. ALTER TABLE in a transaction locks the table on every group holding
# its rows until the transaction ends, and postgres_fdw's sessions are not
# the transaction's: a read through them would wait for that lock, and the
# transaction cannot end while its statement waits. The transaction runs
# on the group that does not own the solo table notes ($other); after each
# ALTER, a SELECT of the table brings its rows through the transaction's
# own sessions (they show the new column's default, which no other session
# sees before the commit), and a write across groups that would read the
# locked solo table through postgres_fdw is refused at once (0A000,
# nothing sent). txn_client.py cancels a statement after 30 s: a wait
# fails the test as HYT00.
for g in G1 G2; do su_sql "$(primary_of "$g")" "SELECT pg_stat_statements_reset()" >/dev/null; done
out=$(txn "$other" rollback \
      "ALTER TABLE notes ADD COLUMN tag int DEFAULT 7" \
      "SELECT string_agg(id || ':' || tag, ',' ORDER BY id) FROM notes" \
      "ALTER TABLE accounts ADD COLUMN tag int DEFAULT 5" \
      "SELECT count(*), sum(tag) FROM accounts" \
      "SELECT count(*) FROM accounts a JOIN notes n ON n.id = a.id")
want="ok -1 ok 1 row 1:7,2:7 ok -1 ok 1 row 8|40 ok 1 row 2 rollback"
[ "$(echo "$out" | tr '\n' ' ')" = "$want " ] \
    || fail "reads after ALTER TABLE in a transaction on $other: '$out', want '$want'"
out=$(txn "$owner" rollback \
      "ALTER TABLE notes ADD COLUMN tag int DEFAULT 7" \
      "UPDATE accounts SET balance = balance + 1 WHERE id IN (SELECT id FROM notes)")
case $out in *"error 0A000"*"would read table notes through postgres_fdw"*rollback) ;;
    *) fail "a write across groups reading notes after its ALTER TABLE in a transaction on $owner: $out" ;; esac
[ "$(app_calls "$(primary_of "$other")" 'UPDATE')" = 0 ] && [ "$(app_calls "$(primary_of "$owner")" 'UPDATE')" = 0 ] \
    || fail "the refused write across groups reached a primary"
on_every "SELECT count(*) FROM pg_attribute WHERE attname = 'tag' AND attrelid IN ('notes'::regclass, 'accounts'::regclass)" 0 \
    "columns added in rolled-back transactions"
on_every "SELECT sum(balance) FROM accounts" 0.00 "accounts after the refused write"
no_prepared_left "after ALTER TABLE in rolled-back transactions"
echo "ok: after ALTER TABLE in a transaction, reads of the table on another group came through the transaction's sessions (new column shown); a write across groups reading it was refused, nothing sent"

# 2a'. CREATE TABLE / MATERIALIZED VIEW IF NOT EXISTS of a name that is
# taken does nothing, with the server's notice, as on one server: from
# either group (the owner holds the table, the other its foreign twin), in
# autocommit and in a transaction; a new name is made once, then skipped.
for g in "$owner" "$other"; do
    out=$(odbc_cs "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$g" \
        "CREATE TABLE IF NOT EXISTS notes (id int PRIMARY KEY)")
    case $(echo "$out" | tr '\n' ' ') in "ok 0 info [42P07] "*'relation "notes" already exists, skipping'*) ;;
        *) fail "CREATE TABLE IF NOT EXISTS of the solo table notes from $g: $out" ;; esac
done
out=$(txn "$other" commit \
      "CREATE TABLE IF NOT EXISTS notes (id int PRIMARY KEY)" \
      "CREATE TABLE IF NOT EXISTS ine_t (id int PRIMARY KEY)" \
      "CREATE TABLE IF NOT EXISTS ine_t (id int PRIMARY KEY)" \
      "INSERT INTO ine_t VALUES (1)" \
      "CREATE MATERIALIZED VIEW IF NOT EXISTS ine_mv AS SELECT id FROM notes" \
      "CREATE MATERIALIZED VIEW IF NOT EXISTS ine_mv AS SELECT 1 AS id")
[ "$(echo "$out" | tr '\n' ' ')" = "ok 0 ok 0 ok 0 ok 1 ok 2 ok 0 commit " ] \
    || fail "CREATE ... IF NOT EXISTS in a transaction on $other: $out"
out=$(odbc "CREATE MATERIALIZED VIEW IF NOT EXISTS ine_mv AS SELECT 1 AS id")
case $out in "ok 0"*) ;; *) fail "CREATE MATERIALIZED VIEW IF NOT EXISTS of ine_mv in autocommit: $out" ;; esac
kinds=$(for g in "$owner" "$other"; do sql "$(primary_of "$g")" "SELECT string_agg(relname || ':' || relkind::text, ',' ORDER BY relname) FROM pg_class WHERE relname IN ('notes', 'ine_t', 'ine_mv')"; done | tr '\n' ' ')
[ "$kinds" = "ine_mv:f,ine_t:f,notes:r ine_mv:m,ine_t:r,notes:f " ] \
    || fail "relations after CREATE ... IF NOT EXISTS (owner $owner, then $other): '$kinds'"
on_every "SELECT (SELECT count(*) FROM ine_t) || ':' || (SELECT count(*) FROM ine_mv)" "1:2" \
    "the table and view made once by IF NOT EXISTS"
no_prepared_left "after CREATE ... IF NOT EXISTS"
odbc "DROP MATERIALIZED VIEW ine_mv" >/dev/null
odbc "DROP TABLE ine_t" >/dev/null
echo "ok: CREATE TABLE / MATERIALIZED VIEW IF NOT EXISTS of a taken name did nothing (notice 42P07, as on one server) from either group, in autocommit and in a transaction; a new name was made once on $other"

# 2a''. A table dropped and made again under its name in one transaction
# (pyodbc's default), on the group that did not own it: the transaction's
# statements follow the new table, made on its own group, where before
# they went by the committed catalog to the old owner (there the name is
# now the new table's foreign twin): a write refused (0A000), a read
# waiting for the transaction's own lock. Gone back past such DDL (ROLLBACK
# TO SAVEPOINT), they follow the old table again.
out=$(odbc_cs "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$owner" \
    "CREATE TABLE remade (id int PRIMARY KEY, v text)")
[ "${out%% *}" = ok ] || fail "CREATE TABLE remade on $owner: $out"
out=$(odbc "INSERT INTO remade VALUES (1, 'old')")
[ "${out%% *}" = ok ] || fail "INSERT INTO remade: $out"
out=$(txn "$other" commit \
      "SAVEPOINT s" \
      "DROP TABLE remade" \
      "CREATE TABLE remade (id int PRIMARY KEY, v text, w int)" \
      "INSERT INTO remade VALUES (9, 'undone', 1)" \
      "ROLLBACK TO SAVEPOINT s" \
      "INSERT INTO remade VALUES (2, 'kept')" \
      "SELECT id, v FROM remade ORDER BY id")
case $(echo "$out" | tr '\n' ' ') in *"ok 1 ok -1 ok 1 "*"row 1|old row 2|kept commit ") ;;
    *) fail "DROP and CREATE of remade gone back past in a transaction on $other: $out" ;; esac
inserts_before=$(app_calls "$(primary_of "$owner")" 'INSERT INTO remade (id, v)')
out=$(txn "$other" commit \
      "DROP TABLE remade" \
      "CREATE TABLE remade (id int PRIMARY KEY, v text)" \
      "INSERT INTO remade (id, v) VALUES (3, 'new')" \
      "SELECT id, v FROM remade" \
      "UPDATE remade SET v = 'new2' WHERE id = 3" \
      "SELECT count(*) FROM remade")
[ "$(echo "$out" | tr '\n' ' ')" = "ok -1 ok 0 ok 1 ok 1 row 3|new ok 1 ok 1 row 1 commit " ] \
    || fail "DROP and CREATE of remade in one transaction on $other: $out"
kinds=$(for g in "$owner" "$other"; do sql "$(primary_of "$g")" "SELECT relkind FROM pg_class WHERE relname = 'remade'"; done | tr '\n' ' ')
[ "$kinds" = "f r " ] || fail "remade after its DROP and CREATE on $other (owner $owner, then $other): '$kinds'"
on_every "SELECT string_agg(id || ':' || v, ',') FROM remade" "3:new2" "remade made again in one transaction"
[ "$(app_calls "$(primary_of "$other")" 'INSERT INTO remade (id, v)')" = 1 ] \
    || fail "the new remade's INSERT did not run once on $other's primary"
[ "$(app_calls "$(primary_of "$owner")" 'INSERT INTO remade (id, v)')" = "$inserts_before" ] \
    || fail "the new remade's INSERT ran on the old owner $owner's primary"
no_prepared_left "after DROP and CREATE of one name in a transaction"
# ALTER, DROP or TRUNCATE of a table the transaction read through postgres_fdw: the
# read's lock on the owner is held by postgres_fdw's session until the
# transaction ends, so the DDL would wait for the transaction itself; it is
# refused at once (55006), nothing run. A table the transaction did not
# read is altered as usual.
truncates_before=$(app_calls "$(primary_of "$other")" 'TRUNCATE')
for ddl in "ALTER TABLE remade ADD COLUMN z int" "DROP TABLE remade" "TRUNCATE remade" \
           "TRUNCATE ONLY remade" "LOCK TABLE remade"; do
    out=$(txn "$owner" rollback "SELECT 1" "SELECT count(*) FROM remade" "$ddl")
    case $(echo "$out" | tr '\n' ' ') in *"row 1 error 55006 "*"read remade through postgres_fdw on member"*"rollback ") ;;
        *) fail "$ddl in a transaction on $owner that read remade of $other: $out" ;; esac
done
[ "$(app_calls "$(primary_of "$other")" 'ALTER TABLE remade')" = 0 ] \
    || fail "a refused ALTER TABLE of remade ran on its owner $other"
[ "$(app_calls "$(primary_of "$other")" 'TRUNCATE')" = "$truncates_before" ] \
    || fail "a refused TRUNCATE of remade ran on its owner $other (before, it waited for ever)"
# The same when the TRUNCATE runs on the transaction's own member, the
# table's owner: a member the transaction joined on $owner (its write of
# notes) read remade through postgres_fdw, whose session on $other holds
# the read's lock; before, the TRUNCATE waited for it for ever. (The
# first statement reads the pin's own table, so the write's member is the
# first to read another group, through postgres_fdw; see below for a
# second.)
for truncate in "TRUNCATE remade" "TRUNCATE ONLY remade"; do
    out=$(txn "$other" rollback "SELECT count(*) FROM remade" \
          "UPDATE notes SET body = body || (SELECT count(*) FROM remade) WHERE id = 1" \
          "$truncate")
    case $(echo "$out" | tr '\n' ' ') in *"row 1 ok 1 error 55006 "*"read remade through postgres_fdw on member"*"rollback ") ;;
        *) fail "$truncate on its owner $other after a joined member read it: $out" ;; esac
done
[ "$(app_calls "$(primary_of "$other")" 'TRUNCATE')" = "$truncates_before" ] \
    || fail "a refused TRUNCATE of remade ran on its owner $other, the transaction's member"
[ "$(app_calls "$(primary_of "$owner")" 'UPDATE notes SET body')" = 2 ] \
    || fail "the writes of notes did not run twice on their owner $owner's primary"
# After a first statement that may have read another group (SELECT 1
# counts), the write's read of remade would make $owner's member a second
# one to: remade's rows are brought to it from the pin instead, nothing
# holds remade through postgres_fdw, and the TRUNCATE runs, as on one
# server (before, 55006).
out=$(txn "$other" rollback "SELECT 1" \
      "UPDATE notes SET body = body || (SELECT count(*) FROM remade) WHERE id = 1" \
      "TRUNCATE remade" "SELECT count(*) FROM remade")
case $(echo "$out" | tr '\n' ' ') in *"row 1 ok 1 ok 0 ok 1 row 0 rollback ") ;;
    *) fail "TRUNCATE remade on its owner $other after its rows were brought to a joined member: $out" ;; esac
[ "$(app_calls "$(primary_of "$other")" 'TRUNCATE')" = "$((truncates_before + 1))" ] \
    || fail "the TRUNCATE of remade after its rows were brought did not run once on its owner $other"
# A LOCK whose mode conflicts with no lock of postgres_fdw's reads and
# writes is not checked: it runs on the table's owner and waits for nothing.
out=$(txn "$owner" rollback "SELECT 1" "SELECT count(*) FROM remade" \
      "LOCK TABLE remade IN ROW EXCLUSIVE MODE")
case $(echo "$out" | tr '\n' ' ') in *"row 1 ok 0 rollback ") ;;
    *) fail "LOCK TABLE remade IN ROW EXCLUSIVE MODE after reading it, on $owner: $out" ;; esac
[ "$(app_calls "$(primary_of "$other")" 'LOCK TABLE remade IN ROW EXCLUSIVE MODE')" = 1 ] \
    || fail "LOCK TABLE remade IN ROW EXCLUSIVE MODE did not run once on its owner $other"
# A view over remade made in the transaction locks its foreign table on
# $owner's member as a read would, but reads nothing of $other (no
# postgres_fdw session holds remade there): the ALTER runs (before, 55006).
out=$(txn "$owner" rollback "SELECT 1" "CREATE VIEW remade_view AS SELECT id, v FROM remade" \
      "ALTER TABLE remade ADD COLUMN z int" "SELECT count(*) FROM pg_attribute WHERE attrelid = 'remade'::regclass AND attname = 'z'")
case $(echo "$out" | tr '\n' ' ') in *error*) fail "ALTER TABLE of remade after a CREATE VIEW over it, in a transaction on $owner: $out" ;;
    *"row 1 rollback ") ;;
    *) fail "ALTER TABLE of remade after a CREATE VIEW over it, in a transaction on $owner: $out" ;; esac
out=$(txn "$owner" commit "SELECT 1" "SELECT count(*) FROM notes" "SELECT count(*) FROM accounts" \
      "ALTER TABLE remade ADD COLUMN z int")
case $(echo "$out" | tr '\n' ' ') in *"ok -1 commit ") ;;
    *) fail "ALTER TABLE of remade after reading other tables, in a transaction on $owner: $out" ;; esac
on_every "SELECT count(*) FROM information_schema.columns WHERE table_name = 'remade' AND column_name = 'z'" \
    1 "remade's column z, added in a transaction that read other tables"
# DROP INDEX locks the index's table as DROP TABLE does (the index is only
# on the owner, where the table is plain); before, it waited for the
# transaction's own read until the query timeout.
out=$(txn "$owner" commit "CREATE INDEX remade_v ON remade (v)")
[ "$(echo "$out" | tr '\n' ' ')" = "ok 0 commit " ] || fail "CREATE INDEX remade_v in a transaction on $owner: $out"
out=$(txn "$owner" rollback "SELECT 1" "SELECT count(*) FROM remade" "DROP INDEX remade_v")
case $(echo "$out" | tr '\n' ' ') in *"row 1 error 55006 "*"read remade through postgres_fdw on member"*"rollback ") ;;
    *) fail "DROP INDEX of remade's index in a transaction on $owner that read remade: $out" ;; esac
[ "$(sql "$(primary_of "$other")" "SELECT count(*) FROM pg_class WHERE relname = 'remade_v'")" = 1 ] \
    || fail "a refused DROP INDEX dropped remade_v on $other"
out=$(txn "$owner" commit "SELECT count(*) FROM notes" "DROP INDEX remade_v")
case $(echo "$out" | tr '\n' ' ') in *" ok 0 commit ") ;;
    *) fail "DROP INDEX of remade's index in a transaction on $owner that did not read remade: $out" ;; esac
on_every "SELECT count(*) FROM pg_class WHERE relname = 'remade_v'" 0 "remade_v after its DROP INDEX"
no_prepared_left "after DDL of a table the transaction read through postgres_fdw"
echo "ok: ALTER TABLE, DROP and DROP INDEX of a table the transaction read through postgres_fdw refused at once (55006), nothing run; of a table it did not read, run"
# DDL, then a write placed in the other group whose query reads the
# coordinator's table through postgres_fdw there: that member cannot
# PREPARE, so its COMMIT decides (before, the COMMIT failed, 0A000, and
# the whole transaction was rolled back).
n_notes=$(sql "$(primary_of "$owner")" "SELECT count(*) FROM notes")
out=$(txn "$owner" commit "ALTER TABLE remade ADD COLUMN z2 int" \
      "INSERT INTO remade (id, v) SELECT id + 100, 'from notes' FROM notes")
[ "$(echo "$out" | tr '\n' ' ')" = "ok -1 ok $n_notes commit " ] \
    || fail "ALTER TABLE, then INSERT ... SELECT reading $owner's notes on $other, in one transaction: $out"
on_every "SELECT (SELECT count(*) FROM remade WHERE v = 'from notes') || ':' || (SELECT count(*) FROM information_schema.columns WHERE table_name = 'remade' AND column_name = 'z2')" \
    "$n_notes:1" "remade after ALTER TABLE and an INSERT ... SELECT reading another group in one transaction"
no_prepared_left "after DDL and a write reading another group in one transaction"
echo "ok: DDL and a write on $other reading $owner's table through postgres_fdw committed together ($other's member decided)"
# A write on the other group's member, then DDL (routing now reads the
# transaction's catalog): the write is still known by its table, so a join
# on the coordinator that reads it brings its rows through the
# transaction's own session there (a split read), not refused.
[ "$n_notes" -gt 0 ] || fail "notes has no rows to join"
out=$(txn "$owner" rollback "SELECT 1" "UPDATE remade SET v = 'upd' WHERE id = 3" \
      "CREATE TABLE remade_side (id int)" \
      "SELECT r.v FROM notes n JOIN remade r ON true WHERE r.id = 3 LIMIT 1")
case $(echo "$out" | tr '\n' ' ') in *" row upd rollback ") ;;
    *) fail "a join reading remade, written on $other before DDL in a transaction on $owner: $out" ;; esac
echo "ok: a table written on $other before DDL in the transaction was read through the transaction's session there after it"
out=$(odbc_cs "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$owner" "DROP TABLE remade")
[ "${out%% *}" = ok ] || fail "DROP TABLE remade: $out"
echo "ok: a table dropped and made again in one transaction on $other was read and written there (owner $owner before); gone back past, the old one was"

# 2b. Sequences a cluster-wide DDL makes on every group are interleaved in
# its own transaction, as gcctl interleaves a sharded table's: each group's
# copy steps by 100 from the group's position (G1: 1, 101...; G2: 2, 102...),
# so no value comes from two groups. CREATE SEQUENCE, a bigserial of a new
# sharded parent, and a serial column added to the sharded table with rows
# (each group numbers its own rows, then goes on above them); ALTER
# SEQUENCE ... RESTART and INCREMENT BY keep the copies apart.
next_on() { sql "$(primary_of "$1")" "SELECT nextval('$2')"; }
out=$(odbc "CREATE SEQUENCE app_numbers")
[ "${out%% *}" = ok ] || fail "CREATE SEQUENCE: $out"
out=$(odbc "CREATE TABLE seq_parent (id bigserial, v text) PARTITION BY HASH (id)")
[ "${out%% *}" = ok ] || fail "CREATE TABLE ... PARTITION BY with bigserial: $out"
# Rows each group holds in its own shards: ADD COLUMN numbers them 1, 2...
local_rows="SELECT count(*) FROM accounts WHERE tableoid IN (SELECT i.inhrelid FROM pg_inherits i
            JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'accounts'::regclass AND c.relkind = 'r')"
rows_g1=$(sql G1N1 "$local_rows")
rows_g2=$(sql G2N1 "$local_rows")
out=$(odbc "ALTER TABLE accounts ADD COLUMN serial_no serial")
[ "${out%% *}" = ok ] || fail "ALTER TABLE ADD COLUMN serial: $out"
on_every "SELECT string_agg(increment_by::text, ',' ORDER BY sequencename) FROM pg_sequences
          WHERE sequencename IN ('app_numbers', 'seq_parent_id_seq', 'accounts_serial_no_seq')" \
         "100,100,100" "the new sequences' step"
got="$(next_on G1 app_numbers) $(next_on G1 app_numbers) $(next_on G2 app_numbers) $(next_on G1 seq_parent_id_seq) $(next_on G2 seq_parent_id_seq)"
[ "$got" = "1 101 2 1 2" ] || fail "interleaved sequences handed out $got, expected 1 101 2 1 2"
got="$(next_on G1 accounts_serial_no_seq) $(next_on G2 accounts_serial_no_seq)"
[ "$got" = "$((rows_g1 + 1 + (101 - rows_g1 - 1) % 100)) $((rows_g2 + 1 + (102 - rows_g2 - 1) % 100))" ] \
    || fail "the added serial went on at $got, after each group's $rows_g1 and $rows_g2 rows"
# ALTER SEQUENCE ... RESTART runs on every copy alike: they are brought
# back apart in its transaction; INCREMENT BY cannot take them out either.
out=$(odbc "ALTER SEQUENCE app_numbers RESTART WITH 1000")
[ "${out%% *}" = ok ] || fail "ALTER SEQUENCE RESTART: $out"
got="$(next_on G1 app_numbers) $(next_on G2 app_numbers)"
[ "$got" = "1001 1002" ] || fail "after RESTART WITH 1000 the copies handed out $got, expected 1001 1002"
out=$(odbc "ALTER SEQUENCE app_numbers INCREMENT BY 1")
[ "${out%% *}" = ok ] || fail "ALTER SEQUENCE INCREMENT BY: $out"
got="$(next_on G1 app_numbers) $(next_on G2 app_numbers)"
[ "$got" = "1101 1102" ] || fail "after INCREMENT BY 1 the copies handed out $got, expected 1101 1102"
out=$(odbc "DROP TABLE seq_parent")
[ "${out%% *}" = ok ] || fail "DROP TABLE seq_parent: $out"
out=$(odbc "ALTER TABLE accounts DROP COLUMN serial_no")
[ "${out%% *}" = ok ] || fail "ALTER TABLE DROP COLUMN serial_no: $out"
no_prepared_left "after the sequences"
echo "ok: CREATE SEQUENCE, a new sharded parent's bigserial and an added serial step by 100 from each group's position; ALTER SEQUENCE RESTART / INCREMENT BY keep them apart"

# 2c. A table another connection made moments ago: the writer reads the
# catalog version before routing a write of a table its shard map does not
# know, so its INSERT in a transaction runs on the owner G1, never through
# G2's foreign twin (0A000), however soon after the CREATE TABLE it comes.
rounds=20
out=$(run_client "$PYTHON" "$(dirname "$0")/fresh_table_client.py" gddl "$rounds") \
    || fail "the fresh-table client failed: $out"
[ "$out" = "ok $rounds" ] || fail "writes of tables made moments ago by another connection: $out"
got=$(app_calls G1N1 "INSERT INTO fresh_")
[ "$got" = "$rounds" ] || fail "G1's primary ran $got of the $rounds INSERTs into the fresh tables"
got=$(app_calls G1N1 "INSERT INTO public.fresh_")
[ "$got" = 0 ] || fail "$got INSERTs reached the fresh tables through postgres_fdw"
on_every "SELECT count(*) FROM pg_class WHERE relname LIKE 'fresh\_%'" 0 "the fresh tables dropped"
echo "ok: $rounds tables made by one connection, each written at once by another: every INSERT ran on the owner"

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

# 4. Refusals: PARTITION OF, CONCURRENTLY. DDL with autocommit off joins
# the transaction, which the client rolls back: nothing stays anywhere.
out=$(odbc --manual "CREATE TABLE in_txn (x int)")
case $out in ok*) ;; *) fail "DDL with autocommit off gave: $out" ;; esac
out=$(odbc "CREATE TABLE accounts_x PARTITION OF accounts FOR VALUES WITH (MODULUS 8, REMAINDER 7)")
case $out in error\ 0A000*) ;; *) fail "PARTITION OF gave: $out" ;; esac
out=$(odbc "CREATE INDEX CONCURRENTLY c_idx ON accounts (balance)")
case $out in error\ 0A000*) ;; *) fail "CONCURRENTLY gave: $out" ;; esac
on_every "SELECT count(*) FROM pg_class WHERE relname IN ('in_txn', 'accounts_x', 'c_idx')" 0 "refused DDL"
echo "ok: DDL in a rolled-back transaction left nothing; PARTITION OF and CONCURRENTLY (0A000) are refused"

# 5. TRUNCATE is data: every group empties its own shards (tests/integration/xact,
# truncate_across_groups_applies_everywhere_or_nowhere, proves where it ran).
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

# 6a. DROP of several tables at once: two solo tables and a sharded parent.
# Where the solo tables are foreign twins, a group drops them with DROP
# FOREIGN TABLE and the parent with DROP TABLE; both solo tables' catalog
# rows go.
for ddl in "CREATE TABLE gc_drop_s1 (id int)" "CREATE TABLE gc_drop_s2 (id int)" \
           "CREATE TABLE gc_drop_p (id int) PARTITION BY HASH (id)"; do
    out=$(odbc "$ddl")
    [ "${out%% *}" = ok ] || fail "$ddl: $out"
done
on_every "SELECT count(*) FROM gcluster.tables WHERE name IN ('gc_drop_s1', 'gc_drop_s2')" 2 \
    "two solo tables registered"
on_every "SELECT count(*) FROM pg_class WHERE relname IN ('gc_drop_s1', 'gc_drop_s2', 'gc_drop_p')" 3 \
    "the tables on every group"
twins=0
for g in G1 G2; do
    n=$(sql "$(primary_of "$g")" "SELECT count(*) FROM pg_class
                                  WHERE relname IN ('gc_drop_s1', 'gc_drop_s2') AND relkind = 'f'")
    twins=$((twins + n))
done
[ "$twins" = 2 ] || fail "expected the two solo tables as foreign twins on the other group, found $twins"
out=$(odbc "DROP TABLE IF EXISTS gc_drop_s1, gc_drop_p, gc_drop_s2, gc_drop_none CASCADE")
[ "${out%% *}" = ok ] || fail "DROP TABLE of several tables: $out"
on_every "SELECT count(*) FROM pg_class WHERE relname IN ('gc_drop_s1', 'gc_drop_s2', 'gc_drop_p')" 0 \
    "DROP TABLE of several tables"
on_every "SELECT count(*) FROM gcluster.tables WHERE name IN ('gc_drop_s1', 'gc_drop_s2')" 0 \
    "DROP TABLE of several tables: catalog rows"
no_prepared_left "DROP TABLE of several tables"
echo "ok: DROP TABLE of several tables dropped foreign twins and tables on every group, and unregistered each solo table"
n=$(echo "$out" | grep -c '^info .*gc_drop_none')
[ "$n" = 1 ] || fail "DROP TABLE IF EXISTS: the notice about gc_drop_none came $n times: $out"
# A notice every group raises reaches the application once, not once per group.
out=$(odbc "DROP TABLE IF EXISTS gc_never_made")
[ "${out%% *}" = ok ] || fail "DROP TABLE IF EXISTS of a table no group has: $out"
n=$(echo "$out" | grep -c '^info .*gc_never_made')
[ "$n" = 1 ] || fail "DROP TABLE IF EXISTS of a table no group has: the notice came $n times: $out"
echo "ok: the notice of DROP TABLE IF EXISTS (raised by every group) reached the application once"

# 6b. A PREPARE TRANSACTION whose answer is lost: on G2's primary,
# synchronous replication to a standby that does not exist makes PREPARE
# wait after preparing locally; that backend is terminated. The driver must
# leave every group unchanged and no prepared transaction behind.
hold_commits G2N1
odbc "ALTER TABLE accounts ADD COLUMN lost_prepare int" >"$DIR/lost_prepare.out" &
client=$!
waiting=$(held_backend G2N1 "query LIKE 'PREPARE TRANSACTION%'")
[ -n "$waiting" ] || { kill "$client"; fail "no PREPARE TRANSACTION waited for synchronous replication on G2N1"; }
[ "$(su_sql G2N1 "SELECT count(*) FROM pg_prepared_xacts")" = 1 ] \
    || fail "the waiting PREPARE TRANSACTION had not prepared on G2N1"
su_sql G2N1 "SELECT pg_terminate_backend($waiting)" >/dev/null
# Releases the driver's ROLLBACK PREPARED, which waits for the same
# replication until the setting is gone.
release_commits G2N1
wait_client "$client" "the lost PREPARE"
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
su_sql G2N1 "ALTER SYSTEM SET max_prepared_transactions = 0" >/dev/null
"$GCCTL" local stop-member G2N1 --dir "$DIR" >/dev/null || fail "stop-member G2N1"
"$GCCTL" local start-member G2N1 --dir "$DIR" >/dev/null || fail "start-member G2N1"
out=$(odbc "CREATE TABLE after_restart (x int)")
case $out in error\ 55000*max_prepared_transactions*G2N1*) ;; *) fail "max_prepared_transactions=0 gave: $out" ;; esac
on_every "SELECT to_regclass('after_restart') IS NULL" t "refused DDL"
echo "ok: refused with 55000 when a primary allows no prepared transactions"
echo "PASS"
