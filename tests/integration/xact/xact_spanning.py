"""Writes that span groups, atomic (issue 16, point 2): an UPDATE or DELETE
of a sharded table that the shard map cannot place in one group runs on
every group's own partitions, in one transaction across groups
(docs/global-connection.md, "Writes across groups").

usage: xact_spanning.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

accounts is hash-sharded over G1, G2 and G3 (six shards). Every check is
made on the servers: the balances on their owners' own partitions, and
pg_stat_statements on each group's primary for where each statement ran.

(a) Autocommit, no key: `UPDATE accounts SET balance = balance + 1` changes
    every row (row count 30). Each group's primary ran the UPDATE on each of
    its own partitions (named, the table's name as alias) and nothing was
    forwarded through postgres_fdw; the two groups that are not the
    coordinator ran PREPARE TRANSACTION; nothing is left prepared.
(b) Autocommit, one group refuses: with a CHECK (balance >= 0) and one of
    G2's accounts at 0, `UPDATE accounts SET balance = balance - 50` fails
    with 23514 naming the group, and no balance changed on any group.
(c) Parameters and RETURNING: the rows every group returns come back as one
    result set (and row count); a DELETE without a key deletes on every
    group.
(d) In a transaction (pyodbc's default): a keyed UPDATE, then a keyless one;
    before COMMIT every group's primary holds the transaction and no
    balance changed; after COMMIT all did. Its COMMIT asks no server
    whether it holds a postgres_fdw transaction (the parts of a write naming
    only its table read their own partitions), where a write across groups
    with a subquery does (pg_stat_statements). A keyless DELETE then
    ROLLBACK changes nothing.
(e) A write across groups failing inside a transaction: at the default
    rollback level (2) it is undone on every group and the transaction goes
    on (its earlier keyed UPDATE commits); at RollbackOnError=1 the whole
    transaction is rolled back.
(g) An INSERT of VALUES rows for several groups, with literals or
    parameters: each group's primary inserts its own rows (one statement),
    nothing through postgres_fdw; a duplicate key on one group leaves no row
    anywhere; in a transaction, ROLLBACK leaves none. RETURNING (a plain
    INSERT and an upsert) gives the rows in the order of the VALUES rows.
(h) A parameter array (pyodbc's fast_executemany) of UPDATEs without a key:
    every row applies on every group.
(f) Still refused in a transaction (0A000, native 90122), before anything is
    sent: an INSERT with a row whose key is an expression. (INSERT ...
    SELECT: xact_insert_select.py.)
(i) RollbackOnError=0: an UPDATE failing on G2's joined member aborts the
    transaction everywhere: a read of A (G1, the pin) then fails with 25P02
    and is not sent there; ROLLBACK TO an earlier savepoint mends it and the
    rest commits; without one, a syntax error gets 42601 (as one server
    answers it before 25P02), a SAVEPOINT 25P02 without ending the
    transaction, a CREATE TABLE 25P02 with no group running it, and COMMIT
    gives 40000 and nothing applies. A write across groups that fails
    (a check on every group) leaves the transaction aborted too: a write
    keyed to G2 then gets 25P02, ROLLBACK TO a savepoint before it mends
    it; COMMIT without one gives 40000 and nothing applies. A
    failure on the pin while it is the transaction's only member aborts it
    too: a write keyed to G2 then fails with 25P02, unsent, and G2's
    primary holds no transaction (before, G2 joined and ran it); a
    statement for the pin itself gets the server's answer (a syntax error
    first: 42601)."""
from xact_lib import (GROUPS, calls, connect, expect_calls, expect_error, fail, helper,
                      in_transaction_on, log, nothing_left, owners, prepared_by_the_others,
                      primary, relkind, reset_statements, su)

APP = "xspan"
P = {g: primary(g) for g in GROUPS}
# The driver's leaf statements as pg_stat_statements keeps them.
LEAF_UPDATE = "UPDATE public.accounts_% AS accounts SET%"


def leaves_of(group):
    return int(su(P[group], f"SELECT count(*) FROM gcluster.shards WHERE group_name = '{group}' "
                            "AND name LIKE 'accounts\\_%'"))


def forwarded(member):
    """Writes postgres_fdw forwarded to member: they name a partition
    without the driver's alias."""
    return int(su(member, "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE "
                          "(query LIKE 'UPDATE public.accounts%' OR "
                          "query LIKE 'DELETE FROM public.accounts%') "
                          "AND query NOT LIKE '% AS accounts %'"))


