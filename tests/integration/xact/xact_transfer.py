"""A transfer between two groups through a global connection (pyodbc,
autocommit off): docs/global-connection.md, "Transactions across groups"
(issue 16, points 1, 2 and 4).

usage: xact_transfer.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

accounts is hash-sharded over G1, G2 and G3; A is an account G1 owns, B
one G2 owns, C another of G1's. Every check is made on the servers: the
balances on the owners' own shards, and pg_stat_statements on each group's
primary for where each statement ran.

(a) COMMIT, with parameters: UPDATE A (- 10), UPDATE B (+ 10), COMMIT.
    Before the COMMIT G1's and G2's primaries each hold the transaction
    open and neither balance has changed; after it both have. Each UPDATE
    ran on its owner's primary (not through postgres_fdw: no forwarded
    UPDATE anywhere); G2's primary ran PREPARE TRANSACTION and COMMIT
    PREPARED, G1's (the coordinator) neither, and recorded the decision;
    nothing is left prepared or decided; G3 saw none of it.
(b) ROLLBACK, with the keys as literals (SQLExecDirect): both UPDATEs ran
    on their owners, nothing was prepared, both balances are unchanged.
(c) A transfer inside G1 (A to C) commits as before: no PREPARE, no
    decision anywhere.
(d) An INSERT whose key is an expression, which the shard map cannot
    place, is refused in a transaction with 0A000, native 90122, before
    anything is sent: as the transaction's first statement, and after a
    keyed UPDATE of A. None reached a server; after ROLLBACK every balance
    is as before. (UPDATE and DELETE without a key, INSERTs of rows for
    several groups and INSERT ... SELECT run on every group:
    xact_spanning.py, xact_insert_select.py.)
(e) The witness for "not forwarded": an INSERT ... SELECT of rows for every
    group run on G1N1 itself, which postgres_fdw spreads, is counted as
    forwarded on the other groups' primaries."""
from xact_lib import (GROUPS, balance, calls, connect, expect_calls, expect_error, fail, helper,
                      in_transaction_on, log, nothing_left, owners, primary, reset_statements)

APP = "xtransfer"
P = {g: primary(g) for g in GROUPS}
# The driver's texts as pg_stat_statements keeps them (constants as $n).
DEBIT = "UPDATE accounts SET balance = balance - $1 WHERE id = $2"
CREDIT = "UPDATE accounts SET balance = balance + $1 WHERE id = $2"
# postgres_fdw's forwarded writes name the shard, schema-qualified.
FORWARDED = "UPDATE public.accounts%"

helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
BY_GROUP = owners()
if any(len(BY_GROUP[g]) < 2 for g in ("G1", "G2")):
    fail(f"accounts are not spread over G1 and G2: {BY_GROUP}")
A, C = BY_GROUP["G1"][:2]
B = BY_GROUP["G2"][0]
log(f"A = {A} and C = {C} on G1, B = {B} on G2")


def expect_balances(want, what):
    for (group, account), value in want.items():
        got = balance(group, account)
        if got != value:
            fail(f"{what}: account {account} holds {got} on {group}, expected {value}")


def expect_ran_on_owners(what):
    """The debit ran on G1's primary only, the credit on G2's only, nothing
    was forwarded through postgres_fdw, G3 ran neither."""
    expect_calls(P["G1"], DEBIT, 1, what)
    expect_calls(P["G2"], CREDIT, 1, what)
    expect_calls(P["G1"], CREDIT, 0, what)
    expect_calls(P["G2"], DEBIT, 0, what)
    for g in GROUPS:
        expect_calls(P[g], FORWARDED, 0, what)
    expect_calls(P["G3"], "UPDATE accounts%", 0, what)


conn = connect(APP)
cur = conn.cursor()

# ---- (a) COMMIT ----
reset_statements()
cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, B)
for g in ("G1", "G2"):
    if in_transaction_on(P[g], APP) != 1:
        fail(f"(a) {P[g]} does not hold the transaction before its COMMIT")
if in_transaction_on(P["G3"], APP):
    fail("(a) G3 holds part of a transaction that did not touch it")
