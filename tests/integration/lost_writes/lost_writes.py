"""The lost-writes fault test (docs/fault-tests.md).

usage: lost_writes.py DSN HELPER FAILOVER_MD   (HELPER: the script fault_clients.sh writes)

4 client threads, one global connection each (pyodbc, autocommit on, so
every statement is its own transaction), make single-row writes that return
what they wrote:

  INSERT INTO entries (k, id) VALUES (?, ?) RETURNING id     a new id each time
  UPDATE counters SET n = n + 1 WHERE k = ? RETURNING n      the thread's own rows

Meanwhile the harness terminates the clients' server sessions at random
(pg_terminate_backend: before the id query answered, the write did not
commit and the driver runs it again elsewhere; during the commit's wait for
the synchronous standby, it committed and the driver must say success),
kills G1's primary with kill -9 and promotes its standby, and freezes G2's
primary with SIGSTOP for 4 s. Then the servers must show:

  - every write a client saw succeed applied exactly once: its entry row
    present once; each counter at least its successes and at most its
    successes plus its writes of unknown outcome;
  - no write applied twice: no entry id twice (entries has no primary key),
    and between two successes of a counter's UPDATE the returned n grew by
    one plus at most the unknown outcomes before it that no earlier success
    accounted for (an unknown outcome may take effect late, when a frozen
    member resumes);
  - a write reported as not applied absent (08001: its group had no
    primary; 08006: postgres_fdw lost that group's member before its
    COMMIT; 08S01 "no member of the cluster can run the statement");
  - every RETURNING row the same as what was written;
  - only SQLSTATEs that docs/failover.md documents.

A client does not retry a failed write: it records the outcome and goes on."""
import collections
import os
import random
import sys
import threading
import time

import pyodbc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from fault_helper import run_helper  # noqa: E402
from fault_run import (fail, finish, guarded, log, now, rows, stop_clients,  # noqa: E402
                       terminate_at_random, undocumented_states, warm_up)

DSN, HELPER, FAILOVER_MD = sys.argv[1], sys.argv[2], sys.argv[3]
THREADS = 4
COUNTERS_PER_THREAD = 3
APP = "lostwrites"
# LW_TRACE=file: the driver's trace log, for debugging this test.
TRACE = f";LogLevel=3;LogFile={os.environ['LW_TRACE']}" if os.environ.get("LW_TRACE") else ""
CONNSTR = (f"DSN={DSN};MemberTimeout=2;ReconnectInterval=1;ConnectTimeout=2;TopologyRefresh=2;"
           f"ApplicationName={APP}{TRACE}")
# Errors that say nothing of the write applied (docs/failover.md): the
# server's 08001 (a write whose group has no primary reaches it through
# postgres_fdw, which cannot connect) and 08006 (postgres_fdw lost that
# member while the statement ran there; during its COMMIT the driver says
# 40003 instead), and the driver's 08S01 when no member could take the
# statement (nothing was sent).
NOT_APPLIED = {"08001", "08006"}
NOT_SENT = "no member of the cluster can run the statement"
JOIN_DEADLINE = 40.0

lock = threading.Lock()


def helper(*args, timeout=90):
    return run_helper(HELPER, *args, timeout=timeout)


# ---- what the clients saw ----
entry_ok = set()                      # ids whose INSERT succeeded
entry_unknown = set()                 # ids whose INSERT failed, outcome unknown
entry_not_applied = set()             # ids whose INSERT failed, said not applied
counter_log = collections.defaultdict(list)   # k -> ["ok", n, t] / ["unknown", t] /
                                              #      ["not applied", t], in order
states = collections.Counter()        # (sqlstate, statement) -> count
samples = {}
after_loss = collections.Counter()    # statement -> successes that said 01000 "committed"
returned_wrong = []
stop = threading.Event()
in_call = [None] * THREADS


def record_error(e, what):
    """Counts the error; whether it says the write was not applied."""
    state = e.args[0] if e.args else "?"
    with lock:
        states[(state, what)] += 1
        samples.setdefault((state, what), f"{str(e)[:300]} (at {now():.2f} s)")
    return state in NOT_APPLIED or (state == "08S01" and NOT_SENT in str(e))