def local_balances(group):
    """{account: balance} of the rows group's primary holds in its own
    (plain, not foreign) partitions."""
    parts = su(P[group], "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = "
                         "i.inhrelid WHERE i.inhparent = 'accounts'::regclass AND c.relkind = 'r'")
    out = su(P[group], " UNION ALL ".join(f"SELECT id, balance FROM {p}" for p in parts.split()))
    return {int(i): int(b) for i, b in (line.split(" ") for line in out.splitlines())}


def all_balances():
    """{account: balance} read on every owner's own partitions."""
    every = {}
    for g in GROUPS:
        every.update(local_balances(g))
    return every


def expect_all(want, what):
    got = all_balances()
    if got != want:
        diff = {a: (got.get(a), want.get(a)) for a in set(got) | set(want)
                if got.get(a) != want.get(a)}
        fail(f"{what}: balances differ from the expected ones (got, expected): {diff}")


helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
BY_GROUP = owners()
if any(len(BY_GROUP[g]) < 2 for g in GROUPS):
    fail(f"accounts are not spread over every group: {BY_GROUP}")
A = BY_GROUP["G1"][0]
Z = BY_GROUP["G2"][0]
LEAVES = {g: leaves_of(g) for g in GROUPS}
if any(n < 1 for n in LEAVES.values()):
    fail(f"every group should own partitions of accounts: {LEAVES}")
log(f"partitions per group {LEAVES}; A = {A} on G1, Z = {Z} on G2")

auto = connect(APP, autocommit=True)
acur = auto.cursor()

# ---- (a) autocommit, no key ----
reset_statements()
before = all_balances()
acur.execute("UPDATE accounts SET balance = balance + 1")
if acur.rowcount != 30:
    fail(f"(a) row count {acur.rowcount}, expected 30")
expect_all({a: v + 1 for a, v in before.items()}, "(a)")
for g in GROUPS:
    ran = calls(P[g], LEAF_UPDATE)
    if ran != LEAVES[g]:
        fail(f"(a) {P[g]} ran the UPDATE on {ran} of its own partitions, expected {LEAVES[g]}")
    if forwarded(P[g]):
        fail(f"(a) {P[g]} received {forwarded(P[g])} writes through postgres_fdw")
prepared_on = prepared_by_the_others("(a)")
nothing_left("(a)")
log(f"ok (a): every group updated its own partitions; prepared on {prepared_on}")

# ---- (b) autocommit, one group refuses ----
acur.execute("ALTER TABLE accounts ADD CONSTRAINT balance_not_negative CHECK (balance >= 0)")
acur.execute("UPDATE accounts SET balance = 0 WHERE id = ?", Z)
before = all_balances()
reset_statements()
expect_error("(b) a group's CHECK refuses its part",
             lambda: acur.execute("UPDATE accounts SET balance = balance - 50"), "23514",
             says="of group G2")
expect_all(before, "(b) nothing applied after one group refused")
nothing_left("(b)")
log("ok (b): one group's refusal left every group unchanged")

# ---- (c) parameters and RETURNING, DELETE ----
acur.execute("UPDATE accounts SET balance = balance + ? WHERE balance >= ? RETURNING id, balance",
             5, 50)
returned = {r[0]: r[1] for r in acur.fetchall()}
want = {a: v + 5 for a, v in before.items() if v >= 50}
if returned != want:
    fail(f"(c) RETURNING gave {returned}, expected {want}")
expect_all({a: v + 5 if v >= 50 else v for a, v in before.items()}, "(c) UPDATE")
acur.execute("DELETE FROM accounts WHERE id > ?", 25)
if acur.rowcount != 5:
    fail(f"(c) DELETE row count {acur.rowcount}, expected 5")
left = int(helper("app", "G1N1", "SELECT count(*) FROM accounts"))
if left != 25:
    fail(f"(c) {left} accounts left, expected 25")
nothing_left("(c)")
log("ok (c): RETURNING rows of every group in one result; DELETE on every group")

# ---- (d) in a transaction ----
# The question the COMMIT may ask each member (gc_global_fdw_held.c).
FDW_HELD_ASKED = "%postgres_fdw_get_connections%"
conn = connect(APP)
cur = conn.cursor()
before = all_balances()
reset_statements()
cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
cur.execute("UPDATE accounts SET balance = balance + 1")
if cur.rowcount != 25:
    fail(f"(d) row count {cur.rowcount}, expected 25")
for g in GROUPS:
    if not in_transaction_on(P[g], APP):
        fail(f"(d) {P[g]} holds no open transaction before COMMIT")
