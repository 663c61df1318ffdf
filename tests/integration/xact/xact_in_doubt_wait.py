"""An in-doubt part that blocks the application's statement is settled
while the statement waits (docs/failover.md, "In-doubt transactions"):
nothing stays prepared, holding locks, because every client that could
settle it is waiting on it.

usage: xact_in_doubt_wait.py DSN HELPER FAILOVER_MD   (run by fault_clients.sh)

As the application's role, G2's primary gets a prepared transaction that
a coordinator in G1 left behind: it added 1000 to account Z (a G2 row) and
its gid names G1, where no decision was recorded (the coordinator died
before deciding). A global connection then runs, in autocommit mode, an
UPDATE of Z, which waits on the prepared part's row lock. No other client
of the driver runs. The UPDATE must finish on its own: after the in-doubt
grace (10 s) the driver's watcher asks G1 for the decision ("roll back",
none was recorded), rolls the part back, and the UPDATE goes through:
Z holds 100 - 1, the 1000 never applied, nothing is left prepared, and
G1 keeps the "roll back" decision."""
import time

from xact_lib import connect, decisions, fail, helper, log, owners, prepared, primary
from fault_helper import in_thread  # noqa: E402 (found through the path xact_lib sets)

APP = "xwait"
GRACE_S = 10

helper("app", "G1N1", "INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 30) g")
Z = owners()["G2"][0]
P2 = primary("G2")
gid = f"gcx:1:{int(time.time())}.000000001:1:G1"
helper("app", P2, f"BEGIN; UPDATE accounts SET balance = balance + 1000 WHERE id = {Z}; "
                  f"PREPARE TRANSACTION '{gid}'")
if gid not in prepared(P2):
    fail(f"the in-doubt part was not made on {P2}: {prepared(P2)!r}")
log(f"in-doubt part {gid} on {P2} holds account {Z}")

conn = connect(APP, autocommit=True)
cur = conn.cursor()
started = time.monotonic()
wait = in_thread(lambda: cur.execute("UPDATE accounts SET balance = balance - 1 WHERE id = ?",
                                     Z).rowcount, limit=60)
outcome, value = wait()
took = time.monotonic() - started
if outcome != "ok" or value != 1:
    fail(f"the waiting UPDATE ended with {outcome} {value}")
if took < GRACE_S - 1:
    fail(f"the UPDATE finished after {took:.1f} s: the part was settled within the grace")
log(f"the waiting UPDATE finished after {took:.1f} s")
got = int(helper("app", P2, f"SELECT balance FROM accounts WHERE id = {Z}"))
if got != 99:
    fail(f"account {Z} holds {got}, expected 99 (the in-doubt part rolled back, the UPDATE "
         "applied)")
for g in ("G1", "G2", "G3"):
    if prepared(primary(g)):
        fail(f"{primary(g)} still holds prepared transactions: {prepared(primary(g))}")
# The "roll back" decision stays on G1 (gcctl resolve --keep-rollbacks cleans
# it): a late coordinator must find it.
if decisions(primary("G1")) != f"{gid} false":
    fail(f"G1 should keep the roll-back decision of {gid}: {decisions(primary('G1'))!r}")
conn.close()
print(f"ok: the in-doubt part blocking a statement was rolled back while it waited "
      f"({took:.1f} s, grace {GRACE_S} s)", flush=True)
