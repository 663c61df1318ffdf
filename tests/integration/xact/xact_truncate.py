"""TRUNCATE of tables whose rows live in several groups, atomic (issue 16,
point 2): each group truncates its own leaf partitions and the solo tables
it owns, in one transaction across groups; nothing goes through
postgres_fdw (docs/global-connection.md, "TRUNCATE across groups").

usage: xact_truncate.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

accounts is hash-sharded over G1, G2 and G3; notes is a solo table the
driver makes (one owner group, foreign twins elsewhere), notes_tags a solo
table referencing it (so on the same group). Every check is made on the
servers: the rows each group holds in its own tables, pg_stat_statements
on each group's primary for what ran there.

(a) Autocommit `TRUNCATE accounts`: every group's own partitions are empty;
    each primary ran one TRUNCATE naming exactly its own partitions, and
    none ran postgres_fdw's (which always says `... IDENTITY`); the two
    groups that do not coordinate ran PREPARE TRANSACTION; nothing is left
    prepared. `RESTART IDENTITY` reaches every group as written.
(b) In a transaction (pyodbc's default): `TRUNCATE accounts, notes
    CASCADE`, every group holding the transaction before COMMIT; ROLLBACK
    leaves every row where it was, on every group; the same with COMMIT
    empties accounts everywhere, notes and (CASCADE, on notes' owner)
    notes_tags.
(c) One group cannot take its part (another transaction holds a lock on
    G2's partition, lock_timeout 300 ms): 55P03 naming G2, and no row
    changed on any group (G1, the coordinator, had truncated first).
(d) Without CASCADE, notes_tags' key makes notes' owner refuse its part
    (0A000): nothing truncated anywhere. `TRUNCATE ONLY accounts` runs on
    one member, which refuses it (42809).
(e) A group's primary killed while its part runs (the TRUNCATE waits there
    for a row lock another transaction holds): 40001 / 19068 naming G3;
    the autocommit statement's loss is told once, so the next TRUNCATE is
    refused before anything is sent (08S01 naming G3); no row changed on
    the other groups.
(f) A TRUNCATE of one group's table (notes) keeps the one-member path:
    no PREPARE anywhere. A general connection (GlobalConnection=No) runs
    TRUNCATE as before: the member truncates the other groups' partitions
    through postgres_fdw.
(g) LOCK TABLE names its tables as TRUNCATE does and is placed the same
    way: in a transaction, accounts locked on every group's primary
    (pg_locks; pg_stat_statements: the LOCK ran once on each), a write of
    a G3 row from another connection waits for it (55P03 at lock_timeout),
    notes locked on its owner; in autocommit the server refuses it (25P01).
(h) A TRUNCATE across groups notes what it writes, not every table: in a
    transaction pinned on a group other than notes' owner, `TRUNCATE
    notes_tags` (it joins the owner), then a SELECT of accounts without a
    key runs on the pin (before, every read naming a table with rows
    outside the pin's group was refused, 90122), and notes_tags is never read with its old rows (0 rows, or a
    refusal); ROLLBACK gives them back.
(i) The same when the TRUNCATE begins the transaction (it joins no pin:
    notes' owner becomes the transaction's member): a SELECT of accounts
    without a key then runs on that member (pg_stat_statements: once there,
    nowhere else) with every group's rows (before, it was refused, 0A000:
    the first TRUNCATE was noted as a write of every table in every
    group); notes_tags reads 0 rows there; ROLLBACK gives them back."""
import threading
import time

import pyodbc

from xact_lib import (DSN, GROUPS, backend_waiting, calls, connect, expect_calls, expect_error,
                      fail, helper, in_transaction_on, kill_member, log, nothing_left, owners,
                      prepared_by_the_others, primary, relkind, reset_statements, restart, su)

APP = "xtrunc"
P = {g: primary(g) for g in GROUPS}


def fdw_truncates(member):
    """Foreign truncations member ran: postgres_fdw always names both the
    identity option and CASCADE or RESTRICT (the driver's texts here never
    do)."""
    return calls(member, "TRUNCATE % IDENTITY RESTRICT") + \
        calls(member, "TRUNCATE % IDENTITY CASCADE")


def local_leaves(group):
    """The partitions of accounts group's primary holds itself (plain)."""
    out = su(P[group], "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = "
                       "i.inhrelid WHERE i.inhparent = 'accounts'::regclass AND c.relkind = 'r' "
                       "ORDER BY 1")
    return out.split()


LEAVES = {g: local_leaves(g) for g in GROUPS}


def own_rows(group):
    """The rows of accounts in group's own partitions."""
    return int(su(P[group], "SELECT " + " + ".join(f"(SELECT count(*) FROM {p})"
                                                   for p in LEAVES[group])))


