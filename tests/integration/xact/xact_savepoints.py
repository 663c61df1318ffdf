"""The application's savepoints in a transaction across groups, through a
global connection with pyodbc's defaults (autocommit off):
docs/global-connection.md, "Savepoints".

usage: xact_savepoints.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

accounts is hash-sharded over G1, G2 and G3; A is an account G1 owns, B
one of G2, D one of G3. Each transaction starts with a write of A, so G1's
primary holds it and G2's and G3's join when the transaction first writes
there. Every check is made on the servers: the balances on the owners' own
shards, and pg_stat_statements on each group's primary for what ran there.

(a) A member that joins after the savepoint: UPDATE A, SAVEPOINT a,
    UPDATE B (G2 joins), ROLLBACK TO SAVEPOINT a, UPDATE D (G3 joins),
    COMMIT. A and D changed, B did not. G2's and G3's primaries each set
    the savepoint once, right after their BEGIN; G2 went back to it, G3 did
    not (it joined after the ROLLBACK TO).
(b) Nested and repeated names: UPDATE A, SAVEPOINT x, UPDATE B (G2 joins
    with x), SAVEPOINT x, UPDATE D (G3 joins with both), RELEASE SAVEPOINT
    x (the newer x, on every member), ROLLBACK TO SAVEPOINT x (the older),
    COMMIT: only A changed. Were the RELEASE left on the pin alone, G2
    would go back to its newer x and keep B's change.
(c) Names as the server reads them: `SAVEPOINT MyPoint` gone back to as
    `mypoint`, and a quoted name holding a space and a quote as written,
    each after a member joined.
(d) A name never set, after a member joined (UPDATE A, SAVEPOINT a,
    UPDATE B): ROLLBACK TO it and RELEASE it get the pin's 3B001 and are
    sent to no joined member (pg_stat_statements); then the rollback level
    applies as on one server. Level 2 (the default): the failure alone is
    undone, the transaction goes on: ROLLBACK TO a undoes B on G2, COMMIT
    keeps A. Level 1: the transaction is rolled back on every group (no
    session of the test left in a transaction, no balance changed).
    Level 0: the transaction stays aborted: UPDATE D (G3) fails 25P02
    unsent, ROLLBACK TO a mends it on every member, UPDATE D then runs,
    COMMIT keeps A and D.
(e) Still refused: a savepoint set inside a text of several statements
    runs on the pin alone, so once G2 joined, ROLLBACK TO it is 0A000 /
    90122, nothing sent, and so is a text of several statements ending
    with one (its UPDATE does not run either); the transaction goes on and
    commits."""
from xact_lib import (GROUPS, balance, connect, expect_calls, expect_error, fail, helper, su,
                      in_transaction_on, log, nothing_left, owners, primary, reset_statements)

APP = "xsavepoints"
P = {g: primary(g) for g in GROUPS}
BUMP = "UPDATE accounts SET balance = balance + 1 WHERE id = ?"

helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
BY_GROUP = owners()
if any(not BY_GROUP[g] for g in GROUPS):
    fail(f"accounts are not spread over every group: {BY_GROUP}")
A, B, D = BY_GROUP["G1"][0], BY_GROUP["G2"][0], BY_GROUP["G3"][0]
OWNER = {A: "G1", B: "G2", D: "G3"}
log(f"A = {A} on G1, B = {B} on G2, D = {D} on G3")


def balances():
    return {account: balance(OWNER[account], account) for account in (A, B, D)}


def expect_changed(before, changed, what):
    """Each of A, B, D holds its balance of before, plus 1 if in changed."""
    now = balances()
    want = {account: before[account] + (1 if account in changed else 0) for account in before}
    if now != want:
        fail(f"{what}: balances {now}, expected {want}")


conn = connect(APP)
cur = conn.cursor()

# ---- (a) a member that joins after the savepoint ----
reset_statements()
before = balances()
cur.execute(BUMP, A)
cur.execute("SAVEPOINT a")
cur.execute(BUMP, B)
cur.execute("ROLLBACK TO SAVEPOINT a")
cur.execute(BUMP, D)
conn.commit()
expect_changed(before, {A, D}, "(a)")
for g in ("G2", "G3"):
    expect_calls(P[g], 'SAVEPOINT "a"', 1, f"(a) {g}, which joined after the savepoint")
expect_calls(P["G1"], "SAVEPOINT a", 1, "(a) the pin")
expect_calls(P["G1"], "ROLLBACK TO SAVEPOINT a", 1, "(a) the pin")
expect_calls(P["G2"], "ROLLBACK TO SAVEPOINT a", 1, "(a) G2")
expect_calls(P["G3"], "ROLLBACK TO SAVEPOINT a", 0, "(a) G3, which joined after ROLLBACK TO")
nothing_left("(a)")
log("ok (a): members that joined after SAVEPOINT got it after their BEGIN; ROLLBACK TO undid "
    "G2's write, G3's (joined later) committed")

