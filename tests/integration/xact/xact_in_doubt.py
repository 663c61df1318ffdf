"""In-doubt transfers: a member of a transaction across groups killed with
kill -9 during its COMMIT, then recovery and in-doubt resolution (`gcctl
resolve`); docs/failover.md, "In-doubt transactions" (issue 16, its case;
issue 15, a failure during a transaction holding DDL).

usage: xact_in_doubt.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

Each case moves 10 from an account of G1 (the transaction's first write:
G1's primary coordinates) to an account of G2 (G2's primary joins),
autocommit off, then COMMIT while the test holds a synchronous standby
with SIGSTOP, so the COMMIT stops where the test wants it, and kills a
primary there. After recovery (SIGCONT, `gcctl local start-member` of the
killed member, its standby streaming again) `gcctl resolve --grace 0`
runs, and the servers must show the transfer on both accounts or on
neither, nothing in pg_prepared_xacts on any group and no decision left
(rollback decisions are kept for an hour by design: a second run with
--keep-rollbacks 0 must remove them).

(A) The case of issue 16: G2's standby is stopped, so G2's part of the
    commit waits (its PREPARE TRANSACTION waits for the standby); G1's
    primary, the coordinator, is killed meanwhile. The driver finds the
    coordinator's session ended before it sent the decision, so nothing
    can commit: 40001 / 19068, and it rolls G2's prepared part back
    itself. Neither account changed; resolution finds nothing to do.
    On the old path this test fails: the UPDATE of G2's row ran on G1's
    primary and reached G2 through postgres_fdw, which commits G2's part
    before the local commit; G2's COMMIT waited for its standby, G1's
    primary died before its own, and once G2's standby was continued G2's
    row held 110 and G1's 100: money created. (The test also fails at its
    first step there: no backend of the test ever waits on G2's primary,
    since the write did not run there.)
(A2) The same with the application killed with the coordinator (as when
    their host fails): nobody is left to roll G2's part back. It stays
    prepared, G1 has no decision; after G1's restart resolution rolls it
    back: neither account changed.
(B) Between PREPARE and COMMIT PREPARED, with DDL: the transaction also
    creates a table (every group joins; the solo table is G1's, foreign
    twins on G2 and G3) and inserts a row. G1's standby is stopped, so the
    coordinator's COMMIT waits after G2 and G3 prepared; the coordinator is
    killed. Its COMMIT was written on G1 before the wait, so after restart
    G1 holds the commit and its decision; resolution commits G2 and G3:
    the transfer and the table are on every group.
(C) The joined member killed while prepared: G1's standby stopped as in
    (B), G2's primary (prepared) killed, then G1's standby continued: the
    coordinator commits, G2 cannot be told, the application gets success
    with 01000 naming G2's member. G2 comes back with the transaction
    prepared; resolution commits it.
(D) The joined member killed while its COMMIT PREPARED waits: the
    coordinator's COMMIT held, then G2's standby stopped and the
    coordinator's continued, so COMMIT PREPARED waits on G2's primary;
    it is killed there. It had written the commit: after restart the
    transfer is on both; resolution removes the decision left behind."""
import subprocess
import sys
import time

from xact_lib import (GROUPS, backend_waiting, balance, begin_transfer, catalog_row,
                      connection_string, decisions, fail, helper, kill_member, log, nothing_left,
                      owners, prepared, primary, relkind, restart, state_of, wait_for)
from fault_helper import in_thread  # noqa: E402 (found through the path xact_lib sets)

P = {g: primary(g) for g in GROUPS}
STANDBY = {g: next(m for m in helper("members").split() if m.startswith(g) and m != P[g])
           for g in GROUPS}
helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 40) g")
BY_GROUP = owners()
if len(BY_GROUP["G1"]) < 5 or len(BY_GROUP["G2"]) < 5:
    fail(f"too few accounts on G1 or G2: {BY_GROUP}")
figures = []


def resolve():
    """gcctl resolve --grace 0; its output and how long it took."""
    t = time.monotonic()
    out = helper("gcctl", "resolve", "--grace", "0")
    return out, time.monotonic() - t