def local_rows():
    """{group: rows of accounts in its own partitions}, and the rows of the
    solo tables on their owner."""
    rows = {g: own_rows(g) for g in GROUPS}
    rows["notes"] = int(su(P[OWNER], "SELECT count(*) FROM notes"))
    rows["notes_tags"] = int(su(P[OWNER], "SELECT count(*) FROM notes_tags"))
    return rows


def expect_rows(want, what):
    got = local_rows()
    if got != want:
        fail(f"{what}: rows {got}, expected {want}")


def fill():
    helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
    helper("app", P[OWNER], "INSERT INTO notes SELECT g, 'n' FROM generate_series(1, 5) g")
    helper("app", P[OWNER], "INSERT INTO notes_tags SELECT g, 't' FROM generate_series(1, 5) g")
    rows = local_rows()
    if any(rows[g] == 0 for g in GROUPS) or rows["notes"] != 5 or rows["notes_tags"] != 5:
        fail(f"the rows are not spread over every group: {rows}")
    return rows


def truncates(member):
    """The TRUNCATE texts member ran (pg_stat_statements), one per item."""
    out = su(member, "SELECT string_agg(query, '|' ORDER BY query) FROM pg_stat_statements "
                     "WHERE query LIKE 'TRUNCATE%'")
    return [q for q in out.split("|") if q]


def expect_own_truncate(what, options=""):
    """Each group's primary ran one TRUNCATE of exactly its own partitions
    (with options), and none a foreign truncation."""
    for g in GROUPS:
        want = "TRUNCATE " + ", ".join(f"public.{p}" for p in LEAVES[g]) + options
        got = truncates(P[g])
        if got != [want]:
            fail(f"{what}: {P[g]} ran {got}, expected [{want!r}]")
        if fdw_truncates(P[g]):
            fail(f"{what}: {P[g]} ran a TRUNCATE through postgres_fdw")


if any(not LEAVES[g] for g in GROUPS):
    fail(f"every group should own partitions of accounts: {LEAVES}")
auto = connect(APP, autocommit=True)
acur = auto.cursor()
acur.execute("CREATE TABLE notes (id bigint PRIMARY KEY, body text)")
acur.execute("CREATE TABLE notes_tags (note bigint REFERENCES notes (id), tag text)")
OWNER = next(g for g in GROUPS if relkind(P[g], "notes") == "r")
if relkind(P[OWNER], "notes_tags") != "r":
    fail("notes_tags should live on notes' group")
log(f"partitions per group {LEAVES}; notes on {OWNER}")

# ---- (a) autocommit ----
full = fill()
reset_statements()
t = time.monotonic()
acur.execute("TRUNCATE accounts")
log(f"(a) TRUNCATE accounts across the three groups took {1000 * (time.monotonic() - t):.1f} ms")
expect_rows({**full, "G1": 0, "G2": 0, "G3": 0}, "(a)")
expect_own_truncate("(a)")
prepared_on = prepared_by_the_others("(a)")
nothing_left("(a)")
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
reset_statements()
acur.execute("TRUNCATE TABLE accounts RESTART IDENTITY")
expect_own_truncate("(a) RESTART IDENTITY", " RESTART IDENTITY")
nothing_left("(a) RESTART IDENTITY")
log(f"ok (a): each group truncated its own partitions; prepared on {prepared_on}")

# ---- (b) in a transaction: ROLLBACK, then COMMIT ----
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
conn = connect(APP)
cur = conn.cursor()
reset_statements()
cur.execute("TRUNCATE accounts, notes CASCADE")
for g in GROUPS:
    if not in_transaction_on(P[g], APP):
        fail(f"(b) {P[g]} holds no open transaction before the end")
conn.rollback()
expect_rows(full, "(b) after ROLLBACK")
nothing_left("(b) ROLLBACK")
cur.execute("TRUNCATE accounts, notes CASCADE")
conn.commit()
expect_rows({"G1": 0, "G2": 0, "G3": 0, "notes": 0, "notes_tags": 0}, "(b) after COMMIT")
for g in GROUPS:
    if fdw_truncates(P[g]):
        fail(f"(b) {P[g]} ran a TRUNCATE through postgres_fdw")
nothing_left("(b) COMMIT")
log("ok (b): in a transaction, rolled back or committed on every group")

# ---- (c) one group cannot take its part ----
full = fill()
ids_g2 = helper("app", "G1N1", "SELECT a.id FROM accounts a JOIN gcluster.shards s ON s.name = "
                               "a.tableoid::regclass::text WHERE s.group_name = 'G2' LIMIT 1")
holder = connect(APP + "_hold")
holder.cursor().execute("UPDATE accounts SET balance = balance WHERE id = ?", int(ids_g2))
acur.execute("SET lock_timeout = '300ms'")
expect_error("(c) a lock held on G2", lambda: acur.execute("TRUNCATE accounts"), "55P03",
             says="of group G2")
