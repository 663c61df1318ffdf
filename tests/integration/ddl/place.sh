#!/bin/bash
# Foreign keys place solo tables together, and materialized views are solo
# objects committed by their owner's decision: a private 2-group cluster
# (always taken down), statements sent through the driver with pyodbc, each
# group's primary checked with libpq (psql).
# usage: place.sh GCCTL PYTHON CLIENT SPEC DIR
GCCTL=$1
PYTHON=$2
CLIENT=$3
SPEC=$4
DIR=$5
source "$(dirname "$0")/../gcctl/lib.sh"
source "$(dirname "$0")/ddl_lib.sh"
own_cluster "$SPEC"

# on GROUP [--fetch] SQL: through the driver, the group policy choosing GROUP
# for a statement without a key.
on() {
    local group=$1
    shift
    run_client "$PYTHON" "$CLIENT" "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$group" "$@" \
        || fail "the client failed on: $*"
}
# kinds NAME: "G1:<relkind> G2:<relkind>" from each group's primary.
kinds() {
    local g out=""
    for g in G1 G2; do
        out="$out $g:$(sql "$(primary_of "$g")" "SELECT coalesce((SELECT relkind::text FROM pg_class WHERE oid = to_regclass('$1')), '-')")"
    done
    echo "${out# }"
}
expect_kinds() {
    local got
    got=$(kinds "$1")
    [ "$got" = "$2" ] || fail "$3: $1 is '$got' on the groups, expected '$2'"
}
nothing_pending() {
    on_every "SELECT count(*) FROM pg_prepared_xacts" 0 "$1: prepared transactions"
    on_every "SELECT count(*) FROM gcluster.commit_decisions" 0 "$1: commit decisions"
}
expect_ok() {
    [ "${1%% *}" = ok ] || fail "$2: $1"
}
# reset_calls: pg_stat_statements of each group's primary starts again.
reset_calls() {
    local g
    for g in G1 G2; do su_sql "$(primary_of "$g")" "SELECT pg_stat_statements_reset()" >/dev/null; done
}
# text_in_g1_transaction TEXT WHAT: TEXT runs in a transaction pinned to G1
# (by a SELECT 1 first), which commits.
text_in_g1_transaction() {
    local out
    out=$(txn G1 commit "SELECT 1" "$1")
    case $(echo "$out" | tr '\n' ' ') in "ok 1 row 1 ok "*" commit ") ;; *) fail "$2: $out" ;; esac
}
# calls_per_group CONDITION: "G1:<calls> G2:<calls> " of the statements
# pg_stat_statements holds on each group's primary whose query matches
# CONDITION (SQL on the column query).
calls_per_group() {
    local g
    for g in G1 G2; do
        echo -n "$g:$(su_sql "$(primary_of "$g")" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE $1") "
    done
}

app_owns_public_tables
for g in G1 G2; do
    # A plain table on every group (not a cluster table): references to it
    # do not constrain placement.
    su_sql "$(primary_of "$g")" "CREATE TABLE plain_ref (id int PRIMARY KEY); ALTER TABLE plain_ref OWNER TO app; INSERT INTO plain_ref VALUES (1)" >/dev/null
done

# 1. Foreign keys place a new solo table on the referenced table's group,
# whatever the group policy says.
expect_ok "$(on G1 "CREATE TABLE fk_p1 (id int PRIMARY KEY)")" "CREATE TABLE fk_p1"
expect_ok "$(on G2 "CREATE TABLE fk_p2 (id int PRIMARY KEY)")" "CREATE TABLE fk_p2"
expect_kinds fk_p1 "G1:r G2:f" "the policy's group"
expect_kinds fk_p2 "G1:f G2:r" "the policy's group"
out=$(on G2 "CREATE TABLE fk_c1 (id int PRIMARY KEY, p int REFERENCES fk_p1 (id))")
expect_ok "$out" "CREATE TABLE with a column REFERENCES to a solo table of G1, policy G2"
expect_kinds fk_c1 "G1:r G2:f" "a column REFERENCES places the table"
out=$(on G1 "CREATE TABLE fk_c2 (id int, p int, CONSTRAINT fk_c2_p FOREIGN KEY (p) REFERENCES public.fk_p2 (id))")
expect_ok "$out" "CREATE TABLE with FOREIGN KEY ... REFERENCES a solo table of G2, policy G1"
expect_kinds fk_c2 "G1:f G2:r" "a table FOREIGN KEY places the table"
out=$(on G2 "CREATE TABLE fk_c3 (id int PRIMARY KEY, parent int REFERENCES fk_c3 (id),
                                   q int REFERENCES plain_ref (id), p int REFERENCES fk_p1 (id))")
expect_ok "$out" "CREATE TABLE with a self-reference, a plain table and a solo table of G1"
expect_kinds fk_c3 "G1:r G2:f" "self-references and plain tables do not constrain"
on_every "SELECT owner_group FROM gcluster.tables WHERE name = 'fk_c3'" G1 "fk_c3's catalog row"
# The keys hold, on the owner, through any group.
sql G2N1 "INSERT INTO fk_p1 VALUES (1)" "INSERT INTO fk_c1 VALUES (1, 1)" >/dev/null
out=$(sql_may_fail G2N1 "INSERT INTO fk_c1 VALUES (2, 99)")
case $out in *"violates foreign key constraint"*) ;; *) fail "a row breaking fk_c1's key: $out" ;; esac
echo "ok: foreign keys placed fk_c1, fk_c3 on G1 and fk_c2 on G2 against the group policy; the keys hold"
# A referenced table another connection made a moment ago, after this
# connection read its shard map.
out=$(run_client "$PYTHON" "$(dirname "$CLIENT")/fresh_reference.py" "DSN=gddl") \
    || fail "the two-connection client failed"
[ "$out" = ok ] || fail "a key to a table made by another connection a moment ago: $out"
expect_kinds fresh_child "G1:r G2:f" "a key to a table made by another connection a moment ago"
echo "ok: a key to a solo table another connection had just made placed the new table with it (G1)"

