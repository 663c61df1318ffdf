"""The bank fault test (docs/fault-tests.md).

usage: bank.py DSN HELPER FAILOVER_MD   (HELPER: the script fault_clients.sh writes)

8 client threads make transfers through one global connection each
(pyodbc, autocommit off). A transfer is a transaction: two INSERTs into
transfers, one leg per account (the debit on the source account's row, the
credit on the destination's, each in its account's group; a client-made
id), two UPDATEs of accounts, COMMIT. Half of the transfers, chosen at
random, move money between two groups: the driver commits them in two
phases (docs/global-connection.md, "Transactions across groups").

Meanwhile the harness terminates client sessions on the primaries at random
for 4 s; stops G2's standby, so that every COMMIT touching G2 waits, until
a client is inside the COMMIT of a transfer between G1 and G2, then kills
G1's primary with kill -9 (during those COMMITs), starts the standby and
promotes G1's; freezes G2's primary with SIGSTOP for 5 s; stops and
restarts G3's standby; adds a member to G1 and moves a shard of both tables
from G3 to G2. Nothing but the driver settles in-doubt transactions while
the clients run (its in-doubt watcher, for a client blocked behind their
locks); after the clients stop, `gcctl resolve --grace 0` resolves the prepared
transactions still in doubt. Then the servers must show: the
total balance unchanged, every transfer present with both legs or with
neither (never half), every transfer a client saw commit present, every
balance explained by the legs, no prepared transaction left on any member,
every in-doubt transaction resolved the way its coordinator group's
decision said, no commit decision left but "roll back" ones, and the
clients saw only SQLSTATEs that docs/failover.md documents.

The nemesis (BANK_SCHEDULE=nemesis, a cluster whose groups run under
pg_auto_failover): the same clients and checks while nobody promotes by
hand: kill -9 of G1's primary (keeper and server), SIGSTOP of G2's primary
for 12 s (longer than failure detection), kill -9 of G3's standby, kill -9
of G1's and G3's primaries at once, kill -9 of G2's primary while
move-shard moves a shard of G3 to G2; after each fault the crashed members
are started again (they rejoin as standbys) or the frozen one continued.
The monitor promotes; `gcctl status` runs with the resolver so the catalog
follows. Per fault the test prints the seconds each group went without a
committed transfer and the SQLSTATEs the clients saw.

Client rules: an error before COMMIT -> roll back, retry the same transfer;
COMMIT success -> committed; COMMIT 40001 -> not applied, retry; any other
error at COMMIT (08007, 40003, 08S01, ...) -> outcome unknown, retry with
the SAME id: the transfers primary key makes a second copy impossible, and a
23505 on the first leg's INSERT says the earlier attempt had committed."""
import collections
import os
import random
import re
import sys
import threading
import time

import pyodbc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from fault_helper import run_helper  # noqa: E402
import fault_run  # noqa: E402
from fault_run import (fail, finish, guarded, log, now, rows, stop_clients,  # noqa: E402
                       terminate_at_random, undocumented_states, warm_up)

DSN, HELPER, FAILOVER_MD = sys.argv[1], sys.argv[2], sys.argv[3]
# by_hand: faults an operator mends (gcctl promote, ...); nemesis: groups
# under pg_auto_failover fail over by themselves (the header's last part).
SCHEDULE = os.environ.get("BANK_SCHEDULE", "by_hand")
THREADS = 8
ACCOUNTS = 60
INITIAL = 1000
MEMBER_TIMEOUT = 2
RECONNECT_INTERVAL = 1
APP = "bank"
CONNSTR = (f"DSN={DSN};MemberTimeout={MEMBER_TIMEOUT};ReconnectInterval={RECONNECT_INTERVAL};"
           f"ConnectTimeout=2;TopologyRefresh=2;ApplicationName={APP}")
# One transfer stops retrying after this long: its outcome is then reported
# as unresolved (allowed, but counted).
TRANSFER_DEADLINE = 30.0
JOIN_DEADLINE = 40.0



def helper(*args, timeout=90):
    return run_helper(HELPER, *args, timeout=timeout)


# ---- setup: accounts, their groups, pairs ----
helper("app", "G1N1", f"INSERT INTO accounts SELECT g, {INITIAL} FROM generate_series(1, {ACCOUNTS}) g")
OWNER = {int(i): g for i, g in rows(helper(
    "app", "G1N1", "SELECT a.id, s.group_name FROM accounts a JOIN gcluster.shards s "
                   "ON s.name = a.tableoid::regclass::text"))}
if len(OWNER) != ACCOUNTS:
    sys.exit(f"FAIL: {len(OWNER)} accounts placed, expected {ACCOUNTS}")