expect_all(before, "(d) before COMMIT")
conn.commit()
expect_all({a: v + 1 - (10 if a == A else 0) for a, v in before.items()}, "(d) after COMMIT")
for g in GROUPS:
    expect_calls(P[g], FDW_HELD_ASKED, 0, "(d) the COMMIT of a write naming only accounts")
cur.execute("UPDATE accounts SET balance = balance + "
            "(SELECT count(*) FROM pg_catalog.pg_namespace WHERE false)")
conn.commit()
if sum(calls(P[g], FDW_HELD_ASKED) for g in GROUPS) == 0:
    fail("(d) the COMMIT of a write across groups with a subquery asked no member "
         "whether it holds a postgres_fdw transaction")
before = all_balances()
cur.execute("DELETE FROM accounts WHERE balance > 0")
conn.rollback()
expect_all(before, "(d) after ROLLBACK")
# After a TRUNCATE on every group, a SELECT of no table reads nothing the
# transaction wrote: it runs (before, 0A000 / 90122 "would read table
# (several)"), and a division by zero is the server's 22012.
cur.execute("TRUNCATE accounts")
if cur.execute("SELECT 2 + 2 AS no_table").fetchone()[0] != 4:
    fail("(d) SELECT 2 + 2 after TRUNCATE")
expect_error("(d) SELECT 1 / 0 after TRUNCATE", lambda: cur.execute("SELECT 1 / 0"), "22012")
conn.rollback()
expect_all(before, "(d) after the TRUNCATE's ROLLBACK")
nothing_left("(d)")
log("ok (d): in a transaction, committed on every group or rolled back on every group; "
    "a SELECT of no table runs after a TRUNCATE on every group")

# ---- (e) failing inside a transaction ----
keep = connect(APP)
kcur = keep.cursor()
before = all_balances()
kcur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
expect_error("(e) level 2", lambda: kcur.execute("UPDATE accounts SET balance = balance - 50"),
             "23514")
kcur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", A)
keep.commit()
expect_all({a: v - 9 if a == A else v for a, v in before.items()}, "(e) level 2: the rest commits")
keep.close()
strict = connect(APP, ";RollbackOnError=1")
scur = strict.cursor()
before = all_balances()
scur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
e = expect_error("(e) level 1", lambda: scur.execute("UPDATE accounts SET balance = balance - 50"),
                 "23514")
if "rolled back" not in str(e):
    fail(f"(e) level 1 should say the transaction was rolled back: {e}")
strict.commit()
strict.close()
expect_all(before, "(e) level 1: nothing of the transaction applied")
nothing_left("(e)")
log("ok (e): a failing write across groups is undone on every group (level 2) or rolls "
    "the transaction back (level 1)")

# ---- (g) INSERT of rows for several groups ----
# Each group's primary gets its own rows (the parameters renumbered); a
# duplicate key on one group leaves no row anywhere.
reset_statements()
ids = [1001 + k for k in range(9)]
expect_error("(g) a duplicate key on one group", lambda: acur.execute(
    "INSERT INTO accounts VALUES " + ", ".join(f"({i}, 1)" for i in ids) + f", ({Z}, 1)"),
    "23505", says="of group G2")
if int(helper("app", "G1N1", "SELECT count(*) FROM accounts WHERE id > 1000")):
    fail("(g) rows of the failed INSERT were left behind")
nothing_left("(g) failed")
placeholders = ", ".join("(?, ?)" for _ in ids)
args = [x for i in ids for x in (i, i - 1000)]
acur.execute(f"INSERT INTO accounts (id, balance) VALUES {placeholders}", *args)
if acur.rowcount != len(ids):
    fail(f"(g) INSERT row count {acur.rowcount}, expected {len(ids)}")
placed = {g: local_balances(g) for g in GROUPS}
for g in GROUPS:
    mine = [i for i in placed[g] if i > 1000]
    for i in mine:
        if placed[g][i] != i - 1000:
            fail(f"(g) account {i} on {g} holds {placed[g][i]}, expected {i - 1000}")
    got = calls(P[g], "INSERT INTO accounts (id, balance) VALUES%")
    if mine and got != 1:
        fail(f"(g) {P[g]} ran {got} INSERTs for its {len(mine)} rows, expected 1")
    if forwarded(P[g]) or calls(P[g], "INSERT INTO public.accounts%"):
        fail(f"(g) {P[g]} received rows through postgres_fdw")
if sum(1 for g in GROUPS if any(i > 1000 for i in placed[g])) < 2:
    fail(f"(g) the rows should belong to several groups: {placed}")
