"""Row locks in a transaction of a global connection (pyodbc, autocommit
off): docs/global-connection.md, "Row locks". A SELECT that locks rows
(FOR UPDATE, FOR SHARE...) runs where its rows are, as a write does: on
the member the transaction holds in the key's group, or on that group's
primary, which joins the transaction. Through postgres_fdw the lock would
belong to postgres_fdw's session, and the transaction's own UPDATE of the
row, sent to its owner, would wait for it forever.

usage: xact_row_locks.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

accounts is hash-sharded over G1, G2 and G3; A is an account G1 owns, B
one G2 owns, C one G3 owns. The witnesses: pg_stat_statements on each
group's primary, pg_stat_activity, the balances on the owners' own
shards, and another session's NOWAIT lock on the owner.

(a) The transfer pattern: SELECT A FOR UPDATE (the transaction's first
    statement: pinned on G1), SELECT B FOR UPDATE (prepared, key of G2),
    UPDATE A, UPDATE B, COMMIT. Each locking SELECT ran once on its
    owner's primary; nothing reached G2 through postgres_fdw; G2's primary
    held the transaction open before the UPDATEs; the COMMIT applied both
    (with the two phases: G2 ran PREPARE TRANSACTION); nothing is left.
(b) The lock is the transaction's, on the owner: while it is held, a
    general connection to G2's primary gets 55P03 from `FOR UPDATE
    NOWAIT` of B; after ROLLBACK the same lock is granted. The same with
    the key as a literal (SQLExecDirect) and FOR SHARE of C on G3 (a
    NOWAIT FOR UPDATE of C there is refused).
(c) A locking SELECT without a key on the sharded table, in a transaction:
    refused with 0A000 / 90122 before anything is sent, saying why; as
    the transaction's first statement and after a keyed one. A locking
    SELECT by a key of the pin's own group stays on the pin (G2 ran
    nothing).
(d) Autocommit: a locking SELECT of B (its own transaction) runs on G2
    and locks nothing afterwards; it carries no statement mark (no
    set_config anywhere: a lock fires no row trigger)."""
import pyodbc

from xact_lib import (DSN, GROUPS, balance, connect, expect_calls, expect_error, fail, helper,
                      in_transaction_on, log, nothing_left, owners, primary, reset_statements)

APP = "xlocks"
P = {g: primary(g) for g in GROUPS}
LOCK_B = "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE"
# The statement mark as pg_stat_statements keeps it.
MARK = "SELECT pg_catalog.set_config($1, $2, $3)"
# postgres_fdw reads a foreign partition through a cursor of its own.
FORWARDED = "DECLARE c%"

helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
BY_GROUP = owners()
A, B, C = BY_GROUP["G1"][0], BY_GROUP["G2"][0], BY_GROUP["G3"][0]
log(f"A = {A} on G1, B = {B} on G2, C = {C} on G3")


def general(group):
    """A general connection (no global connection) to group's primary, for
    another session's view."""
    return pyodbc.connect(f"DSN={DSN};GlobalConnection=No;Servers=127.0.0.1:"
                          f"{helper('port', P[group])};Locator=;ApplicationName=xlocks_other",
                          autocommit=False)


def lock_refused(group, account, how="FOR UPDATE"):
    """Whether another session's NOWAIT lock of account on its owner is
    refused (55P03) because a lock is held; granted locks are let go."""
    other = general(group)
    try:
        other.cursor().execute(f"SELECT 1 FROM accounts WHERE id = {account} {how} NOWAIT")
        return False
    except pyodbc.Error as e:
        if e.args[0] != "55P03":
            fail(f"NOWAIT lock of {account} on {group}: {e}")
        return True
    finally:
        other.rollback()
        other.close()


conn = connect(APP)
cur = conn.cursor()
# A lock that is not the transaction's would make its UPDATE wait forever:
# fail in seconds instead (SET reaches every member session).
cur.execute("SET lock_timeout = '10s'")
conn.commit()

# ---- (a) the transfer pattern ----
reset_statements()
cur.execute("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", A)
if cur.fetchall()[0][0] != 100:
    fail("(a) A's balance read under lock should be 100")
cur.execute("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", B)
if cur.fetchall()[0][0] != 100:
    fail("(a) B's balance read under lock should be 100")
