#!/bin/bash
# move-shard under a concurrent insert/update workload (~10 s, through three
# groups): every acknowledged insert is present exactly once, every
# acknowledged update applied exactly once, the shard ends up plain on the
# new owner only, and the catalog and version say so.
# usage: move_shard.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/lib.sh"
own_cluster "$SPEC"
work=$(mktemp -d)
trap '"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# A third group, so that a group that neither gives nor takes the shard
# has to follow the move too.
"$GCCTL" add-group G3 --member G3N1 --dir "$DIR" || fail "add-group"

shard=accounts_0   # remainder 0 of 8, on G1
in_shard="satisfies_hash_partition('accounts'::regclass, 8, 0, id::bigint)"
# 20,000 rows already there, 300 of them in the shard get updated by clients.
sql G1N1 "INSERT INTO accounts SELECT g, 'old', 0 FROM generate_series(1, 160000) g"
sql G1N1 "SELECT id FROM generate_series(1, 160000) id WHERE $in_shard LIMIT 300" >"$work/update_ids"
[ "$(wc -l <"$work/update_ids")" -eq 300 ] || fail "no rows to update"

# The workload runs inside each server as a procedure that commits every
# statement and then reports it with a NOTICE: a reported row is one the
# server acknowledged. Bash restarts it after an error, past the last
# acknowledged key.
procedure="CREATE OR REPLACE PROCEDURE move_workload(n int, first bigint, upd bigint[], until timestamptz)
LANGUAGE plpgsql AS \$\$
DECLARE id bigint := first; i int := 0; u bigint;
BEGIN
  WHILE clock_timestamp() < until LOOP
    IF satisfies_hash_partition('accounts'::regclass, 8, 0, id) THEN
      INSERT INTO accounts VALUES (id, 'c' || n, 0);
      COMMIT;
      RAISE NOTICE 'ins %', id;
      i := i + 1;
      u := upd[1 + (i * 7 + n) % array_length(upd, 1)];
      UPDATE accounts SET balance = balance + 1 WHERE accounts.id = u;
      COMMIT;
      RAISE NOTICE 'upd %', u;
    END IF;
    id := id + 1;
  END LOOP;
END \$\$"
for m in G1N1 G2N1 G3N1; do sql "$m" "$procedure"; done
upd="ARRAY[$(paste -sd, "$work/update_ids")]::bigint[]"

# client N MEMBER: runs the workload for 10 s, collecting acknowledgements.
client() {
    local n=$1 member=$2 until next
    until=$(sql "$member" "SELECT clock_timestamp() + interval '10 s'")
    next=$((n * 10000000))
    while [ "$(sql "$member" "SELECT clock_timestamp() < '$until'")" = t ]; do
        psql -X -q -At -h 127.0.0.1 -p "$(port_of "$member")" -U app -d app \
             -c "CALL move_workload($n, $next, $upd, '$until')" 2>>"$work/log.$n" >/dev/null
        last=$(sed -n 's/^NOTICE:  ins //p' "$work/log.$n" | tail -1)
        [ -n "$last" ] && next=$((last + 1))
    done
    sed -n 's/^NOTICE:  ins //p' "$work/log.$n" >"$work/acked.$n"
    sed -n 's/^NOTICE:  upd //p' "$work/log.$n" >"$work/updated.$n"
    grep -c ERROR "$work/log.$n" >"$work/errors.$n"
}
client 1 G1N1 & c1=$!
client 2 G2N1 & c2=$!
client 3 G3N1 & c3=$!
sleep 3
v0=$(sql G1N1 "SELECT version FROM gcluster.version")
start=$(date +%s.%N)
"$GCCTL" move-shard accounts $shard --to G2 --dir "$DIR" || fail "move-shard"
echo "move-shard took $(echo "$(date +%s.%N) - $start" | bc) s"
wait $c1 $c2 $c3

cat "$work"/acked.* | sort -n >"$work/acked"
cat "$work"/updated.* | sort -n | uniq -c | awk '{print $2 "|" $1}' | sort >"$work/want_balances"
echo "clients: $(wc -l <"$work/acked") inserts and $(cat "$work"/updated.* | wc -l) updates acknowledged," \
     "$(cat "$work"/errors.* | paste -sd+ | bc) workload restarts after an error"
grep -h ERROR "$work"/log.* | sed 's/[0-9]\{3,\}/N/g' | sort | uniq -c | head -5
[ "$(wc -l <"$work/acked")" -gt 1000 ] || fail "the workload did too little to prove anything"

for m in G1N1 G2N1 G3N1; do
    sql "$m" "SELECT id FROM accounts WHERE id >= 1000000 ORDER BY id" >"$work/have.$m"
    diff -q "$work/acked" "$work/have.$m" >/dev/null ||
        fail "$m: inserted rows differ from the acknowledged ones: $(diff "$work/acked" "$work/have.$m" | head -5 | tr '\n' ' ')"
    sql "$m" "SELECT id || '|' || balance::int FROM accounts WHERE id < 1000000 AND balance > 0" | sort >"$work/bal.$m"
    diff -q "$work/want_balances" "$work/bal.$m" >/dev/null ||
        fail "$m: balances differ from acknowledged updates: $(diff "$work/want_balances" "$work/bal.$m" | head -5 | tr '\n' ' ')"
    [ "$(sql "$m" "SELECT count(*) FROM accounts")" = $((160000 + $(wc -l <"$work/acked"))) ] || fail "$m: total count"
done
echo "ok: every acknowledged insert present once, every acknowledged update applied once, on every group"

# Placement after the move.
for g in G1 G2 G3; do
    got=$(sql "$(primary_of "$g")" "SELECT c.relkind::text || ':' || coalesce(fs.srvname, '-') FROM pg_class c
          LEFT JOIN pg_foreign_table ft ON ft.ftrelid = c.oid LEFT JOIN pg_foreign_server fs ON fs.oid = ft.ftserver
          WHERE c.oid = 'public.$shard'::regclass")
    want="f:G2"; [ "$g" = G2 ] && want="r:-"
    [ "$got" = "$want" ] || fail "$shard on $g is '$got', expected '$want'"
    [ "$(sql "$(primary_of "$g")" "SELECT group_name FROM gcluster.shards WHERE name = '$shard'")" = G2 ] || fail "$g catalog"
    [ "$(sql "$(primary_of "$g")" "SELECT count(*) FROM pg_prepared_xacts")" = 0 ] || fail "$g: prepared transactions left"
    [ "$(sql "$(primary_of "$g")" "SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'public.$shard'::regclass")" = app ] \
        || fail "$shard on $g is not owned by the application role"
done
[ "$(sql G2N1 "SELECT count(*) FROM $shard WHERE NOT $in_shard")" = 0 ] || fail "rows of other shards in $shard"
wait_until G2N2 "SELECT count(*) FROM $shard" "$(sql G2N1 "SELECT count(*) FROM $shard")"
v1=$(sql G3N1 "SELECT version FROM gcluster.version")
[ "$v1" -gt "$v0" ] || fail "move-shard did not raise the version"
"$GCCTL" status --dir "$DIR" | grep -E "^  $shard +G2 " >/dev/null || fail "status does not show $shard on G2"
grep -q "{name: $shard, group: G2" "$DIR/cluster.yaml" || fail "cluster.yaml does not place $shard on G2"
echo "ok: $shard is plain on G2 only, foreign on G1 and G3, version $v0 -> $v1"
echo PASS
