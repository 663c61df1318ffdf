"""A transaction across groups reads its own writes, or is told it cannot
(pyodbc, autocommit off): docs/global-connection.md, "Reading the
transaction's own writes". The pin reads other groups' rows through
postgres_fdw, whose session does not see what the transaction wrote on
those groups' members. Before, such a read answered with the rows as they
were before the transaction: after a transfer between two groups, the
transaction's own SELECT sum(balance) was off by the amount.

usage: xact_own_writes.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

accounts is hash-sharded over G1, G2 and G3; A and A2 are accounts G1
owns, B one G2 owns. The witnesses: pg_stat_statements on every group's
primary (a refused statement ran nowhere) and the balances on the owners.

(a) UPDATE A - 10 (pins G1), UPDATE B + 10 (G2 joins): a read of B by its
    key runs on G2's member and sees 110, one of A sees 90; SELECT
    sum(balance) FROM accounts is refused with 0A000 / 90122 before it is
    sent; the transaction goes on and commits; after it, the sum is the
    one before.
(b) In such a transaction a read of another table (orders, not written)
    runs; a read of C by its key (G3, where the transaction wrote nothing)
    runs; an UPDATE of A comparing with IS NOT DISTINCT FROM (as a cursor's
    positioned update does) runs; a read of A and A2 by keys of G1 runs; a
    read of A and B by
    keys of two groups, and one naming accounts in a subquery, are
    refused; so is an INSERT ... SELECT into orders whose query reads
    accounts (it runs on the pin), while one reading orders runs.
(c) A spanning UPDATE without a key (every group's member writes): an
    unkeyed read of accounts is refused, a keyed one of G3's rows runs on
    G3's member.
(d) Writes that were undone leave the record, so reads of their table run
    again (each time after UPDATE A - 10 on the pin, the sum 2990 read on
    G1): a write of B undone by ROLLBACK TO SAVEPOINT (one kept by RELEASE
    still refuses the sum); a parameter array whose second row fails on
    the pin (its first joined G2 for B: every member goes back to the
    array's savepoint); a failed UPDATE of B on G2's member, which had
    joined for an earlier INSERT into orders (orders stays written
    there)."""
from xact_lib import (GROUPS, balance, calls, connect, expect_error, fail, helper, log, owners,
                      primary, reset_statements)

APP = "xownwrites"
P = {g: primary(g) for g in GROUPS}
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
BY_GROUP = owners()
A, A2, B, C = BY_GROUP["G1"][0], BY_GROUP["G1"][1], BY_GROUP["G2"][0], BY_GROUP["G3"][0]
TOTAL = 3000
log(f"A = {A}, A2 = {A2} on G1, B = {B} on G2, C = {C} on G3")

conn = connect(APP)
cur = conn.cursor()


def read(sql, *params):
    return cur.execute(sql, *params).fetchall()


def refused(what, sql, *params):
    expect_error(what, lambda: read(sql, *params), "0A000", 90122,
                 says="does not see what the open transaction wrote")
    pattern = sql.split("?")[0][:30].replace("'", "''") + "%"
    for g in GROUPS:
        if calls(P[g], pattern) != 0:
            fail(f"{what}: the refused statement ran on {g}")


def transfer():
    cur.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", A)
    cur.execute("UPDATE accounts SET balance = balance + 10 WHERE id = ?", B)


# (a)
reset_statements()
transfer()
if read("SELECT balance FROM accounts WHERE id = ?", B)[0][0] != 110:
    fail("(a) the read of B by its key did not see the transaction's write")
if read("SELECT balance FROM accounts WHERE id = ?", A)[0][0] != 90:
    fail("(a) the read of A by its key did not see the transaction's write")
refused("(a) sum over every group", "SELECT sum(balance) FROM accounts")
conn.commit()
if (balance("G1", A), balance("G2", B)) != (90, 110):
    fail("(a) the transfer did not commit after the refused read")
total = read("SELECT sum(balance) FROM accounts")[0][0]
conn.commit()
if total != TOTAL:
    fail(f"(a) the sum after COMMIT is {total}, expected {TOTAL}")
log("(a) reads by key see the transaction's writes; the sum is refused, then right after COMMIT")

