#!/bin/bash
# After inserts through different members, every member (primaries and
# standbys) answers the same count(*) for every table; standbys are in
# recovery, refuse writes and receive the rows.
# usage: rows_same_on_every_member.sh GCCTL DIR
GCCTL=$1
DIR=$2
source "$(dirname "$0")/lib.sh"
tables="accounts events customers settings measures labels pairs"

# Start from empty tables so the test can run again on the same cluster.
sql G1N1 "TRUNCATE accounts, events, customers, settings, measures, labels, pairs"

sql G1N1 "INSERT INTO accounts SELECT g, 'g1-' || g, g FROM generate_series(1, 500) g" \
         "INSERT INTO events VALUES (1, '2025-06-01', 'old'), (2, '2026-06-01', 'new')" \
         "INSERT INTO customers VALUES ('kr', 1, 'a'), ('us', 2, 'b')" \
         "INSERT INTO settings VALUES ('from', 'G1N1')"
sql G2N1 "INSERT INTO accounts SELECT g, 'g2-' || g, g FROM generate_series(501, 1000) g" \
         "INSERT INTO events VALUES (3, '2019-01-01', 'older'), (4, '2030-01-01', 'newer')" \
         "INSERT INTO customers VALUES ('jp', 3, 'c'), ('fr', 4, 'd')" \
         "INSERT INTO settings VALUES ('from2', 'G2N1')" \
         "UPDATE accounts SET balance = balance + 1 WHERE id % 10 = 0" \
         "DELETE FROM accounts WHERE id > 990"
sql G1N1 "INSERT INTO measures VALUES ('2010-01-01', 1), ('2025-01-01', 2), (NULL, 3)" \
         "INSERT INTO labels VALUES ('a', 1), (NULL, 2), ('zzz', 3)" \
         "INSERT INTO pairs VALUES (1, 'x', 1), (2, NULL, 2)"

expected="990|4|4|2|3|3|2"
count_query="SELECT $(for t in $tables; do printf "(SELECT count(*) FROM %s)||'|'||" "$t"; done | sed "s/||'|'||\$//")"
for m in $(members); do
    wait_until "$m" "$count_query" "$expected"
    echo "ok: $m counts $expected"
done

for g in G1 G2; do
    p=$(primary_of "$g")
    [ "$(sql "$p" "SELECT pg_is_in_recovery()")" = f ] || fail "$p is in recovery"
    for s in $(members "$g"); do
        [ "$s" = "$p" ] && continue
        [ "$(sql "$s" "SELECT pg_is_in_recovery()")" = t ] || fail "$s is not in recovery"
        out=$(sql_may_fail "$s" "INSERT INTO settings VALUES ('x', 'y')") && fail "$s accepted a write"
        case "$out" in *"read-only transaction"*) ;; *) fail "$s: unexpected refusal: $out" ;; esac
        # The standby's own copy of a local shard has the rows its primary got.
        shard=$(sql "$p" "SELECT name FROM gcluster.shards WHERE table_name = 'accounts' AND group_name = '$g' ORDER BY position LIMIT 1")
        wait_until "$s" "SELECT count(*) FROM $shard" "$(sql "$p" "SELECT count(*) FROM $shard")"
        echo "ok: $s is a standby of $p and has its rows"
    done
done
echo PASS
