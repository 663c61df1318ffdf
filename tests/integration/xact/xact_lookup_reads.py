"""A write in a transaction across groups that looks a value up in another
group's table (pyodbc, autocommit off): docs/global-connection.md,
"Transactions across groups", the decider. Such a write reads through
postgres_fdw on its member, after which PostgreSQL refuses to PREPARE that
member's part. Before, a transaction whose first write was plain and whose
second, on another group, looked a value up failed at COMMIT with 0A000
("cannot PREPARE a transaction that has operated on postgres_fdw foreign
tables"), every part rolled back.

usage: xact_lookup_reads.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

accounts is hash-sharded over G1, G2 and G3; A is an account G1 owns, B
one G2 owns. rates is a solo table of G3: G1 and G2 read it through
postgres_fdw. BONUS updates an account by a rate looked up in rates. The
witnesses: the balances on the owners' own shards, and pg_stat_statements
on each group's primary (who ran PREPARE TRANSACTION, who decided).

(a) UPDATE A (plain: G1 pinned), BONUS B (G2 joins and reads rates),
    COMMIT: both applied; G1 prepared its part and G2 decided (its
    COMMIT carries gcluster.decide_commit); nothing left behind.
(b) BONUS A (G1 pinned, reads rates), UPDATE B (plain, G2 joins), COMMIT:
    both applied, G1 decided and G2 prepared, as before.
(c) BONUS A and BONUS B: both members read through postgres_fdw, and one
    of them must prepare: the COMMIT fails with 0A000, nothing applied on
    either group, nothing left behind.
(d) A plain UPDATE of A, a SELECT of A with a lookup (G1 reads rates), a
    BONUS of B: two members reached out; the COMMIT fails as in (c).
(e) The same with a plain SELECT of A (its own group's row, by key) in
    place of the lookup: it reads nothing of another group, and the COMMIT
    succeeds, decided on G2.
(f) An error inside the transaction takes only its statement: BONUS A
    (G1 pinned, and it read rates through postgres_fdw, so G1 must
    decide), then on G2, which joins for it, a lookup divided by zero
    (22012, after reading rates through postgres_fdw) and an UPDATE moving
    B's row to G1 by its key (refused by the cluster's trigger, 0A000 /
    90123, after postgres_fdw began on G2): each time G2's part held
    nothing else and leaves the transaction; a plain UPDATE of B joins G2
    again, and the COMMIT applies both updates (before, G2 could not
    PREPARE and the COMMIT failed with 0A000, losing the update of A
    too).
(g) A read that would make a second member read through postgres_fdw
    runs on the pin instead: UPDATE A (G1 pinned), a SELECT of rates on
    G1 (through postgres_fdw: the pin reached out), UPDATE B (G2 joins),
    then a SELECT joining B's row to rates. Before, it ran on G2, where B's
    row was written, and read rates there through postgres_fdw: the COMMIT
    failed with 0A000, both updates lost. Now it runs on the pin, B's row
    brought to it as the transaction wrote it (a split read, asked of G2
    with no postgres_fdw), and the COMMIT applies both, decided on G1.
(h) A split read on the pin does not count as the pin reading another
    group: a SELECT of lookup_g1 (a solo table of G1: G1 pinned), BONUS B
    (G2 joins and reads rates through postgres_fdw), an UPDATE of rates
    (G3 joins), then on the pin a SELECT joining lookup_g1 to rates, whose
    rows come from G3's member as values. Before, that join counted the
    pin as a second member that read through postgres_fdw: G2 was made to
    prepare, and the COMMIT failed with 0A000. Now G2 decides and the
    COMMIT applies.
(i) A statement the driver cannot place counts until the servers say: a
    SELECT of a view over accounts (a name the shard map does not know)
    by A's key on the pin, then BONUS B. From the text both members may
    have read through postgres_fdw; at COMMIT their servers say that only
    G2 holds a postgres_fdw transaction (the view read G1's own rows), so
    G2 decides and the COMMIT applies. Before, it failed with 0A000, both
    updates lost.
(j) A lookup in a table of a group the transaction holds is brought to
    the member that would read it through postgres_fdw as the second:
    UPDATE A (G1 pinned), a SELECT of accounts without a key (the pin
    reads G2 and G3 through postgres_fdw), then on G2 an UPDATE of B by a
    rate looked up in lookup_g1 (a solo table of G1). Before, G2 read
    lookup_g1 through postgres_fdw and the COMMIT failed with 0A000, both
    updates lost. Now G1 sends lookup_g1's rows once, G2 runs the UPDATE
    over them (pg_stat_statements), G1 decides, G2 prepares, and both
    updates apply. With more rows in lookup_g1 than are brought (100,001)
    the UPDATE runs on G2 as sent, reading through postgres_fdw as
    before (its rows are no write of the transaction); ROLLBACK."""