def committed_after_loss(cur):
    return any("failed after the statement committed" in str(m) for m in cur.messages)


def insert_entry(tn, cur, rng, seq):
    eid = f"e{tn}-{seq}"
    try:
        in_call[tn] = ("INSERT", now())
        got = cur.execute("INSERT INTO entries (k, id) VALUES (?, ?) RETURNING id",
                          rng.randint(1, 100000), eid).fetchall()
    except pyodbc.Error as e:
        not_applied = record_error(e, "INSERT")
        with lock:
            (entry_not_applied if not_applied else entry_unknown).add(eid)
        return
    finally:
        in_call[tn] = None
    with lock:
        entry_ok.add(eid)
        if [tuple(r) for r in got] != [(eid,)]:
            returned_wrong.append(f"INSERT {eid} returned {got}")
        if committed_after_loss(cur):
            after_loss["INSERT"] += 1


def bump_counter(tn, cur, k):
    try:
        in_call[tn] = ("UPDATE", now())
        got = cur.execute("UPDATE counters SET n = n + 1 WHERE k = ? RETURNING n", k).fetchall()
    except pyodbc.Error as e:
        not_applied = record_error(e, "UPDATE")
        with lock:
            counter_log[k].append(["not applied" if not_applied else "unknown", now()])
        return
    finally:
        in_call[tn] = None
    with lock:
        if len(got) != 1:
            returned_wrong.append(f"UPDATE of counter {k} returned {got}")
            counter_log[k].append(["unknown", now()])
            return
        counter_log[k].append(["ok", int(got[0][0]), now()])
        if committed_after_loss(cur):
            after_loss["UPDATE"] += 1


def client(tn):
    rng = random.Random(tn)
    conn = None
    while conn is None and not stop.is_set():
        try:
            conn = pyodbc.connect(CONNSTR, autocommit=True)
        except pyodbc.Error as e:
            record_error(e, "connect")
            time.sleep(0.2)
    if conn is None:
        return
    cur = conn.cursor()
    mine = [tn * 1000 + j for j in range(COUNTERS_PER_THREAD)]
    seq = 0
    while not stop.is_set():
        seq += 1
        if seq % 2:
            insert_entry(tn, cur, rng, seq)
        else:
            bump_counter(tn, cur, rng.choice(mine))
    try:
        conn.close()
    except pyodbc.Error as e:
        record_error(e, "close")


# ---- setup ----
log(f"time 0 is {time.strftime('%H:%M:%S', time.gmtime(time.time() - now()))} UTC (for the trace)")
helper("app", "G1N1", "INSERT INTO counters SELECT t * 1000 + j, 0 "
       f"FROM generate_series(0, {THREADS - 1}) t, generate_series(0, {COUNTERS_PER_THREAD - 1}) j")

threads = [threading.Thread(target=guarded(client), args=(i,), daemon=True)
           for i in range(THREADS)]
for t in threads:
    t.start()

# ---- faults ----
try:
    warm_up(2, lambda: len(entry_ok), "entries written")

    # Sessions terminated at random on the primaries, for 8 s. A write
    # whose session is found gone runs again when it cannot have applied,
    # on the primary reconnected at once or through another group
    # (postgres_fdw); one caught committing is settled by its id.
    terminate_at_random(helper, APP, ["G1N1", "G2N1", "G3N1"], 8, seed=99)
    time.sleep(1.5)   # the members come back (ReconnectInterval=1)

    helper("kill", "G1N1")
    log("kill -9 G1N1 (G1's primary)")
    time.sleep(0.5)
    helper("gcctl", "promote", "G1N2")
    log("promoted G1N2")
    time.sleep(3)

    helper("sigstop", "G2N1")
    log("SIGSTOP G2N1 (G2's primary)")
    try:
        time.sleep(4)
    finally:
        helper("sigcont", "G2N1")
    log("SIGCONT G2N1")
    time.sleep(3)
