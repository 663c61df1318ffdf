"""Cost of the statement mark (docs/global-connection.md, "Writes through
postgres_fdw"): autocommit SELECT noop(?) (a function of the user's: marked)
and SELECT abs(?) (read-only, never marked) on one global connection, 2,000
each under strace -c attached to this process (sendto, recvfrom and poll
calls), then 2 x 5 rounds of 2,000 timed (client CPU and wall, median per
statement), and what pg_stat_statements on the member says of the mark.

Run under the transaction tests' fixture (a private 3 x 2 cluster, taken
down after), from a build directory:

  bash ../tests/integration/gcctl/fault_clients.sh tools/gcctl/gcctl \
      ../bench/statement_mark/statement_mark.py \
      ../tests/integration/xact/xact_cluster.yaml ../docs/failover.md \
      /tmp/statement_mark 350
"""
import os
import subprocess
import sys
import statistics
import time
sys.path.insert(0, os.environ.get("XACT_DIR", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "integration", "xact")))
from xact_lib import GROUPS, connect, primary, su, log, reset_statements  # noqa: E402

ON_G3 = ";LocalityGroupPolicy=1;LocalityGroupPath=G3,G1,G2;LocalityMemberPolicy=0"
for g in GROUPS:
    su(primary(g), "CREATE FUNCTION public.noop(a bigint) RETURNS bigint LANGUAGE plpgsql AS "
                   "$f$ BEGIN RETURN a; END $f$")
auto = connect("bench", extra=ON_G3, autocommit=True)
cur = auto.cursor()


def run(sql, n):
    for i in range(n):
        cur.execute(sql, i)
        cur.fetchall()


for sql in ("SELECT noop(?)", "SELECT abs(?)"):
    run(sql, 200)
    out = f"/tmp/statement_mark.strace.{os.getpid()}"
    tracer = subprocess.Popen(["strace", "-c", "-f", "-o", out, "-p", str(os.getpid())])
    time.sleep(1.0)
    run(sql, 2000)
    tracer.terminate()
    tracer.wait()
    counts = {}
    for line in open(out):
        f = line.split()
        if len(f) >= 5 and f[-1] in ("sendto", "recvfrom", "poll", "ppoll"):
            counts[f[-1]] = int(f[3])
    os.remove(out)
    log(f"{sql}: strace over 2000: {counts}")
reset_statements()
for sql in ("SELECT noop(?)", "SELECT abs(?)", "SELECT noop(?)", "SELECT abs(?)"):
    walls, cpus = [], []
    for r in range(5):
        t0, c0 = time.perf_counter(), time.process_time()
        run(sql, 2000)
        walls.append((time.perf_counter() - t0) / 2000 * 1e6)
        cpus.append((time.process_time() - c0) / 2000 * 1e6)
    log(f"{sql}: median wall {statistics.median(walls):.1f} us, client CPU "
        f"{statistics.median(cpus):.1f} us per statement")
log("G3 server: " + su(primary("G3"), "SELECT string_agg(query || ' calls=' || calls || ' mean_ms=' "
                       "|| round(mean_exec_time::numeric, 4), ' | ') FROM pg_stat_statements "
                       "WHERE query LIKE 'SELECT%noop%' OR query LIKE 'SELECT%abs%' "
                       "OR query LIKE '%set_config%'"))
print("ok", flush=True)