from xact_lib import (GROUPS, balance, connect, expect_calls, expect_error, fail, helper, log,
                      nothing_left, owners, primary, reset_statements)

APP = "xlookup"
P = {g: primary(g) for g in GROUPS}
BONUS = "UPDATE accounts SET balance = balance + (SELECT v FROM rates WHERE k = 'bonus') " \
        "WHERE id = ?"
PLAIN = "UPDATE accounts SET balance = balance - 1 WHERE id = ?"
DECIDE = "%gcluster.decide_commit%"

helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
helper("app", "G3N1", "INSERT INTO rates VALUES ('bonus', 5)")
BY_GROUP = owners()
A, B = BY_GROUP["G1"][0], BY_GROUP["G2"][0]
log(f"A = {A} on G1, B = {B} on G2")


def expect_decided(what, decider, preparer):
    """decider's primary ran the decision, preparer's the PREPARE, and no
    prepared part is left behind."""
    expect_calls(P[decider], DECIDE, 1, f"{what} {decider} decides")
    expect_calls(P[preparer], "PREPARE TRANSACTION%", 1, f"{what} {preparer} prepares")
    nothing_left(what)


def expect_balances(what, a, b):
    got = (balance("G1", A), balance("G2", B))
    if got != (a, b):
        fail(f"{what}: balances of A and B are {got}, expected {(a, b)}")


conn = connect(APP)
cur = conn.cursor()

# (a)
reset_statements()
cur.execute(PLAIN, A)
cur.execute(BONUS, B)
conn.commit()
expect_balances("(a)", 99, 105)
expect_calls(P["G2"], "PREPARE TRANSACTION%", 0, "(a) the member that read rates")
expect_decided("(a)", "G2", "G1")
log("(a) the joined member that read through postgres_fdw decided, the pin prepared")

# (b)
reset_statements()
cur.execute(BONUS, A)
cur.execute(PLAIN, B)
conn.commit()
expect_balances("(b)", 104, 104)
expect_decided("(b)", "G1", "G2")
log("(b) the pin that read through postgres_fdw decided, as before")

# (c)
cur.execute(BONUS, A)
cur.execute(BONUS, B)
expect_error("(c) COMMIT with two members that read through postgres_fdw", conn.commit, "0A000",
             says="cannot PREPARE a transaction that has operated on postgres_fdw")
expect_balances("(c) nothing applied", 104, 104)
nothing_left("(c)")
log("(c) two members that read through postgres_fdw: 0A000, nothing applied")

# (d)
cur.execute(PLAIN, A)
cur.execute("SELECT balance + (SELECT v FROM rates WHERE k = 'bonus') FROM accounts "
            "WHERE id = ?", A)
cur.fetchall()
cur.execute(BONUS, B)
expect_error("(d) COMMIT after a lookup on the pin and one on a joined member", conn.commit,
             "0A000", says="cannot PREPARE")
expect_balances("(d) nothing applied", 104, 104)
nothing_left("(d)")
log("(d) a lookup read on the pin counts")

# (e)
reset_statements()
cur.execute(PLAIN, A)
cur.execute("SELECT balance FROM accounts WHERE id = ?", A)
cur.fetchall()
cur.execute(BONUS, B)
conn.commit()
expect_balances("(e)", 103, 109)
expect_calls(P["G2"], DECIDE, 1, "(e) the member that read rates decides")
nothing_left("(e)")
log("(e) a plain read of the pin's own row does not count")

# (f)
reset_statements()
cur.execute(BONUS, A)
expect_error("(f) a lookup divided by zero on G2", lambda: cur.execute(
    "UPDATE accounts SET balance = balance + (SELECT v FROM rates WHERE k = 'bonus') / 0 "
    "WHERE id = ?", B), "22012")
expect_error("(f) B's row moved to G1 by its key", lambda: cur.execute(
    "UPDATE accounts SET id = ? WHERE id = ?", BY_GROUP["G1"][1], B), "0A000", 90123)
cur.execute(PLAIN, B)
conn.commit()
expect_balances("(f) the two updates, nothing of the failed ones", 108, 108)
nothing_left("(f)")
log("(f) a failed statement that joined G2 left the transaction; the COMMIT applied the rest")

# (g)
reset_statements()
cur.execute(PLAIN, A)
cur.execute("SELECT v FROM rates WHERE k = 'bonus'")
cur.fetchall()
cur.execute(PLAIN, B)
got = cur.execute("SELECT a.balance, r.v FROM accounts a JOIN rates r ON r.k = 'bonus' "
                  "WHERE a.id = ?", B).fetchall()
if [tuple(int(v) for v in row) for row in got] != [(107, 5)]:
    fail(f"(g) the join read B's row as {got}, expected its written balance 107 and rate 5")
