#!/bin/bash
# The sequences of sharded tables hand out each value once in the whole
# cluster (docs/cluster.md, "Sequences of sharded tables"): every group's
# copy steps by 100 from its position, apply brings copies that are not
# interleaved (an older cluster's) into the interleave above every value
# handed out, and a global connection's INSERT without the key, on whatever
# group it runs, gets a key no other row has.
# usage: sequences.sh GCCTL DIR
GCCTL=$1
DIR=$2
source "$(dirname "$0")/lib.sh"

# next_of MEMBER SEQUENCE: "<step> <the value it hands out next>".
next_of() {
    sql "$1" "SELECT q.seqincrement || ' ' || CASE WHEN s.is_called THEN s.last_value + q.seqincrement
                                                  ELSE s.last_value END
              FROM $2 s, pg_sequence q WHERE q.seqrelid = '$2'::regclass"
}

# 1. As made: step 100, G1's values end in 01, G2's in 02.
for seq in orders_id_seq tickets_id_seq; do
    for g in G1:1 G2:2; do
        read -r step next <<<"$(next_of "$(primary_of "${g%:*}")" "$seq")"
        [ "$step" = 100 ] || fail "$seq on ${g%:*} steps by $step"
        [ $((next % 100)) = "${g#*:}" ] || fail "$seq on ${g%:*} hands out $next next"
    done
done
echo "ok: serial and identity sequences step by 100 from each group's position"

# 2. Drawn on both groups (through postgres_fdw for the other group's rows):
#    no key twice.
sql G1N1 "TRUNCATE orders, tickets"
sql G1N1 "INSERT INTO orders (item) SELECT 'g1' FROM generate_series(1, 60)" \
         "INSERT INTO tickets (item) SELECT 'g1' FROM generate_series(1, 30)"
sql G2N1 "INSERT INTO orders (item) SELECT 'g2' FROM generate_series(1, 60)" \
         "INSERT INTO tickets (item) SELECT 'g2' FROM generate_series(1, 30)"
got=$(sql G1N1 "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || count(*) FILTER (WHERE id % 100 <> CASE item WHEN 'g1' THEN 1 ELSE 2 END)
                FROM orders")
[ "$got" = "120 120 0" ] || fail "orders: rows, distinct keys, keys off their group's residue: $got"
got=$(sql G2N1 "SELECT count(*) || ' ' || count(DISTINCT id) FROM tickets")
[ "$got" = "60 60" ] || fail "tickets: rows and distinct keys $got"
echo "ok: 120 keys drawn on two groups, each once"

# 3. An older cluster's copies (step 1, values drawn on both) are restarted
#    above every value handed out, each at its group's place.
sql G1N1 "ALTER SEQUENCE orders_id_seq INCREMENT BY 1 RESTART WITH 500" "SELECT nextval('orders_id_seq')" >/dev/null
sql G2N1 "ALTER SEQUENCE orders_id_seq INCREMENT BY 1 RESTART WITH 37" "SELECT nextval('orders_id_seq')" >/dev/null
out=$("$GCCTL" apply --dir "$DIR") || fail "apply: $out"
[ "$out" != "nothing to change" ] || fail "apply left step-1 sequences alone"
[ "$(next_of G1N1 orders_id_seq)" = "100 601" ] || fail "G1 after apply: $(next_of G1N1 orders_id_seq)"
[ "$(next_of G2N1 orders_id_seq)" = "100 602" ] || fail "G2 after apply: $(next_of G2N1 orders_id_seq)"
out=$("$GCCTL" apply --dir "$DIR") || fail "apply: $out"
[ "$out" = "nothing to change" ] || fail "second apply: $out"
echo "ok: apply restarts old copies above the highest value (601, 602), then leaves them"

# 4. A global connection (the demo DSN: LocalityGroupPolicy 0, a random
#    group per statement) inserts without the key, autocommit: every INSERT
#    succeeds, whichever group draws and whichever owns the row.
sql G1N1 "TRUNCATE orders"
out=$(run_client /usr/bin/python3 - <<'PY' 2>&1
import pyodbc
c = pyodbc.connect("DSN=demo", autocommit=True)
cur = c.cursor()
for i in range(40):
    cur.execute("INSERT INTO orders (item) VALUES (?)", "odbc%d" % i)
cur.execute("INSERT INTO orders (item) VALUES ('direct') RETURNING id")
print(cur.fetchone()[0] % 100 in (1, 2))
PY
) || fail "pyodbc: $out"
[ "$out" = True ] || fail "RETURNING gave no key of the interleave: $out"
got=$(sql G1N1 "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || count(DISTINCT id % 100) FROM orders")
[ "$got" = "41 41 2" ] || fail "orders after the global connection's inserts (rows, keys, groups drawn): $got"
echo "ok: 41 inserts without the key through a global connection, drawn on both groups, each key once"
echo PASS
