"""Cost of INSERTs that leave a sharded table's key to its sequence
(docs/global-connection.md, "INSERT without the key"), through pyodbc with
its defaults (autocommit off): rounds of 400 one-row INSERTs into orders
(id bigserial, item text, hash-sharded over three groups) committed as one
transaction, side by side in one run, the clients interleaved:

  keyed          gcodbc, global connection, `INSERT INTO orders (id, item)
                 VALUES (?, ?)` with keys the program makes: the floor
  drawn          gcodbc, `INSERT INTO orders (item) VALUES (?)`, keys
                 drawn ahead (SequenceCache, default 32)
  drawn-each     the same with SequenceCache=1: one draw per INSERT
  psqlODBC       psqlODBC on G1's primary, `INSERT INTO orders (item)
                 VALUES (?)`: the server draws, and postgres_fdw carries
                 each row another group owns (as psqlODBC must)

It prints the median microseconds per INSERT (wall and client CPU) over
ROUNDS rounds, and each one's ratio to keyed and to psqlODBC. A benchmark,
not a test: it asserts nothing.

Run under the transaction tests' fixture (a private 3 x 2 cluster, taken
down after), from a build directory:

  bash ../tests/integration/gcctl/fault_clients.sh tools/gcctl/gcctl \
      ../bench/drawn_keys/drawn_keys.py \
      ../tests/integration/xact/xact_cluster.yaml ../docs/failover.md \
      /tmp/drawn_keys 600

Environment: ROUNDS (5), ROWS (400 per round).
"""
import os
import statistics
import sys
import time

import pyodbc

sys.path.insert(0, os.environ.get("XACT_DIR", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "integration", "xact")))
from xact_lib import connect, helper, log, primary  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "5"))
ROWS = int(os.environ.get("ROWS", "400"))
PSQLODBC = "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so"

g1 = primary("G1")
port = helper("port", g1)
clients = {
    "keyed": lambda: connect("bench-keyed"),
    "drawn": lambda: connect("bench-drawn"),
    "drawn-each": lambda: connect("bench-each", ";SequenceCache=1"),
    "psqlODBC": lambda: pyodbc.connect(f"Driver={{{PSQLODBC}}};Server=127.0.0.1;Port={port};"
                                       "Database=app;UID=app;PWD=app"),
}
KEYLESS = "INSERT INTO orders (item) VALUES (?)"
next_key = [10_000_001]   # far above what the sequences hand out in a run


def one_round(name):
    """ROWS INSERTs in one transaction on a new connection: (wall, cpu) us each."""
    conn = clients[name]()
    cur = conn.cursor()
    rows = [(f"{name}-{i}",) for i in range(ROWS)]
    if name == "keyed":
        rows = [(next_key[0] + 100 * i, item) for i, (item,) in enumerate(rows)]
        next_key[0] += 100 * ROWS
    sql = "INSERT INTO orders (id, item) VALUES (?, ?)" if name == "keyed" else KEYLESS
    t0, c0 = time.perf_counter(), time.process_time()
    for row in rows:
        cur.execute(sql, *row)
    conn.commit()
    wall = (time.perf_counter() - t0) / ROWS * 1e6
    cpu = (time.process_time() - c0) / ROWS * 1e6
    conn.close()
    return wall, cpu


helper("app", g1, "TRUNCATE orders")
for name in clients:          # warm-up: connections, plans, caches
    one_round(name)
results = {name: ([], []) for name in clients}
for r in range(ROUNDS):
    for name in clients:
        wall, cpu = one_round(name)
        results[name][0].append(wall)
        results[name][1].append(cpu)
    log(f"round {r + 1} of {ROUNDS}")
count = helper("app", g1, "SELECT count(*) || ' ' || count(DISTINCT id) FROM orders")
med = {n: (statistics.median(w), statistics.median(c)) for n, (w, c) in results.items()}
print(f"\n{ROWS} one-row INSERTs per transaction, {ROUNDS} rounds, medians "
      f"(rows and distinct keys after the run: {count})")
print(f"{'client':12s} {'wall us':>9s} {'cpu us':>9s} {'wall/keyed':>11s} {'wall/psqlODBC':>14s}")
for n, (w, c) in med.items():
    print(f"{n:12s} {w:9.0f} {c:9.0f} {w / med['keyed'][0]:11.2f} {w / med['psqlODBC'][0]:14.2f}")