BY_GROUP = collections.defaultdict(list)
for acc, g in sorted(OWNER.items()):
    BY_GROUP[g].append(acc)
log("accounts per group: " + ", ".join(f"{g} {len(a)}" for g, a in sorted(BY_GROUP.items())))


def pick_pair(rng):
    """Two accounts: in one group, or (half the time) in two groups."""
    if rng.random() < 0.5:
        g = rng.choice(sorted(BY_GROUP))
        return tuple(rng.sample(BY_GROUP[g], 2))
    g, h = rng.sample(sorted(BY_GROUP), 2)
    return rng.choice(BY_GROUP[g]), rng.choice(BY_GROUP[h])


def kind(a, b):
    """'G1' for a transfer inside G1, 'G1->G2' for one from G1 to G2 (the
    groups the accounts had when the test started)."""
    return OWNER[a] if OWNER[a] == OWNER[b] else f"{OWNER[a]}->{OWNER[b]}"


# ---- clients ----
NATIVE = re.compile(r"\((-?\d+)\) \(SQL\w+\)\s*$")
stop = threading.Event()
lock = threading.Lock()
states = collections.Counter()        # (sqlstate, native, phase) -> count
samples = {}                          # (sqlstate, native, phase) -> first message
timeline = []                         # (time, sqlstate, phase, kind) of every failure
committed = {}                        # transfer id -> (from, to, amount)
unresolved = {}                       # transfer id -> (from, to, amount)
commit_times = []                     # (time, groups of the transfer, attempt start)
impossible = []                       # 23505 with no unknown COMMIT before it
half = []                             # 23505 on the second leg: its first was absent
history = collections.defaultdict(list)   # transfer id -> [(phase, sqlstate)] of its failures
progress = [0] * THREADS              # transfers finished per thread
in_call = [None] * THREADS            # (what, since) while a thread is inside ODBC
current = [None] * THREADS            # (transfer id, from, to) a thread works on
attempt_started = [0.0] * THREADS     # when the thread's current attempt began


def record(e, phase, what="-", tid=None):
    state = e.args[0] if e.args else "?"
    m = NATIVE.search(str(e.args[1]) if len(e.args) > 1 else "")
    key = (state, m.group(1) if m else "?", phase)
    with lock:
        states[key] += 1
        samples.setdefault(key, f"{str(e)[:300]} (at {now():.2f} s)")
        timeline.append((now(), state, phase, what))
        if tid is not None:
            history[tid].append((phase, state))
    return state


def odbc(tn, what, fn, *args, **kwargs):
    in_call[tn] = (what, now())
    try:
        return fn(*args, **kwargs)
    finally:
        in_call[tn] = None


INSERT_LEG = "INSERT INTO transfers (account_id, id, peer_id, delta) VALUES (?, ?, ?, ?)"


def run_transfer(tn, conn, cur, tid, a, b, amount):
    """Retries one transfer until its outcome is known. Returns True when it
    is known to be committed, False when unresolved at the deadline."""
    deadline = time.monotonic() + TRANSFER_DEADLINE
    unknown_commit = False
    lo, hi = sorted((a, b))
    delta = {a: -amount, b: amount}
    while time.monotonic() < deadline:
        phase = "first leg"
        attempt_started[tn] = now()
        try:
            # The first statement is in the source account's group: that
            # group's primary coordinates a transfer across groups.
            odbc(tn, "INSERT", cur.execute, INSERT_LEG, a, tid, b, -amount)
            phase = "statement"
            odbc(tn, "INSERT", cur.execute, INSERT_LEG, b, tid, a, amount)
            # Accounts in id order: two opposite transfers cannot deadlock.
            odbc(tn, "UPDATE", cur.execute, "UPDATE accounts SET balance = balance + ? WHERE id = ?",
                 delta[lo], lo)
            odbc(tn, "UPDATE", cur.execute, "UPDATE accounts SET balance = balance + ? WHERE id = ?",
                 delta[hi], hi)
            phase = "commit"
            odbc(tn, "COMMIT", conn.commit)
            return True
        except pyodbc.Error as e:
            state = record(e, "statement" if phase == "first leg" else phase, kind(a, b), tid)
            try:
                odbc(tn, "ROLLBACK", conn.rollback)
            except pyodbc.Error as e2:
                record(e2, "rollback")
            if state == "23505" and phase == "first leg":
                if not unknown_commit:
                    with lock:
                        impossible.append((tid, str(e)))
                return True
            if state == "23505":
                with lock:
                    half.append((tid, str(e)))
            if phase == "commit" and state != "40001":
                unknown_commit = True
            time.sleep(0.02 + random.random() * 0.03)
    return False


