#!/bin/bash
# Each shard is a plain table on exactly one group (its owner in the catalog)
# and a foreign table pointing at the owner's FDW server on every other group;
# every shard physically holds exactly the rows PostgreSQL's own partitioning
# puts in the partition of that name: hash keys, range and list bounds, NULLs,
# unlisted values, and rows PostgreSQL refuses.
# usage: shard_placement.sh GCCTL DIR
GCCTL=$1
DIR=$2
source "$(dirname "$0")/lib.sh"
trap 'sql G1N1 "DROP SCHEMA IF EXISTS ref CASCADE" >/dev/null 2>&1' EXIT

# 1. relkind of every shard on every primary.
shards=$(sql G1N1 "SELECT name || ':' || group_name || ':' || table_name FROM gcluster.shards ORDER BY name")
[ -n "$shards" ] || fail "the catalog lists no shards"
for entry in $shards; do
    IFS=: read -r shard owner table <<<"$entry"
    plain=0
    for g in G1 G2; do
        p=$(primary_of "$g")
        got=$(sql "$p" "SELECT c.relkind::text || ':' || coalesce(fs.srvname, '-') || ':' || i.inhparent::regclass::text
                        FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid
                        LEFT JOIN pg_foreign_table ft ON ft.ftrelid = c.oid
                        LEFT JOIN pg_foreign_server fs ON fs.oid = ft.ftserver
                        WHERE c.oid = 'public.$shard'::regclass")
        if [ "$g" = "$owner" ]; then
            [ "$got" = "r:-:$table" ] || fail "$shard on $p: '$got', expected a plain partition of $table"
            plain=$((plain + 1))
        else
            [ "$got" = "f:$owner:$table" ] || fail "$shard on $p: '$got', expected a foreign partition on server $owner"
        fi
    done
    [ $plain -eq 1 ] || fail "$shard is plain on $plain groups"
done
echo "ok: $(echo "$shards" | wc -w) shards are plain on their owner only, foreign elsewhere"
for g in G1 G2; do
    got=$(sql "$(primary_of "$g")" "SELECT relkind::text FROM pg_class WHERE oid = 'public.settings'::regclass")
    want=f; [ "$g" = G1 ] && want=r
    [ "$got" = "$want" ] || fail "settings on $g is '$got', expected '$want'"
done
echo "ok: the solo table is plain on G1 and foreign on G2"

# 2. Reference tables: the same partitioned tables, all partitions local,
#    built from the cluster's own bounds; PostgreSQL places the rows itself.
sql G1N1 "DROP SCHEMA IF EXISTS ref CASCADE" "CREATE SCHEMA ref" "
DO \$\$ DECLARE t text; r record; BEGIN
  FOREACH t IN ARRAY ARRAY['accounts', 'measures', 'readings', 'labels', 'customers', 'pairs'] LOOP
    EXECUTE format('CREATE TABLE ref.%I (LIKE public.%I) PARTITION BY %s', t, t,
                   pg_get_partkeydef(format('public.%I', t)::regclass));
    FOR r IN SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = format('public.%I', t)::regclass LOOP
      EXECUTE format('CREATE TABLE ref.%I PARTITION OF ref.%I %s', r.relname, t, r.bound);
    END LOOP;
  END LOOP;
END \$\$"

# insert_both MEMBER TABLE VALUES: the same rows into the cluster (through
# MEMBER) and into the reference; both must accept, or both refuse.
insert_both() {
    local a b
    a=$(sql_may_fail "$1" "INSERT INTO public.$2 VALUES $3"); ra=$?
    b=$(sql_may_fail G1N1 "INSERT INTO ref.$2 VALUES $3"); rb=$?
    [ $ra -eq $rb ] || fail "$2 VALUES $3: cluster said '$a', PostgreSQL said '$b'"
    if [ $ra -ne 0 ]; then
        case "$a" in *"no partition of relation"*) ;; *) fail "$2: unexpected error '$a'" ;; esac
    fi
}
sql G1N1 "TRUNCATE accounts, measures, readings, labels, customers, pairs"
insert_both G1N1 accounts "$(seq -s, -f "(%g, 'x', 0)" -5000 7 5000 | sed 's/,$//')"
insert_both G2N1 accounts "(9223372036854775807, 'max', 0), (-9223372036854775808, 'min', 0), (4294967296, 'big', 0)"
insert_both G2N1 measures "('2010-01-01', 1), ('2019-12-31', 2), ('2020-01-01', 3), ('2029-12-31', 4), ('2030-01-01', 5), (NULL, 6), ('infinity', 7), ('-infinity', 8)"
insert_both G1N1 readings "(-1, 1), (99, 2), (100, 3), (199, 4)"
insert_both G1N1 readings "(200, 5)"          # beyond every bound: refused
insert_both G2N1 readings "(NULL, 6)"         # NULL without a default: refused
insert_both G1N1 labels "('a', 1), (NULL, 2), ('b', 3), ('zzz', 4), ('', 5), ('A', 6)"
insert_both G2N1 customers "('kr', 1, 'a'), ('jp', 2, 'b'), ('us', 3, 'c'), ('fr', 4, 'd'), ('KR', 5, 'e')"
insert_both G1N1 pairs "(1, 'x', 1), (2, NULL, 2), (3, 'hello', 3), (-7, '', 4), (2147483647, 'y', 5)"

# 3. Each shard, read on its owner (the plain table itself), holds exactly
#    the rows of the reference partition of the same name.
for entry in $(sql G1N1 "SELECT name || ':' || group_name || ':' || table_name FROM gcluster.shards
                         WHERE table_name IN ('accounts', 'measures', 'readings', 'labels', 'customers', 'pairs')"); do
    IFS=: read -r shard owner table <<<"$entry"
    q="SELECT coalesce(string_agg(r::text, ' ' ORDER BY r::text), '') FROM %s r"
    got=$(sql "$(primary_of "$owner")" "$(printf "$q" "public.$shard")")
    want=$(sql G1N1 "$(printf "$q" "ref.$shard")")
    [ "$got" = "$want" ] || fail "$shard on $owner holds '${got:0:200}', PostgreSQL puts '${want:0:200}'"
done
echo "ok: every shard holds the rows PostgreSQL places in it (hash, range, list, NULLs, unlisted, refused)"
echo PASS
