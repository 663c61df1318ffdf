"""INSERT ... SELECT into a sharded table, atomic across groups (issue 16,
point 1 of the lead's open points): the driver runs the query on the
coordinator's session, places every row by its key and inserts each group's
rows on that group's primary, in batches, with the two phases of every write
across groups (docs/global-connection.md, "INSERT ... SELECT into a sharded
table").

usage: xact_insert_select.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

accounts is hash-sharded over G1, G2 and G3; it gets a column `note` with a
default. Every check is made on the servers: the rows on their owners' own
partitions, pg_stat_statements on each group's primary, pg_prepared_xacts.

(a) Autocommit, a column list and a default: rows of every group are
    inserted on each owner's primary by its own INSERT ... VALUES, none
    through postgres_fdw; the two groups that do not coordinate prepared;
    nothing left prepared. Without a column list the key is found by its
    position.
(b) A duplicate key on one group: 23505 naming the group, no row anywhere.
(c) Refused before anything is sent (0A000 / 90122): a column list without
    the key, RETURNING.
(d) In a transaction: the INSERT joins every group; before COMMIT no row is
    visible, ROLLBACK leaves none; a committed one has every row, and the
    query saw the transaction's own earlier write.
(e) Parameters in the query, the key not first in the column list, ON
    CONFLICT DO NOTHING; a query of no row inserts none.
(f) 100,000 rows from generate_series: applied on every group, and the
    client's peak RSS grows by less than 16 MB over a 1,000-row run (rows
    of 200 bytes: the whole result would need 20 MB and more).
(g) An INSERT ... SELECT into a table that is not sharded keeps its path.
(h) A parameter array of INSERT ... SELECT ?, ? in autocommit, prepared
    and bound as a C program does it (not described: BatchSize rows per
    transaction, as a general connection pipelines it): each row is a write
    across groups, run one by one, and the rows go in one transaction.
    With row 4 a duplicate key: SQL_ERROR, rows 1-3 SQL_PARAM_ERROR (ran on
    their owners' primaries, undone), rows 5-6 SQL_PARAM_UNUSED, processed
    4, no row stored; without it, every row stored on its owner. In a
    transaction the array is one statement for the rollback level (level
    2): with row 3 a duplicate key, rows 1-2 SQL_PARAM_ERROR, undone, while
    the transaction's keyed INSERT before the array commits.
(i) In a transaction whose member in G1 coordinates, after keyed writes on
    G1 and G2: an INSERT ... SELECT whose query reads accounts sees the
    transaction's write on G2 (G2's member sends its rows, once; the
    coordinator's own postgres_fdw reads G2 not at all), and COMMIT applies
    the copies with the written balances. Before, refused (0A000 / 90122).
(j) Upserts, INSERT ... ON CONFLICT (id) DO UPDATE (the parent has no
    unique index, a table with foreign partitions cannot have one: each
    row goes into its own leaf partition on its owner): a literal row in
    autocommit (SQLExecDirect, not routed by key otherwise) and a row with
    parameters and RETURNING update it, each run once on its owner's
    primary into the leaf and nowhere else; in a transaction, VALUES rows
    of several leaves and groups, an INSERT ... SELECT of rows for every
    group and a parameter array update and insert as one server would.
    Before, each failed 42P10. A transaction that begins with an upsert of
    rows in two of G2's leaves (run on G2 alone) then reads every group
    (postgres_fdw on G2): before, that read was refused (0A000)."""
import subprocess
import sys

from xact_array import (SQL_ERROR, SQL_PARAM_ERROR, SQL_PARAM_SUCCESS, SQL_PARAM_UNUSED,
                         SQL_SUCCESS, UndescribedArray)
from xact_lib import (GROUPS, calls, connect, connection_string, expect_error, fail, helper,
                      in_transaction_on, log, nothing_left, owners, prepared_by_the_others,
                      primary, reset_statements, su)

APP = "xins"
P = {g: primary(g) for g in GROUPS}


def local_rows(group, where):
    """{id: (balance, note)} of the rows matching where that group's primary
    holds in its own (plain, not foreign) partitions."""
    parts = su(P[group], "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = "
                         "i.inhrelid WHERE i.inhparent = 'accounts'::regclass AND c.relkind = 'r'")
    out = su(P[group], " UNION ALL ".join(
        f"SELECT id, balance, note FROM {p} WHERE {where}" for p in parts.split()))
    rows = {}
    for line in out.splitlines():
        i, b, n = line.split(" ")
        rows[int(i)] = (int(b), n)
    return rows


