#!/bin/bash
# Fixture: brings up the routing cluster (3 groups x 2 members), fills
# accounts with ROWS rows (ids 1..ROWS, each written straight into its owner
# group's local shard, so loading does not depend on postgres_fdw or on the
# driver), and writes DIR/witnesses: one line per member, "NAME CONNINFO",
# the superuser's libpq conninfo through the member's private socket
# directory (pg_stat_statements_reset() needs a superuser).
# usage: cluster_up.sh GCCTL SPEC DIR [ROWS]
GCCTL=$1
SPEC=$2
DIR=$3
ROWS=${4:-30000}
source "$(dirname "$0")/../gcctl/lib.sh"

"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true   # left over from an aborted run
rm -f "$DIR/witnesses"
# A failed setup leaves nothing running (ctest's cleanup finds nothing to do).
trap '[ -s "$DIR/witnesses" ] || "$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true' EXIT
"$GCCTL" local up "$SPEC" --dir "$DIR" || fail "local up"

for g in $(sed -n 's/.*group: \([A-Za-z0-9_]*\),.*/\1/p' "$DIR/locator.yaml" | uniq); do
    sql "$(primary_of "$g")" "
      DO \$\$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT c.relname,
                        substring(pg_get_expr(c.relpartbound, c.oid) from 'modulus (\d+)')::int AS modulus,
                        substring(pg_get_expr(c.relpartbound, c.oid) from 'remainder (\d+)')::int AS remainder
                   FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                  WHERE i.inhparent = 'accounts'::regclass AND c.relkind = 'r'
        LOOP
          EXECUTE format('INSERT INTO %I SELECT g, 1000 FROM generate_series(1, $ROWS) g
                           WHERE satisfies_hash_partition(''accounts''::regclass, %s, %s, g::bigint)',
                         r.relname, r.modulus, r.remainder);
        END LOOP;
      END \$\$"
done
[ "$(sql G1N1 "SELECT count(*) FROM accounts")" = "$ROWS" ] || fail "accounts does not hold $ROWS rows"

base=$(sed -n 's/^base: //p' "$DIR/local.state")
os_user=$(sed -n 's/^user: //p' "$DIR/local.state")
for m in $(members); do
    echo "$m host=$base/sock port=$(port_of "$m") dbname=app user=$os_user connect_timeout=5"
done >"$DIR/witnesses"
# Standbys have replayed the rows before any test reads them.
for m in $(members); do
    wait_until "$m" "SELECT count(*) FROM accounts" "$ROWS"
done
echo "routing cluster up: $(members | wc -l) members, $ROWS accounts"
