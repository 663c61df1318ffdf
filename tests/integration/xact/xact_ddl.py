"""DDL inside transactions through a global connection, with pyodbc's
defaults (autocommit off): docs/global-connection.md, "DDL in a
transaction" (issue 15, point 1).

usage: xact_ddl.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

The connection prefers group G3 (LocalityGroupPolicy=1, path G3), so a
transaction that starts with DDL is coordinated by G3's primary: a new solo
table is made there, its foreign twins on G1 and G2. Every outcome is
checked on each group's primary:

(a) COMMIT: CREATE TABLE, INSERT, SELECT (the transaction sees its own
    uncommitted table), ALTER TABLE ADD COLUMN, UPDATE, SELECT, COMMIT.
    Before the COMMIT no group shows the table and G1's and G2's primaries
    hold the transaction open; after it the table is plain on G3 with its
    rows and the new column, foreign on G1 and G2 with the column, and
    registered (solo, G3) in gcluster.tables on every group. G1 and G2
    were prepared (PREPARE TRANSACTION), the coordinator G3 was not and
    recorded the decision; nothing is left prepared or decided.
(b) ROLLBACK of ALTER TABLE ADD COLUMN + INSERT on that table: the column
    exists nowhere, the row count is unchanged.
(c) ROLLBACK of DROP TABLE: the table is still plain on G3 with its rows,
    foreign on G1 and G2, still registered.
(d) ROLLBACK of CREATE TABLE + INSERT + SELECT + ALTER: no group has the
    table or its catalog row, nothing was prepared.
(e) COMMIT of DROP TABLE: gone from every group and from gcluster.tables.
(f) DDL that fails on one group: xt_clash exists on G2 only (made there
    beside the driver). In a transaction that made xt_keep and inserted a
    row, CREATE TABLE xt_clash fails with G2's 42P07, named; it is undone
    on every group (G1 and G3 have no xt_clash, G2's own is untouched)
    and, at RollbackOnError=2 (the default), the transaction goes on: its
    next INSERT and its COMMIT succeed, xt_keep is everywhere with both
    rows.
(g) The same at RollbackOnError=1 and 0, with a write of an account owned
    by G1 in the transaction too. Level 1: the statement fails saying the
    transaction was rolled back, and at once no group holds any part of
    it (no table, the account unchanged, no session of the test in a
    transaction, nothing prepared); the next transaction runs. Level 0:
    the transaction stays aborted, as on one server: a later INSERT, a
    write of G1's account and DDL get 25P02 (the DDL runs nowhere), COMMIT
    gives 40000 and nothing of the transaction is anywhere; with a
    savepoint set before the failing DDL, ROLLBACK TO it mends the
    transaction and the rest (table, rows, account write) commits.
(h) CREATE TABLE ... AS and CREATE MATERIALIZED VIEW run their query on
    the coordinator G3, which reads other groups through postgres_fdw. In
    a transaction that wrote an account of G1 there, one reading accounts
    is refused (0A000 / 90122), nothing sent (pg_stat_statements on every
    primary), the transaction going on: before, it copied the account as
    it was before the transaction. One reading only the transaction's own
    new table on G3 runs. After ALTER TABLE accounts in the transaction
    (its lock held on every group until the end), one reading accounts is
    refused the same way: before, postgres_fdw's session waited for that
    lock and the statement never returned (found by a pyodbc random run).
    ROLLBACK leaves no table, no column and the account unchanged."""
from xact_lib import (GROUPS, balance, calls, catalog_row, connect, decisions, expect_error, fail,
                      has_column, helper, in_transaction_on, log, nothing_left, owners, prepared,
                      primary, relkind, reset_statements, su)

APP = "xddl"
EXTRA = ";LocalityGroupPolicy=1;LocalityGroupPath=G3"
P = {g: primary(g) for g in GROUPS}
OWNER, OTHERS = "G3", ("G1", "G2")


