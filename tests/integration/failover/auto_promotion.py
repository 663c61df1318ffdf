"""Automatic promotion under pg_auto_failover, through pyodbc (docs/failover.md,
"Groups that fail over by themselves").

usage: auto_promotion.py DSN HELPER   (run by failover.sh, which writes HELPER)

A 2 x 2 cluster with 'ha: true' and synchronous replication. Per fault, a
writer thread updates keys of the victim group through one global
connection (autocommit, each acknowledged increment counted) and a reader
thread reads keys of both groups through another; the fault is injected,
no operator acts, and:
- writes come back by themselves on the promoted standby (the time from
  the fault to the first acknowledged write is the writes-unavailable
  time; median and worst are printed);
- no read fails (the victim's standby and the other group keep answering);
- no acknowledged write is lost (each key's balance is at least its count
  of acknowledged increments, and at most that plus the increments whose
  outcome the driver reported unknown);
- `gcctl status` shows the monitor's states, and the catalog
  (gcluster.members) names the promoted member primary;
- the old primary, restarted (`gcctl local start-member`: its keeper),
  rejoins as a secondary and serves reads again through the connections
  opened before the fault: its pg_stat_statements counts the read.
Faults: kill -9 of the primary (keeper and server), twice (once per group),
and SIGSTOP of the primary (keeper and server) for longer than the
timeouts, then SIGCONT."""
import os
import statistics
import sys
import threading
import time

import pyodbc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from fault_helper import fail, run_helper  # noqa: E402
import fault_run  # noqa: E402

DSN, HELPER = sys.argv[1], sys.argv[2]
DEADLINE = time.monotonic() + 400   # the whole test, bounded
RECONNECT_INTERVAL = 1


def helper(*args, check=True):
    return run_helper(HELPER, *args, check=check)


def connect():
    return pyodbc.connect(f"DSN={DSN};LocalityMemberPolicy=2;ReconnectInterval={RECONNECT_INTERVAL};"
                          "ConnectTimeout=2;MemberTimeout=2", autocommit=True)


MEMBERS = {"G1": ["G1N1", "G1N2"], "G2": ["G2N1", "G2N2"]}
PORT = {helper("port", m): m for g in MEMBERS.values() for m in g}
KEYS = {"G1": [], "G2": []}
for line in helper("app", "G1N1", "SELECT a.id, s.group_name FROM accounts a JOIN gcluster.shards s "
                   "ON s.name = a.tableoid::regclass::text WHERE a.id <= 60").splitlines():
    k, group = line.split()
    KEYS[group].append(int(k))


def ha_states():
    return fault_run.ha_states(helper)


def primary_of(group):
    return fault_run.ha_primary(helper, MEMBERS[group])


def wait_stable(group, limit=90):
    primary = fault_run.ha_wait_stable(helper, MEMBERS[group], limit)
    if primary is None:
        fail(f"{group} has no stable primary/secondary pair after {limit} s: {ha_states()}")
    return primary


class Workload:
    """A writer of the victim group's keys and a reader of every key, each
    on its own global connection, until stop()."""

    def __init__(self, group, conns):
        self.group = group
        self.write_conn, self.read_conn = conns
        self.acked = {}            # key -> acknowledged increments
        self.unknown = {}          # key -> increments of unknown outcome
        self.write_ok_times = []   # (sent, acknowledged) monotonic times of each acknowledged write
        self.write_errors = {}     # SQLSTATE -> count
        self.read_errors = []
        self.reads = 0
        self.running = True
        self.threads = [threading.Thread(target=self.write, daemon=True),
                        threading.Thread(target=self.read, daemon=True)]
        for t in self.threads:
            t.start()

    def write(self):
        cur = self.write_conn.cursor()
        keys = KEYS[self.group]
        i = 0
        while self.running:
            k = keys[i % len(keys)]
            i += 1
            sent = time.monotonic()
            try:
                cur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", k)
                self.acked[k] = self.acked.get(k, 0) + 1
                self.write_ok_times.append((sent, time.monotonic()))
            except pyodbc.Error as e:
                state = e.args[0] if e.args else "?"
                self.write_errors[state] = self.write_errors.get(state, 0) + 1
                # 08007: the driver says the COMMIT's outcome is unknown.
                if state in ("08007", "40003"):
                    self.unknown[k] = self.unknown.get(k, 0) + 1
                time.sleep(0.02)

    def read(self):
        cur = self.read_conn.cursor()
        keys = KEYS["G1"] + KEYS["G2"]
        i = 0
        while self.running:
            k = keys[i % len(keys)]
            i += 1
            try:
                cur.execute("SELECT owner FROM accounts WHERE id = ?", k).fetchone()
                self.reads += 1
            except pyodbc.Error as e:
                self.read_errors.append(str(e))
            time.sleep(0.005)

    def stop(self):
        self.running = False
        for t in self.threads:
            t.join(30)


