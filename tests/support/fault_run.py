"""The shared frame of the fault tests whose clients run in threads while a
harness breaks servers (bank, lost_writes): a clock and log from the start
of the run, failures collected rather than ending the run (the clients must
still be stopped and the servers checked), stopping the client threads
within a deadline, and the SQLSTATEs docs/failover.md documents."""
import os
import random
import re
import sys
import threading
import time

T0 = time.monotonic()
failures = []
_lock = threading.Lock()


def now():
    """Seconds since the run started."""
    return time.monotonic() - T0


def log(msg):
    print(f"[{now():6.2f}] {msg}", flush=True)


def fail(msg):
    """Records a failure; the run goes on, finish() reports it."""
    with _lock:
        failures.append(msg)
    log("FAIL: " + msg)


def rows(out):
    """psql's unaligned output (fields split by spaces) as lists of fields."""
    return [line.split(" ") for line in out.splitlines() if line]


def guarded(client):
    """client(tn) wrapped so that anything but an ODBC error (which the
    client handles itself) is a failure of the test."""
    def run(tn):
        try:
            client(tn)
        except Exception as e:
            fail(f"client thread {tn}: {e!r}")
    return run


def stop_clients(stop, threads, in_call, deadline):
    """Sets stop and joins the client threads within deadline seconds. A
    thread still running then is stuck inside the driver (in_call[i] says
    where): the run ends here, since such a thread cannot be ended from
    Python; the calling script takes the cluster down."""
    stop.set()
    t_stop = now()
    for t in threads:
        t.join(max(0.1, deadline - (now() - t_stop)))
    stuck = [i for i, t in enumerate(threads) if t.is_alive()]
    if stuck:
        for i in stuck:
            fail(f"client thread {i} is stuck {deadline:.0f} s after stop, in {in_call[i]}")
        print("FAIL:", "; ".join(failures), flush=True)
        os._exit(1)
    log(f"clients stopped in {(now() - t_stop) * 1000:.0f} ms")


def warm_up(seconds, done, what):
    """Lets the clients run alone for `seconds`, then logs how many `what`
    they finished (done() counts them): none is a failure."""
    time.sleep(seconds)
    n = done()
    if n == 0:
        fail(f"no {what} in the first {seconds} s")
    log(f"{n} {what} before any fault")


def terminate_at_random(helper, app, members, seconds, seed):
    """For `seconds`, every 20-100 ms, terminates one client session of
    application `app` (pg_terminate_backend), on one of `members` chosen at
    random; helper(...) runs the fault helper. Logs how many."""
    rng = random.Random(seed)
    terminated = 0
    until = now() + seconds
    while now() < until:
        member = rng.choice(members)
        if helper("su", member, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                  f"WHERE application_name = '{app}' AND backend_type = 'client backend' "
                  "ORDER BY random() LIMIT 1") == "t":
            terminated += 1
        time.sleep(rng.uniform(0.02, 0.1))
    log(f"terminated {terminated} client sessions on {', '.join(members)}")


def undocumented_states(seen, failover_md, expected=()):
    """The SQLSTATEs in seen that docs/failover.md does not name, leaving
    out those in expected (a test's own)."""
    with open(failover_md) as f:
        # A class is a digit and a digit or letter (0A, 2F, 40, ...), or
        # one of ODBC's and PostgreSQL's lettered classes.
        documented = set(re.findall(r"\b(?:[0-9][0-9A-Z]|HY|IM|XX|P0)[0-9A-Z]{3}\b", f.read()))
    return sorted(set(seen) - documented - set(expected))


def finish(ok_message):
    """Ends the run: exit status 1 with every failure, or prints ok_message."""
    if failures:
        print("FAIL:", "; ".join(failures), flush=True)
        sys.exit(1)
    print("ok: " + ok_message, flush=True)


# ---- groups under pg_auto_failover (ha: true; docs/cluster.md) ----
def ha_states(helper):
    """{member: 'reported/goal'} as the monitor says."""
    out = helper("monitor", "SELECT nodename, reportedstate || '/' || goalstate FROM pgautofailover.node")
    return dict(line.split() for line in out.splitlines())


def ha_primary(helper, members):
    """The writable primary among members as the monitor says, or None
    (alone it is 'wait_primary': it commits without a standby)."""
    for m, state in ha_states(helper).items():
        if m in members and state in ("primary/primary", "wait_primary/wait_primary"):
            return m
    return None


def ha_wait_stable(helper, members, limit=90):
    """Waits until members are one primary and secondaries, all settled
    (the monitor promotes only a standby it saw in sync); returns the
    primary, or None after limit seconds."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        states = ha_states(helper)
        got = sorted(states.get(m, "-") for m in members)
        if got == sorted(["primary/primary"] + ["secondary/secondary"] * (len(members) - 1)):
            return ha_primary(helper, members)
        time.sleep(0.2)
    return None
