"""A member of a transaction across groups dies before its COMMIT (kill -9
of a joined primary's postmaster): docs/global-connection.md, "Transactions
across groups", and docs/failover.md (issue 16 point 3; issue 15, a group
failing during a transaction holding DDL).

usage: xact_member_lost.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

Each case opens a transaction (pyodbc, autocommit off) that writes an
account of G1 (G1's primary coordinates) and joins another group's
primary, kills that primary, and then:

(a) the next statement goes to the dead member's group (another write of
    G2's account): 40001 / 19068; COMMIT then says 40001 / 19068 too;
    ROLLBACK succeeds;
(b) COMMIT comes next: 40001 / 19068; ROLLBACK succeeds;
(c) the next statement goes to the coordinator's group: it or the COMMIT
    after it gives 40001 / 19068 (docs: "at its next statement or
    COMMIT"); ROLLBACK succeeds;
(d) the transaction also holds DDL (CREATE TABLE, so every group joined)
    and G3's primary is killed: COMMIT gives 40001 / 19068.

Each time the servers must show that no group keeps any part: G1's
primary holds no open transaction of the test right after the answer and
its account is unchanged; after the killed member is restarted its group
has nothing either (the account unchanged, no table), and no group holds a
prepared transaction or a decision. Then the same connection runs a new
transfer across the groups, which commits on both once the killed member is
reconnected (a try before that gets 08S01 and is made again)."""
import time

import pyodbc

from xact_lib import (GROUPS, balance, begin_transfer, expect_error, fail, helper,
                      in_transaction_on, kill_member, log, nothing_left, owners, primary, relkind,
                      restart, state_of, tried_until_it_runs)

APP = "xlost"
P = {g: primary(g) for g in GROUPS}
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 40) g")
BY_GROUP = owners()
if len(BY_GROUP["G1"]) < 4 or len(BY_GROUP["G2"]) < 4:
    fail(f"too few accounts on G1 or G2: {BY_GROUP}")
figures = []


def lost(what, fn):
    """fn must fail with 40001 / 19068; returns how long it took."""
    t = time.monotonic()
    expect_error(what, fn, "40001", 19068)
    return time.monotonic() - t


def nothing_kept(a, b, what, table=None):
    """After the killed member is back: no group keeps any part."""
    if balance("G1", a) != 100 or balance("G2", b) != 100:
        fail(f"{what}: accounts {a}, {b} hold {balance('G1', a)}, {balance('G2', b)}, "
             "expected 100 each")
    for g in GROUPS:
        if table is not None and relkind(P[g], table) != "":
            fail(f"{what}: {table} is on {P[g]}")
        if in_transaction_on(P[g], APP):
            fail(f"{what}: {P[g]} holds a transaction of the test")
    nothing_left(what)


def coordinator_let_go(a, what):
    """Right after the application was told: G1 holds nothing of it."""
    if in_transaction_on(P["G1"], APP):
        fail(f"{what}: the coordinator {P['G1']} still holds the transaction")
    if balance("G1", a) != 100:
        fail(f"{what}: the coordinator's part is committed")


def transfer_still_works(conn, a, b, what):
    """A new transfer on the same connection commits on both groups. The
    restarted member comes back through the connection's reconnect
    schedule (docs/failover.md: retried between transactions, a connect
    waited for 100 ms at most), so a transfer begun before it reconnected
    fails with 08S01 and is tried again, for at most 10 s."""
    cur = conn.cursor()

    def transfer():
        cur.execute("UPDATE accounts SET balance = balance - 1 WHERE id = ?", a)
        cur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", b)
        conn.commit()
    tries = tried_until_it_runs(transfer, f"{what}: the next transfer",
                                retry_on=lambda e: state_of(e)[0] == "08S01",
                                after_error=conn.rollback)
    if balance("G1", a) != 99 or balance("G2", b) != 101:
        fail(f"{what}: the next transfer did not commit on both groups")
    figures.append(f"{what} the next transfer committed at try {tries}")