def client(tn):
    rng = random.Random(tn)
    conn = None
    while conn is None and not stop.is_set():
        try:
            conn = odbc(tn, "connect", pyodbc.connect, CONNSTR, autocommit=False)
        except pyodbc.Error as e:
            record(e, "connect")
            time.sleep(0.2)
    if conn is None:
        return
    cur = conn.cursor()
    seq = 0
    while not stop.is_set():
        seq += 1
        tid = f"t{tn}-{seq}"
        a, b = pick_pair(rng)
        amount = rng.randint(1, 50)
        current[tn] = (tid, a, b)
        if run_transfer(tn, conn, cur, tid, a, b, amount):
            with lock:
                committed[tid] = (a, b, amount)
                commit_times.append((now(), {OWNER[a], OWNER[b]}, attempt_started[tn]))
        else:
            with lock:
                unresolved[tid] = (a, b, amount)
        progress[tn] += 1
    current[tn] = None
    try:
        conn.close()
    except pyodbc.Error as e:
        record(e, "close")


def commits_since(t, group):
    """Commit times of transfers touching group whose last attempt began at
    or after t (a COMMIT already under way at t says nothing about t)."""
    with lock:
        return sorted(x for x, gs, began in commit_times if began >= t and group in gs)


def in_commit():
    """The transfers (id, kind) whose thread is inside COMMIT now."""
    out = []
    for tn in range(THREADS):
        call, cur_ = in_call[tn], current[tn]
        if call is not None and call[0] == "COMMIT" and cur_ is not None:
            out.append((cur_[0], kind(cur_[1], cur_[2])))
    return out


# ---- in-doubt resolution while the clients run ----
# A client blocked behind the locks of a prepared transaction left in doubt
# (its coordinator died, or its COMMIT PREPARED could not be sent) cannot
# resolve it between statements; the driver's in-doubt watcher settles a
# part that a statement has waited on for 10 s (docs/failover.md). The test
# by hand relies on the driver alone. The nemesis runs `gcctl status` and
# `gcctl resolve` every 2 s, as docs/cluster.md suggests for cron where
# groups fail over by themselves (status makes the catalog follow).
RESOLVE_EVERY = 2.0
resolver_stop = threading.Event()
resolved_meanwhile = collections.Counter()    # outcome -> count


def resolve_outcomes(out):
    """gcctl resolve's lines "<gid>  <group>  <outcome>" as {gid: outcome}."""
    found = {}
    for line in out.splitlines():
        parts = line.split("  ")
        if len(parts) == 3 and parts[0].startswith("gcx:"):
            found[parts[0]] = parts[2]
    return found


def resolver():
    while SCHEDULE == "nemesis" and not resolver_stop.wait(RESOLVE_EVERY):
        run_helper(HELPER, "gcctl", "status", check=False, timeout=60)
        out = run_helper(HELPER, "gcctl", "resolve", check=False, timeout=60)
        for outcome in resolve_outcomes(out).values():
            if not outcome.startswith("left"):
                resolved_meanwhile[outcome] += 1


threads = [threading.Thread(target=guarded(client), args=(i,), daemon=True)
           for i in range(THREADS)]
for t in threads:
    t.start()
resolver_thread = threading.Thread(target=guarded(lambda _: resolver()), args=(0,), daemon=True)
resolver_thread.start()

# ---- chaos ----
figures = []
kill_hits = []     # (transfer id, kind) inside COMMIT when G1's primary was killed (by hand)