def expect_solo(name, what, columns=(), absent_columns=()):
    """name is a solo table of G3 on the servers: plain there, foreign on
    G1 and G2, registered on every group; with columns and without
    absent_columns on every group."""
    for g in GROUPS:
        want = "r" if g == OWNER else "f"
        got = relkind(P[g], name)
        if got != want:
            fail(f"{what}: {name} on {P[g]} has relkind {got!r}, expected {want!r}")
        if catalog_row(P[g], name) != f"solo {OWNER}":
            fail(f"{what}: gcluster.tables on {P[g]} has {catalog_row(P[g], name)!r} for {name}, "
                 f"expected 'solo {OWNER}'")
        for c in columns:
            if not has_column(P[g], name, c):
                fail(f"{what}: {name} on {P[g]} lacks column {c}")
        for c in absent_columns:
            if has_column(P[g], name, c):
                fail(f"{what}: {name} on {P[g]} has column {c}, which was rolled back")


def expect_nowhere(name, what):
    for g in GROUPS:
        if relkind(P[g], name) != "":
            fail(f"{what}: {name} exists on {P[g]} (relkind {relkind(P[g], name)})")
        if catalog_row(P[g], name) != "":
            fail(f"{what}: gcluster.tables on {P[g]} still has {name}: {catalog_row(P[g], name)}")


def rows_on_owner(sql):
    """sql run on the owner G3's primary, where the solo table's rows are."""
    return su(P[OWNER], sql)


conn = connect(APP, EXTRA)
cur = conn.cursor()

# ---- (a) COMMIT: create, fill, query, alter, update, query ----
reset_statements()
cur.execute("CREATE TABLE xt_items (id int PRIMARY KEY, name text NOT NULL)")
cur.executemany("INSERT INTO xt_items VALUES (?, ?)", [(1, "one"), (2, "two"), (3, "three")])
got = cur.execute("SELECT id, name FROM xt_items ORDER BY id").fetchall()
if [tuple(r) for r in got] != [(1, "one"), (2, "two"), (3, "three")]:
    fail(f"(a) the transaction does not read its own table: {got}")
cur.execute("ALTER TABLE xt_items ADD COLUMN qty int")
cur.execute("UPDATE xt_items SET qty = id * 10")
got = cur.execute("SELECT sum(qty) FROM xt_items").fetchone()[0]
if got != 60:
    fail(f"(a) sum(qty) in the transaction is {got}, expected 60")
for g in GROUPS:
    if relkind(P[g], "xt_items") != "":
        fail(f"(a) {P[g]} shows xt_items before the COMMIT")
    if in_transaction_on(P[g], APP) != 1:
        fail(f"(a) {P[g]} holds {in_transaction_on(P[g], APP)} open transactions of the test "
             "before the COMMIT, expected 1 (every group's primary takes part)")
conn.commit()
expect_solo("xt_items", "(a) after COMMIT", columns=("id", "name", "qty"))
if rows_on_owner("SELECT count(*) || ' ' || sum(qty) FROM xt_items") != "3 60":
    fail(f"(a) G3 holds {rows_on_owner('SELECT count(*), sum(qty) FROM xt_items')} for xt_items, "
         "expected 3 rows, sum(qty) 60")
through = helper("app", P["G1"], "SELECT count(*) || ' ' || sum(qty) FROM xt_items")
if through != "3 60":
    fail(f"(a) G1's foreign twin reads {through!r}, expected '3 60'")
for g in OTHERS:
    if calls(P[g], "PREPARE TRANSACTION%") < 1 or calls(P[g], "COMMIT PREPARED%") < 1:
        fail(f"(a) {P[g]} was not prepared and committed in two phases")
if calls(P[OWNER], "PREPARE TRANSACTION%") != 0:
    fail("(a) the coordinator G3 was prepared")
if calls(P[OWNER], "%gcluster.decide_commit(%") != 1:
    fail("(a) the coordinator G3 did not record the decision")
nothing_left("(a)")
if any(in_transaction_on(P[g], APP) for g in GROUPS):
    fail("(a) a session of the test is still in a transaction after the COMMIT")