def check_no_loss(work, primary):
    for k, n in work.acked.items():
        balance = float(helper("su", primary, f"SELECT balance FROM accounts WHERE id = {k}"))
        if balance < BASE[k] + n:
            fail(f"key {k}: {n} acknowledged increments but the balance went {BASE[k]} -> {balance}")
        if balance > BASE[k] + n + work.unknown.get(k, 0):
            fail(f"key {k}: balance {BASE[k]} -> {balance}, more than {n} acknowledged + "
                 f"{work.unknown.get(k, 0)} unknown")
        BASE[k] = balance


def read_reaches(conn, member, limit=int(os.environ.get('REJOIN_LIMIT', '65'))):
    """Reads keys of the member's group through conn until the member
    answers one; its pg_stat_statements must count the read. The
    connection retries a member it found down on its backoff schedule
    (ReconnectInterval doubling up to 60 s: docs/failover.md), so the
    first read may take up to that long. Returns the seconds it took."""
    group = member[:2]
    helper("su", member, "SELECT pg_stat_statements_reset()")
    cur = conn.cursor()
    end = time.monotonic() + limit
    i = 0
    while time.monotonic() < end:
        k = KEYS[group][i % len(KEYS[group])]
        i += 1
        port = cur.execute("SELECT current_setting('port') /* rejoin */ FROM accounts WHERE id = ?",
                           k).fetchone()[0]
        if PORT[port] == member:
            calls = helper("su", member, "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                           "WHERE query LIKE '%/* rejoin */%'")
            if int(calls) < 1:
                fail(f"{member} answered a read but its pg_stat_statements counts none")
            return limit - (end - time.monotonic())
        time.sleep(0.05)
    shown = "\n".join(" ".join(str(v) for v in row) for row in cur.execute("SHOW GLOBAL CONNECTION").fetchall())
    fail(f"{member} did not answer a read through an open connection within {limit} s:\n{shown}")


BASE = {k: 0.0 for g in KEYS.values() for k in g}
outage = {"kill": [], "sigstop": []}
FAULTS = [("kill", "G1"), ("sigstop", "G1"), ("kill", "G2")]
conns = [connect() for _ in range(2)]
for fault, group in FAULTS:
    if time.monotonic() > DEADLINE:
        fail("the test ran out of time")
    victim = wait_stable(group)
    standby = [m for m in MEMBERS[group] if m != victim][0]
    work = Workload(group, conns)
    time.sleep(1)
    helper("crash" if fault == "kill" else "freeze", victim)
    t0 = time.monotonic()   # the fault is in effect
    # Writes must come back by themselves within 30 s. Only a write sent
    # after the fault counts: one the server answered just before it may be
    # acknowledged in the client a moment after.
    while time.monotonic() - t0 < 30 and not any(s > t0 for s, _ in work.write_ok_times):
        time.sleep(0.05)
    back = [t for s, t in work.write_ok_times if s > t0]
    if not back:
        work.stop()
        fail(f"{fault} of {victim}: no write acknowledged within 30 s ({work.write_errors}; "
             f"monitor: {ha_states()})")
    # Unavailable: from the last write acknowledged before the fault took
    # effect to the first one after (the helper itself takes a moment).
    before = [t for s, t in work.write_ok_times if s <= t0]
    unavailable = back[0] - (before[-1] if before else t0)
    outage[fault].append(unavailable)
    time.sleep(1)
    if fault == "sigstop":
        helper("thaw", victim)
    work.stop()
    if work.read_errors:
        fail(f"{fault} of {victim}: {len(work.read_errors)} reads failed, first: {work.read_errors[0]}")
    new_primary = primary_of(group)
    if new_primary != standby:
        fail(f"{fault} of {victim}: the monitor's primary of {group} is {new_primary}, expected "
             f"{standby} (writes back after {unavailable:.1f} s; {ha_states()}; {work.write_errors})")
    check_no_loss(work, standby)
    # The catalog follows: gcctl status says so and rewrites gcluster.members.
    status = helper("gcctl", "status")
    if f"{standby} " not in status or "primary/" not in status:
        fail(f"gcctl status does not show the monitor's states:\n{status}")
    role = helper("su", standby, f"SELECT role FROM gcluster.members WHERE name = '{standby}'")
    if role != "primary":
        fail(f"gcluster.members says {standby} is {role} after its promotion")
    print(f"ok {fault} of {victim}: writes unavailable {unavailable:.1f} s, {work.reads} reads and "
          f"no read error, {sum(work.acked.values())} acknowledged writes all found, "
          f"errors the writer saw {work.write_errors}; {standby} primary in the catalog")
    # The old primary rejoins (a killed one is restarted by its keeper).
    if fault == "kill":
        helper("start", victim)
    wait_stable(group)
    if ha_states().get(victim) != "secondary/secondary":
        fail(f"{victim} did not rejoin as a secondary: {ha_states()}")
    took = [read_reaches(c, victim) for c in conns]
    print(f"ok {victim} rejoined as a secondary and served a read through each open connection "
          f"(first read {max(took):.1f} s after it was back in sync)")

for c in conns:
    c.close()
for fault, times in outage.items():
    print(f"writes unavailable after {fault}: median {statistics.median(times):.1f} s, "
          f"worst {max(times):.1f} s over {len(times)}")
print("reads unavailable: never (no read failed); acknowledged writes lost: 0")