def chaos_by_hand():
    """The faults an operator mends: gcctl promote, stop-member, ..."""
    # Sessions terminated at random on the primaries, for 4 s: in the
    # middle of a transfer (40001 / 19068, retried) or of its COMMIT, one
    # across groups included (before its decision: rolled back; after:
    # committed, its prepared parts finished by in-doubt resolution).
    terminate_at_random(helper, APP, ["G1N1", "G2N1", "G3N1"], 4, seed=7)
    time.sleep(1)

    # kill -9 of G1's primary during COMMITs: with G2's standby stopped,
    # every COMMIT touching G2 waits (a part prepared on G2's primary, or
    # G2's own commit), so the kill finds transfers between G1 and G2
    # inside their two phases. Held until one is (at most 3 tries).
    for attempt in range(3):
        t_stopping = now()
        helper("gcctl", "local", "stop-member", "G2N2", "--mode", "fast")
        t_held = now()
        while now() - t_held < 1.5 and not any("G1" in k and "G2" in k for _, k in in_commit()):
            time.sleep(0.02)
        if any("G1" in k and "G2" in k for _, k in in_commit()) or attempt == 2:
            break
        helper("gcctl", "local", "start-member", "G2N2")
        time.sleep(0.5)
    t_kill = now()
    helper("kill", "G1N1")
    kill_hits.extend(in_commit())
    log(f"stopped G2N2, G2's standby (stop-member took {(t_held - t_stopping) * 1000:.0f} ms, "
        f"try {attempt + 1}), then {(t_kill - t_held) * 1000:.0f} ms later kill -9 G1N1 "
        f"(G1's primary); inside COMMIT then: "
        + (", ".join(f"{i} {k}" for i, k in kill_hits) or "none"))
    if not any("G1" in k and "G2" in k for _, k in kill_hits):
        fail("no transfer between G1 and G2 was inside its COMMIT when G1's primary was killed")
    time.sleep(0.2)
    helper("gcctl", "local", "start-member", "G2N2")
    log("started G2N2")
    time.sleep(max(0.0, t_kill + 0.5 - now()))
    t = now()
    helper("gcctl", "promote", "G1N2")
    t_promoted = now()
    log(f"promoted G1N2 ({(t_promoted - t) * 1000:.0f} ms)")
    time.sleep(2)
    # A backend of the killed server may still commit for a few ms, until it
    # notices its postmaster's death: attempts begun 100 ms after the kill.
    first = commits_since(t_kill + 0.1, "G1")
    if not first:
        fail("no transfer touching G1 committed within 2 s of G1N2's promotion")
    else:
        figures.append(f"kill -9 of G1's primary -> first transfer touching G1 (begun 100 ms or "
                       f"more after the kill) committed: {(first[0] - t_kill) * 1000:.0f} ms "
                       f"(gcctl promote ran from {(t - t_kill) * 1000:.0f} ms to "
                       f"{(t_promoted - t_kill) * 1000:.0f} ms)")

    t_stop = now()
    helper("sigstop", "G2N1")
    log("SIGSTOP G2N1 (G2's primary)")
    try:
        time.sleep(5)
        other = [x for x, gs, began in list(commit_times) if x >= t_stop and "G2" not in gs]
    finally:
        helper("sigcont", "G2N1")
        t_cont = now()
    log("SIGCONT G2N1")
    # A write joining G2 in a transaction waits for G2N1's next scheduled
    # reconnect (its backoff grew while it was frozen), and a client keeps
    # retrying the transfer it is on: up to 10 s.
    time.sleep(2)
    while not commits_since(t_cont, "G2") and now() - t_cont < 10:
        time.sleep(0.1)
    first = commits_since(t_cont, "G2")
    if not first:
        fail("no transfer touching G2 committed within 10 s of SIGCONT")
    else:
        figures.append(f"SIGSTOP of G2's primary for 5 s: transfers not touching G2 committed "
                       f"{len(other)} meanwhile; SIGCONT -> first transfer touching G2 committed: "
                       f"{(first[0] - t_cont) * 1000:.0f} ms")

    helper("gcctl", "local", "stop-member", "G3N2", "--mode", "fast")
    t_down = now()
    log("stopped G3N2 (G3's standby: G3 commits and prepares wait for it)")
    time.sleep(2)
    t_start = now()
    helper("gcctl", "local", "start-member", "G3N2")
    t_up = now()
    log("started G3N2")
    time.sleep(1)
    # Nothing touching G3 may commit from its standby's stop to its start:
    # an attempt begun 0.2 s after the stop must not finish before the
    # start began (G3's COMMIT, or its PREPARE in a transfer across groups,
    # waits for the standby).
    stalled = [x for x in commits_since(t_down + 0.2, "G3") if x < t_start]
    first = commits_since(t_start, "G3")
    figures.append(f"G3's standby stopped for {(t_up - t_down):.1f} s: transfers touching G3 "
                   f"committed meanwhile {len(stalled)} (synchronous: expected 0); start-member -> "
                   "first commit touching G3: "
                   + (f"{(first[0] - t_start) * 1000:.0f} ms" if first else "none")
                   + f" (start-member took {(t_up - t_start) * 1000:.0f} ms)")
    if stalled:
        fail(f"{len(stalled)} transfers touching G3 committed while G3's only standby was stopped")

    helper("gcctl", "add-member", "G1N3", "--group", "G1")
    log("added G1N3 to G1")
    time.sleep(1)

    g3_shards = rows(helper("app", "G2N1", "SELECT name FROM gcluster.shards "
                            "WHERE table_name = 'accounts' AND group_name = 'G3' ORDER BY position"))
    shard = g3_shards[0][0]
    twin = shard.replace("accounts", "transfers")
    t = now()
    busy = 0
    for table, name in (("accounts", shard), ("transfers", twin)):
        # Its switch locks G2's table, then G3's, each with a 5 s
        # lock_timeout, 5 tries: a transfer between G2 and G3 that holds
        # G3's rows while it joins G2 waits for it as it waits for the
        # transfer. "busy, nothing was moved" is then tried once more.
        try:
            helper("gcctl", "move-shard", table, name, "--to", "G2")
        except RuntimeError as e:
            if "busy" not in str(e):
                raise
            busy += 1
            log(f"move-shard {table} {name}: {e}; once more")
            helper("gcctl", "move-shard", table, name, "--to", "G2")
    log(f"moved {shard} and {twin} from G3 to G2 ({(now() - t) * 1000:.0f} ms)")
    figures.append(f"move-shard of {shard} and {twin}: {(now() - t):.1f} s, {busy} of them "
                   "refused once as busy")
    time.sleep(3)