log("ok (a): CREATE/INSERT/SELECT/ALTER/UPDATE then COMMIT: plain on G3 with 3 rows and qty, "
    "foreign with qty on G1 and G2, registered everywhere; G1, G2 prepared; nothing left")

# ---- (b) ROLLBACK of ALTER + INSERT ----
cur.execute("ALTER TABLE xt_items ADD COLUMN note text")
cur.execute("INSERT INTO xt_items (id, name, note) VALUES (4, 'four', 'x')")
if cur.execute("SELECT count(note) FROM xt_items").fetchone()[0] != 1:
    fail("(b) the transaction does not see its new column")
conn.rollback()
expect_solo("xt_items", "(b) after ROLLBACK", columns=("qty",), absent_columns=("note",))
if rows_on_owner("SELECT count(*) FROM xt_items") != "3":
    fail("(b) the rolled-back INSERT is on G3")
nothing_left("(b)")
log("ok (b): ALTER ADD COLUMN + INSERT then ROLLBACK: the column on no group, no row added")

# ---- (c) ROLLBACK of DROP TABLE ----
cur.execute("DROP TABLE xt_items")
expect_error("(c) SELECT of the dropped table in its transaction",
             lambda: cur.execute("SELECT 1 FROM xt_items"), "42P01")
conn.rollback()
expect_solo("xt_items", "(c) after ROLLBACK of DROP", columns=("qty",))
if rows_on_owner("SELECT count(*) FROM xt_items") != "3":
    fail("(c) xt_items lost rows")
nothing_left("(c)")
log("ok (c): DROP TABLE then ROLLBACK: the table, its twins, its rows and its catalog row stay")

# ---- (d) ROLLBACK of CREATE TABLE + INSERT + SELECT + ALTER ----
reset_statements()
cur.execute("CREATE TABLE xt_gone (id int PRIMARY KEY, v text)")
cur.execute("INSERT INTO xt_gone VALUES (1, 'a'), (2, 'b')")
if cur.execute("SELECT count(*) FROM xt_gone").fetchone()[0] != 2:
    fail("(d) the transaction does not read its own table")
cur.execute("ALTER TABLE xt_gone ADD COLUMN w int")
conn.rollback()
expect_nowhere("xt_gone", "(d) after ROLLBACK")
for g in GROUPS:
    if calls(P[g], "PREPARE TRANSACTION%") != 0:
        fail(f"(d) {P[g]} was prepared for a transaction that rolled back")
nothing_left("(d)")
log("ok (d): CREATE/INSERT/SELECT/ALTER then ROLLBACK: no group has the table or its catalog row")

# ---- (e) COMMIT of DROP TABLE ----
cur.execute("DROP TABLE xt_items")
conn.commit()
expect_nowhere("xt_items", "(e) after COMMIT of DROP")
nothing_left("(e)")
log("ok (e): DROP TABLE then COMMIT: gone from every group and from gcluster.tables")

# ---- (f) DDL that fails on one group, RollbackOnError=2 ----
su(P["G2"], "CREATE TABLE xt_clash (x int); INSERT INTO xt_clash VALUES (42); "
            "ALTER TABLE xt_clash OWNER TO app")
cur.execute("CREATE TABLE xt_keep (id int PRIMARY KEY)")
cur.execute("INSERT INTO xt_keep VALUES (1)")
e = expect_error("(f) CREATE TABLE of a name G2 has", lambda: cur.execute(
    "CREATE TABLE xt_clash (id int)"), "42P07", says="G2")
for g in ("G1", "G3"):
    if relkind(P[g], "xt_clash") != "":
        fail(f"(f) xt_clash is on {P[g]}")
cur.execute("INSERT INTO xt_keep VALUES (2)")
conn.commit()
expect_solo("xt_keep", "(f) after COMMIT")
committed_on = [g for g in ("G1", "G3") if relkind(P[g], "xt_clash") != ""]
if committed_on:
    fail(f"(f) xt_clash committed on {committed_on}")