except Exception as e:   # a failed step still stops the clients
    fail(f"harness step failed: {e}")

# ---- stop the clients (bounded) ----
stop_clients(stop, threads, in_call, JOIN_DEADLINE)

# ---- checks on the servers ----
reader = helper("primary", "G3")
present = collections.Counter(
    r[0] for r in rows(helper("app", reader, "SELECT id FROM entries")))
final = {int(k): int(n) for k, n in rows(helper("app", reader, "SELECT k, n FROM counters"))}

twice = sorted(i for i, n in present.items() if n > 1)
if twice:
    fail(f"{len(twice)} entries present more than once, e.g. {twice[:5]}")
missing = sorted(entry_ok - set(present))
if missing:
    fail(f"{len(missing)} entries a client saw written are missing, e.g. {missing[:5]}")
applied = sorted(entry_not_applied & set(present))
if applied:
    fail(f"{len(applied)} entries reported not applied are present, "
         f"e.g. {applied[:5]}")
unexplained = sorted(set(present) - entry_ok - entry_unknown)
if unexplained:
    fail(f"{len(unexplained)} entries present that no client wrote or left unknown, "
         f"e.g. {unexplained[:5]}")
if returned_wrong:
    fail(f"{len(returned_wrong)} RETURNING rows differ from what was written, e.g. "
         f"{returned_wrong[:3]}")

# A write of unknown outcome may take effect at any later time, or never:
# one whose member stopped answering (SIGSTOP) runs when the member resumes,
# possibly after later writes of the same counter went through another group
# (docs/failover.md, "An unknown outcome can still change"). So each unknown
# outcome is a credit of one increment that a later success may use up,
# once.
for k, outcomes in sorted(counter_log.items()):
    pending = 0      # unknown outcomes not yet seen to have taken effect
    last = 0         # n the last success returned (counters start at 0)
    oks = sum(1 for o in outcomes if o[0] == "ok")
    unknowns = sum(1 for o in outcomes if o[0] == "unknown")
    for x, o in enumerate(outcomes):
        if o[0] == "unknown":
            pending += 1
        elif o[0] == "ok":
            if not last + 1 <= o[1] <= last + 1 + pending:
                fail(f"counter {k}: a success returned n = {o[1]} after n = {last} with "
                     f"{pending} unknown outcomes pending (applied twice, or lost?); "
                     f"outcomes around it: {outcomes[max(0, x - 3):x + 2]}")
            pending -= max(0, o[1] - last - 1)
            last = o[1]
    if not last <= final.get(k, -1) <= last + pending:
        fail(f"counter {k}: n = {final.get(k)} on the servers, the last success returned "
             f"{last}, {pending} unknown outcomes pending")
    if not oks <= final.get(k, -1) <= oks + unknowns:
        fail(f"counter {k}: n = {final.get(k)} with {oks} successes and {unknowns} unknown")

undocumented = undocumented_states({s for s, _ in states}, FAILOVER_MD)
if undocumented:
    fail(f"SQLSTATEs not in docs/failover.md: {undocumented}")

# ---- report ----
n_counter_ok = sum(1 for o in counter_log.values() for x in o if x[0] == "ok")
n_counter_unknown = sum(1 for o in counter_log.values() for x in o if x[0] == "unknown")
log(f"INSERTs: {len(entry_ok)} succeeded ({after_loss['INSERT']} after their member failed "
    f"once committed: 01000), {len(entry_unknown)} unknown, {len(entry_not_applied)} not applied; "
    f"{sum(present.values())} entries on the servers")
log(f"UPDATEs: {n_counter_ok} succeeded ({after_loss['UPDATE']} with 01000), "
    f"{n_counter_unknown} unknown; counters on the servers: {sum(final.values())}")
for (s, what), n in sorted(states.items()):
    log(f"  {s} at {what}: {n}; first: {samples[(s, what)]}")
finish("every write seen to succeed applied once, none applied twice, none reported "
       "not applied present, RETURNING rows as written, only documented SQLSTATEs")