def gid_prepared_on(member, what):
    """The one transaction member holds prepared: a gcx: gid naming G1 as
    its coordinator."""
    gids = prepared(member)
    if len(gids.splitlines()) != 1 or not gids.startswith("gcx:") or not gids.endswith(":G1"):
        fail(f"{what}: {member} holds {gids!r} prepared, expected one gcx: transaction "
             "coordinated by G1")
    return gids


def expect_both_or_neither(a, b, what):
    """The transfer from a to b is on both accounts or on neither; returns
    which ('both' or 'neither')."""
    got = (balance("G1", a), balance("G2", b))
    if got == (90, 110):
        return "both"
    if got == (100, 100):
        return "neither"
    fail(f"{what}: half a transfer: account {a} (G1) holds {got[0]}, account {b} (G2) holds "
         f"{got[1]}")


def expect_outcome(a, b, want, what):
    got = expect_both_or_neither(a, b, what)
    if got != want:
        fail(f"{what}: the transfer is on {got} accounts, expected {want}")


def clear_rollback_decisions(what):
    out = helper("gcctl", "resolve", "--grace", "0", "--keep-rollbacks", "0")
    if decisions(P["G1"]):
        fail(f"{what}: resolve --keep-rollbacks 0 left {decisions(P['G1'])} ({out})")


# ---- (A) the case of issue 16: G2's part held, the coordinator killed ----
a, b = BY_GROUP["G1"][0], BY_GROUP["G2"][0]
conn, cur = begin_transfer("xdoubt_a", a, b)
helper("sigstop", STANDBY["G2"])
join = in_thread(conn.commit)
held = backend_waiting(P["G2"], "xdoubt_a", "SyncRep")
if not held.startswith("PREPARE TRANSACTION"):
    fail(f"(A) G2's primary waits for its standby in {held!r}, expected PREPARE TRANSACTION")
kill_member(P["G1"], "xdoubt_a")
t_cont = time.monotonic()
helper("sigcont", STANDBY["G2"])
kind, value = join()
answered = time.monotonic() - t_cont
# The coordinator died before its decision: nothing can commit, and the
# driver knows it (its session to the coordinator ended before the decision
# was sent): 40001 / 19068, and it rolls G2's prepared part back itself.
if kind == "ok" or state_of(value) != ("40001", "19068"):
    fail(f"(A) COMMIT answered {kind} {value}, expected 40001 / 19068")
if prepared(P["G2"]):
    fail(f"(A) G2 still holds {prepared(P['G2'])} prepared after the driver's answer")
conn.close()
took = restart(P["G1"])
out, resolved = resolve()
log(f"(A) gcctl resolve: {out}")
expect_outcome(a, b, "neither", "(A) after recovery and resolution")
nothing_left("(A)")
figures.append(f"(A) SIGCONT of G2's standby -> COMMIT answered 40001 (G2's part rolled back "
               f"by the driver): "
               f"{answered * 1000:.0f} ms; restart of {P['G1']} until its standby streams: "
               f"{took:.1f} s; gcctl resolve: {resolved * 1000:.0f} ms (nothing to do)")
log("ok (A): coordinator killed while G2's PREPARE waited: 40001 / 19068, G2's part rolled "
    "back by the driver at once; neither account changed; nothing prepared")

# ---- (A2) the same, the application dying with the coordinator ----
# As when the coordinator's host fails with the application on it: nobody
# is left to roll G2's part back, which stays prepared (in doubt) until
# resolution asks G1, finds no decision, and rolls it back.
CHILD = """import sys, pyodbc
conn = pyodbc.connect(sys.argv[1], autocommit=False)
cur = conn.cursor()
cur.execute("UPDATE accounts SET balance = balance - 10 WHERE id = ?", int(sys.argv[2]))
cur.execute("UPDATE accounts SET balance = balance + 10 WHERE id = ?", int(sys.argv[3]))
conn.commit()
"""
a, b = BY_GROUP["G1"][4], BY_GROUP["G2"][4]
helper("sigstop", STANDBY["G2"])
child = subprocess.Popen([sys.executable, "-c", CHILD, connection_string("xdoubt_a2"), str(a),
                          str(b)])
try:
    held = backend_waiting(P["G2"], "xdoubt_a2", "SyncRep")
    if not held.startswith("PREPARE TRANSACTION"):
        fail(f"(A2) G2's primary waits in {held!r}, expected PREPARE TRANSACTION")
    t_kill = time.monotonic()
    kill_member(P["G1"], "xdoubt_a2")