if su(P["G2"], "SELECT string_agg(attname, ',') FROM pg_attribute WHERE attrelid = "
               "'xt_clash'::regclass AND attnum > 0") != "x" or \
        su(P["G2"], "SELECT x FROM xt_clash") != "42" or relkind(P["G2"], "xt_clash") != "r":
    fail("(f) G2's own xt_clash was changed")
if catalog_row(P["G2"], "xt_clash") != "":
    fail("(f) xt_clash was registered")
if rows_on_owner("SELECT string_agg(id::text, ',' ORDER BY id) FROM xt_keep") != "1,2":
    fail("(f) xt_keep does not hold rows 1 and 2 on G3")
nothing_left("(f)")
log(f"ok (f): CREATE TABLE failing on G2 only ({str(e)[:160]}...): undone everywhere, "
    "the transaction went on and committed xt_keep with both rows")

# ---- (g) the same at RollbackOnError=1 and 0 ----
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
account = owners()["G1"][0]
before = balance("G1", account)


def nothing_of_the_transaction(name, what):
    """No group holds any part of the transaction: no table, the account
    unchanged, no session of the test in a transaction, nothing prepared."""
    expect_nowhere(name, what)
    if balance("G1", account) != before:
        fail(f"{what}: the account's write survived the rollback")
    for g in GROUPS:
        if in_transaction_on(P[g], APP):
            fail(f"{what}: {P[g]} still holds the transaction open")
        if prepared(P[g]) or decisions(P[g]):
            fail(f"{what}: {P[g]} holds a prepared transaction or a decision")


def failing_ddl_after_writes(k, name, level, savepoint=False):
    k.execute(f"CREATE TABLE {name} (id int PRIMARY KEY)")
    k.execute(f"INSERT INTO {name} VALUES (1)")
    k.execute("UPDATE accounts SET balance = balance - 5 WHERE id = ?", account)
    if savepoint:
        k.execute("SAVEPOINT before_clash")
    return expect_error(f"(g) RollbackOnError={level}: CREATE TABLE of a name G2 has",
                        lambda: k.execute("CREATE TABLE xt_clash (id int)"), "42P07", says="G2")


# Level 1: the whole transaction goes at once, on every group.
c2 = connect(APP, EXTRA + ";RollbackOnError=1")
k = c2.cursor()
e = failing_ddl_after_writes(k, "xt_keep1", 1)
if "the transaction was rolled back" not in str(e):
    fail(f"(g) level 1: the error does not say the transaction was rolled back: {e}")
nothing_of_the_transaction("xt_keep1", "(g) level 1, at once")
k.execute("CREATE TABLE xt_keep1 (id int PRIMARY KEY)")     # a new transaction
c2.commit()
expect_solo("xt_keep1", "(g) level 1: the next transaction")
k.execute("DROP TABLE xt_keep1")
c2.commit()
c2.close()
log("ok (g): RollbackOnError=1: the failing DDL rolled the whole transaction back on every "
    "group at once (table, account write); the next transaction ran")

# Level 0: as on one server, the transaction stays aborted: every later
# statement 25P02, COMMIT 40000 with nothing applied; ROLLBACK TO a
# savepoint set before the DDL mends it and the rest commits.
c0 = connect(APP, EXTRA + ";RollbackOnError=0")
z = c0.cursor()
e = failing_ddl_after_writes(z, "xt_keep0", 0)
if "rolled back" in str(e):
    fail(f"(g) level 0: the error says the transaction was rolled back: {e}")
expect_error("(g) level 0: an INSERT after the failed DDL",
             lambda: z.execute("INSERT INTO xt_keep0 VALUES (2)"), "25P02")
expect_error("(g) level 0: a write of G1's account after it", lambda: z.execute(
    "UPDATE accounts SET balance = balance - 1 WHERE id = ?", account), "25P02")
expect_error("(g) level 0: DDL after it", lambda: z.execute("CREATE TABLE xt_late (id int)"),
             "25P02")
if any(relkind(P[g], "xt_late") for g in GROUPS):
    fail("(g) level 0: the CREATE TABLE after the failure ran on a group")