holder.rollback()
holder.close()
acur.execute("RESET lock_timeout")
expect_rows(full, "(c) nothing applied after G2 failed")
nothing_left("(c)")
log("ok (c): a group that could not truncate left every group unchanged")

# ---- (d) a key refuses on one group; ONLY ----
# notes_tags references notes: without CASCADE notes' owner refuses its
# part (0A000, PostgreSQL's), and accounts stays on every group.
expect_error("(d) a key on notes' group", lambda: acur.execute("TRUNCATE accounts, notes"),
             "0A000", says=f"of group {OWNER}")
expect_rows(full, "(d) nothing applied after notes' group refused")
# ONLY is not read: the text runs on one member, which refuses it for a
# partitioned table.
expect_error("(d) ONLY", lambda: acur.execute("TRUNCATE ONLY accounts"), "42809")
expect_rows(full, "(d) after ONLY")
nothing_left("(d)")
log("ok (d): a key refusing on one group left every group unchanged; ONLY refused")

# ---- (e) a group's primary killed under its part ----
# The part waits on G3 for a row lock, so the kill lands while it runs
# (not before BEGIN, not at PREPARE): 40001 / 19068, the message naming G3.
ids_g3 = helper("app", "G1N1", "SELECT a.id FROM accounts a JOIN gcluster.shards s ON s.name = "
                               "a.tableoid::regclass::text WHERE s.group_name = 'G3' LIMIT 1")
holder = connect(APP + "_hold")
holder.cursor().execute("UPDATE accounts SET balance = balance WHERE id = ?", int(ids_g3))
broke = {}


def truncate_in_background():
    try:
        acur.execute("TRUNCATE accounts")
        broke["error"] = None
    except pyodbc.Error as e:
        broke["error"] = e


runner = threading.Thread(target=truncate_in_background)
runner.start()
backend_waiting(P["G3"], APP, "relation")
kill_member(P["G3"], APP)
runner.join(60)
if runner.is_alive():
    fail("(e) the TRUNCATE did not come back 60 s after G3's primary was killed")


def rethrow():
    if broke["error"] is not None:
        raise broke["error"]


expect_error("(e) G3's session broke", rethrow, "40001", 19068, says="group G3")
try:
    holder.close()
except pyodbc.Error:
    pass   # its session died with G3's primary
# The statement told its loss: the next one is not told it again, it is
# refused because the driver knows G3's primary down.
expect_error("(e) G3's primary down", lambda: acur.execute("TRUNCATE accounts"), "08S01",
             says="G3")
for g in ("G1", "G2"):
    left = own_rows(g)
    if left != full[g]:
        fail(f"(e) {g} holds {left} rows, expected {full[g]}: truncated without G3")
restart(P["G3"])
# The other groups' parts were rolled back before any PREPARE: nothing is
# in doubt, which in-doubt resolution (run here on demand) confirms.
helper("gcctl", "resolve", "--grace", "0")
expect_rows(full, "(e) after G3 came back")
nothing_left("(e)")
log("ok (e): a primary killed under its part left every group unchanged; once known "
    "down it refused the next TRUNCATE before anything ran")

# ---- (f) one group's table; a general connection ----
reset_statements()
acur.execute("TRUNCATE notes CASCADE")
if int(su(P[OWNER], "SELECT count(*) FROM notes")):
    fail("(f) notes not emptied")
for g in GROUPS:
    if calls(P[g], "PREPARE TRANSACTION%"):
        fail(f"(f) a TRUNCATE of one group's table prepared on {P[g]}")
reset_statements()
general = pyodbc.connect(f"DSN={DSN};GlobalConnection=No;Servers=127.0.0.1:"
                         f"{helper('port', P['G1'])};Locator=;ApplicationName={APP}",
                         autocommit=True)
t = time.monotonic()
general.cursor().execute("TRUNCATE accounts")
log(f"(f) TRUNCATE accounts through postgres_fdw (general connection) took "
    f"{1000 * (time.monotonic() - t):.1f} ms")
general.close()
if own_rows("G2") or own_rows("G3"):
    fail("(f) the general connection's TRUNCATE left rows")
if not fdw_truncates(P["G2"]) or not fdw_truncates(P["G3"]):
    fail("(f) a general connection's TRUNCATE should reach the other groups through "
         "postgres_fdw, as before")
log("ok (f): one group's table on one member; a general connection as before")