# ---- the nemesis: the same clients while groups fail over by themselves ----
def errors_between(t0, t1):
    """{SQLSTATE: count} the clients saw from t0 to t1."""
    with lock:
        seen = collections.Counter(s for t, s, _, _ in timeline if t0 <= t <= t1)
    return dict(sorted(seen.items()))


def writes_back(group, t0, limit=40):
    """Seconds from t0 to the commit of the first transfer touching group
    whose attempt began 0.1 s or more after t0; None after limit."""
    while now() - t0 < limit:
        first = commits_since(t0 + 0.1, group)
        if first:
            return first[0] - t0
        time.sleep(0.05)
    return None


def members_of(group):
    return [m for m in helper("members").split() if m.startswith(group)]


def rejoin(victims):
    """Starts the keepers of victims (a crashed member comes back as a
    standby, rewound if needed) and waits until their groups are stable."""
    t = now()
    for m in victims:
        helper("start", m)
    for g in sorted({m[:2] for m in victims}):
        if fault_run.ha_wait_stable(helper, members_of(g)) is None:
            fail(f"{g} is not stable 90 s after {', '.join(victims)} restarted: "
                 f"{fault_run.ha_states(helper)}")
    return now() - t


def nemesis_fault(name, groups, inject, mend, hold=0.0):
    """Injects a fault (inject() returns the members it broke), measures per
    group the seconds until a transfer touching it commits again and the
    errors the clients saw, keeps the fault for at least hold seconds, then
    mend(victims) (returns the seconds until the groups were stable again).
    The figures go into the report."""
    victims = inject()
    t0 = now()   # the fault is in effect
    back = {g: writes_back(g, t0) for g in groups}
    # A crashed primary is restarted only once the monitor has promoted its
    # standby: a keeper back before the monitor noticed would hide the fault.
    for g in groups:
        while now() - t0 < 40 and fault_run.ha_primary(helper, members_of(g)) in victims:
            time.sleep(0.1)
    time.sleep(max(0.0, t0 + hold - now()))
    took = mend(victims)
    errors = errors_between(t0, now())
    for g, s in back.items():
        if s is None:
            fail(f"{name}: no transfer touching {g} committed within 40 s ({fault_run.ha_states(helper)})")
    figures.append(f"{name}: " + ", ".join(f"{g} without commits {s:.1f} s" if s is not None
                                           else f"{g} not back in 40 s" for g, s in back.items())
                   + f"; back to primary + secondary {took:.1f} s after the mend began"
                   + f"; errors the clients saw: {errors or 'none'}")
    log(figures[-1])


def primary_now(group):
    primary = fault_run.ha_wait_stable(helper, members_of(group))
    if primary is None:
        raise RuntimeError(f"{group} has no stable pair: {fault_run.ha_states(helper)}")
    return primary


def crash_primaries(*groups):
    victims = [primary_now(g) for g in groups]
    for m in victims:
        helper("crash", m)
    log("kill -9 of " + ", ".join(victims) + " (keepers and servers)")
    return victims


def crash_standby(group):
    primary = primary_now(group)
    standby = [m for m in members_of(group) if m != primary][0]
    helper("crash", standby)
    log(f"kill -9 of {standby} ({group}'s standby: {group} commits alone once the monitor allows it)")
    return [standby]


def freeze_primary(group):
    victim = primary_now(group)
    helper("freeze", victim)
    log(f"SIGSTOP of {victim} ({group}'s primary) and its keeper")
    return [victim]


def thaw(victims):
    """Continues frozen members (an old primary demotes itself and rejoins)
    and waits for their groups to be stable."""
    t = now()
    for m in victims:
        helper("thaw", m)
    for g in sorted({m[:2] for m in victims}):
        if fault_run.ha_wait_stable(helper, members_of(g)) is None:
            fail(f"{g} is not stable 90 s after the thaw: {fault_run.ha_states(helper)}")
    return now() - t