cur.execute("INSERT INTO accounts VALUES (2001, 0), (2002, 0), (2003, 0), (2004, 0)")
conn.rollback()
if int(helper("app", "G1N1", "SELECT count(*) FROM accounts WHERE id > 2000")):
    fail("(g) a rolled-back INSERT across groups left rows")
# RETURNING gives the rows in the order of the VALUES rows, as one server
# does (programs pair the returned keys with the rows they sent), though
# each group's primary ran its own rows: a plain INSERT and an upsert.
order = [3009, 3001, 3005, 3002, 3008, 3003, 3007, 3004, 3006]
got = [r[0] for r in acur.execute(
    "INSERT INTO accounts (id, balance) VALUES " + ", ".join(f"({i}, 1)" for i in order) +
    " RETURNING id").fetchall()]
if got != order:
    fail(f"(g) RETURNING of an INSERT across groups gave {got}, expected the VALUES order {order}")
got = [tuple(r) for r in acur.execute(
    "INSERT INTO accounts (id, balance) VALUES " + ", ".join(f"({i}, 2)" for i in order) +
    " ON CONFLICT (id) DO UPDATE SET balance = accounts.balance + excluded.balance "
    "RETURNING id, balance").fetchall()]
if got != [(i, 3) for i in order]:
    fail(f"(g) RETURNING of an upsert across groups gave {got}, expected the VALUES order")
if len({g for g in GROUPS if any(3000 < i < 3010 for i in local_balances(g))}) < 2:
    fail("(g) the RETURNING rows should come from several groups")
acur.execute("DELETE FROM accounts WHERE id BETWEEN 3001 AND 3009")
nothing_left("(g)")
log("ok (g): an INSERT of rows for several groups applies on every group or on none; its "
    "RETURNING rows come in the order of its VALUES rows")

# ---- (h) a parameter array of writes across groups ----
# pyodbc's fast_executemany binds an array: its rows are writes across
# groups, so the array runs row by row, each row on every group.
before = all_balances()
reset_statements()
acur.fast_executemany = True
acur.executemany("UPDATE accounts SET balance = balance + ? WHERE balance >= ?", [(1, 0), (2, 0)])
acur.fast_executemany = False
expect_all({a: v + 3 for a, v in before.items()}, "(h) array of writes across groups")
for g in GROUPS:
    ran = calls(P[g], "UPDATE public.accounts_% AS accounts SET balance = balance + $1 "
                      "WHERE balance >= $2")
    if ran != 2 * LEAVES[g] or forwarded(P[g]):
        fail(f"(h) {P[g]} ran the array's UPDATE {ran} times on its partitions (expected "
             f"{2 * LEAVES[g]}) and received {forwarded(P[g])} through postgres_fdw")
nothing_left("(h)")
log("ok (h): a parameter array of writes across groups applied every row on every group")

# ---- (f) still refused ----
# (INSERT ... SELECT runs across groups too: xact_insert_select.py.)
reset_statements()
expect_error("(f) an INSERT with a row whose key cannot be read", lambda: cur.execute(
    "INSERT INTO accounts VALUES (1000 + 1, 0), (1002, 0)"), "0A000", 90122)
conn.rollback()
for g in GROUPS:
    if calls(P[g], "INSERT%"):
        fail(f"(f) {P[g]} ran an INSERT that should have been refused")
log("ok (f): an INSERT with a row the driver cannot place is still refused in a transaction, "
    "nothing sent")

# ---- (i) rollback level 0: a failure on one member aborts the transaction ----
# As on one server: every later statement fails (25P02), also one for
# another member, which is not sent; ROLLBACK TO a savepoint mends it;
# COMMIT of the aborted transaction gives 40000 and applies nothing.
zero = connect(APP, ";RollbackOnError=0")
zcur = zero.cursor()
before = all_balances()
reset_statements()
zcur.execute("UPDATE accounts SET balance = balance - 1 WHERE id = ?", A)
zcur.execute("SAVEPOINT before_z")
zcur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", Z)
expect_error("(i) a failing UPDATE on G2's member", lambda: zcur.execute(
    "UPDATE accounts SET balance = balance + 10 / ? WHERE id = ?", 0, Z), "22012")
expect_error("(i) a read on the pin after it", lambda: zcur.execute(
    "SELECT balance AS after_failure FROM accounts WHERE id = ?", A).fetchall(), "25P02")
if calls(P["G1"], "SELECT balance AS after_failure%"):
    fail("(i) the read refused after the failure ran on G1")
zcur.execute("ROLLBACK TO SAVEPOINT before_z")
got = zcur.execute("SELECT balance FROM accounts WHERE id = ?", A).fetchall()[0][0]
if got != before[A] - 1:
    fail(f"(i) after ROLLBACK TO, A reads {got}, expected {before[A] - 1}")
