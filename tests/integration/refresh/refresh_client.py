"""Drives global connections through pyodbc while the cluster changes.

usage: refresh_client.py GCCTL DIR SUPERUSER_SOCKET OS_USER

Checks, with the servers as witnesses:
1. a connection with TopologyRefresh=2 runs one prepared keyed SELECT over
   and over; gcctl add-group G3 and move-shard accounts accounts_1 --to G3
   run meanwhile; within TopologyRefresh seconds of move-shard returning,
   pg_stat_statements on G3N1 counts the SELECTs for accounts_1's keys, on
   the same connection (never reopened);
2. ALTER SYSTEM RECONNECT GLOBAL CONNECTION (odd case and spacing) raises
   gcluster.version on every primary, and a second, independent connection
   follows the new version at its next transaction (its trace says so).
"""
import os
import subprocess
import sys
import time

import pyodbc

GCCTL, DIR, SOCK, OS_USER = sys.argv[1:5]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def port_of(member):
    for line in open(os.path.join(DIR, "locator.yaml")):
        if "name: %s," % member in line:
            return line.split("port:")[1].strip().rstrip("}").strip()
    fail("no member " + member)


# Programs this script starts get the environment without the sanitizer
# preload this interpreter may have been given (so servers gcctl starts run
# as they normally do).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def su(member, query):
    out = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", SOCK,
                          "-p", port_of(member), "-U", OS_USER, "-d", "app", "-c", query],
                         capture_output=True, text=True, env=CHILD_ENV)
    if out.returncode != 0:
        fail("superuser SQL on %s failed: %s: %s" % (member, query, out.stderr))
    return out.stdout.strip()


def gcctl(*args):
    out = subprocess.run([GCCTL] + list(args) + ["--dir", DIR], capture_output=True, text=True,
                         env=CHILD_ENV)
    if out.returncode != 0:
        fail("gcctl %s: %s%s" % (" ".join(args), out.stdout, out.stderr))


SELECT = "SELECT owner FROM accounts WHERE id = ?"


def g3_calls():
    return int(su("G3N1", "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                          "WHERE query LIKE 'SELECT owner FROM accounts WHERE id = $1%'"))


trace_b = os.path.join(DIR, "trace_b.log")
a = pyodbc.connect("DSN=grefresh;TopologyRefresh=2", autocommit=True)
b = pyodbc.connect("DSN=grefresh;TopologyRefresh=2;LogLevel=2;LogFile=" + trace_b,
                   autocommit=True)
ca = a.cursor()
ca.execute("INSERT INTO accounts (id, owner) SELECT g, 'o' || g FROM generate_series(1, 40) g")
moved = [r[0] for r in ca.execute(
    "SELECT id FROM accounts WHERE tableoid = 'accounts_1'::regclass ORDER BY id").fetchall()]
if not moved:
    fail("no key in accounts_1")


def run_keys(cursor):
    for k in moved:
        row = cursor.execute(SELECT, k).fetchone()
        if row is None or row[0] != "o%d" % k:
            fail("key %d read %r" % (k, row))


run_keys(ca)
gcctl("add-group", "G3", "--member", "G3N1")
run_keys(ca)
su("G3N1", "SELECT pg_stat_statements_reset()")
gcctl("move-shard", "accounts", "accounts_1", "--to", "G3")
t0 = time.monotonic()
seen = None
while time.monotonic() - t0 < 6:
    run_keys(ca)
    if g3_calls() > 0:
        seen = time.monotonic() - t0
        break
    time.sleep(0.05)
if seen is None:
    fail("6 s after move-shard, G3N1 ran none of the moved shard's SELECTs")
if seen > 2.5:
    fail("the moved shard's SELECTs reached G3N1 only after %.2f s (TopologyRefresh=2)" % seen)
before = g3_calls()
run_keys(ca)
if g3_calls() - before != len(moved):
    fail("G3N1 counted %d of %d SELECTs for the moved keys"
         % (g3_calls() - before, len(moved)))
print("ok: moved shard's keys run on G3N1 %.2f s after move-shard, same connection;"
      " %d of %d counted there" % (seen, len(moved), len(moved)))

# RECONNECT from pyodbc (SQLExecDirect); b stays idle meanwhile.
b.cursor().execute("SELECT 1").fetchall()
versions = {m: int(su(m, "SELECT version FROM gcluster.version")) for m in ("G1N1", "G2N1", "G3N1")}
started = {m: su(m, "SELECT clock_timestamp()") for m in versions}
ca.execute("  alter   SYSTEM reconnect\n global connection ;")
for m in versions:
    fresh = int(su(m, "SELECT count(*) FROM pg_stat_activity WHERE usename = 'app' "
                      "AND backend_start > '%s'" % started[m]))
    if fresh != 1:
        fail("after RECONNECT %s has %d new sessions of the connection, expected 1" % (m, fresh))
after = {m: int(su(m, "SELECT version FROM gcluster.version")) for m in versions}
top = max(versions.values()) + 1
for m in versions:
    if after[m] != top:
        fail("after RECONNECT %s has version %d, expected %d" % (m, after[m], top))
run_keys(ca)
print("ok: RECONNECT through pyodbc: version %d on every primary, every session reopened;"
      " the connection still works" % top)
b.cursor().execute("SELECT 1").fetchall()
log = open(trace_b).read()
if "now following catalog version %d" % top not in log:
    fail("connection b did not follow version %d at its next transaction" % top)
for m in versions:
    fresh = int(su(m, "SELECT count(*) FROM pg_stat_activity WHERE usename = 'app' "
                      "AND backend_start > '%s'" % started[m]))
    if fresh != 2:
        fail("after b's next statement %s has %d new sessions, expected 2 (a's and b's)"
             % (m, fresh))
print("ok: an independent connection followed version %d and reconnected every member"
      " at its next statement" % top)
# Without the admin grant the server's 42501 reaches the application and no
# version moves.
su("G1N1", "REVOKE EXECUTE ON FUNCTION gcluster.bump_version(text, bigint) FROM app")
try:
    ca.execute("ALTER SYSTEM RECONNECT GLOBAL CONNECTION")
    fail("RECONNECT without the admin grant succeeded")
except pyodbc.Error as e:
    if e.args[0] != "42501":
        fail("RECONNECT without the admin grant gave %r, expected 42501" % (e.args,))
su("G1N1", "GRANT EXECUTE ON FUNCTION gcluster.bump_version(text, bigint) TO app")
for m in versions:
    v = int(su(m, "SELECT version FROM gcluster.version"))
    if v != top:
        fail("after a refused RECONNECT %s has version %d, expected %d" % (m, v, top))
print("ok: RECONNECT without the admin grant: 42501, versions unchanged")

# A version raised without NOTIFY is found by the periodic check, within
# TopologyRefresh (2) seconds.
for m in versions:
    su(m, "UPDATE gcluster.version SET version = version + 1")
t0 = time.monotonic()
found = None
while time.monotonic() - t0 < 5:
    b.cursor().execute("SELECT 1").fetchall()
    if "now following catalog version %d" % (top + 1) in open(trace_b).read():
        found = time.monotonic() - t0
        break
    time.sleep(0.1)
if found is None or found > 2.5:
    fail("a version raised without NOTIFY was followed after %r s (TopologyRefresh=2)" % found)
print("ok: a version raised without NOTIFY followed after %.2f s by the periodic check" % found)
a.close()
b.close()
print("PASS")