# 2. Keys no one group can hold are refused before anything is created.
out=$(on G1 "CREATE TABLE fk_bad1 (a int REFERENCES fk_p1 (id), b int REFERENCES fk_p2 (id))")
case $out in error\ 0A000*fk_p1\ on\ G1*fk_p2\ on\ G2*) ;; *) fail "keys to solo tables of two groups gave: $out" ;; esac
echo "ok: $out"
out=$(on G1 "CREATE TABLE fk_bad2 (a bigint REFERENCES accounts (id))")
case $out in error\ 0A000*accounts*sharded*) ;; *) fail "a key to a sharded table gave: $out" ;; esac
echo "ok: $out"
expect_kinds fk_bad1 "G1:- G2:-" "refused CREATE TABLE"
expect_kinds fk_bad2 "G1:- G2:-" "refused CREATE TABLE"
on_every "SELECT count(*) FROM gcluster.tables WHERE name LIKE 'fk_bad%'" 0 "refused CREATE TABLE: catalog"
nothing_pending "refused CREATE TABLE"

# 3. ALTER TABLE ... FOREIGN KEY between groups: refused up front (without
# the driver's check, PostgreSQL refused it on the owner with 42809: the
# referenced table is a foreign table there).
out=$(on G1 "ALTER TABLE fk_c2 ADD CONSTRAINT fk_c2_p1 FOREIGN KEY (p) REFERENCES fk_p1 (id)")
case $out in error\ 0A000*fk_c2*G2*fk_p1*G1*) ;; *) fail "ALTER TABLE ADD FOREIGN KEY across groups gave: $out" ;; esac
echo "ok: $out"
out=$(on G1 "ALTER TABLE plain_ref ADD COLUMN p int REFERENCES fk_p2 (id)")
case $out in error\ 0A000*plain_ref*fk_p2*) ;; *) fail "a plain table's key to a solo table gave: $out" ;; esac
out=$(on G1 "ALTER TABLE fk_c2 ADD FOREIGN KEY (p) REFERENCES accounts (id)")
case $out in error\ 0A000*sharded*) ;; *) fail "ALTER TABLE ADD FOREIGN KEY to a sharded table gave: $out" ;; esac
on_every "SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = 'plain_ref'::regclass" 0 \
    "refused ALTER TABLE"
[ "$(sql G2N1 "SELECT string_agg(conname, ',') FROM pg_constraint WHERE contype = 'f' AND conrelid = 'fk_c2'::regclass")" = fk_c2_p ] \
    || fail "a refused ALTER TABLE changed fk_c2's keys"
on_every "SELECT count(*) FROM pg_attribute WHERE attrelid = 'plain_ref'::regclass AND attname = 'p'" 0 "refused ALTER TABLE"
out=$(on G2 "ALTER TABLE fk_c1 ADD COLUMN p2 int REFERENCES fk_p1 (id)")
expect_ok "$out" "ALTER TABLE ADD COLUMN REFERENCES within one group"
[ "$(sql G1N1 "SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = 'fk_c1'::regclass")" = 2 ] \
    || fail "ALTER TABLE ADD COLUMN REFERENCES on G1 made no key"
nothing_pending "ALTER TABLE ... REFERENCES"
echo "ok: ALTER TABLE keys across groups or to a sharded table refused (0A000), within one group made"

# 4. Materialized views over a sharded table whose rows are on both groups.
sql G1N1 "INSERT INTO accounts (id, owner, balance) SELECT g, 'o' || (g % 3), g FROM generate_series(1, 30) g" >/dev/null
for g in G1 G2; do
    n=$(sql "$(primary_of "$g")" "SELECT count(*) FROM (SELECT tableoid FROM accounts) a JOIN pg_class c ON c.oid = a.tableoid WHERE c.relkind = 'r'")
    [ "$n" -gt 0 ] || fail "group $g holds no rows of accounts locally"
done
totals="SELECT string_agg(owner || ':' || n || ':' || total, ',' ORDER BY owner) FROM mv_totals"
out=$(on G2 "CREATE MATERIALIZED VIEW mv_totals AS SELECT owner, count(*) AS n, sum(balance) AS total FROM accounts GROUP BY owner")
expect_ok "$out" "CREATE MATERIALIZED VIEW"
expect_kinds mv_totals "G1:f G2:m" "the materialized view on its owner, a foreign table elsewhere"
want=$(sql G1N1 "SELECT string_agg(owner || ':' || n || ':' || total, ',' ORDER BY owner) FROM (SELECT owner, count(*) AS n, sum(balance) AS total FROM accounts GROUP BY owner) s")
on_every "$totals" "$want" "the materialized view read through each primary"
on_every "SELECT method || ':' || owner_group || ':' || origin FROM gcluster.tables WHERE name = 'mv_totals'" \
    "solo:G2:ddl" "the materialized view's catalog row"
nothing_pending "CREATE MATERIALIZED VIEW"
got=$(on G1 --fetch "SELECT owner, n, total FROM mv_totals ORDER BY owner" | tail -n +2 | tr '\n' ',')
[ "$got" = "o0|10|165.00,o1|10|145.00,o2|10|155.00," ] || fail "SELECT on the materialized view through the driver: $got"
echo "ok: CREATE MATERIALIZED VIEW over a sharded table: a view on G2, a foreign table on G1, read through the driver and both primaries"
# SQLTables calls it what its owner calls it from either group, by name
# and by a pattern answered by the member the connection is on (before, the
# foreign table on G1 answered TABLE).
for g in G1 G2; do
    answers=$(run_client "$PYTHON" "$(dirname "$CLIENT")/solo_catalog.py" \
        "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$g" mv_totals 1) \
        || fail "the catalog client failed on $g"
    [ "$answers" = "MATERIALIZED VIEW|||owner,n,total||MATERIALIZED VIEW" ] \
        || fail "catalog functions on the materialized view from $g: $answers"