def move_during_promotion():
    """move-shard of a G3 shard (and its transfers twin) to G2 while G2's
    primary is killed: the move finishes, or fails and is run again once
    `gcctl status` has made the catalog follow the promotion."""
    shards = rows(helper("app", members_of("G1")[0], "SELECT name FROM gcluster.shards WHERE "
                         "table_name = 'accounts' AND group_name = 'G3' ORDER BY position"))
    shard = shards[0][0]
    moved, tries = [], []

    def move():
        # Tried again for up to 90 s: the new primary takes writes only once
        # the monitor lets it (25006 "read-only" until then).
        for table, name in (("accounts", shard), ("transfers", shard.replace("accounts", "transfers"))):
            until, attempt = now() + 90, 0
            while now() < until:
                attempt += 1
                try:
                    helper("gcctl", "move-shard", table, name, "--to", "G2", timeout=120)
                    moved.append(name)
                    break
                except RuntimeError as e:
                    tries.append(f"{name} try {attempt}: {str(e).splitlines()[-1][:160]}")
                    if "still needs the change" in str(e):   # moved; a group's catalog lags
                        moved.append(name)
                        break
                    time.sleep(2)
                    helper("gcctl", "status", timeout=60)   # the catalog follows the monitor
        # The groups left out catch up as gcctl says: apply once they answer.
        until = now() + 60
        while tries and now() < until:
            try:
                helper("gcctl", "status", timeout=60)
                helper("gcctl", "apply", timeout=60)
                break
            except RuntimeError as e:
                tries.append(f"apply: {str(e).splitlines()[-1][:160]}")
                time.sleep(2)
    mover = threading.Thread(target=move)
    victims = []

    def inject():
        mover.start()
        time.sleep(0.3)
        victims.extend(crash_primaries("G2"))
        return victims

    def mend(victims):
        t = now()
        mover.join(300)
        rejoin(victims)
        return now() - t
    nemesis_fault("kill -9 of G2's primary while move-shard moves a G3 shard to G2", ["G2", "G3"],
                  inject, mend)
    log(f"move-shard during the promotion: moved {moved}; failed tries: {tries or 'none'}")
    if len(moved) != 2:
        fail(f"move-shard of {shard} and its transfers twin did not finish: moved {moved}, {tries}")


def chaos_nemesis():
    """Faults nobody mends by hand but a restart: pg_auto_failover promotes."""
    nemesis_fault("kill -9 of G1's primary", ["G1"], lambda: crash_primaries("G1"), rejoin)
    nemesis_fault("SIGSTOP of G2's primary for 12 s", ["G2"], lambda: freeze_primary("G2"), thaw,
                  hold=12)
    nemesis_fault("kill -9 of G3's standby", ["G3"], lambda: crash_standby("G3"), rejoin)
    nemesis_fault("kill -9 of G1's and G3's primaries at once", ["G1", "G3"],
                  lambda: crash_primaries("G1", "G3"), rejoin)
    move_during_promotion()
    helper("gcctl", "status")   # the catalog follows every promotion


try:
    # Connecting 8 global connections takes a few seconds on a loaded
    # machine: the warm-up starts at the first commit (within 20 s).
    t_first = now()
    while not committed and now() - t_first < 20:
        time.sleep(0.05)
    warm_up(3, lambda: len(committed), "transfers committed")
    chaos_nemesis() if SCHEDULE == "nemesis" else chaos_by_hand()
except Exception as e:   # a failed step still stops the clients
    fail(f"harness step failed: {e}")

# ---- stop the clients (bounded) ----
def show_lock_waits():
    """Logs, for a client inside the driver for over 10 s, what its sessions
    wait for on the servers: the prepared transactions there, and the bank
    sessions waiting for a lock with who blocks them (0: a prepared
    transaction)."""
    long_calls = [(tn, c) for tn, c in enumerate(in_call) if c is not None and now() - c[1] > 10]
    if not long_calls:
        return
    log(f"clients inside the driver for over 10 s: {long_calls}")
    for m in live_members():
        try:
            log(f"  {m} prepared: " + helper("su", m, "SELECT string_agg(gid || ' at ' || "
                                                    "prepared::time, ', ') FROM pg_prepared_xacts"))
            log(f"  {m} lock waits: " + helper("su", m, "SELECT string_agg(left(query, 50) || ' "
                                                       "blocked by ' || pg_blocking_pids(pid)::text, '; ') "
                                                       "FROM pg_stat_activity WHERE wait_event_type = "
                                                       f"'Lock' AND application_name = '{APP}'"))
        except RuntimeError as e:
            log(f"  {m}: {e}")


def live_members():
    """By hand, G1N1 is killed and never restarted; the nemesis restarts
    every member, but one may have failed to come back (reported above)."""
    if SCHEDULE != "nemesis":
        return [m for m in helper("members").split() if m != "G1N1"]
    return [m for m in helper("members").split()
            if run_helper(HELPER, "su", m, "SELECT 1", check=False, timeout=20) == "1"]


