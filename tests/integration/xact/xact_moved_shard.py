"""A shard moved under an open transaction across groups (issue 16, point 2
of the lead's open points): the transaction's write reaches the shard's old
owner through the shard map it began with, which reaches the new owner
through postgres_fdw, and PostgreSQL refuses to prepare that part (0A000).
The application gets 40001 saying the shard map changed (nothing applied:
docs/failover.md), and the same transaction run again commits.

usage: xact_moved_shard.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

The move cannot happen between a write and the COMMIT: gcctl move-shard
locks the table's parent on every group, which the transaction's write holds
until it ends. It happens after the transaction's first statement (which
pins it and touches no table) and before its writes, so that the connection
keeps the shard map it began with (a connection reads the catalog between
transactions only).

1. Autocommit off: `SELECT 1` opens the transaction on group C's primary.
2. gcctl move-shard moves the shard of account Z from group X to group Y
   (both other than C).
3. The transaction moves 10 from A (of C) to Z: Z's write joins X's
   primary, by the old map.
4. COMMIT: 40001, "the shard map changed"; on the servers A and Z hold their
   balances (Z read on Y's own partition), nothing is left prepared.
5. The transfer run again on the same connection commits on C and Y."""
from xact_lib import (GROUPS, balance, connect, expect_error, fail, helper, in_transaction_on,
                      log, nothing_left, owners, primary)

APP = "xmove"
P = {g: primary(g) for g in GROUPS}

helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
conn = connect(APP)
cur = conn.cursor()
cur.execute("SELECT 1")
cur.fetchall()
pinned = [g for g in GROUPS if in_transaction_on(P[g], APP)]
if len(pinned) != 1:
    fail(f"1. the transaction should be open on one group's primary: {pinned}")
C = pinned[0]
X, Y = [g for g in GROUPS if g != C]
BY_GROUP = owners()
A, Z = BY_GROUP[C][0], BY_GROUP[X][0]
shard = helper("app", "G1N1", f"SELECT tableoid::regclass FROM accounts WHERE id = {Z}")
log(f"1. transaction open on {C}; account {A} of {C}, account {Z} in shard {shard} of {X}")

helper("gcctl", "move-shard", "accounts", shard, "--to", Y, timeout=120)
log(f"2. {shard} moved from {X} to {Y}")

cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, Z)
if not in_transaction_on(P[X], APP):
    fail(f"3. the write of {Z} should have joined {X}'s primary by the old shard map")
log(f"3. the transfer's write of {Z} joined {X}'s primary")

expect_error("4. COMMIT after the move", conn.commit, "40001", says="shard map changed")
conn.rollback()
if balance(C, A) != 100 or balance(Y, Z) != 100:
    fail(f"4. balances after the refused COMMIT: {A} = {balance(C, A)}, {Z} = {balance(Y, Z)} "
         "(expected 100 and 100)")
nothing_left("4.")
log("4. COMMIT answered 40001, nothing applied, nothing prepared")

cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, Z)
conn.commit()
if balance(C, A) != 90 or balance(Y, Z) != 110:
    fail(f"5. balances after the transfer ran again: {A} = {balance(C, A)}, "
         f"{Z} = {balance(Y, Z)} (expected 90 and 110)")
nothing_left("5.")
conn.close()
print(f"ok: a shard moved under a transaction ({shard}, {X} -> {Y}) gives 40001 at COMMIT "
      "with nothing applied; run again, it commits", flush=True)