done
echo "ok: SQLTables gave MATERIALIZED VIEW for the view from both groups"

# CREATE TABLE ... AS over the sharded table: the same owner's decision
# (its owner read other groups' rows and cannot prepare either).
out=$(on G1 "CREATE TABLE ctas_totals AS SELECT owner, count(*) AS n, sum(balance) AS total FROM accounts GROUP BY owner")
expect_ok "$out" "CREATE TABLE ... AS over a sharded table"
expect_kinds ctas_totals "G1:r G2:f" "CREATE TABLE ... AS over a sharded table"
on_every "SELECT string_agg(owner || ':' || n || ':' || total, ',' ORDER BY owner) FROM ctas_totals" "$want" \
    "CREATE TABLE ... AS over a sharded table, read through each primary"
nothing_pending "CREATE TABLE ... AS"
echo "ok: CREATE TABLE ... AS over a sharded table made a solo table on G1 with every group's rows"

# SELECT ... INTO, the older spelling of CREATE TABLE ... AS: the same solo
# table (it was made on the policy's member alone, unknown to the others).
# DROP TABLE then reports what it does on one server (SQLRowCount -1), also
# when the first group it ran on held the foreign twin.
out=$(on G2 "SELECT owner, count(*) AS n, sum(balance) AS total INTO select_into_totals FROM accounts GROUP BY owner")
expect_ok "$out" "SELECT ... INTO over a sharded table"
expect_kinds select_into_totals "G1:f G2:r" "SELECT ... INTO over a sharded table"
on_every "SELECT string_agg(owner || ':' || n || ':' || total, ',' ORDER BY owner) FROM select_into_totals" \
    "$want" "SELECT ... INTO over a sharded table, read through each primary"
on_every "SELECT method || ':' || owner_group FROM gcluster.tables WHERE name = 'select_into_totals'" \
    "solo:G2" "SELECT ... INTO's catalog row"
nothing_pending "SELECT ... INTO"
for t in select_into_totals ctas_totals; do
    out=$(on G1 "DROP TABLE $t")
    [ "$out" = "ok -1" ] || fail "DROP TABLE $t through the driver gave: $out"
    expect_kinds $t "G1:- G2:-" "DROP TABLE $t"
done
echo "ok: SELECT ... INTO made a solo table on G2 with every group's rows; DROP TABLE reported -1"

# An index on the view is the owner's; ALTER MATERIALIZED VIEW is refused.
expect_ok "$(on G1 "CREATE INDEX mv_totals_owner ON mv_totals (owner)")" "CREATE INDEX on the materialized view"
expect_kinds mv_totals_owner "G1:- G2:i" "the index on the materialized view"
out=$(on G1 "ALTER MATERIALIZED VIEW mv_totals RENAME TO mv_renamed")
case $out in error\ 0A000*) ;; *) fail "ALTER MATERIALIZED VIEW gave: $out" ;; esac
expect_kinds mv_renamed "G1:- G2:-" "the refused ALTER MATERIALIZED VIEW"
nothing_pending "CREATE INDEX / ALTER on the materialized view"

# REFRESH runs on the owner, whatever the policy says.
sql G2N1 "INSERT INTO accounts (id, owner, balance) SELECT g, 'o' || (g % 3), 1 FROM generate_series(31, 36) g" >/dev/null
out=$(on G1 "REFRESH MATERIALIZED VIEW mv_totals")
expect_ok "$out" "REFRESH MATERIALIZED VIEW through a global connection"
want=$(sql G1N1 "SELECT string_agg(owner || ':' || n || ':' || total, ',' ORDER BY owner) FROM (SELECT owner, count(*) AS n, sum(balance) AS total FROM accounts GROUP BY owner) s")
on_every "$totals" "$want" "the refreshed materialized view"
nothing_pending "REFRESH MATERIALIZED VIEW"
echo "ok: REFRESH MATERIALIZED VIEW ran on the owner G2 with the policy on G1: $want"

# DROP: the view on its owner, the foreign table elsewhere, the catalog row.
out=$(on G1 "DROP MATERIALIZED VIEW mv_totals")
expect_ok "$out" "DROP MATERIALIZED VIEW"
expect_kinds mv_totals "G1:- G2:-" "DROP MATERIALIZED VIEW"
on_every "SELECT count(*) FROM gcluster.tables WHERE name = 'mv_totals'" 0 "DROP MATERIALIZED VIEW's catalog row"
nothing_pending "DROP MATERIALIZED VIEW"
echo "ok: DROP MATERIALIZED VIEW dropped the view on G2 and its foreign table on G1"

# DROP TABLE ... CASCADE of a solo table a solo materialized view reads
# (through a view): the cascade drops the view on its owner, the driver its
# foreign table on the other group and its catalog row everywhere, in the
# same transaction; the name is free again.
expect_ok "$(on G2 "CREATE TABLE mv_src (id int PRIMARY KEY, v int)")" "CREATE TABLE mv_src"
expect_ok "$(on G2 "CREATE VIEW mv_src_view AS SELECT id, v FROM mv_src")" "CREATE VIEW over mv_src"
expect_ok "$(on G2 "CREATE MATERIALIZED VIEW mv_dep AS SELECT id, v FROM mv_src_view")" \
    "CREATE MATERIALIZED VIEW mv_dep"
expect_kinds mv_dep "G1:f G2:m" "the materialized view over a solo table"
expect_ok "$(on G1 "DROP TABLE mv_src CASCADE")" "DROP TABLE ... CASCADE"
expect_kinds mv_src "G1:- G2:-" "DROP TABLE ... CASCADE"
expect_kinds mv_src_view "G1:- G2:-" "the view dropped by the cascade"
expect_kinds mv_dep "G1:- G2:-" "the materialized view dropped by the cascade"
on_every "SELECT count(*) FROM gcluster.tables WHERE name IN ('mv_src', 'mv_dep')" 0 \
    "the catalog rows after DROP TABLE ... CASCADE"
