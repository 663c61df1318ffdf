"""The client side of a fault test's helper script (tests/integration/gcctl/
lib.sh, write_fault_helper): runs one of its commands and returns what it
printed.

The helper (gcctl, psql) runs without any sanitizer preload this interpreter
may have been given, so the servers it starts run as usual."""
import os
import subprocess
import sys
import threading
import time

import pyodbc

CHILD_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def run_helper(helper, *args, check=True, timeout=90):
    """Runs `helper ARGS...`; returns its output, stripped. With check, a
    failing command raises RuntimeError carrying what it said."""
    r = subprocess.run([helper, *args], capture_output=True, text=True, env=CHILD_ENV,
                       timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError(f"helper {' '.join(args)}: {r.stderr.strip() or r.stdout.strip()}")
    return r.stdout.strip()


def fail(msg):
    """Ends the test: prints why and exits with status 1."""
    print("FAIL:", msg)
    sys.exit(1)


def backend_waiting(su, app, member, wait_event, timeout=10.0):
    """The pid of application app's backend on member waiting on wait_event
    (su(member, sql) runs superuser SQL); ends the test after timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pid = su(member, "SELECT pid FROM pg_stat_activity WHERE application_name = "
                 f"'{app}' AND wait_event = '{wait_event}' LIMIT 1")
        if pid:
            return pid
        time.sleep(0.05)
    fail(f"no backend of {app} waits on {wait_event} on {member}")


def hold_commits(su, primary, on):
    """on: COMMITs on primary wait for a synchronous standby that never
    comes ('nobody'), so a test can act while they wait; off: they go on."""
    su(primary, "ALTER SYSTEM SET synchronous_standby_names = 'nobody'" if on
       else "ALTER SYSTEM RESET synchronous_standby_names")
    su(primary, "SELECT pg_reload_conf()")
    time.sleep(0.2)


def in_thread(fn, limit=60):
    """Runs fn (a driver call) in a daemon thread, so that the test can
    break a server while the call waits; returns a function that waits for
    it (at most limit seconds: a call still running then ends the test)
    and gives ('ok', value) or ('error', pyodbc.Error)."""
    out = {}

    def run():
        try:
            out["r"] = ("ok", fn())
        except pyodbc.Error as e:
            out["r"] = ("error", e)
        except Exception as e:   # noqa: BLE001 (the test's own failure, below)
            out["r"] = ("crash", e)
    t = threading.Thread(target=run, daemon=True)
    t.start()

    def join():
        t.join(limit)
        if t.is_alive():
            fail(f"the driver call did not return within {limit} s")
        if out["r"][0] == "crash":
            fail(f"the client thread failed: {out['r'][1]!r}")
        return out["r"]
    return join