show_lock_waits()
stop_clients(stop, threads, in_call, JOIN_DEADLINE)
resolver_stop.set()
resolver_thread.join(70)


# ---- in-doubt resolution, then the checks on the servers ----
GROUPS = sorted(BY_GROUP)
MEMBERS = live_members()                                  # no fault from here on
PRIMARY = {g: helper("primary", g) for g in GROUPS}


def prepared_on(m):
    return [r[0] for r in rows(helper("su", m, "SELECT gid FROM pg_prepared_xacts ORDER BY gid"))]


prepared_before = {m: prepared_on(m) for m in MEMBERS}
decisions_before = {}      # gid -> (group holding it, committed)
for g in GROUPS:
    for gid, c in rows(helper("su", PRIMARY[g], "SELECT gid, committed FROM gcluster.commit_decisions")):
        decisions_before[gid] = (g, c == "t")
log(f"checks begin: {sum(len(v) for v in prepared_before.values())} prepared transactions on "
    f"{len(MEMBERS)} members")
t_resolve = now()
try:
    resolved = helper("gcctl", "resolve", "--grace", "0")
except RuntimeError as e:
    resolved = ""
    fail(f"gcctl resolve --grace 0 did not resolve everything: {e}")
log(f"gcctl resolve --grace 0 took {(now() - t_resolve) * 1000:.0f} ms")
outcomes = resolve_outcomes(resolved)      # gid -> what gcctl resolve did
# What the primaries hold (a standby may still be replaying a COMMIT PREPARED).
in_doubt = sorted({gid for g in GROUPS for gid in prepared_before.get(PRIMARY[g], [])})
for gid in in_doubt:
    decided = decisions_before.get(gid)
    want = "committed" if decided and decided[1] else "rolled back"
    if outcomes.get(gid) != want:
        fail(f"in-doubt {gid} (decision before resolve: {decided}): gcctl resolve said "
             f"{outcomes.get(gid)!r}, expected {want!r}")
# Standbys replay COMMIT PREPARED a moment after their primary.
deadline = time.monotonic() + 5
while True:
    left = {m: gids for m in MEMBERS if (gids := prepared_on(m))}
    if not left or time.monotonic() > deadline:
        break
    time.sleep(0.2)
if left:
    fail(f"prepared transactions left after gcctl resolve: {left}")
decisions_after = []       # (group, gid, committed)
for g in GROUPS:
    for gid, c in rows(helper("su", PRIMARY[g], "SELECT gid, committed FROM gcluster.commit_decisions")):
        decisions_after.append((g, gid, c == "t"))
# A decision lives on the group its gid names (the coordinator's); after
# resolve only "roll back" ones may stay (kept for --keep-rollbacks).
misplaced = [(gid, g) for gid, (g, _) in decisions_before.items() if not gid.endswith(":" + g)]
misplaced += [(gid, g) for g, gid, _ in decisions_after if not gid.endswith(":" + g)]
if misplaced:
    fail(f"commit decisions on a group their gid does not name: {misplaced[:5]}")
kept_commits = [gid for _, gid, c in decisions_after if c]
if kept_commits:
    fail(f"{len(kept_commits)} commit decisions left after gcctl resolve, e.g. {kept_commits[:3]}")

reader = PRIMARY["G2"]
balances = {int(i): int(b) for i, b in rows(helper("app", reader, "SELECT id, balance FROM accounts"))}
legs = collections.defaultdict(list)       # transfer id -> [(account, peer, delta)]
for acc, tid, peer, d in rows(helper("app", reader, "SELECT account_id, id, peer_id, delta FROM transfers")):
    legs[tid].append((int(acc), int(peer), int(d)))


def legs_of(a, b, amount):
    return sorted([(a, b, -amount), (b, a, amount)])


present = {}                                 # transfer id -> (from, to, amount)
halves = []
for tid, ls in legs.items():
    debit = [x for x in ls if x[2] < 0]
    if len(ls) == 2 and len(debit) == 1 and sorted(ls) == legs_of(debit[0][0], debit[0][1], -debit[0][2]):
        present[tid] = (debit[0][0], debit[0][1], -debit[0][2])
    else:
        halves.append((tid, ls))
total = sum(balances.values())
if len(balances) != ACCOUNTS or total != ACCOUNTS * INITIAL:
    fail(f"total balance {total} over {len(balances)} accounts, expected {ACCOUNTS * INITIAL} over {ACCOUNTS}")
if halves:
    fail(f"{len(halves)} transfers present with one leg, or legs that do not match, e.g. {halves[:5]}")
missing = [i for i in committed if i not in legs]
if missing:
    fail(f"{len(missing)} transfers a client saw commit are missing, e.g. {missing[:5]}")