nothing_pending "DROP TABLE ... CASCADE"
expect_ok "$(on G1 "CREATE MATERIALIZED VIEW mv_dep AS SELECT 1 AS one")" "the name made again"
expect_ok "$(on G1 "DROP MATERIALIZED VIEW mv_dep")" "DROP of the new view"
echo "ok: DROP TABLE ... CASCADE dropped the solo materialized view on its owner and its foreign table"

# DROP VIEW ... CASCADE of the view a solo materialized view reads: the same.
expect_ok "$(on G2 "CREATE TABLE mv_src (id int PRIMARY KEY, v int)")" "CREATE TABLE mv_src"
expect_ok "$(on G2 "CREATE VIEW mv_src_view AS SELECT id, v FROM mv_src")" "CREATE VIEW over mv_src"
expect_ok "$(on G2 "CREATE MATERIALIZED VIEW mv_dep AS SELECT id, v FROM mv_src_view")" \
    "CREATE MATERIALIZED VIEW mv_dep"
expect_ok "$(on G1 "DROP VIEW mv_src_view CASCADE")" "DROP VIEW ... CASCADE"
expect_kinds mv_src_view "G1:- G2:-" "DROP VIEW ... CASCADE"
expect_kinds mv_dep "G1:- G2:-" "the materialized view dropped by DROP VIEW ... CASCADE"
expect_kinds mv_src "G1:f G2:r" "the table under the dropped view"
on_every "SELECT count(*) FROM gcluster.tables WHERE name = 'mv_dep'" 0 \
    "the catalog row after DROP VIEW ... CASCADE"
on_every "SELECT count(*) FROM gcluster.tables WHERE name = 'mv_src'" 1 \
    "the table's catalog row after DROP VIEW ... CASCADE"
nothing_pending "DROP VIEW ... CASCADE"
expect_ok "$(on G1 "CREATE MATERIALIZED VIEW mv_dep AS SELECT id FROM mv_src")" "the name made again"
expect_ok "$(on G1 "DROP TABLE mv_src CASCADE")" "DROP TABLE mv_src CASCADE"
on_every "SELECT count(*) FROM gcluster.tables WHERE name IN ('mv_src', 'mv_dep')" 0 \
    "the catalog rows after the last DROP TABLE ... CASCADE"
echo "ok: DROP VIEW ... CASCADE dropped the solo materialized view on its owner and its foreign table"

# DROP SCHEMA ... CASCADE of a schema holding a solo table and a solo
# materialized view, with a solo materialized view outside it reading the
# table: every one of them goes on every group, catalog rows included; the
# names are free again.
expect_ok "$(on G1 "CREATE SCHEMA dropme")" "CREATE SCHEMA dropme"
expect_ok "$(on G2 "CREATE TABLE dropme.inner_t (id int PRIMARY KEY)")" "CREATE TABLE dropme.inner_t"
expect_ok "$(on G2 "CREATE MATERIALIZED VIEW dropme.inner_mv AS SELECT id FROM dropme.inner_t")" \
    "CREATE MATERIALIZED VIEW dropme.inner_mv"
expect_ok "$(on G1 "CREATE MATERIALIZED VIEW outer_mv AS SELECT id FROM dropme.inner_t")" \
    "CREATE MATERIALIZED VIEW outer_mv over the schema's table"
expect_kinds dropme.inner_t "G1:f G2:r" "the solo table in dropme"
expect_kinds outer_mv "G1:m G2:f" "the materialized view outside dropme (owned by G1)"
expect_ok "$(on G1 "DROP SCHEMA dropme CASCADE")" "DROP SCHEMA ... CASCADE"
expect_kinds outer_mv "G1:- G2:-" "the materialized view outside the dropped schema"
on_every "SELECT count(*) FROM pg_namespace WHERE nspname = 'dropme'" 0 "the dropped schema"
on_every "SELECT count(*) FROM gcluster.tables WHERE name IN ('inner_t', 'inner_mv', 'outer_mv')" 0 \
    "the catalog rows after DROP SCHEMA ... CASCADE"
nothing_pending "DROP SCHEMA ... CASCADE"
expect_ok "$(on G1 "CREATE SCHEMA dropme")" "CREATE SCHEMA dropme again"
expect_ok "$(on G1 "CREATE TABLE dropme.inner_t (id int PRIMARY KEY)")" "the table made again"
expect_ok "$(on G1 "CREATE MATERIALIZED VIEW outer_mv AS SELECT id FROM dropme.inner_t")" \
    "the outer view made again"
expect_ok "$(on G2 "DROP SCHEMA dropme CASCADE")" "DROP SCHEMA ... CASCADE again"
echo "ok: DROP SCHEMA ... CASCADE dropped the solo objects in it and reached from it, catalog rows too"

# A materialized view made on every group (not by the driver) behaves as
# before: its REFRESH runs on the policy's group, DROP on every group.
for g in G1 G2; do
    sql "$(primary_of "$g")" "CREATE MATERIALIZED VIEW mv_local AS SELECT id FROM plain_ref" >/dev/null
done
sql G1N1 "INSERT INTO plain_ref VALUES (2)" >/dev/null
expect_ok "$(on G1 "REFRESH MATERIALIZED VIEW mv_local")" "REFRESH of a view on every group"
[ "$(sql G1N1 "SELECT count(*) FROM mv_local")/$(sql G2N1 "SELECT count(*) FROM mv_local")" = 2/1 ] \
    || fail "REFRESH of a view on every group did not run on the policy's group G1 only"
expect_ok "$(on G1 "DROP MATERIALIZED VIEW mv_local")" "DROP of a view on every group"
expect_kinds mv_local "G1:- G2:-" "DROP of a view on every group"
echo "ok: a materialized view on every group: REFRESH on the policy's group, DROP everywhere"