def all_rows(where):
    every = {}
    for g in GROUPS:
        every.update(local_rows(g, where))
    return every


def count_everywhere(where):
    return sum(len(local_rows(g, where)) for g in GROUPS)


def no_forwarded_insert(what):
    """postgres_fdw forwards an INSERT as `INSERT INTO public.accounts_N`."""
    for g in GROUPS:
        n = calls(P[g], "INSERT INTO public.accounts%")
        if n:
            fail(f"{what}: {P[g]} received {n} INSERTs through postgres_fdw")


def own_inserts(what, pattern, rows_by_group):
    """Every group with rows ran its own INSERT ... VALUES."""
    for g in GROUPS:
        got = calls(P[g], pattern)
        if rows_by_group[g] and got < 1:
            fail(f"{what}: {P[g]} ran no '{pattern}' for its {rows_by_group[g]} rows")
        log(f"{what}: {P[g]} ran {got} INSERTs for its {rows_by_group[g]} rows")


helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
BY_GROUP = owners()
A = BY_GROUP["G1"][0]
Z = BY_GROUP["G2"][0]
auto = connect(APP, autocommit=True)
acur = auto.cursor()
acur.execute("ALTER TABLE accounts ADD COLUMN note text NOT NULL DEFAULT 'dflt'")

# ---- (a) autocommit, column list and default ----
reset_statements()
acur.execute("INSERT INTO accounts (id, balance) SELECT id + 1000, balance + 1 FROM accounts "
              "WHERE id <= 30")
if acur.rowcount != 30:
    fail(f"(a) row count {acur.rowcount}, expected 30")
got = all_rows("id > 1000")
want = {i + 1000: (101, "dflt") for i in range(1, 31)}
if got != want:
    fail(f"(a) rows on their owners {got}, expected {want}")
per_group = {g: len(local_rows(g, "id > 1000")) for g in GROUPS}
if sum(1 for g in GROUPS if per_group[g]) < 3:
    fail(f"(a) the rows should belong to every group: {per_group}")
own_inserts("(a)", "INSERT INTO accounts (id, balance) VALUES%", per_group)
no_forwarded_insert("(a)")
prepared_on = prepared_by_the_others("(a)")
nothing_left("(a)")
reset_statements()
acur.execute("INSERT INTO accounts SELECT g, g, 'gen' FROM generate_series(2001, 2030) g")
got = all_rows("id > 2000")
if got != {g: (g, "gen") for g in range(2001, 2031)}:
    fail(f"(a) without a column list: {got}")
no_forwarded_insert("(a) without a column list")
nothing_left("(a) without a column list")
log(f"ok (a): each group inserted its own rows ({per_group}); prepared on {prepared_on}")

# ---- (b) a duplicate key on one group ----
reset_statements()
expect_error("(b) a duplicate key on one group", lambda: acur.execute(
    f"INSERT INTO accounts (id, balance) SELECT g, 0 FROM generate_series(3001, 3009) g "
    f"UNION ALL SELECT {Z}, 0"), "23505", says="of group G2")
if count_everywhere("id > 3000"):
    fail(f"(b) rows of the failed INSERT were left: {all_rows('id > 3000')}")
no_forwarded_insert("(b)")
nothing_left("(b)")
log("ok (b): a duplicate key on one group left no row anywhere")

# ---- (c) refused before anything is sent ----
reset_statements()
expect_error("(c) the key is not in the column list", lambda: acur.execute(
    "INSERT INTO accounts (balance) SELECT 1"), "0A000", 90122, says="sharding key column id")
expect_error("(c) RETURNING", lambda: acur.execute(
    "INSERT INTO accounts SELECT 4001, 1 RETURNING id"), "0A000", 90122, says="RETURNING")
for g in GROUPS:
    if calls(P[g], "INSERT%") or calls(P[g], "DECLARE%"):
        fail(f"(c) {P[g]} was sent a refused INSERT ... SELECT")
log("ok (c): no key column, RETURNING: 0A000 / 90122, nothing sent")

# ---- (d) in a transaction ----
conn = connect(APP)
cur = conn.cursor()
reset_statements()
cur.execute("UPDATE accounts SET balance = 777 WHERE id = ?", A)
cur.execute("INSERT INTO accounts (id, balance) SELECT id + 4000, balance FROM accounts "
            "WHERE id <= 30")
for g in GROUPS:
    if not in_transaction_on(P[g], APP):
        fail(f"(d) {P[g]} holds no open transaction before COMMIT")