# ---- (b) nested and repeated names ----
reset_statements()
before = balances()
cur.execute(BUMP, A)
cur.execute("SAVEPOINT x")
cur.execute(BUMP, B)
cur.execute("SAVEPOINT x")
cur.execute(BUMP, D)
cur.execute("RELEASE SAVEPOINT x")
cur.execute("ROLLBACK TO SAVEPOINT x")
conn.commit()
expect_changed(before, {A}, "(b)")
expect_calls(P["G2"], 'SAVEPOINT "x"', 1, "(b) G2 joined with the first x")
expect_calls(P["G3"], 'SAVEPOINT "x"', 2, "(b) G3 joined with both")
for g in GROUPS:
    expect_calls(P[g], "RELEASE SAVEPOINT x", 1, f"(b) {g}")
    expect_calls(P[g], "ROLLBACK TO SAVEPOINT x", 1, f"(b) {g}")
nothing_left("(b)")
log("ok (b): RELEASE of the newer x ran on every member, ROLLBACK TO the older x undid G2's "
    "and G3's writes")

# ---- (c) names as the server reads them ----
before = balances()
cur.execute(BUMP, A)
cur.execute("SAVEPOINT MyPoint")
cur.execute(BUMP, B)
cur.execute("ROLLBACK TO mypoint")
cur.execute('SAVEPOINT "Sp ""One"""')
cur.execute(BUMP, D)
cur.execute('ROLLBACK TO SAVEPOINT "Sp ""One"""')
conn.commit()
expect_changed(before, {A}, "(c)")
nothing_left("(c)")
log("ok (c): a folded name and a quoted one with a quote inside went back on every member")

# ---- (d) a name never set ----
def unknown_savepoint(level):
    """UPDATE A, SAVEPOINT a, UPDATE B, then ROLLBACK TO and RELEASE of a
    savepoint never set on a connection at level: 3B001 (at level 0 the
    RELEASE would get 25P02), and the joined G2 was sent neither. Returns the connection and its cursor."""
    reset_statements()
    c = connect(APP, ";Protocol=7.4-%d" % level)
    k = c.cursor()
    k.execute(BUMP, A)
    k.execute("SAVEPOINT a")
    k.execute(BUMP, B)
    expect_error(f"(d) level {level}: ROLLBACK TO a savepoint never set", lambda: k.execute(
        "ROLLBACK TO SAVEPOINT no_such_savepoint"), "3B001", says="no_such_savepoint")
    if level != 0:
        expect_error(f"(d) level {level}: RELEASE of a savepoint never set", lambda: k.execute(
            "RELEASE SAVEPOINT no_such_savepoint"), "3B001", says="no_such_savepoint")
    if level != 1:
        # pg_stat_statements counts no failed statement: G2's session shows
        # whether it was sent one (its transaction would be aborted).
        states = su(P["G2"], "SELECT state FROM pg_stat_activity WHERE application_name = "
                             f"'{APP}' AND state LIKE 'idle in transaction%'")
        if states.split("\n") != ["idle in transaction"]:
            fail(f"(d) level {level}: G2's sessions of the test are {states}, expected one "
                 "idle in a transaction that did not fail")
    return c, k


before = balances()
c2, k2 = unknown_savepoint(2)
k2.execute("ROLLBACK TO SAVEPOINT a")
c2.commit()
c2.close()
expect_changed(before, {A}, "(d) level 2")
nothing_left("(d) level 2")

before = balances()
c1, k1 = unknown_savepoint(1)
for g in GROUPS:
    if in_transaction_on(P[g], APP):
        fail(f"(d) level 1: {P[g]} still holds the transaction after it was rolled back")
c1.rollback()
c1.close()
expect_changed(before, set(), "(d) level 1")
nothing_left("(d) level 1")

before = balances()
c0, k0 = unknown_savepoint(0)
expect_error("(d) level 0: a write on G3 after the failure", lambda: k0.execute(BUMP, D),
             "25P02")
expect_calls(P["G3"], "UPDATE accounts%", 0, "(d) level 0: G3, after the failure")
k0.execute("ROLLBACK TO SAVEPOINT a")
k0.execute(BUMP, D)
c0.commit()
c0.close()
expect_changed(before, {A, D}, "(d) level 0")
nothing_left("(d) level 0")
log("ok (d): a savepoint never set: 3B001 from the pin, no joined member sent it; level 2 "
    "went on, level 1 rolled back on every group, level 0 stayed aborted until ROLLBACK TO")

# ---- (e) a savepoint set in a text of several statements ----
reset_statements()
before = balances()
cur.execute(BUMP, A)
cur.execute(f"SAVEPOINT s; UPDATE accounts SET balance = balance + 1 WHERE id = {A}")
cur.execute(BUMP, B)
expect_error("(e) ROLLBACK TO a savepoint of a text of several statements", lambda: cur.execute(
    "ROLLBACK TO SAVEPOINT s"), "0A000", 90122)
expect_error("(e) ROLLBACK TO at the end of a text of several statements", lambda: cur.execute(
    f"UPDATE accounts SET balance = balance + 1 WHERE id = {A}; ROLLBACK TO SAVEPOINT s"),
    "0A000", 90122)
for g in GROUPS:
    expect_calls(P[g], "ROLLBACK TO%", 0, f"(e) refused, not sent to {g}")
conn.commit()
now = balances()
if now != {A: before[A] + 2, B: before[B] + 1, D: before[D]}:
    fail(f"(e) the transaction did not go on after the refusal: {before} -> {now}")
nothing_left("(e)")
log("ok (e): after a savepoint in a text of several statements, ROLLBACK TO is 0A000 once G2 "
    "joined; nothing sent, the transaction committed")

conn.close()
print("ok: the application's savepoints hold on every member of a transaction across groups, "
      "whenever the member joined", flush=True)
