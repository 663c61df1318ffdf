"""The client side of a fault test's helper script (tests/integration/gcctl/
lib.sh, write_fault_helper): runs one of its commands and returns what it
printed.

The helper (gcctl, psql) runs without any sanitizer preload this interpreter
may have been given, so the servers it starts run as usual."""
import os
import subprocess
import sys

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
