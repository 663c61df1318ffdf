#!/bin/bash
# A text of several statements with cluster DDL among them, through a
# global connection: each statement runs as it would alone (the DDL on
# every group, with its catalog rows; the others routed), the text stays
# one unit (all of it or nothing), and each statement's result comes
# through SQLMoreResults. A private 2-group cluster (always taken down);
# pyodbc through the driver manager; the servers checked with psql.
# usage: texts.sh GCCTL PYTHON SPEC DIR
GCCTL=$1
PYTHON=$2
SPEC=$3
DIR=$4
source "$(dirname "$0")/../gcctl/lib.sh"
source "$(dirname "$0")/ddl_lib.sh"
own_cluster "$SPEC"

# texts auto|manual SQL...: what the application sees (text_client.py).
texts() {
    run_client "$PYTHON" "$(dirname "$0")/text_client.py" gddl "$@" \
        || fail "the client failed on: $*"
}
# solo_everywhere TABLE: a solo table known alike to every group's catalog,
# plain on its owner, a foreign table on the other group.
solo_everywhere() {
    on_every "SELECT method FROM gcluster.tables WHERE name = '$1'" solo "$1 in the catalog"
    local kinds
    kinds=$(for g in G1 G2; do sql "$(primary_of "$g")" \
        "SELECT relkind FROM pg_class WHERE relname = '$1' AND relnamespace = 'public'::regnamespace"; done |
        sort | tr -d '\n')
    [ "$kinds" = fr ] || fail "$1 is not plain on one group and foreign on the other: '$kinds'"
}
nowhere() {
    on_every "SELECT count(*) FROM pg_class WHERE relname = '$1'" 0 "$1 after a text that failed"
}

# 1. Two CREATE TABLEs in one text: both made on every group (before, the
# second ran on the first one's group only, unknown to the catalog).
out=$(texts auto "CREATE TABLE ta (id int PRIMARY KEY, v text); CREATE TABLE tb (id int PRIMARY KEY, v text)")
[ "$(first_words "$out")" = "ok 0 ok 0 " ] || fail "two CREATE TABLEs in one text: $out"
solo_everywhere ta
solo_everywhere tb
no_prepared_left "after two CREATE TABLEs in one text"
echo "ok: two CREATE TABLEs in one text made two solo tables, each on every group's catalog"

# 2. A set-up text: CREATE, INSERT, SELECT; one result each.
out=$(texts auto "CREATE TABLE tc (id int); INSERT INTO tc VALUES (1), (2); SELECT count(*) FROM tc")
[ "$(first_words "$out")" = "ok 0 ok 2 ok -1 row 2 " ] || fail "CREATE, INSERT and SELECT in one text: $out"
solo_everywhere tc
on_every "SELECT count(*) FROM tc" 2 "tc's rows, written by the text that made it"
echo "ok: CREATE TABLE, INSERT and SELECT in one text: one result each, the rows on the new table's owner"

# 3. A statement of the text fails: nothing of it stays (in autocommit the
# text is one transaction, as on one server).
out=$(texts auto "CREATE TABLE td (id int); INSERT INTO td VALUES ('x')")
case $(first_words "$out") in "error 22P02 "*) ;; *) fail "a text whose INSERT fails: $out" ;; esac
nowhere td
no_prepared_left "after a text that failed"
echo "ok: a text whose INSERT failed left no table on any group"

# 4. In a transaction (autocommit off): a text that fails is undone whole
# (rollback level 2, the default), what the transaction did before stays.
out=$(texts manual "INSERT INTO ta VALUES (1, 'before')" \
      "INSERT INTO ta VALUES (2, 'text'); CREATE TABLE te (id int); INSERT INTO te VALUES ('x')" \
      "SELECT string_agg(v, ',' ORDER BY id) FROM ta")
[ "$(first_words "$out")" = "ok 1 error 22P02 ok 1 row before commit " ] \
    || fail "a failing text in a transaction: $out"
on_every "SELECT string_agg(v, ',' ORDER BY id) FROM ta" before "ta after the transaction"
nowhere te
no_prepared_left "after a failing text in a transaction"
echo "ok: in a transaction, a text that failed was undone whole; the transaction's earlier write committed"

# 5. A text that controls the transaction itself runs as it says.
out=$(texts auto "BEGIN; CREATE TABLE tf (id int); INSERT INTO tf VALUES (7); COMMIT")
[ "$(first_words "$out")" = "ok -1 ok 0 ok 1 ok -1 " ] || fail "BEGIN; CREATE; INSERT; COMMIT in one text: $out"
solo_everywhere tf
on_every "SELECT id FROM tf" 7 "tf's row"
no_prepared_left "after a text with its own transaction"
echo "ok: a text with its own BEGIN and COMMIT made its table on every group and wrote it"