# 5. Failures during CREATE MATERIALIZED VIEW leave no group changed.
mv_sql="CREATE MATERIALIZED VIEW mv_fail AS SELECT owner, count(*) AS n FROM accounts GROUP BY owner"
# a) The foreign twin fails on G1 (the name is taken there).
su_sql G1N1 "CREATE TABLE mv_fail (x int)" >/dev/null
out=$(on G2 "$mv_sql")
case $out in error\ 42P07*G1*) ;; *) fail "a twin failing on G1 gave: $out" ;; esac
expect_kinds mv_fail "G1:r G2:-" "a failed twin"
nothing_pending "a failed twin"
su_sql G1N1 "DROP TABLE mv_fail" >/dev/null
echo "ok: a twin failing on G1 left G2 without the view: $out"
# b) The owner's COMMIT fails (a deferred check on the decision table): G1,
# already prepared, is rolled back.
su_sql G2N1 "CREATE FUNCTION gcluster.refuse_decision() RETURNS trigger LANGUAGE plpgsql AS
    \$\$ BEGIN IF NEW.committed THEN
        RAISE EXCEPTION 'decision refused for test' USING ERRCODE = '40P99'; END IF;
        RETURN NULL; END \$\$;
    CREATE CONSTRAINT TRIGGER refuse_decision AFTER INSERT ON gcluster.commit_decisions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION gcluster.refuse_decision()" >/dev/null
out=$(on G2 "$mv_sql")
case $out in error\ 40P99*G2*"rolled back"*) ;; *) fail "the owner's COMMIT failing gave: $out" ;; esac
expect_kinds mv_fail "G1:- G2:-" "the owner's COMMIT failing"
su_sql G2N1 "DROP TRIGGER refuse_decision ON gcluster.commit_decisions; DROP FUNCTION gcluster.refuse_decision()" >/dev/null
nothing_pending "the owner's COMMIT failing"
echo "ok: the owner's COMMIT failing rolled back the twin prepared on G1: $out"
# c) The owner's COMMIT answer is lost: synchronous replication to a standby
# that does not exist holds G2's COMMIT after it committed locally; that
# backend is terminated. The driver asks the decision through a new session
# (true) and commits G1.
hold_commits G2N1
on G2 "$mv_sql" >"$DIR/lost_commit.out" &
client=$!
waiting=$(held_backend G2N1 "query = 'COMMIT'")
[ -n "$waiting" ] || { kill "$client"; fail "no COMMIT waited for synchronous replication on G2N1"; }
[ "$(sql G1N1 "SELECT count(*) FROM pg_prepared_xacts")" = 1 ] || fail "G1 was not prepared before the owner's COMMIT"
su_sql G2N1 "SELECT pg_terminate_backend($waiting)" >/dev/null
release_commits G2N1
wait_client "$client" "the lost COMMIT"
out=$(cat "$DIR/lost_commit.out")
expect_ok "$out" "CREATE MATERIALIZED VIEW whose owner's COMMIT answer was lost"
expect_kinds mv_fail "G1:f G2:m" "the lost COMMIT resolved as committed"
nothing_pending "the lost COMMIT"
echo "ok: the owner's COMMIT answer lost: resolved as committed through a new session, G1 committed"
expect_ok "$(on G1 "DROP MATERIALIZED VIEW mv_fail")" "DROP MATERIALIZED VIEW mv_fail"
# e) The owner's primary dies while its COMMIT is held (committed in its
# WAL, not answered) and stays down: the outcome is unknown (08007), G1 stays
# prepared, and the statements the message names finish it once G2 is back.
hold_commits G2N1
on G2 "$mv_sql" >"$DIR/dead_owner.out" &
client=$!
[ -n "$(held_backend G2N1 "query = 'COMMIT'")" ] \
    || { kill "$client"; fail "no COMMIT waited for synchronous replication on G2N1"; }
"$GCCTL" local stop-member G2N1 --dir "$DIR" --mode immediate >/dev/null || fail "stop-member G2N1"
wait_client "$client" "the owner's primary stopped during its COMMIT"
out=$(cat "$DIR/dead_owner.out")
case $out in error\ 08007*"decide_commit('gcx:"*) ;; *) fail "the owner's primary stopped during its COMMIT gave: $out" ;; esac
echo "ok: $out"
[ "$(sql G1N1 "SELECT count(*) FROM pg_prepared_xacts")" = 1 ] || fail "G1 did not keep its prepared twin"
gid=$(echo "$out" | sed -n "s/.*prepared as '\([^']*\)'.*/\1/p")
"$GCCTL" local start-member G2N1 --dir "$DIR" >/dev/null || fail "start-member G2N1"
release_commits G2N1
[ "$(sql G2N1 "SELECT gcluster.decide_commit('$gid', false)")" = t ] \
    || fail "the owner's decision for $gid is not commit"
sql G1N1 "COMMIT PREPARED '$gid'" >/dev/null
sql G2N1 "SELECT gcluster.forget_commit_decision('$gid')" >/dev/null
expect_kinds mv_fail "G1:f G2:m" "the view whose owner died in its COMMIT, once resolved"
nothing_pending "the view whose owner died in its COMMIT"
echo "ok: resolved by the statements the message names: the view on G2, its foreign table on G1"
expect_ok "$(on G1 "DROP MATERIALIZED VIEW mv_fail")" "DROP MATERIALIZED VIEW mv_fail"
# d) A group's primary is down: refused before anything runs.
"$GCCTL" local stop-member G1N1 --dir "$DIR" >/dev/null || fail "stop-member G1N1"
out=$(on G2 "$mv_sql")
case $out in error\ 08S01*G1*) ;; *) fail "CREATE MATERIALIZED VIEW with G1's primary down gave: $out" ;; esac
"$GCCTL" local start-member G1N1 --dir "$DIR" >/dev/null || fail "start-member G1N1"
expect_kinds mv_fail "G1:- G2:-" "G1's primary down"
nothing_pending "G1's primary down"
echo "ok: with G1's primary down nothing was created ($out)"
# 6. The same DDL inside an open transaction (autocommit off): it joins the
# transaction on every group's primary and commits or rolls back with it.
# (txn: ddl_lib.sh)
# a) A new table's keys choose the transaction's group when the DDL comes first.
out=$(txn G2 commit "CREATE TABLE fk_t1 (id int, p int REFERENCES fk_p1 (id))" \
                    "INSERT INTO fk_t1 VALUES (1, 1)")