expect_balances({("G1", A): 100, ("G2", B): 100}, "(a) before COMMIT")
conn.commit()
expect_balances({("G1", A): 90, ("G2", B): 110}, "(a) after COMMIT")
expect_ran_on_owners("(a)")
expect_calls(P["G2"], "PREPARE TRANSACTION%", 1, "(a)")
expect_calls(P["G2"], "COMMIT PREPARED%", 1, "(a)")
expect_calls(P["G1"], "PREPARE TRANSACTION%", 0, "(a) the coordinator")
expect_calls(P["G1"], "%gcluster.decide_commit(%", 1, "(a) the coordinator's decision")
expect_calls(P["G1"], "%gcluster.forget_commit_decision(%", 1, "(a) the decision forgotten")
expect_calls(P["G3"], "PREPARE TRANSACTION%", 0, "(a) G3")
nothing_left("(a)")
log("ok (a): transfer G1 -> G2 committed on both owners; each UPDATE on its owner's primary; "
    "G2 prepared and committed prepared, G1 decided; nothing left")

# ---- (b) ROLLBACK, keys as literals ----
reset_statements()
cur.execute(f"UPDATE accounts SET balance = balance - 7 WHERE id = {A}")
cur.execute(f"UPDATE accounts SET balance = balance + 7 WHERE id = {B}")
conn.rollback()
expect_balances({("G1", A): 90, ("G2", B): 110}, "(b) after ROLLBACK")
expect_ran_on_owners("(b)")
for g in GROUPS:
    expect_calls(P[g], "PREPARE TRANSACTION%", 0, "(b)")
    if in_transaction_on(P[g], APP):
        fail(f"(b) {P[g]} still holds the transaction after ROLLBACK")
nothing_left("(b)")
log("ok (b): transfer G1 -> G2 rolled back on both owners (literal keys, SQLExecDirect); "
    "nothing prepared")

# ---- (c) a transfer inside one group keeps the one-member path ----
reset_statements()
cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 5, A)
cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 5, C)
conn.commit()
expect_balances({("G1", A): 85, ("G1", C): 105}, "(c)")
for g in GROUPS:
    expect_calls(P[g], "PREPARE TRANSACTION%", 0, "(c)")
    expect_calls(P[g], "%gcluster.decide_commit(%", 0, "(c)")
expect_calls(P["G1"], DEBIT, 1, "(c)")
expect_calls(P["G1"], CREDIT, 1, "(c)")
nothing_left("(c)")
log("ok (c): a transfer inside G1 committed with no PREPARE and no decision")

# ---- (d) writes that cannot be placed in one group ----
# An UPDATE or DELETE without a usable key, an INSERT of VALUES rows for
# several groups and INSERT ... SELECT run on every group (xact_spanning.py,
# xact_insert_select.py); an INSERT whose key is an expression cannot be
# split that way and is refused.
reset_statements()
snapshot = helper("app", "G1N1", "SELECT id, balance FROM accounts ORDER BY id")
expect_error("(d) an unplaceable INSERT, first in its transaction", lambda: cur.execute(
    "INSERT INTO accounts VALUES (1000 + 1, 0), (1002, 0)"), "0A000", 90122)
cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 1, A)
expect_error("(d) an unplaceable INSERT after a keyed UPDATE", lambda: cur.execute(
    "INSERT INTO accounts VALUES (2000 + 1, 0), (2002, 0)"), "0A000", 90122)
for g in GROUPS:
    expect_calls(P[g], "INSERT%", 0, "(d) refused, not sent")
conn.rollback()
if helper("app", "G1N1", "SELECT id, balance FROM accounts ORDER BY id") != snapshot:
    fail("(d) a refused write, or the rolled-back transaction, changed balances")
nothing_left("(d)")
log("ok (d): an unplaceable INSERT refused with 0A000 / 90122 in a transaction, never sent; "
    "nothing changed")

# ---- (e) the witness itself: a forwarded write shows as one ----
# An INSERT ... SELECT run on a member itself (not through the driver)
# reaches the other groups through postgres_fdw: their primaries count
# forwarded INSERTs, so the zeros above are not a pattern that never matches.
reset_statements()
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 0 FROM generate_series(1001, 1012) g")
helper("app", "G1N1", "DELETE FROM accounts WHERE id > 1000")
forwarded = sum(calls(P[g], "INSERT INTO public.accounts%") for g in GROUPS)
if forwarded < 1:
    fail(f"(e) an autocommit INSERT of rows for every group shows {forwarded} forwarded "
         "INSERTs, expected at least 1: the witness of (a) and (b) sees nothing")
log(f"ok (e): the witness counts forwarded writes ({forwarded} for one INSERT of every group)")

conn.close()
print("ok: a transfer between groups commits on both owners or on neither, each write on its "
      "owner; a single-group transfer takes no extra step; unplaceable writes are refused",
      flush=True)
