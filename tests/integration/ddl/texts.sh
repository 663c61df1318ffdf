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

# 6. DROPs in one text, every table gone from every group and catalog.
out=$(texts auto "DROP TABLE ta; DROP TABLE tb; DROP TABLE tc, tf")
[ "$(first_words "$out")" = "ok -1 ok -1 ok -1 " ] || fail "DROP TABLEs in one text: $out"
on_every "SELECT count(*) FROM pg_class WHERE relname IN ('ta', 'tb', 'tc', 'tf')" 0 "the dropped tables"
on_every "SELECT count(*) FROM gcluster.tables WHERE name IN ('ta', 'tb', 'tc', 'tf')" 0 "the dropped tables' catalog rows"
echo "ok: DROP TABLEs in one text dropped every table on every group"