case $(echo "$out" | tr '\n' ' ') in "ok "*" ok 1 commit ") ;; *) fail "keys in a transaction: $out" ;; esac
expect_kinds fk_t1 "G1:r G2:f" "a key in a transaction placed the table"
on_every "SELECT count(*) FROM fk_t1" 1 "the row written after the DDL in its transaction"
nothing_pending "keys in a transaction"
# b) A transaction already on another group: refused, nothing made.
out=$(txn G2 commit "SELECT 1" "CREATE TABLE fk_t2 (p int REFERENCES fk_p1 (id))")
case $out in *"error 0A000"*fk_t2*G1*G2*rollback) ;; *) fail "keys in a transaction on another group: $out" ;; esac
expect_kinds fk_t2 "G1:- G2:-" "keys refused in a transaction on another group"
nothing_pending "keys refused in a transaction"
echo "ok: in a transaction, keys placed fk_t1 on G1 (DDL first); refused on a transaction already on G2"
# c) CREATE MATERIALIZED VIEW in a transaction: committed or rolled back with it.
out=$(txn G2 rollback "CREATE MATERIALIZED VIEW mv_txn AS SELECT owner, count(*) AS n FROM accounts GROUP BY owner")
[ "$(echo "$out" | tail -1)" = rollback ] || fail "a materialized view in a rolled-back transaction: $out"
expect_kinds mv_txn "G1:- G2:-" "a materialized view in a rolled-back transaction"
out=$(txn G2 commit "CREATE MATERIALIZED VIEW mv_txn AS SELECT owner, count(*) AS n FROM accounts GROUP BY owner" \
                    "SELECT * FROM mv_txn")
case $(echo "$out" | tr '\n' ' ') in "ok "*" ok "*" commit ") ;; *) fail "a materialized view in a committed transaction: $out" ;; esac
expect_kinds mv_txn "G1:f G2:m" "a materialized view in a committed transaction"
on_every "SELECT sum(n) FROM mv_txn" 36 "the materialized view made in a transaction"
nothing_pending "a materialized view in a transaction"
echo "ok: CREATE MATERIALIZED VIEW in a transaction: nothing after ROLLBACK, the view on G2 and its foreign table on G1 after COMMIT"

# CREATE / DROP INDEX CONCURRENTLY runs outside a transaction block, on the
# one group whose plain table (a solo table's owner) or index it is; a
# table on several groups is refused (0A000), as is an open transaction
# (25001); neither leaves anything.
expect_ok "$(on G2 "CREATE TABLE cic_solo (id int, v text)")" "CREATE TABLE cic_solo"
expect_kinds cic_solo "G1:f G2:r" "cic_solo made on G2"
out=$(on G1 "CREATE INDEX CONCURRENTLY cic_solo_v ON cic_solo (v)")
expect_ok "$out" "CREATE INDEX CONCURRENTLY on a solo table of G2, policy G1"
expect_kinds cic_solo_v "G1:- G2:i" "the concurrently built index, on the owner only"
[ "$(sql G2N1 "SELECT indisvalid FROM pg_index WHERE indexrelid = 'cic_solo_v'::regclass")" = t ] \
    || fail "the concurrently built index is not valid"
out=$(txn G1 rollback "SELECT 1" "CREATE INDEX CONCURRENTLY cic_solo_id ON cic_solo (id)")
case $out in *"error 25001"*) ;; *) fail "CREATE INDEX CONCURRENTLY in a transaction gave: $out" ;; esac
expect_kinds cic_solo_id "G1:- G2:-" "CREATE INDEX CONCURRENTLY refused in a transaction"
out=$(on G1 "CREATE INDEX CONCURRENTLY accounts_cic ON accounts (owner)")
case $out in error\ 0A000*"2 groups"*) ;; *) fail "CREATE INDEX CONCURRENTLY on a sharded table gave: $out" ;; esac
expect_kinds accounts_cic "G1:- G2:-" "CREATE INDEX CONCURRENTLY refused on a sharded table"
# Maintenance naming the solo table runs on its owner whatever the policy
# says (on G1, the foreign twin, REINDEX and CLUSTER failed with 42809).
reset_calls
for stmt in "REINDEX TABLE cic_solo" "CLUSTER cic_solo USING cic_solo_v" "VACUUM cic_solo" \
            "ANALYZE cic_solo"; do
    expect_ok "$(on G1 "$stmt")" "$stmt, policy G1"
    where=$(calls_per_group "query = '$stmt'")
    [ "$where" = "G1:0 G2:1 " ] || fail "$stmt ran on $where, expected on the owner G2 only"
done
# So does COPY naming it: through ODBC it gets HYC00 there; on G1, the
# foreign twin, PostgreSQL refused it with 42809.
out=$(on G1 "COPY cic_solo TO STDOUT")
case $out in "error HYC00"*) ;; *) fail "COPY of the solo table, policy G1, gave: $out" ;; esac
where=$(calls_per_group "query = 'COPY cic_solo TO STDOUT'")
[ "$where" = "G1:0 G2:1 " ] || fail "COPY of the solo table ran on $where, expected on the owner G2 only"
# So does a text of several statements naming it alone: in autocommit, and
# in a transaction pinned to G1, which G2 joins for it. On G1 its writes
# went through the foreign twin, refused (0A000 / 90123).
reset_calls
expect_ok "$(on G1 "INSERT INTO cic_solo VALUES (1, 'a'); UPDATE cic_solo SET v = 'b' WHERE id = 1")" \
    "two statements on the solo table, policy G1"
