"""A shard moved under an open transaction across groups (issue 16, point 2
of the lead's open points): the transaction's write reaches the shard's old
owner through the shard map it began with, which would reach the new
owner through postgres_fdw: the trigger on the foreign partition refuses
it (a global connection's transaction), the driver asks that member
whether a shard moved, and the application gets 40001 saying the shard
map changed (nothing applied: docs/failover.md); the same transaction run
again commits.

usage: xact_moved_shard.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

The move cannot happen between a write and the COMMIT: gcctl move-shard
locks the table's parent on every group, which the transaction's write holds
until it ends. It happens after the transaction's first statement (which
pins it and touches no table) and before its writes, so that the connection
keeps the shard map it began with (a connection reads the catalog between
transactions only).

1. Autocommit off: `SELECT 1` opens the transaction on group C's primary.
2. gcctl move-shard moves the shard of account Z from group X to group Y
   (both other than C); every foreign partition on every group (X's new
   one, the others' repointed ones) has the trigger that refuses a global
   connection's writes through postgres_fdw.
3. The transaction moves 10 from A (of C) to Z: Z's write joins X's
   primary, by the old map, where the shard is a foreign partition now,
   whose trigger refuses a global connection's write through postgres_fdw:
   the driver, which routed that write by its key, answers 40001, "the
   shard map changed". X's primary joined for the write
   (pg_stat_statements); its part, which held nothing else, left the
   transaction with the failed statement.
4. ROLLBACK: on the servers A and Z hold their balances (Z read on Y's own
   partition), nothing is left prepared.
5. The transfer run again on the same connection commits on C and Y."""
from xact_lib import (GROUPS, balance, calls, connect, expect_error, fail, helper,
                      in_transaction_on, log, nothing_left, owners, primary, reset_statements)

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
for g in GROUPS:
    lacking = helper("su", P[g], "SELECT string_agg(c.relname, ',') FROM pg_class c "
                                 "WHERE c.relkind = 'f' AND c.relispartition AND NOT EXISTS "
                                 "(SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid "
                                 "AND t.tgname = 'gcluster_refuse_remote_write')")
    if lacking:
        fail(f"2. after the move, foreign partitions of {P[g]} lack their trigger: {lacking}")
log(f"2. {shard} moved from {X} to {Y}; every foreign partition has its trigger")

reset_statements()
cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
expect_error("3. the write of the moved account",
             lambda: cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, Z),
             "40001", says="shard map changed")
# A failed statement leaves no pg_stat_statements entry: the join's BEGIN,
# which carries the global transaction's mark, does.
if calls(P[X], "SET LOCAL gcodbc.global_transaction%") != 1:
    fail(f"3. the write of {Z} should have joined {X}'s primary by the old shard map")
if in_transaction_on(P[X], APP):
    fail(f"3. {X}'s part, which held only the failed write, should have left the transaction")
log(f"3. the transfer's write of {Z} joined {X}'s primary and was refused there")

conn.rollback()
if balance(C, A) != 100 or balance(Y, Z) != 100:
    fail(f"4. balances after the refused COMMIT: {A} = {balance(C, A)}, {Z} = {balance(Y, Z)} "
         "(expected 100 and 100)")
nothing_left("4.")
log("4. rolled back: nothing applied, nothing prepared")

cur.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", 10, A)
cur.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, Z)
conn.commit()
if balance(C, A) != 90 or balance(Y, Z) != 110:
    fail(f"5. balances after the transfer ran again: {A} = {balance(C, A)}, "
         f"{Z} = {balance(Y, Z)} (expected 90 and 110)")
nothing_left("5.")
conn.close()
print(f"ok: a shard moved under a transaction ({shard}, {X} -> {Y}) gives 40001 at its write "
      "with nothing applied; run again, it commits", flush=True)
