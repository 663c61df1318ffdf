"""The client side of a fault test's helper script (tests/integration/gcctl/
lib.sh, write_fault_helper): runs one of its commands and returns what it
printed.

The helper (gcctl, psql) runs without any sanitizer preload this interpreter
may have been given, so the servers it starts run as usual."""
import os
import subprocess
import sys
import threading

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
