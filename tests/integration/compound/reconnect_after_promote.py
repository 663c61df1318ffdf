"""Issue 17's second compound fault: a global connection holds its session
to G2N1; G2N1 is killed (kill -9 of its postmaster) and G2N2 promoted with
gcctl. ALTER SYSTEM RECONNECT GLOBAL CONNECTION on that connection, its
next statement, must succeed (SQL_SUCCESS: every group has a member that
answers), raise the catalog version on every group's primary, and later
keyed writes to G2 must run on G2N2 (counted by G2N2's pg_stat_statements
and its rows). A second connection whose listening session freezes still
follows a raised version (the version check reads on another member).
Then G3's primary is stopped, then all of G3: RECONNECT succeeds with
SQL_SUCCESS_WITH_INFO, 01000 naming G3, and raises the version on G1 and
G2. With no member answering at all it fails with 08S01.

usage: reconnect_after_promote.py DSN HELPER (run by ../failover/failover.sh)"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
import pyodbc  # noqa: E402

from fault_helper import fail, run_helper  # noqa: E402

DSN, HELPER = sys.argv[1], sys.argv[2]
RECONNECT = "ALTER SYSTEM RECONNECT GLOBAL CONNECTION"


def helper(*args):
    return run_helper(HELPER, *args)


def version(member):
    return int(helper("su", member, "SELECT version FROM gcluster.version"))


# Keys of G2, as the servers placed the rows.
G2_KEYS = [int(k) for k in helper(
    "app", "G1N1", "SELECT a.id FROM accounts a JOIN gcluster.shards s "
    "ON s.name = a.tableoid::regclass::text WHERE s.group_name = 'G2' ORDER BY a.id").split()]
if len(G2_KEYS) < 5:
    fail(f"G2 holds only {len(G2_KEYS)} of the rows")

conn = pyodbc.connect(f"DSN={DSN};ReconnectInterval=1;ConnectTimeout=2", autocommit=True)
cur = conn.cursor()
# The connection opened a session to every member; a write shows it uses G2N1.
cur.execute("UPDATE accounts SET owner = 'before' WHERE id = ?", G2_KEYS[0])
if helper("app", "G2N1", f"SELECT owner FROM accounts WHERE id = {G2_KEYS[0]}") != "before":
    fail("the keyed write before the fault did not reach G2N1")

# G2N1 dies under the idle connection; G2N2 is promoted (G1 and G3 are up).
helper("kill", "G2N1")
helper("promote", "G2N2")
before = max(version(m) for m in ("G1N1", "G2N2", "G3N1"))

try:
    cur.execute(RECONNECT)
except pyodbc.Error as e:
    fail(f"RECONNECT with G2N1 dead and G2N2 promoted failed: {e.args}")
if cur.messages:
    fail(f"RECONNECT with a member of every group answering gave warnings: {cur.messages}")
for m in ("G1N1", "G2N2", "G3N1"):
    if version(m) != before + 1:
        fail(f"after RECONNECT {m} has version {version(m)}, expected {before + 1}")
print(f"ok: RECONNECT on the connection that held G2N1's dead session: SQL_SUCCESS, "
      f"version {before + 1} on every primary")

helper("su", "G2N2", "SELECT pg_stat_statements_reset()")
for k in G2_KEYS[:5]:
    cur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", k)
calls = int(helper("su", "G2N2", "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                   "WHERE query LIKE 'UPDATE accounts SET balance%'"))
if calls < 5:
    fail(f"G2N2's pg_stat_statements counts {calls} of the 5 keyed writes to G2")
rows = int(helper("app", "G2N2", "SELECT count(*) FROM accounts WHERE balance = 1 AND id IN (%s)"
                  % ",".join(str(k) for k in G2_KEYS[:5])))
if rows != 5:
    fail(f"G2N2 holds {rows} of the 5 written rows")
print("ok: the 5 keyed writes to G2 after RECONNECT ran on G2N2 (pg_stat_statements, rows)")

# The catalog version check fails over: a second connection LISTENs on
# the seed that read its catalog, G1N1 (the first seed, a primary). G1N1
# freezes (SIGSTOP: its session looks open and never answers) and the
# version is raised on G2 and G3 with a reconnect's reason. The next
# statement's version check finds G1N1 silent (MemberTimeout=1), marks it
# down and reads the version on another primary: the connection follows
# the new version and, since it was raised to reconnect, reopens every
# session, which G3N1 sees as a new backend.
c2 = pyodbc.connect(f"DSN={DSN};TopologyRefresh=1;MemberTimeout=1;ReconnectInterval=60;"
                    "ConnectTimeout=2", autocommit=True)
c2.cursor().execute("SELECT 1").fetchall()
helper("sigstop", "G1N1")
try:
    top = max(version(m) for m in ("G2N2", "G3N1")) + 1
    raised = helper("su", "G3N1", "SELECT clock_timestamp()")
    for m in ("G2N2", "G3N1"):
        helper("su", m, f"SELECT gcluster.bump_version('reconnect', {top})")
    time.sleep(1.3)   # TopologyRefresh: the next statement checks the version
    c2.cursor().execute("SELECT 1").fetchall()
    fresh = int(helper("su", "G3N1", "SELECT count(*) FROM pg_stat_activity WHERE usename = 'app' "
                       f"AND backend_start > '{raised}'"))
    if fresh < 1:
        fail("with its listener G1N1 frozen, the connection did not follow the version raised "
             "on G2 and G3 to reconnect (no new session on G3N1)")
    print(f"ok: version check with the listener frozen: read on another member, version {top} "
          f"followed, sessions reopened ({fresh} new on G3N1)")
finally:
    helper("sigcont", "G1N1")
c2.close()

# A group without a primary: RECONNECT succeeds with a warning that the
# version was not raised there; a whole group down: a warning naming it.
def reconnect_warns(case, words):
    """RECONNECT must succeed with a 01000 warning holding every one of words."""
    try:
        cur.execute(RECONNECT)
    except pyodbc.Error as e:
        fail(f"RECONNECT with {case} failed: {e.args}")
    warned = [m for m in cur.messages if "01000" in m[0] and all(w in m[1] for w in words)]
    if not warned:
        fail(f"RECONNECT with {case} gave no 01000 warning with {words}: {cur.messages}")
    print(f"ok: RECONNECT with {case}: SQL_SUCCESS_WITH_INFO {warned[0][0]} {warned[0][1]!r}")


helper("stop", "G3N1")
reconnect_warns("G3N1 down", ("G3", "not raise"))
helper("stop", "G3N2")
before = max(version(m) for m in ("G1N1", "G2N2"))
reconnect_warns("G3 down", ("G3", "not reach"))
for m in ("G1N1", "G2N2"):
    if version(m) != before + 1:
        fail(f"after RECONNECT with G3 down {m} has version {version(m)}, expected {before + 1}")
cur.execute("UPDATE accounts SET balance = balance + 1 WHERE id = ?", G2_KEYS[0])
print(f"ok: version {before + 1} on G1 and G2; the connection still writes")

# Nothing answers: 08S01.
for m in ("G1N1", "G1N2", "G2N2"):
    helper("stop", m)
try:
    cur.execute(RECONNECT)
    fail("RECONNECT with no member answering succeeded")
except pyodbc.Error as e:
    if e.args[0] != "08S01":
        fail(f"RECONNECT with no member answering gave {e.args}, expected 08S01")
print("ok: RECONNECT with no member answering: 08S01")
conn.close()
