"""Times SQLDriverConnect through pyodbc; see run.sh.

usage: connect.py PORT LOCATOR TRIES CORES"""
import statistics
import subprocess
import sys
import time

import pyodbc

PORT, LOCATOR, TRIES, CORES = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
PSQLODBC = (f"Driver=psqlODBC;Servername=127.0.0.1;Port={PORT};Database=app;"
            "Username=app;Password=app")
ONE = f"DSN=bench;GlobalConnection=No;Servers=127.0.0.1:{PORT};Locator="
SEEDS = f"DSN=bench;Servers=127.0.0.1:{PORT};Locator="
WITH_LOCATOR = f"DSN=bench;Servers=;Locator={LOCATOR}"
FRESH = ("import pyodbc, sys, time\n"
         "pyodbc.pooling = False\n"
         "t0 = time.perf_counter()\n"
         "c = pyodbc.connect(sys.argv[1], autocommit=True)\n"
         "print((time.perf_counter() - t0) * 1000)\n")


def later(conn_str):
    t0 = time.perf_counter()
    pyodbc.connect(conn_str, autocommit=True).close()
    return (time.perf_counter() - t0) * 1000


def first(conn_str):
    out = subprocess.run([sys.executable, "-c", FRESH, conn_str], check=True,
                         capture_output=True, text=True).stdout
    return float(out)


pyodbc.pooling = False
rows = {  # name: (how, connection string, baseline)
    "psqlODBC": (later, PSQLODBC, "psqlODBC"),
    "gcodbc-one": (later, ONE, "psqlODBC"),
    "global-again": (later, SEEDS, "gcodbc-one"),
    "first-psqlODBC": (first, PSQLODBC, "first-psqlODBC"),
    "first-gcodbc-one": (first, ONE, "first-psqlODBC"),
    "global-first-loc": (first, WITH_LOCATOR, "first-gcodbc-one"),
    "global-first-seeds": (first, SEEDS, "first-gcodbc-one"),
}
for how, conn_str, _ in rows.values():
    if how is later:
        later(conn_str)   # load the drivers, and let the process learn the cluster
times = {name: [] for name in rows}
for _ in range(TRIES):   # interleaved, so a slow moment hits every row alike
    for name, (how, conn_str, _) in rows.items():
        times[name].append(how(conn_str))
median = {name: statistics.median(v) for name, v in times.items()}
print(f"connect: {TRIES} connects per row, medians; 3 groups x 2 members on loopback, "
      f"{CORES} cores")
print(f"{'connect':20s} {'ms':>8s}  ratio to")
for name, (_, _, base) in rows.items():
    print(f"{name:20s} {median[name]:8.1f}  {median[name] / median[base]:5.2f} {base}")