# 6. Writes of two groups' solo tables in one text (no DDL): each write on
# its own group, the text one transaction across them (before, the second
# group's write went through postgres_fdw and was refused, 0A000).
for g in G1 G2; do
    out=$(run_client "$PYTHON" "$(dirname "$0")/text_client.py" \
          "DSN=gddl;LocalityGroupPolicy=1;LocalityGroupPath=$g" auto "CREATE TABLE on_${g,,} (id int PRIMARY KEY)")
    [ "$out" = "ok 0" ] || fail "CREATE TABLE on_${g,,}: $out"
    on_every "SELECT owner_group FROM gcluster.tables WHERE name = 'on_${g,,}'" "$g" "on_${g,,}'s owner"
done
for g in G1 G2; do su_sql "$(primary_of "$g")" "SELECT pg_stat_statements_reset()" >/dev/null; done
out=$(texts auto "INSERT INTO on_g1 VALUES (1); INSERT INTO on_g2 VALUES (1)")
[ "$(first_words "$out")" = "ok 1 ok 1 " ] || fail "writes of two groups in one text: $out"
for g in G1 G2; do
    [ "$(su_sql "$(primary_of "$g")" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
          WHERE userid = 'app'::regrole AND query LIKE 'INSERT INTO on_${g,,} %'")" = 1 ] \
        || fail "the text's INSERT INTO on_${g,,} did not run once on $g's primary"
done
on_every "SELECT (SELECT count(*) FROM on_g1) || ':' || (SELECT count(*) FROM on_g2)" 1:1 \
    "the rows of a text writing two groups"
# A later statement fails (a duplicate key on G2): nothing of the text stays.
out=$(texts auto "INSERT INTO on_g1 VALUES (2); INSERT INTO on_g2 VALUES (1)")
case $(first_words "$out") in "error 23505 "*) ;; *) fail "a text whose second group's write fails: $out" ;; esac
on_every "SELECT count(*) FROM on_g1" 1 "on_g1 after a text whose write on G2 failed"
no_prepared_left "after texts writing two groups"
echo "ok: a text writing two groups' tables ran each write on its own group's primary, all or nothing"

# 6b. In a transaction that wrote both groups, a text reading both: each
# read runs where its rows were written (before, sent whole to the pin, the
# other group's table was read through postgres_fdw, which does not see
# the transaction's writes there, and the text was refused, 0A000).
for g in G1 G2; do su_sql "$(primary_of "$g")" "SELECT pg_stat_statements_reset()" >/dev/null; done
out=$(texts manual "INSERT INTO on_g1 VALUES (10)" "INSERT INTO on_g2 VALUES (10)" \
      "SELECT count(*) FROM on_g1; SELECT count(*) FROM on_g2")
[ "$(first_words "$out")" = "ok 1 ok 1 ok -1 row 2 ok -1 row 2 commit " ] \
    || fail "a text reading two groups after writing both: $out"
for g in G1 G2; do
    [ "$(su_sql "$(primary_of "$g")" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
          WHERE userid = 'app'::regrole AND query = 'SELECT count(*) FROM on_${g,,}'")" = 1 ] \
        || fail "the text's read of on_${g,,} did not run once on $g's primary"
done
# The transaction wrote on its pin (G1) only, and the text keeps to G2: its
# read of on_g1 runs on G1, where it sees the transaction's row.
out=$(texts manual "INSERT INTO on_g1 VALUES (11)" \
      "INSERT INTO on_g2 VALUES (11); SELECT count(*) FROM on_g1")
[ "$(first_words "$out")" = "ok 1 ok 1 ok -1 row 3 commit " ] \
    || fail "a text of G2 reading what the transaction wrote on G1: $out"
on_every "SELECT (SELECT count(*) FROM on_g1) || ':' || (SELECT count(*) FROM on_g2)" 3:3 \
    "the rows of the transactions with texts reading both groups"
no_prepared_left "after texts reading what their transaction wrote"
echo "ok: texts reading tables their transaction wrote on other groups ran each read where the rows are"

# 7. DROPs in one text, every table gone from every group and catalog.
out=$(texts auto "DROP TABLE ta; DROP TABLE tb; DROP TABLE tc, tf, on_g1, on_g2")
[ "$(first_words "$out")" = "ok -1 ok -1 ok -1 " ] || fail "DROP TABLEs in one text: $out"
on_every "SELECT count(*) FROM pg_class WHERE relname IN ('ta', 'tb', 'tc', 'tf', 'on_g1', 'on_g2')" 0 \
    "the dropped tables"
on_every "SELECT count(*) FROM gcluster.tables WHERE name IN ('ta', 'tb', 'tc', 'tf', 'on_g1', 'on_g2')" 0 \
    "the dropped tables' catalog rows"
echo "ok: DROP TABLEs in one text dropped every table on every group"