# (b)
reset_statements()
transfer()
read("SELECT count(*) FROM orders")
if read("SELECT balance FROM accounts WHERE id = ?", C)[0][0] != 100:
    fail("(b) C, of a group the transaction did not write, read wrong by its key")
cur.execute("UPDATE accounts SET balance = balance WHERE id = ? AND balance IS NOT DISTINCT FROM ?",
            A, 80)
if cur.rowcount != 1:
    fail(f"(b) the pin's own row matched by IS NOT DISTINCT FROM: {cur.rowcount} rows")
got = read("SELECT sum(balance) FROM accounts WHERE id IN (?, ?)", A, A2)[0][0]
if got != 80 + 100:
    fail(f"(b) A and A2 read {got}, expected 180")
refused("(b) keys of two groups", "SELECT id, balance FROM accounts WHERE id IN (?, ?)", A, B)
refused("(b) a subquery", "SELECT (SELECT max(balance) FROM accounts) AS m")
refused("(b) INSERT ... SELECT reading accounts",
        "INSERT INTO orders (item) SELECT 'a' || id FROM accounts WHERE balance > ?", 0)
cur.execute("INSERT INTO orders (item) SELECT item || '+' FROM orders")
conn.rollback()
log("(b) other tables and the pin's own rows are read; keys of two groups and subqueries refused")

# (c)
cur.execute("UPDATE accounts SET balance = balance + 1 WHERE balance > 0")
refused("(c) an unkeyed read after a spanning write", "SELECT count(*) FROM accounts")
got = read("SELECT balance FROM accounts WHERE id = ?", C)[0][0]
if got != 101:
    fail(f"(c) C read {got} by its key, expected 101")
conn.rollback()
log("(c) after a write on every group, unkeyed reads are refused, keyed ones run where written")

# (d)
def sum_on_pin(what):
    reset_statements()
    got = read("SELECT sum(balance) FROM accounts")[0][0]
    if got != TOTAL - 10:
        fail(f"{what}: the sum read {got}, expected {TOTAL - 10}")
    if calls(P["G1"], "SELECT sum(balance) FROM accounts%") != 1:
        fail(f"{what}: the sum did not run on the pin G1")


cur.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", A)
cur.execute("SAVEPOINT before_b")
cur.execute("UPDATE accounts SET balance = balance + 10 WHERE id = ?", B)
reset_statements()
refused("(d) the sum after a write of B", "SELECT sum(balance) FROM accounts")
cur.execute("ROLLBACK TO SAVEPOINT before_b")
sum_on_pin("(d) after ROLLBACK TO SAVEPOINT")
cur.execute("SAVEPOINT kept")
cur.execute("UPDATE accounts SET balance = balance + 10 WHERE id = ?", B)
cur.execute("RELEASE SAVEPOINT kept")
reset_statements()
refused("(d) the sum after a released savepoint", "SELECT sum(balance) FROM accounts")
conn.rollback()

cur.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", A)
cur.fast_executemany = True
expect_error("(d) an array with a failing row",
             lambda: cur.executemany("UPDATE accounts SET balance = balance + 10 / ? WHERE id = ?",
                                     [(1, B), (0, A2)]), "22012")
cur.fast_executemany = False
if read("SELECT balance FROM accounts WHERE id = ?", B)[0][0] != 110:
    fail("(d) the failed array's first row was not undone")
sum_on_pin("(d) after the failed array")
conn.rollback()

cur.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", A)
reset_statements()
cur.execute("INSERT INTO orders (id, item) VALUES (?, 'd')", B)
if calls(P["G2"], "INSERT INTO orders%") != 1:
    fail("(d) the INSERT into orders of B's key did not run on G2")
expect_error("(d) a failing UPDATE of B on G2",
             lambda: cur.execute("UPDATE accounts SET balance = balance + 10 / ? WHERE id = ?",
                                 0, B), "22012")
sum_on_pin("(d) after the failed UPDATE")
refused("(d) orders, written on G2", "SELECT count(*) FROM orders")
conn.rollback()
log("(d) writes undone by a savepoint, an array or their failed statement no longer refuse reads")

conn.close()
log("a transaction across groups reads its own writes or is told it cannot")