def recover_and_check(conn, killed_group, a, b, what, table=None):
    """ROLLBACK (it succeeds), the killed primary restarted, no part kept
    anywhere, and a new transfer on the same connection commits on both
    groups."""
    conn.rollback()
    restart(P[killed_group])
    nothing_kept(a, b, what, table)
    transfer_still_works(conn, a, b, what)
    conn.close()


def begin(a, b):
    conn, cur = begin_transfer(APP, a, b)
    if in_transaction_on(P["G2"], APP) != 1:
        fail("G2's primary did not join the transaction")
    return conn, cur


# ---- (a) the next statement goes to the dead member's group ----
a, b = BY_GROUP["G1"][0], BY_GROUP["G2"][0]
conn, cur = begin(a, b)
kill_member(P["G2"], APP)
took = lost("(a) next statement on G2", lambda: cur.execute(
    "UPDATE accounts SET balance = balance + 1 WHERE id = ?", b))
coordinator_let_go(a, "(a)")
lost("(a) COMMIT after it", conn.commit)
recover_and_check(conn, "G2", a, b, "(a)")
figures.append(f"(a) kill -9 -> next statement's 40001: {took * 1000:.0f} ms")
log("ok (a): joined member killed, next statement on its group: 40001 / 19068, then COMMIT "
    "40001 / 19068, ROLLBACK ok; no group kept any part; the next transfer committed")

# ---- (b) COMMIT comes next ----
a, b = BY_GROUP["G1"][1], BY_GROUP["G2"][1]
conn, cur = begin(a, b)
kill_member(P["G2"], APP)
took = lost("(b) COMMIT", conn.commit)
coordinator_let_go(a, "(b)")
recover_and_check(conn, "G2", a, b, "(b)")
figures.append(f"(b) kill -9 -> COMMIT's 40001: {took * 1000:.0f} ms")
log("ok (b): joined member killed, then COMMIT: 40001 / 19068; no group kept any part")

# ---- (c) the next statement goes to the coordinator's group ----
a, b = BY_GROUP["G1"][2], BY_GROUP["G2"][2]
conn, cur = begin(a, b)
kill_member(P["G2"], APP)
where = "the next statement ran, COMMIT gave"
try:
    cur.execute("UPDATE accounts SET balance = balance - 1 WHERE id = ?", a)
except pyodbc.Error as e:
    if state_of(e) != ("40001", "19068"):
        fail(f"(c) the next statement failed with {e}, expected 40001 / 19068")
    where = "the next statement and COMMIT gave"
lost("(c) COMMIT", conn.commit)
coordinator_let_go(a, "(c)")
recover_and_check(conn, "G2", a, b, "(c)")
log(f"ok (c): joined member killed, then a statement on the coordinator's group: {where} "
    "40001 / 19068; no group kept any part")

# ---- (d) a transaction holding DDL loses G3's primary ----
a, b = BY_GROUP["G1"][3], BY_GROUP["G2"][3]
conn, cur = begin(a, b)
cur.execute("CREATE TABLE xt_lost (id int PRIMARY KEY)")
cur.execute("INSERT INTO xt_lost VALUES (1)")
if in_transaction_on(P["G3"], APP) != 1:
    fail("(d) G3's primary did not join the transaction for its DDL")
kill_member(P["G3"], APP)
lost("(d) COMMIT", conn.commit)
coordinator_let_go(a, "(d)")
if in_transaction_on(P["G2"], APP):
    fail("(d) G2's primary still holds the transaction")
recover_and_check(conn, "G3", a, b, "(d)", table="xt_lost")
log("ok (d): a transaction holding a transfer and CREATE TABLE lost G3's primary: COMMIT "
    "40001 / 19068; no group has the table or the transfer")

for f in figures:
    log("measured: " + f)
print("ok: a transaction whose joined member died is lost everywhere (40001 / 19068), no part kept",
      flush=True)