text_in_g1_transaction "INSERT INTO cic_solo VALUES (2, 'c'); DELETE FROM cic_solo WHERE id = 1" \
    "two statements on the solo table in a transaction on G1"
where=$(calls_per_group "query LIKE 'INSERT INTO cic_solo VALUES%'")
[ "$where" = "G1:0 G2:2 " ] || fail "the texts of two statements ran on $where, expected on the owner G2 only"
[ "$(sql G2N1 "SELECT string_agg(id || v, ',' ORDER BY id) FROM cic_solo")" = "2c" ] \
    || fail "the texts of two statements left: $(sql G2N1 "SELECT string_agg(id || v, ',') FROM cic_solo")"
expect_ok "$(on G1 "DROP INDEX CONCURRENTLY cic_solo_v")" "DROP INDEX CONCURRENTLY on the owner"
expect_kinds cic_solo_v "G1:- G2:-" "DROP INDEX CONCURRENTLY"
expect_ok "$(on G1 "DROP TABLE cic_solo")" "DROP TABLE cic_solo"
nothing_pending "CREATE / DROP INDEX CONCURRENTLY"
echo "ok: CREATE and DROP INDEX CONCURRENTLY, REINDEX, CLUSTER, VACUUM, ANALYZE, COPY and texts of several statements ran on the solo table's owner G2; CONCURRENTLY refused on a sharded table and in a transaction"

# An UPDATE that changes a row's sharding key, sent by SQLExecDirect (which
# goes by policy, not by key), runs on the group owning the row whatever the
# policy says. There PostgreSQL moves the row to the group's other partition;
# a move into another group's partition is refused (0A000 / 90123) and the
# row stays. From G1 postgres_fdw updated G2's partition itself, which
# refused the new key (23514).
parts=$(sql G2N1 "SELECT min(a.id) FROM accounts a JOIN pg_class c ON c.oid = a.tableoid WHERE c.relkind = 'r' GROUP BY c.relname ORDER BY c.relname")
set -- $parts
[ $# -eq 2 ] || fail "G2 holds rows of $# local partitions of accounts, expected 2: $parts"
from=$1 to=$2
g1_id=$(sql G1N1 "SELECT min(a.id) FROM accounts a JOIN pg_class c ON c.oid = a.tableoid WHERE c.relkind = 'r'")
sql G2N1 "DELETE FROM accounts WHERE id = $to" >/dev/null
sql G1N1 "DELETE FROM accounts WHERE id = $g1_id" >/dev/null
reset_calls
expect_ok "$(on G1 "UPDATE accounts SET id = $to WHERE id = $from")" \
    "an UPDATE moving account $from to another partition of G2, policy G1"
where=$(calls_per_group "query LIKE 'UPDATE accounts SET id =%'")
[ "$where" = "G1:0 G2:1 " ] || fail "the key-moving UPDATE ran on $where, expected on the owner G2 only"
[ "$(sql G2N1 "SELECT string_agg(c.relkind::text || ':' || a.balance, ',') FROM accounts a JOIN pg_class c ON c.oid = a.tableoid WHERE a.id IN ($from, $to)")" = "r:$from.00" ] \
    || fail "after moving $from to $to, G2 holds: $(sql G2N1 "SELECT string_agg(id || ':' || balance, ',') FROM accounts WHERE id IN ($from, $to)")"
out=$(on G1 "UPDATE accounts SET id = $g1_id WHERE id = $to")
case $out in "error 0A000"*"(90123)"*) ;; *) fail "an UPDATE moving a row of G2 into G1's partition gave: $out" ;; esac
[ "$(sql G1N1 "SELECT string_agg(id::text, ',' ORDER BY id) FROM accounts WHERE id IN ($to, $g1_id)")" = "$to" ] \
    || fail "the refused move left: $(sql G1N1 "SELECT string_agg(id::text, ',') FROM accounts WHERE id IN ($to, $g1_id)")"
nothing_pending "key-moving UPDATEs"
echo "ok: an UPDATE changing the key ran on the owner G2 against the policy and moved the row there; a move into G1 was refused and left the row"

# A text of several statements whose writes' keys all place them in G2
# runs on G2 whatever the policy says, its read reaching G1's rows through
# postgres_fdw: in autocommit, and in a transaction pinned to G1, which G2
# joins for it. On G1 its writes went through postgres_fdw, refused
# (0A000 / 90123). A text writing two groups runs statement by statement,
# each write on its own group, one transaction across both.
g2_id=$(sql G2N1 "SELECT min(a.id) FROM accounts a JOIN pg_class c ON c.oid = a.tableoid WHERE c.relkind = 'r'")
g1_id=$(sql G1N1 "SELECT min(a.id) FROM accounts a JOIN pg_class c ON c.oid = a.tableoid WHERE c.relkind = 'r'")
before=$(sql G2N1 "SELECT balance FROM accounts WHERE id = $g2_id")
reset_calls
expect_ok "$(on G1 "UPDATE accounts SET balance = balance + 7 WHERE id = $g2_id; SELECT count(*) FROM accounts; UPDATE accounts SET balance = balance + 1 WHERE id = $g2_id")" \
    "two UPDATEs of account $g2_id of G2 and a SELECT of all accounts in one text, policy G1"
text_in_g1_transaction "UPDATE accounts SET balance = balance + 10 WHERE id = $g2_id; DELETE FROM accounts WHERE id = $g2_id AND false" \
    "a text of two statements on account $g2_id of G2 in a transaction on G1"
where=$(calls_per_group "query LIKE 'UPDATE accounts SET balance = balance +%'")
[ "$where" = "G1:0 G2:3 " ] || fail "the texts' UPDATEs ran on $where, expected on the owner G2 only"
[ "$(sql G2N1 "SELECT balance - $before FROM accounts WHERE id = $g2_id")" = "18.00" ] \
    || fail "the texts left account $g2_id at $(sql G2N1 "SELECT balance FROM accounts WHERE id = $g2_id"), from $before"