if int(helper("app", "G1N1", "SELECT count(*) FROM accounts WHERE id > 4000")):
    fail("(d) rows of the open transaction are visible before its end")
conn.rollback()
if count_everywhere("id > 4000"):
    fail("(d) a rolled-back INSERT ... SELECT left rows")
nothing_left("(d) rollback")
cur.execute("UPDATE accounts SET balance = 777 WHERE id = ?", A)
cur.execute("INSERT INTO accounts (id, balance) SELECT id + 4000, balance FROM accounts "
            "WHERE id <= 30")
conn.commit()
got = all_rows("id > 4000")
if len(got) != 30 or got[A + 4000] != (777, "dflt"):
    fail(f"(d) committed rows {got}: expected 30, {A + 4000} with the transaction's 777")
no_forwarded_insert("(d)")
nothing_left("(d) commit")
log("ok (d): in a transaction, ROLLBACK left nothing; COMMIT applied every row, the query "
    "saw the transaction's own write")

# ---- (e) parameters, ON CONFLICT ----
# (ON CONFLICT with a conflict target needs a unique index on the parent,
# which a table with foreign partitions cannot have: DO NOTHING.)
sql = ("INSERT INTO accounts (balance, id) SELECT ?, g FROM generate_series(?, ?) g "
       "ON CONFLICT DO NOTHING")
acur.execute(sql, 7, 5001, 5012)
first = acur.rowcount
acur.execute(sql, 8, 5007, 5018)
second = acur.rowcount
got = all_rows("id > 5000")
want = {g: (7 if g <= 5012 else 8, "dflt") for g in range(5001, 5019)}
acur.execute("INSERT INTO accounts (id, balance) SELECT id, 0 FROM accounts WHERE id < 0")
none = acur.rowcount
if (first, second, none) != (12, 6, 0) or got != want:
    fail(f"(e) row counts {first}, {second}, {none} (expected 12, 6, 0); rows {got}, expected "
         f"{want}")
nothing_left("(e)")
log("ok (e): parameters in the query, the key second in the column list, ON CONFLICT DO "
    "NOTHING on every group")

# ---- (f) 100,000 rows, bounded client memory ----
PROBE = """
import resource, sys, time, pyodbc
c = pyodbc.connect(sys.argv[1], autocommit=True)
cur = c.cursor()
t = time.monotonic()
cur.execute(sys.argv[2])
took = time.monotonic() - t
print(cur.rowcount, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, f"{took:.2f}")
"""