zero.commit()
expect_all({a: v - 1 if a == A else v for a, v in before.items()},
           "(i) level 0: after ROLLBACK TO the savepoint the rest commits")
before = all_balances()
zcur.execute("UPDATE accounts SET balance = balance - 1 WHERE id = ?", A)
zcur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", Z)
expect_error("(i) a failing UPDATE on G2's member", lambda: zcur.execute(
    "UPDATE accounts SET balance = balance + 10 / ? WHERE id = ?", 0, Z), "22012")
expect_error("(i) a write on the pin after it", lambda: zcur.execute(
    "UPDATE accounts SET balance = balance - 1 WHERE id = ?", A), "25P02")
# One server answers a syntax error before 25P02: so does the member whose
# failure aborted the transaction, which gets every statement until then.
expect_error("(i) a syntax error after the failure on G2", lambda: zcur.execute("SELEC 1"),
             "42601")
expect_error("(i) SAVEPOINT after the failure on G2", lambda: zcur.execute("SAVEPOINT late"),
             "25P02")
if in_transaction_on(P["G1"], APP) != 1 or in_transaction_on(P["G2"], APP) != 1:
    fail("(i) the transaction no longer holds G1's and G2's members after SAVEPOINT was refused")
# Cluster DDL too: the aborted member answers it, no group runs it.
expect_error("(i) CREATE TABLE after the failure on G2", lambda: zcur.execute(
    "CREATE TABLE IF NOT EXISTS xspan_late (id int)"), "25P02")
if any(relkind(P[g], "xspan_late") for g in GROUPS) or calls(P["G1"], "%xspan_late%"):
    fail("(i) the CREATE TABLE refused after the failure ran on a group")
expect_error("(i) COMMIT of the aborted transaction", zero.commit, "40000")
expect_all(before, "(i) level 0: the aborted transaction applied nothing")
nothing_left("(i)")
reset_statements()
expect_error("(i) a failing UPDATE on the pin, its only member", lambda: zcur.execute(
    "UPDATE accounts SET balance = balance + 10 / ? WHERE id = ?", 0, A), "22012")
expect_error("(i) a write keyed to G2 after it", lambda: zcur.execute(
    "UPDATE accounts SET balance = balance + 2 WHERE id = ?", Z), "25P02")
if calls(P["G2"], "UPDATE accounts SET balance = balance + 2%") or in_transaction_on(P["G2"], APP):
    fail("(i) the write refused after the pin's failure ran on G2, or G2 joined")
expect_error("(i) a syntax error on the aborted pin", lambda: zcur.execute("SELEC 1"), "42601")
zero.rollback()
nothing_left("(i) the pin alone")
# A write across groups that fails is undone on every group, and leaves
# the transaction aborted as one server would (before, it was rolled back
# whole and the statements after it ran in a new transaction).
before = all_balances()
zcur.execute("UPDATE accounts SET balance = balance - 1 WHERE id = ?", A)
zcur.execute("SAVEPOINT before_span")
expect_error("(i) a failing write across groups", lambda: zcur.execute(
    "UPDATE accounts SET balance = balance - 50"), "23514")
if in_transaction_on(P["G1"], APP) != 1:
    fail("(i) the failing write across groups ended the transaction on G1")
expect_error("(i) a write keyed to G2 after the write across groups", lambda: zcur.execute(
    "UPDATE accounts SET balance = balance + 2 WHERE id = ?", Z), "25P02")
zcur.execute("ROLLBACK TO SAVEPOINT before_span")
zcur.execute("UPDATE accounts SET balance = balance + 2 WHERE id = ?", Z)
zero.commit()
expect_all({a: v - 1 if a == A else v + 2 if a == Z else v for a, v in before.items()},
           "(i) level 0: after ROLLBACK TO the savepoint before the write across groups")
before = all_balances()
zcur.execute("UPDATE accounts SET balance = balance - 1 WHERE id = ?", A)
expect_error("(i) a failing write across groups", lambda: zcur.execute(
    "UPDATE accounts SET balance = balance - 50"), "23514")
expect_error("(i) COMMIT after the failed write across groups", zero.commit, "40000")
expect_all(before, "(i) level 0: the transaction of the failed write across groups")
nothing_left("(i) write across groups")
zero.close()
log("ok (i): at rollback level 0 a failure on one member aborts the transaction on every "
    "member until ROLLBACK TO or its end, as on one server")

conn.close()
auto.close()
print("ok: writes across groups apply on every group or on none", flush=True)