finally:
    child.kill()
    child.wait()
helper("sigcont", STANDBY["G2"])
# G2's backend ends once its PREPARE is done and it finds its client gone.
wait_for(P["G2"], "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'xdoubt_a2'",
         "0", "(A2) G2's backend of the killed application")
took = restart(P["G1"])
gid = gid_prepared_on(P["G2"], "(A2) before resolution")
if decisions(P["G1"]):
    fail(f"(A2) G1 holds a decision although its coordinator died before it: "
         f"{decisions(P['G1'])}")
expect_outcome(a, b, "neither", "(A2) before resolution (G2's part is prepared, not visible)")
out, resolved = resolve()
log(f"(A2) gcctl resolve: {out}")
expect_outcome(a, b, "neither", "(A2) after resolution")
if decisions(P["G1"]) != f"{gid} false":
    fail(f"(A2) G1's decision is {decisions(P['G1'])!r}, expected '{gid} false'")
clear_rollback_decisions("(A2)")
nothing_left("(A2)")
figures.append(f"(A2) restart of {P['G1']}: {took:.1f} s; gcctl resolve: "
               f"{resolved * 1000:.0f} ms; kill -> resolved: {time.monotonic() - t_kill:.1f} s")
log("ok (A2): coordinator and application killed while G2's PREPARE waited: G2's part in "
    "doubt until resolution rolled it back; neither account changed; nothing left")

# ---- (B) with DDL: the coordinator killed while its COMMIT waits ----
a, b = BY_GROUP["G1"][1], BY_GROUP["G2"][1]
conn, cur = begin_transfer("xdoubt_b", a, b)
cur.execute("CREATE TABLE xt_doubt (id int PRIMARY KEY)")
cur.execute("INSERT INTO xt_doubt VALUES (1)")
helper("sigstop", STANDBY["G1"])
join = in_thread(conn.commit)
held = backend_waiting(P["G1"], "xdoubt_b", "SyncRep")
if not held.endswith("COMMIT"):
    fail(f"(B) G1's primary waits for its standby in {held!r}, expected COMMIT")
gid = gid_prepared_on(P["G2"], "(B) while the coordinator's COMMIT waits")
if prepared(P["G3"]) != gid:
    fail(f"(B) G3 holds {prepared(P['G3'])!r} prepared, expected {gid}")
t_kill = time.monotonic()
kill_member(P["G1"], "xdoubt_b")
t_dead = time.monotonic()
kind, value = join()
answered = time.monotonic() - t_dead
if kind == "ok" or value.args[0] != "08007":
    fail(f"(B) COMMIT answered {kind} {value}, expected 08007 (its outcome cannot be known "
         "while G1 is down)")
conn.close()
helper("sigcont", STANDBY["G1"])
took = restart(P["G1"])
if decisions(P["G1"]) != f"{gid} true":
    fail(f"(B) G1 restarted with decision {decisions(P['G1'])!r}, expected '{gid} true'")
if balance("G1", a) != 90 or relkind(P["G1"], "xt_doubt") != "r" or balance("G2", b) != 100 \
        or relkind(P["G2"], "xt_doubt") != "" or prepared(P["G2"]) != gid:
    fail("(B) before resolution, expected G1 committed and G2 prepared")
out, resolved = resolve()
log(f"(B) gcctl resolve: {out}")
expect_outcome(a, b, "both", "(B) after resolution")
for g in GROUPS:
    want = "r" if g == "G1" else "f"
    if relkind(P[g], "xt_doubt") != want or catalog_row(P[g], "xt_doubt") != "solo G1":
        fail(f"(B) xt_doubt on {P[g]}: relkind {relkind(P[g], 'xt_doubt')!r}, catalog row "
             f"{catalog_row(P[g], 'xt_doubt')!r}; expected {want!r}, 'solo G1'")
if helper("app", P["G3"], "SELECT id FROM xt_doubt") != "1":
    fail("(B) the table's row is not read through G3's twin")