g1_before=$(sql G1N1 "SELECT balance FROM accounts WHERE id = $g1_id")
reset_calls
expect_ok "$(on G1 "UPDATE accounts SET balance = balance + 100 WHERE id = $g2_id; UPDATE accounts SET balance = balance + 100 WHERE id = $g1_id")" \
    "a text writing accounts $g2_id of G2 and $g1_id of G1"
where=$(calls_per_group "query LIKE 'UPDATE accounts SET balance = balance +%'")
[ "$where" = "G1:1 G2:1 " ] || fail "the text's two UPDATEs ran on $where, expected one on each owner"
out=$(on G2 "UPDATE accounts SET balance = balance + 1 WHERE id = $g2_id; UPDATE accounts SET balance = 1 / 0 WHERE id = $g1_id")
case $out in "error 22012"*) ;; *) fail "a text writing accounts of G1 and G2 whose second write fails gave: $out" ;; esac
[ "$(sql G2N1 "SELECT balance - $before FROM accounts WHERE id = $g2_id")" = "118.00" ] \
    || fail "the texts of two groups left account $g2_id at $(sql G2N1 "SELECT balance FROM accounts WHERE id = $g2_id"), from $before"
[ "$(sql G1N1 "SELECT balance - $g1_before FROM accounts WHERE id = $g1_id")" = "100.00" ] \
    || fail "the texts of two groups left account $g1_id at $(sql G1N1 "SELECT balance FROM accounts WHERE id = $g1_id"), from $g1_before"
nothing_pending "texts of several statements on a sharded table"
echo "ok: texts of several statements writing account $g2_id of G2 ran on G2 against the policy, in autocommit and in a transaction; a text writing two groups ran each write on its owner, all or nothing"
# A data-modifying WITH is placed by the table it writes: of a solo table,
# on its owner whatever the policy says, in autocommit and in a
# transaction (before, it ran where the policy or the transaction was and
# wrote through postgres_fdw: refused, 0A000).
expect_ok "$(on G2 "CREATE TABLE with_src (id int PRIMARY KEY, v int)")" "CREATE TABLE with_src"
wowner=G1
[ "$(kinds with_src)" = "G1:f G2:r" ] && wowner=G2
wother=G1
[ "$wowner" = G1 ] && wother=G2
sql "$(primary_of "$wowner")" "INSERT INTO with_src SELECT g, g FROM generate_series(1, 10) g" >/dev/null
with_calls() {
    su_sql "$(primary_of "$1")" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE userid = 'app'::regrole AND query LIKE 'WITH d AS (% with_src %'"
}
out=$(on "$wother" --fetch "WITH d AS (DELETE FROM with_src WHERE id > 6 RETURNING id) SELECT count(*) FROM d")
case $(echo "$out" | tr '\n' ' ') in "ok "*" 4 ") ;;
    *) fail "a data-modifying WITH of with_src (owner $wowner) with the policy on $wother: $out" ;; esac
out=$(txn "$wother" commit "SELECT 1" \
      "WITH d AS (UPDATE with_src SET v = v + 10 WHERE id <= 2 RETURNING id) SELECT count(*) FROM d")
case $(echo "$out" | tr '\n' ' ') in "ok "*" row 1 ok "*" row 2 commit ") ;;
    *) fail "a data-modifying WITH of with_src in a transaction on $wother: $out" ;; esac
[ "$(sql "$(primary_of "$wowner")" "SELECT count(*) || ':' || sum(v) FROM with_src")" = "6:41" ] \
    || fail "with_src after the WITH statements: $(sql "$(primary_of "$wowner")" "SELECT count(*) || ':' || sum(v) FROM with_src")"
[ "$(with_calls "$wowner"):$(with_calls "$wother")" = "2:0" ] \
    || fail "the WITH statements ran $(with_calls "$wowner") times on the owner $wowner, $(with_calls "$wother") on $wother"
nothing_pending "data-modifying WITH of a solo table"
echo "ok: a data-modifying WITH of with_src ran on its owner $wowner with the policy and the transaction on $wother"
# An autocommit write across groups whose subquery reads a row of G1: G2's
# part reads it through postgres_fdw and cannot be prepared. At COMMIT the
# servers say G2 alone holds a postgres_fdw transaction, so G2 decides and
# G1 prepares (before, G1 decided and G2's PREPARE failed: 0A000).
g1_now=$(sql G1N1 "SELECT balance FROM accounts WHERE id = $g1_id")
g2_now=$(sql G2N1 "SELECT balance FROM accounts WHERE id = $g2_id")
reset_calls
expect_ok "$(on G1 "UPDATE accounts SET balance = balance + (SELECT count(*) FROM accounts WHERE id = $g1_id) WHERE id IN ($g1_id, $g2_id)")" \
    "an autocommit write across groups reading a row of G1"
[ "$(sql G1N1 "SELECT balance - $g1_now FROM accounts WHERE id = $g1_id"):$(sql G2N1 "SELECT balance - $g2_now FROM accounts WHERE id = $g2_id")" = "1.00:1.00" ] \
    || fail "the write across groups reading a row of G1 did not add 1 to accounts $g1_id and $g2_id"
decided_on() {
    su_sql "$(primary_of "$1")" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE userid = 'app'::regrole AND query LIKE '%gcluster.decide_commit%'"
}
prepared_on() {
    su_sql "$(primary_of "$1")" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE userid = 'app'::regrole AND query LIKE 'PREPARE TRANSACTION%'"
}
[ "$(decided_on G2):$(prepared_on G1):$(decided_on G1):$(prepared_on G2)" = "1:1:0:0" ] \
    || fail "decided G2:G1 $(decided_on G2):$(decided_on G1), prepared G1:G2 $(prepared_on G1):$(prepared_on G2); expected G2 to decide and G1 to prepare"
nothing_pending "a write across groups reading a row of G1"
echo "ok: a write across groups whose G2 part read G1 through postgres_fdw was decided on G2"
echo "PASS"