def peak_rss_kb(sql):
    out = subprocess.run([sys.executable, "-c", PROBE, connection_string(APP), sql],
                         capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        fail(f"(f) the probe failed: {out.stderr}")
    rows, rss, took = out.stdout.split()
    return int(rows), int(rss), took


BIG = ("INSERT INTO accounts SELECT g, g, repeat('x', 200) FROM generate_series({}, {}) g")
reset_statements()
small_rows, small_rss, small_s = peak_rss_kb(BIG.format(100001, 101000))
big_rows, big_rss, big_s = peak_rss_kb(BIG.format(200001, 300000))
log(f"(f) peak RSS: {small_rss} kB for {small_rows} rows ({small_s} s), {big_rss} kB for "
    f"{big_rows} rows ({big_s} s): +{big_rss - small_rss} kB")
if small_rows != 1000 or big_rows != 100000:
    fail(f"(f) row counts {small_rows}, {big_rows}")
if int(helper("app", "G1N1", "SELECT count(*) FROM accounts WHERE id > 200000")) != 100000:
    fail("(f) the 100,000 rows are not all there")
counts = {g: len(local_rows(g, "id > 200000 AND id % 1000 = 0")) for g in GROUPS}
if any(n == 0 for n in counts.values()):
    fail(f"(f) sampled rows are not on every group: {counts}")
no_forwarded_insert("(f)")
nothing_left("(f)")
if big_rss - small_rss > 16 * 1024:
    fail(f"(f) the client's peak RSS grew by {big_rss - small_rss} kB for 100,000 rows")
acur.execute("DELETE FROM accounts WHERE id > 100000")
log("ok (f): 100,000 rows on their groups, client memory bounded")

# ---- (g) a table that is not sharded ----
acur.execute("CREATE TABLE plain_log (id bigint, what text)")
reset_statements()
acur.execute("INSERT INTO plain_log SELECT g, 'x' FROM generate_series(1, 5) g")
if acur.rowcount != 5:
    fail(f"(g) row count {acur.rowcount}")
pulled = sum(calls(P[g], "INSERT INTO plain_log VALUES%") for g in GROUPS)
kept = sum(calls(P[g], "INSERT INTO plain_log SELECT%") for g in GROUPS)
if pulled or kept != 1:
    fail(f"(g) a table that is not sharded: {pulled} INSERT ... VALUES sent, {kept} INSERT ... "
         "SELECT (expected 0 and 1)")
log("ok (g): an INSERT ... SELECT into a table that is not sharded keeps its path")

# ---- (h) a parameter array, each row a write across groups ----
ARRAY = "INSERT INTO accounts (id, balance) SELECT ?, ?"
ids = [6001, 6002, 6003, Z, 6005, 6006]
reset_statements()
array = UndescribedArray("xins_array", ARRAY, ids, "(h)")
rc = array.run()
statuses, processed = list(array.status), array.processed.value
array.close()
want = [SQL_PARAM_ERROR] * 4 + [SQL_PARAM_UNUSED] * 2
if rc != SQL_ERROR or statuses != want or processed != 4:
    fail(f"(h) SQLExecute {rc}, statuses {statuses}, processed {processed}; expected "
         f"{SQL_ERROR}, {want}, 4")
ran = sum(calls(P[g], "INSERT INTO accounts (id, balance) VALUES%") for g in GROUPS)
if ran < 3:
    fail(f"(h) the owners ran {ran} INSERTs: rows 1-3 should have run before row 4 failed")
if count_everywhere("id BETWEEN 6001 AND 6006"):
    fail(f"(h) rows of the failed array were kept: {all_rows('id BETWEEN 6001 AND 6006')}")
nothing_left("(h) failed array")
ids[3] = 6004
array = UndescribedArray("xins_array", ARRAY, ids, "(h)")
rc = array.run()
statuses = list(array.status)
array.close()
got = all_rows("id BETWEEN 6001 AND 6006")
if rc != SQL_SUCCESS or statuses != [SQL_PARAM_SUCCESS] * 6 or sorted(got) != ids:
    fail(f"(h) SQLExecute {rc}, statuses {statuses}, rows {sorted(got)}")
nothing_left("(h) array")
array = UndescribedArray("xins_array", ARRAY, [6101, 6102, Z, 6104], "(h)", autocommit=False)
array.direct("INSERT INTO accounts (id, balance) VALUES (6100, 1)")
rc = array.run()
statuses, processed = list(array.status), array.processed.value
array.commit()
array.close()
want = [SQL_PARAM_ERROR] * 3 + [SQL_PARAM_UNUSED]
got = sorted(all_rows("id BETWEEN 6100 AND 6104"))
if rc != SQL_ERROR or statuses != want or processed != 3 or got != [6100]:
    fail(f"(h) in a transaction: SQLExecute {rc}, statuses {statuses}, processed {processed}, "
         f"rows {got}; expected {SQL_ERROR}, {want}, 3, [6100]")
nothing_left("(h) array in a transaction")
log(f"ok (h): an array of INSERT ... SELECT rows failing at row 4 kept none of rows 1-3 "
    f"({ran} INSERTs ran and were undone); the array without it stored all 6; in a "
    f"transaction the failed array was undone whole and the transaction's own row committed")

# ---- (i) the query reads a write the transaction made on another group ----
cur.execute("UPDATE accounts SET balance = 1 WHERE id = ?", A)
cur.execute("UPDATE accounts SET balance = 888 WHERE id = ?", Z)
reset_statements()
cur.execute("INSERT INTO accounts (id, balance) SELECT id + 7000, balance FROM accounts "
            "WHERE id IN (?, ?)", A, Z)
if cur.rowcount != 2:
    fail(f"(i) row count {cur.rowcount}, expected 2")
sent = calls(P["G2"], "SELECT count(*), coalesce(json_agg(gc_r)%")
through_fdw = calls(P["G2"], "DECLARE%accounts%")
if sent != 1 or through_fdw != 0:
    fail(f"(i) G2 sent its rows {sent} times (expected 1) and answered {through_fdw} "
         "postgres_fdw cursors over accounts (expected 0)")
conn.commit()
got = all_rows("id > 7000")
if got != {A + 7000: (1, "dflt"), Z + 7000: (888, "dflt")}:
    fail(f"(i) committed rows {got}: expected {A + 7000} with 1 and {Z + 7000} with the "
         "transaction's 888")
nothing_left("(i)")
log("ok (i): the query of an INSERT ... SELECT saw the transaction's write on another group "
    "(its member sent the rows once) and COMMIT applied both copies")

# ---- (j) upserts ----
UPSERT = "ON CONFLICT (id) DO UPDATE SET balance = accounts.balance + excluded.balance"
reset_statements()
acur.execute(f"INSERT INTO accounts (id, balance) VALUES ({Z}, 1) {UPSERT}")
into_leaf = {g: calls(P[g], "INSERT INTO public.accounts_% AS accounts (id, balance)%") for g in GROUPS}
through_parent = sum(calls(P[g], "INSERT INTO accounts (id, balance)%") for g in GROUPS)
if into_leaf != {"G1": 0, "G2": 1, "G3": 0} or through_parent:
    fail(f"(j) a literal upsert ran into the leaf {into_leaf} (expected once on G2) and "
         f"{through_parent} times into the parent")
got = acur.execute("INSERT INTO accounts AS a (id, balance) VALUES (?, ?) ON CONFLICT (id) DO "
                   "UPDATE SET balance = a.balance + excluded.balance RETURNING balance",
                   Z, 10).fetchall()
if [tuple(r) for r in got] != [(local_rows("G2", f"id = {Z}")[Z][0],)]:
    fail(f"(j) RETURNING of an upsert with parameters gave {got}")
before = {i: all_rows(f"id = {i}")[i][0] for i in (A, Z)}
cur.execute(f"INSERT INTO accounts (id, balance) VALUES ({A}, 5), ({Z}, 5), (8001, 5), "
            f"(8002, 5), (8003, 5) {UPSERT}")
if cur.rowcount != 5:
    fail(f"(j) VALUES rows of several leaves: row count {cur.rowcount}, expected 5")
cur.execute(f"INSERT INTO accounts (id, balance) SELECT g, 1 FROM generate_series(8001, 8030) g "
            f"{UPSERT}")
cur.fast_executemany = True
cur.executemany(f"INSERT INTO accounts (id, balance) VALUES (?, ?) {UPSERT}",
                [(8001, 100), (8031, 7)])
cur.fast_executemany = False
conn.commit()
got = all_rows("id > 8000")
want = {i: (6 if i in (8002, 8003) else 1, "dflt") for i in range(8001, 8031)}
want[8001] = (106, "dflt")
want[8031] = (7, "dflt")
after = {i: all_rows(f"id = {i}")[i][0] for i in (A, Z)}
if got != want or after != {i: before[i] + 5 for i in (A, Z)}:
    fail(f"(j) after the upserts: rows {got}, expected {want}; {after}, expected 5 more than "
         f"{before}")
by_group = {g: len(local_rows(g, "id > 8000")) for g in GROUPS}
if sum(by_group.values()) != 31 or min(by_group.values()) == 0:
    fail(f"(j) the upserted rows are not on every group's own partitions: {by_group}")
# A transaction that begins with an upsert of rows in two leaves of G2
# only (a write across leaves, run on G2 alone): a read of every group in
# it reads G1's and G3's rows through postgres_fdw on G2, which holds all
# the transaction wrote. Before, it was refused (0A000), as if the write
# had run on every group.
two = helper("app", P["G2"], "SELECT string_agg(id::text, ',') FROM (SELECT min(a.id) AS id "
                             "FROM accounts a JOIN pg_class c ON c.oid = a.tableoid "
                             "WHERE c.relkind = 'r' AND a.id < 8000 GROUP BY a.tableoid) m")
pair = [int(x) for x in two.split(",")][:2]
if len(pair) != 2:
    fail(f"(j) G2 should own rows in two leaves: {two!r}")
cur.execute(f"INSERT INTO accounts (id, balance) VALUES ({pair[0]}, 1), ({pair[1]}, 1) {UPSERT}")
if in_transaction_on(P["G1"], APP) or in_transaction_on(P["G3"], APP):
    fail("(j) the upsert of G2's rows joined G1 or G3")
got = cur.execute("SELECT count(*) FROM accounts WHERE id > 8000").fetchone()[0]
if got != 31:
    fail(f"(j) after an upsert of two of G2's leaves, a read of every group counted {got}, "
         "expected 31")
conn.rollback()
nothing_left("(j)")
log(f"ok (j): upserts ran into their leaves on the owners (literal, parameters with RETURNING, "
    f"VALUES of several leaves, INSERT ... SELECT, an array): rows by group {by_group}")

conn.close()
auto.close()
print(f"ok: INSERT ... SELECT into a sharded table applies on every group or on none; "
      f"100,000 rows with peak RSS {big_rss} kB (1,000 rows: {small_rss} kB)", flush=True)