if in_transaction_on(P["G2"], APP) != 1:
    fail(f"(a) {P['G2']} should hold the transaction open after the lock of B")
cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, B)
conn.commit()
if (balance("G1", A), balance("G2", B)) != (90, 110):
    fail(f"(a) after COMMIT: A {balance('G1', A)}, B {balance('G2', B)}, expected 90 and 110")
expect_calls(P["G1"], LOCK_B, 1, "(a) the lock of A on G1")
expect_calls(P["G2"], LOCK_B, 1, "(a) the lock of B on G2")
for g in GROUPS:
    expect_calls(P[g], FORWARDED, 0, "(a) nothing read through postgres_fdw")
expect_calls(P["G2"], "PREPARE TRANSACTION%", 1, "(a) G2 joined and committed in two phases")
nothing_left("(a)")
log("(a) SELECT ... FOR UPDATE of A (G1) and B (G2), both UPDATEs, COMMIT: each lock on its "
    "owner's primary, nothing through postgres_fdw, both balances moved")

# ---- (b) the lock is the transaction's, held on the owner ----
def held_until_rollback(what, group, account, statements):
    """Runs statements ((sql, params) each) in a transaction: account's row
    is then locked on group's primary, and free again after ROLLBACK."""
    for sql, params in statements:
        cur.execute(sql, *params)
        cur.fetchall()
    if not lock_refused(group, account):
        fail(f"(b) {what}: {account}'s row should be locked on {group} in the transaction")
    conn.rollback()
    if lock_refused(group, account):
        fail(f"(b) {what}: {account}'s row should be free on {group} after ROLLBACK")


held_until_rollback("prepared, FOR UPDATE", "G2", B, [
    ("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", (A,)),
    ("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", (B,))])
held_until_rollback("literals, FOR SHARE", "G3", C, [
    (f"SELECT balance FROM accounts WHERE id = {A} FOR UPDATE", ()),
    (f"SELECT balance FROM accounts WHERE id = {C} FOR SHARE", ())])
nothing_left("(b)")
log("(b) the locks are held on the owners by the transaction (55P03 for another session's "
    "NOWAIT), prepared and as literals, FOR UPDATE and FOR SHARE; ROLLBACK frees them")

# ---- (c) a locking SELECT without a key ----
reset_statements()
for first in (True, False):
    if not first:
        cur.execute("SELECT balance FROM accounts WHERE id = ?", A)
        cur.fetchall()
    e = expect_error(f"(c) a locking SELECT without a key{'' if first else ' after a keyed one'}",
                     lambda: cur.execute("SELECT id FROM accounts WHERE balance > 0 FOR UPDATE"),
                     "0A000", native=90122, says="locks rows")
    if "sharding key" not in str(e):
        fail(f"(c) the refusal should say to give the sharding key: {e}")
    conn.rollback()
for g in GROUPS:
    expect_calls(P[g], "SELECT id FROM accounts WHERE balance%", 0, "(c) nothing sent")
cur.execute("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", A)
cur.fetchall()
cur.execute("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", BY_GROUP["G1"][1])
cur.fetchall()
conn.rollback()
expect_calls(P["G1"], LOCK_B, 2, "(c) both locks of G1's rows on G1")
for g in ("G2", "G3"):
    expect_calls(P[g], "SELECT%accounts%", 0, f"(c) {g} ran nothing of it")
log("(c) a locking SELECT without a key in a transaction: 0A000 / 90122, nothing sent; by "
    "keys of the pin's group: on the pin only")

# ---- (d) autocommit ----
auto = connect(APP, autocommit=True)
acur = auto.cursor()
reset_statements()
acur.execute("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", B)
if acur.fetchall()[0][0] != 110:
    fail("(d) B's balance should read 110")
if lock_refused("G2", B):
    fail("(d) an autocommit locking SELECT should leave no lock behind")
expect_calls(P["G2"], LOCK_B, 1, "(d) the autocommit lock of B on its owner")
for g in GROUPS:
    expect_calls(P[g], MARK, 0, "(d) no statement mark for a locking SELECT")
auto.close()
conn.close()
nothing_left("(d)")
log("(d) autocommit: a locking SELECT runs on its owner, without the statement mark, and "
    "leaves no lock")