wrong = [i for i in committed if i in present and present[i] != committed[i]]
if wrong:
    fail(f"{len(wrong)} transfers differ from what the client wrote, e.g. {wrong[:5]}")
unexplained = [i for i in legs if i not in committed and i not in unresolved]
if unexplained:
    fail(f"{len(unexplained)} transfers present that no client made or saw resolved, e.g. {unexplained[:5]}")
expected = {a: INITIAL for a in range(1, ACCOUNTS + 1)}
for ls in legs.values():
    for acc, _, d in ls:
        expected[acc] += d
off = {a: (balances.get(a), v) for a, v in expected.items() if balances.get(a) != v}
if off:
    fail(f"{len(off)} balances not explained by the transfer legs (balance, legs say): "
         f"{dict(list(off.items())[:5])}")
if impossible:
    fail(f"{len(impossible)} transfers hit 23505 with no unknown COMMIT before it (a COMMIT "
         f"reported as not applied had committed?), e.g. {impossible[:3]}")
if half:
    fail(f"{len(half)} transfers hit 23505 on their second leg only (the first leg absent: "
         f"half a transfer had committed), e.g. {half[:3]}")

# Where the clients' legs ran, by the servers' own counts (the driver's
# INSERT text). Routing decides speed, not correctness: reported, not checked.
ran = {m: helper("su", m, "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                 "WHERE query LIKE 'INSERT INTO transfers (account_id, id, peer_id, delta)%'")
       for m in MEMBERS}

# SQLSTATEs the clients saw vs. the ones docs/failover.md documents. 23505
# is the transfers key doing its job (see the header), not a failure.
undocumented = undocumented_states({s for s, _, _ in states}, FAILOVER_MD, {"23505"})

# ---- report ----
with lock:
    n_committed, n_unresolved = len(committed), len(unresolved)
    across = sum(1 for a, b, _ in committed.values() if OWNER[a] != OWNER[b])
retries = sum(n for (s, _, p), n in states.items() if p in ("statement", "commit"))
log(f"transfers committed (seen by clients): {n_committed}, {across} of them across groups; "
    f"unresolved at their deadline: {n_unresolved}; present on the servers: {len(legs)}; "
    f"attempts that failed: {retries}")
for (s, native, phase), n in sorted(states.items()):
    log(f"  {s} native {native} at {phase}: {n}; first: {samples[(s, native, phase)]}")
per_second = collections.Counter((int(t), s, k) for t, s, _, k in timeline)
log("failures per second (time, SQLSTATE, transfer's groups): "
    + ", ".join(f"{t}s {s} {k} x{n}" for (t, s, k), n in sorted(per_second.items())))
log("inside COMMIT at G1's kill, and what became of them: "
    + ("; ".join(f"{i} {k}: failures {history.get(i, [])}, "
                 + ("committed" if i in committed else "unresolved" if i in unresolved else "?")
                 + (", present" if i in present else ", absent")
                 for i, k in kill_hits) or "none"))
log("in-doubt transactions resolved by gcctl resolve every 2 s during the run (the nemesis): "
    + (", ".join(f"{o} {n}" for o, n in sorted(resolved_meanwhile.items())) or "none"))
log(f"in doubt after the run: {len(in_doubt)} prepared transactions ("
    + ", ".join(f"{m} {len(g)}" for m, g in prepared_before.items()) + "); gcctl resolve: "
    + ", ".join(f"{o} {n}" for o, n in sorted(collections.Counter(outcomes.values()).items()))
    + f"; commit decisions before resolve: {sum(1 for _, c in decisions_before.values() if c)} "
    f"commit, {sum(1 for _, c in decisions_before.values() if not c)} roll back; after: "
    f"{len(decisions_after)} roll back")
log("transfer legs sent by the driver, per member (pg_stat_statements; G1N1 killed): "
    + ", ".join(f"{m} {n}" for m, n in ran.items()))
for f in figures:
    log("measured: " + f)
if undocumented:
    fail(f"SQLSTATEs not in docs/failover.md: {undocumented}")
# A shard that moves under a transaction makes its COMMIT 40001 (nothing
# applied, retry), never 0A000 (docs/failover.md).
refused_commits = sum(n for (s, _, p), n in states.items() if s == "0A000" and p == "commit")
if refused_commits:
    fail(f"{refused_commits} COMMITs ended with 0A000 where a moved shard gives 40001: "
         + "; ".join(v for (s, _, p), v in samples.items() if s == "0A000" and p == "commit"))
finish("total unchanged, every transfer whole or absent, every committed transfer present, "
       "balances explained, in-doubt transactions resolved by their decisions, no prepared "
       "transaction, only documented SQLSTATEs")