nothing_left("(B)")
figures.append(f"(B) coordinator's backend gone -> COMMIT answered 08007: "
               f"{answered * 1000:.0f} ms; restart: "
               f"{took:.1f} s; gcctl resolve: {resolved * 1000:.0f} ms; kill -> resolved: "
               f"{time.monotonic() - t_kill:.1f} s")
log("ok (B): coordinator killed in its COMMIT after G2 and G3 prepared (transfer + CREATE TABLE): "
    "G1 committed, resolution committed G2 and G3; the table and the transfer on every group")

# ---- (C) the joined member killed while prepared ----
a, b = BY_GROUP["G1"][2], BY_GROUP["G2"][2]
conn, cur = begin_transfer("xdoubt_c", a, b)
helper("sigstop", STANDBY["G1"])
join = in_thread(lambda: cur.execute("COMMIT").messages)
if not backend_waiting(P["G1"], "xdoubt_c", "SyncRep").endswith("COMMIT"):
    fail("(C) the coordinator does not wait in its COMMIT")
gid = gid_prepared_on(P["G2"], "(C) while the coordinator's COMMIT waits")
t_kill = time.monotonic()
kill_member(P["G2"], "xdoubt_c")
helper("sigcont", STANDBY["G1"])
kind, value = join()
if kind != "ok" or not any("01000" in str(m) and P["G2"] in str(m) for m in value):
    fail(f"(C) COMMIT answered {kind} {value}, expected success with 01000 naming {P['G2']}")
conn.close()
if balance("G1", a) != 90:
    fail("(C) the coordinator's part is not committed")
took = restart(P["G2"])
if prepared(P["G2"]) != gid or balance("G2", b) != 100:
    fail(f"(C) {P['G2']} restarted without the prepared transaction {gid}")
out, resolved = resolve()
log(f"(C) gcctl resolve: {out}")
expect_outcome(a, b, "both", "(C) after resolution")
nothing_left("(C)")
figures.append(f"(C) restart of {P['G2']}: {took:.1f} s; gcctl resolve: "
               f"{resolved * 1000:.0f} ms; kill -> resolved: {time.monotonic() - t_kill:.1f} s")
log(f"ok (C): joined member killed while prepared: success with 01000 "
    f"({value[0][1][:120]}...), resolution committed its part after restart")

# ---- (D) the joined member killed while its COMMIT PREPARED waits ----
a, b = BY_GROUP["G1"][3], BY_GROUP["G2"][3]
conn, cur = begin_transfer("xdoubt_d", a, b)
helper("sigstop", STANDBY["G1"])
join = in_thread(conn.commit)
if not backend_waiting(P["G1"], "xdoubt_d", "SyncRep").endswith("COMMIT"):
    fail("(D) the coordinator does not wait in its COMMIT")
gid = gid_prepared_on(P["G2"], "(D) while the coordinator's COMMIT waits")
helper("sigstop", STANDBY["G2"])
helper("sigcont", STANDBY["G1"])
held = backend_waiting(P["G2"], "xdoubt_d", "SyncRep")
if not held.startswith("COMMIT PREPARED"):
    fail(f"(D) G2's primary waits in {held!r}, expected COMMIT PREPARED")
t_kill = time.monotonic()
kill_member(P["G2"], "xdoubt_d")
helper("sigcont", STANDBY["G2"])
kind, value = join()
if kind != "ok":
    fail(f"(D) COMMIT answered {value}, expected success (the coordinator committed)")
conn.close()
took = restart(P["G2"])
expect_outcome(a, b, "both", "(D) after restart (COMMIT PREPARED was written before its wait)")
if decisions(P["G1"]) != f"{gid} true":
    fail(f"(D) expected the decision left behind on G1, found {decisions(P['G1'])!r}")
out, resolved = resolve()
log(f"(D) gcctl resolve: {out}")
expect_outcome(a, b, "both", "(D) after resolution")
nothing_left("(D)")
figures.append(f"(D) restart of {P['G2']}: {took:.1f} s; gcctl resolve: {resolved * 1000:.0f} ms")
log("ok (D): joined member killed while its COMMIT PREPARED waited: the transfer on both "
    "accounts, the decision left behind removed by resolution")

for f in figures:
    log("measured: " + f)
print("ok: every in-doubt transfer ended on both accounts or on neither, nothing left prepared",
      flush=True)