expect_error("(g) level 0: COMMIT of the aborted transaction", c0.commit, "40000")
nothing_of_the_transaction("xt_keep0", "(g) level 0, after COMMIT")
e = failing_ddl_after_writes(z, "xt_keep0", 0, savepoint=True)
expect_error("(g) level 0: a read after the failed DDL",
             lambda: z.execute("SELECT count(*) FROM xt_keep0"), "25P02")
z.execute("ROLLBACK TO SAVEPOINT before_clash")
z.execute("INSERT INTO xt_keep0 VALUES (2)")
c0.commit()
expect_solo("xt_keep0", "(g) level 0: after ROLLBACK TO and COMMIT")
if rows_on_owner("SELECT string_agg(id::text, ',' ORDER BY id) FROM xt_keep0") != "1,2":
    fail("(g) level 0: xt_keep0 does not hold rows 1 and 2 on G3")
if balance("G1", account) != before - 5:
    fail(f"(g) level 0: the account holds {balance('G1', account)}, expected {before - 5}")
before -= 5                                 # committed: (h) starts from here
if relkind(P["G1"], "xt_clash") or relkind(P["G3"], "xt_clash"):
    fail("(g) level 0: xt_clash was committed")
z.execute("DROP TABLE xt_keep0")
c0.commit()
c0.close()
nothing_left("(g) level 0")
log("ok (g): RollbackOnError=0: the failing DDL left the transaction aborted as one server "
    "does (25P02 after it, COMMIT 40000 applying nothing); ROLLBACK TO a savepoint mended it")

# ---- (h) a query of a DDL reading what the transaction wrote or locked on G1 ----
c3 = connect(APP, EXTRA)
c3.timeout = 60        # bounds the wait for the lock, should it come back
h = c3.cursor()
h.execute("CREATE TABLE xt_h (id int)")             # the transaction's coordinator: G3
h.execute("INSERT INTO xt_h VALUES (1)")
h.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", account)   # on G1
reset_statements()
expect_error("(h) CREATE TABLE ... AS reading accounts written on G1",
             lambda: h.execute("CREATE TABLE xt_copy AS SELECT id, balance FROM accounts"),
             "0A000", 90122, says="does not see what the open transaction wrote")
for g in GROUPS:
    if calls(P[g], "CREATE TABLE xt_copy%") != 0:
        fail(f"(h) the refused CREATE TABLE ... AS ran on {g}")
h.execute("CREATE TABLE xt_copy AS SELECT id FROM xt_h")
if h.execute("SELECT count(*) FROM xt_copy").fetchone()[0] != 1:
    fail("(h) the CREATE TABLE ... AS of the transaction's own table copied no row")
c3.rollback()
h.execute("CREATE TABLE xt_h (id int)")
h.execute("ALTER TABLE accounts ADD COLUMN note_h text")
for sql in ("CREATE TABLE xt_copy AS SELECT id, balance FROM accounts",
            "CREATE MATERIALIZED VIEW xt_mv AS SELECT count(*) FROM accounts"):
    expect_error(f"(h) after ALTER TABLE accounts: {sql}", lambda: h.execute(sql), "0A000", 90122,
                 says="waits for the lock its DDL holds")
c3.rollback()
for name in ("xt_h", "xt_copy", "xt_mv"):
    expect_nowhere(name, "(h) after ROLLBACK")
if any(has_column(P[g], "accounts", "note_h") for g in GROUPS):
    fail("(h) the ALTER TABLE's column survived the ROLLBACK")
if balance("G1", account) != before:
    fail("(h) the account's write survived the ROLLBACK")
c3.close()
log("ok (h): a DDL's query reading accounts written or locked on G1 is refused, nothing sent; "
    "one reading the transaction's own table runs")

cur.execute("DROP TABLE xt_keep")
conn.commit()
expect_nowhere("xt_keep", "end")
nothing_left("end")
conn.close()
print("ok: DDL in transactions commits everywhere or nowhere, and a failing DDL is undone "
      "everywhere", flush=True)