# ---- (g) LOCK TABLE placed as TRUNCATE is ----
# In a transaction a LOCK of a sharded table locks it on every group
# holding leaves of it, a solo table's on its owner (before, it ran on the
# transaction's member only: other groups' rows were not locked, another
# group's solo table refused 42809). Outside one the server refuses it.
def lock_modes(member, table):
    """The lock modes the application's sessions hold on table on member."""
    return su(member, "SELECT coalesce(string_agg(l.mode, ','), '-') FROM pg_locks l JOIN "
                      "pg_stat_activity a ON a.pid = l.pid WHERE a.application_name = "
                      f"'{APP}' AND l.granted AND l.relation = '{table}'::regclass").split(",")


helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
reset_statements()
cur.execute("LOCK TABLE accounts IN EXCLUSIVE MODE")
cur.execute("LOCK notes")
for g in GROUPS:
    if "ExclusiveLock" not in lock_modes(P[g], "accounts"):
        fail(f"(g) accounts not locked EXCLUSIVE on {P[g]}: {lock_modes(P[g], 'accounts')}")
    expect_calls(P[g], "LOCK TABLE accounts IN EXCLUSIVE MODE", 1, "(g) the LOCK of accounts")
if "AccessExclusiveLock" not in lock_modes(P[OWNER], "notes"):
    fail(f"(g) notes not locked on its owner {P[OWNER]}")
writer = connect(APP + "_w", autocommit=True)
wcur = writer.cursor()
wcur.execute("SET lock_timeout = '300ms'")
expect_error("(g) a write of a G3 row while accounts is locked",
             lambda: wcur.execute("UPDATE accounts SET balance = 1 WHERE id = ?", int(ids_g3)),
             "55P03")
conn.commit()
wcur.execute("UPDATE accounts SET balance = 1 WHERE id = ?", int(ids_g3))
writer.close()
nothing_left("(g)")
expect_error("(g) LOCK in autocommit", lambda: acur.execute("LOCK TABLE accounts"), "25P01")
log("ok (g): LOCK TABLE in a transaction held on every group owning the table's rows; "
    "refused outside one")

# ---- (h) a TRUNCATE across groups notes only the tables it names ----
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(101, 130) g "
                      "ON CONFLICT DO NOTHING")
PIN = next(g for g in GROUPS if g != OWNER)
pin_id = next(i for i in owners()[PIN] if i > 100)
tags_before = int(su(P[OWNER], "SELECT count(*) FROM notes_tags"))
cur = conn.cursor()
cur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", pin_id)
cur.execute("TRUNCATE notes_tags")
got = cur.execute("SELECT count(*), sum(balance) FROM accounts WHERE id > 100").fetchall()
if [tuple(int(v) for v in r) for r in got] != [(30, 3001)]:
    fail(f"(h) accounts over 100 read as {got} after TRUNCATE notes_tags, expected "
         "[(30, 3001)]")
try:
    tags = [int(r[0]) for r in cur.execute("SELECT count(*) FROM notes_tags").fetchall()]
    if tags != [0]:
        fail(f"(h) notes_tags read as {tags} rows in the transaction that truncated it")
except pyodbc.Error as e:
    if e.args[0] != "0A000":
        raise
conn.rollback()
if int(su(P[OWNER], "SELECT count(*) FROM notes_tags")) != tags_before:
    fail("(h) the ROLLBACK did not give notes_tags its rows back")
nothing_left("(h)")
log(f"ok (h): after TRUNCATE notes_tags (on {OWNER}) from a transaction on {PIN}, a read of "
    "accounts across groups ran; notes_tags never read stale")

# ---- (i) a TRUNCATE that begins the transaction notes only what it names ----
reset_statements()
cur.execute("TRUNCATE notes_tags")
got = cur.execute("SELECT count(*), sum(balance) FROM accounts WHERE id > 100").fetchall()
if [tuple(int(v) for v in r) for r in got] != [(30, 3000)]:
    fail(f"(i) accounts over 100 read as {got} after a first TRUNCATE notes_tags, expected "
         "[(30, 3000)]")
for g in GROUPS:
    expect_calls(P[g], "SELECT count(*), sum(balance) FROM accounts WHERE id >%",
                 1 if g == OWNER else 0, f"(i) the read of accounts on {g}")
tags = [int(r[0]) for r in cur.execute("SELECT count(*) FROM notes_tags").fetchall()]
if tags != [0]:
    fail(f"(i) notes_tags read as {tags} rows in the transaction that truncated it")
conn.rollback()
if int(su(P[OWNER], "SELECT count(*) FROM notes_tags")) != tags_before:
    fail("(i) the ROLLBACK did not give notes_tags its rows back")
nothing_left("(i)")
log(f"ok (i): after a TRUNCATE notes_tags that began the transaction (on {OWNER}), a read of "
    "accounts across groups ran there")

auto.close()
conn.close()
print("ok: TRUNCATE across groups applies on every group or on none", flush=True)