expect_calls(P["G2"], "%JOIN rates%", 0, "(g) the join did not run on G2")
expect_calls(P["G2"], "%json_agg%", 1, "(g) G2 sent B's row for the join")
conn.commit()
expect_balances("(g) both updates", 107, 107)
expect_decided("(g)", "G1", "G2")
log("(g) a read that would have made G2 read through postgres_fdw ran on the pin; COMMIT applied")

# (h)
made = connect(APP, ";LocalityGroupPolicy=1;LocalityGroupPath=G1", autocommit=True)
made.cursor().execute("CREATE TABLE lookup_g1 (k text PRIMARY KEY, v bigint)")
made.cursor().execute("INSERT INTO lookup_g1 VALUES ('bonus', 7)")
reset_statements()
cur.execute("SELECT v FROM lookup_g1 WHERE k = 'bonus'").fetchall()
cur.execute(BONUS, B)
cur.execute("UPDATE rates SET v = v + 0 WHERE k = 'bonus'")
got = cur.execute("SELECT l.v, r.v FROM lookup_g1 l JOIN rates r ON r.k = l.k").fetchall()
if [tuple(int(v) for v in row) for row in got] != [(7, 5)]:
    fail(f"(h) the join of lookup_g1 and rates gave {got}, expected [(7, 5)]")
conn.commit()
expect_balances("(h) B's bonus", 107, 112)
expect_decided("(h)", "G2", "G1")
made.cursor().execute("DROP TABLE lookup_g1")
made.close()
log("(h) a split read on the pin left G2 the decider; COMMIT applied")

# (i)
made = connect(APP, "", autocommit=True)
made.cursor().execute("CREATE VIEW account_view AS SELECT id, balance FROM accounts")
reset_statements()
cur.execute(PLAIN, A)
got = cur.execute("SELECT balance FROM account_view WHERE id = ?", A).fetchall()
if [int(row[0]) for row in got] != [106]:
    fail(f"(i) the view read A's balance as {got}, expected 106")
expect_calls(P["G1"], "%FROM account_view%", 1, "(i) the view's SELECT ran on the pin")
cur.execute(BONUS, B)
conn.commit()
expect_balances("(i) both updates", 106, 117)
expect_decided("(i)", "G2", "G1")
made.cursor().execute("DROP VIEW account_view")
made.close()
log("(i) the servers said which member read through postgres_fdw; COMMIT applied")

# (j)
made = connect(APP, ";LocalityGroupPolicy=1;LocalityGroupPath=G1", autocommit=True)
made.cursor().execute("CREATE TABLE lookup_g1 (k text PRIMARY KEY, v bigint)")
made.cursor().execute("INSERT INTO lookup_g1 VALUES ('bonus', 7)")


def lookup_on_g2_after_the_pin_read_g2():
    """UPDATE A (G1 pinned), a read of accounts without a key (the pin
    reads G2 and G3 through postgres_fdw), then the UPDATE of B on G2 by
    a rate looked up in lookup_g1, counted from a fresh pg_stat_statements."""
    reset_statements()
    cur.execute(PLAIN, A)
    cur.execute("SELECT count(*) FROM accounts").fetchall()
    cur.execute("UPDATE accounts SET balance = balance + (SELECT v FROM lookup_g1 "
                "WHERE k = 'bonus') WHERE id = ?", B)


lookup_on_g2_after_the_pin_read_g2()
expect_calls(P["G1"], "SELECT count(*), coalesce(json_agg(gc_r)%", 1,
             "(j) G1 sent lookup_g1's rows")
expect_calls(P["G2"], "UPDATE accounts SET balance = balance + (SELECT v FROM (%", 1,
             "(j) G2 ran the UPDATE over the rows brought to it")
conn.commit()
expect_balances("(j) both updates", 105, 124)
expect_decided("(j)", "G1", "G2")
made.cursor().execute("INSERT INTO lookup_g1 SELECT 'k' || g, g FROM generate_series(1, 100000) g")
lookup_on_g2_after_the_pin_read_g2()
if cur.rowcount != 1:
    fail(f"(j) the UPDATE of B over a large lookup_g1 changed {cur.rowcount} rows, expected 1")
expect_calls(P["G2"], "UPDATE accounts SET balance = balance + (SELECT v FROM lookup_g1%", 1,
             "(j) G2 ran the UPDATE over a large lookup_g1 as sent")
conn.rollback()
expect_balances("(j) after ROLLBACK", 105, 124)
made.cursor().execute("DROP TABLE lookup_g1")
made.close()
log("(j) a lookup of the pin's group's table was brought to G2; COMMIT applied")

conn.close()
log("lookups through postgres_fdw decide where the commit is decided")
